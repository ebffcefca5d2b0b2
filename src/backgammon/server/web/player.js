// The player page (#/player/NAME): ratings, the rating graph, match history.

import { $, api, el, sayError } from "./common.js";
import * as V from "./view.js";

// -- the player page (#/player/NAME) ----------------------------------------------------

export function playerLink(name) {
  return el("a", { href: `#/player/${encodeURIComponent(name)}`, class: "player-link", text: name });
}

let playerShown = null; // the name whose page was asked for last

export async function openPlayer(name) {
  playerShown = name;
  $("#player-name").textContent = name;
  $("#player-kind").textContent = "";
  for (const id of ["#player-ratings tbody", "#player-matches tbody", "#player-graph", "#player-graph-range"]) {
    $(id).replaceChildren();
  }
  try {
    const profile = await api("GET", `/api/users/${encodeURIComponent(name)}`);
    if (playerShown === name) renderPlayer(profile);
  } catch (error) {
    sayError(error);
  }
}

function renderPlayer(profile) {
  $("#player-name").textContent = profile.name;
  $("#player-kind").textContent = profile.bot_level ? `${profile.kind} (${profile.bot_level})` : profile.kind;
  const ratings = Object.entries(profile.ratings);
  $("#player-ratings tbody").replaceChildren(
    ...ratings.map(([variant, r]) =>
      el(
        "tr",
        { "data-variant": variant },
        el("td", { text: variant }),
        el("td", { class: "number rating", text: r.rating.toFixed(1) }),
        el("td", { class: "number", text: String(r.experience) }),
      ),
    ),
  );
  $("#player-ratings").hidden = ratings.length === 0;
  $("#player-no-ratings").hidden = ratings.length > 0;

  const svg = $("#player-graph");
  const { points, low, high } = V.ratingPoints(profile.rating_history, "standard", 600, 200, { pad: 12 });
  if (points.length) {
    const ns = "http://www.w3.org/2000/svg";
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", points.map(([x, y]) => `${x},${y}`).join(" "));
    line.setAttribute("class", "rating-line");
    svg.replaceChildren(line);
    $("#player-graph-range").textContent = `from ${low.toFixed(0)} to ${high.toFixed(0)}, over ${points.length - 1} rated match${points.length === 2 ? "" : "es"}`;
  } else {
    svg.replaceChildren();
    $("#player-graph-range").textContent = "No rated standard matches yet.";
  }

  $("#player-matches tbody").replaceChildren(
    ...profile.matches.map((match) => {
      const row = V.historyRow(match, profile.name);
      const downloads = el("td", {});
      if (row.finished) {
        downloads.append(
          el("a", { href: `/api/matches/${row.id}/record.mat`, download: "", text: ".mat" }),
          " · ",
          el("a", { href: `/api/matches/${row.id}/record.sgf`, download: "", text: "SGF" }),
          " · ",
          el("a", { href: `/api/matches/${row.id}/record.ogxm`, download: "", text: "OGXM" }),
          " · ",
          el("a", { href: `#/review/${row.id}`, class: "review-link", text: "Review" }),
        );
      }
      return el(
        "tr",
        { "data-match": row.id },
        el("td", {}, row.opponent ? playerLink(row.opponent) : ""),
        el("td", { class: "number", text: row.length }),
        el("td", { text: row.variant }),
        el("td", { text: row.result }),
        el("td", { text: row.date }),
        downloads,
      );
    }),
  );
}
