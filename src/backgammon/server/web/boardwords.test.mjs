// Unit tests of boardwords.js: `node --test src/backgammon/server/web/boardwords.test.mjs`
// (tests/server/test_web_boardwords.py runs it from pytest).

import assert from "node:assert/strict";
import { test } from "node:test";

import * as V from "./boardmodel.js";
import { boardWords, cursorLabel, matchWords } from "./boardwords.js";

// The starting position: each side [off, 1..24, bar] in its own numbering.
const START = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0];

function words(fields = {}) {
  const points = V.pointsView({ bottom: START, top: START });
  return {
    names: { bottom: "alice", top: "bob" },
    you: "bottom",
    score: { bottom: 0, top: 2 },
    length: 5,
    crawford: false,
    turn: "bottom",
    points,
    dice: [{ value: 3, used: true }, { value: 1, used: false }],
    cube: { value: 2, owner: "top", offered: null, offeredBy: null },
    pips: { bottom: 167, top: 167 },
    ...fields,
  };
}

test("the player's own view: their checkers are theirs, the opponent's by name", () => {
  const { lines, points } = boardWords(words());
  assert.deepEqual(lines, [
    "Score: you 0, bob 2 (5-point match).",
    "Turn: yours.",
    "Dice: 3 and 1, yours (used: 3).",
    "Cube: 2, owned by bob.",
    "Pips: you 167, bob 167.",
    "On the bar: you 0, bob 0.",
    "Borne off: you 0, bob 0.",
    "Points are numbered from your side: you move from 24 down to 1, then off; empty points are left out.",
  ]);
  assert.deepEqual(points, [
    "point 1: 2 of bob's",
    "point 6: 5 of yours",
    "point 8: 3 of yours",
    "point 12: 5 of bob's",
    "point 13: 5 of yours",
    "point 17: 3 of bob's",
    "point 19: 5 of bob's",
    "point 24: 2 of yours",
  ]);
});

test("a spectator reads both names; no dice, a centred cube offered, money, no cube at all", () => {
  const watched = boardWords(words({ you: null, dice: [], turn: "top", length: 0, cube: { value: 1, owner: null, offered: 2, offeredBy: "top" } }));
  assert.equal(watched.lines[0], "Score: alice 0, bob 2 (money session).");
  assert.equal(watched.lines[1], "Turn: bob's.");
  assert.equal(watched.lines[2], "Dice: not rolled.");
  assert.equal(watched.lines[3], "Cube: 1, in the middle; bob offered it at 2.");
  assert.match(watched.lines.at(-1), /^Points are numbered from alice's side: alice moves from 24/);
  assert.equal(watched.points[0], "point 1: 2 of bob's");
  assert.equal(watched.points[1], "point 6: 5 of alice's");
  const plakoto = boardWords(words({ cube: null, crawford: true }));
  assert.equal(plakoto.lines[0], "Score: you 0, bob 2 (5-point match, Crawford game).");
  assert.ok(!plakoto.lines.some((line) => line.startsWith("Cube")));
});

test("a pinned checker is said under the one that pins it; the bar and off counted", () => {
  const mine = [3, 0, 0, 0, 0, 0, 1, ...Array(18).fill(0), 1];
  const theirs = [0, ...Array(18).fill(0), 1, 0, 0, 0, 0, 0, 0];
  const view = { bottom: mine, top: theirs, topology: "mirror", pinned: { bottom: new Set([6]), top: new Set() } };
  const { lines, points } = boardWords(words({ points: V.pointsView(view) }));
  assert.deepEqual(points, ["point 6: 1 of bob's, pinning 1 of yours"]);
  assert.ok(lines.includes("On the bar: you 1, bob 0."));
  assert.ok(lines.includes("Borne off: you 3, bob 0."));
});

test("the board's name says where the keyboard's cursor is and what Enter does", () => {
  const { points } = boardWords(words());
  const result = { points };
  assert.equal(cursorLabel(null, null, result), "the board (Tab to it, then the arrow keys and Enter move checkers)");
  assert.equal(cursorLabel(13, null, result), "the board: point 13 (5 of yours); Enter picks up a checker");
  assert.equal(cursorLabel(10, 13, result), "the board: move the checker from point 13 to point 10; Enter puts it there");
  assert.equal(cursorLabel(13, 13, result), "the board: point 13, where the checker was picked up; Enter puts it back");
  assert.equal(cursorLabel(0, 5, result), "the board: bear the checker off from point 5; Enter bears it off");
  assert.equal(cursorLabel(25, null, result), "the board: the bar; Enter picks up a checker");
});

test("a server's state in words, for seat 1 at the bottom and for a spectator", () => {
  const mine = [0, 0, 0, 0, 0, 0, 4, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1];
  const state = {
    players: ["alice", "bob"],
    score: [1, 0],
    settings: { length: 3, variant: "standard" },
    game: {
      board: { player0: START, player1: mine, pips: [167, 167 + 25 - 6] },
      turn: 1,
      dice: [6, 5],
      cube: { value: 2, owner: 0 },
      crawford: false,
      over: false,
    },
  };
  const bob = matchWords(state, state, 1, [], null);
  assert.deepEqual(bob.lines.slice(0, 6), [
    "Score: you 0, alice 1 (3-point match).",
    "Turn: yours.",
    "Dice: 6 and 5, yours.",
    "Cube: 2, owned by alice.",
    "Pips: you 186, alice 167.",
    "On the bar: you 1, alice 0.",
  ]);
  assert.equal(bob.points[1], "point 6: 4 of yours");
  const watcher = matchWords(state, state, null, [], null);
  assert.equal(watcher.lines[1], "Turn: bob's.");
  assert.equal(watcher.lines[3], "Cube: 2, owned by alice.");
  assert.equal(watcher.points[1], "point 6: 5 of alice's");
});
