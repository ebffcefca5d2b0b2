// The web client's view logic: pure functions from the server's match state (see
// docs/server.md, "The state itself") to what the page draws and allows. No DOM here,
// so `node --test view.test.mjs` checks it (tests/server/test_web_view.py runs that).
//
// Numbering: `state.game.board.player0` / `player1` are each side's checkers by point
// in that side's own numbering (0 borne off, 1-24 the points, 25 the bar). The board
// is drawn in the numbering of the side at the bottom (the viewer's own seat, seat 0
// for a spectator): a top-side checker on its own point q stands on the drawn point
// `opposing(q, topology)`: 25 - q on the usual board, q in Russian backgammon (both
// sides move the same way round), (q + 11) % 24 + 1 in long nardy (the heads
// diagonally across).

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
function boardOf(state) {
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
  if (state.result) return { ...none, rematch: true };
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

const LEVELS = { 1: "a single game", 2: "a gammon", 3: "a backgammon" };

/** What an open match (its summary: `players`, `invitee`) waits for, in words, for
 *  the user called `me`: its host, its invitee, or anyone else (a spectator). */
export function describeOpen(open, me) {
  const host = open.players[0];
  const invitee = open.invitee || null;
  if (open.players[1]) {
    // A tournament's match, both seats taken: it starts once both nonces are in.
    return `${host} v ${open.players[1]}: starting once both players' dice nonces are in (commitment ${open.commitment.slice(0, 16)}…).`;
  }
  if (host === me) return invitee ? `Waiting for ${invitee} to accept the invitation…` : "Waiting for an opponent to join…";
  if (invitee === me) return `${host} invites you to this match.`;
  if (invitee) return `${host} has invited ${invitee}: waiting for the invitation to be accepted.`;
  return `${host} waits for an opponent.`;
}

/** Whether the user called `me` may take the open seat of an open match. */
export function mayJoin(open, me) {
  if (open.players[1]) return false; // both seats taken (a tournament's match)
  return open.players[0] !== me && (!open.invitee || open.invitee === me);
}

// -- what happened and what is awaited, in words -----------------------------------------
//
// Sentences name the viewer "you" (capitalised at the start of a sentence) and anyone
// else by name; names are never changed (a name is never capitalised).

/** The viewer in `seat` as "you", anyone else by name; "You" where `start`. */
function nameOf(state, seat, s, start = false) {
  if (s !== seat) return state.players[s];
  return start ? "You" : "you";
}

function pointsText(n) {
  return `${n} point${n === 1 ? "" : "s"}`;
}

const KIND_LEVELS = { single: 1, gammon: 2, backgammon: 3 };

/**
 * How a game ended, in one sentence, for the viewer in `seat`: `over` is a game's
 * outcome ({winner, points, kind, ending}, the state's `game.outcome` or an entry's
 * `game_over`): who won, how many points and why (borne off: single, gammon or
 * backgammon; a dropped double; an accepted resignation; first hit; a pinned mother;
 * a draw).
 */
export function gameEndSentence(over, state, seat) {
  const winner = over.winner;
  const loser = 1 - winner;
  const won = (start) => `${nameOf(state, seat, winner, start)} won ${pointsText(over.points)}`;
  switch (over.ending) {
    case "double dropped":
      return `${nameOf(state, seat, loser, true)} dropped the double: ${won(false)}.`;
    case "resigned": {
      const what = LEVELS[KIND_LEVELS[over.kind]] || "the game";
      const whose = loser === seat ? "your" : `${state.players[loser]}'s`;
      return `${nameOf(state, seat, winner, true)} accepted ${whose} resignation of ${what}: ${won(false)}.`;
    }
    case "first hit":
      return `${nameOf(state, seat, winner, true)} hit first and won ${pointsText(over.points)}.`;
    case "mother pinned":
      return `${nameOf(state, seat, winner, true)} pinned the mother and won ${pointsText(over.points)}.`;
    case "draw":
      return "Both mothers are pinned: the game is a draw.";
    default:
      if (over.kind === "gammon" || over.kind === "backgammon") {
        return `${nameOf(state, seat, winner, true)} won a ${over.kind}: ${pointsText(over.points)}.`;
      }
      return `${nameOf(state, seat, winner, true)} bore off first and won ${pointsText(over.points)}.`;
  }
}

/** The score after a game ("Score: alice 1, bob 0, to 3."), from `score` (seat order). */
export function scoreSentence(state, score) {
  const length = state.settings && state.settings.length;
  const tally = `${state.players[0]} ${score[0]}, ${state.players[1]} ${score[1]}`;
  return `Score: ${tally}${length ? `, to ${length}` : ""}.`;
}

/**
 * A finished match's score as players say it: the winner's points first, each capped at
 * the match length (a 1-point match won with a gammon is won 1-0, not 2-0); seat order
 * when nobody won (an even money session).
 */
export function resultTally(result, length) {
  const cap = (points) => (length ? Math.min(points, length) : points);
  const { winner, score } = result;
  const order = winner == null ? [0, 1] : [winner, 1 - winner];
  return `${cap(score[order[0]])}–${cap(score[order[1]])}`;
}

/** How the match ended, in one sentence (the state's `result`). */
export function resultSentence(state, seat) {
  const { winner, reason } = state.result;
  const length = state.settings ? state.settings.length : 0;
  const tally = resultTally(state.result, length);
  const what = length ? "the match" : "the session";
  if (winner == null) {
    return reason === "adjudicated" ? `The match was adjudicated with no winner, ${tally}.` : `The session ended even, ${tally}.`;
  }
  const head = `${nameOf(state, seat, winner, true)} won ${what} ${tally}`;
  const loser = nameOf(state, seat, 1 - winner, false);
  if (reason === "timeout") return `${head}: ${loser} ran out of time.`;
  if (reason === "left") return `${head}: ${loser} left the ${length ? "match" : "session"}.`;
  if (reason === "adjudicated") return `${head} by adjudication.`;
  if (reason === "abandoned") return `${head}: ${loser} stayed away too long, and the win was claimed.`;
  return `${head}.`;
}

/** What a match's `presence` message (each seat's player connected or away since
 *  when, the wait before a claim: null with a clock) means for the user in `seat`
 *  (null: a spectator) at the server's time `now`: whether each player is connected,
 *  a sentence about an absent player ("" when both are here), and whether the user
 *  may claim the win now (`claim`) or in how many seconds (`claimIn`; null: not
 *  this way). The server decides: this only says when to offer the button. */
export function presenceView(presence, state, seat, now) {
  const none = { connected: [true, true], notice: "", claim: false, claimIn: null };
  if (!presence || !state || state.open || presence.match !== state.match) return none;
  const connected = presence.players.map((player) => !player || player.connected);
  if (state.result) return { ...none, connected };
  const notices = [];
  let claimIn = null;
  for (const s of [0, 1]) {
    const player = presence.players[s];
    if (!player || player.connected || s === seat) continue;
    const name = state.players[s];
    const away = `${name} has been away ${formatSeconds(now - player.away_since)}`;
    const claimable = seat === 1 - s && presence.claim_after != null && state.waiting_for === s;
    if (!claimable) {
      notices.push(`${away}.`);
      continue;
    }
    const since = Math.max(player.away_since, state.waiting_since ?? 0);
    claimIn = Math.max(0, since + presence.claim_after - now);
    notices.push(
      claimIn > 0
        ? `${away}: if ${name} is still away in ${formatSeconds(claimIn)}, you may claim the win.`
        : `${away}: you may claim the win.`,
    );
  }
  return { connected, notice: notices.join(" "), claim: claimIn === 0, claimIn };
}

/** The sentence for a change between two `presence` messages of one match ("bob
 *  left." / "bob is back."), or "" when no player came or went. */
export function presenceChange(before, after, state) {
  if (!before || !after || before.match !== after.match || !state || !state.players) return "";
  const said = [];
  for (const s of [0, 1]) {
    const was = before.players[s];
    const now = after.players[s];
    if (!was || !now || was.connected === now.connected) continue;
    said.push(now.connected ? `${state.players[s]} is back.` : `${state.players[s]} left.`);
  }
  return said.join(" ");
}

/** How the last game of a finished match ended (gameEndSentence), or "" when the
 *  match ended otherwise (time, leaving, adjudication). */
export function lastGameSentence(state, seat) {
  const game = state.game;
  if (!state.result || state.result.reason !== "score" || !game || !game.outcome) return "";
  return gameEndSentence(game.outcome, state, seat);
}

/** What the match is waiting for, in words, for the viewer in `seat`. */
export function describe(state, seat) {
  if (!state) return "";
  if (state.open) return "Waiting for an opponent to join…";
  const names = state.players;
  const you = (s) => (s === seat ? "You" : names[s]);
  if (state.result) return [lastGameSentence(state, seat), resultSentence(state, seat)].filter(Boolean).join(" ");
  const game = state.game;
  if (!game) return "";
  if (game.over && game.outcome) {
    return `${gameEndSentence(game.outcome, state, seat)} ${scoreSentence(state, state.score)}`;
  }
  const waiting = state.waiting_for;
  if (waiting == null) return "";
  const pending = game.pending;
  const mine = waiting === seat;
  if (pending && pending.kind === "double") {
    const value = game.cube.value * 2;
    if (mine) return `${names[pending.by]} doubles to ${value}: take or drop?`;
    const doubler = pending.by === seat ? "You double" : `${names[pending.by]} doubles`;
    return `${doubler} to ${value}; waiting for ${names[waiting]}.`;
  }
  if (pending && pending.kind === "resign") {
    const what = LEVELS[pending.level] || "the game";
    return mine
      ? `${names[pending.by]} offers to resign ${what}: accept or reject?`
      : `${you(pending.by)} offered to resign ${what}; waiting for ${names[waiting]}.`;
  }
  if (game.dice) {
    const roll = rollText(game.dice);
    return mine ? `Your move: ${roll}.` : `${names[waiting]} to move ${roll}.`;
  }
  if (mine) return game.can_double ? "Your turn: roll or double." : "Your turn: roll.";
  return `Waiting for ${names[waiting]}.`;
}

/** Chosen single steps as text, e.g. "bar/22 8/4*" (a hit marked with *). */
export function formatSteps(plan, chosen) {
  const now = plan ? replay(plan, chosen) : null;
  const hits = new Set(now ? now.hits : []);
  const place = (p) => (p === 25 ? "bar" : p === 0 ? "off" : String(p));
  return chosen.map((s) => `${place(s.from)}/${place(s.to)}${hits.has(s) ? "*" : ""}`).join(" ");
}

/** Whether a log entry starts a game (the server's in a match, a player's in money). */
function startsGame(entry) {
  return entry.kind === "new_game" || entry.kind === "next_game";
}

/** One entry's own sentence (see describeEntries), or "". */
function entrySentence(entry, state, seat, gameNumber) {
  const by = entry.by ?? entry.player;
  if (entry.game_over) return gameEndSentence(entry.game_over, state, seat);
  if (entry.kind === "opening") {
    const [a, b] = entry.dice;
    const head = gameNumber ? `Game ${gameNumber}: ` : "";
    if (a === b) return `${head}${head ? "both" : "Both"} threw ${a}: the opening roll is thrown again.`;
    const starter = a > b ? 0 : 1;
    const starts = nameOf(state, seat, starter, !head);
    return `${head}${starts} won the opening roll ${Math.max(a, b)}-${Math.min(a, b)}.`;
  }
  if (by == null) return "";
  if (entry.kind === "play" && entry.by == null) return `${nameOf(state, seat, by, true)} cannot move.`;
  if (by === seat) return ""; // the viewer knows what they did
  const name = state.players[by];
  switch (entry.kind) {
    case "play":
      return entry.move ? `${name} played ${entry.move}.` : `${name} cannot move.`;
    case "take":
      return `${name} took the double.`;
    case "beaver":
      return `${name} beavered.`;
    case "raccoon":
      return `${name} raccooned.`;
    case "reject":
      return `${name} rejected the resignation.`;
    case "choose_double":
      return `${name} chose double ${entry.number}s.`;
    case "explode":
      return `${name} exploded the bomb.`;
    default:
      // Rolls show as dice, a double or a resignation offered as the question it
      // asks (describe), the end of a match in its result.
      return "";
  }
}

/**
 * What just changed, in sentences, for the viewer in `seat` (a state message's
 * `entries`, `state` the state after them): what the others did (the viewer's own
 * actions are left out; an offer is said by describe while it waits for its answer),
 * moves with no play, the end of a game (who won, how many
 * points, why; see gameEndSentence) with the score after it (left to the result
 * when the match is over), and who won the opening roll of a new game. "" when
 * nothing needs saying.
 */
export function describeEntries(entries, state, seat) {
  const lines = [];
  let number = state.game ? state.game.number : 0;
  number -= (entries || []).filter(startsGame).length;
  let fresh = 0; // a new game's number, said with its first opening throw
  for (const entry of entries || []) {
    if (startsGame(entry)) {
      number += 1;
      fresh = number > 1 ? number : 0;
    }
    const line = entrySentence(entry, state, seat, entry.kind === "opening" ? fresh : 0);
    if (entry.kind === "opening") fresh = 0;
    if (line) lines.push(line);
    if (entry.game_over && !state.result) lines.push(scoreSentence(state, entry.game_over.score));
  }
  return lines.join(" ");
}

/**
 * The end of a game to show before the next one begins, from a state message: null
 * unless one of `entries` ended a game of a match that goes on (a finished match has
 * its result instead). Returns {number, title, lines, after}: `lines` the game's end
 * and the score, `after` what followed in the same message (the next game's opening).
 */
export function gameSummary(entries, state, seat) {
  const list = entries || [];
  const at = list.findLastIndex((entry) => entry.game_over);
  if (at < 0 || state.result) return null;
  const over = list[at].game_over;
  const later = list.slice(at + 1);
  const number = (state.game ? state.game.number : 1) - later.filter(startsGame).length;
  const title = `Game ${number}: ${over.ending === "draw" ? "a draw" : `${nameOf(state, seat, over.winner, false)} won`}`;
  return {
    number,
    title,
    lines: [gameEndSentence(over, state, seat), scoreSentence(state, over.score)],
    after: describeEntries(later, state, seat),
  };
}

/**
 * The last position of a game that `entries` ended, to show under its summary: the
 * state before them (`before`) with the game-ending play's checkers moved (a drop or
 * an accepted resignation leaves the board as it was), no dice and no one to act.
 * Null when `before` is not of that game.
 */
export function endedState(before, entries, number) {
  if (!before || !before.game || before.game.number !== number) return null;
  const ending = (entries || []).find((entry) => entry.game_over);
  if (!ending) return null;
  const board = { ...before.game.board };
  const mover = ending.by ?? ending.player;
  if (ending.kind === "play" && (mover === 0 || mover === 1)) {
    const rules = boardOf(before);
    let mine = board[`player${mover}`];
    let theirs = board[`player${1 - mover}`];
    for (const [from, to] of ending.steps || []) {
      ({ mine, theirs } = applyStep(mine, theirs, from, to, rules));
    }
    board[`player${mover}`] = mine;
    board[`player${1 - mover}`] = theirs;
    const pips = (side) => side.reduce((sum, count, point) => sum + count * point, 0);
    board.pips = [pips(board.player0), pips(board.player1)];
  }
  const game = {
    ...before.game,
    board,
    dice: null,
    pending: null,
    legal_plays: null,
    legal_steps: null,
    over: true,
    outcome: ending.game_over,
  };
  return { ...before, game, waiting_for: null, clock: null };
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

/**
 * The read-only board of an error in the review (POST /api/analysis's result): its
 * position seen from the player who erred (at the bottom), the dice of a checker
 * play, the cube, and the played and best plays as arrows ("played", "best").
 */
export function reviewModel(error) {
  const model = positionModel(error.board, error.dice || null);
  const cube = error.cube || { value: 1, owner: null };
  const owner = cube.owner === "player" ? "bottom" : cube.owner === "opponent" ? "top" : null;
  model.cube = { value: cube.value, owner, offered: null, offeredBy: null };
  model.arrows =
    error.kind === "checker"
      ? [...playArrows(error.board, error.played, "played", -5), ...playArrows(error.board, error.best, "best", 5)]
      : [];
  return model;
}

/** The line under the review board for an error ("Game 1, move 4: Alice rolled 2-1 and …"). */
export function reviewCaption(error) {
  const head = `Game ${error.game}, move ${error.move}: ${error.player}`;
  const cost = `(${error.mark}, −${error.loss.toFixed(3)})`;
  if (error.kind === "checker") {
    const dice = error.dice ? `${error.dice[0]}-${error.dice[1]}` : "";
    const played = error.decision.includes(": ") ? error.decision.split(": ").slice(1).join(": ") : error.decision;
    return `${head} rolled ${dice} and played ${played}; best ${error.right} ${cost}.`;
  }
  return `${head}, cube action: ${error.decision}; the right action: ${error.right} ${cost}.`;
}

// -- the player page ---------------------------------------------------------------------

/**
 * The rating graph of one variant: the history's entries of `variant` in time order,
 * after the starting rating (`start`, 1500), as polyline points inside `width` by
 * `height` with `pad` on every side. X: evenly spaced by match; y: the rating, the
 * lowest at the bottom (a flat history is drawn across the middle).
 * Returns {points: [[x, y], ...], low, high} (`low`/`high`: the ratings at the edges).
 */
export function ratingPoints(history, variant, width, height, { pad = 10, start = 1500 } = {}) {
  const entries = history
    .filter((entry) => entry.variant === variant)
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  if (!entries.length) return { points: [], low: start, high: start };
  const ratings = [start, ...entries.map((entry) => entry.rating)];
  const low = Math.min(...ratings);
  const high = Math.max(...ratings);
  const innerWidth = Math.max(width - 2 * pad, 0);
  const innerHeight = Math.max(height - 2 * pad, 0);
  const round = (x) => Math.round(x * 10) / 10;
  const points = ratings.map((rating, index) => {
    const x = pad + (innerWidth * index) / (ratings.length - 1);
    const y = high === low ? pad + innerHeight / 2 : pad + (innerHeight * (high - rating)) / (high - low);
    return [round(x), round(y)];
  });
  return { points, low, high };
}

/** A match summary as one row of a player's history, from `name`'s side. */
export function historyRow(match, name) {
  const seat = match.players[0] === name ? 0 : 1;
  const opponent = match.players[1 - seat] ?? "";
  const settings = match.settings || {};
  const length = settings.length ? `${settings.length}` : "money";
  let result = match.status;
  if (match.result) {
    const won = match.result.winner === seat;
    const cap = (points) => (settings.length ? Math.min(points, settings.length) : points); // as resultTally
    const score = match.result.score ? ` ${cap(match.result.score[seat])}-${cap(match.result.score[1 - seat])}` : "";
    result = `${won ? "won" : "lost"}${score}${match.result.reason && match.result.reason !== "score" ? ` (${match.result.reason})` : ""}`;
  }
  const at = typeof match.created_at === "number" ? new Date(match.created_at * 1000) : new Date(match.created_at);
  const date = Number.isNaN(at.getTime()) ? "" : at.toISOString().slice(0, 10);
  return { id: match.id, opponent, length, variant: settings.variant || "standard", result, date, finished: Boolean(match.result) };
}
