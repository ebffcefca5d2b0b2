// The web client: log in (or play as a guest), the lobby, the match view (play or
// watch; a shared match link opened without logging in watches it anonymously,
// read-only), the position tool (#/position: hints for a pasted position) and the review
// (#/review: an uploaded match file's analysis); those two need no login. HTTP for accounts and creating matches (the HttpOnly session cookie rides
// along), one WebSocket at /ws for everything live. What the board shows and allows
// comes from the pure, unit-tested modules (boardrules.js, boardmodel.js, planner.js,
// matchview.js, matchwords.js); board.js turns it into SVG.

import { bindBoardInput } from "./boardinput.js";
import * as B from "./boardmodel.js";
import * as R from "./boardrules.js";
import { drawBoard, onTurn, pickUpFromTheBar, scrollToBoard } from "./boardsvg.js";
import { cursorLabel, matchWords, showBoardWords } from "./boardwords.js";
import { $, SessionEndedError, UNAUTHORIZED, api, el, say, sayError, showWho } from "./common.js";
import { bindKeys, keyFocus } from "./keys.js";
import { drawLobby } from "./lobbypage.js";
import * as L from "./lobbyview.js";
import * as M from "./matchview.js";
import * as W from "./matchwords.js";
import { animateBoard } from "./motion.js";
import * as P from "./planner.js";
import { clockChoice } from "./clocks.js";
import { bindHistory, openPlayer, playerLink } from "./player.js";
import { bindPosition, drawPosition, openSharedPosition } from "./position.js";
import { freshNonce, giveNonce, noteOpened, noticePairing, pairingSentence } from "./pairings.js";
import { autoAction, bindPrefs, loadPrefs } from "./prefs.js";
import { bindReview, openReview } from "./review.js";
import { lastPlayNote, restoreSteps, saveSteps } from "./resume.js";
import { reviewRoute } from "./reviewview.js";
import { startLanding, stopLanding } from "./landing.js";
import * as S from "./social.js";
import { bindSound, playMoveSound, playTurnSound } from "./sound.js";

const HINT = "backgammon.session"; // "we logged in here before" (the cookie is HttpOnly)

/** Everything the page knows. */
const app = {
  me: null, // {name, kind}
  watching: false, // watching a match without an account (read-only, no chat)
  ws: null,
  rooms: new Set(), // what we are subscribed to ("lobby", match ids)
  retry: 0,
  lobby: null, // the lobby as the server shows it to us (with our invitations)
  creating: false, // a request that creates a match is on its way
  toldYours: false, // the player was told of their matches in play (once a page)
  match: null, // the match shown
  state: null,
  stateAt: 0, // performance.now() when the state came
  seat: null,
  plan: null, // view.planner() of the state, when we have a play to make
  chosen: [], // single steps picked so far this turn
  selected: null, // the place a checker was picked up from
  busy: false, // an action is on its way
  note: "", // what just changed (view.describeEntries), said before the status
  summary: null, // the end of a game, shown until dismissed (view.gameSummary)
  held: null, // the ended game's last state, drawn under its summary
  presence: null, // the match's last `presence` message: who is connected
  serverLag: 0, // the server's clock minus ours, in seconds (from `presence.now`)
  length: 5, // chosen match length in the lobby
  autoActedAt: null, // "match:seq" of the state the last automatic action (prefs.js) answered
};

/** Whether this page shows a match of ours that is not over, other than `matchId`. */
function playingAnother(matchId) {
  const state = app.state;
  const viewing = document.body.dataset.view === "match" && app.match && app.match !== matchId;
  return Boolean(viewing && state && !state.open && !state.result && app.seat !== null);
}

/** The event the match is played in: named beside its title, and at its end the way back. */
function showEvent(state) {
  const event = state.event || null;
  const href = event ? `/tournaments?id=${encodeURIComponent(event.id)}` : "";
  const round = event && event.format !== "arena" ? `, round ${event.round}` : "";
  $("#match-event").hidden = !event;
  $("#result-event").hidden = !event;
  if (!event) return;
  $("#match-event").href = href;
  $("#match-event").textContent = `${event.name}${round}`;
  $("#result-event-link").href = href;
  $("#result-event-link").textContent = `Back to ${event.name}`;
}

function show(view) {
  for (const name of ["login", "lobby", "match", "position", "review", "player"]) $(`#${name}-view`).hidden = name !== view;
  document.body.dataset.view = view;
  if (view === "login") startLanding();
  else stopLanding();
}

// -- session ---------------------------------------------------------------------------

function signedIn(user) {
  if (app.watching) stopWatching();
  app.me = user;
  S.socialSignedIn(user);
  localStorage.setItem(HINT, "1");
  showWho(user);
  $("#logout").hidden = false;
  app.rooms.add("lobby");
  connect();
  route();
}

function loggedOut() {
  localStorage.removeItem(HINT);
  app.me = null;
  app.rooms.clear();
  app.match = null;
  if (app.ws) app.ws.close(1000);
  app.ws = null;
  $("#who").textContent = "";
  $("#logout").hidden = true;
  route();
}

async function start() {
  bindLogin();
  bindLobby();
  S.bindSocial({ send, invite: (name) => createMatch(name) });
  bindMatch();
  bindBoardKeys();
  bindSound($("#sound-toggle"));
  bindPrefs();
  bindPosition();
  bindReview();
  bindHistory();
  window.addEventListener("hashchange", route);
  window.addEventListener(UNAUTHORIZED, () => {
    if (!app.me) return; // already logged out, and told why
    loggedOut();
    say("Your session has ended; log in again.", true);
  });
  setInterval(updateClocks, 250);
  if (!localStorage.getItem(HINT)) {
    route();
    return;
  }
  await resumeSession();
}

const RESUME_RETRY_MS = 3000;

/** Back into the session this browser logged in to before. Only the server's "no
 * session" (401) logs out: a request that failed (the server unreachable, the page
 * left while it was asked) keeps the hint and is tried again, or the other pages
 * would take a signed-in player for a stranger. */
async function resumeSession() {
  try {
    signedIn(await api("GET", "/api/me"));
  } catch (error) {
    if (error instanceof SessionEndedError) {
      loggedOut();
      return;
    }
    say(`Could not reach the server (${error.message}); trying again.`, true, true);
    setTimeout(resumeSession, RESUME_RETRY_MS);
  }
}

function openTool(view) {
  if (app.match) unsubscribe(app.match);
  app.match = null;
  app.state = null;
  show(view);
  if (view === "position") drawPosition();
}

function route() {
  if (location.hash === "#/position" || location.hash.startsWith("#/position?")) {
    openTool("position");
    return openSharedPosition(location.hash);
  }
  const reviewed = reviewRoute(location.hash);
  if (reviewed) {
    openTool("review");
    return openReview(reviewed.match);
  }
  const player = /^#\/player\/([A-Za-z0-9_]+)$/.exec(location.hash);
  if (player) {
    openTool("player");
    return openPlayer(player[1]);
  }
  const found = /^#\/match\/([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!app.me) {
    if (found) return watchMatch(found[1]);
    if (app.watching) stopWatching();
    return show("login");
  }
  if (found) openMatch(found[1]);
  else openLobby();
}

// -- watching without an account ---------------------------------------------------------

/** Open a shared match link without a session: its board, live and read-only. */
function watchMatch(id) {
  app.watching = true;
  document.body.dataset.viewer = "anonymous";
  openMatch(id);
  connect();
}

/** Stop watching anonymously (logging in, or the server refused to show the match). */
function stopWatching() {
  app.watching = false;
  delete document.body.dataset.viewer;
  app.rooms.clear();
  app.match = null;
  app.state = null;
  const ws = app.ws;
  app.ws = null;
  if (ws) ws.close(1000);
}

function bindLogin() {
  $("#login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const kind = event.submitter && event.submitter.value === "register" ? "register" : "login";
    try {
      const data = await api("POST", `/api/${kind}`, {
        name: form.elements.name.value.trim(),
        password: form.elements.password.value,
      });
      form.reset();
      say("");
      signedIn(data.user);
    } catch (error) {
      sayError(error);
    }
  });
  $("#guest").addEventListener("click", async () => {
    try {
      const data = await api("POST", "/api/guest");
      say(`You play as ${data.user.name}.`);
      signedIn(data.user);
    } catch (error) {
      sayError(error);
    }
  });
  $("#logout").addEventListener("click", async () => {
    try {
      await api("POST", "/api/logout");
    } finally {
      loggedOut();
      say("Logged out.");
    }
  });
}

// -- the WebSocket ---------------------------------------------------------------------

function connect() {
  if (app.ws || !(app.me || app.watching)) return;
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  app.ws = ws;
  ws.addEventListener("open", () => {
    app.retry = 0;
    for (const room of app.rooms) ws.send(JSON.stringify({ type: "subscribe", match: room }));
  });
  ws.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  ws.addEventListener("close", (event) => {
    if (app.ws !== ws) return;
    app.ws = null;
    if (event.code === 4429) return; // too many anonymous viewers: the error said so
    if (!app.me && !app.watching) return;
    const delay = Math.min(10000, 500 * 2 ** app.retry);
    app.retry += 1;
    say("Connection lost; reconnecting…", true, true);
    setTimeout(connect, delay);
  });
}

function send(message) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
    say("Not connected to the server; trying again…", true, true);
    return false;
  }
  app.ws.send(JSON.stringify(message));
  return true;
}

function subscribe(room) {
  app.rooms.add(room);
  if (app.ws && app.ws.readyState === WebSocket.OPEN) send({ type: "subscribe", match: room });
}

function unsubscribe(room) {
  app.rooms.delete(room);
  if (app.ws && app.ws.readyState === WebSocket.OPEN) send({ type: "unsubscribe", match: room });
}

function receive(message) {
  if (S.receiveSocial(message)) return;
  switch (message.type) {
    case "welcome":
      if (message.user === null && app.me) {
        // The session ended while the page was away: the server took us for a viewer.
        loggedOut();
        say("Your session has ended; log in again.", true, true);
        break;
      }
      if (message.user && !app.me) {
        signedIn(message.user); // logged in meanwhile (in another tab): no longer anonymous
        break;
      }
      if (message.protocol !== 1) say(`This page speaks protocol 1, the server ${message.protocol}.`, true);
      else if ($("#status").classList.contains("error") && app.retry === 0) say("Connected.");
      break;
    case "lobby":
      app.lobby = message;
      renderLobby();
      break;
    case "lobby_event":
      refreshLobby();
      break;
    case "invitation":
      say(`${message.from} invites you to a match.`);
      refreshLobby();
      break;
    case "match_closed": // an invitation declined or cancelled, an open match withdrawn
      say(L.closedSentence(message, app.me.name));
      if (message.match === app.match) location.hash = "#/";
      refreshLobby();
      break;
    case "match_started":
      if (document.body.dataset.view === "lobby" && message.players.includes(app.me.name)) {
        location.hash = `#/match/${message.match}`;
      }
      break;
    case "tournament_pairing":
      // The match's dice commitment is published: only now is our nonce chosen, and
      // the match starts once both players have given theirs (docs/fair-dice.md).
      // The player is taken to it from anywhere but a match of their own in play
      // (once: a pairing told again as the page reconnects finds them where they chose).
      say(pairingSentence(message));
      giveNonce({ id: message.match, players: [app.me.name, message.opponent] }, app.me.name);
      noticePairing(message);
      if (!playingAnother(message.match) && noteOpened(message.match)) location.hash = `#/match/${message.match}`;
      break;
    case "state":
      if (message.match === app.match) onState(message);
      break;
    case "presence":
      if (message.match === app.match) onPresence(message);
      break;
    case "chat":
      if (message.room === app.match) addChat(message.from, message.text, message.audience);
      break;
    case "chat_history":
      if (message.room === app.match) for (const line of message.lines) addChat(line.name, line.text, line.audience);
      break;
    case "tell":
      say(`${message.from} tells you: ${message.text}`);
      break;
    case "message": // FIBS's 'message', sent while this user is online
      say(`${message.from} left you a message: ${message.text}`);
      break;
    case "error": {
      const wasBusy = app.busy;
      app.busy = false;
      say(message.message || message.code, true);
      if (message.code === "login_required" && app.watching) {
        stopWatching(); // e.g. a match not started yet: only those logged in see it
        show("login");
        break;
      }
      if (wasBusy && app.state && app.state.game) {
        app.chosen = [];
        app.selected = null;
      }
      if (app.state) renderMatch();
      break;
    }
    case "kicked": // the server revoked this session: log in again (no reconnecting)
      loggedOut();
      say(message.message, true, true);
      break;
    case "moderation":
      say(message.message, true);
      break;
    default:
      break;
  }
}

// -- the lobby -------------------------------------------------------------------------

let lobbyTimer = null;

function refreshLobby() {
  if (lobbyTimer || !app.me) return;
  lobbyTimer = setTimeout(async () => {
    lobbyTimer = null;
    try {
      app.lobby = await api("GET", "/api/lobby");
      renderLobby();
    } catch (error) {
      sayError(error);
    }
  }, 300);
}

function openLobby() {
  if (app.match) unsubscribe(app.match);
  app.match = null;
  app.state = null;
  show("lobby");
  refreshLobby();
}

function matchSettings() {
  const custom = { delay: $("#clock-delay").value, reserve_per_point: $("#clock-reserve").value };
  const chosen = clockChoice($("#clock").value, custom);
  if (chosen.error) throw new Error(chosen.error);
  return { variant: $("#variant").value, length: app.length, clock: chosen.clock };
}

// While a request that creates a match runs, every button that creates one is
// disabled (a double click makes one match), and a second request is not sent.
function setCreating(on) {
  app.creating = on;
  for (const button of document.querySelectorAll("[data-creates]")) button.disabled = on;
}

// Run `create` (an async function of a request id) unless a creation is on its way.
// The request id makes the server's answer to a repeated request the first one's.
async function creating(create) {
  if (app.creating) return;
  setCreating(true);
  say("");
  try {
    await create(freshNonce());
  } catch (error) {
    sayError(error);
  } finally {
    setCreating(false);
  }
}

// opponent: a user to invite, "bot:LEVEL", or null (an open match: listed in the lobby,
// or, with byLink, unlisted and joined through its link).
// The dice: the server commits to its seed first, and only then is our nonce chosen
// and sent (docs/fair-dice.md).
function createMatch(opponent, byLink = false) {
  return creating(async (requestId) => {
    const body = { settings: matchSettings(), rated: $("#rated").checked, request_id: requestId };
    if (opponent) body.opponent = opponent;
    if (byLink) body.public = false;
    const { commitment } = await api("POST", "/api/matches/commitment");
    Object.assign(body, { commitment, nonce: freshNonce() });
    const created = await api("POST", "/api/matches", body);
    if (created.commitment !== commitment) throw new Error("the server changed its dice commitment");
    location.hash = `#/match/${created.id}`;
  });
}

const joining = new Set(); // the matches whose seat this page is asking for

async function joinMatch(id) {
  if (joining.has(id)) return; // a double click (or a second tab's list) asks once
  joining.add(id);
  try {
    await api("POST", `/api/matches/${id}/join`, { nonce: freshNonce() });
    location.hash = `#/match/${id}`;
  } catch (error) {
    sayError(error);
  } finally {
    joining.delete(id);
  }
}

// Decline an invitation to us, or take back (cancel, withdraw) an open match of ours.
// The answer is the match_closed message that the others are sent.
async function closeMatch(id, how) {
  try {
    const closed = await api("POST", `/api/matches/${id}/${how}`);
    say(L.closedSentence(closed, app.me.name));
    if (app.match === id) location.hash = "#/";
    refreshLobby();
  } catch (error) {
    sayError(error);
  }
}

function bindLobby() {
  for (const button of document.querySelectorAll("#lengths button")) {
    button.addEventListener("click", () => {
      app.length = Number(button.dataset.length);
      for (const other of document.querySelectorAll("#lengths button")) {
        other.setAttribute("aria-pressed", String(other === button));
      }
    });
  }
  const showCustomClock = () => ($("#clock-custom").hidden = $("#clock").value !== "custom");
  $("#clock").addEventListener("change", showCustomClock);
  showCustomClock(); // a reload may have restored "custom"
  $("#open-match").addEventListener("click", () => createMatch(null));
  $("#link-match").addEventListener("click", () => createMatch(null, true));
  $("#invite-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("#invite-name").value.trim();
    if (name) createMatch(name);
  });
}

function renderLobby() {
  drawLobby(app, { createMatch, joinMatch, closeMatch, setCreating });
}

// -- the match view ----------------------------------------------------------------------

function openMatch(id) {
  show("match");
  if (app.match === id) return;
  if (app.match) unsubscribe(app.match);
  Object.assign(app, {
    match: id, state: null, seat: null, plan: null, chosen: [], selected: null, busy: false, note: "", summary: null, held: null,
    presence: null,
  });
  $("#chat-lines").replaceChildren();
  $("#board").innerHTML = "";
  $("#match-status").textContent = "Loading…";
  subscribe(id);
}

function onState(message) {
  const state = message.state;
  const before = app.state;
  app.state = state;
  app.stateAt = performance.now();
  app.seat = R.seatOf(state, app.me ? app.me.name : null);
  // Every message says what it changed (and only that): an old event never lingers.
  const summary = W.gameSummary(message.entries, state, app.seat);
  if (summary) {
    // A game ended: its summary stays, over its last position, until dismissed.
    app.summary = summary;
    const goesOn = state.game && state.game.number !== summary.number;
    app.held = goesOn ? W.endedState(before, message.entries, summary.number) : null;
    app.note = summary.after;
  } else if (!message.entries.length) {
    // A whole state (the page opened, reloaded or reconnected): unless nothing
    // changed, it says the game's last play, as the message that brought it did.
    if (!before || before.seq !== state.seq) app.note = lastPlayNote(state, app.seat);
  } else {
    const note = W.describeEntries(message.entries, state, app.seat);
    app.note = app.summary ? [app.note, note].filter(Boolean).join(" ") : note;
  }
  if (state.result) app.summary = app.held = null; // the result says it all
  if (!before || before.seq !== state.seq) {
    app.busy = false;
    app.chosen = [];
    app.selected = null;
    app.plan = P.planner(state, app.seat);
    app.chosen = restoreSteps(sessionStorage, state, app.plan); // a reload mid-turn
  }
  const ourTurn = (s) => s && !s.result && app.seat !== null && s.waiting_for === app.seat;
  if (before && before.match === state.match && ourTurn(state) && !ourTurn(before)) playTurnSound();
  renderMatch();
  if ((!before || before.open) && !state.open) scrollToBoard($("#match-view .board-column")); // its first board
  const typing = document.activeElement && ["INPUT", "TEXTAREA"].includes(document.activeElement.tagName);
  if (summary && !typing) $("#summary-continue").focus();
}

function onPresence(message) {
  const change = W.presenceChange(app.presence, message, app.state);
  app.presence = message;
  app.serverLag = message.now - Date.now() / 1000;
  if (change) say(change);
  updatePresence();
}

/** Show who is connected, the absent player's notice and, when the server will
 *  accept it, the claim button (called with the clocks, so the countdown runs). */
function updatePresence() {
  const state = app.state;
  if (!state || state.open) return;
  const view = W.presenceView(app.presence, state, app.seat, Date.now() / 1000 + app.serverLag);
  for (const mark of document.querySelectorAll("#match-view .presence")) {
    const here = view.connected[Number(mark.dataset.seat)];
    mark.textContent = here ? "connected" : "away";
    mark.classList.toggle("away", !here);
  }
  const notice = $("#presence-note");
  if (notice.textContent !== view.notice) notice.textContent = view.notice;
  notice.hidden = !view.notice;
  const claim = $("#do-claim");
  claim.hidden = !view.claim || Boolean(app.summary);
  claim.disabled = app.busy;
}

function act(kind, fields = {}) {
  if (!app.state || app.busy) return;
  const sent = send({ type: "action", match: app.match, action: { kind, ...fields }, expect: app.state.seq });
  if (sent) {
    app.busy = true;
    say("");
    renderMatch();
  }
}

const BUTTONS = [
  ["roll", () => act("roll")],
  ["double", () => act("double")],
  ["take", () => act("take")],
  ["drop", () => act("drop")],
  ["beaver", () => act("beaver")],
  ["raccoon", () => act("raccoon")],
  ["accept", () => act("accept")],
  ["reject", () => act("reject")],
  ["next-game", () => act("next_game")],
];

function bindMatch() {
  for (const [name, handler] of BUTTONS) $(`#do-${name}`).addEventListener("click", handler);
  $("#do-join").addEventListener("click", () => joinMatch(app.match));
  $("#viewer-login").addEventListener("click", () => show("login"));
  $("#do-claim").addEventListener("click", () => act("claim"));
  $("#summary-continue").addEventListener("click", () => {
    app.summary = null;
    app.held = null;
    renderMatch();
  });
  $("#do-decline").addEventListener("click", () => closeMatch(app.match, "decline"));
  $("#do-cancel").addEventListener("click", () => closeMatch(app.match, "cancel"));
  $("#copy-link").addEventListener("click", async () => {
    const link = $("#invite-link");
    try {
      await navigator.clipboard.writeText(link.value);
      say("Link copied: send it to your opponent.");
    } catch {
      link.select(); // no clipboard (an insecure page): the link is selected for copying by hand
      say("Copy the selected link and send it to your opponent.");
    }
  });
  $("#do-undo").addEventListener("click", () => {
    app.chosen.pop();
    app.selected = null;
    renderMatch();
  });
  $("#do-forced").addEventListener("click", () => {
    const move = $("#do-forced").dataset.move;
    if (move) act("play", { move });
  });
  $("#do-done").addEventListener("click", () => {
    const notation = P.completedPlay(app.plan, app.chosen);
    if (notation !== null) act("play", { move: notation });
  });
  $("#do-resign").addEventListener("click", () => {
    $("#resign-menu").hidden = !$("#resign-menu").hidden;
  });
  for (const button of document.querySelectorAll("#resign-menu [data-level]")) {
    button.addEventListener("click", () => {
      $("#resign-menu").hidden = true;
      act("resign", { level: Number(button.dataset.level) });
    });
  }
  $("#resign-cancel").addEventListener("click", () => ($("#resign-menu").hidden = true));
  for (const button of document.querySelectorAll("#choose-double button")) {
    button.addEventListener("click", () => act("choose_double", { number: Number(button.dataset.number) }));
  }
  $("#do-leave").addEventListener("click", () => {
    if (window.confirm("Leave the match? You concede it.")) act("leave");
  });
  $("#do-rematch").addEventListener("click", () =>
    creating(async (requestId) => {
      const { commitment } = await api("POST", "/api/matches/commitment");
      const body = { commitment, nonce: freshNonce(), request_id: requestId };
      const created = await api("POST", `/api/matches/${app.match}/rematch`, body);
      if (created.commitment !== commitment) throw new Error("the server changed its dice commitment");
      location.hash = `#/match/${created.id}`;
    }),
  );
  $("#to-lobby").addEventListener("click", () => (location.hash = "#/"));
  $("#move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("#move-input");
    const move = input.value.trim();
    if (!move) return;
    act("play", { move });
    input.value = "";
  });
  $("#chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("#chat-input");
    const text = input.value.trim();
    if (text && app.match && send({ type: "chat", room: app.match, text })) input.value = "";
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && app.selected !== null) {
      app.selected = null;
      renderMatch();
    }
  });
}

function addChat(from, text, audience) {
  const lines = $("#chat-lines");
  const item = el("li", {}, el("b", { text: `${from}: ` }), text);
  if (audience === "spectators") item.classList.add("spectators");
  lines.append(item);
  while (lines.children.length > 100) lines.firstChild.remove();
  lines.scrollTop = lines.scrollHeight;
}

function playerLine(state, seat, pips) {
  const name = state.players[seat];
  const parts = [el("span", { class: `swatch seat${seat}` }), el("b", {}, playerLink(name)), S.ratingTag(name)];
  parts.push(el("span", { text: `score ${M.shownScore(state, seat)}` }));
  if (pips != null) parts.push(el("span", { text: `pips ${pips}` }));
  parts.push(el("span", { class: "clock", "data-seat": String(seat) }));
  parts.push(el("span", { class: "presence", "data-seat": String(seat) }));
  return parts;
}

function renderMatch() {
  const state = app.state;
  if (!state) return;
  const seat = app.seat;
  $("#open-panel").hidden = !state.open;
  if (state.open) {
    const host = state.open.players[0];
    $("#match-title").textContent = `Open match: ${L.describeSettings(state.open.settings)}`;
    $("#match-status").textContent = L.describeOpen(state.open, app.me.name);
    $("#invite-link-row").hidden = host !== app.me.name;
    $("#invite-link").value = `${location.origin}/#/match/${state.open.id}`;
    $("#do-join").hidden = !L.mayJoin(state.open, app.me.name);
    giveNonce(state.open, app.me.name);
    $("#do-decline").hidden = state.open.invitee !== app.me.name;
    $("#do-cancel").hidden = host !== app.me.name;
    $("#do-cancel").textContent = state.open.invitee ? "Cancel the invitation" : "Withdraw the match";
    $("#board").innerHTML = "";
    showBoardWords($("#board-words"), null);
    for (const id of ["#player-top", "#player-bottom"]) $(id).replaceChildren();
    // Nothing of the match shown before (its result, a game's summary) stays on a new one.
    app.summary = app.held = null;
    $("#result").hidden = true;
    $("#game-summary").hidden = true;
    $("#match-event").hidden = true;
    setControls({});
    return;
  }
  const settings = state.settings;
  const game = state.game;
  const crawford = game && game.crawford ? " · Crawford game" : "";
  const spectating = seat === null ? " · watching" : "";
  showEvent(state);
  $("#match-title").textContent =
    `${settings.length ? `${settings.length}-point match` : "Money session"}` +
    `${settings.variant === "standard" ? "" : ` · ${settings.variant}`}${crawford}${spectating}`;

  const bottom = R.bottomSeat(seat);
  let pips = { bottom: null, top: null };
  const drawn = app.held || state; // the ended game's last position, under its summary
  const plan = app.held ? null : app.plan;
  if (drawn.game) {
    if (!app.held) app.selected = pickUpFromTheBar(canMove() ? app.plan : null, app.chosen, app.selected);
    const view = M.boardView(drawn, seat, app.chosen, plan);
    pips = view.pips;
    const mover = canMove();
    const movable = new Set(mover ? P.sources(app.plan, app.chosen) : []);
    const targets = new Set(mover && app.selected !== null ? P.destinations(app.plan, app.chosen, app.selected) : []);
    const points = B.pointsView(view);
    drawBoard($("#board"), {
      points,
      dice: M.diceView(drawn, plan, app.chosen),
      diceSide: drawn.game.turn === bottom ? "bottom" : "top",
      cube: M.cubeView(drawn, seat),
      seats: { bottom, top: 1 - bottom },
      movable,
      selected: mover ? app.selected : null,
      targets,
      focus: keyFocus(mover ? P.keyPlaces(app.plan, app.chosen, app.selected) : []),
    });
    $("#board").dataset.seq = String(state.seq);
    // For screen readers: the board in words, and where the keyboard's cursor is.
    const words = matchWords(state, drawn, seat, app.chosen, plan);
    showBoardWords($("#board-words"), words);
    const focus = keyFocus(mover ? P.keyPlaces(app.plan, app.chosen, app.selected) : []);
    $("#board").setAttribute("aria-label", cursorLabel(focus, mover ? app.selected : null, words));
    // The board is right at once; the checkers that moved then slide in (motion.js).
    if (animateBoard($("#board"), B.checkerSpots(points), `${state.match}:${drawn.game.number}:${bottom}`)) playMoveSound();
  }
  $("#player-top").replaceChildren(...playerLine(state, 1 - bottom, pips.top));
  $("#player-bottom").replaceChildren(...playerLine(state, bottom, pips.bottom));
  updateClocks();
  updatePresence();

  const summary = app.summary;
  $("#game-summary").hidden = !summary;
  if (summary) {
    $("#game-summary-title").textContent = summary.title;
    $("#game-summary-text").textContent = summary.lines.join(" ");
  }
  const allowed = summary ? {} : M.controls(state, seat);
  const done = P.completedPlay(app.plan, app.chosen) !== null;
  const forced = allowed.play && app.chosen.length === 0 ? P.forcedPlay(state, seat) : null;
  const undo = !summary && app.plan !== null && app.chosen.length > 0;
  setControls({ ...allowed, undo, done: done && !summary, forced: forced !== null });
  $("#do-forced").textContent = forced === null ? "" : `Play ${forced} (forced)`;
  $("#do-forced").dataset.move = forced ?? "";
  $("#move-form").hidden = !allowed.play;
  autoAct(allowed, forced);

  const result = $("#result");
  result.hidden = !state.result;
  if (state.result) {
    $("#result-game").textContent = W.lastGameSentence(state, seat);
    $("#result-text").textContent = W.resultSentence(state, seat);
    for (const kind of ["mat", "sgf", "dice"]) $(`#download-${kind}`).href = `/api/matches/${state.match}/record.${kind}`;
    $("#review-match").href = `#/review/${state.match}`;
  }
  let line = summary ? `${summary.title}.` : W.describe(state, seat); // the summary says the rest
  if (app.note && !state.result && !summary) line = `${app.note} ${line}`;
  if (app.plan && app.chosen.length) line += ` Chosen: ${P.formatSteps(app.plan, app.chosen)}`;
  // A live region: written only when it changes, so that it says each change once.
  if ($("#match-status").textContent !== line) $("#match-status").textContent = line;
  saveSteps(sessionStorage, state, app.plan ? app.chosen : []);
}

// Roll or make a forced play without a click when the player's preferences say so
// (prefs.js), once for each state: a refused action is not sent again.
function autoAct(allowed, forced) {
  if (app.busy || app.summary || !app.state || app.state.result) return;
  const key = `${app.state.match}:${app.state.seq}`;
  if (app.autoActedAt === key) return;
  const action = autoAction(loadPrefs(), allowed, forced);
  if (!action) return;
  app.autoActedAt = key;
  queueMicrotask(() => {
    if (app.state && `${app.state.match}:${app.state.seq}` === key && !app.busy) {
      act(action.kind, action.move ? { move: action.move } : {});
    }
  });
}

function setControls(allowed) {
  const map = {
    roll: "roll", double: "double", take: "take", drop: "drop", beaver: "beaver", raccoon: "raccoon",
    accept: "accept", reject: "reject", resign: "resign", "next-game": "nextGame", leave: "leave",
    rematch: "rematch", undo: "undo", done: "done", forced: "forced",
  };
  for (const [id, key] of Object.entries(map)) {
    const button = $(`#do-${id}`);
    button.hidden = !allowed[key];
    button.disabled = app.busy || (id === "rematch" && app.creating);
  }
  $("#choose-double").hidden = !allowed.chooseDouble;
  if (!allowed.resign) $("#resign-menu").hidden = true;
}

function updateClocks() {
  const state = app.state;
  if (!state || state.open || document.body.dataset.view !== "match") return;
  const clocks = M.clockView(state, (performance.now() - app.stateAt) / 1000);
  for (const span of document.querySelectorAll("#match-view .clock")) {
    const seat = Number(span.dataset.seat);
    if (!clocks) {
      span.textContent = "";
      continue;
    }
    const clock = clocks[seat];
    const delay = clock.delay ? ` +${Math.ceil(clock.delay)}s` : "";
    span.textContent = `time ${M.formatSeconds(clock.reserve)}${delay}`;
    span.classList.toggle("running", clock.running);
  }
  updatePresence();
}

// -- moving checkers: click a checker, click where it goes; or drag it there -------------

function canMove() {
  return app.plan !== null && !app.busy && app.summary === null;
}

/** Clicks, drags (boardinput.js) and keys (keys.js) on the board; a turned phone redraws it. */
function bindBoardKeys() {
  const board = $("#board");
  const clickPlace = bindBoardInput(board, {
    plan: () => (canMove() ? app.plan : null),
    chosen: () => app.chosen,
    selected: () => app.selected,
    select: (place) => (app.selected = place),
    step: (step) => makeStep(step),
    render: () => renderMatch(),
    seat: () => R.bottomSeat(app.seat),
  });
  bindKeys({
    board,
    active: () => document.body.dataset.view === "match" && app.state !== null,
    places: () => (canMove() ? P.keyPlaces(app.plan, app.chosen, app.selected) : []),
    activate: clickPlace,
    render: () => renderMatch(),
    help: $("#key-help"),
  });
  onTurn(() => renderMatch());
}

function makeStep(step) {
  app.chosen.push(step);
  app.selected = null;
  renderMatch();
}

start();
