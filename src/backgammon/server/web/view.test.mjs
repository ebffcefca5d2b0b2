// Unit tests of the view logic (boardrules.js, boardmodel.js, planner.js, matchview.js,
// matchwords.js, and the lobby's, review's and player page's parts of lobbyview.js,
// reviewview.js and playerview.js): `node --test src/backgammon/server/web/view.test.mjs`
// (tests/server/test_web_view.py runs it from pytest). When BG_VIEW_STATES names a
// JSON file of match states (the pytest test writes states of random games played by
// the rules), every legal play of each is checked to be enterable step by step.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as boardmodel from "./boardmodel.js";
import * as boardrules from "./boardrules.js";
import * as lobbyview from "./lobbyview.js";
import * as matchview from "./matchview.js";
import * as matchwords from "./matchwords.js";
import * as planner from "./planner.js";
import * as playerview from "./playerview.js";
import * as reviewview from "./reviewview.js";

// The view logic's modules under one name (these tests were written when they were one).
const MODULES = [boardrules, boardmodel, planner, matchview, matchwords, lobbyview, reviewview, playerview];
const V = Object.assign({}, ...MODULES);

const START = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0];

function pips(board) {
  return board.reduce((sum, count, point) => sum + count * point, 0);
}

/** A match state as the server sends it (only what the view logic reads). */
function makeState({ player0 = START, player1 = START, turn = 0, dice = null, plays = null, steps = null,
  pending = null, canDouble = false, toMove = 2, result = null, waiting = turn, cube = { value: 1, owner: null },
  settings = {}, clock = null } = {}) {
  return {
    match: "m1",
    seq: 7,
    players: ["alice", "bob"],
    score: [0, 0],
    settings: { variant: "standard", length: 5, cube: true, beavers: false, raccoons: false, ...settings },
    game: {
      number: 1,
      turn,
      dice,
      cube,
      pending,
      board: { player0, player1, pips: [pips(player0), pips(player1)] },
      can_double: canDouble,
      legal_plays: plays,
      legal_steps: steps,
      to_move: toMove,
      over: false,
      outcome: null,
    },
    waiting_for: waiting,
    clock,
    result,
  };
}

// The opening 6-5 for player 0, as the server sends it.
const OPENING = makeState({
  dice: [6, 5],
  plays: ["24/13", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/7 8/3", "13/2", "8/3 8/2"],
  steps: [
    [[24, 18], [18, 13]],
    [[24, 18], [13, 8]],
    [[24, 18], [8, 3]],
    [[13, 7], [13, 8]],
    [[13, 7], [8, 3]],
    [[13, 7], [7, 2]],
    [[8, 2], [8, 3]],
  ],
});

function board(points) {
  const counts = new Array(26).fill(0);
  for (const [point, count] of Object.entries(points)) counts[Number(point)] = count;
  return counts;
}

test("the viewer's seat and the seat drawn at the bottom", () => {
  assert.equal(V.seatOf(OPENING, "alice"), 0);
  assert.equal(V.seatOf(OPENING, "bob"), 1);
  assert.equal(V.seatOf(OPENING, "carol"), null);
  assert.equal(V.bottomSeat(null), 0);
  assert.equal(V.bottomSeat(1), 1);
});

test("dice: doubles move four times", () => {
  assert.deepEqual(V.diceList([6, 5]), [6, 5]);
  assert.deepEqual(V.diceList([3, 3]), [3, 3, 3, 3]);
  assert.deepEqual(V.diceList(null), []);
});

test("dice: a throw of three (tabula) moves each die once, equal ones too", () => {
  assert.deepEqual(V.diceList([6, 5, 2]), [6, 5, 2]);
  assert.deepEqual(V.diceList([4, 4, 1]), [4, 4, 1]);
  assert.deepEqual(V.diceList([3, 3, 3]), [3, 3, 3]);
  assert.equal(V.rollText([6, 5, 2]), "6-5-2");
  const state = { game: { dice: [3, 3, 3] } };
  assert.deepEqual(V.diceView(state, null, []).map((d) => d.value), [3, 3, 3]);
});

test("a step onto a lone opposing checker hits it", () => {
  const mine = board({ 13: 1 });
  const theirs = board({ 18: 1 }); // their 18 is our 7
  const { mine: m, theirs: t, hit } = V.applyStep(mine, theirs, 13, 7);
  assert.equal(hit, true);
  assert.equal(m[7], 1);
  assert.equal(t[18], 0);
  assert.equal(t[25], 1);
  assert.equal(mine[13], 1, "the inputs are not changed");
});

test("the points each side's checkers stand on, seen from either seat", () => {
  const state = makeState({ player0: board({ 24: 2, 6: 5, 0: 1 }), player1: board({ 1: 3, 25: 1 }) });
  const seat0 = V.pointsView(V.boardView(state, 0));
  assert.deepEqual(seat0.points[23], { point: 24, bottom: 2, top: 3 }); // their 1 is our 24
  assert.deepEqual(seat0.points[5], { point: 6, bottom: 5, top: 0 });
  assert.deepEqual(seat0.bar, { bottom: 0, top: 1 });
  assert.deepEqual(seat0.off, { bottom: 1, top: 0 });
  const seat1 = V.pointsView(V.boardView(state, 1));
  assert.deepEqual(seat1.points[0], { point: 1, bottom: 3, top: 2 });
  assert.deepEqual(seat1.points[18], { point: 19, bottom: 0, top: 5 });
  assert.deepEqual(seat1.bar, { bottom: 1, top: 0 });
  const spectator = V.boardView(state, null);
  assert.equal(spectator.bottomSeat, 0);
  assert.deepEqual(spectator.pips, { bottom: 6 * 5 + 48, top: 3 + 25 });
});

test("geometry: every point is found where it is drawn", () => {
  for (let p = 1; p <= 24; p += 1) {
    const { x, top } = V.pointPlace(p);
    for (const c of V.checkerCenters(p, 15)) assert.equal(V.placeAt(x, c.y), p);
    assert.equal(V.placeAt(x, top ? V.AREAS.top + 5 : V.AREAS.bottom - 5), p);
  }
  assert.equal(V.placeAt(V.AREAS.bar + 10, 100), 25);
  assert.equal(V.placeAt(V.AREAS.tray + 10, 500), 0);
  assert.equal(V.placeAt(5, 300), null);
  // Point 1 is at the bottom right, 12 bottom left, 13 top left, 24 top right.
  assert.ok(V.pointPlace(1).x > V.pointPlace(6).x && V.pointPlace(6).x > V.pointPlace(7).x);
  assert.ok(V.pointPlace(12).x === V.pointPlace(13).x && V.pointPlace(24).x === V.pointPlace(1).x);
  // Fifteen checkers stay on their point.
  const stack = V.checkerCenters(1, 15);
  assert.ok(stack.at(-1).y - V.GEOMETRY.RADIUS >= V.AREAS.bottom - V.GEOMETRY.DEPTH - 0.001);
});

test("the opening 6-5: pick a checker, see where it goes, complete the play", () => {
  const plan = V.planner(OPENING, 0);
  assert.deepEqual(V.sources(plan, []), [24, 13, 8]);
  assert.deepEqual(V.destinations(plan, [], 24), [18]); // 24/19 lands on their 6-point
  assert.deepEqual(V.destinations(plan, [], 13), [8, 7]);
  assert.deepEqual(V.destinations(plan, [], 8), [3, 2]);
  const first = V.stepTo(plan, [], 24, 18);
  assert.deepEqual(first, { from: 24, to: 18, die: 6 });
  assert.equal(V.completedPlay(plan, [first]), null);
  assert.deepEqual(V.destinations(plan, [first], 18), [13]);
  assert.deepEqual(V.destinations(plan, [first], 13), [8]);
  const run = [first, V.stepTo(plan, [first], 18, 13)];
  assert.equal(V.completedPlay(plan, run), "24/13");
  assert.deepEqual(V.sources(plan, run), [], "nothing more to move");
  // The same play in another order gives the same notation.
  const a = V.stepTo(plan, [], 8, 3);
  const b = V.stepTo(plan, [a], 13, 7);
  assert.equal(V.completedPlay(plan, [a, b]), "13/7 8/3");
  // The board shows the chosen steps, with the pips.
  const view = V.boardView(OPENING, 0, [a, b], plan);
  assert.equal(view.bottom[8], 2);
  assert.equal(view.bottom[7], 1);
  assert.equal(view.pips.bottom, 167 - 11);
  // The used dice are greyed.
  assert.deepEqual(V.diceView(OPENING, plan, [a]), [
    { value: 6, used: false },
    { value: 5, used: true },
  ]);
});

test("nobody else gets a planner: the opponent, a spectator, before the roll", () => {
  assert.equal(V.planner(OPENING, 1), null);
  assert.equal(V.planner(OPENING, null), null);
  assert.equal(V.planner(makeState(), 0), null);
  assert.deepEqual(V.sources(null, []), []);
  assert.equal(V.completedPlay(null, []), null);
});

test("a checker on the bar enters first; a hit is drawn on the other side's bar", () => {
  const player0 = board({ 25: 1, 13: 5, 6: 5, 8: 4 });
  const player1 = board({ 24: 2, 13: 5, 8: 3, 6: 4, 21: 1 }); // their 21 is our 4
  const state = makeState({
    player0,
    player1,
    dice: [4, 3],
    plays: ["bar/21 6/3", "bar/22 6/2", "bar/21 13/10", "bar/22 8/4*", "bar/21/18"],
    steps: [
      [[25, 21], [6, 3]],
      [[25, 22], [6, 2]],
      [[25, 21], [13, 10]],
      [[25, 22], [8, 4]],
      [[25, 21], [21, 18]],
    ],
  });
  const plan = V.planner(state, 0);
  assert.deepEqual(V.sources(plan, []), [25]);
  assert.deepEqual(V.destinations(plan, [], 25), [22, 21]);
  const enter = V.stepTo(plan, [], 25, 22);
  assert.deepEqual(V.destinations(plan, [enter], 8), [4]);
  const hit = [enter, V.stepTo(plan, [enter], 8, 4)];
  assert.equal(V.completedPlay(plan, hit), "bar/22 8/4*");
  assert.equal(V.formatSteps(plan, hit), "bar/22 8/4*");
  const view = V.boardView(state, 0, hit, plan);
  assert.equal(view.top[25], 1, "the hit checker is on their bar");
  assert.equal(view.pips.top, pips(player1) + 4);
  // bar/21/18 may be entered through 22 as well (same result).
  const other = V.stepTo(plan, [], 25, 22);
  assert.deepEqual(V.destinations(plan, [other], 22), [18]);
  assert.equal(V.completedPlay(plan, [other, V.stepTo(plan, [other], 22, 18)]), "bar/21/18");
});

test("bearing off with a larger die, and doubles", () => {
  const state = makeState({
    player0: board({ 3: 1, 2: 1, 0: 13 }),
    player1: board({ 24: 15 }),
    dice: [6, 5],
    plays: ["3/off 2/off"],
    steps: [[[3, 0], [2, 0]]],
  });
  const plan = V.planner(state, 0);
  assert.deepEqual(V.sources(plan, []), [3, 2]);
  assert.deepEqual(V.destinations(plan, [], 3), [0]);
  const first = V.stepTo(plan, [], 3, 0);
  assert.equal(first.die, 5, "the smaller die that will do");
  assert.equal(V.completedPlay(plan, [first, V.stepTo(plan, [first], 2, 0)]), "3/off 2/off");

  const doubles = makeState({
    player0: board({ 13: 2, 0: 13 }),
    player1: board({ 1: 15 }),
    dice: [2, 2],
    toMove: 4,
    plays: ["13/9(2)", "13/5"],
    steps: [
      [[13, 11], [13, 11], [11, 9], [11, 9]],
      [[13, 11], [11, 9], [9, 7], [7, 5]],
    ],
  });
  const dplan = V.planner(doubles, 0);
  assert.deepEqual(V.diceView(doubles, dplan, []).length, 4);
  let chosen = [];
  for (const [from, to] of [[13, 11], [13, 11], [11, 9], [11, 9]]) {
    const step = V.stepTo(dplan, chosen, from, to);
    assert.ok(step, `${from}/${to} after ${JSON.stringify(chosen)}`);
    chosen = [...chosen, step];
  }
  assert.equal(V.completedPlay(dplan, chosen), "13/9(2)");
  assert.equal(V.completedPlay(dplan, chosen.slice(0, 3)), null);
  // 13/11 13/11 11/9 9/7 ends on no legal play, so 9 is not offered after 13/11(2) 11/9.
  assert.deepEqual(V.destinations(dplan, chosen.slice(0, 3), 9), []);
});

test("the buttons follow the state", () => {
  const roll = makeState({ canDouble: true });
  assert.equal(V.controls(roll, 0).roll, true);
  assert.equal(V.controls(roll, 0).double, true);
  assert.equal(V.controls(roll, 0).resign, true);
  assert.equal(V.controls(roll, 0).play, false);
  assert.equal(V.controls(roll, 1).roll, false, "not bob's turn");
  assert.equal(V.controls(roll, 1).leave, true);
  assert.equal(V.controls(roll, null).leave, false, "a spectator has no buttons");
  assert.equal(V.controls(makeState(), 0).double, false);
  assert.equal(V.controls(OPENING, 0).play, true);
  assert.equal(V.controls(OPENING, 0).roll, false);
  const doubled = makeState({ turn: 0, waiting: 1, pending: { kind: "double", by: 0, level: 1 } });
  assert.equal(V.controls(doubled, 1).take, true);
  assert.equal(V.controls(doubled, 1).drop, true);
  assert.equal(V.controls(doubled, 1).beaver, false);
  assert.equal(V.controls(doubled, 1).resign, false);
  assert.equal(V.controls(doubled, 0).take, false);
  assert.equal(V.describe(doubled, 1), "alice doubles to 2: take or drop?");
  assert.equal(V.describe(doubled, 0), "You double to 2; waiting for bob.");
  const beavers = makeState({ waiting: 1, pending: { kind: "double", by: 0, level: 1 }, settings: { beavers: true } });
  assert.equal(V.controls(beavers, 1).beaver, true);
  const resigned = makeState({ turn: 1, waiting: 0, pending: { kind: "resign", by: 1, level: 2 } });
  assert.equal(V.controls(resigned, 0).accept, true);
  assert.equal(V.controls(resigned, 0).reject, true);
  assert.equal(V.describe(resigned, 0), "bob offers to resign a gammon: accept or reject?");
  const over = makeState({ result: { winner: 1, reason: "score", score: [0, 5] }, waiting: null });
  assert.equal(V.controls(over, 0).rematch, true);
  assert.equal(V.shownScore({ ...over, settings: { length: 1 }, score: [0, 3] }, 1), 1, "capped at the length");
  assert.equal(V.shownScore({ ...over, settings: { length: 0 }, score: [0, 3] }, 1), 3, "money: as it is");
  const event = { kind: "tournament", id: "t1", name: "Cup", format: "swiss", round: 2 };
  assert.equal(V.controls({ ...over, event }, 0).rematch, false, "an event's match leads back to it");
  assert.equal(V.controls(over, 0).roll, false);
  assert.equal(V.describe(over, 1), "You won the match 5–0.");
  assert.equal(V.describe(over, 0), "bob won the match 5–0.");
  assert.equal(V.describe(OPENING, 0), "Your move: 6-5.");
  assert.equal(V.describe(OPENING, 1), "alice to move 6-5.");
});

test("the cube: centred, owned, offered", () => {
  assert.deepEqual(V.cubeView(makeState(), 0), { value: 1, owner: null, offered: null, offeredBy: null });
  const owned = makeState({ cube: { value: 2, owner: 1 } });
  assert.equal(V.cubeView(owned, 0).owner, "top");
  assert.equal(V.cubeView(owned, 1).owner, "bottom");
  const offered = makeState({ waiting: 1, pending: { kind: "double", by: 0, level: 1 } });
  assert.equal(V.cubeView(offered, 1).offered, 2);
  assert.equal(V.cubeView(offered, 1).offeredBy, "top");
  assert.equal(V.cubeView(makeState({ settings: { cube: false } }), 0), null);
  assert.equal(V.cubeView(makeState({ settings: { length: 1 } }), 0), null, "a 1-point match: no cube");
});

test("clocks count down the delay, then the reserve", () => {
  const clock = { delay: 12, reserves: [100, 60], deadline: 1012, now: 900 };
  const state = makeState({ clock, waiting: 0 });
  assert.deepEqual(V.clockView(state, 0)[0], { reserve: 100, delay: 12, running: true });
  assert.deepEqual(V.clockView(state, 20)[0], { reserve: 92, delay: 0, running: true });
  assert.deepEqual(V.clockView(state, 500)[0], { reserve: 0, delay: 0, running: true });
  assert.deepEqual(V.clockView(state, 20)[1], { reserve: 60, delay: null, running: false });
  assert.equal(V.clockView(makeState(), 0), null);
  assert.equal(V.formatSeconds(61.2), "1:02");
  assert.equal(V.formatSeconds(3600), "1:00:00");
});

test("what the opponent just did", () => {
  const entries = [
    { kind: "play", by: 1, move: "13/7 8/7" },
    { kind: "roll", by: null, player: 0, dice: [3, 1] },
    { kind: "play", by: 0, move: "8/5 6/5" },
  ];
  assert.equal(V.describeEntries(entries, OPENING, 0), "bob played 13/7 8/7.");
  assert.equal(V.describeEntries([{ kind: "play", by: null, player: 1, move: "" }], OPENING, 0), "bob cannot move.");
  assert.equal(V.describeEntries([{ kind: "play", by: null, player: 0, move: "" }], OPENING, 0), "You cannot move.");
  assert.equal(V.describeEntries([], OPENING, 0), "", "a message with nothing new says nothing (no old event)");
  const offers = [
    [{ kind: "double", by: 1 }, "", "said by describe while it waits"],
    [{ kind: "take", by: 1 }, "bob took the double."],
    [{ kind: "reject", by: 1 }, "bob rejected the resignation."],
    [{ kind: "accept", by: 1 }, ""],
  ];
  for (const [entry, words] of offers) assert.equal(V.describeEntries([entry], OPENING, 0), words);
});

// -- the end of a game, in words (issue 35) ----------------------------------------------

/** The state after a game of a 5-point match ended: game `number` has just begun. */
function afterGame({ number = 2, score = [0, 0], result = null, outcome = null, length = 5 } = {}) {
  const state = makeState({ settings: { length } });
  state.score = score;
  state.game.number = number;
  state.result = result;
  if (outcome) Object.assign(state.game, { over: true, outcome });
  return state;
}

const over = (winner, points, kind, ending, score) => ({ winner, points, kind, ending, score });

test("every way a game ends has its own sentence, for each viewer", () => {
  const state = afterGame();
  const cases = [
    [over(0, 2, "single", "double dropped"), 0, "bob dropped the double: you won 2 points."],
    [over(0, 2, "single", "double dropped"), 1, "You dropped the double: alice won 2 points."],
    [over(0, 2, "gammon", "resigned"), 0, "You accepted bob's resignation of a gammon: you won 2 points."],
    [over(0, 1, "single", "resigned"), 1, "alice accepted your resignation of a single game: alice won 1 point."],
    [over(1, 1, "single", "borne off"), 0, "bob bore off first and won 1 point."],
    [over(1, 4, "gammon", "borne off"), 1, "You won a gammon: 4 points."],
    [over(0, 3, "backgammon", "borne off"), null, "alice won a backgammon: 3 points."],
    [over(1, 1, "single", "first hit"), 0, "bob hit first and won 1 point."],
    [over(0, 2, "gammon", "mother pinned"), 1, "alice pinned the mother and won 2 points."],
    [over(0, 0, "single", "draw"), 0, "Both mothers are pinned: the game is a draw."],
  ];
  for (const [outcome, seat, words] of cases) assert.equal(V.gameEndSentence(outcome, state, seat), words);
});

test("a drop, the new score and the next opening roll, each said once", () => {
  const entries = [
    { kind: "drop", by: 1, game_over: over(0, 2, "single", "double dropped", [2, 0]) },
    { kind: "new_game", by: null },
    { kind: "opening", by: null, dice: [3, 5], index: 40 },
  ];
  const state = afterGame({ score: [2, 0] });
  assert.equal(
    V.describeEntries(entries, state, 0),
    "bob dropped the double: you won 2 points. Score: alice 2, bob 0, to 5. Game 2: bob won the opening roll 5-3.",
  );
  const summary = V.gameSummary(entries, state, 1);
  assert.equal(summary.number, 1);
  assert.equal(summary.title, "Game 1: alice won");
  assert.deepEqual(summary.lines, ["You dropped the double: alice won 2 points.", "Score: alice 2, bob 0, to 5."]);
  assert.equal(summary.after, "Game 2: you won the opening roll 5-3.");
  assert.equal(V.gameSummary(entries.slice(1), state, 1), null, "no game ended");
  // The first opening of a match, and a tie.
  assert.equal(V.describeEntries([{ kind: "opening", by: null, dice: [6, 2] }], afterGame({ number: 1 }), 1), "alice won the opening roll 6-2.");
  assert.equal(V.describeEntries([{ kind: "opening", by: null, dice: [4, 4] }], afterGame({ number: 1 }), 1), "Both threw 4: the opening roll is thrown again.");
  const money = [{ kind: "next_game", by: 1 }, { kind: "opening", by: null, dice: [2, 2] }, { kind: "opening", by: null, dice: [1, 6] }];
  assert.equal(
    V.describeEntries(money, afterGame({ number: 4, length: 0 }), 0),
    "Game 4: both threw 2: the opening roll is thrown again. bob won the opening roll 6-1.",
  );
});

test("an accepted resignation is said as accepted (not an old 'rejects')", () => {
  const entries = [
    { kind: "accept", by: 0, game_over: over(0, 1, "single", "resigned", [1, 0]) },
    { kind: "new_game", by: null },
    { kind: "opening", by: null, dice: [5, 2] },
  ];
  const state = afterGame({ score: [1, 0] });
  const words = V.describeEntries(entries, state, 1);
  assert.equal(words, "alice accepted your resignation of a single game: alice won 1 point. Score: alice 1, bob 0, to 5. Game 2: alice won the opening roll 5-2.");
  assert.ok(!words.includes("reject"));
});

test("the last game of a match: its sentence and the result, no summary to dismiss", () => {
  const gammon = over(1, 2, "gammon", "borne off", [0, 2]);
  const result = { winner: 1, reason: "score", score: [0, 2] };
  const state = afterGame({ number: 1, length: 1, result, outcome: gammon });
  assert.equal(V.gameSummary([{ kind: "play", by: 1, move: "2/off", game_over: gammon }], state, 0), null);
  assert.equal(V.lastGameSentence(state, 0), "bob won a gammon: 2 points.");
  assert.equal(V.resultSentence(state, 0), "bob won the match 1–0.", "capped at the length, the winner first");
  assert.equal(V.describe(state, 1), "You won a gammon: 2 points. You won the match 1–0.");
  const timeout = afterGame({ length: 3, result: { winner: 0, reason: "timeout", score: [3, 1] } });
  assert.equal(V.describe(timeout, 0), "You won the match 3–1: bob ran out of time.");
  assert.equal(V.describe(timeout, 1), "alice won the match 3–1: you ran out of time.");
  const left = afterGame({ length: 3, result: { winner: 1, reason: "left", score: [0, 3] } });
  assert.equal(V.describe(left, null), "bob won the match 3–0: alice left the match.");
  const even = afterGame({ length: 0, result: { winner: null, reason: "left", score: [2, 2] } });
  assert.equal(V.describe(even, 0), "The session ended even, 2–2.");
  assert.equal(V.resultTally({ winner: 0, score: [9, 4] }, 0), "9–4", "money is not capped");
});

test("a money game's end waits on its board with the score", () => {
  const state = afterGame({ number: 1, length: 0, score: [1, 0], outcome: over(0, 1, "single", "borne off") });
  state.waiting_for = null;
  assert.equal(V.describe(state, 1), "alice bore off first and won 1 point. Score: alice 1, bob 0.");
});

test("the ended game's last position is drawn under its summary", () => {
  const home = Array(26).fill(0);
  home[1] = 1;
  home[2] = 1;
  const before = makeState({ player0: home, dice: [2, 1], plays: ["2/off 1/off"], steps: [[[2, 0], [1, 0]]] });
  const ending = { kind: "play", by: 0, move: "2/off 1/off", steps: [[2, 0], [1, 0]], game_over: over(0, 2, "gammon", "borne off", [2, 0]) };
  const held = V.endedState(before, [ending, { kind: "new_game" }, { kind: "opening", dice: [1, 2] }], 1);
  assert.equal(held.game.board.player0[0], 2);
  assert.equal(held.game.board.pips[0], 0);
  assert.deepEqual(held.game.board.player1, START);
  assert.equal(held.game.dice, null);
  assert.equal(held.waiting_for, null);
  assert.equal(V.planner(held, 0), null, "nothing to move on it");
  assert.equal(before.game.board.player0[1], 1, "the state before is not changed");
  assert.equal(V.endedState(before, [ending], 2), null, "another game's state is not used");
  const drop = { kind: "drop", by: 1, game_over: over(0, 1, "single", "double dropped", [1, 0]) };
  assert.deepEqual(V.endedState(before, [drop], 1).game.board, before.game.board, "a drop moves nothing");
});

// -- every variant drawn its own way ------------------------------------------------------

/** Checkers as drawn: {bottom: {place: count}, top: {place: count}} (25 the bar, 0 off). */
function drawn(points) {
  const out = { bottom: {}, top: {} };
  for (const spot of V.checkerSpots(points)) out[spot.side][spot.place] = (out[spot.side][spot.place] || 0) + 1;
  return out;
}

/** A board's slots text (docs/variants.md), `pins0`/`pins1` each side's pinned points. */
function slotsText(player0, player1, pins0, pins1) {
  const side = (counts, pins) => counts.map((n, p) => (pins.includes(p) ? "*" : n.toString(36))).join("");
  return `slots:${side(player0, pins0)}/${side(player1, pins1)}`;
}

/** The quarter of the screen a drawn point is in: "top-right", "bottom-left", ... */
function quarter(p) {
  const { x, top } = V.pointPlace(p);
  return `${top ? "top" : "bottom"}-${x > V.AREAS.bar ? "right" : "left"}`;
}

test("the variants' boards: where the other side's points lie", () => {
  assert.equal(V.variantBoard("standard").topology, "mirror");
  assert.equal(V.variantBoard("no such variant"), V.STANDARD_BOARD);
  assert.equal(V.variantBoard("russian").topology, "same-way");
  assert.equal(V.variantBoard("long-nardy").topology, "crosswise");
  for (const topology of ["mirror", "same-way", "crosswise"]) {
    for (let p = 1; p <= 24; p += 1) assert.equal(V.opposing(V.opposing(p, topology), topology), p);
    assert.equal(V.opposing(25, topology), 25);
    assert.equal(V.opposing(0, topology), 0);
  }
  assert.equal(V.opposing(24, "mirror"), 1);
  assert.equal(V.opposing(24, "same-way"), 24);
  assert.equal(V.opposing(24, "crosswise"), 12, "the heads are diagonally across");
  assert.equal(V.opposing(1, "crosswise"), 13);
});

test("long nardy starts with each side's 15 on its head, diagonally across, both moving one way round", () => {
  const head = board({ 24: 15 });
  const state = makeState({ player0: head, player1: head, settings: { variant: "long-nardy" } });
  for (const seat of [0, 1]) {
    const points = V.pointsView(V.boardView(state, seat));
    assert.deepEqual(drawn(points), { bottom: { 24: 15 }, top: { 12: 15 } });
    assert.equal(quarter(24), "top-right");
    assert.equal(quarter(12), "bottom-left");
  }
  // Both sides go round the same way: the bottom side from its 24 (top right) to its
  // 13 (top left), then along the bottom; the top side's own 24..13 are drawn 12..1
  // (along the bottom, left to right), then its 12..1 are drawn 24..13 (the top,
  // right to left): anticlockwise both.
  const order = (side) => {
    const places = [];
    for (let own = 24; own >= 1; own -= 1) places.push(side === "bottom" ? own : V.opposing(own, "crosswise"));
    return places.map(quarter);
  };
  const turns = (quarters) => quarters.filter((q, i) => i === 0 || q !== quarters[i - 1]);
  assert.deepEqual(turns(order("bottom")), ["top-right", "top-left", "bottom-left", "bottom-right"]);
  assert.deepEqual(turns(order("top")), ["bottom-left", "bottom-right", "top-right", "top-left"]);
  // No cube in long nardy.
  assert.equal(V.cubeView(state, 0), null);
  assert.ok(V.cubeView(makeState(), 0));
});

test("long nardy: a single opposing checker closes a point and is never hit", () => {
  const state = makeState({
    player0: board({ 24: 14, 13: 1 }),
    player1: board({ 24: 14, 6: 1 }), // their 6 is our 18
    dice: [6, 5],
    plays: ["24/19 13/7", "13/2"],
    steps: [
      [[24, 19], [13, 7]],
      [[13, 8], [8, 2]],
    ],
    settings: { variant: "long-nardy" },
  });
  const plan = V.planner(state, 0);
  assert.deepEqual(V.destinations(plan, [], 24), [19], "18 is closed by one checker");
  const { theirs, hit } = V.applyStep(plan.mine, plan.theirs, 13, 6, V.variantBoard("long-nardy"));
  assert.equal(hit, false);
  assert.deepEqual(theirs, plan.theirs);
});

test("Russian backgammon: both enter in the same table, hits send the checker back in its own numbering", () => {
  const waiting = board({ 25: 15 });
  const start = makeState({ player0: waiting, player1: waiting, settings: { variant: "russian" } });
  assert.deepEqual(drawn(V.pointsView(V.boardView(start, 0))), { bottom: { 25: 15 }, top: { 25: 15 } });
  // Their 20 is our 20: both move 24 -> 1 in the same direction.
  const player0 = board({ 24: 1, 6: 14 });
  const player1 = board({ 20: 1, 6: 14 });
  const state = makeState({
    player0,
    player1,
    dice: [4, 1],
    plays: ["24/20*/19", "24/20* 6/5"],
    steps: [
      [[24, 20], [20, 19]],
      [[24, 20], [6, 5]],
    ],
    settings: { variant: "russian" },
  });
  const view = V.pointsView(V.boardView(state, 0));
  assert.deepEqual(view.points[19], { point: 20, bottom: 0, top: 1 });
  assert.deepEqual(view.points[5], { point: 6, bottom: 14, top: 14 });
  const plan = V.planner(state, 0);
  const hit = [V.stepTo(plan, [], 24, 20)];
  assert.equal(V.formatSteps(plan, hit), "24/20*");
  const after = V.boardView(state, 0, hit, plan);
  assert.equal(after.top[25], 1);
  assert.equal(after.pips.top, pips(player1) + 5, "from their 20 to their bar");
  assert.equal(after.pips.bottom, pips(player0) - 4);
  // Seen from the other seat, the same way round.
  assert.deepEqual(V.pointsView(V.boardView(state, 1)).points[23], { point: 24, bottom: 0, top: 1 });
});

test("plakoto: each side starts on the other's 1-point; a pinned checker is drawn under the pinner", () => {
  const start = board({ 24: 15 });
  const opening = makeState({ player0: start, player1: start, settings: { variant: "plakoto" } });
  assert.deepEqual(drawn(V.pointsView(V.boardView(opening, 0))), { bottom: { 24: 15 }, top: { 1: 15 } });
  assert.equal(V.cubeView(opening, 0), null);

  // Seat 1's checker on its 4 (our 21) is pinned under two of ours; ours on 10 under
  // one of theirs (their 15).
  const player0 = board({ 24: 12, 21: 2, 10: 1 });
  const player1 = board({ 24: 13, 4: 1, 15: 1 });
  const state = makeState({
    player0,
    player1,
    dice: [3, 1],
    plays: ["24/21 21/20", "24/20"],
    steps: [
      [[24, 21], [21, 20]],
      [[24, 21], [21, 20]],
    ],
    settings: { variant: "plakoto" },
  });
  state.game.board.slots = slotsText(player0, player1, [10], [4]);
  assert.deepEqual(V.pinnedPoints(state.game.board.slots), [new Set([10]), new Set([4])]);
  const points = V.pointsView(V.boardView(state, 0));
  assert.equal(points.points[20].under, "top");
  assert.equal(points.points[9].under, "bottom");
  assert.equal(points.points[5].under, undefined);
  const spots = V.checkerSpots(points);
  const at21 = spots.filter((s) => s.place === 21); // from the edge inwards
  assert.deepEqual(at21.map((s) => [s.side, s.pinned]), [["top", true], ["bottom", false], ["bottom", false]]);
  assert.ok(at21[0].y < V.AREAS.top + 2 * V.GEOMETRY.RADIUS, "the pinned one at the edge");
  assert.equal(at21.filter((s) => s.last).length, 1);
  const at10 = spots.filter((s) => s.place === 10);
  assert.deepEqual(at10.map((s) => [s.side, s.pinned, s.last]), [["bottom", true, false], ["top", false, true]]);
  // Seen by seat 1, the same pins.
  const other = V.pointsView(V.boardView(state, 1));
  assert.equal(other.points[3].under, "bottom");
  assert.equal(other.points[14].under, "top");
  // Landing on a lone checker pins it (it stays, drawn under the mover's).
  const lone = makeState({
    player0: board({ 24: 14, 13: 1 }),
    player1: board({ 24: 14, 16: 1 }), // their 16 is our 9
    dice: [4, 2],
    plays: ["13/9 24/22", "13/7"],
    steps: [
      [[13, 9], [24, 22]],
      [[13, 9], [9, 7]],
    ],
    settings: { variant: "plakoto" },
  });
  lone.game.board.slots = slotsText(lone.game.board.player0, lone.game.board.player1, [], []);
  const plan = V.planner(lone, 0);
  const pin = [V.stepTo(plan, [], 13, 9)];
  assert.ok(pin[0]);
  assert.equal(V.formatSteps(plan, pin), "13/9", "no hit");
  const view = V.pointsView(V.boardView(lone, 0, pin, plan));
  assert.deepEqual(view.points[8], { point: 9, bottom: 1, top: 1, under: "top" });
  assert.equal(view.bar.top, 0);
});

test("acey-deucey: all fifteen wait off the board and may enter while others move", () => {
  const waiting = board({ 25: 15 });
  const start = makeState({ player0: waiting, player1: waiting, settings: { variant: "acey-deucey" } });
  const points = V.pointsView(V.boardView(start, 1));
  assert.deepEqual(drawn(points), { bottom: { 25: 15 }, top: { 25: 15 } });
  const state = makeState({
    player0: board({ 25: 13, 20: 2 }),
    player1: board({ 25: 15 }),
    dice: [5, 3],
    plays: ["20/15 20/17", "bar/20 20/17"],
    steps: [
      [[20, 15], [20, 17]],
      [[25, 20], [20, 17]],
    ],
    settings: { variant: "acey-deucey" },
  });
  const plan = V.planner(state, 0);
  assert.deepEqual(V.sources(plan, []), [25, 20], "the bar need not enter first");
});

test("every variant's starting state is drawn where its rules put the checkers", { skip: !process.env.BG_VIEW_STARTS && "BG_VIEW_STARTS not set" }, () => {
  const starts = JSON.parse(readFileSync(process.env.BG_VIEW_STARTS, "utf8"));
  assert.ok(starts.length >= 10);
  for (const { state, bottom, top } of starts) {
    for (const seat of [0, 1]) {
      const view = V.boardView(state, seat);
      const got = drawn(V.pointsView(view));
      const name = `${state.settings.variant}, seat ${seat}`;
      assert.deepEqual(got.bottom, Object.fromEntries(Object.entries(bottom).map(([k, v]) => [k, v])), name);
      assert.deepEqual(got.top, top, name);
      assert.deepEqual([view.pips.bottom, view.pips.top], [state.game.board.pips[seat], state.game.board.pips[1 - seat]]);
    }
  }
});

// -- animation and keyboard ---------------------------------------------------------------

test("moves are animated from where the checkers were: pairs in each side's order, hits to the bar", () => {
  const before = V.checkerSpots(V.pointsView(V.boardView(OPENING, 0)));
  const plan = V.planner(OPENING, 0);
  const a = V.stepTo(plan, [], 24, 18);
  const b = V.stepTo(plan, [a], 13, 8);
  const after = V.checkerSpots(V.pointsView(V.boardView(OPENING, 0, [a, b], plan)));
  const { moves, items } = V.moveTransitions(before, after);
  assert.equal(moves, 2);
  const byKey = new Map(after.map((s) => [s.key, s]));
  const from = (key) => {
    const item = items.find((i) => i.key === key);
    const spot = byKey.get(key);
    return V.placeAt(spot.x + item.dx, spot.y + item.dy);
  };
  assert.equal(from("bottom:18:0"), 24);
  assert.equal(from("bottom:8:3"), 13);
  // Nothing moved: nothing to animate; undoing slides back.
  assert.deepEqual(V.moveTransitions(after, after), { moves: 0, items: [] });
  const back = V.moveTransitions(after, before);
  assert.equal(back.moves, 2);
  // A hit: the hit checker slides to its bar.
  const hitState = makeState({
    player0: board({ 13: 2, 6: 5 }),
    player1: board({ 18: 1, 24: 2 }), // their 18 is our 7
    dice: [6, 5],
    plays: ["13/7*/2", "13/7* 6/1"],
    steps: [
      [[13, 7], [7, 2]],
      [[13, 7], [6, 1]],
    ],
  });
  const hp = V.planner(hitState, 0);
  const h = [V.stepTo(hp, [], 13, 7)];
  const t = V.moveTransitions(
    V.checkerSpots(V.pointsView(V.boardView(hitState, 0))),
    V.checkerSpots(V.pointsView(V.boardView(hitState, 0, h, hp))),
  );
  assert.equal(t.moves, 2);
  assert.ok(t.items.some((i) => i.key === "top:25:0"));
  // A whole new game (or any jump of many checkers): no animation.
  const fresh = V.checkerSpots(V.pointsView(V.boardView(makeState({ player0: board({ 0: 15 }) }), 0)));
  assert.equal(V.moveTransitions(before, fresh).moves, 0);
  assert.equal(V.moveTransitions(null, fresh).items.length, 0);
});

test("the keyboard goes through the movable places, then the lit destinations", () => {
  const plan = V.planner(OPENING, 0);
  assert.deepEqual(V.keyPlaces(plan, [], null), [24, 13, 8]);
  assert.deepEqual(V.keyPlaces(plan, [], 13), [8, 7, 13], "the destinations, then back");
  assert.deepEqual(V.keyPlaces(null, [], null), []);
  assert.equal(V.cyclePlace([24, 13, 8], 13, 1), 8);
  assert.equal(V.cyclePlace([24, 13, 8], 8, 1), 24);
  assert.equal(V.cyclePlace([24, 13, 8], 24, -1), 8);
  assert.equal(V.cyclePlace([24, 13, 8], 5, 1), 24);
  assert.equal(V.cyclePlace([], 5, 1), null);
});

const STATES = process.env.BG_VIEW_STATES;

test("every legal play of real games can be entered step by step", { skip: !STATES && "BG_VIEW_STATES not set" }, () => {
  const states = JSON.parse(readFileSync(STATES, "utf8"));
  assert.ok(states.length > 50);
  let random = 12345;
  const next = (n) => {
    random = (random * 1103515245 + 12345) % 2147483648;
    return random % n;
  };
  for (const state of states) {
    const seat = state.waiting_for;
    const plan = V.planner(state, seat);
    assert.ok(plan, "a planner for the mover");
    const game = state.game;
    game.legal_plays.forEach((notation, index) => {
      let chosen = [];
      for (const [from, to] of game.legal_steps[index]) {
        const step = V.stepTo(plan, chosen, from, to);
        assert.ok(step, `${notation}: ${from}/${to} not offered (${game.board.slots}, ${game.dice})`);
        chosen = [...chosen, step];
      }
      assert.equal(V.completedPlay(plan, chosen), notation, game.board.slots);
    });
    // Any sequence of offered steps ends on a legal play.
    let chosen = [];
    while (chosen.length < game.to_move) {
      const offered = V.nextSteps(plan, chosen);
      assert.ok(offered.length, `stuck after ${JSON.stringify(chosen)} (${game.board.slots})`);
      chosen = [...chosen, offered[next(offered.length)]];
    }
    assert.ok(game.legal_plays.includes(V.completedPlay(plan, chosen)), game.board.slots);
  }
});

test("positionModel draws a position read-only, the side on roll at the bottom", () => {
  const mine = [...START];
  mine[8] = 2;
  mine[6] = 4;
  mine[5] = 2;
  const model = V.positionModel({ player: mine, opponent: START }, [3, 1]);
  assert.deepEqual(model.points.points[4], { point: 5, bottom: 2, top: 0 });
  assert.deepEqual(model.points.points[23], { point: 24, bottom: 2, top: 0 });
  assert.deepEqual(model.points.points[0], { point: 1, bottom: 0, top: 2 });
  assert.deepEqual(model.dice, [{ value: 3, used: false }, { value: 1, used: false }]);
  assert.equal(model.movable.size + model.targets.size, 0);
  assert.deepEqual(V.positionModel({ player: START, opponent: START }, null).dice, []);
});

test("playArrows draws each step from the checker that leaves to where it lands", () => {
  const mine = [...START];
  mine[24] = 1;
  mine[25] = 1; // one on the bar
  const board = { player: mine, opponent: START };
  const arrows = V.playArrows(board, [[25, 23], [23, 22]], "played");
  assert.equal(arrows.length, 2);
  const bar = V.barCenters(1, true)[0];
  assert.deepEqual([arrows[0].x1, arrows[0].y1], [bar.x, bar.y]);
  const [on23] = V.checkerCenters(23, 1, 0);
  assert.deepEqual([arrows[0].x2, arrows[0].y2], [on23.x, on23.y]);
  assert.deepEqual([arrows[1].x1, arrows[1].y1], [on23.x, on23.y]); // the same checker goes on
  assert.equal(arrows[1].x2, V.pointPlace(22).x);
  assert.ok(arrows.every((a) => a.kind === "played"));
  // A checker on top of a stack of three leaves from the third place; shift moves sideways.
  const [third] = V.checkerCenters(8, 1, 2);
  const [shifted] = V.playArrows(board, [[8, 5]], "best", 5);
  assert.deepEqual([shifted.x1, shifted.y1], [third.x + 5, third.y]);
  assert.equal(shifted.kind, "best");
  // Bearing off ends in the tray, bottom half.
  const home = Array(26).fill(0);
  home[2] = 2;
  const [off] = V.playArrows({ player: home, opponent: START }, [[2, 0]], "best");
  assert.ok(off.x2 > V.AREAS.tray && off.x2 < V.AREAS.tray + V.GEOMETRY.TRAY);
  assert.ok(off.y2 > V.AREAS.middle && off.y2 < V.AREAS.bottom);
  // A step from an empty point stops the arrows.
  assert.deepEqual(V.playArrows(board, [[20, 18]], "played"), []);
});

test("reviewModel draws an error's position with its dice, cube and both plays", () => {
  const mine = [...START];
  mine[24] = 1;
  mine[25] = 1;
  const checker = {
    kind: "checker",
    game: 1,
    move: 4,
    player: "Alice",
    decision: "2-1: bar/23 6/5",
    right: "bar/22",
    loss: 0.2,
    mark: "very bad",
    board: { player: mine, opponent: START, pips: [168, 167] },
    dice: [2, 1],
    cube: { value: 2, owner: "opponent" },
    played: [[25, 23], [6, 5]],
    best: [[25, 23], [23, 22]],
  };
  const model = V.reviewModel(checker);
  assert.deepEqual(model.points.bar, { bottom: 1, top: 0 });
  assert.deepEqual(model.dice.map((d) => d.value), [2, 1]);
  assert.deepEqual([model.cube.value, model.cube.owner], [2, "top"]);
  assert.deepEqual(model.arrows.map((a) => a.kind), ["played", "played", "best", "best"]);
  assert.notEqual(model.arrows[0].x1, model.arrows[2].x1); // shared steps drawn apart
  assert.equal(model.movable.size + model.targets.size, 0);
  assert.equal(V.reviewCaption(checker), "Game 1, move 4: Alice rolled 2-1 and played bar/23 6/5; best bar/22 (very bad, −0.200).");
  const cube = {
    kind: "cube",
    game: 1,
    move: 5,
    player: "Bob",
    decision: "missed double",
    right: "double",
    loss: 0.086,
    mark: "bad",
    board: { player: START, opponent: START, pips: [167, 167] },
    cube: { value: 1, owner: null },
  };
  const cubeModel = V.reviewModel(cube);
  assert.deepEqual(cubeModel.arrows, []);
  assert.deepEqual(cubeModel.dice, []);
  assert.equal(cubeModel.cube.owner, null);
  assert.match(V.reviewCaption(cube), /Bob, cube action: missed double; the right action: double/);
});

test("the rating graph's points fit the box, oldest first, the highest at the top", () => {
  const history = [
    { variant: "standard", match_id: "b", rating: 1490, experience: 2, at: 20 },
    { variant: "nackgammon", match_id: "x", rating: 1600, experience: 1, at: 15 },
    { variant: "standard", match_id: "a", rating: 1510, experience: 1, at: 10 },
  ];
  const { points, low, high } = V.ratingPoints(history, "standard", 200, 100, { pad: 10 });
  assert.deepEqual([low, high], [1490, 1510]);
  assert.deepEqual(points, [[10, 50], [100, 10], [190, 90]]);
  for (const [x, y] of points) assert.ok(x >= 10 && x <= 190 && y >= 10 && y <= 90);
  assert.deepEqual(V.ratingPoints(history, "tavla", 200, 100).points, []);
  const flat = V.ratingPoints([{ variant: "standard", rating: 1500, at: 1 }], "standard", 100, 50, { pad: 0 });
  assert.deepEqual(flat.points, [[0, 25], [100, 25]]);
});

test("a match summary becomes a history row from the player's side", () => {
  const match = {
    id: "m1",
    status: "finished",
    settings: { length: 1, variant: "standard" },
    players: ["alice", "bob"],
    result: { winner: 0, reason: "resigned", score: [1, 0] },
    created_at: 0,
  };
  assert.deepEqual(V.historyRow(match, "bob"), {
    id: "m1", opponent: "alice", length: "1", variant: "standard", result: "lost 0-1 (resigned)", date: "1970-01-01", finished: true,
  });
  const gammon = { ...match, result: { winner: 1, reason: "score", score: [0, 2] } };
  assert.equal(V.historyRow(gammon, "bob").result, "won 1-0", "a 1-point match is won 1-0 (issue 35)");
  const open = V.historyRow({ ...match, status: "playing", result: null, settings: { length: 0, variant: "tavla" } }, "alice");
  assert.equal(open.result, "playing");
  assert.equal(open.length, "money");
  assert.equal(open.finished, false);
});

test("an open match says what it waits for, and who may take the seat", () => {
  const invitation = { id: "m1", players: ["alice", null], invitee: "bob", settings: {} };
  assert.equal(V.describeOpen(invitation, "alice"), "Waiting for bob to accept the invitation…");
  assert.equal(V.describeOpen(invitation, "bob"), "alice invites you to this match.");
  assert.equal(V.describeOpen(invitation, "carl"), "alice has invited bob: waiting for the invitation to be accepted.");
  assert.deepEqual(["alice", "bob", "carl"].map((me) => V.mayJoin(invitation, me)), [false, true, false]);
  const open = { ...invitation, invitee: null };
  assert.equal(V.describeOpen(open, "alice"), "Waiting for an opponent to join…");
  assert.equal(V.describeOpen(open, "carl"), "alice waits for an opponent.");
  assert.deepEqual(["alice", "carl"].map((me) => V.mayJoin(open, me)), [false, true]);
});

test("a forced move is offered in one click, to the mover only", () => {
  const forced = makeState({ dice: [6, 6], plays: ["24/18"], steps: [[[24, 18]]], toMove: 1 });
  assert.equal(V.forcedPlay(forced, 0), "24/18");
  assert.equal(V.forcedPlay(forced, 1), null, "not the opponent's to play");
  assert.equal(V.forcedPlay(forced, null), null, "nor a spectator's");
  assert.equal(V.forcedPlay(OPENING, 0), null, "a choice is not forced");
  const none = makeState({ dice: [6, 6], plays: [""], steps: [[]], toMove: 0 });
  assert.equal(V.forcedPlay(none, 0), null, "no move: nothing to offer");
  assert.equal(V.forcedPlay(makeState(), 0), null, "before the roll");
});

test("who is connected: an absent player is said, and a claim offered after the wait", () => {
  const state = { ...makeState({ turn: 1, waiting: 1 }), waiting_since: 100 };
  const here = { match: "m1", players: [{ connected: true, away_since: null }, { connected: true, away_since: null }], claim_after: 300 };
  assert.deepEqual(V.presenceView(here, state, 0, 150), { connected: [true, true], notice: "", claim: false, claimIn: null });
  const away = { ...here, players: [here.players[0], { connected: false, away_since: 130 }] };
  const early = V.presenceView(away, state, 0, 190);
  assert.deepEqual(early.connected, [true, false]);
  assert.equal(early.claim, false);
  assert.equal(early.claimIn, 240, "the wait counts from the later of leaving and the turn's start");
  assert.equal(early.notice, "bob has been away 1:00: if bob is still away in 4:00, you may claim the win.");
  const late = V.presenceView(away, state, 0, 430);
  assert.equal(late.claim, true);
  assert.equal(late.notice, "bob has been away 5:00: you may claim the win.");
  const turnLater = V.presenceView(away, { ...state, waiting_since: 200 }, 0, 430);
  assert.equal(turnLater.claim, false, "the wait restarts when the match starts waiting on them");
  assert.equal(V.presenceView(away, state, null, 430).notice, "bob has been away 5:00.", "spectators get no claim");
  assert.equal(V.presenceView(away, state, null, 430).claim, false);
  const ourTurn = { ...state, waiting_for: 0 };
  assert.equal(V.presenceView(away, ourTurn, 0, 430).claim, false, "not while the match waits on us");
  assert.equal(V.presenceView({ ...away, claim_after: null }, state, 0, 430).claim, false, "a clock decides instead");
  const over = { ...state, result: { winner: 0, reason: "abandoned", score: [5, 0] } };
  assert.deepEqual(V.presenceView(away, over, 0, 430), { connected: [true, false], notice: "", claim: false, claimIn: null });
  assert.equal(V.presenceView(away, { ...state, match: "m2" }, 0, 430).notice, "", "another match's presence");
  assert.equal(V.presenceChange(here, away, state), "bob left.");
  assert.equal(V.presenceChange(away, here, state), "bob is back.");
  assert.equal(V.presenceChange(here, here, state), "");
  assert.equal(V.presenceChange(null, away, state), "", "the first presence is no change");
  const at = (board) => ({ ...here, players: [here.players[0], { ...here.players[1], at_board: board }] });
  assert.equal(V.presenceChange(at(true), at(false), state), "bob left the board.");
  assert.equal(V.presenceChange(away, at(false), state), "bob is online, not at the board.", "back in the lobby only");
  assert.equal(V.presenceChange(at(false), at(true), state), "bob is back.");
  assert.equal(V.presenceChange(at(false), away, state), "bob left.");
  assert.equal(
    V.resultSentence(over, 1),
    "alice won the match 5–0: you stayed away too long, and the win was claimed.",
  );
});

test("a status line clears itself after a while, unless it must stay true", async () => {
  const { STATUS_SECONDS, statusLife } = await import("./common.js");
  assert.equal(statusLife("bob left."), 1000 * STATUS_SECONDS.notice);
  assert.equal(statusLife("it is bob's turn", true), 1000 * STATUS_SECONDS.error);
  assert.ok(STATUS_SECONDS.error > STATUS_SECONDS.notice, "an error stays longer");
  assert.equal(statusLife("Connection lost; reconnecting…", true, true), null, "held until replaced");
  assert.equal(statusLife(""), null, "nothing to clear");
});
