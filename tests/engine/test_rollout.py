"""Rollouts: reproducible, unbiased with variance reduction, parallel = serial."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from backgammon import Position
from backgammon.engine.cube import CubeAction
from backgammon.engine.rollout import RolloutSettings, cubeful_rollout, rollout
from tests.engine.test_search import toy


def one_checker_race(mine: int, theirs: int) -> Position:
    player = [0] * 24
    opponent = [0] * 24
    player[mine - 1] = 1
    opponent[theirs - 1] = 1
    return Position.from_points(player, opponent, checkers=1)


@cache
def exact_win(mine: int, theirs: int) -> float:
    """P(the side on roll wins) with one checker each, pips ``mine`` and ``theirs``."""
    total = 0.0
    for a in range(1, 7):
        for b in range(1, 7):
            moved = 4 * a if a == b else a + b
            left = mine - moved
            total += (1.0 if left <= 0 else 1.0 - exact_win(theirs, left)) / 36
    return total


def test_a_won_position_rolls_out_exactly() -> None:
    result = rollout(toy, one_checker_race(1, 6), RolloutSettings(trials=72, seed=1))
    assert result.probabilities[0] == pytest.approx(1.0)
    assert result.standard_error == pytest.approx(0.0)


def test_rollout_agrees_with_the_exact_race_and_is_reproducible() -> None:
    position = one_checker_race(8, 9)
    exact = exact_win(8, 9)
    settings = RolloutSettings(trials=1296, seed=3)
    result = rollout(toy, position, settings)
    assert abs(result.probabilities[0] - exact) < 4 * max(result.probability_errors[0], 0.003)
    assert rollout(toy, position, settings) == result
    plain = rollout(toy, position, RolloutSettings(trials=1296, seed=3, variance_reduction=False))
    assert abs(plain.probabilities[0] - exact) < 4 * plain.probability_errors[0]
    assert result.standard_error < plain.standard_error


def test_truncation_and_confidence_stop() -> None:
    position = Position.initial()
    truncated = rollout(toy, position, RolloutSettings(trials=72, truncation=2, seed=5))
    assert truncated.trials == 72
    stopped = rollout(
        toy,
        one_checker_race(8, 9),
        RolloutSettings(trials=5000, stop_error=0.05, min_trials=72, seed=2),
    )
    assert stopped.trials < 5000
    assert stopped.standard_error < 0.05


def test_progress_and_processes() -> None:
    seen: list[tuple[int, int]] = []
    position = one_checker_race(10, 7)
    serial = rollout(
        toy, position, RolloutSettings(trials=144, seed=9), lambda d, t: seen.append((d, t))
    )
    assert seen[-1] == (144, 144)
    parallel = rollout(toy, position, RolloutSettings(trials=144, seed=9, processes=2))
    assert np.allclose(serial.probabilities, parallel.probabilities)
    with pytest.raises(ValueError):
        RolloutSettings(trials=0)


def test_cubeful_rollout_cashes_a_double_pass() -> None:
    from backgammon.engine import Engine

    def side(points: dict[int, int]) -> list[int]:
        slots = [0] * 26
        for point, count in points.items():
            slots[point] = count
        slots[0] = 15 - sum(slots)
        return slots

    # Our last roll, won by all but 2-1 (34/36): a double the opponent must pass.
    position = Position(side({3: 1, 1: 1}), side({1: 1}))
    engine = Engine()
    cubeless = rollout(engine.evaluate_boards, position, RolloutSettings(trials=72, seed=1))
    assert cubeless.equity == pytest.approx(2 * 34 / 36 - 1, abs=0.1)
    # Cubeful: after no double the roller wins 34/36, and on 2-1 the opponent doubles
    # us out; after a double the same at twice the stakes: double, pass.
    cubeful = cubeful_rollout(
        engine.evaluate_boards, position, settings=RolloutSettings(trials=72, seed=1)
    )
    assert cubeful.decision is not None
    assert cubeful.decision.action is CubeAction.DOUBLE_PASS
    assert cubeful.no_double == pytest.approx(
        34 / 36 - 2 / 36, abs=3 * cubeful.no_double_error + 0.02
    )
    assert cubeful.double_take == pytest.approx(2 * cubeful.no_double, abs=0.05)
    assert cubeful.double_pass == 1.0


def test_cubeful_rollouts_reduce_variance_without_moving_the_mean() -> None:
    """The cubeful luck adjustment leaves the means where plain play puts them (within
    their errors) and shrinks the errors; the match version scores in match winning
    chances and reports equities per cube; a side that may not double gets only its
    no-double value."""
    from backgammon.engine import Engine
    from backgammon.engine.cube import CubeOwner
    from backgammon.engine.cubeful import CubeContext
    from backgammon.engine.met import kazaross_xg2

    engine = Engine()
    mine = [0, 2, 2, 2, 2, 3, 3, 1] + [0] * 18  # 15 checkers home and on the 7
    theirs = [0, 1, 2, 2, 2, 3, 3, 2] + [0] * 18
    race = Position(mine, theirs)
    plain = cubeful_rollout(
        engine.evaluate_boards,
        race,
        settings=RolloutSettings(trials=144, seed=4, variance_reduction=False),
    )
    reduced = cubeful_rollout(
        engine.evaluate_boards, race, settings=RolloutSettings(trials=144, seed=4)
    )
    assert reduced.no_double_error < plain.no_double_error
    assert reduced.double_take_error is not None and plain.double_take_error is not None
    assert reduced.double_take_error < plain.double_take_error
    tolerance = 3 * (plain.no_double_error + reduced.no_double_error)
    assert reduced.no_double == pytest.approx(plain.no_double, abs=tolerance)

    context = CubeContext(away=(3, 5), met=kazaross_xg2())
    result = cubeful_rollout(
        engine.evaluate_boards,
        race,
        context,
        RolloutSettings(trials=36, seed=5, truncation=8),
    )
    assert result.double_pass == pytest.approx(1.0)
    assert -3.0 < result.no_double < 3.0 and result.decision is not None
    theirs = cubeful_rollout(
        engine.evaluate_boards,
        race,
        CubeContext(owner=CubeOwner.OPPONENT),
        RolloutSettings(trials=36, seed=5, truncation=8),
    )
    assert theirs.double_take is None and theirs.decision is None
