"""CLIP's lines as pure functions of the service's data: the ``board:`` line, move
announcements in the reader's own numbering, who-info and own-info lines.

Every player sees the board from its own side: its checkers move from 24 to 1
(direction -1, its bar at index 25), as our notation numbers them; moves are typed
and announced in the reader's own numbering (an opponent's 13-7 reads 12-18).
"""

from __future__ import annotations

from typing import Any

from backgammon.notation.fibs_board import (
    FibsBoardFields,
    encode_fibs_board,
    sides_to_fibs_board,
)

__all__ = [
    "MONEY_LENGTH",
    "board_line",
    "moves_text",
    "own_info_line",
    "who_info_line",
]

MONEY_LENGTH = 9999
"""FIBS's match length for an unlimited match (our money sessions)."""


def _sides(board: dict[str, Any], seat: int) -> tuple[list[int], list[int]]:
    mine = board["player0" if seat == 0 else "player1"]
    theirs = board["player1" if seat == 0 else "player0"]
    return list(mine), list(theirs)


def board_line(state: dict[str, Any], seat: int, viewer: str = "You") -> str:
    """The ``board:`` line of a match state (:meth:`LiveMatch.state`) for ``seat``
    (a watcher gets the line of the seat it watches, with that player's name)."""
    game = state["game"]
    other = 1 - seat
    names = state["players"]
    mine, theirs = _sides(game["board"], seat)
    colour = 1
    turn_seat = game["turn"]
    turn = 0 if game["over"] or turn_seat is None else (colour if turn_seat == seat else -colour)
    dice = tuple(game["dice"]) if game["dice"] else (0, 0)
    cube = game["cube"]
    pending = game["pending"]
    settings = state["settings"]
    can_double_cube = settings["cube"] and not game["crawford"] and not game["over"]

    def may_double(who: int) -> bool:
        return bool(can_double_cube and cube["owner"] in (None, who))

    length = settings["length"] or MONEY_LENGTH
    score = game["score"]
    fields = FibsBoardFields(
        player_name=viewer,
        opponent_name=names[other],
        match_length=length,
        player_score=score[seat],
        opponent_score=score[other],
        board=sides_to_fibs_board(mine[1:26], theirs[1:26], colour, -1),
        turn=turn,
        player_dice=(dice[0], dice[1]) if turn_seat == seat else (0, 0),
        opponent_dice=(dice[0], dice[1]) if turn_seat == other else (0, 0),
        cube=cube["value"],
        player_may_double=may_double(seat),
        opponent_may_double=may_double(other),
        was_doubled=1 if pending and pending["kind"] == "double" and pending["by"] == other else 0,
        colour=colour,
        direction=-1,
        home=0,
        bar=25,
        player_off=mine[0],
        opponent_off=theirs[0],
        player_on_bar=mine[25],
        opponent_on_bar=theirs[25],
        can_move=game.get("to_move", 0) if turn_seat == seat else 0,
        forced_move=0,
        did_crawford=1 if game["crawford"] else 0,
        redoubles=0,
    )
    return encode_fibs_board(fields)


def _point(point: int, flip: bool) -> str:
    if point == 25:
        return "bar"
    if point == 0:
        return "off"
    return str(25 - point if flip else point)


def moves_text(steps: list[list[int]], flip: bool) -> str:
    """FIBS's text of a play's steps (``"13-7 8-7"``), flipped into the other
    side's numbering when ``flip``."""
    return " ".join(f"{_point(source, flip)}-{_point(dest, flip)}" for source, dest in steps)


def who_info_line(
    name: str,
    *,
    opponent: str = "-",
    watching: str = "-",
    ready: bool = False,
    away: bool = False,
    rating: float = 1500.0,
    experience: int = 0,
    idle: int = 0,
    login: int = 0,
    hostname: str = "-",
    client: str = "-",
) -> str:
    """A CLIP ``5`` line (who info)."""
    return (
        f"5 {name} {opponent} {watching} {int(ready)} {int(away)} {rating:.2f} "
        f"{experience} {idle} {login} {hostname} {client} -"
    )


def own_info_line(name: str, toggles: dict[str, bool], rating: float, experience: int) -> str:
    """A CLIP ``2`` line (own info): name, the toggles in the spec's order, rating,
    experience."""

    def flag(key: str) -> int:
        return int(toggles.get(key, False))

    return (
        f"2 {name} {flag('allowpip')} {flag('autoboard')} {flag('autodouble')} "
        f"{flag('automove')} {flag('away')} {flag('bell')} {flag('crawford')} "
        f"{flag('double')} {experience} {flag('greedy')} {flag('moreboards')} "
        f"{flag('moves')} {flag('notify')} {rating:.2f} {flag('ratings')} {flag('ready')} "
        f"0 {flag('report')} {flag('silent')} UTC"
    )
