// The position tool (#/position): paste a Position ID, an XGID or a FIBS board and see
// the engine's hint. Needs no login.

import { boardMarkup } from "./board.js";
import { $, api, el, say, signed } from "./common.js";
import * as V from "./view.js";

// -- the position tool -----------------------------------------------------------------

const tool = { report: null, shown: null }; // the last answer; the play drawn (null: the position)

export function drawPosition() {
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

export function bindPosition() {
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
