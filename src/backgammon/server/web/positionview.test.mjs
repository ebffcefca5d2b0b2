// Unit tests of positionview.js: `node --test src/backgammon/server/web/positionview.test.mjs`
// (tests/server/test_web_positionview.py runs it from pytest). When BG_POSITION_CASES
// names a JSON file of positions with the Position IDs and XGIDs the Python codecs give
// them, the page's encoders are checked against every one.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as P from "./positionview.js";

const START_ID = "4HPwATDgc/ABMA";
const START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10";

test("the starting position's IDs", () => {
  const board = P.startingBoard();
  assert.equal(board.player[0], 0);
  assert.equal(P.positionId(board.player, board.opponent), START_ID);
  assert.equal(P.xgid(board), START_XGID);
  assert.deepEqual(P.editedIds(board, "player", [3, 1]), {
    positionId: START_ID,
    xgid: START_XGID.replace(":1:00:", ":1:31:"),
  });
  // The top side on roll: the same picture, XG's turn -1.
  assert.equal(P.editedIds(board, "opponent", null).xgid, START_XGID.replace(":0:0:1:", ":0:0:-1:"));
});

test("an empty board has every checker borne off", () => {
  const board = P.emptyBoard();
  assert.equal(board.player[0], 15);
  assert.equal(board.opponent[0], 15);
  assert.equal(P.positionId(board.player, board.opponent), "AAAAAAAAAAAAAA");
  assert.equal(P.boardProblem(board), "the board is empty");
});

test("adding and removing checkers by clicks", () => {
  let board = P.emptyBoard();
  board = P.editBoard(board, 6, "player", "add").board;
  board = P.editBoard(board, 6, "player", "add").board;
  assert.equal(board.player[6], 2);
  assert.equal(board.player[0], 13);
  // The top side's checker on the bottom side's point 19 is its own point 6.
  board = P.editBoard(board, 19, "opponent", "add").board;
  assert.equal(board.opponent[6], 1);
  board = P.editBoard(board, 25, "opponent", "add").board;
  assert.equal(board.opponent[25], 1);
  assert.equal(board.opponent[0], 13);
  // Remove takes from whichever side stands there.
  board = P.editBoard(board, 19, "player", "remove").board;
  assert.equal(board.opponent[6], 0);
  assert.match(P.editBoard(board, 19, "player", "remove").error, /no checker on point 19/);
  board = P.editBoard(board, 25, "player", "remove").board; // the bar: the other side's
  assert.equal(board.opponent[25], 0);
  assert.equal(P.boardProblem(board), null);
});

test("a point holds one side; at most 15 checkers a side; the board is unchanged on error", () => {
  const start = P.startingBoard();
  const refused = P.editBoard(start, 24, "player", "add");
  assert.match(refused.error, /already has 15 checkers/);
  assert.equal(refused.board, undefined);
  assert.equal(start.player[24], 2);
  let board = P.editBoard(start, 6, "player", "remove").board;
  const occupied = P.editBoard(board, 1, "player", "add"); // the top side's 24 point
  assert.match(occupied.error, /point 1 holds Black \(top\)'s checkers/);
  assert.equal(P.editBoard(board, 1, "player", "add").board, undefined);
  board = P.editBoard(board, 1, "opponent", "remove").board;
  board = P.editBoard(board, 1, "opponent", "remove").board;
  board = P.editBoard(board, 1, "player", "add").board;
  assert.equal(board.player[1], 1);
  const tooMany = { player: [0, 16, ...new Array(24).fill(0)], opponent: P.startingBoard().opponent };
  assert.match(P.boardProblem(tooMany), /16 checkers: at most 15/);
});

test("dice", () => {
  assert.deepEqual(P.parseDice("3-1"), [3, 1]);
  assert.deepEqual(P.parseDice("64"), [6, 4]);
  assert.equal(P.parseDice("  "), null);
  assert.match(P.parseDice("7-1").error, /not a roll/);
});

test("the words of a report's context, cube decision and rollout", () => {
  const report = {
    dice: null,
    context: { on_roll: "O", cube: 2, owner: "player", length: 7, score: [3, 2], crawford: false, max_cube: 1024, double_pending: false },
  };
  assert.equal(
    P.contextLine(report),
    "On roll: O · no dice · cube 2, owned by the side on roll · 7-point match, score 3-2 (4 and 5 away).",
  );
  const money = { dice: [3, 1], dice_from: "text", context: { on_roll: "X", cube: 1, owner: null, length: 0, score: [0, 0], jacoby: true, max_cube: 1024 } };
  assert.equal(P.contextLine(money), "On roll: X · dice 3-1 (from the text) · cube 1 centred · money (Jacoby).");

  const view = P.cubeView({ available: true, kind: "money", no_double: 0.8, double_take: 1.2, double_pass: 1, action: "double, pass" });
  assert.equal(view.line, "Proper cube action: Double, pass.");
  assert.deepEqual(view.rows.map((row) => row.best), [false, false, true]);
  assert.equal(view.rows[1].text, "+1.200");
  const none = P.cubeView({ available: false, kind: "match", reason: "the Crawford game: no doubling" });
  assert.equal(none.line, "No cube decision: the Crawford game: no doubling.");
  assert.equal(P.cubeView(null), null);

  assert.deepEqual(P.rolloutProgress({ state: "running", done: 36, total: 144 }), { fraction: 0.25, text: "36 of 144 trials" });
  assert.equal(P.rolloutProgress({ state: "cancelled", done: 12, total: 144 }).text, "cancelled after 12 of 144 trials");
  const rows = P.rolloutRows({
    lines: [
      { play: null, trials: 48, equity: 0.0512, standard_error: 0.0123, probabilities: [0.52, 0.13, 0.005, 0.12, 0.004], probability_errors: [0.01, 0.005, 0.001, 0.004, 0.001] },
      { play: "8/5 6/5", trials: 0 },
    ],
  });
  assert.equal(rows[0].label, "the position");
  assert.equal(rows[0].equity, "+0.051 ± 0.012");
  assert.equal(rows[0].win, "52.0%");
  assert.match(rows[0].errors, /^win ± 1.0%, gammon ± 0.5%/);
  assert.equal(rows[1].equity, "…");
});

test("the encoders agree with the Python codecs", { skip: !process.env.BG_POSITION_CASES }, () => {
  const cases = JSON.parse(readFileSync(process.env.BG_POSITION_CASES, "utf8"));
  assert.ok(cases.length > 0);
  for (const item of cases) {
    const board = P.copyBoard(item);
    assert.equal(P.positionId(board.player, board.opponent), item.position_id, JSON.stringify(item));
    assert.equal(P.xgid(board), item.xgid, JSON.stringify(item));
    assert.equal(P.boardProblem(board), null);
  }
});

test("the source line says exact, an estimate with its note, or nothing", () => {
  assert.equal(P.sourceLine({}), "");
  assert.equal(P.sourceLine({ source: { exact: false, label: "estimate", note: null } }), "");
  assert.equal(P.sourceLine({ source: { exact: true, label: "exact", note: null } }), "Exact values (solved database).");
  const note = "estimate from the neural network: run `backgammon build-hypergammon --checkers 3`";
  assert.equal(P.sourceLine({ source: { exact: false, label: "estimate", note } }), `Estimate: ${note}`);
});
