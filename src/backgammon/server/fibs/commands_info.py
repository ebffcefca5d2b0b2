"""The FIBS commands that show and set things: ``who``/``rawwho``, ``whois``, ``look``,
``board``, ``pip``, ``watch``/``unwatch``, ``toggle``, ``set``, ``help``; each a function
of the session and the rest of its line, found in
:data:`~backgammon.server.fibs.commands.COMMANDS`.

:func:`who` is also the who list a CLIP client gets at login, and :func:`watch_match`
starts watching a match (for ``watch NAME``, now or when NAME starts one).
"""

from __future__ import annotations

from typing import Any

from backgammon.rules.position import Position
from backgammon.server.db.repository import User
from backgammon.server.fibs.clip import TOGGLE_TEXTS, board_line, line_safe
from backgammon.server.fibs.state import SessionState, unshowable
from backgammon.server.fibs.telling import tell_board
from backgammon.server.lobby.presence import WhoFacts
from backgammon.server.service import ServiceError

__all__ = [
    "HELP_COMMANDS",
    "cmd_board",
    "cmd_help",
    "cmd_look",
    "cmd_pip",
    "cmd_set",
    "cmd_toggle",
    "cmd_unwatch",
    "cmd_watch",
    "cmd_who",
    "cmd_whois",
    "stop_watching",
    "watch_match",
    "who",
]

HELP_COMMANDS = (
    "who rawwho invite join roll move double accept reject resign leave nonce board watch "
    "unwatch look say shout kibitz whisper tell message waitfor gag blind whois pip toggle "
    "set help bye"
)
"""The commands ``help`` names."""

NOT_LOGGED_IN = " Not logged in right now."


async def cmd_help(session: SessionState, _rest: str) -> None:
    """``help``: the commands."""
    await session.line(f"Commands: {HELP_COMMANDS}. Moves: 'move 13-7 8-7', 'move bar-22 6-off'.")


async def cmd_who(session: SessionState, rest: str) -> None:
    """``who [NAME]`` (``rawwho``): who is on, one line each."""
    await who(session, rest.split()[0] if rest else None)


async def who(session: SessionState, only: str | None = None) -> None:
    """The who list (of ``only`` if named): CLIP's ``5`` lines and ``6``, or lines for people."""
    shown = session.service.online_names()
    here = {user_id for user_id, _name in shown}
    bots = [(bot.id, bot.name) for bot in session.service.bots() if bot.id not in here]
    if bots:
        shown = sorted(shown + bots, key=lambda item: item[1])
    if only is not None:
        shown = [item for item in shown if item[1].lower() == only.lower()]
    ids = [user_id for user_id, _name in shown]
    facts = await session.service.who_many(ids)
    lines = [_who_text(session, user_id, facts[user_id]) for user_id in ids if user_id in facts]
    if session.clip:
        lines.append("6")
    await session.send_safe(lines)


def _who_text(session: SessionState, user_id: int, facts: WhoFacts) -> str:
    """A who line (made safe): CLIP's ``5`` line, or a line for people."""
    if session.clip:
        own = session.user is not None and user_id == session.user.id
        return session.who_lines.line(user_id, facts, session.toggles["ready"] if own else None)
    name, rating, experience = facts.name, facts.rating, facts.experience
    opponent = facts.opponent or "-"
    return line_safe(
        f"{name:20} rating {rating:8.2f}  experience {experience:5}  playing {opponent}"
    )


async def cmd_board(session: SessionState, _rest: str) -> None:
    """``board``: the board of the match played or watched."""
    match_id = session.playing or session.watching
    if match_id is None:
        await session.error("You're not watching or playing.")
        return
    state = session.states.get(match_id) or await session.service.state(match_id)
    await tell_board(session, state, match_id)


async def _match_of(
    session: SessionState, rest: str, ask: str
) -> tuple[User, dict[str, Any]] | None:
    """The user named first in ``rest`` and the match they are playing, or None
    after FIBS's error line (``ask`` when no name is given)."""
    if not rest:
        await session.error(ask)
        return None
    target = await session.named(rest.split()[0])
    if target is None:
        return None
    playing = await session.service.matches_of(target, viewer=session.user)
    if not playing:
        await session.error(f"{target.name} is not playing.")
        return None
    return target, playing[0]


async def cmd_watch(session: SessionState, rest: str) -> None:
    """Watch a player: their match now, or (as FIBS) the next one they start."""
    assert session.connection is not None
    if not rest:
        await session.error("Watch whom?")
        return
    if session.playing is not None:
        await session.error("You can't watch another game while you're playing.")
        return
    target = await session.named(rest.split()[0])
    if target is None:
        return
    stop_watching(session)
    session.watched_name = target.name
    await session.line(f"You're now watching {target.name}.")
    playing = await session.service.matches_of(target, viewer=session.user)
    if not playing:
        await session.line(f"{target.name} is not doing anything interesting.")
        return
    await watch_match(session, playing[0]["id"], target.name)


async def watch_match(session: SessionState, match_id: str, name: str) -> None:
    """Watch ``name``'s match, unless it is another's unlisted match."""
    assert session.connection is not None and session.user is not None
    state = await session.service.state(match_id)
    if name not in state["players"] or not session.service.findable(match_id, session.user):
        return
    refusal = unshowable(state["settings"])
    if refusal is not None:
        await session.line(f"** {name}'s match is not shown here: {refusal}.")
        return
    session.watching = match_id
    session.watched_seat = state["players"].index(name)
    session.states[match_id] = state
    await session.service.subscribe(session.connection, match_id)


def stop_watching(session: SessionState) -> None:
    """Stop watching the match watched (if any)."""
    if session.watching is not None and session.connection is not None:
        session.service.hub.leave(session.connection, session.watching)
    session.watching = None


async def cmd_unwatch(session: SessionState, _rest: str) -> None:
    """``unwatch``: stop watching the player watched by name."""
    if session.watched_name is None:
        await session.error("You're not watching.")
        return
    name, session.watched_name = session.watched_name, None
    stop_watching(session)
    await session.line(f"You stop watching {name}.")


async def cmd_look(session: SessionState, rest: str) -> None:
    """``look NAME``: the board of NAME's match, once."""
    found = await _match_of(session, rest, "Look at whom?")
    if found is None:
        return
    target, match = found
    state = await session.service.state(match["id"])
    refusal = unshowable(state["settings"])
    if refusal is not None:
        await session.error(f"{target.name}'s match is not shown here: {refusal}.")
        return
    seat = state["players"].index(target.name)
    await session.line(board_line(state, seat, target.name))


async def cmd_whois(session: SessionState, rest: str) -> None:
    """FIBS's facts about a user: online or not, playing whom, rating."""
    name = rest.split()[0] if rest.split() else ""
    try:
        target = await session.service.user_named(name)
        facts = await session.service.who(target.id)
    except ServiceError:
        await session.line(f"No information found on user {name}.")
        return
    online = any(user_id == target.id for user_id, _public in session.service.online())
    lines = [f"Information about {facts.name}:"]
    # Idle time is not kept: an online user shows 0:00.
    lines.append(" Still logged in. 0:00 minutes idle." if online else NOT_LOGGED_IN)
    if facts.opponent:
        lines.append(f" {facts.name} is playing with {facts.opponent}.")
    else:
        ready = "ready to play" if facts.kind == "bot" else "not ready to play"
        lines.append(f" {facts.name} is {ready}, not watching, not playing.")
    lines.append(f" Rating: {facts.rating:.2f} Experience: {facts.experience}")
    lines.append(" No email address.")
    await session.lines(lines)


async def cmd_pip(session: SessionState, _rest: str) -> None:
    """The pip counts of the game being played or watched (FIBS: 'points for')."""
    match_id = session.playing or session.watching
    if match_id is None:
        await session.error("You're not watching or playing.")
        return
    if session.playing is not None and not session.toggles["allowpip"]:
        await session.error("You don't allow the use of the server's 'pip' command.")
        return
    state = session.states.get(match_id) or await session.service.state(match_id)
    game = state.get("game")
    if not game:
        await session.error("You're not watching or playing.")
        return
    board = game["board"]
    pips = Position.from_slots(board["player0"], board["player1"]).pip_counts()
    names = state["players"]
    seat = session.watched_seat
    if session.playing is not None and session.user is not None and session.user.name in names:
        seat = names.index(session.user.name)
    first = "You" if session.playing is not None else names[seat]
    await session.lines(
        [f"points for {first}: {pips[seat]}", f"points for {names[1 - seat]}: {pips[1 - seat]}"]
    )


async def cmd_toggle(session: SessionState, rest: str) -> None:
    """``toggle [NAME]``: flip one of FIBS's toggles; alone, list them."""
    if not rest:
        await session.line("The current settings are:")
        for name, value in sorted(session.toggles.items()):
            await session.line(f"{name:12} {'YES' if value else 'NO'}")
        return
    name = rest.split()[0].lower()
    if name not in session.toggles:
        await session.error(f"Don't know how to toggle {name}")
        return
    session.toggles[name] = not session.toggles[name]
    on, off = TOGGLE_TEXTS[name]
    await session.error(on if session.toggles[name] else off)


async def cmd_set(session: SessionState, rest: str) -> None:
    """``set boardstyle 1|2|3``: acknowledged (FIBS clients send it); nothing else is set."""
    words = rest.split()
    if len(words) == 2 and words[0] == "boardstyle" and words[1] in ("1", "2", "3"):
        await session.line(f"Value of 'boardstyle' set to {words[1]}.")
        return
    await session.error(f"Can't set '{rest}'.")
