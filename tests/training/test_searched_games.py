"""Searched games: expert-iteration targets from games the engine plays with search."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from backgammon import Position
from backgammon.apps.cli import app
from backgammon.engine import Engine
from backgammon.engine.search import invert
from backgammon.training.searched_games import (
    backgame_starts,
    lambda_returns,
    play_searched_games,
)


def points(placed: dict[int, int]) -> list[int]:
    """24 point counts from {point: checkers}; the rest of 15 are borne off."""
    return [placed.get(point, 0) for point in range(1, 25)]


# The side on roll holds the opponent's ace point (its 24) and has a checker on its 23:
# three back, 133 pips against 75.
BACK_GAME = Position.from_points(
    points({24: 2, 23: 1, 6: 5, 5: 4, 4: 3}), points({6: 5, 5: 5, 4: 5})
)


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine()


def test_back_games_are_found_for_either_side() -> None:
    boards = np.stack(
        [BACK_GAME.to_array(), BACK_GAME.flip().to_array(), Position.initial().to_array()]
    )
    assert backgame_starts(boards).tolist() == [True, True, False]
    # 58 pips behind: not with a 60-pip threshold; three back: not with four required.
    assert not backgame_starts(boards[:1], behind=60)[0]
    assert not backgame_starts(boards[:1], back=4)[0]
    with pytest.raises(ValueError, match="52"):
        backgame_starts(np.zeros((2, 40), dtype=np.uint8))
    with pytest.raises(ValueError, match="behind"):
        backgame_starts(boards, behind=-1)


def test_games_record_contact_positions_with_their_outcomes(engine: Engine) -> None:
    starts = np.stack([BACK_GAME.to_array()])
    games = play_searched_games(engine, starts, 3, ply=0, seed=2, first_game=10)
    assert games.boards.shape[0] == games.outcomes.shape[0] == games.games.shape[0] > 3
    assert sorted(set(games.games.tolist())) == [10, 11, 12]
    assert (np.diff(games.games) >= 0).all()  # in play order
    for number in (10, 11, 12):
        rows = np.flatnonzero(games.games == number)
        assert (games.boards[rows[0]] == BACK_GAME.to_array()).all()  # starts the game
        outcomes = games.outcomes[rows]
        # One result per game, each position's for its own side on roll: alternating.
        assert np.allclose(outcomes[:-1], invert(outcomes[1:]))
        won = outcomes[0]
        assert won[0] in (0.0, 1.0) and won[1] >= won[2] and won[3] >= won[4]
    assert not any(Position.from_array(board).is_race() for board in games.boards)
    again = play_searched_games(engine, starts, 3, ply=0, seed=2, first_game=10)
    assert np.array_equal(games.boards, again.boards)
    with pytest.raises(ValueError, match="no starting"):
        play_searched_games(engine, np.zeros((0, 52), dtype=np.uint8), 1)
    with pytest.raises(ValueError, match="games"):
        play_searched_games(engine, starts, -1)


def test_the_winner_is_the_side_that_bore_off(engine: Engine) -> None:
    # Any roll bears off the last checker; the opponent has none off and one on the
    # bar: a backgammon for the side on roll, the only position of the game.
    start = Position.from_points(points({1: 1}), points({6: 14}), opponent_bar=1)
    games = play_searched_games(engine, np.stack([start.to_array()]), 1, ply=0)
    assert games.boards.shape[0] == 1
    assert games.outcomes.tolist() == [[1.0, 1.0, 1.0, 0.0, 0.0]]
    # Seen from the other side, one roll earlier (two checkers on the ace point, so no
    # hit): whatever it rolls, it loses a gammon (a backgammon if still back).
    before = Position.from_points(points({1: 2}), points({6: 14}), opponent_bar=1).flip()
    for seed in range(4):
        lost = play_searched_games(engine, np.stack([before.to_array()]), 1, ply=0, seed=seed)
        assert lost.outcomes[0, :4].tolist() == [0.0, 0.0, 0.0, 1.0]
        # The winner's position is recorded only while there is contact.
        assert np.allclose(lost.outcomes[1:], invert(lost.outcomes[:1]))


def test_lambda_returns_mix_outcomes_and_values_along_each_game() -> None:
    values = np.array(
        [
            [0.5, 0.1, 0.0, 0.2, 0.0],
            [0.6, 0.2, 0.01, 0.1, 0.0],
            [0.3, 0.05, 0.0, 0.3, 0.02],
            [0.7, 0.3, 0.0, 0.0, 0.0],
        ]
    )
    outcomes = np.array(
        [
            [0.0, 0.0, 0.0, 1.0, 0.0],
            [1.0, 1.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 1.0, 0.0],
            [1.0, 0.0, 0.0, 0.0, 0.0],
        ]
    )
    games = np.array([0, 0, 0, 1])
    assert np.allclose(lambda_returns(values, outcomes, games, 1.0), outcomes)
    bootstrapped = lambda_returns(values, outcomes, games, 0.0)
    assert np.allclose(bootstrapped[0], invert(values[1]))
    assert np.allclose(bootstrapped[1], invert(values[2]))
    assert np.allclose(bootstrapped[2:], outcomes[2:])  # each game's last position
    half = lambda_returns(values, outcomes, games, 0.5)
    second = invert(0.5 * values[2] + 0.5 * outcomes[2])
    assert np.allclose(half[1], second)
    assert np.allclose(half[0], invert(0.5 * values[1] + 0.5 * second))
    with pytest.raises(ValueError, match="lambda"):
        lambda_returns(values, outcomes, games, 1.5)
    with pytest.raises(ValueError, match="games"):
        lambda_returns(values, outcomes, games[:3], 0.5)


def test_label_searched_games_command_plays_resumes_and_relabels(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    np.save(source / "positions.npy", np.stack([Position.initial().to_array()]))
    folder = tmp_path / "searched"
    args = ["label-searched-games", "--folder", str(folder), "--ply", "0", "--processes", "1"]
    refused = CliRunner().invoke(app, [*args, "--games", "2"])  # nothing to start from
    assert refused.exit_code != 0 and "--from" in refused.output
    no_back_games = CliRunner().invoke(app, [*args, "--games", "2", "--from", str(source)])
    assert no_back_games.exit_code != 0 and "--behind" in no_back_games.output
    bad = CliRunner().invoke(app, [*args, "--games", "2", "--lambda", "2"])
    assert bad.exit_code != 0 and "--lambda" in bad.output
    np.save(
        source / "positions.npy", np.stack([Position.initial().to_array(), BACK_GAME.to_array()])
    )
    made = CliRunner().invoke(app, [*args, "--games", "4", "--chunk", "2", "--from", str(source)])
    assert made.exit_code == 0, made.output
    starts = np.load(folder / "starts.npy")
    assert starts.shape == (1, 52) and (starts[0] == BACK_GAME.to_array()).all()
    assert json.loads((folder / "games-done.json").read_text()) == {"games": 4}
    positions = np.load(folder / "positions.npy")
    outcomes = np.load(folder / "labels-rollout.npy")
    assert positions.shape[0] == outcomes.shape[0] > 4
    assert set(np.unique(outcomes)) <= {0.0, 1.0}  # lambda 1: the games' results
    more = CliRunner().invoke(app, [*args, "--games", "6", "--lambda", "0.5"])
    assert more.exit_code == 0, more.output
    # The four saved games are kept and two more played.
    assert sorted(set(np.load(folder / "games.npy").tolist())) == list(range(6))
    assert (np.load(folder / "positions.npy")[: positions.shape[0]] == positions).all()
    mixed = np.load(folder / "labels-rollout.npy")
    assert not set(np.unique(mixed)) <= {0.0, 1.0}  # values mixed in
    # Fewer games than the folder holds: nothing is played, all six are relabelled.
    relabelled = CliRunner().invoke(app, [*args, "--games", "2", "--lambda", "1"])
    assert relabelled.exit_code == 0, relabelled.output
    assert json.loads(relabelled.output.strip().splitlines()[-1])["games"] == 6
    assert np.array_equal(np.load(folder / "labels-rollout.npy"), np.load(folder / "outcomes.npy"))
