// The web client: log in (or play as a guest), the lobby, the match view (play or
// watch), the position tool (#/position: hints for a pasted position) and the review
// (#/review: an uploaded match file's analysis); those two need no login. HTTP for accounts and creating matches (the HttpOnly session cookie rides
// along), one WebSocket at /ws for everything live. What the board shows and allows
// comes from view.js (pure, unit-tested); board.js turns it into SVG.

import { boardMarkup, dragMarkup } from "./board.js";
import * as V from "./view.js";

const HINT = "backgammon.session"; // "we logged in here before" (the cookie is HttpOnly)
const BOT_NAMES = { beginner: "Beginner", intermediate: "Intermediate", expert: "Expert", worldclass: "World class" };

const $ = (selector) => document.querySelector(selector);

/** Everything the page knows. */
const app = {
  me: null, // {name, kind}
  ws: null,
  rooms: new Set(), // what we are subscribed to ("lobby", match ids)
  retry: 0,
  lobby: null,
  invitations: new Map(), // match id -> invitation message
  match: null, // the match shown
  state: null,
  stateAt: 0, // performance.now() when the state came
  seat: null,
  plan: null, // view.planner() of the state, when we have a play to make
  chosen: [], // single steps picked so far this turn
  selected: null, // the place a checker was picked up from
  busy: false, // an action is on its way
  note: "", // what the opponent just did
  press: null, // a pointer pressed on the board
  length: 5, // chosen match length in the lobby
};

// -- small helpers ---------------------------------------------------------------------

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "onclick") node.addEventListener("click", value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function say(text, error = false) {
  const status = $("#status");
  status.textContent = text;
  status.classList.toggle("error", error);
}

function messageOf(data, response) {
  if (data && typeof data.message === "string") return data.message;
  if (data && Array.isArray(data.detail)) {
    return data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
  }
  if (data && typeof data.detail === "string") return data.detail;
  return `${response.status} ${response.statusText}`;
}

async function api(method, path, body) {
  const options = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.status === 401 && !path.startsWith("/api/login")) loggedOut();
  if (!response.ok) throw new Error(messageOf(data, response));
  return data;
}

function nonce() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function show(view) {
  for (const name of ["login", "lobby", "match", "position", "review", "player"]) $(`#${name}-view`).hidden = name !== view;
  document.body.dataset.view = view;
}

// -- session ---------------------------------------------------------------------------

function signedIn(user) {
  app.me = user;
  localStorage.setItem(HINT, "1");
  $("#who").textContent = user.kind === "guest" ? `${user.name} (guest)` : user.name;
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
  bindMatch();
  bindPosition();
  bindReview();
  window.addEventListener("hashchange", route);
  setInterval(updateClocks, 250);
  if (!localStorage.getItem(HINT)) {
    route();
    return;
  }
  try {
    signedIn(await api("GET", "/api/me"));
  } catch {
    loggedOut();
  }
}

function route() {
  if (location.hash === "#/position") return openTool("position");
  if (location.hash === "#/review") return openTool("review");
  const player = /^#\/player\/([A-Za-z0-9_]+)$/.exec(location.hash);
  if (player) return openPlayer(player[1]);
  if (!app.me) return show("login");
  const found = /^#\/match\/([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (found) openMatch(found[1]);
  else openLobby();
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
      say(error.message, true);
    }
  });
  $("#guest").addEventListener("click", async () => {
    try {
      const data = await api("POST", "/api/guest");
      say(`You play as ${data.user.name}.`);
      signedIn(data.user);
    } catch (error) {
      say(error.message, true);
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
  if (app.ws || !app.me) return;
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
    if (event.code === 4401) {
      loggedOut();
      say("Your session has ended; log in again.", true);
      return;
    }
    if (!app.me) return;
    const delay = Math.min(10000, 500 * 2 ** app.retry);
    app.retry += 1;
    say("Connection lost; reconnecting…", true);
    setTimeout(connect, delay);
  });
}

function send(message) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
    say("Not connected to the server; trying again…", true);
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
  switch (message.type) {
    case "welcome":
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
      app.invitations.set(message.match, message);
      say(`${message.from} invites you to a match.`);
      renderLobby();
      break;
    case "match_started":
      app.invitations.delete(message.match);
      if (document.body.dataset.view === "lobby" && message.players.includes(app.me.name)) {
        location.hash = `#/match/${message.match}`;
      }
      break;
    case "state":
      if (message.match === app.match) onState(message);
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
    case "error": {
      const wasBusy = app.busy;
      app.busy = false;
      say(message.message || message.code, true);
      if (wasBusy && app.state && app.state.game) {
        app.chosen = [];
        app.selected = null;
      }
      if (app.state) renderMatch();
      break;
    }
    case "kicked":
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
      say(error.message, true);
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
  const settings = { variant: $("#variant").value, length: app.length };
  if ($("#clock").value === "none") settings.clock = null;
  return settings;
}

async function createMatch(opponent) {
  const body = { settings: matchSettings(), rated: $("#rated").checked, nonce: nonce() };
  if (opponent) body.opponent = opponent;
  try {
    const created = await api("POST", "/api/matches", body);
    location.hash = `#/match/${created.id}`;
  } catch (error) {
    say(error.message, true);
  }
}

async function joinMatch(id) {
  try {
    await api("POST", `/api/matches/${id}/join`, { nonce: nonce() });
    app.invitations.delete(id);
    location.hash = `#/match/${id}`;
  } catch (error) {
    say(error.message, true);
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
  $("#open-match").addEventListener("click", () => createMatch(null));
  $("#invite-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("#invite-name").value.trim();
    if (name) createMatch(name);
  });
}

function describeSettings(settings) {
  const length = settings.length ? `${settings.length}-point` : "money";
  const variant = settings.variant === "standard" ? "" : ` ${settings.variant}`;
  const clock = settings.clock ? "" : ", untimed";
  return `${length}${variant}${clock}`;
}

function renderLobby() {
  const lobby = app.lobby;
  if (!lobby || !app.me) return;
  const me = app.me.name;
  const bots = $("#bots");
  bots.replaceChildren(
    ...lobby.bots.map((bot) =>
      el("button", {
        type: "button",
        title: `play ${bot.name}`,
        "data-level": bot.bot_level,
        text: BOT_NAMES[bot.bot_level] || bot.bot_level,
        onclick: () => createMatch(`bot:${bot.bot_level}`),
      }),
    ),
  );
  if (!lobby.bots.length) bots.append(el("span", { text: "No bots on this server." }));

  const invitations = [...app.invitations.values()].map((inv) =>
    el(
      "li",
      {},
      `${inv.from} invites you: ${describeSettings(inv.settings)} `,
      el("button", { type: "button", text: "Accept", onclick: () => joinMatch(inv.match) }),
    ),
  );
  $("#invitations").replaceChildren(...invitations);
  $("#invitations-card").hidden = invitations.length === 0;

  const open = lobby.open.map((match) => {
    const mine = match.players[0] === me;
    const text = `${match.players[0]}: ${describeSettings(match.settings)}${match.rated ? ", rated" : ""} `;
    const button = mine
      ? el("button", { type: "button", text: "Waiting…", onclick: () => (location.hash = `#/match/${match.id}`) })
      : el("button", { type: "button", text: "Join", onclick: () => joinMatch(match.id) });
    return el("li", {}, text, button);
  });
  $("#open-matches").replaceChildren(...(open.length ? open : [el("li", { class: "none", text: "none" })]));

  const online = lobby.online.map((user) => {
    const item = el("li", {}, playerLink(user.name), user.kind === "guest" ? " (guest) " : " ");
    if (user.name !== me && user.kind !== "bot") {
      item.append(el("button", { type: "button", text: "Invite", onclick: () => createMatch(user.name) }));
    }
    return item;
  });
  $("#online").replaceChildren(...(online.length ? online : [el("li", { class: "none", text: "nobody" })]));

  const playing = lobby.playing.map((match) => {
    const mine = match.players.includes(me);
    return el(
      "li",
      {},
      `${match.players[0]} – ${match.players[1]}: ${describeSettings(match.settings)} `,
      el("button", {
        type: "button",
        text: mine ? "Resume" : "Watch",
        onclick: () => (location.hash = `#/match/${match.id}`),
      }),
    );
  });
  $("#playing").replaceChildren(...(playing.length ? playing : [el("li", { class: "none", text: "none" })]));
}

// -- the match view ----------------------------------------------------------------------

function openMatch(id) {
  show("match");
  if (app.match === id) return;
  if (app.match) unsubscribe(app.match);
  Object.assign(app, { match: id, state: null, seat: null, plan: null, chosen: [], selected: null, busy: false, note: "" });
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
  app.seat = V.seatOf(state, app.me.name);
  const note = V.describeEntries(message.entries, state, app.seat);
  if (note) app.note = note;
  if (!before || before.seq !== state.seq) {
    app.busy = false;
    app.chosen = [];
    app.selected = null;
    app.plan = V.planner(state, app.seat);
  }
  renderMatch();
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
  $("#do-undo").addEventListener("click", () => {
    app.chosen.pop();
    app.selected = null;
    renderMatch();
  });
  $("#do-done").addEventListener("click", () => {
    const notation = V.completedPlay(app.plan, app.chosen);
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
  $("#do-rematch").addEventListener("click", async () => {
    try {
      const created = await api("POST", `/api/matches/${app.match}/rematch`);
      location.hash = `#/match/${created.id}`;
    } catch (error) {
      say(error.message, true);
    }
  });
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
  const svg = $("#board");
  svg.addEventListener("pointerdown", onPointerDown);
  svg.addEventListener("pointermove", onPointerMove);
  svg.addEventListener("pointerup", onPointerUp);
  svg.addEventListener("pointercancel", () => endDrag());
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
  const parts = [el("span", { class: `swatch seat${seat}` }), el("b", {}, playerLink(name))];
  parts.push(el("span", { text: `score ${state.score[seat]}` }));
  if (pips != null) parts.push(el("span", { text: `pips ${pips}` }));
  parts.push(el("span", { class: "clock", "data-seat": String(seat) }));
  return parts;
}

function renderMatch() {
  const state = app.state;
  if (!state) return;
  const seat = app.seat;
  if (state.open) {
    $("#match-title").textContent = `Open match: ${describeSettings(state.open.settings)}`;
    $("#match-status").textContent = V.describe(state, seat);
    $("#board").innerHTML = "";
    for (const id of ["#player-top", "#player-bottom"]) $(id).replaceChildren();
    setControls({});
    return;
  }
  const settings = state.settings;
  const game = state.game;
  const crawford = game && game.crawford ? " · Crawford game" : "";
  const spectating = seat === null ? " · watching" : "";
  $("#match-title").textContent =
    `${settings.length ? `${settings.length}-point match` : "Money session"}` +
    `${settings.variant === "standard" ? "" : ` · ${settings.variant}`}${crawford}${spectating}`;

  const bottom = V.bottomSeat(seat);
  let pips = { bottom: null, top: null };
  if (game) {
    const view = V.boardView(state, seat, app.chosen, app.plan);
    pips = view.pips;
    const mover = app.plan !== null && !app.busy;
    const movable = new Set(mover ? V.sources(app.plan, app.chosen) : []);
    const targets = new Set(mover && app.selected !== null ? V.destinations(app.plan, app.chosen, app.selected) : []);
    $("#board").innerHTML = boardMarkup({
      points: V.pointsView(view),
      dice: V.diceView(state, app.plan, app.chosen),
      diceSide: game.turn === bottom ? "bottom" : "top",
      cube: V.cubeView(state, seat),
      seats: { bottom, top: 1 - bottom },
      movable,
      selected: mover ? app.selected : null,
      targets,
    });
    $("#board").dataset.seq = String(state.seq);
  }
  $("#player-top").replaceChildren(...playerLine(state, 1 - bottom, pips.top));
  $("#player-bottom").replaceChildren(...playerLine(state, bottom, pips.bottom));
  updateClocks();

  const allowed = V.controls(state, seat);
  const done = V.completedPlay(app.plan, app.chosen) !== null;
  setControls({ ...allowed, undo: app.plan !== null && app.chosen.length > 0, done });
  $("#move-form").hidden = !allowed.play;

  const result = $("#result");
  result.hidden = !state.result;
  if (state.result) {
    $("#result-text").textContent = V.describe(state, seat);
    for (const kind of ["mat", "sgf", "dice"]) $(`#download-${kind}`).href = `/api/matches/${state.match}/record.${kind}`;
  }
  let line = V.describe(state, seat);
  if (app.note && !state.result) line = `${app.note}. ${line}`;
  if (app.plan && app.chosen.length) line += ` Chosen: ${V.formatSteps(app.plan, app.chosen)}`;
  $("#match-status").textContent = line;
}

function setControls(allowed) {
  const map = {
    roll: "roll", double: "double", take: "take", drop: "drop", beaver: "beaver", raccoon: "raccoon",
    accept: "accept", reject: "reject", resign: "resign", "next-game": "nextGame", leave: "leave",
    rematch: "rematch", undo: "undo", done: "done",
  };
  for (const [id, key] of Object.entries(map)) {
    const button = $(`#do-${id}`);
    button.hidden = !allowed[key];
    button.disabled = app.busy;
  }
  $("#choose-double").hidden = !allowed.chooseDouble;
  if (!allowed.resign) $("#resign-menu").hidden = true;
}

function updateClocks() {
  const state = app.state;
  if (!state || state.open || document.body.dataset.view !== "match") return;
  const clocks = V.clockView(state, (performance.now() - app.stateAt) / 1000);
  for (const span of document.querySelectorAll("#match-view .clock")) {
    const seat = Number(span.dataset.seat);
    if (!clocks) {
      span.textContent = "";
      continue;
    }
    const clock = clocks[seat];
    const delay = clock.delay ? ` +${Math.ceil(clock.delay)}s` : "";
    span.textContent = `time ${V.formatSeconds(clock.reserve)}${delay}`;
    span.classList.toggle("running", clock.running);
  }
}

// -- moving checkers: click a checker, click where it goes; or drag it there -------------

function svgPoint(event) {
  const svg = $("#board");
  const matrix = svg.getScreenCTM();
  if (!matrix) return null;
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  return { x: point.x, y: point.y, place: V.placeAt(point.x, point.y) };
}

function canMove() {
  return app.plan !== null && !app.busy;
}

function onPointerDown(event) {
  if (!canMove() || event.button !== 0) return;
  const at = svgPoint(event);
  if (!at) return;
  app.press = { place: at.place, x: event.clientX, y: event.clientY, dragging: false, id: event.pointerId };
  if (at.place !== null && V.sources(app.plan, app.chosen).includes(at.place)) {
    $("#board").setPointerCapture(event.pointerId);
  }
}

function onPointerMove(event) {
  const press = app.press;
  if (!press || press.id !== event.pointerId || !canMove()) return;
  const far = Math.hypot(event.clientX - press.x, event.clientY - press.y) > 6;
  if (!press.dragging && far && V.sources(app.plan, app.chosen).includes(press.place)) {
    press.dragging = true;
    app.selected = press.place;
    renderMatch();
  }
  if (press.dragging) {
    const at = svgPoint(event);
    if (!at) return;
    $("#drag-checker")?.remove();
    const group = document.createElementNS("http://www.w3.org/2000/svg", "g");
    group.id = "drag-checker";
    group.innerHTML = dragMarkup(V.bottomSeat(app.seat), at.x, at.y);
    $("#board").append(group);
  }
}

function onPointerUp(event) {
  const press = app.press;
  if (!press || press.id !== event.pointerId) return;
  const at = svgPoint(event);
  endDrag();
  if (!canMove() || !at) return;
  if (press.dragging) {
    const step = V.stepTo(app.plan, app.chosen, press.place, at.place);
    if (step) makeStep(step);
    else renderMatch();
    return;
  }
  clickPlace(at.place);
}

function endDrag() {
  app.press = null;
  $("#drag-checker")?.remove();
}

function clickPlace(place) {
  if (place === null) return;
  if (app.selected !== null) {
    const step = V.stepTo(app.plan, app.chosen, app.selected, place);
    if (step) {
      makeStep(step);
      return;
    }
  }
  const sources = V.sources(app.plan, app.chosen);
  app.selected = sources.includes(place) && app.selected !== place ? place : null;
  renderMatch();
}

function makeStep(step) {
  app.chosen.push(step);
  app.selected = null;
  renderMatch();
}

// -- the position tool -----------------------------------------------------------------

const tool = { report: null, shown: null }; // the last answer; the play drawn (null: the position)

function openTool(view) {
  if (app.match) unsubscribe(app.match);
  app.match = null;
  app.state = null;
  show(view);
  if (view === "position") drawPosition();
}

function drawPosition() {
  const svg = $("#position-board");
  const report = tool.report;
  if (!report) {
    svg.innerHTML = "";
    return;
  }
  const shown = tool.shown === null ? null : report.plays[tool.shown];
  const board = shown ? shown.board : report.board;
  svg.innerHTML = boardMarkup(V.positionModel(board, shown ? null : report.dice));
  $("#position-ids").textContent = `Position ID ${report.position_id} · ${report.xgid}`;
  for (const row of $("#position-plays tbody").children) {
    row.setAttribute("aria-selected", String(Number(row.dataset.index) === tool.shown));
  }
}

function showPlay(index) {
  tool.shown = tool.shown === index ? null : index;
  drawPosition();
}

function renderReport(report) {
  tool.report = report;
  tool.shown = null;
  const [win, winGammon, winBackgammon, loseGammon, loseBackgammon] = report.evaluation.probabilities;
  const percent = (p) => `${(100 * p).toFixed(1)}%`;
  $("#position-evaluation").textContent =
    `${report.ply}-ply, cubeless, for the side on roll: equity ${signed(report.evaluation.equity)}; ` +
    `win ${percent(win)} (gammon ${percent(winGammon)}, backgammon ${percent(winBackgammon)}), ` +
    `lose ${percent(1 - win)} (gammon ${percent(loseGammon)}, backgammon ${percent(loseBackgammon)})`;
  const body = $("#position-plays tbody");
  body.replaceChildren(
    ...report.plays.map((play, index) => {
      const row = el(
        "tr",
        { "data-index": String(index), tabindex: "0", onclick: () => showPlay(index) },
        el("td", { class: "number", text: String(index + 1) }),
        el("td", { class: "play", text: play.play }),
        el("td", { class: "number", text: signed(play.equity) }),
        el("td", { class: "number", text: index === 0 ? "" : signed(play.difference) }),
      );
      row.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          showPlay(index);
        }
      });
      return row;
    }),
  );
  $("#position-plays").hidden = report.plays.length === 0;
  drawPosition();
}

function signed(x) {
  return `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;
}

function bindPosition() {
  $("#position-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = $("#position-hint");
    const dice = $("#position-dice").value.trim();
    button.disabled = true;
    say("Thinking…");
    try {
      const report = await api("POST", "/api/position", {
        position: $("#position-text").value.trim(),
        dice: dice || null,
        ply: Number($("#position-ply").value),
      });
      say("");
      renderReport(report);
    } catch (error) {
      say(error.message, true);
    } finally {
      button.disabled = false;
    }
  });
}

// -- the player page (#/player/NAME) ----------------------------------------------------

function playerLink(name) {
  return el("a", { href: `#/player/${encodeURIComponent(name)}`, class: "player-link", text: name });
}

let playerShown = null; // the name whose page was asked for last

async function openPlayer(name) {
  openTool("player");
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
    say(error.message, true);
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

// -- the review of an uploaded match file ----------------------------------------------

const review = { job: null, errors: [], shown: null }; // the job followed; the error drawn

function showProgress(done, total, words) {
  $("#review-progress-row").hidden = false;
  const bar = $("#review-progress");
  bar.max = Math.max(total, 1);
  bar.value = done;
  $("#review-progress-text").textContent = words ?? `${done} of ${total} actions analysed`;
}

function renderReview(result) {
  const marksText = (marks) => Object.values(marks).join(" / ");
  $("#review-players tbody").replaceChildren(
    ...result.players.map((p) =>
      el(
        "tr",
        {},
        el("td", { text: p.name }),
        el("td", { class: "number", text: p.error_rate.toFixed(1) }),
        el("td", { class: "number", text: p.pr.toFixed(2) }),
        el("td", { text: p.rating }),
        el("td", { text: marksText(p.marks) }),
        el("td", { text: `${signed(p.luck_rate)} (${p.luck_rating})` }),
      ),
    ),
  );
  $("#review-errors tbody").replaceChildren(
    ...result.errors.map((e, index) => {
      const row = el(
        "tr",
        { class: "error-row", "data-index": String(index), tabindex: "0", onclick: () => showError(index) },
        el("td", { class: "number", text: String(e.game) }),
        el("td", { class: "number", text: String(e.move) }),
        el("td", { text: e.player }),
        el("td", { text: e.decision }),
        el("td", { text: e.right }),
        el("td", { class: "number", text: e.loss.toFixed(3) }),
        el("td", { text: e.mark }),
      );
      row.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          showError(index);
        }
      });
      return row;
    }),
  );
  review.errors = result.errors;
  $("#review-no-errors").hidden = result.errors.length > 0;
  $("#review-errors-view").hidden = result.errors.length === 0;
  $("#review-result").hidden = false;
  showError(result.errors.length ? 0 : null);
}

// The selected error's position on the review board, with its plays as arrows.
function showError(index) {
  review.shown = index;
  const error = index === null ? null : review.errors[index];
  const svg = $("#review-board");
  if (!error || !error.board) {
    svg.innerHTML = "";
    svg.removeAttribute("data-error");
    $("#review-note").textContent = "";
    $("#review-legend").hidden = true;
  } else {
    svg.innerHTML = boardMarkup(V.reviewModel(error));
    svg.dataset.error = String(index);
    $("#review-note").textContent = V.reviewCaption(error);
    $("#review-legend").hidden = error.kind !== "checker";
  }
  for (const row of $("#review-errors tbody").children) {
    row.setAttribute("aria-selected", String(Number(row.dataset.index) === index));
  }
}

async function followReview(job) {
  while (review.job === job) {
    const status = await api("GET", `/api/analysis/${job}`);
    if (review.job !== job) return;
    if (status.state === "failed") throw new Error(status.message);
    if (status.state === "done") {
      showProgress(status.total, status.total, `all ${status.total} actions analysed`);
      renderReview(status.result);
      return;
    }
    showProgress(status.done, status.total);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

function bindReview() {
  $("#review-form").addEventListener("submit", (event) => event.preventDefault());
  $("#review-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    review.job = null;
    $("#review-result").hidden = true;
    if (file.size > 1_000_000) {
      say(`${file.name} is larger than 1 MB`, true);
      return;
    }
    say(`Analysing ${file.name}…`);
    try {
      const text = await file.text();
      const started = await api("POST", "/api/analysis", { text, name: file.name });
      review.job = started.id;
      showProgress(0, started.total);
      await followReview(started.id);
      say("");
    } catch (error) {
      $("#review-progress-row").hidden = true;
      say(error.message, true);
    }
  });
}

start();
