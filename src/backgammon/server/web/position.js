// The position tool (#/position): paste a Position ID, an XGID or a FIBS board (or set
// a position up by clicking) and see the engine's hint, the cube decision and a
// rollout with live progress; copy the IDs back. Needs no login. The pure parts (the
// editor's edits and IDs, the words and figures) are in positionview.js.

import { boardMarkup } from "./board.js";
import * as B from "./boardmodel.js";
import { $, api, el, say, sayError, signed } from "./common.js";
import * as P from "./positionview.js";
import { copyText, parsePositionLink, positionLink } from "./share.js";

// -- the position tool -----------------------------------------------------------------

const tool = {
  report: null, // the last answer of POST /api/position
  shown: null, // the index of the play drawn (null: the position)
  editor: null, // while setting up: {board, turn ("player"/"opponent"), dice}
  ids: null, // the IDs shown (and copied): {positionId, xgid}
  rollout: null, // the rollout being followed: {id, timer}
  asked: null, // what the report shown was asked for: {position, dice, ply} (the link)
  sharedHash: null, // the shared link (#/position?...) opened last
};

const POLL_MS = 400;

function showIds(ids) {
  tool.ids = ids;
  $("#position-ids").textContent = ids ? `Position ID ${ids.positionId} · ${ids.xgid}` : "";
  $("#position-copy-id").disabled = !ids;
  $("#position-copy-xgid").disabled = !ids;
  $("#position-copy-link").disabled = !(ids && tool.asked && tool.report && !tool.editor);
}

function cubeOnBoard(context) {
  if (!context || context.max_cube === 1) return null;
  const owner = context.owner === "player" ? "bottom" : context.owner === "opponent" ? "top" : null;
  return { value: context.cube, owner, offered: null, offeredBy: null };
}

export function drawPosition() {
  const svg = $("#position-board");
  svg.classList.toggle("editing", tool.editor !== null);
  if (tool.editor) {
    const { board, turn, dice } = tool.editor;
    const model = B.positionModel(board, dice);
    model.diceSide = turn === "player" ? "bottom" : "top";
    svg.innerHTML = boardMarkup(model);
    const ids = P.editedIds(board, turn, dice);
    showIds({ positionId: ids.positionId, xgid: ids.xgid });
    return;
  }
  const report = tool.report;
  if (!report) {
    svg.innerHTML = "";
    showIds(null);
    return;
  }
  const shown = tool.shown === null ? null : report.plays[tool.shown];
  const board = shown ? shown.board : report.board;
  const model = B.positionModel(board, shown ? null : report.dice);
  model.cube = cubeOnBoard(report.context);
  svg.innerHTML = boardMarkup(model);
  showIds({ positionId: report.position_id, xgid: report.xgid });
  for (const row of $("#position-plays tbody").children) {
    row.setAttribute("aria-selected", String(Number(row.dataset.index) === tool.shown));
  }
}

function showPlay(index) {
  tool.shown = tool.shown === index ? null : index;
  drawPosition();
}

function renderCube(cube) {
  const view = P.cubeView(cube);
  $("#position-cube").hidden = view === null;
  if (!view) return;
  $("#position-cube-scale").textContent = view.rows.length ? `(${view.scale}, per unit of the cube)` : "";
  $("#position-cube-table tbody").replaceChildren(
    ...view.rows.map((row) =>
      el(
        "tr",
        { class: row.best ? "best" : "" },
        el("td", { text: row.label }),
        el("td", { class: "number", text: row.text }),
      ),
    ),
  );
  $("#position-cube-table").hidden = view.rows.length === 0;
  $("#position-cube-action").textContent = view.line;
}

function renderReport(report) {
  tool.report = report;
  tool.shown = null;
  const [win, winGammon, winBackgammon, loseGammon, loseBackgammon] = report.evaluation.probabilities;
  const percent = (p) => `${(100 * p).toFixed(1)}%`;
  $("#position-context").textContent = P.contextLine(report);
  $("#position-evaluation").textContent =
    `${report.ply}-ply, cubeless, for the side on roll: equity ${signed(report.evaluation.equity)}; ` +
    `win ${percent(win)} (gammon ${percent(winGammon)}, backgammon ${percent(winBackgammon)}), ` +
    `lose ${percent(1 - win)} (gammon ${percent(loseGammon)}, backgammon ${percent(loseBackgammon)})`;
  $("#position-source").textContent = P.sourceLine(report);
  renderCube(report.cube);
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

// -- setting a position up by clicking ---------------------------------------------------

function editMessage(text, error = false) {
  const line = $("#position-edit-message");
  line.textContent = text;
  line.classList.toggle("error", error);
}

function openEditor() {
  const report = tool.report;
  tool.editor = {
    board: report ? P.copyBoard(report.board) : P.startingBoard(),
    turn: "player",
    dice: null,
  };
  $("#position-edit-turn").value = "player";
  $("#position-edit-dice").value = "";
  $("#position-editor").hidden = false;
  editMessage("");
  drawPosition();
}

function closeEditor() {
  tool.editor = null;
  $("#position-editor").hidden = true;
  drawPosition();
}

function editAt(place, remove) {
  const mode = $("#position-edit-mode").value;
  const side = mode === "remove" ? "player" : mode;
  const result = P.editBoard(tool.editor.board, place, side, remove || mode === "remove" ? "remove" : "add");
  if (result.error) {
    editMessage(result.error, true);
    return;
  }
  tool.editor.board = result.board;
  const { player, opponent } = result.board;
  editMessage(`White ${P.onBoard(player)} checkers on the board, Black ${P.onBoard(opponent)}.`);
  drawPosition();
}

function placeOf(event) {
  const target = event.target.closest("[data-place]");
  const place = target ? Number(target.dataset.place) : 0;
  return place >= 1 && place <= 25 ? place : null;
}

function useEdited() {
  const problem = P.boardProblem(tool.editor.board);
  if (problem) {
    editMessage(`${problem}.`, true);
    return;
  }
  const ids = P.editedIds(tool.editor.board, tool.editor.turn, tool.editor.dice);
  $("#position-text").value = ids.xgid;
  $("#position-dice").value = ""; // the XGID carries the editor's dice
  closeEditor();
  $("#position-form").requestSubmit();
}

function bindEditor() {
  const svg = $("#position-board");
  svg.addEventListener("click", (event) => {
    if (!tool.editor) return;
    const place = placeOf(event);
    if (place !== null) editAt(place, event.shiftKey);
  });
  svg.addEventListener("contextmenu", (event) => {
    if (!tool.editor) return;
    event.preventDefault();
    const place = placeOf(event);
    if (place !== null) editAt(place, true);
  });
  $("#position-edit").addEventListener("click", () => (tool.editor ? closeEditor() : openEditor()));
  $("#position-edit-close").addEventListener("click", closeEditor);
  $("#position-edit-empty").addEventListener("click", () => {
    tool.editor.board = P.emptyBoard();
    editMessage("");
    drawPosition();
  });
  $("#position-edit-start").addEventListener("click", () => {
    tool.editor.board = P.startingBoard();
    editMessage("");
    drawPosition();
  });
  $("#position-edit-turn").addEventListener("change", (event) => {
    tool.editor.turn = event.target.value;
    drawPosition();
  });
  $("#position-edit-dice").addEventListener("input", (event) => {
    const dice = P.parseDice(event.target.value);
    if (dice && dice.error) {
      editMessage(dice.error, true);
      return;
    }
    editMessage("");
    tool.editor.dice = dice;
    drawPosition();
  });
  $("#position-edit-use").addEventListener("click", useEdited);
}

// -- copying the IDs -----------------------------------------------------------------------

let copiedTimer = null;

async function copyId(what, text) {
  const line = $("#position-copied");
  try {
    await navigator.clipboard.writeText(text);
    line.textContent = `Copied the ${what}.`;
  } catch (error) {
    line.textContent = `Could not copy the ${what}: ${error.message}`;
  }
  clearTimeout(copiedTimer);
  copiedTimer = setTimeout(() => {
    line.textContent = "";
  }, 4000);
}

// -- the rollout ---------------------------------------------------------------------------

function renderRollout(status) {
  const progress = P.rolloutProgress(status);
  $("#position-rollout-progress-row").hidden = false;
  const bar = $("#position-rollout-progress");
  bar.value = progress.fraction;
  $("#position-rollout-text").textContent = progress.text;
  const rows = P.rolloutRows(status.result);
  $("#position-rollout-lines").hidden = rows.length === 0;
  $("#position-rollout-lines tbody").replaceChildren(
    ...rows.map((row) =>
      el(
        "tr",
        { title: row.errors },
        el("td", { class: "play", text: row.label }),
        el("td", { class: "number", text: String(row.trials) }),
        el("td", { class: "number", text: row.equity }),
        el("td", { class: "number", text: row.win }),
        el("td", { class: "number", text: row.gammon }),
        el("td", { class: "number", text: row.loseGammon }),
      ),
    ),
  );
}

function rolloutFinished() {
  if (tool.rollout) clearTimeout(tool.rollout.timer);
  tool.rollout = null;
  $("#position-rollout-cancel").hidden = true;
  $("#position-rollout").disabled = false;
}

async function pollRollout() {
  const current = tool.rollout;
  if (!current) return;
  let status;
  try {
    status = await api("GET", `/api/rollout/${current.id}`);
  } catch (error) {
    sayError(error);
    if (tool.rollout === current) rolloutFinished();
    return;
  }
  if (tool.rollout !== current) return;
  renderRollout(status);
  if (status.state === "running") {
    current.timer = setTimeout(pollRollout, POLL_MS);
    return;
  }
  rolloutFinished();
  if (status.state === "failed") say(status.message, true);
}

async function startRollout(event) {
  event.preventDefault();
  const trials = Number($("#position-trials").value);
  if (!Number.isInteger(trials) || trials < 1 || trials > 1296) {
    say("trials: a whole number from 1 to 1296", true);
    return;
  }
  const dice = $("#position-dice").value.trim();
  $("#position-rollout").disabled = true;
  try {
    const job = await api("POST", "/api/rollout", {
      position: $("#position-text").value.trim(),
      dice: dice || null,
      ply: Number($("#position-ply").value),
      trials,
    });
    say("");
    tool.rollout = { id: job.id, timer: null };
    $("#position-rollout-cancel").hidden = false;
    renderRollout({ state: "running", done: 0, total: job.total, result: null });
    tool.rollout.timer = setTimeout(pollRollout, POLL_MS);
  } catch (error) {
    sayError(error);
    $("#position-rollout").disabled = false;
  }
}

async function cancelRollout() {
  const current = tool.rollout;
  if (!current) return;
  $("#position-rollout-cancel").hidden = true;
  try {
    await api("DELETE", `/api/rollout/${current.id}`);
  } catch (error) {
    sayError(error);
  }
  // The next poll shows it cancelled, with what it had done.
}

// -- binding -------------------------------------------------------------------------------

/** Open a shared position link (#/position?p=...): fill the form and ask for the
 *  hint; a malformed link is said on the status line and nothing is asked. */
export function openSharedPosition(hash) {
  const parsed = parsePositionLink(hash);
  if (!parsed || !parsed.share || hash === tool.sharedHash) {
    if (parsed && parsed.error) say(parsed.error, true);
    return;
  }
  tool.sharedHash = hash;
  const { position, dice, ply } = parsed.share;
  if (tool.editor) closeEditor();
  $("#position-text").value = position;
  $("#position-dice").value = dice;
  $("#position-ply").value = ply;
  $("#position-form").requestSubmit();
}

export function bindPosition() {
  $("#position-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = $("#position-hint");
    const dice = $("#position-dice").value.trim();
    const asked = { position: $("#position-text").value.trim(), dice, ply: $("#position-ply").value };
    button.disabled = true;
    say("Thinking…");
    try {
      const report = await api("POST", "/api/position", {
        position: asked.position,
        dice: dice || null,
        ply: Number(asked.ply),
      });
      say("");
      tool.asked = asked;
      renderReport(report);
    } catch (error) {
      const shared = tool.sharedHash !== null && location.hash === tool.sharedHash;
      if (shared) say(`The shared position could not be opened: ${error.message}`, true);
      else sayError(error);
    } finally {
      button.disabled = false;
    }
  });
  bindEditor();
  $("#position-copy-id").addEventListener("click", () => tool.ids && copyId("Position ID", tool.ids.positionId));
  $("#position-copy-xgid").addEventListener("click", () => tool.ids && copyId("XGID", tool.ids.xgid));
  $("#position-copy-link").addEventListener("click", () => {
    if (tool.asked) copyText(positionLink(location.origin, tool.asked), "link to this position", $("#position-copied"));
  });
  $("#position-rollout-form").addEventListener("submit", startRollout);
  $("#position-rollout-cancel").addEventListener("click", cancelRollout);
}
