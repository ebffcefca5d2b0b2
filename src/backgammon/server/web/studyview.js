// Pure helpers of the review's study mode (no DOM): a player's errors as a deck, each
// asked again as the player met it (the board before the decision, the choices), and
// the verdict on an answer, with the error's explanation after it. Unit-tested by
// studyview.test.mjs under `node --test`.

import { isError, reviewModel } from "./reviewview.js";

/** The most plays offered as answers to a checker-play question. */
export const MOST_CHOICES = 5;

/** The errors `player` made (moves of the analysis, in the order played), to study. */
export function studyDeck(moves, player) {
  return moves.filter((move) => isError(move) && move.player === player);
}

/** The players who made errors, in the order of their first error. */
export function studyPlayers(moves) {
  return [...new Set(moves.filter(isError).map((move) => move.player))];
}

function playText(play) {
  return play === "Ø" || play === "" ? "no move" : play;
}

/** Who decided a cube action: the doubler (double / no double) or the one doubled. */
function cubeChoices(move) {
  if (move.action === "double" || move.action === "no double") {
    return [
      { id: "no double", label: "No double" },
      { id: "double", label: "Double" },
    ];
  }
  return [
    { id: "take", label: "Take" },
    { id: "pass", label: "Pass" },
  ];
}

/** The right answer to a cube question, as a choice's id. */
function rightCube(move) {
  if (move.action === "double" || move.action === "no double") return move.should_double ? "double" : "no double";
  return move.should_take ? "take" : "pass";
}

/**
 * A question: {board, prompt, choices: [{id, label}]}. The board is the position as
 * the player met it (the dice of a checker play, the cube; no arrows). A checker
 * play's choices are the analysis' best plays and the one made, at most
 * MOST_CHOICES, in the notation's order (so the best is not always first); a cube
 * action's are the two the player had.
 */
export function studyQuestion(move) {
  const board = reviewModel({ ...move, played: [], best: [] });
  board.arrows = [];
  const where = `Game ${move.game}, move ${move.move}`;
  if (move.kind !== "checker") {
    const doubler = move.action === "double" || move.action === "no double";
    const prompt = doubler
      ? `${where}: ${move.player}, before rolling: double or not?`
      : `${where}: ${move.player}, you are doubled: take or pass?`;
    return { board, prompt, choices: cubeChoices(move) };
  }
  const plays = (move.options || []).slice(0, MOST_CHOICES).map((option) => option.play);
  if (!plays.includes(move.play)) plays[Math.min(plays.length, MOST_CHOICES - 1)] = move.play;
  const choices = [...new Set(plays)].sort().map((play) => ({ id: play, label: playText(play) }));
  const dice = move.dice ? `${move.dice[0]}-${move.dice[1]}` : "";
  return { board, prompt: `${where}: ${move.player} to play ${dice}. Your play?`, choices };
}

/**
 * The verdict on `choice` (a choice's id): {right, verdict, best} (`best`: the right
 * choice's id). Right when it is the best
 * play (or the right cube action); otherwise what it costs beside the best, where
 * the analysis ranked it, and what was played in the match.
 */
export function studyAnswer(move, choice) {
  if (move.kind !== "checker") {
    const best = rightCube(move);
    if (choice === best) return { right: true, verdict: `Right: ${move.cube_action}.`, best };
    return { right: false, verdict: `Not quite: ${move.cube_action} (in the match: ${move.action}).`, best };
  }
  const options = move.options || [];
  const best = options.length ? options[0].play : move.right;
  if (choice === best) return { right: true, verdict: `Right: ${playText(best)} is the best play.`, best };
  const ranked = options.findIndex((option) => option.play === choice);
  const cost =
    ranked > 0
      ? `${playText(choice)} gives up ${Math.abs(options[ranked].difference).toFixed(3)}`
      : `${playText(choice)} loses ${move.loss.toFixed(3)}`;
  return { right: false, verdict: `Not quite: the best is ${playText(best)}; ${cost}.`, best };
}

/** The score line: "2 right of 3 (5 to study)". */
export function studyScore(right, answered, total) {
  return `${right} right of ${answered} (${total} to study)`;
}
