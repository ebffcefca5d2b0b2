// Entering a play checker by checker (pure functions, no DOM): the plan built from the
// server's legal plays and steps (nothing of the rules is decided here), the steps
// offered next, the play the chosen steps make and its text, a forced move, and the
// keyboard's places on the board (`keyPlaces`, `cyclePlace`). Unit-tested by
// view.test.mjs, with every legal play of random games of every variant.

import { applyStep, boardOf, diceList, opposing } from "./boardrules.js";

function boardKey(mine, theirs) {
  return `${mine.join(",")}|${theirs.join(",")}`;
}

/**
 * What the mover may do with the dice in `state`, checker by checker: built from the
 * server's `legal_plays` and `legal_steps` (nothing of the rules is decided here: a
 * sequence of single steps is offered only if it ends on the result of one of the
 * server's legal plays). Returns null when `seat` has no play to make now.
 */
export function planner(state, seat) {
  const game = state && state.game;
  if (!game || seat == null || state.waiting_for !== seat || state.result) return null;
  if (!game.dice || game.pending || !game.legal_plays || !game.legal_steps) return null;
  const board = game.board;
  const rules = boardOf(state);
  const mine = board[`player${seat}`];
  const theirs = board[`player${1 - seat}`];
  const finals = new Map();
  game.legal_plays.forEach((notation, index) => {
    let position = { mine, theirs };
    for (const [from, to] of game.legal_steps[index] || []) {
      position = applyStep(position.mine, position.theirs, from, to, rules);
    }
    const key = boardKey(position.mine, position.theirs);
    if (!finals.has(key)) finals.set(key, notation);
  });
  return {
    mine,
    theirs,
    dice: diceList(game.dice),
    toMove: game.to_move,
    rules,
    finals,
    memo: new Map(),
  };
}

// The single steps one die could make (loosely: blocked points are skipped, a die
// larger than needed bears off; whether it leads anywhere is decided by the finals).
function candidates(mine, theirs, die, rules) {
  const froms = rules.enterFirst && mine[25] > 0 ? [25] : [];
  if (!froms.length) for (let p = 25; p >= 1; p -= 1) if (mine[p] > 0) froms.push(p);
  const blocking = rules.contact === "block" ? 1 : 2;
  const steps = [];
  for (const from of froms) {
    const to = Math.max(0, from - die);
    if (to >= 1 && theirs[opposing(to, rules.topology)] >= blocking) continue;
    steps.push([from, to]);
  }
  return steps;
}

function remove(dice, die) {
  const rest = dice.slice();
  rest.splice(rest.indexOf(die), 1);
  return rest;
}

function completes(plan, mine, theirs, dice, left) {
  if (left === 0) return plan.finals.has(boardKey(mine, theirs));
  if (!dice.length) return false;
  const key = `${boardKey(mine, theirs)}|${dice.slice().sort().join("")}|${left}`;
  const known = plan.memo.get(key);
  if (known !== undefined) return known;
  let found = false;
  for (const die of new Set(dice)) {
    for (const [from, to] of candidates(mine, theirs, die, plan.rules)) {
      const next = applyStep(mine, theirs, from, to, plan.rules);
      if (completes(plan, next.mine, next.theirs, remove(dice, die), left - 1)) {
        found = true;
        break;
      }
    }
    if (found) break;
  }
  plan.memo.set(key, found);
  return found;
}

/**
 * Replay chosen steps ([{from, to, die}]) on the plan's boards. Returns
 * {mine, theirs, dice (still unused), hits (the steps that hit)} or null if a step
 * does not apply.
 */
export function replay(plan, chosen) {
  let mine = plan.mine;
  let theirs = plan.theirs;
  let dice = plan.dice;
  const hits = [];
  for (const step of chosen) {
    if (!dice.includes(step.die) || !(mine[step.from] > 0)) return null;
    const next = applyStep(mine, theirs, step.from, step.to, plan.rules);
    if (next.hit) hits.push(step);
    mine = next.mine;
    theirs = next.theirs;
    dice = remove(dice, step.die);
  }
  return { mine, theirs, dice, hits };
}

/**
 * The single steps the mover may make next after `chosen`: [{from, to, die}], each
 * (from, to) once, only those after which the turn can still end on a legal play.
 */
export function nextSteps(plan, chosen) {
  if (!plan) return [];
  const now = replay(plan, chosen);
  const left = plan.toMove - chosen.length;
  if (!now || left <= 0) return [];
  const offered = new Map();
  const dice = [...new Set(now.dice)].sort((a, b) => a - b);
  for (const die of dice) {
    for (const [from, to] of candidates(now.mine, now.theirs, die, plan.rules)) {
      const key = `${from}/${to}`;
      if (offered.has(key)) continue;
      const next = applyStep(now.mine, now.theirs, from, to, plan.rules);
      if (completes(plan, next.mine, next.theirs, remove(now.dice, die), left - 1)) {
        offered.set(key, { from, to, die });
      }
    }
  }
  return [...offered.values()];
}

/** The points (mover's numbering, 25 the bar) a checker may be picked up from. */
export function sources(plan, chosen) {
  return [...new Set(nextSteps(plan, chosen).map((s) => s.from))].sort((a, b) => b - a);
}

/** The step from `from` to `to` that may be made next, or null. */
export function stepTo(plan, chosen, from, to) {
  return nextSteps(plan, chosen).find((s) => s.from === from && s.to === to) || null;
}

/** Where a checker picked up on `from` may go next (0 = off), highest first. */
export function destinations(plan, chosen, from) {
  return nextSteps(plan, chosen)
    .filter((s) => s.from === from)
    .map((s) => s.to)
    .sort((a, b) => b - a);
}

/**
 * The play to offer in one click when the mover has exactly one legal play with
 * checkers to move (a forced move): its notation; otherwise null.
 */
export function forcedPlay(state, seat) {
  const game = state.game;
  if (!game || game.dice == null || game.pending || seat === null) return null;
  if (state.waiting_for !== seat || !game.legal_plays || game.legal_plays.length !== 1) return null;
  const steps = game.legal_steps ? game.legal_steps[0] : null;
  return steps && steps.length ? game.legal_plays[0] : null;
}

/**
 * If the chosen steps make a whole legal play, its notation (one of the state's
 * `legal_plays`, to send as the play's `move`); otherwise null.
 */
export function completedPlay(plan, chosen) {
  if (!plan || chosen.length !== plan.toMove) return null;
  const now = replay(plan, chosen);
  if (!now) return null;
  return plan.finals.get(boardKey(now.mine, now.theirs)) ?? null;
}

/** Chosen single steps as text, e.g. "bar/22 8/4*" (a hit marked with *). */
export function formatSteps(plan, chosen) {
  const now = plan ? replay(plan, chosen) : null;
  const hits = new Set(now ? now.hits : []);
  const place = (p) => (p === 25 ? "bar" : p === 0 ? "off" : String(p));
  return chosen.map((s) => `${place(s.from)}/${place(s.to)}${hits.has(s) ? "*" : ""}`).join(" ");
}

/**
 * The places the keyboard cursor goes through on the board (app.js, keys.js):
 * nothing to pick up: the places a checker may be picked up from (the mover's
 * order, the bar first); one picked up on `selected`: where it may go, then
 * `selected` itself (to put it back).
 */
export function keyPlaces(plan, chosen, selected) {
  if (!plan) return [];
  if (selected === null || selected === undefined) return sources(plan, chosen);
  return [...destinations(plan, chosen, selected), selected];
}

/** The place `step` places after `current` in `places` (round), or the first one. */
export function cyclePlace(places, current, step) {
  if (!places.length) return null;
  const at = places.indexOf(current);
  if (at < 0) return places[0];
  return places[(at + step + places.length) % places.length];
}
