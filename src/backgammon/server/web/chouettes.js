// The chouette page: the open tables (and a form to open one), and one table
// (?id=ID): its seats, and once its session runs, the box, the captain, the line
// of players to come, a live status line (what happened, whose decision it is),
// every member's cube, the board (the viewer's side at the bottom: the box's, or the
// team's for a team member; played by click, drag or keys as on the match page), the
// board in words, the scores and each game's end, and the decisions open to the
// viewer (none for a spectator). The words are chouetteview.js's. The table's
// state arrives over the WebSocket (room chouette:ID); actions go back over it. The
// list is the room chouettes: the tables now, then each table's line as it changes.
// A tournament's round heard here takes the player to their match (pairings.js),
// unless they are playing at this table: then they are told. Every text from the
// server is set as text, never as HTML.

import { bindBoardInput } from "./boardinput.js";
import * as B from "./boardmodel.js";
import * as R from "./boardrules.js";
import { drawBoard, onTurn, pickUpFromTheBar, scrollToBoard } from "./boardsvg.js";
import { cursorLabel, showBoardWords } from "./boardwords.js";
import * as V from "./chouetteview.js";
import { $, SessionEndedError, api, el, say, sayError } from "./common.js";
import { bindKeys, keyFocus } from "./keys.js";
import * as M from "./matchview.js";
import { animateBoard } from "./motion.js";
import { followPairing } from "./pairings.js";
import * as P from "./planner.js";
import { appendChatLine, roomChatLine } from "./social.js";

/** What the page knows: who we are, the table (or the list's tables by id), the socket,
 *  and for the viewer who moves: the plan of the dice (planner.js), the steps chosen
 *  and the checker picked up. */
const page = {
  me: null,
  table: null,
  tables: new Map(),
  socket: null,
  refs: 0,
  plan: null,
  planKey: null,
  chosen: [],
  selected: null,
};

function tableId() {
  return new URLSearchParams(location.search).get("id");
}

// -- the list ----------------------------------------------------------------------

/** Show the list's tables (a closed one leaves it), newest first as the server sent them. */
function showList() {
  const tables = [...page.tables.values()].filter((t) => t.status !== "closed");
  $("#chouette-tables").replaceChildren(
    ...tables.map((t) => {
      const link = el("a", { href: `/chouettes?id=${encodeURIComponent(t.id)}`, text: t.name });
      const seated = `${t.players.length}/${t.seats} seats, ${t.status}`;
      return el("li", {}, link, ` (${seated}: ${t.players.join(", ")})`);
    }),
  );
  if (!tables.length) $("#chouette-tables").append(el("li", { text: "No table is open." }));
}

async function openTable(event) {
  event.preventDefault();
  const form = event.target;
  const body = {
    name: form.name.value,
    seats: Number(form.seats.value),
    team_cube: form.team_cube.checked,
    max_cube: Number(form.max_cube.value),
  };
  try {
    const created = await api("POST", "/api/chouettes", body);
    location.search = `?id=${encodeURIComponent(created.id)}`;
  } catch (error) {
    if (error instanceof SessionEndedError) say("Log in (or play as a guest) on the main page first.", true);
    else sayError(error);
  }
}

// -- one table ---------------------------------------------------------------------

/** Send an action. A throw or a play names the state it was chosen in (refused as
 *  stale if the session moved on); a cube action does not: several members double
 *  at once, and the rules refuse one that no longer fits. */
function send(kind, fields = {}) {
  const table = page.table;
  if (!page.socket || page.socket.readyState !== WebSocket.OPEN) return;
  page.refs += 1;
  const message = { type: "chouette", table: table.id, action: { kind, ...fields }, ref: `c${page.refs}` };
  if (kind === "roll" || kind === "play") message.expect = table.seq;
  page.socket.send(JSON.stringify(message));
}

function actionButton(label, kind, fields, primary = false) {
  const attributes = { type: "button", text: label, onclick: () => send(kind, fields) };
  if (primary) attributes.class = "primary";
  return el("button", attributes);
}

/** The box's doubles and the answers to doubles, one button each. */
function cubeButtons(controls) {
  const buttons = controls.boxDoubles.map((d) => actionButton(`Double ${d.member}'s cube (to ${d.to})`, "double", { member: d.member }));
  for (const a of controls.answers) {
    const whose = a.doubler === page.me ? "your" : `${a.doubler}'s`;
    buttons.push(actionButton(`Take ${whose} double (to ${a.to})`, "take", { member: a.member }, true));
    buttons.push(actionButton(`Drop ${whose} double`, "drop", { member: a.member }));
  }
  return buttons;
}

function showSeats(table) {
  const me = page.me;
  $("#chouette-seats").replaceChildren(
    ...table.seats.map((seat) => {
      const notes = [seat.bot ? "bot" : "", seat.left ? "left: a bot plays" : ""].filter(Boolean);
      return el("li", { text: notes.length ? `${seat.name} (${notes.join(", ")})` : seat.name });
    }),
  );
  const seated = table.seats.some((s) => s.name === me && !s.left);
  const open = table.status === "open";
  const owner = table.owner === me;
  $("#chouette-sit").hidden = !(open && me && !seated && table.seats.length < table.settings.seats);
  $("#chouette-leave").hidden = !(seated && table.status !== "closed");
  $("#chouette-bot").hidden = !(open && owner && table.seats.length < table.settings.seats);
  $("#chouette-start").hidden = !(open && owner && table.seats.length >= 3);
}

/** A new state: the steps chosen for an older one are dropped, the plan made again. */
function takeSession(table) {
  const session = table.session;
  const key = `${table.id}:${table.seq}`;
  if (page.planKey === key) return;
  page.planKey = key;
  page.chosen = [];
  page.selected = null;
  const mover = session && table.status === "playing" && V.mayMove(session, page.me);
  page.plan = mover ? P.planner(V.boardState(session), V.seatOf(session, page.me)) : null;
}

function showBoard(session) {
  const me = page.me;
  const seat = V.seatOf(session, me);
  const bottom = R.bottomSeat(seat);
  const state = V.boardState(session);
  const plan = page.plan;
  const view = M.boardView(state, seat, page.chosen, plan);
  const points = B.pointsView(view);
  const places = plan ? P.keyPlaces(plan, page.chosen, page.selected) : [];
  const focus = keyFocus(places);
  const dice = M.diceView(state, plan, page.chosen);
  const cube = V.cubeModel(session, me);
  drawBoard($("#chouette-board"), {
    points,
    dice,
    diceSide: state.game.turn === bottom ? "bottom" : "top",
    cube,
    seats: { bottom, top: 1 - bottom },
    movable: new Set(plan ? P.sources(plan, page.chosen) : []),
    selected: plan ? page.selected : null,
    targets: new Set(plan && page.selected !== null ? P.destinations(plan, page.chosen, page.selected) : []),
    focus,
  });
  const words = V.chouetteWords(session, me, { points, dice, cube, pips: view.pips });
  showBoardWords($("#board-words"), words);
  $("#chouette-board").setAttribute("aria-label", cursorLabel(focus, plan ? page.selected : null, words));
  animateBoard($("#chouette-board"), B.checkerSpots(points), `${page.table.id}:${session.game}:${bottom}`);
  const side = bottom === 0 ? `the box (${session.box}) with the light checkers` : "the team with the dark checkers";
  $("#chouette-side").textContent = `The board is seen from ${side}, numbered from that side.`;
}

function showControls(session) {
  const controls = V.controlsOf(session, page.me);
  const plan = page.plan;
  $("#do-roll").hidden = controls.roll === null;
  $("#do-roll").textContent = controls.roll || "Roll";
  $("#do-double").hidden = controls.double === null;
  if (controls.double) {
    const cube = controls.double.member === null ? "the team's cube" : "your cube";
    $("#do-double").textContent = `Double ${cube} (to ${controls.double.to})`;
  }
  $("#chouette-cube-buttons").replaceChildren(...cubeButtons(controls));
  const pass = plan !== null && plan.toMove === 0;
  const forced = plan && !pass && page.chosen.length === 0 ? P.forcedPlay(V.boardState(session), V.seatOf(session, page.me)) : null;
  const move = pass ? session.legal_plays[0] : forced;
  $("#do-forced").hidden = move === null;
  $("#do-forced").textContent = pass ? "No legal move: pass" : `Play ${forced} (forced)`;
  $("#do-forced").dataset.move = move ?? "";
  $("#do-undo").hidden = !(plan && page.chosen.length);
  $("#do-done").hidden = pass || P.completedPlay(plan, page.chosen) === null;
  $("#move-form").hidden = plan === null || pass;
}

function showSession(session) {
  page.selected = pickUpFromTheBar(page.plan, page.chosen, page.selected);
  $("#chouette-box").textContent = session.box;
  $("#chouette-captain").textContent = session.captain;
  $("#chouette-holder").textContent = session.holder === session.captain ? "" : `(${session.holder} plays the checkers)`;
  $("#chouette-queue").textContent = session.queue.join(" → ") || "nobody";
  let line = V.statusLine(session, page.me);
  if (page.plan && page.chosen.length) line += ` Chosen: ${P.formatSteps(page.plan, page.chosen)}`;
  if ($("#chouette-turn").textContent !== line) $("#chouette-turn").textContent = line; // said once
  showBoard(session);
  $("#chouette-cubes").replaceChildren(
    ...session.cubes.map((cube) =>
      el("li", { class: `chouette-cube owner-${cube.owner}`, text: V.cubeWords(session, cube, page.me) }),
    ),
  );
  $("#chouette-scores").replaceChildren(
    ...Object.entries(session.scores).map(([name, points]) =>
      el("li", { text: `${name}: ${points > 0 ? "+" : ""}${points} (${session.money[name]})` }),
    ),
  );
  $("#chouette-results").replaceChildren(
    ...session.results.slice().reverse().map((result) => el("li", { text: V.gameEndWords(result, page.me) })),
  );
  if (!session.results.length) $("#chouette-results").append(el("li", { text: "None finished yet." }));
  showControls(session);
}

/** Draw the table again (the steps chosen, the keyboard's cursor). */
function render() {
  if (page.table && page.table.session) showSession(page.table.session);
}

function showTable(table) {
  const firstBoard = Boolean(table.session) && !page.table?.session;
  page.table = table;
  document.title = `Chouette: ${table.name}`;
  $("#chouette-list").hidden = true;
  $("#chouette").hidden = false;
  $("#chouette").dataset.seq = table.seq === null ? "" : String(table.seq);
  $("#chouette-name").textContent = table.name;
  const games = table.session ? `, ${table.session.games_played} games played` : "";
  const limit = table.settings.max_cube ? `, cube limit ${table.settings.max_cube}` : "";
  $("#chouette-state").textContent = `${table.status}${games}. ${table.settings.team_cube ? "One team cube" : "A cube for each member"}${limit}, ${table.settings.seats} seats.`;
  $("#chouette-record").href = `/api/chouettes/${encodeURIComponent(table.id)}/record`;
  showSeats(table);
  $("#chouette-session").hidden = table.session === null;
  takeSession(table);
  if (table.session) showSession(table.session);
  if (firstBoard) scrollToBoard($(".chouette-play"));
}

function onMessage(event) {
  const message = JSON.parse(event.data);
  if (message.type === "welcome") {
    page.me = message.user ? message.user.name : null;
    $("#who").textContent = page.me || "watching";
    $("#chouette-chat-card").hidden = page.me === null; // no chat without an account
    const room = tableId() ? `chouette:${tableId()}` : "chouettes";
    page.socket.send(JSON.stringify({ type: "subscribe", match: room }));
    if (tableId() && page.me !== null) loadChat();
  } else if (message.type === "chouette_tables") {
    page.tables = new Map(message.tables.map((t) => [t.id, t]));
    showList();
  } else if (message.type === "chouette_table") {
    const known = page.tables.has(message.table.id);
    if (!known) page.tables = new Map([[message.table.id, message.table], ...page.tables]); // the newest first
    else page.tables.set(message.table.id, message.table);
    showList();
  } else if (message.type === "chouette") {
    showTable(message.table);
  } else if (message.type === "chat" && message.room === `chouette:${tableId()}`) {
    appendChatLine($("#chouette-chat"), chatItem(message));
  } else if (message.type === "tournament_pairing" && page.me !== null) {
    followPairing(message, page.me, { say, busy: playingHere() });
  } else if (message.type === "error") {
    say(message.message, true);
  } else if (message.type === "ack") {
    say("");
  }
}

/** Whether the viewer is seated at this table while its session is being played. */
function playingHere() {
  const table = page.table;
  return Boolean(table && table.status === "playing" && table.players.includes(page.me));
}

function chatItem({ from, text, audience, at }) {
  const item = roomChatLine({ from, text, audience });
  item.dataset.key = `${at} ${from}`;
  return item;
}

/** The table's last chat lines before the ones heard since subscribing (once each). */
async function loadChat() {
  try {
    const { lines } = await api("GET", `/api/chouettes/${encodeURIComponent(tableId())}/chat`);
    const list = $("#chouette-chat");
    const heard = new Set([...list.children].map((item) => item.dataset.key));
    const earlier = lines.map((line) => chatItem({ ...line, from: line.name }));
    list.prepend(...earlier.filter((item) => !heard.has(item.dataset.key)));
    list.scrollTop = list.scrollHeight;
  } catch (error) {
    sayError(error);
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  page.socket = new WebSocket(`${scheme}://${location.host}/ws`);
  page.socket.addEventListener("message", onMessage);
  page.socket.addEventListener("close", () => {
    say("connection lost: reconnecting", true, true);
    setTimeout(connect, 2000);
  });
}

async function seatAction(path, body) {
  try {
    await api("POST", `/api/chouettes/${encodeURIComponent(tableId())}/${path}`, body);
  } catch (error) {
    sayError(error);
  }
}

function wireButtons() {
  $("#chouette-sit").addEventListener("click", () => seatAction("sit"));
  $("#chouette-leave").addEventListener("click", () => seatAction("leave"));
  $("#chouette-bot").addEventListener("click", () => seatAction("bots", { level: "beginner" }));
  $("#chouette-start").addEventListener("click", () => seatAction("start"));
  $("#do-roll").addEventListener("click", () => send("roll"));
  $("#do-double").addEventListener("click", () => send("double", { member: V.controlsOf(page.table.session, page.me).double?.member ?? null }));
  $("#do-forced").addEventListener("click", () => send("play", { move: $("#do-forced").dataset.move }));
  $("#do-done").addEventListener("click", () => {
    const move = P.completedPlay(page.plan, page.chosen);
    if (move !== null) send("play", { move });
  });
  $("#do-undo").addEventListener("click", () => {
    page.chosen.pop();
    page.selected = null;
    render();
  });
  $("#move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const move = $("#move-input").value.trim();
    if (!move) return;
    send("play", { move });
    $("#move-input").value = "";
  });
  wireBoard();
  $("#chouette-chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("#chouette-chat-input");
    const text = input.value.trim();
    if (!text || page.socket.readyState !== WebSocket.OPEN) return;
    page.socket.send(JSON.stringify({ type: "chat", room: `chouette:${tableId()}`, text }));
    input.value = "";
  });
}

/** Clicks, drags and keys on the board (boardinput.js, keys.js); a narrow screen's turn. */
function wireBoard() {
  const board = $("#chouette-board");
  const clickPlace = bindBoardInput(board, {
    plan: () => page.plan,
    chosen: () => page.chosen,
    selected: () => page.selected,
    select: (place) => (page.selected = place),
    step: (step) => {
      page.chosen.push(step);
      page.selected = null;
      render();
    },
    render,
    seat: () => R.bottomSeat(V.seatOf(page.table.session, page.me)),
  });
  bindKeys({
    board,
    active: () => Boolean(page.table && page.table.session),
    places: () => (page.plan ? P.keyPlaces(page.plan, page.chosen, page.selected) : []),
    activate: clickPlace,
    render,
    help: $("#key-help"),
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && page.selected !== null) {
      page.selected = null;
      render();
    }
  });
  onTurn(render);
}

if (tableId()) wireButtons();
else $("#chouette-new").addEventListener("submit", openTable);
connect();
