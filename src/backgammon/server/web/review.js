// The review (#/review): an uploaded match file's analysis, with a progress bar, the
// players' figures, the errors and the board of the selected one.

import { boardMarkup } from "./board.js";
import { $, api, el, say, signed } from "./common.js";
import * as V from "./view.js";

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

export function bindReview() {
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
