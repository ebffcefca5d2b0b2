// The player page's pure helpers (no DOM; player.js is its DOM side): the rating
// graph's points and a match as a row of the history. Unit-tested by view.test.mjs.

/**
 * The rating graph of one variant: the history's entries of `variant` in time order,
 * after the starting rating (`start`, 1500), as polyline points inside `width` by
 * `height` with `pad` on every side. X: evenly spaced by match; y: the rating, the
 * lowest at the bottom (a flat history is drawn across the middle).
 * Returns {points: [[x, y], ...], low, high} (`low`/`high`: the ratings at the edges).
 */
export function ratingPoints(history, variant, width, height, { pad = 10, start = 1500 } = {}) {
  const entries = history
    .filter((entry) => entry.variant === variant)
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  if (!entries.length) return { points: [], low: start, high: start };
  const ratings = [start, ...entries.map((entry) => entry.rating)];
  const low = Math.min(...ratings);
  const high = Math.max(...ratings);
  const innerWidth = Math.max(width - 2 * pad, 0);
  const innerHeight = Math.max(height - 2 * pad, 0);
  const round = (x) => Math.round(x * 10) / 10;
  const points = ratings.map((rating, index) => {
    const x = pad + (innerWidth * index) / (ratings.length - 1);
    const y = high === low ? pad + innerHeight / 2 : pad + (innerHeight * (high - rating)) / (high - low);
    return [round(x), round(y)];
  });
  return { points, low, high };
}

/** A match summary as one row of a player's history, from `name`'s side. */
export function historyRow(match, name) {
  const seat = match.players[0] === name ? 0 : 1;
  const opponent = match.players[1 - seat] ?? "";
  const settings = match.settings || {};
  const length = settings.length ? `${settings.length}` : "money";
  let result = match.status;
  if (match.result) {
    const won = match.result.winner === seat;
    const cap = (points) => (settings.length ? Math.min(points, settings.length) : points); // as resultTally
    const score = match.result.score ? ` ${cap(match.result.score[seat])}-${cap(match.result.score[1 - seat])}` : "";
    result = `${won ? "won" : "lost"}${score}${match.result.reason && match.result.reason !== "score" ? ` (${match.result.reason})` : ""}`;
  }
  const at = typeof match.created_at === "number" ? new Date(match.created_at * 1000) : new Date(match.created_at);
  const date = Number.isNaN(at.getTime()) ? "" : at.toISOString().slice(0, 10);
  return { id: match.id, opponent, length, variant: settings.variant || "standard", result, date, finished: Boolean(match.result) };
}
