"""The FIBS commands that talk: ``say``, ``tell``, ``shout``, ``kibitz``, ``whisper``,
``message``, ``waitfor``, ``gag``, ``blind``; each a function of the session and the
rest of its line, found in :data:`~backgammon.server.fibs.commands.COMMANDS`.

The words go through the service, whose text rules bind every front end; the
session echoes them in FIBS's words (CLIP's numbered lines for a client program).
:func:`tell_message` tells a ``message`` (at login, the stored ones:
:func:`tell_stored_messages`) and :func:`told_waited_for` a login waited for.
"""

from __future__ import annotations

import time
from typing import Any

from backgammon.server.db.repository import User
from backgammon.server.fibs.state import SessionState
from backgammon.server.service import ServiceError

__all__ = [
    "MAX_WAITING_FOR",
    "cmd_blind",
    "cmd_gag",
    "cmd_kibitz",
    "cmd_message",
    "cmd_say",
    "cmd_shout",
    "cmd_tell",
    "cmd_waitfor",
    "cmd_whisper",
    "tell_message",
    "tell_stored_messages",
    "told_waited_for",
]

MAX_WAITING_FOR = 50
"""The most users one login may wait for (``waitfor``)."""

MESSAGE_USAGE = "usage: message <user> <text>"
"""FIBS's error line for ``message`` (its class is FIBS_MessageUsage); a refusal
by the service's text rules follows it in parentheses."""


async def cmd_say(session: SessionState, rest: str) -> None:
    """``say TEXT``: words to the opponent of the match being played."""
    user = session.user
    assert user is not None
    if session.playing is None:
        await session.error("You're not playing.")
        return
    if not rest.strip():
        await session.error("You can't say nothing.")
        return
    state = session.states.get(session.playing) or await session.service.state(session.playing)
    opponent = next(name for name in state["players"] if name != user.name)
    await session.service.tell(user, opponent, rest, kind="say")
    await session.line(f"16 {opponent} {rest}" if session.clip else f"You say: {rest}")


async def cmd_tell(session: SessionState, rest: str) -> None:
    """``tell NAME TEXT``: words to one user online."""
    name, _, text = rest.partition(" ")
    if not name:
        await session.error("Tell whom?")
        return
    if not text.strip():
        await session.error(f"Tell {name[:40]} what?")
        return
    assert session.user is not None
    if await session.named(name) is None:
        return
    try:
        target = await session.service.tell(session.user, name, text)
    except ServiceError as error:
        if error.code != "bad_request":
            raise
        # The web's message names its field ("to: ..."); a person reads the sentence.
        await session.error(error.message.removeprefix("to: "))
        return
    await session.line(
        f"16 {target.name} {text}" if session.clip else f"** You tell {target.name}: {text}"
    )


async def cmd_message(session: SessionState, rest: str) -> None:
    """FIBS's ``message NAME TEXT``: told at once if NAME is online (CLIP 10),
    else kept for NAME's next login (CLIP 11)."""
    name, _, text = rest.partition(" ")
    if not name or not text.strip():
        await session.error(MESSAGE_USAGE)
        return
    assert session.user is not None
    try:
        target, delivered = await session.service.leave_message(session.user, name, text)
    except ServiceError as error:
        if error.code == "not_found":
            await session.error(f"Don't know user {name}")
        elif error.code == "forbidden":
            raise
        else:
            await session.error(f"{MESSAGE_USAGE} ({error.message})")
        return
    if session.clip:
        await session.line(f"{10 if delivered else 11} {target.name}")
    else:
        verb = "delivered to" if delivered else "saved for"
        await session.line(f"Message {verb} {target.name}.")


async def tell_stored_messages(session: SessionState, user: User) -> None:
    """At login, the messages kept for this user (FIBS: after the MOTD)."""
    messages = await session.service.take_messages(user)
    if messages:
        await session.line("There are messages for you:")
    for message in messages:
        await tell_message(session, message)


async def tell_message(session: SessionState, message: dict[str, Any]) -> None:
    """A ``message`` from another user (CLIP 9: from, time, text)."""
    sender, text, at = message["from"], message["text"], int(message["at"])
    if sender in session.gagged:
        return
    if session.clip:
        await session.line(f"9 {sender} {at} {text}")
    else:
        when = time.strftime("%a %b %d %H:%M:%S %Y", time.gmtime(at))
        await session.line(f"Message from {sender} on {when} UTC: {text}")


async def cmd_waitfor(session: SessionState, rest: str) -> None:
    """Be told when a user logs in (FIBS's ``waitfor``); alone, list them."""
    if not rest.split():
        waiting = ", ".join(sorted(session.waiting_for)) or "no one"
        await session.error(f"You are waiting for {waiting}.")
        return
    target = await _other_user(session, rest, "You can't wait for yourself.")
    if target is None:
        return
    if any(user_id == target.id for user_id, _name in session.service.online_names()):
        await session.error(f"{target.name} is logged in now.")
    elif target.name not in session.waiting_for and len(session.waiting_for) >= MAX_WAITING_FOR:
        await session.error(f"You can wait for at most {MAX_WAITING_FOR} users.")
    else:
        session.waiting_for.add(target.name)
        await session.error(f"Waiting for {target.name} to log in.")


async def told_waited_for(session: SessionState, name: str) -> None:
    """A user this login waits for logged in: as FIBS, tell both."""
    session.waiting_for.discard(name)
    await session.error(f"FINALLY!!! {name} logs in")
    assert session.user is not None
    await session.service.tell_waited_for(session.user, name)


async def cmd_gag(session: SessionState, rest: str) -> None:
    """Stop (or start again) hearing a user's words: their tells, shouts and
    messages, stored ones too; kept with the account, for later logins."""
    target = await _other_user(session, rest, "You talk too much, don't you?")
    if target is not None:
        assert session.user is not None
        await session.service.set_gag(session.user, target, target.name not in session.gagged)
        await _flip(session, session.gagged, target.name, "gag")


async def cmd_blind(session: SessionState, rest: str) -> None:
    """Stop (or start again) seeing a user's invitations, for this login."""
    target = await _other_user(session, rest, "You can't read this message now, can you?")
    if target is not None:
        await _flip(session, session.blinded, target.name, "blind")


async def _other_user(session: SessionState, rest: str, yourself: str) -> User | None:
    """The user named in ``rest``, not oneself (None after an error line)."""
    assert session.user is not None
    words = rest.split()
    if len(words) != 1:
        await session.error("Unknown command: give one user's name")
        return None
    target = await session.named(words[0])
    if target is not None and target.id == session.user.id:
        await session.error(yourself)
        return None
    return target


async def _flip(session: SessionState, names: set[str], name: str, verb: str) -> None:
    if name in names:
        names.discard(name)
        await session.error(f"You un{verb} {name}.")
    else:
        names.add(name)
        await session.error(f"You {verb} {name}.")


async def cmd_shout(session: SessionState, rest: str) -> None:
    """``shout TEXT``: words to the lobby."""
    assert session.user is not None
    if not rest.strip():
        await session.error("You can't say nothing.")
        return
    await session.service.chat(session.user, "lobby", rest)
    await session.line(f"17 {rest}" if session.clip else f"You shout: {rest}")


async def cmd_kibitz(session: SessionState, rest: str) -> None:
    """``kibitz TEXT``: words to everyone at the match played or watched."""
    await _match_chat(session, rest, "auto", "19", "kibitz")


async def cmd_whisper(session: SessionState, rest: str) -> None:
    """``whisper TEXT``: words to the watchers of the match played or watched."""
    await _match_chat(session, rest, "spectators", "18", "whisper")


async def _match_chat(
    session: SessionState, text: str, audience: str, code: str, verb: str
) -> None:
    """Kibitz (to everyone at the match) or whisper (to its watchers)."""
    assert session.user is not None
    room = session.playing or session.watching
    if room is None:
        await session.error("You're not watching or playing.")
        return
    if not text.strip():
        await session.error("You can't say nothing.")
        return
    await session.service.chat(session.user, room, text, audience=audience)
    await session.line(f"{code} {text}" if session.clip else f"You {verb}: {text}")
