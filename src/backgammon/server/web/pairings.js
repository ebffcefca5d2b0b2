// A tournament's pairing, wherever in the app the player is (the match page, the lobby,
// the tournaments' pages, the chouettes' pages): the match's dice commitment comes with
// the pairing, so only now is our nonce chosen, and it is sent once (docs/fair-dice.md);
// the player is told (by the browser's own notification too when the tab is hidden, if
// they allowed it) and taken to the match unless they are playing another game.

import { api } from "./common.js";

const GIVEN = "backgammon.nonces-given"; // the matches whose nonce this tab gave (all pages)
const OPENED = "backgammon.tournament-matches-opened"; // the pairings' matches this tab opened

/** A fresh dice nonce: 24 hex digits from the browser's random source. */
export function freshNonce() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The match ids this tab noted under `key` (sessionStorage: every page of the tab). */
function noted(key) {
  try {
    return JSON.parse(sessionStorage.getItem(key) || "[]");
  } catch {
    return [];
  }
}

/** Note `id` under `key`; false if it was noted already. */
function note(key, id) {
  const ids = noted(key);
  if (ids.includes(id)) return false;
  sessionStorage.setItem(key, JSON.stringify([...ids, id].slice(-50)));
  return true;
}

/** Note that this tab shows a pairing's match now; false if it did before (the player
 * may have left it on purpose: they are not taken there again). */
export function noteOpened(matchId) {
  return note(OPENED, matchId);
}

/** Take the player to a pairing's match unless this tab took them there before. */
export function openMatchOnce(matchId) {
  if (noteOpened(matchId)) location.assign(`/#/match/${encodeURIComponent(matchId)}`);
}

/** Our fresh nonce for a seated match not started (a tournament's), once per tab: a
 * second one would be refused. `open` is {id, players}; `me` our name. */
export function giveNonce(open, me) {
  if (!open.players[1] || !open.players.includes(me) || !note(GIVEN, open.id)) return;
  api("POST", `/api/matches/${encodeURIComponent(open.id)}/nonce`, { nonce: freshNonce() }).catch(() => {});
}

/** The sentence that tells a player their pairing. */
export function pairingSentence(message) {
  return `${message.name}, round ${message.round}: you play ${message.opponent}.`;
}

/** The browser's own notification of a pairing when the tab is hidden (if allowed). */
export function noticePairing(message) {
  if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
  const notice = new Notification("Backgammon", { body: pairingSentence(message), tag: `pairing-${message.match}` });
  notice.addEventListener("click", () => {
    window.focus();
    notice.close();
  });
}

/** A `tournament_pairing` message heard on a page other than the match page: told,
 * the nonce given, and the match opened (once) unless `busy` (a game of one's own in
 * play). */
export function followPairing(message, me, { say, busy }) {
  say(pairingSentence(message));
  giveNonce({ id: message.match, players: [me, message.opponent] }, me);
  noticePairing(message);
  if (!busy) openMatchOnce(message.match);
}

/** For a page with no socket of its own (the tournaments'): a WebSocket that hears
 * the signed-in player's pairings (a timer may be slowed in a hidden tab; a message is
 * not), reopened when it drops. */
export function listenForPairings(me, say) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "tournament_pairing") followPairing(message, me, { say, busy: false });
  });
  socket.addEventListener("close", (event) => {
    if (event.code !== 4429) setTimeout(() => listenForPairings(me, say), 5000);
  });
}
