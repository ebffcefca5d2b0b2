"""Race training: sampled races, TD from them, and the whole recipe on a tiny scale."""

from __future__ import annotations

import numpy as np
import pytest

from backgammon import Position
from backgammon.engine.network import Networks
from backgammon.training.race import improve_race_network, sample_race_starts, train_race


def test_sampled_starts_are_races_with_every_checker() -> None:
    boards = sample_race_starts(200, seed=3)
    assert boards.shape == (200, 52)
    for row in boards:
        position = Position.from_array(row)
        assert position.is_race()
        assert position.player_checkers() == 15 and position.opponent_checkers() == 15
    pips = [Position.from_array(row).pip_counts()[0] for row in boards]
    assert min(pips) < 70 and max(pips) > 110  # short and long races
    assert np.array_equal(boards, sample_race_starts(200, seed=3))
    with pytest.raises(ValueError):
        sample_race_starts(-1, seed=0)


def test_race_training_changes_only_the_race_network() -> None:
    start = Networks.random(seed=1, hidden=6)
    trained = train_race(start, 30, seed=2, alpha=0.05)
    assert not np.array_equal(trained.race.params, start.race.params)
    assert np.array_equal(trained.contact.params, start.contact.params)
    assert np.array_equal(trained.crashed.params, start.crashed.params)
    # The input networks are not modified, and the same seed gives the same result.
    assert np.array_equal(start.race.params, Networks.random(seed=1, hidden=6).race.params)
    again = train_race(start, 30, seed=2, alpha=0.05)
    assert np.array_equal(trained.race.params, again.race.params)
    with pytest.raises(ValueError):
        train_race(start, 10, seed=2, alpha=0.0)


def test_the_recipe_runs_on_a_tiny_scale() -> None:
    start = Networks.random(seed=4, hidden=6)
    steps: list[str] = []
    improved = improve_race_network(start, games=20, seed=5, progress=steps.append, samples=40)
    assert len(steps) == 3
    assert not np.array_equal(improved.race.params, start.race.params)
    assert np.array_equal(improved.contact.params, start.contact.params)
