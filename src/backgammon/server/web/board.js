// Draws the board as SVG markup from the view model (see boardmodel.js); the page puts it in
// <svg id="board">. Every clickable place carries data-place: 1-24 a point (in the
// bottom side's numbering), 25 the bar, 0 the tray.

import { AREAS, GEOMETRY as G, checkerCenters, checkerSpots, pointPlace } from "./boardmodel.js";

const COLOURS = [
  { fill: "#f4f1e8", stroke: "#333", ink: "#222" }, // seat 0
  { fill: "#2a2a2a", stroke: "#000", ink: "#eee" }, // seat 1
];
const FRAME = "#3b2a1a";
const FELT = "#2e6b3a";
const POINT_COLOURS = ["#c9b27c", "#8b3a2e"];

function circle(x, y, colour, extra = "") {
  return `<circle cx="${x}" cy="${y}" r="${G.RADIUS - 1}" fill="${colour.fill}" stroke="${colour.stroke}" stroke-width="2" ${extra}/>`;
}

function triangle(p) {
  const { x, top } = pointPlace(p);
  const half = G.POINT / 2;
  const base = top ? AREAS.top : AREAS.bottom;
  const tip = top ? AREAS.top + G.DEPTH : AREAS.bottom - G.DEPTH;
  const colour = POINT_COLOURS[p % 2];
  const shade = p % 2 ? "point-dark" : "point-light"; // the theme's colour (style.css)
  return `<polygon class="${shade}" points="${x - half},${base} ${x + half},${base} ${x},${tip}" fill="${colour}"/>`;
}

/** How far a turned board's frame reaches past each long side: room for upright point
 *  numbers (SVG units; small enough that a point stays 32 px wide on a 375-px phone). */
const LABEL_ROOM = 12;

function label(p, turned) {
  const { x, top } = pointPlace(p);
  if (turned) {
    // In the middle of the widened frame: style.css turns it upright about its centre.
    const y = top ? (AREAS.top - LABEL_ROOM) / 2 : (AREAS.bottom + G.HEIGHT + LABEL_ROOM) / 2;
    return `<text x="${x}" y="${y}" class="label" dominant-baseline="central">${p}</text>`;
  }
  const y = top ? AREAS.top - 2 : AREAS.bottom + 10;
  return `<text x="${x}" y="${y}" class="label">${p}</text>`;
}

function hitArea(p) {
  const { x, top } = pointPlace(p);
  const y = top ? AREAS.top : AREAS.middle;
  return { x: x - G.POINT / 2, y, width: G.POINT, height: AREAS.middle - AREAS.top };
}

function die(x, y, value, colour, used) {
  const s = 44;
  const spots = {
    1: [[0, 0]],
    2: [[-1, -1], [1, 1]],
    3: [[-1, -1], [0, 0], [1, 1]],
    4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
    5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
    6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
  }[value] || [];
  const pips = spots
    .map(([dx, dy]) => `<circle cx="${x + dx * 11}" cy="${y + dy * 11}" r="4.5" fill="${colour.ink}"/>`)
    .join("");
  const opacity = used ? ' opacity="0.35"' : "";
  return `<g class="die" data-value="${value}"${opacity}><rect x="${x - s / 2}" y="${y - s / 2}" width="${s}" height="${s}" rx="7" fill="${colour.fill}" stroke="${colour.stroke}" stroke-width="2"/>${pips}</g>`;
}

function cube(x, y, value, extra = "") {
  const s = 42;
  return `<g class="cube" data-value="${value}" ${extra}><rect x="${x - s / 2}" y="${y - s / 2}" width="${s}" height="${s}" rx="5" fill="#fafafa" stroke="#111" stroke-width="2"/><text x="${x}" y="${y + 7}" class="cube-value">${value}</text></g>`;
}

/**
 * The board's SVG markup. `model`: {points (pointsView), dice (diceView), diceSide
 * ("bottom"/"top"), cube (cubeView), seats {bottom, top} (seat numbers, for colours),
 * movable (Set of places a checker may be picked up from), selected (a place or
 * null), targets (Set of places the selected checker may go), focus (optional: the
 * place the keyboard's cursor is on, ringed), arrows (optional:
 * [{x1, y1, x2, y2, kind}] in SVG units, kind "played" or "best", drawn as lines with
 * arrowheads), turned (optional: drawn for boardFrame's quarter turn, the frame
 * widened for upright point numbers)}.
 */
export function boardMarkup(model) {
  const parts = [];
  const colourOf = (side) => COLOURS[model.seats[side]];
  const { left, bar, right, boardEnd, tray, top, bottom, middle } = AREAS;
  const room = model.turned ? LABEL_ROOM : 0;
  parts.push(`<rect x="${G.CUBE_COLUMN}" y="${-room}" width="${G.WIDTH - G.CUBE_COLUMN}" height="${G.HEIGHT + 2 * room}" rx="8" class="frame" fill="${FRAME}"/>`);
  parts.push(`<rect class="felt" x="${left}" y="${top}" width="${bar - left}" height="${bottom - top}" fill="${FELT}"/>`);
  parts.push(`<rect class="felt" x="${right}" y="${top}" width="${boardEnd - right}" height="${bottom - top}" fill="${FELT}"/>`);
  parts.push(`<rect class="tray" x="${tray}" y="${top}" width="${G.TRAY}" height="${bottom - top}" fill="#24170c"/>`);
  for (let p = 1; p <= 24; p += 1) parts.push(triangle(p), label(p, model.turned));

  // The checkers: borne off (slabs in the tray, the bottom side's from the bottom
  // edge), on the points (a pinned one under the pinner's stack, marked), on the bar.
  // Each carries data-key (checkerSpots), by which the page animates moves.
  for (const spot of checkerSpots(model.points)) {
    const colour = colourOf(spot.side);
    const key = `data-key="${spot.key}"`;
    if (spot.shape === "slab") {
      const y = spot.y - 6.5;
      parts.push(`<rect class="off" ${key} x="${tray + 6}" y="${y}" width="${G.TRAY - 12}" height="13" rx="3" fill="${colour.fill}" stroke="${colour.stroke}"/>`);
      continue;
    }
    let cls = `checker ${spot.side}`;
    if (spot.place === 25) cls += " on-bar";
    const mine = spot.place !== 25 || spot.side === "bottom";
    if (spot.last && mine && model.selected === spot.place) cls += " selected";
    else if (spot.last && mine && model.movable.has(spot.place)) cls += " movable";
    if (spot.pinned) {
      // The pinned checker peeks out under the stack, ringed in the pinner's colour.
      const pinner = colourOf(spot.side === "bottom" ? "top" : "bottom");
      parts.push(
        `<g class="pinned" ${key}>${circle(spot.x, spot.y, colour, `class="${cls} pinned"`)}` +
          `<circle cx="${spot.x}" cy="${spot.y}" r="${G.RADIUS - 9}" fill="none" stroke="${pinner.fill}" stroke-width="4" stroke-dasharray="6 4"/>` +
          `<title>pinned</title></g>`,
      );
      continue;
    }
    parts.push(circle(spot.x, spot.y, colour, `class="${cls}" ${key}`));
    const crowded = spot.place === 25 ? spot.total > 4 : spot.total > 5;
    if (spot.last && crowded) {
      parts.push(`<text x="${spot.x}" y="${spot.y + 6}" class="count" fill="${colour.ink}">${spot.total}</text>`);
    }
  }

  // Where the selected checker may go.
  for (const place of model.targets) {
    if (place === 0) {
      parts.push(`<rect class="target-mark" x="${tray + 3}" y="${middle}" width="${G.TRAY - 6}" height="${bottom - middle - 3}" rx="6"/>`);
      continue;
    }
    const info = model.points.points[place - 1];
    const [c] = checkerCenters(place, 1, Math.min(info.bottom + info.top, 5));
    parts.push(`<circle class="target-mark" cx="${c.x}" cy="${c.y}" r="${G.RADIUS - 3}"/>`);
  }

  // The keyboard's cursor (keys.js): a ring round the place it is on.
  if (model.focus !== null && model.focus !== undefined) {
    const f = model.focus;
    const box =
      f === 25
        ? { x: bar, y: top, width: G.BAR, height: bottom - top }
        : f === 0
          ? { x: tray, y: top, width: G.TRAY, height: bottom - top }
          : hitArea(f);
    parts.push(`<rect class="key-focus" data-focus="${f}" x="${box.x + 2}" y="${box.y + 2}" width="${box.width - 4}" height="${box.height - 4}" rx="8" pointer-events="none"/>`);
  }

  // The dice, in the half of the side to move; the cube at the left.
  const diceX = model.diceSide === "bottom" ? (right + boardEnd) / 2 : (left + bar) / 2;
  const diceColour = colourOf(model.diceSide || "bottom");
  const gap = 52;
  const start = diceX - ((model.dice.length - 1) * gap) / 2;
  model.dice.forEach((d, i) => parts.push(die(start + i * gap, middle, d.value, diceColour, d.used)));
  if (model.cube) {
    const x = G.CUBE_COLUMN / 2;
    const y = model.cube.owner === "top" ? top + 26 : model.cube.owner === "bottom" ? bottom - 26 : middle;
    const shown = model.cube.owner == null && model.cube.value === 1 ? 64 : model.cube.value;
    parts.push(cube(x, y, shown, `data-owner="${model.cube.owner ?? "centre"}"`));
    if (model.cube.offered) {
      const ox = model.cube.offeredBy === "bottom" ? (right + boardEnd) / 2 : (left + bar) / 2;
      parts.push(cube(ox, middle, model.cube.offered, 'data-offered="true"'));
    }
  }

  // Arrows (the review: the played play and the best one), above the checkers.
  const arrows = model.arrows || [];
  if (arrows.length) {
    const kinds = [...new Set(arrows.map((a) => a.kind))];
    const markers = kinds.map(
      (kind) =>
        `<marker id="arrowhead-${kind}" class="arrowhead ${kind}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker>`,
    );
    parts.push(`<defs>${markers.join("")}</defs>`);
    for (const a of arrows) {
      parts.push(
        `<line class="arrow ${a.kind}" x1="${a.x1}" y1="${a.y1}" x2="${a.x2}" y2="${a.y2}" marker-end="url(#arrowhead-${a.kind})" pointer-events="none"/>`,
      );
    }
  }

  // Clickable places (on top of everything, transparent).
  for (let p = 1; p <= 24; p += 1) {
    const a = hitArea(p);
    let cls = "place";
    if (model.movable.has(p)) cls += " movable";
    if (model.targets.has(p)) cls += " target";
    if (model.selected === p) cls += " selected";
    parts.push(`<rect class="${cls}" data-place="${p}" x="${a.x}" y="${a.y}" width="${a.width}" height="${a.height}"/>`);
  }
  const barCls = `place${model.movable.has(25) ? " movable" : ""}${model.selected === 25 ? " selected" : ""}`;
  parts.push(`<rect class="${barCls}" data-place="25" x="${bar}" y="${top}" width="${G.BAR}" height="${bottom - top}"/>`);
  const trayCls = `place${model.targets.has(0) ? " target" : ""}`;
  parts.push(`<rect class="${trayCls}" data-place="0" x="${tray}" y="${top}" width="${G.TRAY}" height="${bottom - top}"/>`);
  return parts.join("");
}

/** A checker of `seat`'s colour for dragging, at (x, y). */
export function dragMarkup(seat, x, y) {
  return circle(x, y, COLOURS[seat], 'class="checker dragging" pointer-events="none"');
}

/**
 * The board's <svg> content and viewBox: as boardMarkup draws it, or (`turned`) turned a
 * quarter clockwise for a narrow screen, where a point is then a finger wide: the
 * bottom side's points on the left, the cube at the top, the tray at the bottom. The
 * drawing is in a <g data-board> either way (boardinput.js maps the pointer through it).
 */
export function boardFrame(model, turned = false) {
  const markup = boardMarkup({ ...model, turned });
  if (!turned) return { viewBox: `0 0 ${G.WIDTH} ${G.HEIGHT}`, markup: `<g data-board>${markup}</g>` };
  const across = G.HEIGHT + 2 * LABEL_ROOM;
  const transform = `translate(${G.HEIGHT + LABEL_ROOM} 0) rotate(90)`;
  return { viewBox: `0 0 ${across} ${G.WIDTH}`, markup: `<g data-board transform="${transform}">${markup}</g>` };
}
