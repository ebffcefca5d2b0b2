// The match page's words (pure functions, no DOM): what happened and what is awaited,
// how a game and a match ended, who is connected, and the end of a game shown before
// the next one begins (`gameSummary`, `endedState`). Unit-tested by view.test.mjs.

import { applyStep, boardOf, rollText } from "./boardrules.js";
import { formatSeconds } from "./matchview.js";

// Sentences name the viewer "you" (capitalised at the start of a sentence) and anyone
// else by name; names are never changed (a name is never capitalised).

const LEVELS = { 1: "a single game", 2: "a gammon", 3: "a backgammon" };

/** The viewer in `seat` as "you", anyone else by name; "You" where `start`. */
function nameOf(state, seat, s, start = false) {
  if (s !== seat) return state.players[s];
  return start ? "You" : "you";
}

function pointsText(n) {
  return `${n} point${n === 1 ? "" : "s"}`;
}

const KIND_LEVELS = { single: 1, gammon: 2, backgammon: 3 };

/**
 * How a game ended, in one sentence, for the viewer in `seat`: `over` is a game's
 * outcome ({winner, points, kind, ending}, the state's `game.outcome` or an entry's
 * `game_over`): who won, how many points and why (borne off: single, gammon or
 * backgammon; a dropped double; an accepted resignation; first hit; a pinned mother;
 * a draw).
 */
export function gameEndSentence(over, state, seat) {
  const winner = over.winner;
  const loser = 1 - winner;
  const won = (start) => `${nameOf(state, seat, winner, start)} won ${pointsText(over.points)}`;
  switch (over.ending) {
    case "double dropped":
      return `${nameOf(state, seat, loser, true)} dropped the double: ${won(false)}.`;
    case "resigned": {
      const what = LEVELS[KIND_LEVELS[over.kind]] || "the game";
      const whose = loser === seat ? "your" : `${state.players[loser]}'s`;
      return `${nameOf(state, seat, winner, true)} accepted ${whose} resignation of ${what}: ${won(false)}.`;
    }
    case "first hit":
      return `${nameOf(state, seat, winner, true)} hit first and won ${pointsText(over.points)}.`;
    case "mother pinned":
      return `${nameOf(state, seat, winner, true)} pinned the mother and won ${pointsText(over.points)}.`;
    case "draw":
      return "Both mothers are pinned: the game is a draw.";
    default:
      if (over.kind === "gammon" || over.kind === "backgammon") {
        return `${nameOf(state, seat, winner, true)} won a ${over.kind}: ${pointsText(over.points)}.`;
      }
      return `${nameOf(state, seat, winner, true)} bore off first and won ${pointsText(over.points)}.`;
  }
}

/** The score after a game ("Score: alice 1, bob 0, to 3."), from `score` (seat order). */
export function scoreSentence(state, score) {
  const length = state.settings && state.settings.length;
  const tally = `${state.players[0]} ${score[0]}, ${state.players[1]} ${score[1]}`;
  return `Score: ${tally}${length ? `, to ${length}` : ""}.`;
}

/**
 * A finished match's score as players say it: the winner's points first, each capped at
 * the match length (a 1-point match won with a gammon is won 1-0, not 2-0); seat order
 * when nobody won (an even money session).
 */
export function resultTally(result, length) {
  const cap = (points) => (length ? Math.min(points, length) : points);
  const { winner, score } = result;
  const order = winner == null ? [0, 1] : [winner, 1 - winner];
  return `${cap(score[order[0]])}–${cap(score[order[1]])}`;
}

/** How the match ended, in one sentence (the state's `result`). */
export function resultSentence(state, seat) {
  const { winner, reason } = state.result;
  const length = state.settings ? state.settings.length : 0;
  const tally = resultTally(state.result, length);
  const what = length ? "the match" : "the session";
  if (winner == null) {
    return reason === "adjudicated" ? `The match was adjudicated with no winner, ${tally}.` : `The session ended even, ${tally}.`;
  }
  const head = `${nameOf(state, seat, winner, true)} won ${what} ${tally}`;
  const loser = nameOf(state, seat, 1 - winner, false);
  if (reason === "timeout") return `${head}: ${loser} ran out of time.`;
  if (reason === "left") return `${head}: ${loser} left the ${length ? "match" : "session"}.`;
  if (reason === "adjudicated") return `${head} by adjudication.`;
  if (reason === "abandoned") return `${head}: ${loser} stayed away too long, and the win was claimed.`;
  return `${head}.`;
}

/** What a match's `presence` message (each seat's player connected or away since
 *  when, the wait before a claim: null with a clock) means for the user in `seat`
 *  (null: a spectator) at the server's time `now`: whether each player is connected,
 *  a sentence about an absent player ("" when both are here), and whether the user
 *  may claim the win now (`claim`) or in how many seconds (`claimIn`; null: not
 *  this way). The server decides: this only says when to offer the button. */
export function presenceView(presence, state, seat, now) {
  const none = { connected: [true, true], notice: "", claim: false, claimIn: null };
  if (!presence || !state || state.open || presence.match !== state.match) return none;
  const connected = presence.players.map((player) => !player || player.connected);
  if (state.result) return { ...none, connected };
  const notices = [];
  let claimIn = null;
  for (const s of [0, 1]) {
    const player = presence.players[s];
    if (!player || player.connected || s === seat) continue;
    const name = state.players[s];
    const away = `${name} has been away ${formatSeconds(now - player.away_since)}`;
    const claimable = seat === 1 - s && presence.claim_after != null && state.waiting_for === s;
    if (!claimable) {
      notices.push(`${away}.`);
      continue;
    }
    const since = Math.max(player.away_since, state.waiting_since ?? 0);
    claimIn = Math.max(0, since + presence.claim_after - now);
    notices.push(
      claimIn > 0
        ? `${away}: if ${name} is still away in ${formatSeconds(claimIn)}, you may claim the win.`
        : `${away}: you may claim the win.`,
    );
  }
  return { connected, notice: notices.join(" "), claim: claimIn === 0, claimIn };
}

/** Where a seat's player is, from a presence entry: "board" (connected, with the
 *  match open), "elsewhere" (connected, the match not open: the lobby, another
 *  page) or "away" (no connection). A server without `at_board` counts a connection
 *  as at the board. */
function whereabouts(player) {
  if (!player.connected) return "away";
  return player.at_board === false ? "elsewhere" : "board";
}

/** The sentence for a change between two `presence` messages of one match ("bob
 *  left.", "bob is back." at the board, "bob left the board." for the lobby or
 *  another page, "bob is online, not at the board."), or "" when nobody moved. */
export function presenceChange(before, after, state) {
  if (!before || !after || before.match !== after.match || !state || !state.players) return "";
  const said = [];
  for (const s of [0, 1]) {
    const was = before.players[s];
    const now = after.players[s];
    if (!was || !now) continue;
    const [from, to] = [whereabouts(was), whereabouts(now)];
    if (from === to) continue;
    const name = state.players[s];
    if (to === "board") said.push(`${name} is back.`);
    else if (to === "away") said.push(`${name} left.`);
    else said.push(from === "board" ? `${name} left the board.` : `${name} is online, not at the board.`);
  }
  return said.join(" ");
}

/** How the last game of a finished match ended (gameEndSentence), or "" when the
 *  match ended otherwise (time, leaving, adjudication). */
export function lastGameSentence(state, seat) {
  const game = state.game;
  if (!state.result || state.result.reason !== "score" || !game || !game.outcome) return "";
  return gameEndSentence(game.outcome, state, seat);
}

/** What the match is waiting for, in words, for the viewer in `seat`. */
export function describe(state, seat) {
  if (!state) return "";
  if (state.open) return "Waiting for an opponent to join…";
  const names = state.players;
  const you = (s) => (s === seat ? "You" : names[s]);
  if (state.result) return [lastGameSentence(state, seat), resultSentence(state, seat)].filter(Boolean).join(" ");
  const game = state.game;
  if (!game) return "";
  if (game.over && game.outcome) {
    return `${gameEndSentence(game.outcome, state, seat)} ${scoreSentence(state, state.score)}`;
  }
  const waiting = state.waiting_for;
  if (waiting == null) return "";
  const pending = game.pending;
  const mine = waiting === seat;
  if (pending && pending.kind === "double") {
    const value = game.cube.value * 2;
    if (mine) return `${names[pending.by]} doubles to ${value}: take or drop?`;
    const doubler = pending.by === seat ? "You double" : `${names[pending.by]} doubles`;
    return `${doubler} to ${value}; waiting for ${names[waiting]}.`;
  }
  if (pending && pending.kind === "resign") {
    const what = LEVELS[pending.level] || "the game";
    return mine
      ? `${names[pending.by]} offers to resign ${what}: accept or reject?`
      : `${you(pending.by)} offered to resign ${what}; waiting for ${names[waiting]}.`;
  }
  if (game.dice) {
    const roll = rollText(game.dice);
    return mine ? `Your move: ${roll}.` : `${names[waiting]} to move ${roll}.`;
  }
  if (mine) return game.can_double ? "Your turn: roll or double." : "Your turn: roll.";
  return `Waiting for ${names[waiting]}.`;
}

/** Whether a log entry starts a game (the server's in a match, a player's in money). */
function startsGame(entry) {
  return entry.kind === "new_game" || entry.kind === "next_game";
}

/** One entry's own sentence (see describeEntries), or "". */
function entrySentence(entry, state, seat, gameNumber) {
  const by = entry.by ?? entry.player;
  if (entry.game_over) return gameEndSentence(entry.game_over, state, seat);
  if (entry.kind === "opening") {
    const [a, b] = entry.dice;
    const head = gameNumber ? `Game ${gameNumber}: ` : "";
    if (a === b) return `${head}${head ? "both" : "Both"} threw ${a}: the opening roll is thrown again.`;
    const starter = a > b ? 0 : 1;
    const starts = nameOf(state, seat, starter, !head);
    return `${head}${starts} won the opening roll ${Math.max(a, b)}-${Math.min(a, b)}.`;
  }
  if (by == null) return "";
  if (entry.kind === "play" && entry.by == null) return `${nameOf(state, seat, by, true)} cannot move.`;
  if (by === seat) return ""; // the viewer knows what they did
  const name = state.players[by];
  switch (entry.kind) {
    case "play":
      return entry.move ? `${name} played ${entry.move}.` : `${name} cannot move.`;
    case "take":
      return `${name} took the double.`;
    case "beaver":
      return `${name} beavered.`;
    case "raccoon":
      return `${name} raccooned.`;
    case "reject":
      return `${name} rejected the resignation.`;
    case "choose_double":
      return `${name} chose double ${entry.number}s.`;
    case "explode":
      return `${name} exploded the bomb.`;
    default:
      // Rolls show as dice, a double or a resignation offered as the question it
      // asks (describe), the end of a match in its result.
      return "";
  }
}

/**
 * What just changed, in sentences, for the viewer in `seat` (a state message's
 * `entries`, `state` the state after them): what the others did (the viewer's own
 * actions are left out; an offer is said by describe while it waits for its answer),
 * moves with no play, the end of a game (who won, how many
 * points, why; see gameEndSentence) with the score after it (left to the result
 * when the match is over), and who won the opening roll of a new game. "" when
 * nothing needs saying.
 */
export function describeEntries(entries, state, seat) {
  const lines = [];
  let number = state.game ? state.game.number : 0;
  number -= (entries || []).filter(startsGame).length;
  let fresh = 0; // a new game's number, said with its first opening throw
  for (const entry of entries || []) {
    if (startsGame(entry)) {
      number += 1;
      fresh = number > 1 ? number : 0;
    }
    const line = entrySentence(entry, state, seat, entry.kind === "opening" ? fresh : 0);
    if (entry.kind === "opening") fresh = 0;
    if (line) lines.push(line);
    if (entry.game_over && !state.result) lines.push(scoreSentence(state, entry.game_over.score));
  }
  return lines.join(" ");
}

/**
 * The end of a game to show before the next one begins, from a state message: null
 * unless one of `entries` ended a game of a match that goes on (a finished match has
 * its result instead). Returns {number, title, lines, after}: `lines` the game's end
 * and the score, `after` what followed in the same message (the next game's opening).
 */
export function gameSummary(entries, state, seat) {
  const list = entries || [];
  const at = list.findLastIndex((entry) => entry.game_over);
  if (at < 0 || state.result) return null;
  const over = list[at].game_over;
  const later = list.slice(at + 1);
  const number = (state.game ? state.game.number : 1) - later.filter(startsGame).length;
  const title = `Game ${number}: ${over.ending === "draw" ? "a draw" : `${nameOf(state, seat, over.winner, false)} won`}`;
  return {
    number,
    title,
    lines: [gameEndSentence(over, state, seat), scoreSentence(state, over.score)],
    after: describeEntries(later, state, seat),
  };
}

/**
 * The last position of a game that `entries` ended, to show under its summary: the
 * state before them (`before`) with the game-ending play's checkers moved (a drop or
 * an accepted resignation leaves the board as it was), no dice and no one to act.
 * Null when `before` is not of that game.
 */
export function endedState(before, entries, number) {
  if (!before || !before.game || before.game.number !== number) return null;
  const ending = (entries || []).find((entry) => entry.game_over);
  if (!ending) return null;
  const board = { ...before.game.board };
  const mover = ending.by ?? ending.player;
  if (ending.kind === "play" && (mover === 0 || mover === 1)) {
    const rules = boardOf(before);
    let mine = board[`player${mover}`];
    let theirs = board[`player${1 - mover}`];
    for (const [from, to] of ending.steps || []) {
      ({ mine, theirs } = applyStep(mine, theirs, from, to, rules));
    }
    board[`player${mover}`] = mine;
    board[`player${1 - mover}`] = theirs;
    const pips = (side) => side.reduce((sum, count, point) => sum + count * point, 0);
    board.pips = [pips(board.player0), pips(board.player1)];
  }
  const game = {
    ...before.game,
    board,
    dice: null,
    pending: null,
    legal_plays: null,
    legal_steps: null,
    over: true,
    outcome: ending.game_over,
  };
  return { ...before, game, waiting_for: null, clock: null };
}
