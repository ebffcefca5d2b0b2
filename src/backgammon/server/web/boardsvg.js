// The board in its <svg> on the pages that play on it (the match, the chouette): on a
// phone it is turned a quarter (board.js's boardFrame), so that every point is a
// finger wide (32 px on a 375-px screen) and its number legible; there the bar is too
// narrow to tap, so a checker on the bar is picked up by itself (style.css takes the
// pointer off the turned bar). Turning the phone redraws the board. A phone's screen
// holds the turned board with what is said and done around it, but not the header
// too: when a board first shows, the page scrolls to it.

import { boardFrame } from "./board.js";
import { sources } from "./planner.js";

/** A phone's width (style.css's own breakpoint): the board is turned there. */
export const NARROW = window.matchMedia("(max-width: 40rem)");

/** Draw boardMarkup's `model` in `svg`, turned a quarter on a narrow screen. */
export function drawBoard(svg, model) {
  const turned = NARROW.matches;
  const { viewBox, markup } = boardFrame(model, turned);
  svg.setAttribute("viewBox", viewBox);
  svg.classList.toggle("turned", turned);
  svg.classList.toggle("still", model.movable.size === 0); // nothing to drag: a swipe scrolls
  svg.innerHTML = markup;
}

/**
 * The checker picked up: `selected`, or on a turned board with nothing picked up and
 * only the bar to move from (planner.js's plan and the steps chosen), the bar (25).
 */
export function pickUpFromTheBar(plan, chosen, selected) {
  if (!plan || selected !== null || !NARROW.matches) return selected;
  const from = sources(plan, chosen);
  return from.length === 1 && from[0] === 25 ? 25 : selected;
}

/** Call `render` when the screen crosses the phone's width (the board turns). */
export function onTurn(render) {
  NARROW.addEventListener("change", render);
}

/** On a phone, scroll the page so that `element` (the board with its status line and
 *  buttons) starts at the top of the screen. */
export function scrollToBoard(element) {
  if (NARROW.matches) element.scrollIntoView({ block: "start" });
}
