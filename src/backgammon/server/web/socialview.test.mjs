// Unit tests of socialview.js: `node --test src/backgammon/server/web/socialview.test.mjs`
// (tests/server/test_web_socialview.py runs it from pytest).

import assert from "node:assert/strict";
import { test } from "node:test";

import * as S from "./socialview.js";

test("a rating goes after each rated name, as a whole word only", () => {
  const ratings = new Map([["al", 1523.4], ["bob", 1490]]);
  assert.deepEqual(S.splitAtNames("al invites you: 3-point", ["al"], ratings), [
    "al", { name: "al", rating: 1523.4 }, " invites you: 3-point",
  ]);
  // "al" inside "alice" or "rival" is not the name.
  assert.deepEqual(S.splitAtNames("rival al", ["al"], ratings), ["rival al", { name: "al", rating: 1523.4 }]);
  assert.deepEqual(S.splitAtNames("al – bob: money", ["al", "bob"], ratings), [
    "al", { name: "al", rating: 1523.4 }, " – bob", { name: "bob", rating: 1490 }, ": money",
  ]);
  // Guests are unrated: their names stay plain text.
  assert.deepEqual(S.splitAtNames("guest_12 invites you", ["guest_12"], ratings), ["guest_12 invites you"]);
  assert.deepEqual(S.splitAtNames("You invited bob: 1-point", [null, "bob"], ratings), [
    "You invited bob", { name: "bob", rating: 1490 }, ": 1-point",
  ]);
  assert.equal(S.ratingText(1523.6), "(1524)");
});

test("threads keep the last lines and count the unread ones", () => {
  const threads = new S.Threads();
  threads.add("bob", { from: "bob", text: "hi" }, true);
  threads.add("bob", { from: "me", text: "hello" });
  assert.equal(threads.label("bob"), "bob (1)");
  threads.read("bob");
  assert.equal(threads.label("bob"), "bob");
  for (let i = 0; i < S.MAX_LINES + 5; i += 1) threads.add("carol", { from: "carol", text: String(i) }, true);
  const carol = threads.open("carol");
  assert.equal(carol.lines.length, S.MAX_LINES);
  assert.equal(carol.lines[0].text, "5");
  assert.equal(carol.unread, S.MAX_LINES + 5);
  assert.deepEqual(threads.names(), ["bob", "carol"]);
});

test("the title badge counts unseen invitations and clears", () => {
  assert.equal(S.badgeTitle("Backgammon", 1), "(1) Backgammon");
  assert.equal(S.badgeTitle("(1) Backgammon", 3), "(3) Backgammon");
  assert.equal(S.badgeTitle("(3) Backgammon", 0), "Backgammon");
  assert.equal(S.invitationNotice({ from: "bob", settings: { length: 3 } }), "bob invites you to a 3-point match.");
  assert.equal(S.invitationNotice({ from: "bob", settings: { length: 0 } }), "bob invites you to a match.");
});
