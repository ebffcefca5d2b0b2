// Pure helpers of the position tool (no DOM): the editor's board edits and checks, the
// Position ID and XGID of an edited board, and the words and figures the page shows
// (what a pasted text carries, the cube decision, the rollout's lines).
//
// A board is {player, opponent}: each side's 26 counts in its own numbering (0 borne
// off, 1-24 the points, 25 the bar), as the server's reports give them; in the editor
// `player` is the bottom side (white) and `opponent` the top side (black).

export const CHECKERS = 15;
export const SIDE_NAMES = { player: "White (bottom)", opponent: "Black (top)" };

/** How many checkers a side (26 counts) has on the board and the bar. */
export function onBoard(side) {
  let total = 0;
  for (let i = 1; i <= 25; i += 1) total += side[i];
  return total;
}

/** A board from the counts on points and bar, the rest borne off. */
function withOff(player, opponent) {
  const fix = (side) => {
    const copy = side.slice();
    copy[0] = Math.max(0, CHECKERS - onBoard(copy));
    return copy;
  };
  return { player: fix(player), opponent: fix(opponent) };
}

/** A board with no checker on it (all borne off). */
export function emptyBoard() {
  return withOff(new Array(26).fill(0), new Array(26).fill(0));
}

/** The starting position. */
export function startingBoard() {
  const side = new Array(26).fill(0);
  side[24] = 2;
  side[13] = 5;
  side[8] = 3;
  side[6] = 5;
  return withOff(side, side.slice());
}

/** A copy of a report's board ({player, opponent, ...}) for the editor. */
export function copyBoard(board) {
  return withOff(board.player, board.opponent);
}

/**
 * Where the editor's click on `place` (1-24 a point in the bottom side's numbering,
 * 25 the bar) lands in `side`'s own numbering.
 */
export function indexOf(side, place) {
  if (place === 25) return 25;
  return side === "player" ? place : 25 - place;
}

/**
 * The board after a click of the editor: `action` "add" puts a checker of `side`
 * ("player" the bottom, white; "opponent" the top, black) on `place` (1-24 a point in
 * the bottom side's numbering, 25 that side's bar); "remove" takes one off (from the
 * side whose checkers stand on the point; on the bar, `side`'s first, else the
 * other's). Returns {board} or {error} (a sentence; the board is then unchanged).
 */
export function editBoard(board, place, side, action) {
  if (!(Number.isInteger(place) && place >= 1 && place <= 25)) return { error: `no point ${place} to edit` };
  const other = side === "player" ? "opponent" : "player";
  const player = board.player.slice();
  const opponent = board.opponent.slice();
  const sides = { player, opponent };
  const where = place === 25 ? "the bar" : `point ${place}`;
  if (action === "remove") {
    let from = side;
    if (!(sides[from][indexOf(from, place)] > 0)) from = other;
    const index = indexOf(from, place);
    if (!(sides[from][index] > 0)) return { error: `no checker on ${where} to remove` };
    sides[from][index] -= 1;
    return { board: withOff(player, opponent) };
  }
  if (onBoard(sides[side]) >= CHECKERS) {
    return { error: `${SIDE_NAMES[side]} already has ${CHECKERS} checkers on the board: remove one first` };
  }
  if (place !== 25 && sides[other][indexOf(other, place)] > 0) {
    return { error: `point ${place} holds ${SIDE_NAMES[other]}'s checkers: remove them first` };
  }
  sides[side][indexOf(side, place)] += 1;
  return { board: withOff(player, opponent) };
}

/** What is wrong with a board for the engine (a sentence), or null. */
export function boardProblem(board) {
  for (const side of ["player", "opponent"]) {
    const count = onBoard(board[side]);
    if (count > CHECKERS) return `${SIDE_NAMES[side]} has ${count} checkers: at most ${CHECKERS}`;
    if (board[side].slice(1).some((n) => n < 0 || !Number.isInteger(n))) return `${SIDE_NAMES[side]} has a bad count`;
  }
  for (let p = 1; p <= 24; p += 1) {
    if (board.player[p] > 0 && board.opponent[25 - p] > 0) return `point ${p} holds checkers of both sides`;
  }
  if (onBoard(board.player) === 0 && onBoard(board.opponent) === 0) return "the board is empty";
  return null;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/**
 * GNU Backgammon's Position ID of `onRoll` and `other` (each 26 counts in its own
 * numbering): the other side's points 1-24 and bar, then the side on roll's, each
 * count as that many 1 bits and a 0, in 80 bits packed little-endian per byte, in
 * Base64 without the padding.
 */
export function positionId(onRoll, other) {
  const bytes = new Array(10).fill(0);
  let bit = 0;
  for (const side of [other, onRoll]) {
    for (let i = 1; i <= 25; i += 1) {
      for (let n = 0; n < side[i]; n += 1) {
        if (bit >= 80) throw new Error("too many checkers for a Position ID");
        bytes[bit >> 3] |= 1 << (bit & 7);
        bit += 1;
      }
      bit += 1;
    }
  }
  let text = "";
  for (let i = 0; i < 12; i += 3) {
    const chunk = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    text += BASE64[(chunk >> 18) & 63] + BASE64[(chunk >> 12) & 63] + BASE64[(chunk >> 6) & 63] + BASE64[chunk & 63];
  }
  return text.slice(0, 14);
}

const letter = (count, upper) => (count ? String.fromCharCode((upper ? 64 : 96) + count) : "-");

/**
 * The XGID of an edited board: `board.player` is XG's bottom player X (upper-case),
 * `board.opponent` the top player O. `options`: {turn: "player" or "opponent" (who is
 * on roll), dice: [a, b] or null, cube (value, 1), owner ("player", "opponent" or
 * null), score: [X's, O's], length (0 money), crawford}.
 */
export function xgid(board, options = {}) {
  const { turn = "player", dice = null, cube = 1, owner = null, score = [0, 0], length = 0, crawford = false } = options;
  let chars = letter(board.opponent[25], false);
  for (let p = 1; p <= 24; p += 1) {
    chars += board.player[p] ? letter(board.player[p], true) : letter(board.opponent[25 - p], false);
  }
  chars += letter(board.player[25], true);
  const cubeLog = Math.round(Math.log2(cube));
  const position = owner === "player" ? 1 : owner === "opponent" ? -1 : 0;
  const rolled = dice ? `${dice[0]}${dice[1]}` : "00";
  const flags = length && crawford ? 1 : 0;
  return `XGID=${chars}:${cubeLog}:${position}:${turn === "player" ? 1 : -1}:${rolled}:${score[0]}:${score[1]}:${flags}:${length}:10`;
}

/** The IDs of an edited board with `turn` ("player"/"opponent") on roll and `dice`. */
export function editedIds(board, turn, dice) {
  const onRoll = turn === "player" ? board.player : board.opponent;
  const other = turn === "player" ? board.opponent : board.player;
  return { positionId: positionId(onRoll, other), xgid: xgid(board, { turn, dice }) };
}

/** Two dice from "3-1", "31" or "3 1" (each 1-6), null for nothing, or {error}. */
export function parseDice(text) {
  const cleaned = String(text ?? "").trim();
  if (!cleaned) return null;
  const match = /^([1-6])\s*[-\s,/]?\s*([1-6])$/.exec(cleaned);
  if (!match) return { error: `dice: '${cleaned}' is not a roll such as 3-1` };
  return [Number(match[1]), Number(match[2])];
}

// -- the words and figures of a report ----------------------------------------------------

const OWNER_WORDS = { player: "the side on roll", opponent: "its opponent" };

/** Where the figures come from, in words: "" for the usual network estimate; for a
 * solved variant, "exact" or the server's note (an estimate, and how to get exact ones). */
export function sourceLine(report) {
  const source = report.source;
  if (!source) return "";
  if (source.exact) return "Exact values (solved database).";
  return source.note ? `Estimate: ${source.note}` : "";
}

/** What the pasted text carried, in words (the side on roll, dice, cube, score). */
export function contextLine(report) {
  const context = report.context;
  if (!context) return "";
  const parts = [`On roll: ${context.on_roll}`];
  if (report.dice) {
    const from = report.dice_from === "field" ? "from the dice field" : "from the text";
    parts.push(`dice ${report.dice[0]}-${report.dice[1]} (${from})`);
  } else {
    parts.push(context.double_pending ? "a double is pending" : "no dice");
  }
  if (context.max_cube === 1) parts.push("no cube");
  else parts.push(`cube ${context.cube}${context.owner ? `, owned by ${OWNER_WORDS[context.owner]}` : " centred"}`);
  if (context.length) {
    const [mine, theirs] = context.score;
    let match = `${context.length}-point match, score ${mine}-${theirs} (${context.length - mine} and ${context.length - theirs} away)`;
    if (context.crawford) match += ", Crawford game";
    parts.push(match);
  } else {
    const rules = [context.jacoby && "Jacoby", context.beavers && "beavers"].filter(Boolean);
    parts.push(rules.length ? `money (${rules.join(", ")})` : "money");
  }
  return `${parts.join(" · ")}.`;
}

const signedText = (x) => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;

/**
 * The cube decision as rows [{label, equity, best}] and a line in words: the proper
 * action, or why there is none. `cube`: the report's `cube` (null: dice to play).
 */
export function cubeView(cube) {
  if (!cube) return null;
  const scale = cube.kind === "match" ? "match equity" : "money equity";
  if (!cube.available) return { rows: [], line: `No cube decision: ${cube.reason}.`, scale };
  const rows = [
    { label: "No double", equity: cube.no_double },
    { label: "Double, take", equity: cube.double_take },
    { label: "Double, pass", equity: cube.double_pass },
  ];
  const doubling = Math.min(cube.double_take, cube.double_pass);
  const best = cube.no_double >= doubling ? 0 : cube.double_take <= cube.double_pass ? 1 : 2;
  rows.forEach((row, index) => {
    row.best = index === best;
    row.text = signedText(row.equity);
  });
  const action = cube.action.charAt(0).toUpperCase() + cube.action.slice(1);
  return { rows, line: `Proper cube action: ${action}.`, scale };
}

/** The progress of a rollout job: {fraction (0-1), text}. */
export function rolloutProgress(status) {
  const total = status.total || 1;
  const fraction = Math.min(1, Math.max(0, status.done / total));
  const words = {
    running: `${status.done} of ${status.total} trials`,
    done: `done: ${status.done} trials`,
    cancelled: `cancelled after ${status.done} of ${status.total} trials`,
    failed: `failed: ${status.message || ""}`,
  }[status.state];
  return { fraction, text: words ?? status.state };
}

/**
 * A rollout's lines as rows: {label, trials, equity ("+0.123 ± 0.010"), win, gammon,
 * backgammon, loseGammon, loseBackgammon (percentages), errors (the probabilities'
 * standard errors in words)}, in the server's order (the hint's, for plays).
 */
export function rolloutRows(result) {
  if (!result) return [];
  const percent = (p) => `${(100 * p).toFixed(1)}%`;
  const names = ["win", "gammon", "backgammon", "lose gammon", "lose backgammon"];
  return result.lines.map((line) => {
    const label = line.play ?? "the position";
    if (!line.trials) return { label, trials: 0, equity: "…", win: "", gammon: "", backgammon: "", loseGammon: "", loseBackgammon: "", errors: "" };
    const [win, gammon, backgammon, loseGammon, loseBackgammon] = line.probabilities;
    const errors = line.probability_errors || [];
    const error = line.standard_error == null ? "" : ` ± ${line.standard_error.toFixed(3)}`;
    return {
      label,
      trials: line.trials,
      equity: `${signedText(line.equity)}${error}`,
      win: percent(win),
      gammon: percent(gammon),
      backgammon: percent(backgammon),
      loseGammon: percent(loseGammon),
      loseBackgammon: percent(loseBackgammon),
      errors: errors.map((e, i) => `${names[i]} ± ${(100 * e).toFixed(1)}%`).join(", "),
    };
  });
}
