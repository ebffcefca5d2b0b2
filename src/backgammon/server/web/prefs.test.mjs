// Unit tests of prefs.js: `node --test src/backgammon/server/web/prefs.test.mjs`
// (tests/server/test_web_prefsview.py runs it from pytest).

import assert from "node:assert/strict";
import { test } from "node:test";

import * as P from "./prefs.js";

class MemoryStorage {
  constructor(items = {}) {
    this.items = { ...items };
  }
  getItem(key) {
    return Object.hasOwn(this.items, key) ? this.items[key] : null;
  }
  setItem(key, value) {
    this.items[key] = String(value);
  }
}

test("stored preferences are made whole and valid", () => {
  assert.deepEqual(P.normalPrefs(null), P.DEFAULTS);
  assert.deepEqual(P.normalPrefs("not json {"), P.DEFAULTS);
  assert.deepEqual(P.normalPrefs('{"theme": "wood", "mode": "dark"}'), { ...P.DEFAULTS, theme: "wood", mode: "dark" });
  const hostile = { theme: "<img src=x>", mode: "toString", autoRoll: "__proto__", autoForced: "yes" };
  assert.deepEqual(P.normalPrefs('["felt"]'), P.DEFAULTS);
  assert.deepEqual(P.normalPrefs(hostile), P.DEFAULTS);
});

test("preferences are kept in storage and read back", () => {
  const storage = new MemoryStorage();
  assert.deepEqual(P.loadPrefs(storage), P.DEFAULTS);
  P.savePrefs({ theme: "contrast", mode: "light", autoRoll: true, autoForced: true }, storage);
  assert.deepEqual(P.loadPrefs(storage), { theme: "contrast", mode: "light", autoRoll: true, autoForced: true });
  const refusing = { getItem: () => { throw new Error("denied"); }, setItem: () => { throw new Error("full"); } };
  assert.deepEqual(P.loadPrefs(refusing), P.DEFAULTS);
  P.savePrefs(P.DEFAULTS, refusing); // no throw
});

test("the system's light or dark is followed unless one is chosen", () => {
  assert.equal(P.effectiveMode({ mode: "system" }, true), "dark");
  assert.equal(P.effectiveMode({ mode: "system" }, false), "light");
  assert.equal(P.effectiveMode({ mode: "light" }, true), "light");
  assert.equal(P.effectiveMode({ mode: "dark" }, false), "dark");
});

test("auto-roll and automatic forced plays act only where chosen and allowed", () => {
  const prefs = (fields) => ({ ...P.DEFAULTS, ...fields });
  const rollOrDouble = { roll: true, double: true };
  assert.equal(P.autoAction(prefs({}), rollOrDouble, null), null);
  assert.deepEqual(P.autoAction(prefs({ autoRoll: true }), rollOrDouble, null), { kind: "roll" });
  assert.equal(P.autoAction(prefs({ autoRoll: true }), { take: true, drop: true }, null), null);
  const forced = { play: true };
  assert.equal(P.autoAction(prefs({}), forced, "24/18"), null);
  assert.deepEqual(P.autoAction(prefs({ autoForced: true }), forced, "24/18"), { kind: "play", move: "24/18" });
  assert.equal(P.autoAction(prefs({ autoForced: true }), forced, null), null);
});
