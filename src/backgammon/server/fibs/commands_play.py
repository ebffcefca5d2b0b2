"""The FIBS commands that play a match: ``invite``, ``join``, ``roll``, ``move``,
``double``, ``accept``, ``reject``, ``resign``, ``leave``; each a function of the
session and the rest of its line, found in
:data:`~backgammon.server.fibs.commands.COMMANDS`.

A player's action goes to the service as the web's does (:func:`act`), and a refusal
is told in FIBS's words where FIBS has them (:func:`fibs_error`). :func:`start_playing`
begins telling a match the session plays (after ``invite`` to a bot, ``join``, a
``match_started`` event or a login with a running match).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from backgammon.rules.position import Position
from backgammon.server.db.repository import User
from backgammon.server.fibs.clip import move_error
from backgammon.server.fibs.state import JOIN_NEXT_GAME, SessionState, first_problem, unshowable
from backgammon.server.protocol import ActionBody, CreateMatch, GiveNonce, MatchSettings
from backgammon.server.service import ServiceError

__all__ = [
    "act",
    "cmd_accept",
    "cmd_double",
    "cmd_invite",
    "cmd_join",
    "cmd_leave",
    "cmd_move",
    "cmd_nonce",
    "cmd_reject",
    "cmd_resign",
    "cmd_roll",
    "fibs_error",
    "start_playing",
]


_ORDINALS = ("first", "second", "third", "fourth")


def _typed_steps(moves: list[str]) -> list[tuple[int, int]] | str:
    """The steps of a typed move (``["13/7", "bar/22"]``) as (from, to) pairs, 25
    the bar and 0 off; or, if a step is not two points, which one (``"second move"``)."""
    points = {"bar": 25, "b": 25, "off": 0, "o": 0, "home": 0, "h": 0}
    typed: list[tuple[int, int]] = []
    for number, move in enumerate(moves):
        ends = move.lower().split("/")
        try:
            if len(ends) != 2:
                raise ValueError(move)
            pair = [points[end] if end in points else int(end) for end in ends]
        except ValueError:
            return f"{_ORDINALS[number]} move" if number < len(_ORDINALS) else f"move {number + 1}"
        typed.append((pair[0], pair[1]))
    return typed


async def cmd_invite(session: SessionState, rest: str) -> None:
    """``invite NAME [LENGTH|unlimited]``: invite a user (a bot's match starts at
    once); ``invite NAME`` with a match with NAME going on resumes it."""
    user = session.user
    assert user is not None
    words = rest.split()
    if not words:
        await session.error("invite who?")
        return
    length = _length(words[1]) if len(words) > 1 else 1
    if length is None:
        await session.error(f"Match length '{words[1][:20]}': a number 1-64 or 'unlimited'.")
        return
    if session.busy():
        await session.error("You are already playing.")
        return
    target = await session.named(words[0][:40])
    if target is None:
        return
    if target.id == user.id:
        await session.error("You can't invite yourself.")
        return
    running = await _running_with(session, target.name)
    if running is not None:
        if len(words) == 1:
            await start_playing(session, running, resumed=True)
        else:
            await session.error(
                f"You have a match with {target.name} going on: "
                f"type 'join {target.name}' to resume it."
            )
        return
    if not session.who_lines.status(target.id)[0]:
        await session.error(f"{target.name} is refusing games.")
        return
    await _invite(session, target, length)


def _length(word: str) -> int | None:
    """A typed match length: 1-64, 0 for ``unlimited``; None for anything else."""
    if word == "unlimited":
        return 0
    if word.isascii() and word.isdigit() and 1 <= int(word) <= 64:
        return int(word)
    return None


async def _invite(session: SessionState, target: User, length: int) -> None:
    """Invite ``target`` to a match of ``length`` (0: unlimited): FIBS's line first,
    then (a bot accepts at once) the match."""
    assert session.user is not None
    opponent = f"bot:{target.bot_level}" if target.kind == "bot" else target.name
    request = CreateMatch(settings=MatchSettings(length=length, clock=None), opponent=opponent)
    what = "an unlimited match" if not length else f"a {length} point match"
    if target.kind != "bot":
        await session.service.create_match(session.user, request)
        await session.error(f"You invited {target.name} to {what}.")
        return
    with session.starting_match():  # the match starts at once: this command plays it
        created = await session.service.create_match(session.user, request)
        await session.error(f"You invited {target.name} to {what}.")
        await session.error(f"Player {target.name} has joined you for {what}.")
        await start_playing(session, created["id"], announce=False)


async def _running_with(session: SessionState, name: str) -> str | None:
    """The id of the standard match going on between this user and ``name``."""
    assert session.user is not None
    for match in await session.service.matches_of(session.user):
        if name in match["players"] and match["settings"]["variant"] == "standard":
            return str(match["id"])
    return None


async def cmd_join(session: SessionState, rest: str) -> None:
    """``join NAME``: accept NAME's invitation; alone, between games, play the next game."""
    user = session.user
    assert user is not None
    if session.held is not None and session.connection is not None:
        # The next game of the match: told by the pump, in order with what follows.
        session.connection.send({"type": "join_next_game"})
        return
    if not rest:
        await session.error("Error: Join who?")
        return
    if session.busy():
        await session.error("You are already playing.")
        return
    name = rest.split()[0][:40]
    running = await _running_with(session, name)
    if running is not None:  # as FIBS resumes a saved match
        await start_playing(session, running, resumed=True)
        return
    with session.starting_match():
        match_id = await _invitation(session, name)
        if match_id is None:
            return
        summary = (await session.service.state(match_id))["open"]
        refusal = unshowable(summary["settings"])
        if refusal is not None:
            await session.error(f"You can't join this match here: {refusal}.")
            return
        await session.service.join_match(user, match_id)
        await start_playing(session, match_id)


async def _invitation(session: SessionState, name: str) -> str | None:
    """The match ``name`` invited this user to, or None after FIBS's error line."""
    assert session.user is not None
    try:
        return await session.service.invitation_from(session.user, name)
    except ServiceError as error:
        if error.code != "not_found":
            raise
        await session.error(f"{name} didn't invite you.")
        return None


async def start_playing(
    session: SessionState, match_id: str, resumed: bool = False, announce: bool = True
) -> None:
    """Tell the match ``match_id`` to its player from now on (``resumed``: from its
    present state, not its start; ``announce``: say whom the player now plays)."""
    assert session.connection is not None and session.user is not None
    state = await session.service.state(match_id)
    seat = session.service.seat_in(match_id, session.user)
    if seat is None or "game" not in state:
        return
    refusal = unshowable(state["settings"])
    if refusal is not None:
        await session.line(f"** Your match {match_id} is not played here: {refusal}.")
        return
    session.playing = match_id
    session.told_turn = -1
    names = state["players"]
    length = state["settings"]["length"]
    what = "an unlimited match" if not length else f"a {length} point match"
    if resumed:
        session.seen[match_id] = state["seq"]
        session.states[match_id] = state
        await session.line(
            f"You are now playing with {names[1 - seat]}. Your running match was loaded."
        )
        await _tell_resumed(session, match_id, names[1 - seat])
    else:
        session.seen[match_id] = 0  # the pump tells the match from its start
        if announce:
            await session.line(f"** You are now playing {what} with {names[1 - seat]}")
    await session.service.subscribe(session.connection, match_id)


async def _tell_resumed(session: SessionState, match_id: str, opponent: str) -> None:
    """Tell ``opponent`` that this player took up their saved match again (its FIBS
    session says it in FIBS's words: :func:`~backgammon.server.fibs.events.resumed`)."""
    assert session.user is not None
    try:
        other = await session.service.user_named(opponent)
    except ServiceError:
        return
    if other.kind != "bot":
        message = {"type": "resumed", "match": match_id, "name": session.user.name}
        session.service.tell_user(other.id, message)


async def act(session: SessionState, kind: str, **fields: Any) -> None:
    """Make the player's action ``kind`` in the match being played, or say why not."""
    user = session.user
    assert user is not None
    if session.playing is None:
        await session.error("You're not playing.")
        return
    if session.held == session.playing:
        await session.line(JOIN_NEXT_GAME)
        return
    try:
        action = ActionBody.model_validate({"kind": kind, **fields})
    except ValidationError as error:  # e.g. a move of more than 200 characters
        await session.error(first_problem(error))
        return
    try:
        await session.service.act(user, session.playing, action)
    except ServiceError as error:
        await session.error(fibs_error(session, kind, error))


async def cmd_nonce(session: SessionState, rest: str) -> None:
    """``nonce WORD``: this player's dice nonce for the tournament match just paired
    (told with its commitment), before its first throw; an extension of ours, as FIBS
    has no verifiable dice (docs/fair-dice.md)."""
    user = session.user
    match_id = session.paired_match
    if user is None or match_id is None:
        await session.error("You have no tournament match waiting for a dice nonce.")
        return
    try:
        nonce = GiveNonce.model_validate({"nonce": rest.strip()}).nonce
    except ValidationError as error:
        await session.error(f"{first_problem(error)} (1 to 64 of A-Z a-z 0-9 _ -)")
        return
    try:
        summary = await session.service.give_nonce(user, match_id, nonce)
    except ServiceError as error:
        await session.error(error.message)
        return
    session.paired_match = None
    commitment = summary["commitment"]
    await session.line(f"** Your dice nonce {nonce} is taken; the commitment is {commitment}.")


def fibs_error(session: SessionState, kind: str, error: ServiceError) -> str:
    """FIBS's words for a refused action, where FIBS has them."""
    state = session.states.get(session.playing or "")
    game = None if state is None else state.get("game")
    opponent = "Your opponent"
    if state is not None and session.user is not None:
        opponent = next((n for n in state["players"] if n != session.user.name), opponent)
    if game is None or state is None or session.user is None:
        return error.message
    seat = state["players"].index(session.user.name)
    pending = _pending_words(game["pending"], seat, opponent, kind)
    if pending is not None:
        return pending
    if error.code == "not_your_turn":
        return {
            "roll": "It's not your turn to roll the dice.",
            "play": "It's not your turn to move.",
            "double": "It's not your turn to double.",
        }.get(kind, f"{opponent} didn't double or resign.")
    if error.code != "illegal":
        return error.message
    if kind == "roll" and game["dice"] is not None:
        return "You did already roll the dice."
    if kind == "play" and game["dice"] is None:
        return "You have to roll the dice before moving."
    if kind == "play" and session.typed is not None:
        return _refused_move(session, state, session.typed)
    if kind == "double":
        return _double_words(game, seat, state["settings"]["length"])
    if kind in ("take", "drop", "accept", "reject"):
        return f"{opponent} didn't double or resign."
    return error.message


def _pending_words(
    pending: dict[str, Any] | None, seat: int, opponent: str, kind: str
) -> str | None:
    """FIBS's words for an action other than the answer while an offer waits."""
    if pending is None or kind in ("take", "drop", "accept", "reject"):
        return None
    offer = "double" if pending["kind"] == "double" else "resign"
    if pending["by"] == seat:
        if offer == "double":
            return f"{opponent} hasn't responded to your double yet."
        return f"{opponent} hasn't accepted or rejected your resign yet."
    wants = "doubles" if offer == "double" else "wants to resign"
    return f"{opponent} {wants}. Type 'accept' or 'reject'."


def _double_words(game: dict[str, Any], seat: int, length: int) -> str:
    """FIBS's words for a double refused on the player's turn (a 1-point match's
    dead cube in plain words: the server rolls there before the player may ask)."""
    if game["crawford"]:
        return "The Crawford rule doesn't allow you to double in this game."
    if length == 1:
        return "Nobody may double in a 1 point match."
    if game["dice"] is not None:
        return "You can only double before you roll the dice."
    if game["cube"]["owner"] not in (None, seat):
        return "It's not your turn to double."
    return "You can't double: the cube is not in play here."


def _refused_move(
    session: SessionState, state: dict[str, Any], typed: list[tuple[int, int]]
) -> str:
    """FIBS's words for a refused move of the player's (docs/fibs.md)."""
    assert session.user is not None
    game = state["game"]
    seat = state["players"].index(session.user.name)
    position = Position.from_slots_text(game["board"]["slots"])
    if seat == 1:
        position = position.flip()
    return move_error(position, (game["dice"][0], game["dice"][1]), typed)


def _pending_offer(session: SessionState) -> dict[str, Any] | None:
    if session.playing is None:
        return None
    state = session.states.get(session.playing)
    return None if state is None or state.get("game") is None else state["game"]["pending"]


async def cmd_accept(session: SessionState, _rest: str) -> None:
    """``accept``: take the opponent's double, or accept their resignation."""
    pending = _pending_offer(session)
    if pending is not None and pending["kind"] == "resign":
        await act(session, "accept")
    else:
        await act(session, "take")


async def cmd_reject(session: SessionState, _rest: str) -> None:
    """``reject``: drop the opponent's double, or refuse their resignation."""
    pending = _pending_offer(session)
    if pending is not None and pending["kind"] == "resign":
        await act(session, "reject")
    else:
        await act(session, "drop")


async def cmd_resign(session: SessionState, rest: str) -> None:
    """``resign [n|g|b]``: offer to resign a normal game, a gammon or a backgammon."""
    levels = {"n": 1, "normal": 1, "g": 2, "gammon": 2, "b": 3, "backgammon": 3}
    level = levels.get(rest.split()[0].lower() if rest else "n")
    if level is None:
        await session.error("Type 'resign n', 'resign g' or 'resign b'.")
        return
    await act(session, "resign", level=level)


async def cmd_roll(session: SessionState, _rest: str) -> None:
    """``roll`` (``r``): roll the dice."""
    await act(session, "roll")


async def cmd_double(session: SessionState, _rest: str) -> None:
    """``double``: offer the cube."""
    await act(session, "double")


async def cmd_move(session: SessionState, rest: str) -> None:
    """``move 13-7 8-7`` (``m``, ``/`` or pairs too): play the player's move."""
    words = rest.replace(",", " ").split()
    if not words:
        await session.error("Move what? e.g. 'move 13-7 8-7'")
        return
    moves: list[str] = []
    marked = ["-" in word or "/" in word for word in words]
    if all(marked):
        moves = [word.replace("-", "/") for word in words]
    elif not any(marked) and len(words) % 2 == 0:
        moves = [f"{words[i]}/{words[i + 1]}" for i in range(0, len(words), 2)]
    else:
        await session.error(f"Can't understand the move '{rest[:40]}'.")
        return
    typed = _typed_steps(moves)
    if isinstance(typed, str):
        await session.error(f"{typed}: legal words are 'bar', 'home', 'off', 'b', 'h' and 'o'.")
        return
    session.typed = typed
    points = [point for step in typed for point in step]
    if all(0 <= point <= 25 for point in points):
        # The match finds the one play of these single-die steps. No play has more
        # than four: the first five say as much as more (FIBS's "Please don't give
        # more than n moves." is worked out from all of them).
        await act(session, "play", steps=typed[:5])
    else:
        await act(session, "play", move=" ".join(moves)[:200])


async def cmd_leave(session: SessionState, _rest: str) -> None:
    """``leave``: stop playing the match here (it is saved; ``join NAME`` resumes it).
    The opponent and the match's watchers are told as FIBS tells them (the web sees
    the player away from the board)."""
    match_id, user = session.playing, session.user
    if match_id is None or user is None:
        await session.error("You're not playing.")
        return
    stop_playing(session)
    await session.line("** You terminated the game. The game was saved.")
    players = session.states.get(match_id, {}).get("players", [])
    opponent = next((name for name in players if name != user.name), "")
    left = {"type": "left_game", "match": match_id, "name": user.name, "opponent": opponent}
    session.service.publish(match_id, left)


def stop_playing(session: SessionState) -> None:
    """Stop telling this session the match it plays (the match goes on being saved)."""
    assert session.connection is not None and session.playing is not None
    session.service.unsubscribe(session.connection, session.playing)
    session.playing = None
    session.held, session.held_back = None, []
