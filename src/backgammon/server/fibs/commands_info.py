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
from backgammon.server.fibs.clip import TOGGLE_TEXTS, line_safe
from backgammon.server.fibs.help_texts import help_lines
from backgammon.server.fibs.settings import parse_variable, save_settings, variable_lines
from backgammon.server.fibs.state import SessionState, unshowable
from backgammon.server.fibs.telling import show_board, tell_board
from backgammon.server.lobby.presence import WhoFacts
from backgammon.server.service import ServiceError

__all__ = [
    "cmd_board",
    "cmd_help",
    "cmd_look",
    "cmd_pip",
    "cmd_rawwho",
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

NOT_LOGGED_IN = " Not logged in right now."


async def cmd_help(session: SessionState, rest: str) -> None:
    """``help``: the topics; ``help TOPIC``: FIBS's page on one (``help beginner``)."""
    topic = rest.split()[0] if rest.split() else ""
    lines = help_lines(topic)
    if lines is None:
        await session.error(f"No help available on {topic[:40]}")
        return
    await session.lines(lines)


async def cmd_who(session: SessionState, rest: str) -> None:
    """``who [NAME]``: who is on, one line each."""
    await who(session, rest.split()[0] if rest else None)


async def cmd_rawwho(session: SessionState, rest: str) -> None:
    """``rawwho [NAME]``: who is on in CLIP's ``5`` lines, then ``6``, at a terminal too."""
    await who(session, rest.split()[0] if rest else None, raw=True)


async def who(session: SessionState, only: str | None = None, raw: bool = False) -> None:
    """The who list (of ``only`` if named): CLIP's ``5`` lines and ``6`` (for a
    client program, or ``raw``), or lines for people."""
    shown = session.service.online_names()
    here = {user_id for user_id, _name in shown}
    bots = [(bot.id, bot.name) for bot in session.service.bots() if bot.id not in here]
    if bots:
        shown = sorted(shown + bots, key=lambda item: item[1])
    if only is not None:
        shown = [item for item in shown if item[1].lower() == only.lower()]
    ids = [user_id for user_id, _name in shown]
    facts = await session.service.who_many(ids)
    raw = raw or session.clip
    lines = [_who_text(session, i, facts[i], raw) for i in ids if i in facts]
    if raw:
        lines.append("6")
    await session.send_safe(lines)


def _who_text(session: SessionState, user_id: int, facts: WhoFacts, raw: bool) -> str:
    """A who line (made safe): CLIP's ``5`` line (``raw``), or a line for people."""
    if raw:
        return session.who_lines.line(user_id, facts)
    name, rating, experience = facts.name, facts.rating, facts.experience
    ready, watching = session.who_lines.status(user_id)
    flags = ("  ready" if ready else "") + (f"  watching {watching}" if watching else "")
    opponent = facts.opponent or "-"
    return line_safe(
        f"{name:20} rating {rating:8.2f}  experience {experience:5}  playing {opponent}{flags}"
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
    if session.user is not None and target.id == session.user.id:
        await session.error("Use a mirror to do that.")
        return
    stop_watching(session)
    session.watched_name = target.name
    await session.announce_status()
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
    await session.announce_status()
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
    await show_board(session, state, seat, target.name)


async def cmd_whois(session: SessionState, rest: str) -> None:
    """FIBS's facts about a user: online or not, ready, watching or playing whom,
    rating."""
    if not rest.split():
        await session.error("Whois who?")
        return
    name = rest.split()[0][:40]
    try:
        target = await session.service.user_named(name)
        facts = await session.service.who(target.id)
    except ServiceError:
        await session.line(f"No information found on user {name}.")
        return
    online = target.kind == "bot" or any(
        user_id == target.id for user_id, _public in session.service.online()
    )
    lines = [f"Information about {facts.name}:"]
    # Idle time is not kept: an online user shows 0:00.
    lines.append(" Still logged in. 0:00 minutes idle." if online else NOT_LOGGED_IN)
    if facts.opponent:
        lines.append(f" {facts.name} is playing with {facts.opponent}.")
    elif online:
        lines.append(_doing(facts.name, *session.who_lines.status(target.id)))
    lines.append(f" Rating: {facts.rating:.2f} Experience: {facts.experience}")
    lines.append(" No email address.")
    await session.lines(lines)


def _doing(name: str, ready: bool, watching: str | None) -> str:
    """FIBS's whois line of a user online who is not playing."""
    ready_text = "ready to play" if ready else "not ready to play"
    watching_text = f"watching {watching}" if watching else "not watching"
    return f" {name} is {ready_text}, {watching_text}, not playing."


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
    """``toggle [NAME]``: flip one of FIBS's toggles (kept with the account); alone,
    list them."""
    if not rest:
        await session.line("The current settings are:")
        for name, value in sorted(session.toggles.items()):
            await session.line(f"{name:12} {'YES' if value else 'NO'}")
        return
    name = rest.split()[0].lower()
    if name not in session.toggles:
        await session.error(f"Don't know how to toggle {name[:40]}")
        return
    session.toggles[name] = not session.toggles[name]
    on, off = TOGGLE_TEXTS[name]
    await session.error(on if session.toggles[name] else off)
    if name == "ready":
        await session.announce_status()
    await save_settings(session)


async def cmd_set(session: SessionState, rest: str) -> None:
    """``set``: list FIBS's variables; ``set NAME``: show one; ``set NAME VALUE``:
    change one (kept with the account; ``boardstyle`` draws the boards)."""
    words = rest.split()
    if not words:
        await session.lines(variable_lines(session.variables))
        return
    name = words[0].lower()
    if name not in session.variables:
        await session.error("Invalid argument. Type 'help set'.")
        return
    if len(words) == 1:
        await session.line(f"Value of '{name}' is {session.variables[name]}")
        return
    try:
        value = parse_variable(name, words[1])
    except ValueError as error:
        await session.error(str(error))
        return
    session.variables[name] = value
    await session.line(f"Value of '{name}' set to {value}.")
    await save_settings(session)
