// Unit tests of chouetteview.js: `node --test src/backgammon/server/web/chouetteview.test.mjs`
// with CHOUETTE_STATES naming a JSON file of the server's session views
// (tests/server/test_web_chouetteview.py makes it and runs this from pytest).

import assert from "node:assert/strict";
import fs from "node:fs";
import { test } from "node:test";

import * as V from "./chouetteview.js";
import * as P from "./planner.js";

const FIXTURE = process.env.CHOUETTE_STATES;
const states = FIXTURE ? JSON.parse(fs.readFileSync(FIXTURE, "utf8")) : null;
const skip = states ? false : "CHOUETTE_STATES is not set";
const S = states ? states.scripted : {};

test("who throws the opening is said, to them as 'you'", { skip }, () => {
  assert.equal(V.statusLine(S.start, "ann"), "Opening throw: you or bob may press Opening throw.");
  assert.equal(V.statusLine(S.start, "cyd"), "Opening throw: ann (the box) or bob (the team) throws.");
  assert.equal(V.controlsOf(S.start, "bob").roll, "Opening throw");
  assert.equal(V.controlsOf(S.start, "cyd").roll, null);
  assert.equal(V.statusLine(S.opening, "bob"), "Opening throw: ann 3, you 1; ann plays first. ann to move 3-1.");
});

test("the box's play is reported, and who may double before the roll", { skip }, () => {
  assert.equal(V.statusLine(S.played, "bob"), "ann played 8/5 6/5. Your roll: roll, or double first. cyd may double first.");
  assert.equal(V.statusLine(S.played, "cyd"), "ann played 8/5 6/5. bob to roll. You may double before bob rolls.");
});

test("a pending double: said to the box, and in the cubes list", { skip }, () => {
  assert.equal(V.statusLine(S.doubled, "ann"), "bob doubles to 2: will you take or drop?");
  assert.equal(V.statusLine(S.doubled, "cyd"), "bob doubles to 2: waiting for ann to take or drop. You may double too.");
  const bob = S.doubled.cubes[0];
  assert.equal(V.cubeWords(S.doubled, bob, null), "bob's cube: 1, in the centre; bob doubles to 2: waiting for ann to take or drop");
  assert.equal(V.cubeWords(S.doubled, bob, "bob"), "Your cube: 1, in the centre; you double to 2: waiting for ann to take or drop");
  assert.deepEqual(V.controlsOf(S.doubled, "ann").answers, [{ member: "bob", doubler: "bob", to: 2 }]);
  assert.deepEqual(V.cubeModel(S.doubled, "bob"), { value: 1, owner: null, offered: 2, offeredBy: "bottom" });
});

test("takes and drops, in words", { skip }, () => {
  assert.equal(V.statusLine(S.taken, "ann"), "You took bob's double: bob's cube is at 2. bob to roll. cyd may double first.");
  assert.equal(V.cubeWords(S.taken, S.taken.cubes[0], "cyd"), "bob's cube: 2, held by ann");
  assert.equal(V.statusLine(S.dropped, "cyd"), "ann dropped your double: you are out of this game. bob to roll.");
});

test("a game's end is announced with each member's result, until the next game's play", { skip }, () => {
  const line = V.statusLine(S.ended, "cyd");
  assert.match(line, /^bob dropped ann's double: bob is out of this game\. Game 1 is over: /);
  assert.match(line, /your cube \(1\): you won 1 point on a drop; bob's cube \(2\): ann won 2 points on a drop\. Result: ann \+1, bob -2, you \+1\./);
  assert.match(V.statusLine(S["next opening"], null), /^Game 1 is over: .* Opening throw: ann 5, cyd 2; ann plays first\./);
});

test("the board in words names the game, the box and the team, from the viewer's side", { skip }, () => {
  const words = V.chouetteWords(S.start, "bob", {
    points: { points: [], bar: { bottom: 0, top: 0 }, off: { bottom: 0, top: 0 } },
    dice: [],
    cube: null,
    pips: { bottom: 167, top: 167 },
  });
  assert.equal(words.lines[0], "Game 1: ann in the box against the team of you, cyd (captain you).");
  assert.match(words.lines.at(-1), /^Points are numbered from your side/);
});

test("random sessions: every decision said to its maker, buttons for them alone, plays enterable", { skip }, () => {
  for (const session of states.random) {
    for (const me of [null, ...session.lineup]) {
      const line = V.statusLine(session, me);
      const deciding = me !== null && session.deciders.includes(me);
      if (deciding) assert.match(line, /\b(you|You|Your)\b/, `${me}: ${line}`);
      if (me === null) assert.doesNotMatch(line, /\b(you|You|Your)\b/, line);
      const controls = V.controlsOf(session, me);
      const mine = session.legal.filter((a) => a.player === me && a.kind !== "play");
      const buttons = [
        ...(controls.double ? [["double", controls.double.member]] : []),
        ...controls.boxDoubles.map((d) => ["double", d.member]),
        ...controls.answers.flatMap((a) => [["take", a.member], ["drop", a.member]]),
      ];
      assert.deepEqual(
        buttons.map(String).sort(),
        mine.map((a) => String([a.kind, a.member])).sort(),
        `${me}: ${JSON.stringify(session.legal)}`,
      );
      assert.equal(controls.roll !== null, me !== null && (session.roller === me || (session.on_roll === null && session.roller !== null && session.holder === me)));
    }
    if (!session.dice) continue;
    const seat = V.seatOf(session, session.on_roll);
    const plan = P.planner(V.boardState(session), seat);
    assert.ok(plan, "a plan for the mover");
    assert.equal(P.planner(V.boardState(session), 1 - seat), null);
    session.legal_plays.forEach((notation, index) => {
      let chosen = [];
      for (const [from, to] of session.legal_steps[index]) {
        const step = P.stepTo(plan, chosen, from, to);
        assert.ok(step, `${notation}: ${from}/${to} not offered`);
        chosen = [...chosen, step];
      }
      assert.equal(P.completedPlay(plan, chosen), notation);
    });
  }
});
