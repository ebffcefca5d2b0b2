// Unit tests of clocks.js: `node --test src/backgammon/server/web/clocks.test.mjs`
// (tests/server/test_web_prefsview.py runs it from pytest).

import assert from "node:assert/strict";
import { test } from "node:test";

import * as C from "./clocks.js";

test("each preset gives the server's clock settings, untimed none", () => {
  assert.deepEqual(C.clockChoice("blitz"), { clock: { delay: 5, reserve_per_point: 30, money_reserve: 300 } });
  assert.deepEqual(C.clockChoice("normal"), { clock: { delay: 12, reserve_per_point: 60, money_reserve: 600 } });
  assert.deepEqual(C.clockChoice("slow").clock.reserve_per_point, 180);
  assert.deepEqual(C.clockChoice("none"), { clock: null });
  assert.match(C.clockChoice("toString").error, /no preset/);
});

test("a custom clock is checked field by field", () => {
  assert.deepEqual(C.clockChoice("custom", { delay: "8", reserve_per_point: "45" }), {
    clock: { delay: 8, reserve_per_point: 45, money_reserve: 450 },
  });
  assert.match(C.clockChoice("custom", { delay: "", reserve_per_point: "45" }).error, /delay/);
  assert.match(C.clockChoice("custom", { delay: "8", reserve_per_point: "-1" }).error, /reserve a point/);
  assert.match(C.clockChoice("custom", { delay: "601", reserve_per_point: "45" }).error, /delay.*0 to 600/);
  assert.match(C.clockChoice("custom", { delay: "1e9", reserve_per_point: "x" }).error, /delay/);
});

test("a clock's name: a preset's, custom with its figures, untimed", () => {
  assert.equal(C.clockName(null), "untimed");
  assert.equal(C.clockName(C.CLOCK_PRESETS.blitz), "blitz");
  assert.equal(C.clockName({ delay: 12 }), "normal"); // the server's defaults fill the rest
  assert.equal(C.clockName({ delay: 30, reserve_per_point: 180, money_reserve: 1800 }), "slow");
  assert.equal(C.clockName({ delay: 8, reserve_per_point: 45 }), "custom (8 s + 45 s a point)");
  assert.equal(C.clockLabel({ delay: 8, reserve_per_point: 45 }), "custom clock (8 s + 45 s a point)");
  assert.equal(C.clockLabel(C.CLOCK_PRESETS.slow), "slow clock");
  assert.equal(C.clockLabel(null), "untimed");
});
