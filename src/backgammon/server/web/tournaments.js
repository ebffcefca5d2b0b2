// The tournaments page: the list (open, running, finished) with the form that creates
// an event, and one tournament (?id=ID): its status, winner, standings (a column for
// each tie-break), rounds or arena games, the player's own match, registering and
// withdrawing, and the organiser's bots and start. Refreshed every two seconds (being
// on the page counts as present for the event's start); a new match of one's own is
// opened at once, once, when its pairing is heard (pairings.js, on the list too) or
// first seen in the view. What is shown comes from tournamentview.js (pure, unit-tested);
// every text from the server is set as text, never as HTML.

import { $, SessionEndedError, api, el, say, sayError, showWho } from "./common.js";
import { listenForPairings, openMatchOnce } from "./pairings.js";
import * as T from "./tournamentview.js";

const REFRESH_MS = 2000;
const HINT = "backgammon.session"; // set by the app once logged in (the cookie is HttpOnly)

/** What the page knows: who is signed in ({name, kind}) or null, and the bot levels. */
const page = { me: undefined, levels: [] };

function tournamentId() {
  return new URLSearchParams(location.search).get("id");
}

/** Who is signed in, asked once a page load. Only the server's "no session" (401)
 * makes a stranger: another failure (the server unreachable for a moment) is thrown,
 * said, and asked again at the next refresh. */
async function whoAmI() {
  if (page.me !== undefined) return page.me;
  let me = null;
  if (localStorage.getItem(HINT)) {
    try {
      me = await api("GET", "/api/me");
      const lobby = await api("GET", "/api/lobby");
      page.levels = lobby.bots.map((bot) => bot.bot_level).filter(Boolean);
    } catch (error) {
      if (!(error instanceof SessionEndedError)) throw error;
      me = null;
    }
  }
  page.me = me;
  showWho(me);
  if (me) listenForPairings(me.name, say); // a round's start, on any of these pages
  return me;
}

function fillLevels(select) {
  if (select.options.length) return;
  select.append(...page.levels.map((level) => el("option", { value: level, text: level })));
}

// -- the list and the creation form --------------------------------------------------

async function showList() {
  const me = await whoAmI();
  $("#sign-in-hint").hidden = Boolean(me);
  $("#tournament-new").hidden = !me;
  $("#create-link").hidden = !me;
  if (me) fillLevels($("#tournament-new").bot_level);
  for (const list of document.querySelectorAll("#tournament-list ul")) {
    const { tournaments } = await api("GET", `/api/tournaments?status=${list.dataset.status}`);
    list.replaceChildren(
      ...tournaments.map((t) => {
        const link = el("a", { href: `/tournaments?id=${encodeURIComponent(t.id)}`, text: t.name });
        return el("li", {}, link, ` (${T.FORMAT_NAMES[t.format] || t.format}, ${t.players} players)`);
      }),
    );
    if (!tournaments.length) list.append(el("li", { text: "None." }));
  }
}

/** Show the fields of the format chosen (rounds for Swiss and round robin, minutes for an arena). */
function showFormatFields(form) {
  for (const label of form.querySelectorAll("label[data-for]")) {
    label.hidden = !label.dataset.for.split(" ").includes(form.format.value);
  }
}

function formValues(form) {
  const values = Object.fromEntries(new FormData(form).entries());
  values.rated = form.rated.checked;
  return values;
}

async function createTournament(event) {
  event.preventDefault();
  const form = event.target;
  let asked;
  try {
    asked = T.creation(formValues(form));
  } catch (error) {
    say(error.message, true);
    return;
  }
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const created = await api("POST", "/api/tournaments", asked.body);
    for (let n = 0; n < asked.bots.count; n += 1) {
      await api("POST", `/api/tournaments/${encodeURIComponent(created.id)}/bots`, { level: asked.bots.level });
    }
    location.assign(`/tournaments?id=${encodeURIComponent(created.id)}`);
  } catch (error) {
    sayError(error);
    button.disabled = false;
  }
}

// -- one tournament ------------------------------------------------------------------

async function act(path, body) {
  try {
    await api("POST", `/api/tournaments/${encodeURIComponent(tournamentId())}/${path}`, body);
    say("");
  } catch (error) {
    sayError(error);
  }
  await showTournament(tournamentId());
}

const CONCEDE = "Withdraw from the tournament? You concede your match in play, and each later pairing is a forfeit.";

function showEntry(view, me) {
  const entry = $("#tournament-entry");
  entry.replaceChildren();
  const running = view.status === "running";
  if (!me || !(view.status === "open" || running)) return;
  const entered = view.players.some((p) => p.name === me.name);
  const withdrawn = T.withdrawn(view).includes(me.name);
  if (running && (!entered || withdrawn)) return;
  const button = el("button", { type: "button", text: entered ? "Withdraw" : "Register" });
  if (!entered) button.className = "primary";
  button.addEventListener("click", () => {
    if (running && !confirm(CONCEDE)) return;
    button.disabled = true;
    act(entered ? "withdraw" : "register");
  });
  entry.append(button);
}

function showOrganiser(view, me) {
  const form = $("#tournament-organiser");
  const open = view.status === "open";
  form.hidden = !me || view.organiser !== me.name || !(open || view.status === "running");
  $("#tournament-open-controls").hidden = !open;
  const pausable = view.status === "running" && view.format !== "arena";
  const paused = Boolean(view.settings && view.settings.paused);
  $("#tournament-pause").hidden = !pausable || paused;
  $("#tournament-resume").hidden = !pausable || !paused;
  if (!form.hidden && open) fillLevels(form.level);
}

function showStandings(standings) {
  const columns = T.tiebreakColumns(standings);
  const heads = ["#", "Player", "Points", ...columns.map(T.tiebreakTitle)];
  $("#standings thead tr").replaceChildren(...heads.map((text) => el("th", { scope: "col", text })));
  $("#standings tbody").replaceChildren(
    ...standings.map((standing, index) =>
      el(
        "tr",
        {},
        el("td", { text: String(index + 1) }),
        el("td", { text: standing.name }),
        el("td", { text: String(standing.points) }),
        ...columns.map((name) => el("td", { text: String(standing.tiebreaks[name] ?? "") })),
      ),
    ),
  );
}

function pairingItem(pairing, me) {
  const item = el("li", { text: T.pairingText(pairing) });
  if (pairing.match) {
    const mine = T.isOwnMatch(pairing, me && me.name);
    const link = el("a", { href: `/#/match/${encodeURIComponent(pairing.match)}`, text: mine ? "play your match" : "watch" });
    if (mine) link.className = "your-match";
    item.append(" ", link);
  }
  return item;
}

function showRounds(view, me) {
  const games = view.games ? [{ title: "Games", pairings: view.games }] : [];
  $("#rounds").replaceChildren(
    ...[...view.rounds, ...games].map((round) =>
      el(
        "li",
        {},
        round.title || `Round ${round.number}`,
        el("ul", {}, ...round.pairings.map((pairing) => pairingItem(pairing, me))),
      ),
    ),
  );
}

/** The player's match in play: a link, and the first time it is seen from here, the match itself. */
function showOwnMatch(view, me) {
  const match = T.ownMatch(view, me && me.name);
  const line = $("#tournament-your-match");
  line.hidden = match === null;
  if (match === null) return;
  const href = `/#/match/${encodeURIComponent(match)}`;
  line.replaceChildren("Your match is ready: ", el("a", { href, class: "your-match", text: "play it now" }));
  openMatchOnce(match);
}

async function showTournament(id) {
  const me = await whoAmI();
  const view = await api("GET", `/api/tournaments/${encodeURIComponent(id)}`);
  document.title = `Tournament: ${view.name}`;
  $("#tournament-list").hidden = true;
  $("#tournament").hidden = false;
  $("#tournament-name").textContent = view.name;
  $("#tournament-status").textContent = T.statusText(view);
  const champion = T.winner(view);
  $("#tournament-winner").hidden = champion === null;
  $("#tournament-winner").textContent = champion === null ? "" : `Winner: ${champion}`;
  const players = view.players.map((p) => T.playerLabel(p, view)).join(", ");
  $("#tournament-players").textContent = `Players: ${players || "none yet"}. Organiser: ${view.organiser}.`;
  showEntry(view, me);
  showOrganiser(view, me);
  showSideEvents(view);
  showStandings(view.standings);
  showRounds(view, me);
  showOwnMatch(view, me);
  return view.status;
}

function showSideEvents(view) {
  const related = view.parent ? [{ id: view.parent, name: "main event" }] : [];
  $("#side-events").replaceChildren(
    ...[...related, ...view.side_events].map((side) =>
      el(
        "li",
        {},
        el("a", { href: `/tournaments?id=${encodeURIComponent(side.id)}`, text: side.name }),
        side.status ? ` (${side.status})` : "",
      ),
    ),
  );
}

async function refresh() {
  const id = tournamentId();
  try {
    const status = id ? await showTournament(id) : (await showList(), "list");
    if (status === "finished" || status === "cancelled") return;
  } catch (error) {
    sayError(error);
  }
  setTimeout(refresh, REFRESH_MS);
}

function bind() {
  const form = $("#tournament-new");
  form.addEventListener("submit", createTournament);
  form.format.addEventListener("change", () => showFormatFields(form));
  showFormatFields(form);
  $("#tournament-organiser").addEventListener("submit", (event) => {
    event.preventDefault();
    act("bots", { level: event.target.level.value });
  });
  $("#tournament-start").addEventListener("click", () => act("start"));
  $("#tournament-pause").addEventListener("click", () => act("pause"));
  $("#tournament-resume").addEventListener("click", () => act("resume"));
  $("#tournament-cancel").addEventListener("click", () => {
    if (confirm("Cancel the tournament? No more rounds are paired; matches in play finish as ordinary matches.")) act("cancel");
  });
}

bind();
refresh();
