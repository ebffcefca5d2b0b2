// The player's own preferences, kept in this browser (localStorage, no account
// needed): the board's theme, light or dark (the system's choice unless one is made),
// auto-roll and automatic forced plays. They go on <html> as data-theme and data-mode,
// which style.css turns into colours through custom properties; app.js asks
// autoAction() what to do by itself in a match.

export const STORAGE_KEY = "backgammon.prefs";

/** The board themes, by the name stored, with what the settings call them. */
export const THEMES = Object.freeze({ felt: "Green felt", wood: "Classic wood", contrast: "High contrast" });

/** Light or dark: "system" follows prefers-color-scheme. */
export const MODES = Object.freeze({ system: "As the system", light: "Light", dark: "Dark" });

/** The defaults. autoRoll: roll at once where the player could double (the player
 *  won't; where the cube can't be used the server rolls by itself); autoForced: make a
 *  forced play without a click (a turn with no legal move always passes by itself). */
export const DEFAULTS = Object.freeze({ theme: "felt", mode: "system", autoRoll: false, autoForced: false });

/** Stored preferences made whole and valid: anything unknown or missing (a hand-edited
 *  or older store, not JSON at all) takes the default. */
export function normalPrefs(stored) {
  let raw = stored;
  if (typeof raw === "string") {
    try {
      raw = JSON.parse(raw);
    } catch {
      raw = null;
    }
  }
  const given = raw && typeof raw === "object" ? raw : {};
  const pick = (key, allowed) => (Object.hasOwn(allowed, given[key]) ? given[key] : DEFAULTS[key]);
  const flag = (key) => (typeof given[key] === "boolean" ? given[key] : DEFAULTS[key]);
  return { theme: pick("theme", THEMES), mode: pick("mode", MODES), autoRoll: flag("autoRoll"), autoForced: flag("autoForced") };
}

export function loadPrefs(storage = globalThis.localStorage) {
  try {
    return normalPrefs(storage.getItem(STORAGE_KEY));
  } catch {
    return { ...DEFAULTS }; // storage refused (a private window's quota)
  }
}

export function savePrefs(prefs, storage = globalThis.localStorage) {
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(normalPrefs(prefs)));
  } catch {
    // not kept past this page: nothing else to do
  }
}

/** "dark" or "light": the mode chosen, or the system's when "system". */
export function effectiveMode(prefs, systemDark) {
  return prefs.mode === "system" ? (systemDark ? "dark" : "light") : prefs.mode;
}

/**
 * What to do in a match without a click, or null: {kind: "roll"} when auto-roll
 * allows it, {kind: "play", move} for a forced play when chosen. `allowed` is
 * view.controls(); `forced` view.forcedPlay() (null: none).
 */
export function autoAction(prefs, allowed, forced) {
  if (allowed.roll) return prefs.autoRoll ? { kind: "roll" } : null;
  if (prefs.autoForced && allowed.play && forced) return { kind: "play", move: forced };
  return null;
}

// -- the page ----------------------------------------------------------------------------

const darkQuery = () => globalThis.matchMedia?.("(prefers-color-scheme: dark)");

/** Put the preferences on <html> (data-theme, data-mode, data-mode-choice). */
export function applyPrefs(prefs = loadPrefs()) {
  const root = document.documentElement;
  root.dataset.theme = prefs.theme;
  root.dataset.modeChoice = prefs.mode;
  root.dataset.mode = effectiveMode(prefs, Boolean(darkQuery()?.matches));
}

function fillSelect(select, options, value) {
  select.replaceChildren(
    ...Object.entries(options).map(([key, label]) => {
      const option = document.createElement("option");
      option.value = key;
      option.textContent = label;
      return option;
    }),
  );
  select.value = value;
}

/** Wire the settings panel (#prefs): each change is kept and applied at once; the
 *  system's light or dark and other tabs' changes are followed. */
export function bindPrefs() {
  const prefs = loadPrefs();
  const theme = document.querySelector("#prefs-theme");
  const mode = document.querySelector("#prefs-mode");
  const autoRoll = document.querySelector("#prefs-auto-roll");
  const autoForced = document.querySelector("#prefs-auto-forced");
  const show = (current) => {
    fillSelect(theme, THEMES, current.theme);
    fillSelect(mode, MODES, current.mode);
    autoRoll.checked = current.autoRoll;
    autoForced.checked = current.autoForced;
  };
  show(prefs);
  applyPrefs(prefs);
  const changed = () => {
    const chosen = { theme: theme.value, mode: mode.value, autoRoll: autoRoll.checked, autoForced: autoForced.checked };
    savePrefs(chosen);
    applyPrefs(normalPrefs(chosen));
  };
  for (const control of [theme, mode, autoRoll, autoForced]) control.addEventListener("change", changed);
  const panel = document.querySelector("#prefs");
  document.addEventListener("click", (event) => {
    if (panel.open && !panel.contains(event.target)) panel.open = false; // a click elsewhere closes it
  });
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && panel.open) {
      panel.open = false;
      panel.querySelector("summary").focus();
    }
  });
  darkQuery()?.addEventListener?.("change", () => applyPrefs());
  window.addEventListener("storage", (event) => {
    if (event.key !== STORAGE_KEY) return;
    const current = loadPrefs();
    show(current);
    applyPrefs(current);
  });
}
