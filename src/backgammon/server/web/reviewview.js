// Pure helpers of the review page (no DOM): the analysis result (POST /api/analysis,
// GET /api/analysis/ID) as rows of the move list, the board of any move, the line
// under it, the table of the best alternatives, and the plot of the match as SVG
// markup. Unit-tested by reviewview.test.mjs under `node --test`.

import { playArrows, positionModel } from "./boardmodel.js";

/** The marks, least bad first, as the analysis names them. */
export const MARKS = Object.freeze(["doubtful", "bad", "very bad"]);

/** The colour of each mark (the plot's markers; the list's rows use the CSS classes). */
export const MARK_COLOURS = Object.freeze({ doubtful: "#e0a800", bad: "#e06000", "very bad": "#c00000" });

/** The CSS class of a mark ("mark-very-bad"), "" for none. */
export function markClass(mark) {
  return mark ? `mark-${mark.replaceAll(" ", "-")}` : "";
}

/** Whether a move was marked as an error. */
export function isError(move) {
  return Boolean(move && move.mark);
}

const CUBE_WORDS = {
  "no double": "no double",
  double: "doubles",
  take: "takes",
  pass: "passes",
  beaver: "beavers",
};

function diceText(dice) {
  return dice ? `${dice[0]}-${dice[1]}` : "";
}

function playText(play) {
  return play === "Ø" || play === "" ? "no move" : play;
}

function loss(value) {
  return `−${value.toFixed(3)}`;
}

/** A player's luck in words: the mean luck per roll and its rating, where the
 *  analysis' "None" (luck within ±0.03 a roll) reads "average luck". */
export function luckText(rate, rating) {
  const value = `${rate >= 0 ? "+" : ""}${rate.toFixed(3)}`;
  const words = !rating || rating === "None" ? "average luck" : rating;
  return `${value} (${words})`;
}

/**
 * One row of the move list: {game, move, player, dice, what, loss, mark, className}
 * (`what`: the play made or the cube action; `loss`: the equity lost, "" below 0.0005).
 */
export function moveRow(move) {
  const what = move.kind === "checker" ? playText(move.play) : CUBE_WORDS[move.action] || move.action;
  return {
    game: String(move.game),
    move: String(move.move),
    player: move.player,
    dice: move.kind === "checker" ? diceText(move.dice) : "cube",
    what,
    loss: move.loss >= 0.0005 ? loss(move.loss) : "",
    mark: move.mark || "",
    className: markClass(move.mark),
  };
}

/**
 * The read-only board of a move: its position seen from the player who decided (at
 * the bottom), the dice, the cube, the play made as arrows and, where the move was an
 * error, the best play too.
 */
export function moveModel(move) {
  const best = isError(move) && move.kind === "checker" ? move.best : [];
  return reviewModel({ ...move, best });
}

function cubeDid(move) {
  const done = { "no double": "did not double", double: "doubled", take: "took", pass: "passed", beaver: "beavered" };
  return done[move.action] || move.action;
}

/**
 * A marked move's explanation as the page shows it, or null: its text and each theme
 * (id, name, sentence), from the decision's JSON `explanation` (its id where it has no name).
 */
export function explanationModel(move) {
  const found = isError(move) ? move.explanation : null;
  if (!found) return null;
  const themes = found.themes.map((theme) => ({ id: theme.id, name: theme.name || theme.id, says: theme.says }));
  return { kind: found.kind, text: found.text, themes };
}

/** The line under the review board for any move ("Game 1, move 4: Alice rolled 2-1 and …"). */
export function moveCaption(move) {
  const head = `Game ${move.game}, move ${move.move}: ${move.player}`;
  const cost = isError(move) ? ` (${move.mark}, ${loss(move.loss)})` : move.loss >= 0.0005 ? ` (${loss(move.loss)})` : "";
  if (move.kind === "checker") {
    const did = `${head} rolled ${diceText(move.dice)} and played ${playText(move.play)}`;
    if (move.forced) return `${did} (forced).`;
    if (move.loss >= 0.0005) return `${did}; best ${playText(move.right)}${cost}.`;
    return `${did}: the best play.`;
  }
  const did = `${head} ${cubeDid(move)}`;
  if (move.loss >= 0.0005) return `${did}; the right action: ${move.right}${cost}. The cube: ${move.cube_action}.`;
  return `${did}: right. The cube: ${move.cube_action}.`;
}

function equity(value) {
  return `${value >= 0 ? "+" : ""}${value.toFixed(3)}`;
}

function percent(value) {
  return `${(100 * value).toFixed(1)}%`;
}

/**
 * The table of the best alternatives of a move: {head: [...], rows: [{cells: [...],
 * className}], note}. A checker play: its best plays ranked (the play made marked
 * "played", the best "best") with the mover's equity, the difference from the best
 * and the chances to win and to win a gammon. A cube decision: the doubler's equities
 * of no double, double/take and double/pass, the right one marked "best" and the one
 * chosen "played", with the right action in the note. Where the file brought its own
 * analysis of the move (`move.file_analysis`), its equities are a last column.
 */
export function alternatives(move) {
  const table = ourAlternatives(move);
  return move.file_analysis ? withFileAnalysis(move, table) : table;
}

const CUBE_KEYS = ["no_double", "double_take", "double_pass"];

function fileCubeKey(found) {
  if (found.best_action === "double, take") return "double_take";
  if (found.best_action === "double, pass") return "double_pass";
  return "no_double";
}

/**
 * The table of `alternatives` with the file's own analysis beside ours (an .xg file's
 * XG, an OGXM file's engine): a column of its equities (of the same plays; plays it
 * listed that ours did not are added at the end, class "file-only"), and in the note
 * its best play or cube action, saying so where it and ours differ.
 */
function withFileAnalysis(move, table) {
  const found = move.file_analysis;
  const engine = found.engine || "File";
  const head = [...table.head, engine];
  const level = found.level ? ` (${found.level})` : "";
  if (found.kind === "cube") {
    const theirs = { no_double: found.no_double, double_take: found.double_take, double_pass: found.double_drop };
    const rows = table.rows.map((row, i) => ({ ...row, cells: [...row.cells, equity(theirs[CUBE_KEYS[i]])] }));
    const ours = move.should_double ? (move.should_take ? "double_take" : "double_pass") : "no_double";
    const differ = fileCubeKey(found) !== ours ? ` ${engine} and this analysis differ.` : "";
    return { head, rows, note: `${table.note} ${engine}${level}: ${found.best_action}.${differ}` };
  }
  const theirs = new Map((found.options || []).map((option) => [option.play, option.equity]));
  const rows = table.rows.map((row, i) => {
    const value = theirs.get(move.options[i].play);
    return { ...row, cells: [...row.cells, value === undefined ? "" : equity(value)] };
  });
  const ours = new Set((move.options || []).map((option) => option.play));
  for (const option of found.options || []) {
    if (ours.has(option.play)) continue;
    const cells = ["", playText(option.play), ...table.head.slice(2).map(() => ""), equity(option.equity)];
    rows.push({ cells, className: "file-only" });
  }
  const best = found.options?.[0];
  if (!best) return { head, rows, note: table.note };
  const differ = move.options?.[0] && best.play !== move.options[0].play ? ` ${engine} and this analysis differ.` : "";
  const note = `${table.note} ${engine}${level}: best ${playText(best.play)} (${equity(best.equity)}).${differ}`;
  return { head, rows, note };
}

function ourAlternatives(move) {
  if (move.kind === "checker") {
    const rows = (move.options || []).map((option, rank) => ({
      cells: [
        String(rank + 1),
        playText(option.play),
        equity(option.equity),
        rank === 0 ? "" : option.difference.toFixed(3),
        percent(option.probabilities[0]),
        percent(option.probabilities[1]),
      ],
      className: [rank === 0 ? "best" : "", option.played ? "played" : ""].filter(Boolean).join(" "),
    }));
    const note = move.forced ? "A forced play." : `${move.options.length} best plays (the mover's equity).`;
    return { head: ["#", "Play", "Equity", "Diff.", "Win", "Gammon"], rows, note };
  }
  const e = move.equities;
  const right = move.should_double ? (move.should_take ? "double_take" : "double_pass") : "no_double";
  const optimal = e[right];
  const chosen = {
    "no double": "no_double",
    take: "double_take",
    beaver: "double_take",
    pass: "double_pass",
    double: e.double_take <= e.double_pass ? "double_take" : "double_pass",
  }[move.action];
  const labels = { no_double: "No double", double_take: "Double, take", double_pass: "Double, pass" };
  const rows = Object.entries(labels).map(([key, label]) => ({
    cells: [label, equity(e[key]), key === right ? "" : (e[key] - optimal).toFixed(3)],
    className: [key === right ? "best" : "", key === chosen ? "played" : ""].filter(Boolean).join(" "),
  }));
  const p = move.probabilities || [];
  const chances = p.length ? ` ${move.doubler} wins ${percent(p[0])} (gammons ${percent(p[1])}).` : "";
  return {
    head: ["Cube action", "Equity", "Diff."],
    rows,
    note: `Right: ${move.cube_action} (${move.doubler}'s equities, per unit of cube).${chances}`,
  };
}

/**
 * The next move to show after `key` from `index` among `count` moves: ArrowDown,
 * ArrowRight or j the next; ArrowUp, ArrowLeft or k the previous; Home, End the first
 * and the last. null for another key (or no moves); clamped at the ends.
 */
export function stepMove(index, key, count) {
  if (!count) return null;
  const at = index == null ? -1 : index;
  const step = { ArrowDown: 1, ArrowRight: 1, j: 1, ArrowUp: -1, ArrowLeft: -1, k: -1 }[key];
  if (step !== undefined) return Math.min(Math.max(at + step, 0), count - 1);
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return null;
}

/** What the review route asks for: "#/review" → {match: null}, "#/review/ID" → {match: ID}, else null. */
export function reviewRoute(hash) {
  const found = /^#\/review(?:\/([A-Za-z0-9_-]+))?$/.exec(hash || "");
  return found ? { match: found[1] ?? null } : null;
}

// -- the plot of the match ------------------------------------------------------------------

function round(x) {
  return Math.round(x * 10) / 10;
}

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/**
 * The plot's geometry: two panels on one axis, one x per move (every move of the list,
 * in order): above, the first player's chance to win the game before the move; below,
 * its equity (per unit of cube, at the score), the axis ±1 or more. Returns {width,
 * height, left, plotWidth, panels: {win, equity} each {top, height, low, high, ticks:
 * [{y, text}]}, starts: [{x, game}], points: [{index, x, win, equity, mark, seat}]
 * (y coordinates), paths: {win, equity} (SVG path data, broken at each new game)}.
 */
export function plotModel(moves, { width = 900, height = 320 } = {}) {
  const left = 48;
  const right = 10;
  const top = 20;
  const bottom = 22;
  const gap = 26;
  const plotWidth = width - left - right;
  const panelHeight = (height - top - bottom - gap) / 2;
  const largest = Math.max(0, ...moves.map((m) => Math.abs(m.before?.equity ?? 0)));
  const bound = Math.max(1, Math.ceil(largest * 2 - 1e-9) / 2);
  const panel = (at, low, high, ticks) => {
    const y = (value) => round(at + (panelHeight * (high - Math.min(Math.max(value, low), high))) / (high - low));
    return { top: at, height: round(panelHeight), low, high, y, ticks: ticks.map(([v, text]) => ({ y: y(v), text })) };
  };
  const halves = [];
  for (let h = -Math.round(2 * bound); h <= Math.round(2 * bound); h += 1) halves.push([h / 2, h ? equity(h / 2).replace(/0+$/, "").replace(/\.$/, "") : "0"]);
  const win = panel(top, 0, 1, [[0, "0%"], [0.5, "50%"], [1, "100%"]]);
  const eq = panel(top + panelHeight + gap, -bound, bound, halves);
  const count = moves.length;
  const x = (i) => round(left + (count > 1 ? (plotWidth * i) / (count - 1) : plotWidth / 2));
  const starts = [];
  const points = moves.map((move, i) => {
    if (i === 0 || move.game !== moves[i - 1].game) starts.push({ x: x(i), game: move.game });
    const before = move.before || { win: 0.5, equity: 0 };
    return { index: i, x: x(i), win: win.y(before.win), equity: eq.y(before.equity), mark: move.mark || null, seat: move.seat };
  });
  const path = (key) =>
    points.map((p, i) => `${i === 0 || moves[i].game !== moves[i - 1].game ? "M" : "L"}${p.x},${p[key]}`).join(" ");
  const strip = ({ y, ...rest }) => rest;
  return {
    width,
    height,
    left,
    plotWidth,
    panels: { win: strip(win), equity: strip(eq) },
    starts,
    points,
    paths: { win: path("win"), equity: path("equity") },
  };
}

/**
 * The plot as SVG markup (the children of an <svg viewBox="0 0 width height">): both
 * panels with their ticks and game boundaries, the lines, a point per move in each
 * panel (class "plot-point win-point" / "equity-point", data-index the move's index;
 * errors larger, coloured by mark, with "error" and the mark's class), the selected
 * move's cursor, and each point's caption as its tooltip. `names`: the two players.
 */
export function plotMarkup(moves, names, { width = 900, height = 320, selected = null } = {}) {
  const m = plotModel(moves, { width, height });
  const out = [];
  const right = m.left + m.plotWidth;
  for (const [key, panel] of Object.entries(m.panels)) {
    out.push(`<rect class="plot-panel ${key}" x="${m.left}" y="${panel.top}" width="${m.plotWidth}" height="${panel.height}"/>`);
    for (const tick of panel.ticks) {
      out.push(`<line class="plot-grid" x1="${m.left}" y1="${tick.y}" x2="${right}" y2="${tick.y}"/>`);
      out.push(`<text class="plot-tick" x="${m.left - 5}" y="${tick.y + 4}" text-anchor="end">${escape(tick.text)}</text>`);
    }
    for (const start of m.starts) {
      out.push(`<line class="plot-game" x1="${start.x}" y1="${panel.top}" x2="${start.x}" y2="${round(panel.top + panel.height)}"/>`);
    }
  }
  const first = escape(names?.[0] ?? "player 1");
  out.push(`<text class="plot-label" x="${m.left}" y="${m.panels.win.top - 6}">${first}: chance to win the game</text>`);
  out.push(`<text class="plot-label" x="${m.left}" y="${m.panels.equity.top - 6}">${first}: equity</text>`);
  for (const start of m.starts) {
    out.push(`<text class="plot-tick" x="${start.x + 3}" y="${height - 6}">game ${start.game}</text>`);
  }
  if (selected != null && m.points[selected]) {
    const x = m.points[selected].x;
    out.push(`<line class="plot-cursor" x1="${x}" y1="${m.panels.win.top}" x2="${x}" y2="${round(m.panels.equity.top + m.panels.equity.height)}"/>`);
  }
  out.push(`<path class="plot-line win" d="${m.paths.win}"/>`, `<path class="plot-line equity" d="${m.paths.equity}"/>`);
  for (const p of m.points) {
    const move = moves[p.index];
    const error = isError(move);
    const title = `<title>${escape(moveCaption(move))}</title>`;
    const fill = error ? ` fill="${MARK_COLOURS[move.mark] || "#c00000"}"` : "";
    const classes = `plot-point${error ? ` error ${markClass(move.mark)}` : ""}${p.index === selected ? " selected" : ""}`;
    for (const key of ["win", "equity"]) {
      out.push(
        `<circle class="${classes} ${key}-point" data-index="${p.index}" cx="${p.x}" cy="${p[key]}" r="${error ? 5 : 2.5}"${fill}>${title}</circle>`,
      );
    }
  }
  return out.join("");
}

/**
 * The read-only board of an error in the review (POST /api/analysis's result): its
 * position seen from the player who erred (at the bottom), the dice of a checker
 * play, the cube, and the played and best plays as arrows ("played", "best").
 */
export function reviewModel(error) {
  const model = positionModel(error.board, error.dice || null);
  const cube = error.cube || { value: 1, owner: null };
  const owner = cube.owner === "player" ? "bottom" : cube.owner === "opponent" ? "top" : null;
  model.cube = { value: cube.value, owner, offered: null, offeredBy: null };
  model.arrows =
    error.kind === "checker"
      ? [...playArrows(error.board, error.played, "played", -5), ...playArrows(error.board, error.best, "best", 5)]
      : [];
  return model;
}

/** The line under the review board for an error ("Game 1, move 4: Alice rolled 2-1 and …"). */
export function reviewCaption(error) {
  const head = `Game ${error.game}, move ${error.move}: ${error.player}`;
  const cost = `(${error.mark}, −${error.loss.toFixed(3)})`;
  if (error.kind === "checker") {
    const dice = error.dice ? `${error.dice[0]}-${error.dice[1]}` : "";
    const played = error.decision.includes(": ") ? error.decision.split(": ").slice(1).join(": ") : error.decision;
    return `${head} rolled ${dice} and played ${played}; best ${error.right} ${cost}.`;
  }
  return `${head}, cube action: ${error.decision}; the right action: ${error.right} ${cost}.`;
}
