"""CLIP's pure pieces: FIBS's illegal-move texts, the board line's may-double."""

from __future__ import annotations

from backgammon.notation.fibs_board import decode_fibs_board
from backgammon.rules.position import Position
from backgammon.server.fibs.clip import board_line, move_error
from backgammon.server.matches.live import LiveMatch
from backgammon.server.protocol import MatchSettings


def test_illegal_moves_get_fibs_texts() -> None:
    start = Position.initial()
    assert move_error(start, (6, 1), [(13, 7)]) == "You must give 2 moves."
    assert move_error(start, (6, 1), [(13, 7), (8, 7), (6, 5)]) == (
        "Please don't give more than 2 moves."
    )
    assert move_error(start, (6, 1), [(7, 1), (8, 7)]) == (
        "You can't move from 7 in your first move."
    )
    assert move_error(start, (6, 1), [(13, 8), (8, 7)]) == (
        "You can't move 5 points in your first move."
    )
    assert move_error(start, (6, 5), [(24, 19), (13, 7)]) == (
        "You can't move to 19 in your first move."
    )
    assert move_error(start, (6, 1), [(6, 0), (8, 7)]) == (
        "You can't remove this piece in your first move."
    )
    on_bar = Position.from_slots([0, 0, 0, 0, 0, 0, 5] + [0] * 17 + [9, 1], list(start.opponent))
    assert move_error(on_bar, (6, 1), [(6, 5), (25, 19)]) == (
        "You have to remove pieces from the bar in your first move."
    )


def _may_double(line: str) -> tuple[int, int]:
    fields = decode_fibs_board(line)
    return int(fields.player_may_double), int(fields.opponent_may_double)


def test_the_board_says_nobody_may_double_where_the_cube_is_dead() -> None:
    """Issue 35 item 4 on FIBS: a client offers "double" from the board's may-double
    fields; in a 1-point match (the cube already covers what each side needs) they
    said 1 for both, so clients offered a double the server never asks for."""
    one_point = LiveMatch("m", MatchSettings(length=1, clock=None), ("a", "b"), bytes(32), ("", ""))
    one_point.start(0)
    state = one_point.state(0)
    assert _may_double(board_line(state, 0)) == (0, 0)
    assert _may_double(board_line(state, 1)) == (0, 0)
    three = LiveMatch("m", MatchSettings(length=3, clock=None), ("a", "b"), bytes(32), ("", ""))
    three.start(0)
    state = three.state(0)
    assert _may_double(board_line(state, 0)) == (1, 1)
