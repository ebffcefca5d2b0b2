// Moves drawn as moves: the board is always redrawn at once (from a new state or the
// chosen steps); then the checkers that moved start where they stood before and slide
// to their new places (a Web Animations transform, about 200 ms), so nothing flickers
// and the board is right from the first frame. Which checkers moved, and from where,
// is boardmodel.js's moveTransitions (pure); this module only runs the animations.
// Nothing slides with prefers-reduced-motion, after a drag (the checker is already
// there) or from one game (or match, or seat) to another.

import { moveTransitions } from "./boardmodel.js";

const DURATION = 200; // ms
const motion = { last: null, skip: false };

function reducedMotion() {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Draw the next change without sliding (a checker dropped where it was dragged). */
export function skipNextAnimation() {
  motion.skip = true;
}

/**
 * The board in `svg` was just redrawn with `spots` (view.checkerSpots) in `context`
 * (a string naming the match, game and seat at the bottom): slide the checkers that
 * moved since the last board of the same context. Returns how many checkers moved
 * (0 when nothing did, or the boards are not comparable), for the move sound.
 */
export function animateBoard(svg, spots, context) {
  const before = motion.last && motion.last.context === context ? motion.last.spots : null;
  motion.last = { context, spots };
  const skip = motion.skip;
  motion.skip = false;
  const { moves, items } = moveTransitions(before, spots);
  if (!items.length || skip || reducedMotion()) return moves;
  for (const item of items) {
    const node = svg.querySelector(`[data-key="${item.key}"]`);
    if (!node || typeof node.animate !== "function") continue;
    node.animate(
      [{ transform: `translate(${item.dx}px, ${item.dy}px)` }, { transform: "translate(0px, 0px)" }],
      { duration: DURATION, easing: "ease-out" },
    );
  }
  return moves;
}
