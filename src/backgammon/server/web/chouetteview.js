// The chouette table's view (pure functions, no DOM): whose side the viewer sees the
// board from, the session as the match page's board modules take it (planner.js,
// matchview.js), and every sentence of the page: the cubes, whose decision it is and
// what just happened (the live status line), a game's end, the buttons' labels, and
// the board in words. `session` is the server's session view (docs/server.md,
// "Chouette tables"); `me` the viewer's name (null: not logged in). Unit-tested by
// chouetteview.test.mjs.

import { boardWords } from "./boardwords.js";

/** The viewer's side: 0 the box, 1 a team member, null a spectator (drawn as the box). */
export function seatOf(session, me) {
  if (!session || me == null) return null;
  if (session.box === me) return 0;
  return session.lineup.slice(1).includes(me) ? 1 : null;
}

/** The side (0 the box, 1 the team) of player `name`, or null before the opening. */
function sideOf(session, name) {
  if (name == null) return null;
  return name === session.box ? 0 : 1;
}

/**
 * The session as a match state for the board modules: seat 0 the box, seat 1 the team,
 * each side's checkers in its own numbering; the mover's legal plays and steps (so
 * that planner() offers single steps, and only to the mover).
 */
export function boardState(session) {
  const turn = sideOf(session, session.on_roll);
  return {
    settings: { variant: "standard" },
    players: [session.box, session.holder],
    game: {
      board: { player0: session.board.player, player1: session.board.opponent, pips: session.pips, slots: "" },
      dice: session.dice,
      turn,
      pending: null,
      legal_plays: session.legal_plays,
      legal_steps: session.legal_steps,
      to_move: session.to_move,
    },
    waiting_for: session.dice ? turn : null,
  };
}

/** Whether the viewer moves the checkers now (the dice are theirs). */
export function mayMove(session, me) {
  return me != null && session.dice !== null && session.on_roll === me;
}

/** "you" for the viewer, else the name. */
function who(name, me) {
  return name === me ? "you" : name;
}

/** "Ann" for a sentence's start ("You" for the viewer). */
function Who(name, me) {
  return name === me ? "You" : name;
}

/** "your" for the viewer, else "NAME's". */
function whose(name, me) {
  return name === me ? "your" : `${name}'s`;
}

function cubeOf(session, member) {
  return session.cubes.find((cube) => cube.member === member) || null;
}

/** The value a waiting double turns the cube to. */
function offerValue(session, offer) {
  const member = offer.member ?? session.holder;
  const cube = cubeOf(session, member) || session.cubes[0];
  return cube.value * 2;
}

/** Who answers a double: the box a member's, the member the box's. */
export function answerer(session, offer) {
  return offer.doubler === session.box ? offer.member : session.box;
}

/** A waiting double in words: "bob doubles to 2", "ann doubles cyd's cube to 4". */
export function doubleWords(session, offer, me) {
  const to = offerValue(session, offer);
  const verb = offer.doubler === me ? "double" : "doubles";
  const doubler = Who(offer.doubler, me);
  if (offer.member === null) return `${doubler} ${verb} the team's cube to ${to}`;
  if (offer.member === offer.doubler) return `${doubler} ${verb} to ${to}`;
  return `${doubler} ${verb} ${whose(offer.member, me)} cube to ${to}`;
}

/** One line of the cubes list: whose cube, its value, who holds it, a double waiting. */
export function cubeWords(session, cube, me) {
  const holder =
    cube.owner === "centre" ? "in the centre" : `held by ${who(cube.owner === "box" ? session.box : cube.member, me)}`;
  const parts = [`${whose(cube.member, me).replace(/^y/, "Y")} cube: ${cube.value}, ${holder}`];
  if (!cube.in) parts.push("out of this game");
  const offer = session.pending.find((o) => o.member === cube.member || (o.member === null && cube.in));
  if (offer) {
    const by = answerer(session, offer) ?? cube.member;
    const asked = by === me ? "will you take or drop?" : `waiting for ${by} to take or drop`;
    parts.push(`${doubleWords(session, offer, me).replace(/^You/, "you")}: ${asked}`);
  }
  return parts.join("; ");
}

function kindWords(kind) {
  return kind === "single" ? "" : ` (a ${kind})`;
}

function pointsText(points) {
  return `${points} point${points === 1 ? "" : "s"}`;
}

/** A finished game in words: each cube's end and each player's points in it. */
export function gameEndWords(result, me) {
  const cubes = result.cubes.map((cube) => {
    const how = cube.dropped ? " on a drop" : kindWords(cube.kind);
    return `${whose(cube.member, me)} cube (${cube.value}): ${who(cube.winner, me)} won ${pointsText(cube.points)}${how}`;
  });
  const points = Object.entries(result.points).map(([name, n]) => `${who(name, me)} ${n > 0 ? "+" : ""}${n}`);
  return `Game ${result.number} is over: ${cubes.join("; ")}. Result: ${points.join(", ")}.`;
}

function openingWords(session, last, me) {
  const [boxDie, teamDie] = last.dice;
  const box = session.box;
  const team = session.holder;
  if (boxDie === teamDie) return `${Who(box, me)} and ${who(team, me)} both threw ${boxDie}: throw again.`;
  const first = boxDie > teamDie ? box : team;
  return `Opening throw: ${who(box, me)} ${boxDie}, ${who(team, me)} ${teamDie}; ${who(first, me)} ${first === me ? "play" : "plays"} first.`;
}

function answerWords(session, last, me) {
  const member = last.member ?? session.holder;
  const doubler = last.player === session.box ? member : session.box;
  const double = `${whose(doubler, me)} double`;
  if (last.kind === "take") {
    const name = last.member === null ? "the team's cube" : `${whose(member, me)} cube`;
    return `${Who(last.player, me)} took ${double}: ${name} is at ${cubeOf(session, member)?.value ?? "?"}.`;
  }
  const out = last.member === null ? "the team is" : `${who(last.member, me)} ${last.member === me ? "are" : "is"}`;
  return `${Who(last.player, me)} dropped ${double}: ${out} out of this game.`;
}

/** What the last action did, in words ("" where the awaited decision says it); the
 *  end of the game it ended, or of the last game while the next one's opening throws
 *  are all that happened in it. */
export function lastWords(session, me) {
  const last = session.last;
  if (!last) return "";
  let text = "";
  if (last.kind === "opening") {
    // The new game's opening throws (nothing played yet): the last game's end is still said.
    const ended = session.results.at(-1);
    const before = ended && ended.number === session.game - 1 ? `${gameEndWords(ended, me)} ` : "";
    text = before + openingWords(session, last, me);
  }
  else if (last.kind === "play") text = last.move === "Ø" ? `${Who(last.player, me)} could not move.` : `${Who(last.player, me)} played ${last.move}.`;
  else if (last.kind === "take" || last.kind === "drop") text = answerWords(session, last, me);
  if (last.ended) {
    const result = session.results.find((r) => r.number === last.ended);
    if (result) text = `${text} ${gameEndWords(result, me)}`.trim();
  }
  return text;
}

/** Who may double now, besides `except` (the legal doubles' players, in line). */
function doublers(session, except) {
  const names = session.legal.filter((a) => a.kind === "double").map((a) => a.player);
  return [...new Set(names)].filter((name) => name !== except);
}

function rollWords(session, me) {
  const roller = session.roller;
  const others = doublers(session, roller);
  const mine = others.includes(me);
  const rest = others.filter((name) => name !== me);
  let text;
  if (roller === me) text = doublers(session, null).includes(me) ? "Your roll: roll, or double first." : "Your roll.";
  else text = `${roller} to roll.`;
  if (mine) text += ` You may double before ${roller} rolls.`;
  if (rest.length) text += ` ${rest.join(", ")} may double first.`;
  return text;
}

/** What the table waits for, said to whoever must decide ("you" for the viewer). */
export function awaitedWords(session, me) {
  if (session.pending.length) {
    const answers = session.pending.map((offer) => {
      const by = answerer(session, offer);
      const asked = by === me ? "will you take or drop?" : `waiting for ${by} to take or drop.`;
      return `${doubleWords(session, offer, me)}: ${asked}`;
    });
    if (doublers(session, null).includes(me)) answers.push("You may double too.");
    return answers.join(" ");
  }
  if (session.dice) {
    const dice = session.dice.join("-");
    if (session.on_roll !== me) return `${session.on_roll} to move ${dice}.`;
    const team = me !== session.box ? " (you play the team's checkers)" : "";
    return `Your move: ${dice}${team}.`;
  }
  if (session.roller === null) return "";
  if (session.on_roll === null) {
    const pair = [session.box, session.holder];
    if (pair.includes(me)) return `Opening throw: you or ${pair.find((n) => n !== me)} may press Opening throw.`;
    return `Opening throw: ${session.box} (the box) or ${session.holder} (the team) throws.`;
  }
  return rollWords(session, me);
}

/** The live status line: what just happened, then what the table waits for. */
export function statusLine(session, me) {
  return [lastWords(session, me), awaitedWords(session, me)].filter(Boolean).join(" ");
}

/**
 * The buttons the viewer may press now: roll (its label, or null), double (their own
 * cube: {member, to}, or null), boxDoubles (the box's: [{member, to}]), answers
 * ([{member, doubler, to}], each a take and a drop). Nothing for a spectator.
 */
export function controlsOf(session, me) {
  const none = { roll: null, double: null, boxDoubles: [], answers: [] };
  if (seatOf(session, me) === null) return none;
  const opening = session.on_roll === null;
  const throws = session.roller === me || (opening && session.roller !== null && session.holder === me);
  const mine = session.legal.filter((a) => a.player === me);
  const to = (member) => 2 * ((cubeOf(session, member ?? session.holder) || session.cubes[0]).value);
  const doubles = mine.filter((a) => a.kind === "double").map((a) => ({ member: a.member, to: to(a.member) }));
  const own = me === session.box ? null : doubles.find((d) => d.member === me || d.member === null) || null;
  const answers = mine
    .filter((a) => a.kind === "take")
    .map((a) => {
      const offer = session.pending.find((o) => o.member === a.member);
      return { member: a.member, doubler: offer ? offer.doubler : session.box, to: offer ? offerValue(session, offer) : to(a.member) };
    });
  return {
    roll: throws ? (opening ? "Opening throw" : "Roll") : null,
    double: own,
    boxDoubles: me === session.box ? doubles : [],
    answers,
  };
}

/** The cube drawn on the board: the viewer's own cube (a member's), else none. */
export function cubeModel(session, me) {
  const seat = seatOf(session, me);
  const cube = seat === 1 ? cubeOf(session, me) : null;
  if (!cube) return null;
  const offer = session.pending.find((o) => o.member === me || (o.member === null && cube.in));
  const owner = cube.owner === "centre" ? null : cube.owner === "member" ? "bottom" : "top";
  return {
    value: cube.value,
    owner,
    offered: offer ? offerValue(session, offer) : null,
    offeredBy: offer ? (offer.doubler === session.box ? "top" : "bottom") : null,
  };
}

/**
 * The board in words (boardwords.js's boardWords) for the viewer: `points`
 * (pointsView), `dice` (diceView), `cube` (cubeModel) and `pips` ({bottom, top}) as
 * drawn. The first line names the game, the box and the team instead of a score.
 */
export function chouetteWords(session, me, { points, dice, cube, pips }) {
  const seat = seatOf(session, me);
  const boxBottom = seat !== 1;
  const side = (name) => (sideOf(session, name) === 0) === boxBottom ? "bottom" : "top";
  const names = { bottom: boxBottom ? session.box : "the team", top: boxBottom ? "the team" : session.box };
  const result = boardWords({
    names,
    you: seat === null ? null : "bottom",
    score: { bottom: 0, top: 0 },
    length: 0,
    crawford: false,
    turn: session.on_roll === null ? null : side(session.on_roll),
    points,
    dice,
    cube,
    pips,
  });
  const team = session.lineup.slice(1).map((name) => who(name, me)).join(", ");
  const holder = session.holder === session.captain ? "" : `; ${who(session.holder, me)} ${session.holder === me ? "play" : "plays"} the checkers`;
  result.lines[0] = `Game ${session.game}: ${who(session.box, me)} in the box against the team of ${team} (captain ${who(session.captain, me)}${holder}).`;
  return result;
}
