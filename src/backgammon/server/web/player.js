// The player page (#/player/NAME): ratings, the rating graph, match history (filtered
// by opponent, result, length and dates, a page at a time, by the server).

import { $, api, el, sayError } from "./common.js";
import * as V from "./playerview.js";

// -- the player page (#/player/NAME) ----------------------------------------------------

export function playerLink(name) {
  return el("a", { href: `#/player/${encodeURIComponent(name)}`, class: "player-link", text: name });
}

let playerShown = null; // the name whose page was asked for last
const HISTORY_PAGE = 20; // matches a page
const history = { name: null, page: 1, total: 0, asked: 0 }; // the history shown; `asked` numbers requests

export async function openPlayer(name) {
  playerShown = name;
  $("#player-name").textContent = name;
  $("#player-kind").textContent = "";
  for (const id of ["#player-ratings tbody", "#player-matches tbody", "#player-graph", "#player-graph-range"]) {
    $(id).replaceChildren();
  }
  history.name = null; // the form's reset must not load the last player's history
  $("#history-filters").reset();
  Object.assign(history, { name, page: 1, total: 0 });
  loadHistory();
  try {
    const profile = await api("GET", `/api/users/${encodeURIComponent(name)}`);
    if (playerShown === name) renderPlayer(profile);
  } catch (error) {
    sayError(error);
  }
}

/** The history API's query for the filters on the page and the page wanted. */
function historyQuery() {
  const query = new URLSearchParams({ page: String(history.page), per_page: String(HISTORY_PAGE) });
  const fields = { opponent: "#history-opponent", result: "#history-result", length: "#history-length", since: "#history-since", until: "#history-until" };
  for (const [key, selector] of Object.entries(fields)) {
    const value = $(selector).value.trim();
    if (value) query.set(key, value);
  }
  return query;
}

async function loadHistory() {
  const asked = ++history.asked;
  const name = history.name;
  try {
    const page = await api("GET", `/api/users/${encodeURIComponent(name)}/matches?${historyQuery()}`);
    if (asked === history.asked) renderHistory(page, name);
  } catch (error) {
    if (asked === history.asked) sayError(error);
  }
}

function renderHistory(page, name) {
  history.total = page.total;
  $("#player-matches tbody").replaceChildren(...page.matches.map((match) => historyLine(match, name)));
  const first = (page.page - 1) * page.per_page + 1;
  const last = first + page.matches.length - 1;
  $("#history-count").textContent = page.total === 0 ? "No matches." : `${first}-${last} of ${page.total}`;
  $("#history-previous").disabled = page.page <= 1;
  $("#history-next").disabled = last >= page.total;
}

/** Wire the history's filters and pages (once, at start). */
export function bindHistory() {
  $("#history-filters").addEventListener("submit", (event) => {
    event.preventDefault();
    history.page = 1;
    loadHistory();
  });
  $("#history-filters").addEventListener("reset", () => {
    if (!history.name) return;
    history.page = 1;
    setTimeout(loadHistory); // after the form has cleared itself
  });
  $("#history-previous").addEventListener("click", () => {
    history.page = Math.max(1, history.page - 1);
    loadHistory();
  });
  $("#history-next").addEventListener("click", () => {
    history.page += 1;
    loadHistory();
  });
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
}

function historyLine(match, name) {
  const row = V.historyRow(match, name);
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
}

