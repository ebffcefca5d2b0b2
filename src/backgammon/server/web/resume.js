// What a reload in the middle of a turn must not forget (issue 35, item 8): the
// opponent's last play, said from the state's `last_play` (the server keeps it), and
// the checkers already moved this turn, kept in sessionStorage under the match and
// the state they were chosen in, and given back only if they still fit that state.
// Pure functions of a Storage (sessionStorage in the page, a Map-like in the tests).

import { nextSteps } from "./planner.js";

const PREFIX = "backgammon.steps.";

/** The storage key of a match's chosen steps. */
export function stepsKey(match) {
  return `${PREFIX}${match}`;
}

/**
 * The sentence of the game's last play for a page that has just opened (or reopened)
 * a match: "bob played 13/7 8/7." or "bob cannot move."; "" when there is none, when
 * the viewer in `seat` made it, or once the game or the match is over; before the
 * game's first play, who won its opening roll (openingNote).
 */
export function lastPlayNote(state, seat) {
  const last = state && state.last_play;
  if (!state || state.result || !state.game || state.game.over) return "";
  if (!last) return openingNote(state, seat);
  if (last.by === seat || (last.by !== 0 && last.by !== 1)) return "";
  const name = state.players[last.by];
  return last.move ? `${name} played ${last.move}.` : `${name} cannot move.`;
}

/**
 * Before a game's first play (a match just started, or opened then): who won its
 * opening roll, "You won the opening roll 6-1." or "bob won ...": the dice on the
 * table are the opening roll's (never a double), the turn its winner's. "" otherwise.
 */
function openingNote(state, seat) {
  const game = state.game;
  const dice = game.dice;
  if (!dice || dice.length !== 2 || dice[0] === dice[1] || game.pending || game.turn == null) return "";
  const who = game.turn === seat ? "You" : state.players[game.turn];
  return `${who} won the opening roll ${Math.max(...dice)}-${Math.min(...dice)}.`;
}

/** Keep the steps chosen so far in `state` (forget them when there are none). */
export function saveSteps(storage, state, chosen) {
  if (!state || !state.match) return;
  const key = stepsKey(state.match);
  try {
    if (!chosen.length || !state.game) {
      storage.removeItem(key);
      return;
    }
    const steps = chosen.map(({ from, to, die }) => ({ from, to, die }));
    storage.setItem(key, JSON.stringify({ seq: state.seq, dice: state.game.dice, steps }));
  } catch {
    // No storage (private mode, quota): a reload forgets the steps, as it used to.
  }
}

function sameDice(a, b) {
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((d, i) => d === b[i]);
}

/**
 * The steps kept for `state` that still fit it: the same state (`seq`) and dice, and
 * each step one that `plan` (view.planner's) offers after the ones before it. Anything
 * else is dropped from `storage`, and [] returned.
 */
export function restoreSteps(storage, state, plan) {
  if (!state || !state.match) return [];
  const key = stepsKey(state.match);
  let kept = null;
  try {
    kept = JSON.parse(storage.getItem(key) || "null");
  } catch {
    kept = { steps: "unreadable" };
  }
  if (kept === null) return [];
  const chosen = fitting(kept, state, plan);
  if (chosen === null) {
    try {
      storage.removeItem(key);
    } catch {
      // no storage: nothing to drop
    }
    return [];
  }
  return chosen;
}

/** The kept steps as the chosen steps of `state`, or null if they do not fit it. */
function fitting(kept, state, plan) {
  const steps = kept && Array.isArray(kept.steps) ? kept.steps : null;
  if (!steps || !plan || !state.game || kept.seq !== state.seq || !sameDice(kept.dice, state.game.dice)) {
    return null;
  }
  const chosen = [];
  for (const step of steps) {
    const offered = nextSteps(plan, chosen).find(
      (s) => step && s.from === step.from && s.to === step.to && s.die === step.die,
    );
    if (!offered) return null;
    chosen.push(offered);
  }
  return chosen;
}
