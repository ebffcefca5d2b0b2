// Unit tests of reviewview.js: `node --test src/backgammon/server/web/reviewview.test.mjs`
// (tests/server/test_web_reviewview.py runs it from pytest). When BG_REVIEW_RESULT
// names a JSON file of an analysis result (the pytest test writes the server's own
// analysis of a match), every move of it is checked too.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as R from "./reviewview.js";

const START = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0];
const BOARD = { player: START, opponent: START, pips: [167, 167] };

function checker({ game = 1, move = 1, seat = 0, mark = null, lossValue = 0, before = { win: 0.5, equity: 0 } } = {}) {
  return {
    index: 0,
    game,
    move,
    player: seat ? "Bob" : "Alice",
    seat,
    kind: "checker",
    decision: "3-1: 24/21 24/23",
    right: "8/5 6/5",
    play: "24/21 24/23",
    forced: false,
    dice: [3, 1],
    played: [[24, 21], [24, 23]],
    best: [[8, 5], [6, 5]],
    options: [
      { play: "8/5 6/5", equity: 0.15, difference: 0, probabilities: [0.55, 0.16, 0.01, 0.12, 0.005], played: false },
      { play: "24/21 24/23", equity: 0.02, difference: -0.13, probabilities: [0.5, 0.13, 0.01, 0.13, 0.005], played: true },
    ],
    loss: lossValue,
    mark,
    position_id: "4HPwATDgc/ABMA",
    board: BOARD,
    cube: { value: 1, owner: null },
    before,
    luck: 0.1,
  };
}

function cube(action, { shouldDouble = true, shouldTake = true, mark = null, lossValue = 0 } = {}) {
  return {
    index: 0,
    game: 1,
    move: 5,
    player: action === "take" || action === "pass" ? "Bob" : "Alice",
    seat: action === "take" || action === "pass" ? 1 : 0,
    kind: "cube",
    decision: action,
    right: shouldDouble ? "double" : "no double",
    action,
    doubler: "Alice",
    cube_action: shouldDouble ? (shouldTake ? "double, take" : "double, pass") : "no double",
    should_double: shouldDouble,
    should_take: shouldTake,
    equities: { no_double: 0.4, double_take: 0.6, double_pass: 1.0 },
    probabilities: [0.7, 0.2, 0.01, 0.05, 0.0],
    cubeless_equity: 0.55,
    close: true,
    loss: lossValue,
    mark,
    position_id: "4HPwATDgc/ABMA",
    board: BOARD,
    cube: { value: 1, owner: null },
    before: { win: 0.7, equity: 0.6 },
  };
}

test("marks become CSS classes", () => {
  assert.equal(R.markClass("very bad"), "mark-very-bad");
  assert.equal(R.markClass("doubtful"), "mark-doubtful");
  assert.equal(R.markClass(null), "");
  assert.deepEqual(R.MARKS, ["doubtful", "bad", "very bad"]);
  for (const mark of R.MARKS) assert.ok(R.MARK_COLOURS[mark]);
});

test("a move list row says who did what, with the loss and the mark", () => {
  const row = R.moveRow(checker({ mark: "bad", lossValue: 0.13 }));
  assert.deepEqual(
    { ...row },
    { game: "1", move: "1", player: "Alice", dice: "3-1", what: "24/21 24/23", loss: "−0.130", mark: "bad", className: "mark-bad" },
  );
  const good = R.moveRow(checker());
  assert.equal(good.loss, "");
  assert.equal(good.className, "");
  const noMove = R.moveRow({ ...checker(), play: "Ø" });
  assert.equal(noMove.what, "no move");
  const take = R.moveRow(cube("take"));
  assert.equal(take.dice, "cube");
  assert.equal(take.what, "takes");
  assert.equal(R.moveRow(cube("no double")).what, "no double");
});

test("the board of a move shows the play made, and the best play only for an error", () => {
  const fine = R.moveModel(checker());
  assert.ok(fine.arrows.length >= 2);
  assert.ok(fine.arrows.every((a) => a.kind === "played"));
  assert.deepEqual(
    fine.dice.map((d) => d.value),
    [3, 1],
  );
  const error = R.moveModel(checker({ mark: "very bad", lossValue: 0.2 }));
  assert.ok(error.arrows.some((a) => a.kind === "played"));
  assert.ok(error.arrows.some((a) => a.kind === "best"));
  const double = R.moveModel({ ...cube("double"), cube: { value: 2, owner: "opponent" } });
  assert.deepEqual(double.arrows, []);
  assert.equal(double.cube.value, 2);
  assert.equal(double.cube.owner, "top");
});

test("the caption says what was played and what was best", () => {
  assert.equal(
    R.moveCaption(checker({ mark: "bad", lossValue: 0.13 })),
    "Game 1, move 1: Alice rolled 3-1 and played 24/21 24/23; best 8/5 6/5 (bad, −0.130).",
  );
  assert.equal(R.moveCaption({ ...checker(), right: "24/21 24/23" }), "Game 1, move 1: Alice rolled 3-1 and played 24/21 24/23: the best play.");
  assert.match(R.moveCaption({ ...checker(), forced: true }), /\(forced\)\.$/);
  assert.equal(R.moveCaption(cube("take")), "Game 1, move 5: Bob took: right. The cube: double, take.");
  assert.equal(
    R.moveCaption(cube("no double", { mark: "doubtful", lossValue: 0.05 })),
    "Game 1, move 5: Alice did not double; the right action: double (doubtful, −0.050). The cube: double, take.",
  );
});

test("an error's explanation: its text and each theme named; none for a good move", () => {
  const explanation = {
    kind: "checker",
    text: "8/5 6/5 is better than 24/21 24/23 by 0.130.",
    themes: [
      { id: "shots", name: "Shots", says: "24/21 24/23 leaves 2 blots." },
      { id: "take-point", name: "Take point", says: "Three-to-one." },
      { id: "new-theme", says: "Something." },
    ],
  };
  const found = R.explanationModel({ ...checker({ mark: "bad", lossValue: 0.13 }), explanation });
  assert.equal(found.text, explanation.text);
  assert.deepEqual(
    found.themes.map((theme) => [theme.id, theme.name, theme.says]),
    [
      ["shots", "Shots", "24/21 24/23 leaves 2 blots."],
      ["take-point", "Take point", "Three-to-one."],
      ["new-theme", "new-theme", "Something."],
    ],
  );
  assert.equal(R.explanationModel({ ...checker(), explanation }), null);
  assert.equal(R.explanationModel({ ...checker({ mark: "bad" }), explanation: null }), null);
  assert.equal(R.explanationModel(null), null);
});

test("the alternatives of a checker play: ranked, the best and the played marked", () => {
  const table = R.alternatives(checker({ mark: "bad", lossValue: 0.13 }));
  assert.deepEqual(table.head, ["#", "Play", "Equity", "Diff.", "Win", "Gammon"]);
  assert.equal(table.rows.length, 2);
  assert.deepEqual(table.rows[0].cells, ["1", "8/5 6/5", "+0.150", "", "55.0%", "16.0%"]);
  assert.equal(table.rows[0].className, "best");
  assert.deepEqual(table.rows[1].cells.slice(0, 4), ["2", "24/21 24/23", "+0.020", "-0.130"]);
  assert.equal(table.rows[1].className, "played");
  assert.match(R.alternatives({ ...checker(), forced: true }).note, /forced/);
});

test("the alternatives of a cube decision: three equities, the right one and the one chosen", () => {
  const take = R.alternatives(cube("take"));
  assert.deepEqual(
    take.rows.map((row) => row.cells),
    [
      ["No double", "+0.400", "-0.200"],
      ["Double, take", "+0.600", ""],
      ["Double, pass", "+1.000", "0.400"],
    ],
  );
  assert.deepEqual(
    take.rows.map((row) => row.className),
    ["", "best played", ""],
  );
  assert.match(take.note, /^Right: double, take \(Alice's equities/);
  const pass = R.alternatives(cube("pass", { shouldTake: true, mark: "very bad", lossValue: 0.4 }));
  assert.equal(pass.rows[2].className, "played");
  const wait = R.alternatives({ ...cube("double", { shouldDouble: false }), equities: { no_double: 0.7, double_take: 0.5, double_pass: 1 } });
  assert.deepEqual(
    wait.rows.map((row) => row.className),
    ["best", "played", ""],
  );
});

test("the file's own analysis is a column beside ours, where they differ said so", () => {
  const xg = {
    engine: "XG",
    kind: "checker",
    level: "3-ply",
    options: [
      { play: "24/21 24/23", equity: 0.1 },
      { play: "13/10 24/23", equity: 0.05 },
      { play: "8/5 6/5", equity: 0.04 },
    ],
  };
  const table = R.alternatives({ ...checker(), file_analysis: xg });
  assert.deepEqual(table.head, ["#", "Play", "Equity", "Diff.", "Win", "Gammon", "XG"]);
  assert.equal(table.rows[0].cells[6], "+0.040");
  assert.equal(table.rows[1].cells[6], "+0.100");
  assert.deepEqual(table.rows[2], { cells: ["", "13/10 24/23", "", "", "", "", "+0.050"], className: "file-only" });
  assert.match(table.note, /XG \(3-ply\): best 24\/21 24\/23 \(\+0\.100\)\. XG and this analysis differ\./);
  const same = R.alternatives({ ...checker(), file_analysis: { ...xg, options: [xg.options[2]] } });
  assert.doesNotMatch(same.note, /differ/);
  const cubed = { engine: "XG", kind: "cube", level: "2-ply", no_double: 0.3, double_take: 0.2, double_drop: 1, best_action: "no double" };
  const doubled = R.alternatives({ ...cube("take"), file_analysis: cubed });
  assert.deepEqual(
    doubled.rows.map((row) => row.cells[3]),
    ["+0.300", "+0.200", "+1.000"],
  );
  assert.match(doubled.note, /XG \(2-ply\): no double\. XG and this analysis differ\./);
  assert.deepEqual(R.alternatives(checker()).head.length, 6); // none: our columns only
});

test("keys step through the moves, clamped at the ends", () => {
  assert.equal(R.stepMove(0, "ArrowDown", 3), 1);
  assert.equal(R.stepMove(0, "j", 3), 1);
  assert.equal(R.stepMove(2, "j", 3), 2);
  assert.equal(R.stepMove(2, "k", 3), 1);
  assert.equal(R.stepMove(0, "ArrowUp", 3), 0);
  assert.equal(R.stepMove(1, "ArrowLeft", 3), 0);
  assert.equal(R.stepMove(1, "ArrowRight", 3), 2);
  assert.equal(R.stepMove(1, "End", 3), 2);
  assert.equal(R.stepMove(2, "Home", 3), 0);
  assert.equal(R.stepMove(null, "j", 3), 0);
  assert.equal(R.stepMove(1, "x", 3), null);
  assert.equal(R.stepMove(0, "j", 0), null);
});

test("the review route: an upload or a match played here", () => {
  assert.deepEqual(R.reviewRoute("#/review"), { match: null });
  assert.deepEqual(R.reviewRoute("#/review/abc_D-9"), { match: "abc_D-9" });
  assert.equal(R.reviewRoute("#/review/bad id"), null);
  assert.equal(R.reviewRoute("#/position"), null);
  assert.equal(R.reviewRoute(""), null);
});

test("the plot has a point per move, the first player's view, broken at each game", () => {
  const moves = [
    checker({ before: { win: 0.5, equity: 0 } }),
    checker({ seat: 1, move: 2, before: { win: 0.25, equity: -0.5 }, mark: "bad", lossValue: 0.1 }),
    checker({ game: 2, before: { win: 1, equity: 1 } }),
  ].map((m, index) => ({ ...m, index }));
  const model = R.plotModel(moves, { width: 400, height: 200 });
  assert.equal(model.points.length, 3);
  assert.deepEqual(
    model.starts.map((s) => s.game),
    [1, 2],
  );
  const [a, b, c] = model.points;
  assert.ok(a.x < b.x && b.x < c.x);
  assert.equal(a.x, model.left);
  assert.equal(c.x, model.left + model.plotWidth);
  // Higher chances and equities are higher on the page (smaller y).
  assert.ok(c.win < a.win && a.win < b.win);
  assert.ok(c.equity < a.equity && a.equity < b.equity);
  assert.equal(c.win, model.panels.win.top);
  assert.equal(b.mark, "bad");
  assert.equal(model.paths.win.split("M").length - 1, 2); // a new line per game
  assert.equal(model.paths.equity.split("L").length - 1, 1);
  // The equity axis grows past ±1 when it must.
  const big = R.plotModel([{ ...moves[0], before: { win: 0.9, equity: 1.7 } }]);
  assert.equal(big.panels.equity.high, 2);
  assert.equal(big.panels.equity.low, -2);
  assert.equal(R.plotModel([]).points.length, 0);
});

test("the plot's markup: two points per move, errors coloured, the cursor, names escaped", () => {
  const moves = [checker(), checker({ move: 2, seat: 1, mark: "very bad", lossValue: 0.3 })].map((m, index) => ({ ...m, index }));
  const svg = R.plotMarkup(moves, ["<Al>", "Bob"], { selected: 1 });
  assert.equal((svg.match(/class="[^"]*win-point/g) || []).length, 2);
  assert.equal((svg.match(/class="[^"]*equity-point/g) || []).length, 2);
  assert.equal((svg.match(/class="plot-point error mark-very-bad selected win-point"/g) || []).length, 1);
  assert.ok(svg.includes('data-index="1"'));
  assert.ok(svg.includes(R.MARK_COLOURS["very bad"]));
  assert.ok(svg.includes("plot-cursor"));
  assert.ok(svg.includes("&lt;Al&gt;: chance to win"));
  assert.ok(!svg.includes("<Al>"));
  assert.ok(!R.plotMarkup(moves, ["a", "b"]).includes("plot-cursor"));
});

const RESULT = process.env.BG_REVIEW_RESULT;

test("every move of a real analysis is drawn, captioned, listed and plotted", { skip: !RESULT }, () => {
  const result = JSON.parse(readFileSync(RESULT, "utf8"));
  const moves = result.moves;
  assert.ok(moves.length > 10);
  assert.ok(moves.some((m) => m.kind === "cube"));
  for (const move of moves) {
    const row = R.moveRow(move);
    assert.ok(row.what && row.player);
    const model = R.moveModel(move);
    assert.ok(model.points && model.cube.value === move.cube.value, `the board of move ${move.index}`);
    if (move.kind === "checker" && move.played.length) {
      assert.ok(model.arrows.some((a) => a.kind === "played"), `no arrow for ${move.decision}`);
    }
    if (!move.mark) assert.ok(model.arrows.every((a) => a.kind === "played"));
    const caption = R.moveCaption(move);
    assert.ok(caption.startsWith(`Game ${move.game}, move ${move.move}: ${move.player}`), caption);
    const table = R.alternatives(move);
    assert.ok(table.rows.length >= 1);
    assert.equal(table.rows.filter((r) => r.className.includes("best")).length, 1);
    assert.equal(table.rows.filter((r) => r.className.includes("played")).length, 1, JSON.stringify(move));
    for (const r of table.rows) assert.equal(r.cells.length, table.head.length);
  }
  const model = R.plotModel(moves);
  assert.equal(model.points.length, moves.length);
  for (const p of model.points) {
    assert.ok(Number.isFinite(p.x) && Number.isFinite(p.win) && Number.isFinite(p.equity));
  }
  const svg = R.plotMarkup(moves, result.names, { selected: 0 });
  assert.equal((svg.match(/win-point/g) || []).length, moves.length);
  assert.equal((svg.match(/class="plot-point error/g) || []).length, 2 * result.errors.length);
});

test("a player's luck reads in words, never the analysis' bare \"None\"", () => {
  assert.equal(R.luckText(0.0123, "None"), "+0.012 (average luck)");
  assert.equal(R.luckText(-0.0451, "Bad dice, man!"), "-0.045 (Bad dice, man!)");
  assert.equal(R.luckText(0.2, "Cheater :-)"), "+0.200 (Cheater :-))");
  assert.equal(R.luckText(0, undefined), "+0.000 (average luck)");
});
