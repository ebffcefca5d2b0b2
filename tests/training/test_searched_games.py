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
from backgammon.engine.search import evaluate_plies, invert, roll_values, weighted_rolls
from backgammon.rules.game import outcome_of
from backgammon.training.searched_games import (
    backgame_starts,
    lambda_returns,
    luck_adjusted_outcomes,
    play_searched_games,
    played_rolls,
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
    # The roll played from each position is recorded, and it leads to the next board.
    assert games.rolls.shape == games.games.shape and games.rolls.min() >= 0
    inferred = played_rolls(games.boards, games.games)
    follows = np.r_[games.games[1:] == games.games[:-1], False]
    assert inferred[np.flatnonzero(follows), games.rolls[follows]].all()
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
    adjusted = CliRunner().invoke(app, [*args, "--games", "6", "--luck-adjusted"])
    assert adjusted.exit_code == 0, adjusted.output
    assert json.loads(adjusted.output.strip().splitlines()[-1])["luck_adjusted"] is True
    labels = np.load(folder / "labels-rollout.npy")
    games = np.load(folder / "games.npy")
    rolls = np.load(folder / "rolls.npy")
    assert rolls.shape == games.shape and rolls.min() >= 0 and rolls.max() < 21
    # Every position has the luck of the rolls that followed taken out.
    last = np.r_[games[1:] != games[:-1], True]
    assert not set(np.unique(labels[last])) <= {0.0, 1.0}
    # A folder made before the rolls were kept: they are inferred, and each game's last
    # position keeps its outcome (its successor is not recorded).
    (folder / "rolls.npy").unlink()
    legacy = CliRunner().invoke(app, [*args, "--games", "6", "--luck-adjusted"])
    assert legacy.exit_code == 0, legacy.output
    inferred = np.load(folder / "labels-rollout.npy")
    assert np.array_equal(inferred[last], np.load(folder / "outcomes.npy")[last])
    assert not set(np.unique(inferred[~last])) <= {0.0, 1.0}
    both = CliRunner().invoke(app, [*args, "--games", "6", "--luck-adjusted", "--lambda", "0.5"])
    assert both.exit_code != 0 and "--lambda" in both.output


def test_played_rolls_are_those_that_lead_to_the_next_board(engine: Engine) -> None:
    starts = np.stack([BACK_GAME.to_array()])
    games = play_searched_games(engine, starts, 2, ply=0, seed=5)
    played = played_rolls(games.boards, games.games)
    assert played.shape == (games.boards.shape[0], 21)
    last = np.r_[games.games[1:] != games.games[:-1], True]
    assert not played[last].any()
    assert played[~last].any(axis=1).all()
    rolls = [(high, low) for high, low, _ in weighted_rolls()]
    for t in np.flatnonzero(~last)[:10]:
        position = Position.from_array(games.boards[t])
        after = Position.from_array(games.boards[t + 1]).flip()
        for r, roll in enumerate(rolls):
            plays = position.legal_plays(roll)
            reachable = any(play.position == after for play in plays) or (
                len(plays) == 0 and position == after
            )
            assert played[t, r] == reachable
    # On the bar against a five-point board open on its ace point: every roll without
    # a 1 dances, so after a dance those fifteen rolls could have been played.
    closed = Position.from_points(
        points({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 13: 5}), points({13: 14}), opponent_bar=1
    ).flip()
    boards = np.stack([closed.to_array(), closed.flip().to_array()])
    danced = played_rolls(boards, np.array([0, 0]))[0]
    assert danced.tolist() == [1 not in roll for roll in rolls]
    with pytest.raises(ValueError, match="games"):
        played_rolls(boards, np.array([0]))


def test_luck_adjusted_outcomes_leave_exact_values_where_the_evaluator_is_exact(
    engine: Engine,
) -> None:
    # A bear-off the two-sided database solves, nine checkers off on each side (no
    # gammons): the 0-ply player plays perfectly, so each position's outcome less the
    # luck of the rolls that followed is its exact value.
    start = Position.from_points(points({1: 2, 2: 2, 4: 2}), points({1: 2, 3: 2, 5: 2}))
    rng = np.random.default_rng(3)
    order = [(high, low) for high, low, _ in weighted_rolls()]
    position, boards, rolls = start, [], []
    while True:
        boards.append(position.to_array())
        roll = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        rolls.append(order.index((max(roll), min(roll))))
        after = engine.best_play(position, roll).position
        if outcome_of(after, engine.variant) is not None:
            break
        position = after.flip()
    won = len(boards) % 2  # the last mover won: the first mover's result
    first = [1.0, 0.0, 0.0, 0.0, 0.0] if won else [0.0] * 5
    outcomes = np.array(
        [first if t % 2 == 0 else invert(np.array(first)) for t in range(len(boards))]
    )
    board_array = np.stack(boards)
    games = np.zeros(len(boards), dtype=np.int64)
    values = roll_values(engine.evaluate_boards, board_array)
    exact = engine.evaluate_boards(board_array)
    assert len(boards) > 3
    played = played_rolls(board_array, games, np.array(rolls))
    labels = luck_adjusted_outcomes(values, played, outcomes, games)
    assert np.allclose(labels, exact, atol=1e-5)
    # Rolls inferred from the boards: the same, up to the luck of the last roll
    # (unknown, as its successor is not recorded), carried back.
    inferred = luck_adjusted_outcomes(values, played_rolls(board_array, games), outcomes, games)
    residual = outcomes[-1] - exact[-1]
    for t in range(len(boards) - 1, -1, -1):
        assert np.allclose(inferred[t], exact[t] + residual, atol=1e-5)
        residual = invert(residual) - invert(np.zeros(5))
    # With no luck known the labels are the outcomes; shapes are checked.
    nothing = np.zeros_like(played)
    assert np.allclose(luck_adjusted_outcomes(values, nothing, outcomes, games), outcomes)
    with pytest.raises(ValueError, match="values"):
        luck_adjusted_outcomes(values[:, :20], nothing, outcomes, games)
    with pytest.raises(ValueError, match="rolls"):
        played_rolls(board_array, games, np.full(len(boards), 21))


def test_roll_values_average_to_the_one_ply_value(engine: Engine) -> None:
    boards = np.stack([Position.initial().to_array(), BACK_GAME.to_array()])
    values = roll_values(engine.evaluate_boards, boards, engine.pruning)
    weights = np.array([weight for _, _, weight in weighted_rolls()])
    one_ply = evaluate_plies(engine.evaluate_boards, boards, 1, pruning=engine.pruning)
    assert np.allclose(np.einsum("r,nrk->nk", weights, values), one_ply)
    # 3-1 from the start: the best play's result, for the mover.
    r = [(high, low) for high, low, _ in weighted_rolls()].index((3, 1))
    best = engine.best_play(Position.initial(), (3, 1)).position
    assert np.allclose(values[0, r], engine.evaluate(best.flip()).flip().probabilities, atol=1e-6)
    with pytest.raises(ValueError, match="52"):
        roll_values(engine.evaluate_boards, np.zeros((1, 40), dtype=np.uint8))
