"""The game service's events told to one FIBS session the way FIBS tells them, apart
from a match's states (``telling``) and a match of its own starting (the session's):
invitations, shouts and kibitzes, tells, messages, a login waited for, a match started
by a player watched by name, a tournament's pairing, a kick. Each is a function of
the session and the event, found in :data:`EVENTS` by the event's type.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from backgammon.server.fibs.commands_info import watch_match
from backgammon.server.fibs.commands_play import stop_playing
from backgammon.server.fibs.commands_social import tell_message, told_waited_for
from backgammon.server.fibs.state import SessionState, unshowable
from backgammon.server.fibs.telling import join_next_game, match_state

__all__ = ["EVENTS"]


async def lobby_event(session: SessionState, message: dict[str, Any]) -> None:
    """What the lobby feed hands this session alone: a match that starts (for
    ``watch NAME``), a login it waits for. Logins and logouts are the feed's."""
    event = message.get("event")
    if event == "match_started":
        await watched_starts(session, message["match"])
        return
    name = (message.get("user") or {}).get("name")
    if event == "online" and name in session.waiting_for:
        await told_waited_for(session, name)


async def watched_starts(session: SessionState, match_id: str) -> None:
    """The player we watch between matches starts one: watch it (as FIBS)."""
    name = session.watched_name
    if name is None or session.watching is not None or session.playing is not None:
        return
    state = await session.service.state(match_id)
    names = state["players"]
    if name not in names or session.user is None:
        return
    if not session.service.findable(match_id, session.user):
        return  # (an unlisted match's start is not told; this is defence in depth)
    length = state["settings"]["length"]
    what = f"a {length} point match" if length else "an unlimited match"
    session.seen[match_id] = 0  # told from its start
    # Watching first, then the line: a kibitz sent on seeing it finds the match.
    await watch_match(session, match_id, name)
    await session.line(f"{names[0]} and {names[1]} start {what}.")


async def invitation(session: SessionState, message: dict[str, Any]) -> None:
    """An invitation to this user (unless blinded), or why it cannot be played here."""
    length = message["settings"]["length"]
    sender = message["from"]
    if sender in session.blinded:
        return
    what = "an unlimited match" if not length else f"a {length} point match"
    refusal = unshowable(message["settings"])
    if refusal is not None:
        await session.line(f"{sender} wants to play {what} of {message['settings']['variant']}.")
        await session.line(f"** It can't be played here: {refusal}.")
        return
    await session.line(f"{sender} wants to play {what} with you.")
    await session.line(f"Type 'join {sender}' to accept.")


async def match_closed(session: SessionState, message: dict[str, Any]) -> None:
    """An invitation of ours was declined, or one to us cancelled (on the web).
    FIBS has no such message: told to people at a terminal only (a client
    program would not know the line)."""
    by = message["by"]
    if session.clip or session.user is None or by == session.user.name or by in session.blinded:
        return
    if message["reason"] == "declined":
        await session.line(f"** {by} declines your invitation.")
    elif message["reason"] == "cancelled":
        await session.line(f"** {by} cancels the invitation.")


async def chat(session: SessionState, message: dict[str, Any]) -> None:
    """A shout (lobby; not with ``silent`` on), whisper or kibitz of another user not
    gagged."""
    sender, text, room = message["from"], message["text"], message["room"]
    if (session.user is not None and sender == session.user.name) or sender in session.gagged:
        return
    if room == "lobby":
        if session.toggles["silent"]:  # "You won't hear what other players shout."
            return
        await session.line(f"13 {sender} {text}" if session.clip else f"{sender} shouts: {text}")
    elif message.get("audience") == "spectators":
        await session.line(f"14 {sender} {text}" if session.clip else f"{sender} whispers: {text}")
    else:
        await session.line(f"15 {sender} {text}" if session.clip else f"{sender} kibitzes: {text}")


async def said(session: SessionState, message: dict[str, Any]) -> None:
    """A ``tell`` or ``say`` to this user (the same CLIP line; worded apart for people)."""
    sender, text = message["from"], message["text"]
    if sender in session.gagged:
        return
    verb = "tells" if message["type"] == "tell" else "says"
    await session.line(f"12 {sender} {text}" if session.clip else f"{sender} {verb}: {text}")


async def waited_for(session: SessionState, message: dict[str, Any]) -> None:
    """Someone who waited for this user's login (``waitfor``)."""
    if message["from"] not in session.gagged:
        await session.line(f"{message['from']} is waiting for you to log in.")


async def join_next(session: SessionState, _message: dict[str, Any]) -> None:
    """The player typed ``join`` between games (queued to keep the match's order)."""
    await join_next_game(session)


async def tournament_pairing(session: SessionState, message: dict[str, Any]) -> None:
    """This user's opponent in a tournament's new round, and for a match the dice
    commitment with the way to add a nonce before the first throw (see
    docs/fair-dice.md: a FIBS client has no other way to give one)."""
    opponent = message["opponent"] or "nobody (a bye)"
    lines = [f"** Tournament {message['name']}, round {message['round']}: you play {opponent}."]
    if message.get("opponent") and message.get("commitment"):
        session.paired_match = message["match"]
        seconds = max(0, round(message["ready_by"] - time.time()))
        lines.append(
            f"** Dice commitment {message['commitment']}. The match starts within "
            f"{seconds} seconds; to add your own dice nonce first, type: nonce WORD"
        )
    await session.lines(lines)


async def left_game(session: SessionState, message: dict[str, Any]) -> None:
    """A player typed ``leave`` in a match this session plays or watches: its
    opponent stops playing it too (it is saved: ``join NAME`` resumes it), its
    watchers are told, in FIBS's words as clients' tables of FIBS's lines read them
    (``** Player NAME has left the game. The game was saved.``: GNU Backgammon for
    Android's ``FIBS_OpponentLeftGame``; ``NAME has left the game with OTHER.``: the
    ``FIBS_PlayerLeftGame`` of the Dart and C# ports of the FIBS cookie monster)."""
    name, match_id = message["name"], message["match"]
    if session.user is None or name == session.user.name:
        return
    if session.playing == match_id:
        stop_playing(session)
        await session.line(f"** Player {name} has left the game. The game was saved.")
    elif session.watching == match_id:
        await session.line(f"{name} has left the game with {message['opponent']}.")


async def resumed(session: SessionState, message: dict[str, Any]) -> None:
    """The opponent took up a saved match of ours again (``join``, ``invite`` or a
    login): if we play it here, FIBS's ``NAME has joined you. Your running match was
    loaded.``; if not, ``NAME wants to resume a saved match with you.`` and how to."""
    name, match_id = message["name"], message["match"]
    if session.user is None or name == session.user.name:
        return
    if session.playing == match_id:
        await session.line(f"{name} has joined you. Your running match was loaded.")
    elif session.playing is None:
        await session.line(f"{name} wants to resume a saved match with you.")
        await session.line(f"Type 'join {name}' to accept.")


async def kicked(session: SessionState, message: dict[str, Any]) -> None:
    """A kick or another moderator's action against this user."""
    await session.error(message.get("message", "You were kicked."))


EVENTS: dict[str, Callable[[SessionState, dict[str, Any]], Awaitable[None]]] = {
    "state": match_state,
    "lobby_event": lobby_event,
    "invitation": invitation,
    "match_closed": match_closed,
    "tell": said,
    "say": said,
    "message": tell_message,
    "waited_for": waited_for,
    "join_next_game": join_next,
    "chat": chat,
    "tournament_pairing": tournament_pairing,
    "kicked": kicked,
    "left_game": left_game,
    "resumed": resumed,
    "moderation": kicked,
}
"""Each event's handler by its type (a ``match_started`` event and the lobby feed's
lines are the session's own; other types are not told)."""
