"""CLIP's pure pieces: FIBS's illegal-move texts."""

from __future__ import annotations

from backgammon.rules.position import Position
from backgammon.server.fibs.clip import move_error


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
