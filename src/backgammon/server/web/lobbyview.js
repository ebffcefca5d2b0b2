// The lobby's words (pure functions, no DOM): what a match is, what an invitation or a
// match of one's own waiting for an opponent says (and who may take its open seat), and
// the sentence told when an open match is declined, cancelled or withdrawn. Unit-tested
// by lobbyview.test.mjs and view.test.mjs.

import { clockLabel } from "./clocks.js";

/** A match's settings in a few words: "3-point, blitz clock", "money nackgammon, untimed". */
export function describeSettings(settings) {
  const length = settings.length ? `${settings.length}-point` : "money";
  const variant = settings.variant === "standard" ? "" : ` ${settings.variant}`;
  return `${length}${variant}, ${clockLabel(settings.clock)}`;
}

function terms(match) {
  return `${describeSettings(match.settings)}${match.rated ? ", rated" : ""}`;
}

/** An invitation to the viewer (a match summary with the viewer as invitee). */
export function describeInvitation(match) {
  return `${match.players[0]} invites you: ${terms(match)}`;
}

/** One of the viewer's own open matches that the lobby does not list: an invitation
 * they sent, or a match to be joined through its link. */
export function describeSent(match) {
  if (match.invitee) return `You invited ${match.invitee}: ${terms(match)}`;
  return `Your match by link: ${terms(match)}`;
}

/** An open public match as the lobby lists it. */
export function describeOpenMatch(match) {
  return `${match.players[0]}: ${terms(match)}`;
}

/** What the button that takes back one's own open match says. */
export function takeBackLabel(match) {
  return match.invitee ? "Cancel" : "Withdraw";
}

/** The sentence for a `match_closed` message, as the user called `me` reads it. */
export function closedSentence(message, me) {
  const { reason, by, host, invitee } = message;
  if (reason === "declined") {
    if (by === me) return `You declined ${host}'s invitation.`;
    if (host === me) return `${by} declined your invitation.`;
    return `${by} declined ${host}'s invitation.`;
  }
  if (reason === "cancelled") {
    if (by === me) return `You cancelled your invitation to ${invitee}.`;
    if (invitee === me) return `${host} cancelled the invitation.`;
    return `${host} cancelled the invitation to ${invitee}.`;
  }
  if (by === me) return "You withdrew your match.";
  return `${host} withdrew the match.`;
}

/** What an open match (its summary: `players`, `invitee`) waits for, in words, for
 *  the user called `me`: its host, its invitee, or anyone else (a spectator). */
export function describeOpen(open, me) {
  const host = open.players[0];
  const invitee = open.invitee || null;
  if (open.players[1]) {
    // A tournament's match, both seats taken: it starts once both nonces are in.
    return `${host} v ${open.players[1]}: starting once both players' dice nonces are in (commitment ${open.commitment.slice(0, 16)}…).`;
  }
  if (host === me) return invitee ? `Waiting for ${invitee} to accept the invitation…` : "Waiting for an opponent to join…";
  if (invitee === me) return `${host} invites you to this match.`;
  if (invitee) return `${host} has invited ${invitee}: waiting for the invitation to be accepted.`;
  return `${host} waits for an opponent.`;
}

/** Whether the user called `me` may take the open seat of an open match. */
export function mayJoin(open, me) {
  if (open.players[1]) return false; // both seats taken (a tournament's match)
  return open.players[0] !== me && (!open.invitee || open.invitee === me);
}
