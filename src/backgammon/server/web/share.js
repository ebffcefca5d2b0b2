// Links that reopen what is on the screen: a position of the position tool with its
// dice and lookahead (#/position?p=XGID&dice=3-1&ply=1), a finished match's review
// (#/review/ID). The parsing is pure (unit-tested by share.test.mjs) and says what is
// wrong with a malformed link; copyText() puts a link on the clipboard.

/** The longest position link read (the position field takes 400 characters). */
export const MAX_LINK = 2000;
export const MAX_POSITION = 400;
const PLIES = ["0", "1", "2"];

/** The position tool's link for a position text (Position ID, XGID or FIBS board),
 *  its dice field ("" for the text's own) and lookahead. */
export function positionLink(origin, { position, dice = "", ply = "0" }) {
  const query = new URLSearchParams({ p: position });
  if (dice) query.set("dice", dice);
  if (String(ply) !== "0") query.set("ply", String(ply));
  return `${origin}/#/position?${query}`;
}

/**
 * What a #/position hash asks for: null (not the position tool), {share: null} (the
 * tool, nothing shared), {share: {position, dice, ply}}, or {error} saying what is wrong
 * with a shared link (too long, no position, a bad lookahead or dice field).
 */
export function parsePositionLink(hash) {
  const text = String(hash || "");
  if (text === "#/position") return { share: null };
  if (!text.startsWith("#/position?")) return null;
  if (text.length > MAX_LINK) {
    return { error: `The shared link is too long (${text.length} characters; at most ${MAX_LINK}).` };
  }
  let query;
  try {
    query = new URLSearchParams(text.slice("#/position?".length));
  } catch {
    return { error: "The shared link is not a position link." };
  }
  const position = (query.get("p") || "").trim();
  if (!position) return { error: "The shared link has no position (its p= is missing or empty)." };
  if (position.length > MAX_POSITION) {
    return { error: `The shared link's position is too long (${position.length} characters; at most ${MAX_POSITION}).` };
  }
  const dice = (query.get("dice") || "").trim();
  if (dice.length > 10 || !/^[0-9a-z -]*$/i.test(dice)) return { error: "The shared link's dice are not a roll such as 3-1 (or none)." };
  const ply = query.get("ply") ?? "0";
  if (!PLIES.includes(ply)) return { error: "The shared link's lookahead (ply=) must be 0, 1 or 2." };
  return { share: { position, dice, ply } };
}

/** A finished match's review link. */
export function reviewLink(origin, matchId) {
  return `${origin}/#/review/${encodeURIComponent(matchId)}`;
}

/** Copy `text` to the clipboard and say so on `line` (an element); without a
 *  clipboard (a page not served securely) the text is shown to copy by hand. */
export async function copyText(text, what, line) {
  try {
    await navigator.clipboard.writeText(text);
    line.textContent = `Copied the ${what}.`;
  } catch {
    line.textContent = `Copy the ${what} by hand: ${text}`;
  }
}
