"""Cube decisions on positions with known answers, through the engine and the exact
bearoff databases."""

from __future__ import annotations

import pytest

from backgammon import Position
from backgammon.engine import Engine
from backgammon.engine.cube import CubeAction, money_cube_decision


def side(points: dict[int, int], *, bar: int = 0) -> list[int]:
    slots = [0] * 26
    for point, count in points.items():
        slots[point] = count
    slots[25] = bar
    slots[0] = 15 - sum(slots[1:])
    return slots


@pytest.mark.parametrize(
    ("mine", "win", "action"),
    [
        # The opponent's last checker is on its 1-point: this is our last roll.
        ({2: 2}, 26 / 36, CubeAction.DOUBLE_TAKE),  # every roll but 2-1 bears both off
        ({6: 2}, 4 / 36, CubeAction.NO_DOUBLE),  # only 3-3, 4-4, 5-5 and 6-6
        ({3: 1, 1: 1}, 34 / 36, CubeAction.DOUBLE_PASS),  # all but 2-1
    ],
)
def test_last_roll_positions(mine: dict[int, int], win: float, action: CubeAction) -> None:
    position = Position(side(mine), side({1: 1}))
    probabilities = Engine().evaluate(position).probabilities
    assert probabilities[0] == pytest.approx(win, abs=1e-6)
    # The cube is dead after this roll: efficiency 0.
    decision = money_cube_decision(probabilities, efficiency=0.0)
    assert decision.action is action


def test_closeout_is_too_good_or_a_pass() -> None:
    closeout = Position(
        side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}), side({13: 5, 8: 4, 6: 4}, bar=2)
    )
    decision = money_cube_decision(Engine().evaluate(closeout).probabilities)
    assert decision.action in (CubeAction.TOO_GOOD, CubeAction.DOUBLE_PASS)
    assert not decision.take


def test_opening_position_is_no_double() -> None:
    decision = money_cube_decision(Engine().evaluate(Position.initial()).probabilities)
    assert decision.action is CubeAction.NO_DOUBLE
