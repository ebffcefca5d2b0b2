// Unit tests of share.js: `node --test src/backgammon/server/web/share.test.mjs`
// (tests/server/test_web_prefsview.py runs it from pytest).

import assert from "node:assert/strict";
import { test } from "node:test";

import * as S from "./share.js";

const XGID = "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:2:3:0:7:10";

test("a position link reopens its position, dice and lookahead", () => {
  for (const asked of [
    { position: XGID, dice: "", ply: "0" },
    { position: "4HPwATDgc/ABMA", dice: "3-1", ply: "2" },
    { position: "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0", dice: "none", ply: "1" },
  ]) {
    const link = S.positionLink("http://example.org", asked);
    assert.ok(link.startsWith("http://example.org/#/position?p="), link);
    assert.deepEqual(S.parsePositionLink(link.slice(link.indexOf("#"))), { share: asked });
  }
  assert.deepEqual(S.parsePositionLink("#/position"), { share: null });
  assert.equal(S.parsePositionLink("#/review/abc"), null);
});

test("a malformed position link says what is wrong", () => {
  assert.match(S.parsePositionLink("#/position?").error, /no position/);
  assert.match(S.parsePositionLink("#/position?dice=3-1").error, /no position/);
  assert.match(S.parsePositionLink(`#/position?p=${"A".repeat(401)}`).error, /too long \(401 characters; at most 400\)/);
  assert.match(S.parsePositionLink(`#/position?p=${"A".repeat(3000)}`).error, /link is too long/);
  assert.match(S.parsePositionLink("#/position?p=4HPwATDgc%2FABMA&ply=9").error, /ply=/);
  assert.match(S.parsePositionLink("#/position?p=4HPwATDgc%2FABMA&dice=%3Cb%3E").error, /dice/);
});

test("a review link", () => {
  assert.equal(S.reviewLink("https://bg.example", "Ab_9-x"), "https://bg.example/#/review/Ab_9-x");
});
