// Unit tests of lobbyview.js: `node --test src/backgammon/server/web/lobbyview.test.mjs`
// (tests/server/test_web_lobbyview.py runs it from pytest).

import assert from "node:assert/strict";
import { test } from "node:test";

import * as L from "./lobbyview.js";

const SETTINGS = { variant: "standard", length: 3, clock: { delay: 12 } };

function summary(fields = {}) {
  return { id: "m1", players: ["alice", null], invitee: null, rated: false, settings: SETTINGS, ...fields };
}

test("settings in a few words", () => {
  assert.equal(L.describeSettings(SETTINGS), "3-point, normal clock");
  assert.equal(L.describeSettings({ variant: "nackgammon", length: 0, clock: null }), "money nackgammon, untimed");
});

test("an invitation, one's own invitation, a match by link and an open match", () => {
  const invitation = summary({ invitee: "bob", rated: true });
  assert.equal(L.describeInvitation(invitation), "alice invites you: 3-point, normal clock, rated");
  assert.equal(L.describeSent(invitation), "You invited bob: 3-point, normal clock, rated");
  assert.equal(L.takeBackLabel(invitation), "Cancel");
  assert.equal(L.describeSent(summary()), "Your match by link: 3-point, normal clock");
  assert.equal(L.takeBackLabel(summary()), "Withdraw");
  assert.equal(L.describeOpenMatch(summary()), "alice: 3-point, normal clock");
});

test("the sentence for a declined, cancelled or withdrawn match, for each reader", () => {
  const declined = { type: "match_closed", match: "m1", reason: "declined", by: "bob", host: "alice", invitee: "bob" };
  assert.equal(L.closedSentence(declined, "alice"), "bob declined your invitation.");
  assert.equal(L.closedSentence(declined, "bob"), "You declined alice's invitation.");
  assert.equal(L.closedSentence(declined, "carol"), "bob declined alice's invitation.");
  const cancelled = { ...declined, reason: "cancelled", by: "alice" };
  assert.equal(L.closedSentence(cancelled, "alice"), "You cancelled your invitation to bob.");
  assert.equal(L.closedSentence(cancelled, "bob"), "alice cancelled the invitation.");
  assert.equal(L.closedSentence(cancelled, "carol"), "alice cancelled the invitation to bob.");
  const withdrawn = { ...declined, reason: "withdrawn", by: "alice", invitee: null };
  assert.equal(L.closedSentence(withdrawn, "alice"), "You withdrew your match.");
  assert.equal(L.closedSentence(withdrawn, "carol"), "alice withdrew the match.");
});
