// The landing page (the login view), for anyone without an account: what is on now
// (public matches in play to watch, running and open tournaments, chouette tables),
// and the way to play (the guest button and the login form beside it). Refreshed
// every ten seconds while it is shown; every text from the server is set as text.

import { $, api, el } from "./common.js";
import { describeSettings } from "./lobbyview.js";

const REFRESH_MS = 10_000;

let timer = null;

/** Show what is on now, and keep it fresh while the landing page is shown. */
export function startLanding() {
  clearTimeout(timer);
  refresh();
}

/** Stop refreshing (the landing page is hidden). */
export function stopLanding() {
  clearTimeout(timer);
  timer = null;
}

async function refresh() {
  if ($("#login-view").hidden) return;
  try {
    const [live, running, open, tables] = await Promise.all([
      api("GET", "/api/live"),
      api("GET", "/api/tournaments?status=running"),
      api("GET", "/api/tournaments?status=open"),
      api("GET", "/api/chouettes"),
    ]);
    render(live, [...running.tournaments, ...open.tournaments], tables.tables);
  } catch {
    // Nothing to show this time; the next refresh tries again.
  }
  timer = setTimeout(refresh, REFRESH_MS);
}

function listOf(id, items, none) {
  $(id).replaceChildren(...(items.length ? items : [el("li", { class: "none", text: none })]));
}

function render(live, events, tables) {
  listOf(
    "#live-matches",
    live.playing.map((match) =>
      el(
        "li",
        {},
        el("a", { href: `#/match/${encodeURIComponent(match.id)}`, text: `${match.players[0]} – ${match.players[1]}` }),
        `: ${describeSettings(match.settings)}`,
      ),
    ),
    "No public match is being played right now.",
  );
  const waiting = live.waiting;
  $("#live-waiting").textContent = waiting
    ? `${waiting} open ${waiting === 1 ? "match waits" : "matches wait"} for an opponent: play as a guest to take one.`
    : "";
  listOf(
    "#live-events",
    events.map((t) =>
      el("li", {}, el("a", { href: `/tournaments?id=${encodeURIComponent(t.id)}`, text: t.name }), ` (${t.format}, ${t.status}, ${t.players} players)`),
    ),
    "No tournament is open or running.",
  );
  listOf(
    "#live-tables",
    tables.map((t) =>
      el("li", {}, el("a", { href: `/chouettes?id=${encodeURIComponent(t.id)}`, text: t.name }), ` (${t.status}, ${t.players.length} of ${t.seats} seats)`),
    ),
    "No chouette table is open.",
  );
}
