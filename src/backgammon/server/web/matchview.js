// The match page's board, dice, buttons, cube and clocks (pure functions, no DOM),
// from the server's match state (see docs/server.md, "The state itself") and the
// mover's chosen steps. Unit-tested by view.test.mjs.

import { boardOf, bottomSeat, diceList, opposing, pinnedPoints } from "./boardrules.js";
import { replay } from "./planner.js";

/**
 * The board as drawn for the side at the bottom, with the chosen steps of the mover
 * (`seat`, who is at the bottom) applied. Returns {bottom, top} (each side's 26
 * counts in its own numbering), the bottom seat, both sides' pip counts (each in its
 * own numbering), the board's `topology` and, where checkers are pinned (plakoto),
 * `pinned` {bottom, top}: Sets of the points (each side's own numbering) on which
 * that side has a checker pinned.
 */
export function boardView(state, seat, chosen = [], plan = null) {
  const bottom = bottomSeat(seat);
  const board = state.game.board;
  const rules = boardOf(state);
  let mine = board[`player${bottom}`];
  let theirs = board[`player${1 - bottom}`];
  const pips = [board.pips[bottom], board.pips[1 - bottom]];
  if (plan && chosen.length && seat === bottom) {
    const now = replay(plan, chosen);
    if (now) {
      mine = now.mine;
      theirs = now.theirs;
      for (const step of chosen) pips[0] -= step.from - step.to;
      for (const step of now.hits) pips[1] += 25 - opposing(step.to, rules.topology);
    }
  }
  const view = { bottomSeat: bottom, bottom: mine, top: theirs, pips: { bottom: pips[0], top: pips[1] } };
  view.topology = rules.topology;
  if (rules.contact === "pin") {
    const pins = pinnedPoints(board.slots);
    view.pinned = { bottom: pins[bottom], top: pins[1 - bottom] };
  }
  return view;
}

/**
 * The dice to draw: [{value, used}], in the order rolled (four for doubles; three
 * for a throw of three dice, tabula).
 */
export function diceView(state, plan, chosen) {
  const dice = state.game && state.game.dice;
  if (!dice) return [];
  const all = diceList(dice).map((value) => ({ value, used: false }));
  if (!plan) return dice.length === 2 && dice[0] === dice[1] ? all.slice(0, 2) : all;
  for (const step of chosen) {
    const die = all.find((d) => !d.used && d.value === step.die);
    if (die) die.used = true;
  }
  return all;
}

/** Which buttons the viewer in `seat` (null: a spectator) may use now. */
export function controls(state, seat) {
  const none = {
    roll: false,
    double: false,
    take: false,
    drop: false,
    beaver: false,
    raccoon: false,
    resign: false,
    accept: false,
    reject: false,
    play: false,
    chooseDouble: false,
    nextGame: false,
    leave: false,
    rematch: false,
  };
  if (!state || seat == null) return none;
  if (state.result) return { ...none, rematch: !state.event }; // an event's match leads back to it instead
  const game = state.game;
  const result = { ...none, leave: true };
  if (!game) return result;
  const settings = state.settings || {};
  if (game.over) return { ...result, nextGame: settings.length === 0 };
  if (state.waiting_for !== seat) return result;
  const pending = game.pending;
  const kind = pending ? pending.kind : null;
  const mayRoll = game.dice == null && (kind === null || kind === "beaver");
  return {
    ...result,
    roll: mayRoll,
    double: mayRoll && kind === null && Boolean(game.can_double),
    take: kind === "double",
    drop: kind === "double",
    beaver: kind === "double" && Boolean(settings.beavers),
    raccoon: kind === "beaver" && Boolean(settings.raccoons),
    resign: kind === null,
    accept: kind === "resign",
    reject: kind === "resign",
    play: game.dice != null && kind === null && Boolean(game.legal_plays && game.legal_plays.length),
    chooseDouble: kind === "choose-double",
  };
}

/** The cube as drawn: its value, and where (owner "bottom", "top" or null: centred). */
export function cubeView(state, seat) {
  const game = state.game;
  if (!game || !game.cube || (state.settings && state.settings.cube === false)) return null;
  if (!boardOf(state).cube) return null;
  // A 1-point match's cube can never be turned: no cube is drawn (where a centred
  // cube would show 64), as there is none in a game without doubling.
  if (state.settings && state.settings.length === 1) return null;
  const bottom = bottomSeat(seat);
  const owner = game.cube.owner;
  const pending = game.pending;
  return {
    value: game.cube.value,
    owner: owner == null ? null : owner === bottom ? "bottom" : "top",
    offered: pending && pending.kind === "double" ? game.cube.value * 2 : null,
    offeredBy: pending && pending.kind === "double" ? (pending.by === bottom ? "bottom" : "top") : null,
  };
}

/**
 * Both clocks `elapsed` seconds after the state arrived: [{reserve, delay, running}]
 * by seat (null when the match is untimed). The waiting seat spends its delay
 * first, then its reserve.
 */
export function clockView(state, elapsed = 0) {
  const clock = state && state.clock;
  if (!clock) return null;
  const out = clock.reserves.map((reserve) => ({ reserve, delay: null, running: false }));
  const seat = state.waiting_for;
  if ((seat === 0 || seat === 1) && clock.deadline != null && !state.result) {
    const total = Math.max(0, clock.deadline - clock.now - elapsed);
    const reserve = clock.reserves[seat];
    out[seat] = {
      reserve: Math.min(reserve, total),
      delay: Math.max(0, total - reserve),
      running: true,
    };
  }
  return out;
}

/** Seconds as m:ss (h:mm:ss from an hour). */
export function formatSeconds(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** A seat's score as shown beside its name: capped at the match's length (a backgammon
 *  in a 1-point match wins 1 point of the match, though the game was worth 3). */
export function shownScore(state, seat) {
  const length = state.settings && state.settings.length;
  const score = state.score[seat];
  return length ? Math.min(score, length) : score;
}
