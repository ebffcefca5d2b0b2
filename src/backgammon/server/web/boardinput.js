// Moving checkers on a drawn board with the pointer: click a checker that may move,
// then where it goes; or drag it there (mouse, pen or touch). The steps offered are
// planner.js's; what a page does with a step is its own (`hooks`). The match page and
// the chouette page use it.

import { dragMarkup } from "./board.js";
import { placeAt } from "./boardmodel.js";
import { sources, stepTo } from "./planner.js";
import { skipNextAnimation } from "./motion.js";

/** The board place (boardmodel.js's placeAt) under a pointer event, in the board's units. */
function boardPoint(svg, event) {
  const frame = svg.querySelector("[data-board]") || svg; // a rotated board draws in a group
  const matrix = frame.getScreenCTM();
  if (!matrix) return null;
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  return { x: point.x, y: point.y, place: placeAt(point.x, point.y) };
}

/**
 * Listen to the pointer on `svg`. `hooks`: plan() (planner's plan, or null when the
 * viewer has nothing to move), chosen() (the steps so far), selected() / select(place)
 * (the checker picked up), step(step) (make a step), render() (redraw), seat() (the
 * colour of the dragged checker: 0 or 1). Returns clickPlace(place), for the keys.
 */
export function bindBoardInput(svg, hooks) {
  let press = null;
  const movable = () => {
    const plan = hooks.plan();
    return plan ? sources(plan, hooks.chosen()) : [];
  };
  const endDrag = () => {
    press = null;
    svg.querySelector("#drag-checker")?.remove();
  };
  const clickPlace = (place) => {
    const plan = hooks.plan();
    if (place === null || !plan) return;
    const selected = hooks.selected();
    const step = selected === null ? null : stepTo(plan, hooks.chosen(), selected, place);
    if (step) return hooks.step(step);
    hooks.select(movable().includes(place) && selected !== place ? place : null);
    hooks.render();
  };
  svg.addEventListener("pointerdown", (event) => {
    if (!hooks.plan() || event.button !== 0) return;
    const at = boardPoint(svg, event);
    if (!at) return;
    press = { place: at.place, x: event.clientX, y: event.clientY, dragging: false, id: event.pointerId };
    if (at.place !== null && movable().includes(at.place)) svg.setPointerCapture(event.pointerId);
  });
  svg.addEventListener("pointermove", (event) => {
    if (!press || press.id !== event.pointerId || !hooks.plan()) return;
    const far = Math.hypot(event.clientX - press.x, event.clientY - press.y) > 6;
    if (!press.dragging && far && movable().includes(press.place)) {
      press.dragging = true;
      hooks.select(press.place);
      hooks.render();
    }
    if (!press.dragging) return;
    const at = boardPoint(svg, event);
    if (!at) return;
    svg.querySelector("#drag-checker")?.remove();
    const group = document.createElementNS("http://www.w3.org/2000/svg", "g");
    group.id = "drag-checker";
    group.innerHTML = dragMarkup(hooks.seat(), at.x, at.y);
    (svg.querySelector("[data-board]") || svg).append(group);
  });
  svg.addEventListener("pointerup", (event) => {
    if (!press || press.id !== event.pointerId) return;
    const was = press;
    const at = boardPoint(svg, event);
    endDrag();
    const plan = hooks.plan();
    if (!plan || !at) return;
    if (!was.dragging) return clickPlace(at.place);
    const step = stepTo(plan, hooks.chosen(), was.place, at.place);
    if (!step) return hooks.render();
    skipNextAnimation();
    hooks.step(step);
  });
  svg.addEventListener("pointercancel", endDrag);
  return clickPlace;
}
