// The review's study mode: a player's errors asked again one by one (the board as
// they met it, the choices), the verdict and the error's explanation shown only after
// the answer, and the score. What is asked and said comes from studyview.js (pure,
// unit-tested).

import { boardMarkup } from "./board.js";
import { $, el } from "./common.js";
import { explanationModel } from "./reviewview.js";
import * as S from "./studyview.js";

const study = { moves: [], deck: [], at: 0, right: 0, answered: 0 };

/** Offer study for an analysis' moves: the card, with each player who erred. */
export function renderStudy(moves) {
  study.moves = moves;
  const players = S.studyPlayers(moves);
  $("#study-player").replaceChildren(...players.map((name) => el("option", { value: name, text: name })));
  $("#review-study-card").hidden = players.length === 0;
  $("#study-area").hidden = true;
  $("#study-score").textContent = "";
}

function ask() {
  const move = study.deck[study.at];
  const question = S.studyQuestion(move);
  $("#study-board").innerHTML = boardMarkup(question.board);
  $("#study-prompt").textContent = question.prompt;
  $("#study-choices").replaceChildren(
    ...question.choices.map((choice) =>
      el("button", { type: "button", "data-choice": choice.id, text: choice.label }),
    ),
  );
  $("#study-result").hidden = true;
  $("#study-area").hidden = false;
  $("#study-choices button")?.focus();
}

function answer(choice) {
  const move = study.deck[study.at];
  const verdict = S.studyAnswer(move, choice);
  study.answered += 1;
  if (verdict.right) study.right += 1;
  for (const button of $("#study-choices").children) {
    button.disabled = true;
    button.setAttribute("aria-pressed", String(button.dataset.choice === choice));
    button.classList.toggle("best", button.dataset.choice === verdict.best);
  }
  $("#study-verdict").textContent = verdict.verdict;
  $("#study-verdict").className = verdict.right ? "right" : "wrong";
  const explained = explanationModel(move);
  $("#study-explanation-text").textContent = explained ? explained.text : "";
  $("#study-explanation-themes").replaceChildren(
    ...(explained ? explained.themes : []).map((theme) =>
      el("li", { "data-theme": theme.id }, el("strong", { text: `${theme.name}: ` }), theme.says),
    ),
  );
  const last = study.at + 1 >= study.deck.length;
  $("#study-next").textContent = last ? "Start again" : "Next position";
  $("#study-score").textContent = S.studyScore(study.right, study.answered, study.deck.length);
  $("#study-result").hidden = false;
  $("#study-next").focus();
}

function start() {
  study.deck = S.studyDeck(study.moves, $("#study-player").value);
  Object.assign(study, { at: 0, right: 0, answered: 0 });
  $("#study-score").textContent = S.studyScore(0, 0, study.deck.length);
  if (study.deck.length) ask();
}

export function bindStudy() {
  $("#study-start").addEventListener("click", start);
  $("#study-choices").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-choice]");
    if (button && !button.disabled) answer(button.dataset.choice);
  });
  $("#study-next").addEventListener("click", () => {
    if (study.at + 1 >= study.deck.length) start();
    else {
      study.at += 1;
      ask();
    }
  });
}
