// The match in words, for screen readers: the board's SVG is one picture to them, so
// the page also holds (visually hidden, in #board-words) the position, the dice, the
// cube, the score, the pips and whose turn it is, and gives the focused board an
// accessible name that says where the keyboard's cursor is. Pure functions of the
// view models (matchview.js, boardmodel.js), and one that writes them into the page.

import * as B from "./boardmodel.js";
import * as R from "./boardrules.js";
import * as M from "./matchview.js";

const PLACE_NAMES = { 0: "off the board", 25: "the bar" };

/** "you" for the viewer's own side, else the player's name. */
function sideName(words, side) {
  return words.you === side ? "you" : words.names[side];
}

/** "yours" for the viewer's own side, else "NAME's". */
function sideOwn(words, side) {
  return words.you === side ? "yours" : `${words.names[side]}'s`;
}

function count(n, own) {
  return `${n} of ${own}`;
}

/** One point's checkers in words ("point 13: 5 of yours"), or "" when it is empty. */
function pointLine(words, entry) {
  const bottom = entry.bottom ? count(entry.bottom, sideOwn(words, "bottom")) : "";
  const top = entry.top ? count(entry.top, sideOwn(words, "top")) : "";
  if (!bottom && !top) return "";
  let text = [bottom, top].filter(Boolean).join(" and ");
  if (bottom && top && entry.under) {
    const over = entry.under === "bottom" ? "top" : "bottom";
    text = `${count(entry[over], sideOwn(words, over))}, pinning ${count(entry[entry.under], sideOwn(words, entry.under))}`;
  }
  return `point ${entry.point}: ${text}`;
}

function diceLine(words, dice, turn) {
  if (!dice.length) return "Dice: not rolled.";
  const values = dice.map((d) => d.value);
  const used = dice.filter((d) => d.used).map((d) => d.value);
  const left = used.length ? ` (used: ${used.join(", ")})` : "";
  const whose = turn ? `, ${sideOwn(words, turn)}` : "";
  return `Dice: ${values.join(" and ")}${whose}${left}.`;
}

function cubeLine(words, cube) {
  if (!cube) return "";
  let line = `Cube: ${cube.value}, `;
  line += cube.owner ? `owned by ${sideName(words, cube.owner)}` : "in the middle";
  if (cube.offered) line += `; ${sideName(words, cube.offeredBy)} offered it at ${cube.offered}`;
  return `${line}.`;
}

/**
 * The match in words for the viewer. `words`: {names: {bottom, top} (the players'
 * names), you: "bottom" or null (a spectator), score: {bottom, top}, length (0 for
 * money), crawford, turn: "bottom", "top" or null, points (view.pointsView), dice
 * (view.diceView), cube (view.cubeView or null), pips: {bottom, top}}.
 * Returns {lines, points}: sentences, and one line per point that holds a checker
 * (numbered from the bottom side's view, the viewer's own when playing).
 */
export function boardWords(words) {
  const both = (what) => `${sideName(words, "bottom")} ${what.bottom}, ${sideName(words, "top")} ${what.top}`;
  const kind = words.length ? `${words.length}-point match` : "money session";
  const lines = [`Score: ${both(words.score)} (${kind}${words.crawford ? ", Crawford game" : ""}).`];
  if (words.turn) lines.push(`Turn: ${sideOwn(words, words.turn)}.`);
  lines.push(diceLine(words, words.dice, words.turn));
  const cube = cubeLine(words, words.cube);
  if (cube) lines.push(cube);
  if (words.pips.bottom != null) lines.push(`Pips: ${both(words.pips)}.`);
  lines.push(`On the bar: ${both(words.points.bar)}.`);
  lines.push(`Borne off: ${both(words.points.off)}.`);
  const from = words.you ? "your side" : `${words.names.bottom}'s side`;
  lines.push(`Points are numbered from ${from}: ${sideName(words, "bottom")} move${words.you ? "" : "s"} from 24 down to 1, then off; empty points are left out.`);
  const points = words.points.points.map((entry) => pointLine(words, entry)).filter(Boolean);
  return { lines, points };
}

/**
 * The match in words (boardWords) for the viewer in `seat` (null: a spectator), from
 * the match's `state` and the state `drawn` on the board (the ended game's last one,
 * under its summary, or `state` itself), with the steps `chosen` so far of `plan`
 * (view.planner's; null when there is no play to make).
 */
export function matchWords(state, drawn, seat, chosen, plan) {
  const bottom = R.bottomSeat(seat);
  const side = (s) => (s === bottom ? "bottom" : "top");
  const view = M.boardView(drawn, seat, chosen, plan);
  const game = drawn.game;
  return boardWords({
    names: { bottom: state.players[bottom], top: state.players[1 - bottom] },
    you: seat === null ? null : "bottom",
    score: { bottom: state.score[bottom], top: state.score[1 - bottom] },
    length: state.settings.length,
    crawford: Boolean(state.game && state.game.crawford),
    turn: game.over || game.turn == null ? null : side(game.turn),
    points: B.pointsView(view),
    dice: M.diceView(drawn, plan, chosen),
    cube: M.cubeView(drawn, seat),
    pips: view.pips,
  });
}

/** A place's name in words: "point 13", "the bar", "off the board". */
export function placeName(place) {
  return PLACE_NAMES[place] ?? `point ${place}`;
}

/**
 * The board's accessible name while it has the keyboard's cursor: where the cursor
 * is, what stands there (from boardWords' result `words`) and what Enter does
 * (`selected`: the place a checker was picked up from, null when none is).
 */
export function cursorLabel(focus, selected, words) {
  const base = "the board (Tab to it, then the arrow keys and Enter move checkers)";
  if (focus === null || focus === undefined) return base;
  const line = words ? words.points.find((text) => text.startsWith(`point ${focus}:`)) : null;
  const there = line ? ` (${line.slice(line.indexOf(":") + 2)})` : "";
  if (selected === null || selected === undefined) return `the board: ${placeName(focus)}${there}; Enter picks up a checker`;
  if (focus === selected) return `the board: ${placeName(focus)}, where the checker was picked up; Enter puts it back`;
  if (focus === 0) return `the board: bear the checker off from ${placeName(selected)}; Enter bears it off`;
  return `the board: move the checker from ${placeName(selected)} to ${placeName(focus)}${there}; Enter puts it there`;
}

/** Write boardWords' result into the #board-words section (null: clear it). */
export function showBoardWords(section, result) {
  const [lines, points] = section.querySelectorAll("ul");
  const items = (texts) =>
    texts.map((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    });
  lines.replaceChildren(...items(result ? result.lines : []));
  points.replaceChildren(...items(result ? result.points : []));
}
