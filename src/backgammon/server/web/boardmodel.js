// The board as drawn (pure functions, no DOM): its geometry in SVG units, which
// checkers stand on each drawn point (`pointsView`) and where (`checkerSpots`), which
// place a click or a drop hits (`placeAt`), which checkers moved (`moveTransitions`,
// for motion.js), and the read-only boards of the position tool and the chouettes
// (`positionModel`) with a play's arrows (`playArrows`, for the review). board.js
// draws these. Unit-tested by view.test.mjs.

import { applyStep, opposing } from "./boardrules.js";

/** Board geometry in SVG user units (the SVG's viewBox is 0 0 WIDTH HEIGHT). */
export const GEOMETRY = Object.freeze({
  WIDTH: 868,
  HEIGHT: 620,
  CUBE_COLUMN: 56, // left of the board: the cube
  FRAME: 12,
  POINT: 56, // a point's width
  BAR: 48,
  TRAY: 56, // right of the board: borne-off checkers
  RADIUS: 26,
  DEPTH: 260, // a point's length (five checkers)
});

const G = GEOMETRY;
const LEFT = G.CUBE_COLUMN + G.FRAME; // x where the left half's points start
const BAR_X = LEFT + 6 * G.POINT; // the bar's left edge
const RIGHT = BAR_X + G.BAR; // x where the right half's points start
const BOARD_END = RIGHT + 6 * G.POINT; // the right half's right edge
const TRAY_X = BOARD_END + G.FRAME; // the tray's left edge
const TOP = G.FRAME;
const BOTTOM = G.HEIGHT - G.FRAME;

/** Where the parts of the board are (for drawing; all in SVG units). */
export const AREAS = Object.freeze({
  left: LEFT,
  bar: BAR_X,
  right: RIGHT,
  boardEnd: BOARD_END,
  tray: TRAY_X,
  top: TOP,
  bottom: BOTTOM,
  middle: G.HEIGHT / 2,
});

/**
 * Which checkers stand on each drawn point: [{point, bottom, top}] for points 1-24 (in
 * the bottom side's numbering), plus the bars and the borne-off counts. `view` is
 * boardView's (or {bottom, top} of the usual board). Where both sides stand on a
 * point (a pin, in plakoto), `under` says whose checker is pinned under the other's
 * stack: "bottom" or "top".
 */
export function pointsView(view) {
  const topology = view.topology || "mirror";
  const points = [];
  for (let p = 1; p <= 24; p += 1) {
    const entry = { point: p, bottom: view.bottom[p], top: view.top[opposing(p, topology)] };
    if (view.pinned && entry.bottom && entry.top) {
      // A pin the state does not list was made by the mover's chosen steps.
      entry.under = view.pinned.bottom.has(p) ? "bottom" : "top";
    }
    points.push(entry);
  }
  return {
    points,
    bar: { bottom: view.bottom[25], top: view.top[25] },
    off: { bottom: view.bottom[0], top: view.top[0] },
    topology,
  };
}

/** The centre x of drawn point p (1-24) and whether it hangs from the top edge. */
export function pointPlace(p) {
  if (p >= 1 && p <= 6) return { x: BOARD_END - (p - 0.5) * G.POINT, top: false };
  if (p >= 7 && p <= 12) return { x: BAR_X - (p - 6.5) * G.POINT, top: false };
  if (p >= 13 && p <= 18) return { x: LEFT + (p - 12.5) * G.POINT, top: true };
  if (p >= 19 && p <= 24) return { x: RIGHT + (p - 18.5) * G.POINT, top: true };
  throw new RangeError(`no point ${p}`);
}

/**
 * The centres of `count` checkers stacked on drawn point p, from the edge inwards
 * (closer together when more than five stand there).
 */
export function checkerCenters(p, count, skip = 0) {
  const { x, top } = pointPlace(p);
  const total = count + skip;
  const spacing = total > 5 ? (G.DEPTH - 2 * G.RADIUS) / (total - 1) : 2 * G.RADIUS;
  const centres = [];
  for (let i = skip; i < total; i += 1) {
    const offset = G.RADIUS + i * spacing;
    centres.push({ x, y: top ? TOP + offset : BOTTOM - offset });
  }
  return centres;
}

/** The centres of checkers on the bar: the bottom side's below the middle. */
export function barCenters(count, bottomSide) {
  const x = BAR_X + G.BAR / 2;
  const room = G.DEPTH - 2 * G.RADIUS - 20;
  const spacing = count > 4 ? room / (count - 1) : 2 * G.RADIUS;
  const centres = [];
  for (let i = 0; i < count; i += 1) {
    const offset = 40 + G.RADIUS + i * spacing;
    centres.push({ x, y: bottomSide ? G.HEIGHT / 2 + offset : G.HEIGHT / 2 - offset });
  }
  return centres;
}

/**
 * Which drawn place holds SVG point (x, y): 1-24 a point, 25 the bar, 0 the tray
 * (bearing off), or null. Used for clicks and drops.
 */
export function placeAt(x, y) {
  if (x >= BAR_X && x < RIGHT && y >= TOP && y <= BOTTOM) return 25;
  if (x >= TRAY_X && x <= TRAY_X + G.TRAY && y >= TOP && y <= BOTTOM) return 0;
  const top = y < G.HEIGHT / 2;
  let column = null;
  if (x >= LEFT && x < BAR_X) column = Math.floor((x - LEFT) / G.POINT); // 0-5
  else if (x >= RIGHT && x < BOARD_END) column = 6 + Math.floor((x - RIGHT) / G.POINT); // 6-11
  if (column === null || y < TOP || y > BOTTOM) return null;
  return top ? 13 + column : 12 - column;
}

/** The centre of the `index`-th borne-off slab (from the edge) of a side in the tray. */
export function slabCenter(index, bottomSide) {
  const y = bottomSide ? BOTTOM - 4 - (index + 1) * 15 : TOP + 4 + index * 15;
  return { x: TRAY_X + G.TRAY / 2, y: y + 6.5 };
}

/**
 * Every checker of a pointsView as drawn: [{key, side, place, own, index, x, y,
 * shape, last, pinned, total}]. `key` ("bottom:13:0") names the checker by side,
 * drawn place (25 the bar, 0 the tray) and height in its side's stack there;
 * `own` is the place in that side's own numbering; `shape` "checker" or "slab" (a
 * borne-off one); `last` marks the top checker of a point's stack (or of the
 * side's bar), `total` the number of checkers on its point; `pinned` a checker
 * pinned under the other side's (plakoto). board.js draws these; the animation
 * compares two of them (moveTransitions).
 */
export function checkerSpots(points) {
  const topology = points.topology || "mirror";
  const spots = [];
  const own = (side, place) => (side === "bottom" ? place : opposing(place, topology));
  for (const entry of points.points) {
    const { point, bottom, top } = entry;
    const order = entry.under === "top" ? ["top", "bottom"] : ["bottom", "top"];
    const total = bottom + top;
    let skip = 0;
    for (const side of order) {
      const count = entry[side];
      if (!count) continue;
      checkerCenters(point, count, skip).forEach((c, index) => {
        spots.push({
          key: `${side}:${point}:${index}`,
          side,
          place: point,
          own: own(side, point),
          index,
          x: c.x,
          y: c.y,
          shape: "checker",
          last: skip + index === total - 1,
          pinned: entry.under === side,
          total,
        });
      });
      skip += count;
    }
  }
  for (const side of ["bottom", "top"]) {
    const count = points.bar[side];
    barCenters(count, side === "bottom").forEach((c, index) => {
      spots.push({ key: `${side}:25:${index}`, side, place: 25, own: 25, index, x: c.x, y: c.y,
        shape: "checker", last: index === count - 1, pinned: false, total: count });
    });
    const off = points.off[side];
    for (let index = 0; index < off; index += 1) {
      const c = slabCenter(index, side === "bottom");
      spots.push({ key: `${side}:0:${index}`, side, place: 0, own: 0, index, x: c.x, y: c.y,
        shape: "slab", last: index === off - 1, pinned: false, total: off });
    }
  }
  return spots;
}

/**
 * How the checkers of `after` (checkerSpots) came from `before`, for an animation:
 * {moves, items: [{key, dx, dy}]}, each item a checker of `after` to be shown
 * starting (dx, dy) away from where it now stands and sliding in. For each side,
 * the checkers that left places are paired with those that arrived, both in the
 * side's own order (highest point first: 24/18 13/8 pairs 24 with 18, 13 with 8); a
 * checker that stays but is drawn elsewhere (a stack closing up) slides too.
 * `moves` counts the pairs. Nothing (moves 0, no items) when a side's numbers of
 * leaving and arriving checkers differ or more than `limit` moved: a new game, not
 * a move.
 */
export function moveTransitions(before, after, limit = 8) {
  const none = { moves: 0, items: [] };
  if (!before || !after) return none;
  const old = new Map(before.map((spot) => [spot.key, spot]));
  const now = new Set(after.map((spot) => spot.key));
  const items = [];
  let moves = 0;
  for (const side of ["bottom", "top"]) {
    const order = (a, b) => b.own - a.own || b.index - a.index;
    const left = before.filter((spot) => spot.side === side && !now.has(spot.key)).sort(order);
    const arrived = after.filter((spot) => spot.side === side && !old.has(spot.key)).sort(order);
    if (left.length !== arrived.length) return none;
    arrived.forEach((spot, i) => {
      items.push({ key: spot.key, dx: left[i].x - spot.x, dy: left[i].y - spot.y });
    });
    moves += arrived.length;
  }
  if (moves > limit) return none;
  for (const spot of after) {
    const was = old.get(spot.key);
    if (was && (was.x !== spot.x || was.y !== spot.y)) {
      items.push({ key: spot.key, dx: was.x - spot.x, dy: was.y - spot.y });
    }
  }
  return { moves, items };
}

/**
 * The read-only board model of the position tool (board.js's boardMarkup input):
 * `board` is {player, opponent} as POST /api/position returns them (the side on roll
 * at the bottom), `dice` [a, b] or null.
 */
export function positionModel(board, dice) {
  return {
    points: pointsView({ bottom: board.player, top: board.opponent }),
    dice: dice ? dice.map((value) => ({ value, used: false })) : [],
    diceSide: "bottom",
    cube: { value: 1, owner: null, offered: null, offeredBy: null },
    seats: { bottom: 0, top: 1 },
    movable: new Set(),
    selected: null,
    targets: new Set(),
  };
}

/**
 * Where a checker stands in an arrow of the review board: the top checker of the
 * `count`-th checker on `place` (the bottom side's numbering: 25 its bar, 0 its tray).
 */
function arrowEnd(place, count) {
  const n = Math.max(count, 1);
  if (place === 25) return barCenters(n, true)[n - 1];
  if (place === 0) {
    const slab = Math.min(n, 15);
    return { x: TRAY_X + G.TRAY / 2, y: BOTTOM - 4 - slab * 15 + 6 };
  }
  const [c] = checkerCenters(place, 1, n - 1);
  return c;
}

/**
 * A play's steps ([[from, to], ...] in the bottom side's numbering, 25 the bar, 0 off)
 * as arrows on `board` ({player, opponent}, the mover at the bottom): [{x1, y1, x2,
 * y2, kind}] from the checker that leaves to where it lands, the steps replayed one
 * after another (so a checker moved twice gives two arrows end to end). `shift` moves
 * the arrows sideways (to tell two plays apart where they share a step).
 */
export function playArrows(board, steps, kind, shift = 0) {
  let mine = board.player;
  let theirs = board.opponent;
  const arrows = [];
  for (const [from, to] of steps || []) {
    if (!(mine[from] > 0)) break;
    const start = arrowEnd(from, mine[from]);
    const next = applyStep(mine, theirs, from, to);
    const end = arrowEnd(to, next.mine[to]);
    arrows.push({ x1: start.x + shift, y1: start.y, x2: end.x + shift, y2: end.y, kind });
    mine = next.mine;
    theirs = next.theirs;
  }
  return arrows;
}
