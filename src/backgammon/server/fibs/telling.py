"""A match told to its FIBS player or watcher the way FIBS tells it: each new entry of
its log as FIBS's lines (rolls, moves, cube, resignations, a game's and the match's
end), the ``board:`` line after each roll and move (``autoboard``), and the prompt
when it is the player's turn. Between two games of the match being played, what
follows is held, unsaid, until the player types ``join``.

A state event of the service is :func:`match_state`; a session catching up (busy, or
resuming) reads the entries it missed from the match's log first.
"""

from __future__ import annotations

import logging
from typing import Any

from backgammon.errors import BackgammonError
from backgammon.server.fibs.boards import drawn_board
from backgammon.server.fibs.clip import board_fields, board_line, game_after, moves_text
from backgammon.server.fibs.commands_play import act
from backgammon.server.fibs.state import JOIN_NEXT_GAME, SessionState

__all__ = ["join_next_game", "match_state", "show_board", "tell_board"]

log = logging.getLogger("backgammon.server.fibs")


def _shows_board(entry: dict[str, Any]) -> bool:
    """Whether FIBS sends a ``board:`` line after this entry: after the opening roll
    (unless a tie), after every roll and after every move, 'can't move' included."""
    kind = entry["kind"]
    if kind == "opening":
        return bool(entry["dice"][0] != entry["dice"][1])
    return kind in ("roll", "play")


def _points_word(points: int) -> str:
    return "point" if points == 1 else "points"


async def match_state(session: SessionState, message: dict[str, Any]) -> None:
    """A match's new state and entries (the service's ``state`` event): told, or
    held between games; entries missed are read from the match's log first."""
    match_id = message["match"]
    state = message["state"]
    if "game" not in state:
        return  # an open match's summary
    entries = message["entries"]
    first = state["seq"] - len(entries)
    seen = session.seen.get(match_id, first)
    if state["seq"] <= seen and entries:
        return  # already told
    if first > seen:
        entries = await session.service.log_entries(match_id, seen, first) + entries
    session.seen[match_id] = state["seq"]
    if match_id == session.held:
        session.held_back.append((state, entries))
        return
    await _tell_state(session, match_id, state, entries)


async def _tell_state(
    session: SessionState, match_id: str, state: dict[str, Any], entries: list[dict[str, Any]]
) -> None:
    """Tell a match's new entries and state (to its player or watcher)."""
    previous = session.states.get(match_id)
    session.states[match_id] = state
    user = session.user
    assert user is not None
    names = state["players"]
    if match_id == session.playing and user.name in names:
        seat = names.index(user.name)
        viewer = "You"
    elif match_id == session.watching:
        seat = session.watched_seat
        viewer = names[seat]
    else:
        return
    playing = viewer == "You"
    view = None if previous is None else previous.get("game")
    for index, entry in enumerate(entries):
        last = index == len(entries) - 1
        view = _view_after(view, entry, state, last)
        await _tell_entry(session, entry, names, seat, playing, state)
        if view is not None and session.toggles["autoboard"] and _shows_board(entry):
            await tell_board(session, {**state, "game": view}, match_id)
        if playing and last:  # a session catching up is prompted for now only
            await _entry_prompt(session, entry, view, seat, state)
        over = entry.get("game_over")
        if over is not None:
            await _game_over(session, over, names, seat, playing, state)
            rest = entries[index + 1 :]
            if playing and (state["result"] is None or rest):
                await _hold_next_game(session, match_id, state, rest)
                return
    if state["game"] is not None and not entries:
        await tell_board(session, state, match_id)
    if playing:
        await _prompt(session, state, seat)
    if state["result"] is not None:
        await _match_over(session, state, seat, viewer == "You")
        if match_id == session.playing:
            session.playing = None
        if match_id == session.watching:
            session.watching = None


async def _hold_next_game(
    session: SessionState, match_id: str, state: dict[str, Any], rest: list[dict[str, Any]]
) -> None:
    """A game of the match being played ended and the match goes on: as FIBS,
    ask for 'join' and keep what follows unsaid until then."""
    session.held = match_id
    session.held_back = [(state, rest)]
    await session.line(JOIN_NEXT_GAME)


async def join_next_game(session: SessionState) -> None:
    """The player typed 'join' between games: tell the next game, from its
    start (in the pump, so that nothing newer is told before it)."""
    match_id, held = session.held, session.held_back
    session.held, session.held_back = None, []
    if match_id is None or match_id != session.playing:
        return
    for number, (state, entries) in enumerate(held):
        if entries or number == len(held) - 1:
            await _tell_state(session, match_id, state, entries)
        if session.held is not None:  # that game ended too (all told while away)
            session.held_back += held[number + 1 :]
            return


async def tell_board(session: SessionState, state: dict[str, Any], match_id: str) -> None:
    """The board of the match, seen by its player or from the seat watched."""
    user = session.user
    assert user is not None
    names = state["players"]
    if match_id == session.playing and user.name in names:
        await show_board(session, state, names.index(user.name), "You")
    else:
        seat = session.watched_seat
        await show_board(session, state, seat, names[seat])


async def show_board(session: SessionState, state: dict[str, Any], seat: int, viewer: str) -> None:
    """A board from ``seat``'s side in the session's board style: the ``board:`` line
    (style 3) or the board FIBS draws for people (1 and 2)."""
    style = session.variables["boardstyle"]
    if style == 3:
        await session.line(board_line(state, seat, viewer))
        return
    names = state["players"]
    owner = state["game"]["cube"]["owner"]
    lines = drawn_board(
        board_fields(state, seat, viewer),
        int(style),
        (names[seat], names[1 - seat]),
        None if owner is None else names[owner],
    )
    await session.lines(lines)


async def _tell_entry(
    session: SessionState,
    entry: dict[str, Any],
    names: list[str],
    seat: int,
    playing: bool,
    state: dict[str, Any],
) -> None:
    kind = entry["kind"]
    by = entry.get("by")
    actor = by if by is not None else entry.get("player")

    def me(who: int | None) -> bool:
        return playing and who == seat

    def name(who: int) -> str:
        return "You" if me(who) else names[who]

    if kind == "new_game":
        if playing:  # (a watcher hears the opening roll)
            await session.line(f"Starting a new game with {names[1 - seat]}.")
    elif kind == "opening":
        dice = entry["dice"]
        mine, theirs = dice[seat], dice[1 - seat]
        await session.line(f"{name(seat)} rolled {mine}, {names[1 - seat]} rolled {theirs}")
        if mine != theirs:
            starter = 0 if dice[0] > dice[1] else 1
            if me(starter):
                await session.line("It's your turn to move.")
            else:
                await session.line(f"{names[starter]} makes the first move.")
    elif kind == "roll" and actor is not None:
        dice = entry["dice"]
        verb = "roll" if me(actor) else "rolls"
        await session.line(f"{name(actor)} {verb} {dice[0]} and {dice[1]}.")
    elif kind == "play" and actor is not None:
        steps = entry.get("steps") or []
        if not steps:
            await session.line(f"{name(actor)} can't move.")
        elif not me(actor):  # FIBS does not echo your own move
            await session.line(f"{names[actor]} moves {moves_text(steps, actor != seat)} .")
    elif kind == "double" and by is not None:
        if me(by):
            await session.line(f"You double. Please wait for {names[1 - by]} to accept or reject.")
        elif playing:
            await session.line(_offer_line(entry, state))
        else:
            await session.line(f"{names[by]} doubles.")
    elif kind == "take" and by is not None:
        cube = state["game"]["cube"]["value"] if state["game"] else 2
        verb = "accept" if me(by) else "accepts"
        await session.line(f"{name(by)} {verb} the double. The cube shows {cube}.")
    elif kind == "resign" and by is not None:
        cube = state["game"]["cube"]["value"] if state["game"] else 1
        value = entry["level"] * cube
        won = f"{value} {_points_word(value)}"
        if me(by):
            await session.line(f"You want to resign. {names[1 - by]} will win {won}.")
        elif playing:
            await session.line(_offer_line(entry, state))
        else:
            await session.line(f"{names[by]} wants to resign. {names[1 - by]} will win {won}.")
    elif kind == "reject" and by is not None:
        verb = "reject" if me(by) else "rejects"
        await session.line(f"{name(by)} {verb}. The game continues.")


def _view_after(
    view: dict[str, Any] | None, entry: dict[str, Any], state: dict[str, Any], last: bool
) -> dict[str, Any] | None:
    """The game as FIBS shows it after ``entry`` (None where unknown); ``last``:
    the state's own last entry."""
    try:
        return game_after(view, entry, state["game"], state["settings"]["variant"], last)
    except (BackgammonError, ValueError, KeyError, TypeError):
        log.warning("FIBS session could not follow a %s entry", entry.get("kind"))
        return None


async def _entry_prompt(
    session: SessionState,
    entry: dict[str, Any],
    view: dict[str, Any] | None,
    seat: int,
    state: dict[str, Any],
) -> None:
    """FIBS's prompt after an entry of the player's own: none after the opening
    (its 'It's your turn to move.' is the prompt), 'Please move n pieces.' after
    a roll that can move (a roll that cannot is followed by 'You can't move.')."""
    kind = entry["kind"]
    if kind == "opening" and view is not None and view["turn"] == seat:
        session.told_turn = state["seq"]
    elif kind in ("double", "resign") and entry.get("by") == 1 - seat:
        session.told_turn = state["seq"]  # the offer's own line asked for the answer
    elif kind == "roll" and view is not None and view["turn"] == seat:
        to_move = view.get("to_move", 0)
        if to_move:
            session.told_turn = state["seq"]
            await session.line(f"Please move {to_move} {'piece' if to_move == 1 else 'pieces'}.")


async def _game_over(
    session: SessionState,
    over: dict[str, Any],
    names: list[str],
    seat: int,
    playing: bool,
    state: dict[str, Any],
) -> None:
    winner, points = over["winner"], over["points"]
    loser = 1 - winner
    won = f"{points} {_points_word(points)}"
    ending = over["ending"]
    mine = playing and winner == seat
    if ending == "double dropped":
        if mine:
            await session.line(f"{names[loser]} gives up. You win {won}.")
        elif playing:
            await session.line(f"You give up. {names[winner]} wins {won}.")
        else:
            await session.line(f"{names[loser]} gives up. {names[winner]} wins {won}.")
    elif ending == "resigned":
        if mine:
            await session.line(f"You accept and win {won}.")
        else:
            await session.line(f"{names[winner]} accepts and wins {won}.")
    elif mine:
        await session.line(f"You win the game and get {won}. Congratulations!")
    else:
        sorry = " Sorry." if playing else ""
        await session.line(f"{names[winner]} wins the game and gets {won}.{sorry}")
    score = over["score"]
    length = state["settings"]["length"]
    scores = f"{names[0]}-{score[0]} {names[1]}-{score[1]}"
    what = f"{length} point match" if length else "unlimited match"
    await session.line(f"score in {what}: {scores}")


async def _prompt(session: SessionState, state: dict[str, Any], seat: int) -> None:
    game = state["game"]
    if game is None or state["result"] is not None or state["waiting_for"] != seat:
        return
    pending = game["pending"]
    if pending is not None:
        offer = pending["kind"] in ("double", "resign") and pending["by"] == 1 - seat
        if offer and session.told_turn != state["seq"]:
            # An offer not told with its entry (a resumed match): ask again.
            session.told_turn = state["seq"]
            await session.line(_offer_line(pending, state))
        return
    if game["dice"] is None:
        if not session.toggles["double"] and session.playing is not None:
            await act(session, "roll")
            return
        if session.told_turn != state["seq"]:
            session.told_turn = state["seq"]
            await session.line("It's your turn. Please roll or double")
        return
    to_move = game.get("to_move", 0)
    if to_move and session.told_turn != state["seq"]:
        session.told_turn = state["seq"]
        pieces = "piece" if to_move == 1 else "pieces"
        await session.line(f"Please move {to_move} {pieces}.")


def _offer_line(offer: dict[str, Any], state: dict[str, Any]) -> str:
    """FIBS's line asking the player for an answer to the opponent's offer (a
    double or resign entry, or the game's pending offer: kind, by, level)."""
    by = state["players"][offer["by"]]
    if offer["kind"] == "resign":
        cube = state["game"]["cube"]["value"] if state["game"] else 1
        value = offer["level"] * cube
        won = f"{value} {_points_word(value)}"
        return f"{by} wants to resign. You will win {won}. Type 'accept' or 'reject'."
    return f"{by} doubles. Type 'accept' or 'reject'."


async def _match_over(
    session: SessionState, state: dict[str, Any], seat: int, playing: bool
) -> None:
    result = state["result"]
    names = state["players"]
    length = state["settings"]["length"]
    score = result["score"]
    winner = result["winner"]
    what = f"the {length} point match" if length else "the unlimited match"
    if winner is None:
        await session.line(f"The match ends {score[0]}-{score[1]}.")
        return
    points = f"{score[winner]}-{score[1 - winner]}"
    if playing and winner == seat:
        await session.line(f"You win {what} {points} .")
    else:
        await session.line(f"{names[winner]} wins {what} {points} .")
