// The social side's words and bookkeeping (pure functions, no DOM): where a rating goes
// in a lobby line, the private-message threads, and the title badge of a tab in the
// background. Unit-tested by socialview.test.mjs; social.js puts them on the page.

/** Lines kept per thread and in the lobby chat (the oldest go first). */
export const MAX_LINES = 100;

/** A rating as shown after a name: "(1523)". */
export function ratingText(rating) {
  return `(${Math.round(rating)})`;
}

// Where `name` stands in `text` as a whole word (user names are letters, digits, _).
function findName(text, name) {
  const word = /[A-Za-z0-9_]/;
  let at = text.indexOf(name);
  while (at >= 0) {
    const before = at === 0 ? "" : text[at - 1];
    const after = text[at + name.length] || "";
    if (!word.test(before) && !word.test(after)) return at;
    at = text.indexOf(name, at + 1);
  }
  return -1;
}

/** `text` cut after the first whole-word occurrence of each of `names` that has a
 * rating, in order: strings and {rating, name} marks, for a rating after each name
 * ("alice invites you" → ["alice", {name: "alice", rating: 1523}, " invites you"]). */
export function splitAtNames(text, names, ratings) {
  const parts = [];
  let rest = text;
  for (const name of names) {
    if (!name || !ratings.has(name)) continue;
    const at = findName(rest, name);
    if (at < 0) continue;
    parts.push(rest.slice(0, at + name.length), { name, rating: ratings.get(name) });
    rest = rest.slice(at + name.length);
  }
  if (rest) parts.push(rest);
  return parts;
}

/** The private-message threads, by the other user's name: each a list of
 * {from, text, at} (at most MAX_LINES) and how many lines are unread. */
export class Threads {
  constructor() {
    this.byName = new Map();
  }

  /** Add a line to the thread with `other`; `unread` when the reader has not seen it. */
  add(other, line, unread = false) {
    const thread = this.open(other);
    thread.lines.push(line);
    if (thread.lines.length > MAX_LINES) thread.lines.splice(0, thread.lines.length - MAX_LINES);
    if (unread) thread.unread += 1;
    return thread;
  }

  /** The thread with `other`, made if new. */
  open(other) {
    let thread = this.byName.get(other);
    if (!thread) {
      thread = { lines: [], unread: 0 };
      this.byName.set(other, thread);
    }
    return thread;
  }

  /** Mark the thread with `other` read. */
  read(other) {
    const thread = this.byName.get(other);
    if (thread) thread.unread = 0;
  }

  /** A thread's tab label: "bob", or "bob (2)" with two unread lines. */
  label(other) {
    const thread = this.byName.get(other);
    return thread && thread.unread ? `${other} (${thread.unread})` : other;
  }

  names() {
    return [...this.byName.keys()];
  }
}

/** The page title with `count` unseen invitations: "(2) Backgammon"; the plain
 * title for none. `title` may carry an old count, which is replaced. */
export function badgeTitle(title, count) {
  const plain = title.replace(/^\(\d+\) /, "");
  return count > 0 ? `(${count}) ${plain}` : plain;
}

/** What a notification of an invitation says. */
export function invitationNotice(message) {
  const length = message.settings && message.settings.length;
  const what = length ? `a ${length}-point match` : "a match";
  return `${message.from} invites you to ${what}.`;
}
