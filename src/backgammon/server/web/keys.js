// Keyboard play on the match page (the help is in index.html, #key-help):
//   r roll, d double, Enter done, u or Backspace undo, ? the keys' help;
//   on the board (Tab to it): the arrow keys go through the places a checker may be
//   picked up from, or, with one picked up, through where it may go (then back to
//   where it was); Enter or Space picks it up or puts it down; Escape puts it back.
// Keys are ignored while typing in a text field and with Ctrl, Alt or Meta. The
// cursor is drawn by board.js (model.focus) while the board has the keyboard's focus.

import { cyclePlace } from "./planner.js";

const cursor = { place: null, focused: false, keyboard: false };

function typing(target) {
  if (!(target instanceof Element)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

function press(name) {
  const button = document.getElementById(`do-${name}`);
  if (!button || button.hidden || button.disabled) return false;
  button.click();
  return true;
}

/**
 * The place the keyboard's cursor is on, given the places it may be on now
 * (view.keyPlaces), or null when the board does not have the keyboard's focus.
 */
export function keyFocus(places) {
  if (!cursor.focused || !cursor.keyboard) return null;
  if (!places.includes(cursor.place)) cursor.place = places.length ? places[0] : null;
  return cursor.place;
}

/**
 * Listen to the keyboard. `hooks`: board (the <svg>), active() (the match view is
 * shown), places() (view.keyPlaces now), activate(place) (as a click on the place),
 * render() (redraw the match view), help (the <details> of the keys' help).
 */
export function bindKeys({ board, active, places, activate, render, help }) {
  board.setAttribute("tabindex", "0");
  board.setAttribute("aria-keyshortcuts", "ArrowLeft ArrowRight Enter Space Escape");
  board.addEventListener("focus", () => {
    cursor.focused = true;
    if (cursor.keyboard) render();
  });
  board.addEventListener("blur", () => {
    cursor.focused = false;
    if (cursor.keyboard) render();
  });
  board.addEventListener("pointerdown", () => {
    cursor.keyboard = false;
  });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    cursor.keyboard = true;
    if (!active()) return;
    const key = event.key;
    const onBoard = event.target === board;
    let handled = false;
    if (onBoard && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(key)) {
      const now = places();
      const step = key === "ArrowRight" || key === "ArrowDown" ? 1 : -1;
      cursor.place = cyclePlace(now, keyFocus(now), step);
      render();
      handled = true;
    } else if (onBoard && (key === "Enter" || key === " ")) {
      const place = keyFocus(places());
      if (place !== null) {
        cursor.place = null; // the next places' first: the first destination, or source
        activate(place);
      } else if (key === "Enter") {
        press("done");
      }
      handled = true;
    } else if ((key === "Enter" || key === " ") && event.target instanceof Element && event.target.closest("button, a, summary")) {
      return; // Enter and Space on a button or link do what they do
    } else if (key === "Enter") {
      handled = press("done");
    } else if (key === "r" || key === "R") {
      handled = press("roll");
    } else if (key === "d" || key === "D") {
      handled = press("double");
    } else if (key === "u" || key === "U" || key === "Backspace") {
      handled = press("undo");
    } else if (key === "?") {
      if (help) help.open = !help.open;
      handled = true;
    }
    if (handled) event.preventDefault();
  });
}
