// The lobby's words (pure functions, no DOM): what a match is, what an invitation or a
// match of one's own waiting for an opponent says, and the sentence told when an open
// match is declined, cancelled or withdrawn. Unit-tested by lobbyview.test.mjs.

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
