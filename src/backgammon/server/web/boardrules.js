// What every view of a board shares (pure functions, no DOM): each variant's board
// (`variantBoard`, `opposing`, `pinnedPoints`), whose seat is drawn where, the dice as
// single moves, and one checker's step (`applyStep`). Unit-tested by view.test.mjs;
// tests/server/test_web_view.py also checks VARIANT_BOARDS against the registry.
//
// Numbering: `state.game.board.player0` / `player1` are each side's checkers by point
// in that side's own numbering (0 borne off, 1-24 the points, 25 the bar). The board
// is drawn in the numbering of the side at the bottom (the viewer's own seat, seat 0
// for a spectator): a top-side checker on its own point q stands on the drawn point
// `opposing(q, topology)`: 25 - q on the usual board, q in Russian backgammon (both
// sides move the same way round), (q + 11) % 24 + 1 in long nardy (the heads
// diagonally across).

/**
 * What the page must know of a variant's board (the server's `Variant`, see
 * docs/variants.md; tests/server/test_web_view.py checks this table against the
 * registry): `topology` "mirror" | "same-way" | "crosswise" (where the opponent's
 * points lie), `contact` "hit" | "pin" | "block" (what landing on a lone opposing
 * checker does: hits it, pins it (plakoto), or cannot be done (long nardy)),
 * `enterFirst` (checkers on the bar must enter before any other moves) and `cube`.
 */
export const STANDARD_BOARD = Object.freeze({ topology: "mirror", contact: "hit", enterFirst: true, cube: true });

const ACEY_DEUCEY = Object.freeze({ ...STANDARD_BOARD, enterFirst: false });
const PLAKOTO = Object.freeze({ ...STANDARD_BOARD, contact: "pin", cube: false });

export const VARIANT_BOARDS = Object.freeze({
  "acey-deucey": ACEY_DEUCEY,
  "acey-deucey-1-2": ACEY_DEUCEY,
  "acey-deucey-european": ACEY_DEUCEY,
  "long-nardy": Object.freeze({ topology: "crosswise", contact: "block", enterFirst: true, cube: false }),
  plakoto: PLAKOTO,
  "plakoto-prison": PLAKOTO,
  russian: Object.freeze({ ...STANDARD_BOARD, topology: "same-way" }),
  tavla: Object.freeze({ ...STANDARD_BOARD, cube: false }),
  tabula: Object.freeze({ ...STANDARD_BOARD, topology: "same-way", cube: false }),
});

/** The board facts of the variant called `name` (standard's for any other name). */
export function variantBoard(name) {
  return VARIANT_BOARDS[name] || STANDARD_BOARD;
}

/** The board facts of a match state's variant. */
export function boardOf(state) {
  return variantBoard(state && state.settings ? state.settings.variant : null);
}

/**
 * The other side's number for point `point` (1-24) of ours, on a board of
 * `topology` (the map is its own inverse); the bar (25) and off (0) are kept.
 */
export function opposing(point, topology = "mirror") {
  if (point < 1 || point > 24) return point;
  if (topology === "same-way") return point;
  if (topology === "crosswise") return ((point + 11) % 24) + 1;
  return 25 - point;
}

/**
 * The pinned checkers (plakoto) of a state's board, from its slots text (`*` marks
 * a single checker pinned under the opponent): [player0's, player1's], each a Set
 * of points in that side's own numbering.
 */
export function pinnedPoints(slots) {
  const sides = [new Set(), new Set()];
  const match = /^slots:([^/]*)\/(.*)$/.exec(slots || "");
  if (!match) return sides;
  [match[1], match[2]].forEach((text, side) => {
    for (let p = 0; p < text.length; p += 1) if (text[p] === "*") sides[side].add(p);
  });
  return sides;
}

/** The seat `name` plays in `state` (0 or 1), or null for a spectator. */
export function seatOf(state, name) {
  if (!state || !Array.isArray(state.players) || name == null) return null;
  const seat = state.players.indexOf(name);
  return seat === 0 || seat === 1 ? seat : null;
}

/** The seat drawn at the bottom: the viewer's own, seat 0 for a spectator. */
export function bottomSeat(seat) {
  return seat === 1 ? 1 : 0;
}

/**
 * The dice of a roll as single-die moves: [a, b], or [d, d, d, d] for doubles; a
 * throw of three dice (tabula) as it is, each die once (equal dice are not doubled).
 */
export function diceList(dice) {
  if (!dice) return [];
  if (dice.length === 3) return dice.slice();
  const [a, b] = dice;
  return a === b ? [a, a, a, a] : [a, b];
}

/** A throw as text: "6-5", or "6-5-2" for three dice. */
export function rollText(dice) {
  return dice.join("-");
}

/**
 * One checker moved from `from` to `to` (the mover's numbering: 25 the bar, 0 off) on
 * copies of the boards: `mine` the mover's, `theirs` the other side's, on the board
 * `rules` (variantBoard's). Where a variant hits, a lone opposing checker where it
 * lands is hit (sent to the other side's bar); a pinned one (plakoto) stays.
 * Returns {mine, theirs, hit}.
 */
export function applyStep(mine, theirs, from, to, rules = STANDARD_BOARD) {
  const m = mine.slice();
  const t = theirs.slice();
  m[from] -= 1;
  m[to] += 1;
  let hit = false;
  const there = opposing(to, rules.topology);
  if (rules.contact === "hit" && to >= 1 && to <= 24 && t[there] === 1) {
    t[there] = 0;
    t[25] += 1;
    hit = true;
  }
  return { mine: m, theirs: t, hit };
}
