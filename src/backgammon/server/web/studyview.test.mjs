// Unit tests of studyview.js: `node --test src/backgammon/server/web/studyview.test.mjs`
// (tests/server/test_web_study.py runs it from pytest).

import assert from "node:assert/strict";
import { test } from "node:test";

import * as S from "./studyview.js";

const START = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0];
const SHARED = { board: { player: START, opponent: START, pips: [167, 167] }, cube: { value: 1, owner: null } };

function option(play, difference, played = false) {
  return { play, equity: 0.1 + difference, difference, probabilities: [0.5, 0.1, 0, 0.1, 0], played };
}

// Alice's 3-1 at move 2 of game 1: she played 24/21 24/23 (second best) where 8/5 6/5 was best.
const MISSED = {
  ...SHARED,
  index: 3, game: 1, move: 2, player: "Alice", kind: "checker", mark: "bad", loss: 0.13,
  dice: [3, 1], play: "24/21 24/23", right: "8/5 6/5", played: [[24, 21]], best: [[8, 5]],
  options: [option("8/5 6/5", 0), option("24/21 24/23", -0.13, true), option("13/10 6/5", -0.2)],
};

function cubeMove(action, { shouldDouble, shouldTake, player = "Bob" }) {
  return {
    ...SHARED, index: 7, game: 2, move: 5, player, kind: "cube", mark: "very bad", loss: 0.3, action,
    doubler: "Alice", should_double: shouldDouble, should_take: shouldTake,
    cube_action: shouldDouble ? (shouldTake ? "double, take" : "double, pass") : "no double",
  };
}

test("a player's deck holds their errors only, in the order played", () => {
  const good = { ...MISSED, index: 1, mark: null };
  const bobs = cubeMove("take", { shouldDouble: true, shouldTake: false });
  const moves = [good, MISSED, bobs, { ...MISSED, index: 9, move: 8 }];
  assert.deepEqual(S.studyDeck(moves, "Alice").map((m) => m.index), [3, 9]);
  assert.deepEqual(S.studyDeck(moves, "Bob").map((m) => m.index), [7]);
  assert.deepEqual(S.studyPlayers(moves), ["Alice", "Bob"]);
});

test("a checker question offers the best plays and the one made, in notation order, no arrows", () => {
  const question = S.studyQuestion(MISSED);
  assert.equal(question.prompt, "Game 1, move 2: Alice to play 3-1. Your play?");
  assert.deepEqual(question.choices.map((c) => c.id), ["13/10 6/5", "24/21 24/23", "8/5 6/5"]);
  assert.deepEqual(question.board.arrows, []);
  assert.deepEqual(question.board.dice.map((die) => die.value), [3, 1]);
});

test("the play made is offered even when the analysis ranked it below the best few", () => {
  const options = ["a", "b", "c", "d", "e", "f"].map((p, i) => option(`8/${i + 1}`, -i / 10));
  const question = S.studyQuestion({ ...MISSED, options, play: "bar/20" });
  const ids = question.choices.map((c) => c.id);
  assert.equal(ids.length, S.MOST_CHOICES);
  assert.ok(ids.includes("bar/20") && ids.includes("8/1"));
});

test("answers: the best play is right; another says what it gives up", () => {
  assert.deepEqual(S.studyAnswer(MISSED, "8/5 6/5"), {
    right: true,
    verdict: "Right: 8/5 6/5 is the best play.",
    best: "8/5 6/5",
  });
  const wrong = S.studyAnswer(MISSED, "13/10 6/5");
  assert.equal(wrong.right, false);
  assert.equal(wrong.verdict, "Not quite: the best is 8/5 6/5; 13/10 6/5 gives up 0.200.");
});

test("cube questions: the doubler's choice and the taker's, and their verdicts", () => {
  const noDouble = cubeMove("no double", { shouldDouble: true, shouldTake: true, player: "Alice" });
  const asked = S.studyQuestion(noDouble);
  assert.equal(asked.prompt, "Game 2, move 5: Alice, before rolling: double or not?");
  assert.deepEqual(asked.choices.map((c) => c.id), ["no double", "double"]);
  assert.deepEqual(S.studyAnswer(noDouble, "double"), { right: true, verdict: "Right: double, take.", best: "double" });
  const took = cubeMove("take", { shouldDouble: true, shouldTake: false });
  assert.deepEqual(S.studyQuestion(took).choices.map((c) => c.id), ["take", "pass"]);
  assert.equal(S.studyQuestion(took).prompt, "Game 2, move 5: Bob, you are doubled: take or pass?");
  assert.deepEqual(S.studyAnswer(took, "take"), {
    right: false,
    verdict: "Not quite: double, pass (in the match: take).",
    best: "pass",
  });
  assert.equal(S.studyAnswer(took, "pass").right, true);
});

test("the score line", () => {
  assert.equal(S.studyScore(2, 3, 5), "2 right of 3 (5 to study)");
});
