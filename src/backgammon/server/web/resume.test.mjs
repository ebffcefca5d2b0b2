// Unit tests of resume.js: `node --test src/backgammon/server/web/resume.test.mjs`
// (tests/server/test_web_resume.py runs it from pytest).

import assert from "node:assert/strict";
import { test } from "node:test";

import { lastPlayNote, restoreSteps, saveSteps, stepsKey } from "./resume.js";
import { planner } from "./planner.js";

const START = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0];

/** Player 0 to play the opening 6-5 (two of its plays), after bob's last play. */
function makeState({ seq = 7, dice = [6, 5], lastPlay = { by: 1, move: "24/18 13/8", steps: [] } } = {}) {
  return {
    match: "m1",
    seq,
    players: ["alice", "bob"],
    score: [0, 0],
    settings: { variant: "standard", length: 5 },
    game: {
      number: 1, turn: 0, dice, cube: { value: 1, owner: null }, pending: null,
      board: { player0: START, player1: START, pips: [167, 167] },
      can_double: false,
      legal_plays: ["24/13", "13/7 8/3"],
      legal_steps: [[[24, 18], [18, 13]], [[13, 7], [8, 3]]],
      to_move: 2, over: false, outcome: null,
    },
    waiting_for: 0,
    result: null,
    last_play: lastPlay,
  };
}

/** sessionStorage's methods over a Map. */
function storage() {
  const map = new Map();
  return {
    map,
    getItem: (key) => (map.has(key) ? map.get(key) : null),
    setItem: (key, value) => map.set(key, String(value)),
    removeItem: (key) => map.delete(key),
  };
}

test("the opponent's last play is said to the player and to spectators, not to its maker", () => {
  const state = makeState();
  assert.equal(lastPlayNote(state, 0), "bob played 24/18 13/8.");
  assert.equal(lastPlayNote(state, null), "bob played 24/18 13/8.");
  assert.equal(lastPlayNote(state, 1), "");
  assert.equal(lastPlayNote(makeState({ lastPlay: { by: 1, move: "", steps: [] } }), 0), "bob cannot move.");
  // Before the game's first play: who won the opening roll (game 1 opened at once).
  assert.equal(lastPlayNote(makeState({ lastPlay: null }), 0), "You won the opening roll 6-5.");
  assert.equal(lastPlayNote(makeState({ lastPlay: null }), 1), "alice won the opening roll 6-5.");
  assert.equal(lastPlayNote(makeState({ lastPlay: null, dice: null }), 0), "");
  assert.equal(lastPlayNote({ ...makeState(), result: { winner: 0 } }, 0), "");
});

test("steps chosen in a state come back in the same state", () => {
  const store = storage();
  const state = makeState();
  const plan = planner(state, 0);
  const step = { from: 13, to: 7, die: 6 };
  saveSteps(store, state, [step]);
  assert.ok(store.map.has(stepsKey("m1")));
  assert.deepEqual(restoreSteps(store, state, plan), [step]);
  saveSteps(store, state, []);
  assert.ok(!store.map.has(stepsKey("m1")), "no steps, nothing kept");
});

test("kept steps that do not fit the state are dropped", () => {
  const step = { from: 13, to: 7, die: 6 };
  const cases = [
    makeState({ seq: 9 }), // the match moved on
    makeState({ dice: [5, 6] }), // other dice (reordered: another throw)
  ];
  for (const later of cases) {
    const store = storage();
    saveSteps(store, makeState(), [step]);
    assert.deepEqual(restoreSteps(store, later, planner(later, 0)), []);
    assert.ok(!store.map.has(stepsKey("m1")));
  }
  // A step no legal play begins with, a forged entry, garbage.
  for (const kept of [
    JSON.stringify({ seq: 7, dice: [6, 5], steps: [{ from: 6, to: 0, die: 6 }] }),
    JSON.stringify({ seq: 7, dice: [6, 5], steps: "13/7" }),
    "{not json",
  ]) {
    const store = storage();
    store.setItem(stepsKey("m1"), kept);
    const state = makeState();
    assert.deepEqual(restoreSteps(store, state, planner(state, 0)), []);
    assert.ok(!store.map.has(stepsKey("m1")), kept);
  }
  // A spectator (no plan) restores nothing.
  const store = storage();
  saveSteps(store, makeState(), [step]);
  assert.deepEqual(restoreSteps(store, makeState(), null), []);
});
