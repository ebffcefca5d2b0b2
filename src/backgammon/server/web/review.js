// The review (#/review: an uploaded match file; #/review/ID: a finished match played
// here): the analysis at the lookahead chosen, with a progress bar, the players'
// figures, the plot of the match, every move with the board of the one selected, its
// best alternatives, the errors, and the HTML report to download. What is shown comes
// from reviewview.js (pure, unit-tested).

import { boardMarkup } from "./board.js";
import { $, api, el, say, sayError } from "./common.js";
import * as R from "./reviewview.js";
import { copyText, reviewLink } from "./share.js";
import { bindStudy, renderStudy } from "./study.js";

const review = {
  source: null, // what is analysed: {match}, {text, name} or {data (base64), name}
  run: 0, // counts the analyses asked for (an older one's answers are dropped)
  job: null, // the job followed
  names: ["", ""],
  moves: [],
  errors: [],
  selected: null, // the index of the move shown
  failed: false, // the last analysis asked for was refused or failed
};

// Files sent as their bytes (base64): eXtreme Gammon's and OGXM's.
const BINARY_FILE = /\.(xg|xgp|ogxm|ogxms)$/i;

function base64Of(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^[^,]*,/, ""));
    reader.onerror = () => reject(new Error(`${file.name}: cannot be read`));
    reader.readAsDataURL(file);
  });
}

function showProgress(done, total, words) {
  $("#review-progress-row").hidden = false;
  const bar = $("#review-progress");
  bar.max = Math.max(total, 1);
  bar.value = done;
  $("#review-progress-text").textContent = words ?? `${done} of ${total} actions analysed`;
}

function clearResult() {
  review.job = null;
  review.moves = [];
  review.errors = [];
  review.selected = null;
  $("#review-result").hidden = true;
  $("#review-report-row").hidden = true;
  $("#review-progress-row").hidden = true;
}

function renderPlayers(result) {
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
        el("td", { text: R.luckText(p.luck_rate, p.luck_rating) }),
      ),
    ),
  );
}

function onActivate(row, action) {
  row.addEventListener("click", action);
  row.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      action();
    }
  });
}

function renderMoves() {
  $("#review-moves tbody").replaceChildren(
    ...review.moves.map((move) => {
      const r = R.moveRow(move);
      const row = el(
        "tr",
        { class: `move-row ${r.className}`.trim(), "data-index": String(move.index), tabindex: "-1", title: r.mark },
        el("td", { class: "number", text: r.game }),
        el("td", { class: "number", text: r.move }),
        el("td", { text: r.player }),
        el("td", { text: r.dice }),
        el("td", { text: r.what }),
        el("td", { class: "number", text: r.loss }),
      );
      onActivate(row, () => selectMove(move.index));
      return row;
    }),
  );
  $("#review-errors tbody").replaceChildren(
    ...review.errors.map((e, index) => {
      const row = el(
        "tr",
        { class: `error-row ${R.markClass(e.mark)}`, "data-index": String(index), tabindex: "0" },
        el("td", { class: "number", text: String(e.game) }),
        el("td", { class: "number", text: String(e.move) }),
        el("td", { text: e.player }),
        el("td", { text: e.decision }),
        el("td", { text: e.right }),
        el("td", { class: "number", text: e.loss.toFixed(3) }),
        el("td", { text: e.mark }),
      );
      onActivate(row, () => selectMove(e.index));
      return row;
    }),
  );
  $("#review-no-errors").hidden = review.errors.length > 0;
  $("#review-errors").hidden = review.errors.length === 0;
  $("#review-errors-view").hidden = review.moves.length === 0;
  $("#review-no-moves").hidden = review.moves.length > 0;
}

function renderSignatures(lines) {
  // Each line names a signer the file chose: text only, never markup.
  $("#review-signatures").replaceChildren(...lines.map((line) => el("li", { text: line })));
  $("#review-signatures-row").hidden = lines.length === 0;
}

function renderReview(result) {
  review.names = result.names || result.players.map((p) => p.name);
  review.moves = result.moves || [];
  review.errors = result.errors || [];
  renderPlayers(result);
  renderSignatures(result.signatures || []);
  renderMoves();
  renderStudy(review.moves);
  $("#review-plot-card").hidden = review.moves.length === 0;
  $("#review-result").hidden = false;
  const first = review.errors.length ? review.errors[0].index : review.moves.length ? 0 : null;
  selectMove(first);
}

function renderAlternatives(move) {
  const table = move ? R.alternatives(move) : { head: [], rows: [], note: "" };
  $("#review-alternatives thead tr").replaceChildren(...table.head.map((text) => el("th", { text })));
  $("#review-alternatives tbody").replaceChildren(
    ...table.rows.map((row) =>
      el("tr", row.className ? { class: row.className } : {}, ...row.cells.map((text, i) => el("td", { class: i ? "number" : "", text }))),
    ),
  );
  $("#review-alternatives").hidden = table.rows.length === 0;
  $("#review-alternatives-note").textContent = table.note;
}

// The selected error's explanation under its board: the text, then each theme named.
function renderExplanation(move) {
  const found = R.explanationModel(move);
  $("#review-explanation").hidden = !found;
  $("#review-explanation-text").textContent = found ? found.text : "";
  $("#review-explanation-themes").replaceChildren(
    ...(found ? found.themes : []).map((theme) =>
      el("li", { "data-theme": theme.id }, el("strong", { text: `${theme.name}: ` }), theme.says),
    ),
  );
}

function scrollToRow(row) {
  const box = $("#review-moves-box");
  if (!row || !box) return;
  const head = $("#review-moves thead").offsetHeight;
  if (row.offsetTop - head < box.scrollTop) box.scrollTop = row.offsetTop - head;
  else if (row.offsetTop + row.offsetHeight > box.scrollTop + box.clientHeight) {
    box.scrollTop = row.offsetTop + row.offsetHeight - box.clientHeight;
  }
}

// The selected move's position on the review board, with its plays as arrows, its
// alternatives, and the cursor on the plot.
function selectMove(index) {
  const move = index === null ? null : review.moves[index] ?? null;
  review.selected = move ? index : null;
  const svg = $("#review-board");
  const errorIndex = move && move.mark ? review.errors.findIndex((e) => e.index === index) : -1;
  if (!move) {
    svg.innerHTML = "";
    svg.removeAttribute("data-move");
    svg.removeAttribute("data-error");
    $("#review-note").textContent = "";
    $("#review-legend").hidden = true;
  } else {
    svg.innerHTML = boardMarkup(R.moveModel(move));
    svg.dataset.move = String(index);
    if (errorIndex >= 0) svg.dataset.error = String(errorIndex);
    else svg.removeAttribute("data-error");
    $("#review-note").textContent = R.moveCaption(move);
    $("#review-legend").hidden = move.kind !== "checker";
    $("#review-legend .best").hidden = !move.mark;
  }
  renderExplanation(move);
  renderAlternatives(move);
  for (const row of $("#review-moves tbody").children) {
    const chosen = Number(row.dataset.index) === review.selected;
    row.setAttribute("aria-selected", String(chosen));
    if (chosen) scrollToRow(row);
  }
  for (const row of $("#review-errors tbody").children) {
    row.setAttribute("aria-selected", String(Number(row.dataset.index) === errorIndex));
  }
  // As wide as it is drawn (within 360-900 units), so that a phone's plot stays legible.
  const plot = $("#review-plot");
  const width = Math.round(Math.min(900, Math.max(360, plot.clientWidth || 900)));
  plot.setAttribute("viewBox", `0 0 ${width} 320`);
  plot.innerHTML = R.plotMarkup(review.moves, review.names, { width, height: 320, selected: review.selected });
}

async function followReview(job) {
  while (review.job === job) {
    const status = await api("GET", `/api/analysis/${job}`);
    if (review.job !== job) return;
    if (status.state === "failed") throw new Error(status.message);
    if (status.state === "cancelled") {
      $("#review-cancel").hidden = true;
      showProgress(status.done, status.total, `stopped after ${status.done} of ${status.total} actions`);
      review.job = null;
      review.failed = true; // opened again, the match is analysed again
      return;
    }
    if (status.state === "done") {
      $("#review-cancel").hidden = true;
      showProgress(status.total, status.total, `all ${status.total} actions analysed at ${status.ply}-ply`);
      $("#review-report").href = `/api/analysis/${job}/report.html`;
      $("#review-report-row").hidden = false;
      renderReview(status.result);
      return;
    }
    showProgress(status.done, status.total);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

// Analyse `source` ({match}, {text, name} or {data, name}) at the lookahead chosen, following the job.
async function analyse(source) {
  review.source = source;
  const run = ++review.run;
  review.failed = false;
  clearResult();
  const ply = Number($("#review-ply").value);
  say(source.match ? `Analysing the match ${source.match}…` : `Analysing ${source.name}…`);
  try {
    const content = source.data ? { data: source.data } : { text: source.text };
    const body = source.match ? { match: source.match, ply } : { ...content, name: source.name, ply };
    const started = await api("POST", "/api/analysis", body);
    if (run !== review.run) return;
    review.job = started.id;
    $("#review-cancel").hidden = false;
    $("#review-cancel").disabled = false;
    showProgress(0, started.total);
    await followReview(started.id);
    if (run === review.run) say("");
  } catch (error) {
    if (run !== review.run) return;
    review.failed = true;
    $("#review-progress-row").hidden = true;
    $("#review-cancel").hidden = true;
    sayError(error);
  }
}

/** Show the review page: of the finished match `matchId` (analysed at once), or (null) of an upload. */
export function openReview(matchId) {
  $("#review-title").textContent = matchId ? "Review of a match played here" : "Review a match";
  $("#review-source").hidden = !matchId;
  $("#review-source-text").textContent = matchId ? `Match ${matchId}.` : "";
  $("#review-file-label").hidden = Boolean(matchId);
  if (matchId) {
    if (review.source?.match !== matchId || review.failed) analyse({ match: matchId });
  } else if (review.source?.match) {
    review.source = null;
    review.run += 1;
    clearResult();
  }
}

export function bindReview() {
  bindStudy();
  $("#review-form").addEventListener("submit", (event) => event.preventDefault());
  $("#review-copy-link").addEventListener("click", () => {
    const id = review.source?.match;
    if (id) copyText(reviewLink(location.origin, id), "link to this review", $("#review-copied"));
  });
  $("#review-cancel").addEventListener("click", async () => {
    const job = review.job;
    if (!job) return;
    $("#review-cancel").disabled = true; // the next poll shows it stopped
    try {
      await api("DELETE", `/api/analysis/${job}`);
    } catch (error) {
      sayError(error);
    }
  });
  $("#review-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    event.target.value = ""; // the same file chosen again (after a fix, or a failure) is read again
    if (!file) return;
    if (file.size > 1_000_000) {
      review.run += 1;
      clearResult();
      say(`${file.name} is larger than 1 MB`, true);
      return;
    }
    if (BINARY_FILE.test(file.name)) analyse({ data: await base64Of(file), name: file.name });
    else analyse({ text: await file.text(), name: file.name });
  });
  $("#review-ply").addEventListener("change", () => {
    if (review.source) analyse(review.source);
  });
  $("#review-plot").addEventListener("click", (event) => {
    const point = event.target.closest("[data-index]");
    if (point) selectMove(Number(point.dataset.index));
  });
  document.addEventListener("keydown", (event) => {
    if ($("#review-view").hidden || $("#review-result").hidden || !review.moves.length) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, select, textarea, button, a")) return;
    const next = R.stepMove(review.selected, event.key, review.moves.length);
    if (next === null) return;
    event.preventDefault();
    selectMove(next);
  });
}
