"""Cube decisions on positions with known answers, through the engine and the exact
bearoff databases."""

from __future__ import annotations

import pytest

from backgammon import Position
from backgammon.engine import Engine
from backgammon.engine.cube import CubeAction, money_cube_decision, race_cube_efficiency


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


def race_side(pips: int) -> dict[int, int]:
    """15 checkers spread smoothly over points 1..12 with exactly ``pips`` pips."""
    points = [6, 5, 4, 3, 2, 1, 6, 5, 4, 3, 2, 1, 8, 7, 9]
    total = sum(points)
    index = 0
    while total != pips:
        k = index % 15
        if total < pips and points[k] < 12:
            points[k] += 1
            total += 1
        elif total > pips and points[k] > 1:
            points[k] -= 1
            total -= 1
        index += 1
    layout: dict[int, int] = {}
    for point in points:
        layout[point] = layout.get(point, 0) + 1
    return layout


def keith_action(roller: dict[int, int], other: dict[int, int]) -> CubeAction:
    """Paul Keith's race rule: add 2 pips per checker beyond one on the 1-point, 1 per
    checker beyond one on the 2-point and beyond three on the 3-point, 1 per empty 4, 5
    or 6 point; the roller's count grows by a seventh; double when it exceeds the
    other count by at most 4, and the double is taken when it exceeds it by 2 or more."""

    def count(layout: dict[int, int]) -> float:
        pips = sum(point * n for point, n in layout.items())
        pips += 2 * max(layout.get(1, 0) - 1, 0) + max(layout.get(2, 0) - 1, 0)
        pips += max(layout.get(3, 0) - 3, 0) + sum(1 for p in (4, 5, 6) if not layout.get(p))
        return pips

    lead = count(roller) * 8 / 7 - count(other)
    if lead > 4:
        return CubeAction.NO_DOUBLE
    return CubeAction.DOUBLE_TAKE if lead >= 2 else CubeAction.DOUBLE_PASS


@pytest.mark.parametrize(
    ("mine", "theirs", "action"),
    [
        (60, 62, CubeAction.NO_DOUBLE),
        (80, 82, CubeAction.NO_DOUBLE),
        (100, 104, CubeAction.NO_DOUBLE),
        (120, 126, CubeAction.NO_DOUBLE),
        (90, 100, CubeAction.DOUBLE_TAKE),
        (110, 122, CubeAction.DOUBLE_TAKE),
        (60, 76, CubeAction.DOUBLE_PASS),
        (80, 96, CubeAction.DOUBLE_PASS),
        (100, 116, CubeAction.DOUBLE_PASS),
        (120, 138, CubeAction.DOUBLE_PASS),
    ],
)
def test_long_races_follow_the_keith_count(mine: int, theirs: int, action: CubeAction) -> None:
    """Races of 60 to 140 pips, each clearly inside one of Keith's regions (GNU
    Backgammon's 2-ply cubeful analysis, checked as a yardstick, agrees on each)."""
    roller, other = race_side(mine), race_side(theirs)
    assert keith_action(roller, other) is action  # the rule of thumb's answer
    position = Position(side(roller), side(other))
    assert position.is_race() and position.pip_counts() == (mine, theirs)
    probabilities = Engine().evaluate_at(position, 1).probabilities
    decision = money_cube_decision(probabilities, efficiency=race_cube_efficiency(mine))
    assert decision.action is action
