// The chouette page: the open tables (and a form to open one), and one table
// (?id=ID): its seats, and once its session runs, the box, the captain, the line
// of players to come, whose decision it is, every member's cube, the board (the box
// at the bottom), the scores, and the decisions open to the viewer. The table's
// state arrives over the WebSocket (room chouette:ID); actions go back over it. The
// list is the room chouettes: the tables now, then each table's line as it changes.
// Every text from the server is set as text, never as HTML.

import { boardMarkup } from "./board.js";
import { positionModel } from "./boardmodel.js";
import { $, SessionEndedError, api, el, say, sayError } from "./common.js";
import { appendChatLine, roomChatLine } from "./social.js";

/** What the page knows: who we are, the table (or the list's tables by id), the socket. */
const page = { me: null, table: null, tables: new Map(), socket: null, refs: 0 };

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

/** A cube's words: its value, and who holds it. */
export function cubeWords(cube, box) {
  const holder = cube.owner === "centre" ? "in the centre" : cube.owner === "box" ? `${box}'s` : `${cube.member}'s`;
  const out = cube.in ? "" : " (out of this game)";
  return `${cube.member}: ${cube.value}, ${holder}${out}`;
}

/** Whose decision it is, in words. */
export function turnWords(session) {
  const waiting = session.pending.map((o) => `${o.doubler} doubled ${o.member === null ? "the team" : `${o.member}'s cube`}`);
  const who = session.deciders.join(", ") || "nobody";
  const prefix = waiting.length ? `${waiting.join("; ")}. ` : "";
  return `${prefix}To decide: ${who}.`;
}

/** Send an action. A throw or a play names the state it was chosen in (refused as
 *  stale if the session moved on); a cube action does not: several members double
 *  at once, and the rules refuse one that no longer fits. */
function send(kind, fields = {}) {
  const table = page.table;
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

function myButtons(session) {
  const me = page.me;
  const mine = session.legal.filter((a) => a.player === me);
  const buttons = [];
  for (const action of mine) {
    const cube = action.member === null ? "the team's cube" : action.member === me ? "my cube" : `${action.member}'s cube`;
    if (action.kind === "double") buttons.push(actionButton(`Double ${cube}`, "double", { member: action.member }));
    if (action.kind === "take") buttons.push(actionButton(`Take ${cube}`, "take", { member: action.member }, true));
    if (action.kind === "drop") buttons.push(actionButton(`Drop ${cube}`, "drop", { member: action.member }));
  }
  if (session.roller === me || (session.on_roll === null && session.roller !== null && session.holder === me)) {
    buttons.push(actionButton(session.on_roll === null ? "Opening throw" : "Roll", "roll", {}, true));
  }
  const plays = mine.filter((a) => a.kind === "play").map((a) => a.move);
  return { buttons, plays };
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

function showSession(session) {
  $("#chouette-box").textContent = session.box;
  $("#chouette-captain").textContent = session.captain;
  $("#chouette-holder").textContent = session.holder === session.captain ? "" : `(${session.holder} plays the checkers)`;
  $("#chouette-queue").textContent = session.queue.join(" → ") || "nobody";
  const mine = page.me !== null && session.deciders.includes(page.me);
  $("#chouette-turn").textContent = turnWords(session) + (mine ? " Your decision." : "");
  const model = positionModel(session.board, session.dice);
  model.diceSide = session.on_roll === session.box ? "bottom" : "top";
  $("#chouette-board").innerHTML = boardMarkup(model);
  $("#chouette-dice").textContent = session.dice
    ? `${session.on_roll} rolled ${session.dice.join("-")}.`
    : session.on_roll === null ? `Game ${session.game}: the opening throw.` : `${session.on_roll} is on roll.`;
  $("#chouette-cubes").replaceChildren(
    ...session.cubes.map((cube) => el("li", { class: `chouette-cube owner-${cube.owner}`, text: cubeWords(cube, session.box) })),
  );
  $("#chouette-scores").replaceChildren(
    ...Object.entries(session.scores).map(([name, points]) =>
      el("li", { text: `${name}: ${points > 0 ? "+" : ""}${points} (${session.money[name]})` }),
    ),
  );
  const { buttons, plays } = myButtons(session);
  $("#chouette-buttons").replaceChildren(...buttons);
  $("#chouette-play-row").hidden = plays.length === 0;
  $("#chouette-plays").replaceChildren(...plays.map((move) => el("option", { value: move, text: move })));
}

function showTable(table) {
  page.table = table;
  document.title = `Chouette: ${table.name}`;
  $("#chouette-list").hidden = true;
  $("#chouette").hidden = false;
  $("#chouette").dataset.seq = table.seq === null ? "" : String(table.seq);
  $("#chouette-name").textContent = table.name;
  const games = table.session ? `, ${table.session.games_played} games played` : "";
  $("#chouette-state").textContent = `${table.status}${games}. ${table.settings.team_cube ? "One team cube" : "A cube for each member"}, ${table.settings.seats} seats.`;
  $("#chouette-record").href = `/api/chouettes/${encodeURIComponent(table.id)}/record`;
  showSeats(table);
  $("#chouette-session").hidden = table.session === null;
  if (table.session) showSession(table.session);
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
  } else if (message.type === "error") {
    say(message.message, true);
  } else if (message.type === "ack") {
    say("");
  }
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
  $("#chouette-play").addEventListener("click", () => send("play", { move: $("#chouette-plays").value }));
  $("#chouette-chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("#chouette-chat-input");
    const text = input.value.trim();
    if (!text || page.socket.readyState !== WebSocket.OPEN) return;
    page.socket.send(JSON.stringify({ type: "chat", room: `chouette:${tableId()}`, text }));
    input.value = "";
  });
}

if (tableId()) wireButtons();
else $("#chouette-new").addEventListener("submit", openTable);
connect();
