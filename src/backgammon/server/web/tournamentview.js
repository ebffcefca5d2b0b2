// What the tournaments page shows, as pure functions of the server's JSON (no DOM):
// the status line, the standings' tie-break columns, a pairing's line, the winner, and
// the body of a new event from the organiser's form. Unit-tested by
// tournamentview.test.mjs; tournaments.js puts them on the page.

export const TIEBREAK_NAMES = {
  buchholz: "Buchholz",
  median_buchholz: "Median Buchholz",
  sonneborn_berger: "Sonneborn-Berger",
  head_to_head: "Head to head",
  round_reached: "Round reached",
  seed: "Seed",
};

export const FORMAT_NAMES = {
  swiss: "Swiss",
  "round-robin": "round robin",
  knockout: "knockout",
  "double-elim": "double elimination",
  arena: "arena",
};

/** The tie-break names of the standings, in the order the server gives them: one
 *  column each. */
export function tiebreakColumns(standings) {
  const seen = [];
  for (const standing of standings) {
    for (const name of Object.keys(standing.tiebreaks || {})) {
      if (!seen.includes(name)) seen.push(name);
    }
  }
  return seen;
}

/** A tie-break's column heading. */
export function tiebreakTitle(name) {
  return TIEBREAK_NAMES[name] || name.replaceAll("_", " ");
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString();
}

/** When the next round begins: the set start of an open event, or (round by round) as
 *  soon as the round in play has ended. */
export function nextStep(view) {
  if (view.status === "open") {
    if (view.starts_at) return `starts at ${when(view.starts_at)}`;
    if (view.settings && view.settings.start_when_full) return "starts when full, or when the organiser starts it";
    return "starts when the organiser starts it";
  }
  if (view.status === "running" && view.settings && view.settings.paused) {
    return "paused by the organiser: the round in play plays on, the next waits";
  }
  if (view.status === "running" && view.round_in_play && !view.ends_at) {
    const rounds = view.settings && view.settings.rounds;
    if (rounds && view.round_in_play >= rounds) return "the last round";
    const next = rounds ? `round ${view.round_in_play + 1}` : "the next round, if any,";
    return `${next} starts as soon as this one's last match ends`;
  }
  if (view.status === "running" && view.ends_at) return `ends at ${when(view.ends_at)}`;
  return "";
}

/** The event in one line: its format, match length, status, round and next step. */
export function statusText(view) {
  const format = FORMAT_NAMES[view.format] || view.format;
  const length = view.settings && view.settings.early_length;
  const parts = [`${format}${length ? `, ${length}-point matches` : ""}`];
  parts.push(view.round_in_play ? `${view.status}, round ${view.round_in_play}` : view.status);
  const next = nextStep(view);
  if (next) parts.push(next);
  const count = view.players.length;
  const most = view.settings && view.settings.max_players;
  parts.push(`${count}${most ? ` of ${most}` : ""} players`);
  return `${parts.join("; ")}.`;
}

/** The winner of a finished event (the standings' first), or null. */
export function winner(view) {
  if (view.status !== "finished" || !view.standings.length) return null;
  return view.standings[0].name;
}

/** The players who withdrew from a running event (their later pairings are forfeits). */
export function withdrawn(view) {
  return (view.settings && view.settings.withdrawn) || [];
}

/** A player as the players' line names them: "ann", "bot_beginner_1 (bot)", "bob (withdrawn)". */
export function playerLabel(player, view) {
  if (player.bot) return `${player.name} (bot)`;
  return withdrawn(view).includes(player.name) ? `${player.name} (withdrawn)` : player.name;
}

/** A pairing in words: "ann – bob: 3–1, ann won" (the final score in the players'
 *  order, where the server gives it), "ann – bob: playing", "ann: bye". */
export function pairingText(pairing) {
  const [first, second] = pairing.players;
  if (second === null) return `${first}: bye`;
  if (pairing.winner === null) return `${first} – ${second}: playing`;
  const score = pairing.score ? `${pairing.score[0]}–${pairing.score[1]}, ` : "";
  return `${first} – ${second}: ${score}${pairing.winner} won`;
}

/** Whether ``name`` plays ``pairing``'s match and it is not over. */
export function isOwnMatch(pairing, name) {
  return Boolean(name && pairing.match && pairing.winner === null && pairing.players.includes(name));
}

/** The match ``name`` should be playing in ``view`` now (the round in play), or null. */
export function ownMatch(view, name) {
  const rounds = view.games ? [{ pairings: view.games }] : view.rounds;
  for (const round of rounds) {
    for (const pairing of round.pairings) {
      if (isOwnMatch(pairing, name)) return pairing.match;
    }
  }
  return null;
}

function whole(text, field, low, high) {
  const value = Number(text);
  if (!Number.isInteger(value) || value < low || value > high) {
    throw new Error(`${field}: a whole number from ${low} to ${high}`);
  }
  return value;
}

/** The ``POST /api/tournaments`` body of the creation form's values (strings, as the
 *  form holds them) and the bots to enter after it: ``{body, bots: {level, count}}``.
 *  Throws an Error naming the first field that is wrong. */
export function creation(values) {
  const name = (values.name || "").trim();
  if (!name) throw new Error("name: give the event a name");
  const format = values.format;
  if (!(format in FORMAT_NAMES)) throw new Error(`format: one of ${Object.keys(FORMAT_NAMES).join(", ")}`);
  const length = whole(values.length, "match length", 1, 25);
  const body = {
    name,
    format,
    max_players: whole(values.max_players, "players", 2, 256),
    early_length: length,
    semi_final_length: length,
    final_length: length,
    rated: Boolean(values.rated),
    clock: {
      delay_seconds: whole(values.delay, "delay", 0, 600),
      reserve_per_point_seconds: whole(values.reserve, "reserve per point", 1, 3600),
    },
  };
  if (format === "swiss" || format === "round-robin") {
    body.rounds = whole(values.rounds, "rounds", 1, 20);
  }
  if (format === "arena") body.duration_seconds = whole(values.minutes, "minutes", 1, 1440) * 60;
  if (values.start === "full") body.start_when_full = true;
  if (values.start === "at") {
    const at = Date.parse(values.starts_at || "");
    if (Number.isNaN(at)) throw new Error("start: choose a date and time");
    if (at < Date.now()) throw new Error("start: a time to come");
    body.starts_at = at / 1000;
  }
  const count = whole(values.bots || "0", "bots", 0, 16);
  if (count >= body.max_players) throw new Error("bots: fewer than the players");
  return { body, bots: { level: values.bot_level, count } };
}
