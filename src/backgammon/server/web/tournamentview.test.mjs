// Unit tests of tournamentview.js: `node --test src/backgammon/server/web/tournamentview.test.mjs`
// (tests/server/test_web_tournamentview.py runs it from pytest).

import assert from "node:assert/strict";
import { test } from "node:test";

import * as T from "./tournamentview.js";

function view(fields = {}) {
  return {
    status: "running",
    format: "swiss",
    settings: { rounds: 3, early_length: 3, max_players: 6 },
    players: [{ name: "ann" }, { name: "bob" }],
    standings: [],
    rounds: [],
    round_in_play: 1,
    ends_at: null,
    starts_at: null,
    ...fields,
  };
}

test("each tie-break is a column, in the server's order", () => {
  const standings = [
    { name: "ann", points: 2, tiebreaks: { buchholz: 3, median_buchholz: 1 } },
    { name: "bob", points: 1, tiebreaks: { buchholz: 2, median_buchholz: 0, seed: 2 } },
  ];
  assert.deepEqual(T.tiebreakColumns(standings), ["buchholz", "median_buchholz", "seed"]);
  assert.equal(T.tiebreakTitle("sonneborn_berger"), "Sonneborn-Berger");
  assert.equal(T.tiebreakTitle("games_won"), "games won");
});

test("the status line: format, length, round, what comes next, players", () => {
  assert.equal(
    T.statusText(view()),
    "Swiss, 3-point matches; running, round 1; round 2 starts as soon as this one's last match ends; 2 of 6 players.",
  );
  assert.match(T.statusText(view({ round_in_play: 3 })), /the last round/);
  assert.match(T.statusText(view({ settings: { rounds: 3, paused: true } })), /paused by the organiser/);
  assert.match(T.statusText(view({ status: "open", round_in_play: null })), /starts when the organiser starts it/);
  const full = view({ status: "open", round_in_play: null, settings: { start_when_full: true } });
  assert.match(T.statusText(full), /starts when full/);
});

test("the winner of a finished event only", () => {
  const standings = [{ name: "cai", points: 3, tiebreaks: {} }];
  assert.equal(T.winner(view({ standings })), null);
  assert.equal(T.winner(view({ status: "finished", standings })), "cai");
  assert.equal(T.winner(view({ status: "finished", standings: [] })), null);
});

test("pairings and one's own match in play", () => {
  const playing = { players: ["ann", "bob"], winner: null, match: "m1" };
  const over = { players: ["cai", "dee"], winner: "dee", match: "m2" };
  assert.equal(T.pairingText(playing), "ann – bob: playing");
  assert.equal(T.pairingText(over), "cai – dee: dee won");
  assert.equal(T.pairingText({ ...over, score: [1, 3] }), "cai – dee: 1–3, dee won");
  assert.equal(T.pairingText({ players: ["eve", null], winner: "eve", match: null }), "eve: bye");
  const rounds = [{ number: 1, pairings: [over, playing] }];
  assert.equal(T.ownMatch(view({ rounds }), "bob"), "m1");
  assert.equal(T.ownMatch(view({ rounds }), "dee"), null, "a finished match is not to be played");
  assert.equal(T.ownMatch(view({ rounds }), null), null);
  assert.equal(T.ownMatch(view({ rounds: [], games: [playing] }), "ann"), "m1");
});

function form(fields = {}) {
  return {
    name: " Club night ",
    format: "swiss",
    rounds: "3",
    minutes: "60",
    length: "5",
    max_players: "6",
    reserve: "120",
    delay: "12",
    rated: true,
    start: "organiser",
    starts_at: "",
    bots: "2",
    bot_level: "expert",
    ...fields,
  };
}

test("the creation form's body and bots", () => {
  const { body, bots } = T.creation(form());
  assert.deepEqual(body, {
    name: "Club night",
    format: "swiss",
    max_players: 6,
    early_length: 5,
    semi_final_length: 5,
    final_length: 5,
    rated: true,
    clock: { delay_seconds: 12, reserve_per_point_seconds: 120 },
    rounds: 3,
  });
  assert.deepEqual(bots, { level: "expert", count: 2 });
  assert.equal(T.creation(form({ format: "knockout" })).body.rounds, undefined);
  assert.equal(T.creation(form({ start: "full" })).body.start_when_full, true);
  assert.equal(T.creation(form()).body.start_when_full, undefined);
  assert.equal(T.creation(form({ format: "arena", minutes: "30" })).body.duration_seconds, 1800);
  const later = new Date(Date.now() + 3_600_000);
  const local = new Date(later.getTime() - later.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  const at = T.creation(form({ start: "at", starts_at: local })).body.starts_at;
  assert.ok(Math.abs(at - later.getTime() / 1000) < 60, at);
});

test("a wrong field is named before anything is sent", () => {
  assert.throws(() => T.creation(form({ name: "  " })), /^Error: name:/);
  assert.throws(() => T.creation(form({ length: "0" })), /^Error: match length: a whole number from 1 to 25/);
  assert.throws(() => T.creation(form({ rounds: "2.5" })), /^Error: rounds:/);
  assert.throws(() => T.creation(form({ max_players: "999" })), /^Error: players:/);
  assert.throws(() => T.creation(form({ bots: "6" })), /^Error: bots: fewer than the players/);
  assert.throws(() => T.creation(form({ start: "at", starts_at: "" })), /^Error: start: choose/);
  assert.throws(() => T.creation(form({ start: "at", starts_at: "2001-01-01T10:00" })), /^Error: start: a time to come/);
  assert.throws(() => T.creation(form({ format: "ladder" })), /^Error: format:/);
});

test("players who withdrew are named so", () => {
  const running = view({ settings: { withdrawn: ["bob"] } });
  assert.deepEqual(T.withdrawn(running), ["bob"]);
  assert.equal(T.playerLabel({ name: "bob" }, running), "bob (withdrawn)");
  assert.equal(T.playerLabel({ name: "ann" }, running), "ann");
  assert.equal(T.playerLabel({ name: "bot_beginner_1", bot: true }, running), "bot_beginner_1 (bot)");
  assert.deepEqual(T.withdrawn(view()), []);
});
