"""n-ply search is exact expectimax over the 21 rolls (checked by brute force)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from backgammon import ALL_ROLLS, Position
from backgammon.engine.pruning import PruningNetwork
from backgammon.engine.search import (
    EvaluationCache,
    MoveFilter,
    Pruning,
    _best_in_spans,
    _distinct_rows,
    _must_judge,
    best_children_with_values,
    equities,
    evaluate_plies,
    invert,
    rank_children,
    search_plays,
    weighted_rolls,
)


def toy(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
    """A deterministic toy evaluator: the pip race through a logistic curve, exact
    when a side has borne off everything."""
    out = np.zeros((boards.shape[0], 5))
    for index, board in enumerate(boards):
        mine = sum(i * int(board[i]) for i in range(1, 26))
        theirs = sum(i * int(board[26 + i]) for i in range(1, 26))
        if mine == 0:
            out[index] = (1.0, 0.0, 0.0, 0.0, 0.0)
        elif theirs == 0:
            out[index] = (0.0, 0.0, 0.0, 0.0, 0.0)
        else:
            win = 1.0 / (1.0 + np.exp(-(theirs - mine + 4) / 6.0))
            out[index] = (win, 0.1 * win, 0.0, 0.1 * (1 - win), 0.0)
    return out


def brute_force(
    position: Position, plies: int, reply_at_0_ply: bool = False
) -> npt.NDArray[np.float64]:
    """Expectimax by hand. With ``reply_at_0_ply`` each roll's play is the best one at
    0-ply (the first on ties) and only that one is searched deeper (GNU Backgammon's
    scheme, a keep-1 filter); otherwise every play is searched."""
    board = position.to_array()[None, :]
    if plies == 0 or not any(position.player[1:]) or not any(position.opponent[1:]):
        return toy(board)[0]
    total = np.zeros(5)
    for roll in ALL_ROLLS:
        plays = position.legal_plays(roll)
        children = [play.position.flip() for play in plays] or [position.flip()]
        if reply_at_0_ply:
            shallow = [float(equities(invert(toy(c.to_array()[None, :])[0]))) for c in children]
            children = [children[int(np.argmax(shallow))]]
        values = [invert(brute_force(child, plies - 1, reply_at_0_ply)) for child in children]
        best = max(values, key=lambda v: float(equities(v)))
        total += float(roll.weight) * best
    return total


def small_race() -> Position:
    return Position.from_points(
        [0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        checkers=2,
    )


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_search_is_exact_expectimax(plies: int) -> None:
    position = small_race()
    ours = evaluate_plies(toy, position.to_array()[None, :], plies)[0]
    assert ours == pytest.approx(brute_force(position, plies), abs=1e-12)


def test_filter_keeping_everything_is_exact_and_cache_is_transparent() -> None:
    position = small_race()
    cache = EvaluationCache()
    wide = evaluate_plies(
        toy, position.to_array()[None, :], 2, MoveFilter(keep=99, margin=9.0), cache
    )
    assert wide[0] == pytest.approx(brute_force(position, 2), abs=1e-12)
    again = evaluate_plies(toy, position.to_array()[None, :], 2, MoveFilter(99, 9.0), cache)
    assert again[0] == pytest.approx(wide[0])
    assert cache.hits > 0


def test_probabilities_of_a_roll_sum_correctly() -> None:
    # One checker each on the 1-point: the side on roll always wins at once.
    position = Position.from_points([1] + [0] * 23, [1] + [0] * 23, checkers=1)
    assert evaluate_plies(toy, position.to_array()[None, :], 1)[0][0] == pytest.approx(1.0)


def test_search_plays_ranks_the_best_first() -> None:
    position = Position.initial()
    packed, probabilities, depth = search_plays(toy, position.to_array(), 3, 1, plies=1)
    assert packed.shape[0] == 16
    assert depth[0] == 1
    searched = probabilities[depth == 1]
    assert list(equities(searched)) == sorted(equities(searched), reverse=True)


@pytest.mark.parametrize("plies", [2, 3])
def test_keep_one_filter_searches_the_static_best_reply(plies: int) -> None:
    position = small_race()
    ours = evaluate_plies(toy, position.to_array()[None, :], plies, MoveFilter(keep=1, margin=0))
    assert ours[0] == pytest.approx(brute_force(position, plies, True), abs=1e-12)


ESTIMATE = PruningNetwork.random(hidden=8, seed=5)
"""A pruning network that ranks plays nothing like the toy evaluator does."""


def test_pruning_that_keeps_every_play_is_exact() -> None:
    position = Position.initial()
    board = position.to_array()[None, :]
    full = evaluate_plies(toy, board, 2, MoveFilter(keep=1, margin=0))
    kept = evaluate_plies(
        toy, board, 2, MoveFilter(keep=1, margin=0), pruning=Pruning(ESTIMATE, keep=99)
    )
    assert kept[0] == pytest.approx(full[0], abs=1e-12)


def by_hand_pruned(position: Position, keep: int) -> npt.NDArray[np.float64]:
    """1-ply by hand: per roll, the ``keep`` plays the estimate rates best for the
    mover (lowest for the opponent), judged by the toy evaluator."""
    total = np.zeros(5)
    for roll in ALL_ROLLS:
        children = [p.position.flip() for p in position.legal_plays(roll)] or [position.flip()]
        boards = np.array([c.to_array() for c in children], dtype=np.uint8)
        order = np.argsort(ESTIMATE.scores(boards), kind="stable")[:keep]
        values = toy(boards[order])
        total += float(roll.weight) * invert(values[int(np.argmin(equities(values)))])
    return total


def hitting_position() -> Position:
    """Blots to hit, so that a roll's plays differ in pip count (the toy's value)."""
    mine = [0] * 24
    mine[12], mine[7] = 2, 2
    theirs = [0] * 24
    theirs[14], theirs[19], theirs[5] = 1, 1, 2
    return Position.from_points(mine, theirs, checkers=4)


def test_pruned_search_judges_only_the_best_few_by_the_estimate() -> None:
    position = hitting_position()
    board = position.to_array()[None, :]
    for keep in (1, 2, 3):
        pruned = evaluate_plies(toy, board, 1, pruning=Pruning(ESTIMATE, keep))
        assert pruned[0] == pytest.approx(by_hand_pruned(position, keep), abs=1e-12)
    crude = evaluate_plies(toy, board, 1, pruning=Pruning(ESTIMATE, 1))
    assert not np.allclose(crude[0], evaluate_plies(toy, board, 1)[0])
    with pytest.raises(ValueError, match="at least one"):
        Pruning(ESTIMATE, keep=0)


def test_plays_valued_exactly_are_always_judged() -> None:
    race = Position.from_points([0] * 6 + [1] + [0] * 17, [1] + [0] * 23, checkers=1)
    winning = Position.from_points([1] + [0] * 23, [0] * 12 + [1] + [0] * 11, checkers=1)
    contact = Position.initial()
    packed = np.zeros(60, dtype=np.uint8)
    for position, expected in ((race, False), (contact, False)):
        packed[:52] = position.to_array()
        assert _must_judge(packed) is expected
    packed[:52] = race.to_array()
    packed[7] = 0
    packed[6] = 1  # both sides home: a bear-off
    assert _must_judge(packed)
    packed[:52] = winning.to_array()
    packed[1] = 0  # the mover has borne off its last checker
    assert _must_judge(packed)


def test_exact_boards_are_not_searched() -> None:
    position = small_race()
    board = position.to_array()[None, :]
    marked = evaluate_plies(toy, board, 2, exact=lambda b: np.ones(b.shape[0], dtype=bool))
    assert marked[0] == pytest.approx(toy(board)[0])
    unmarked = evaluate_plies(toy, board, 2, exact=lambda b: np.zeros(b.shape[0], dtype=bool))
    assert unmarked[0] == pytest.approx(brute_force(position, 2), abs=1e-12)


def test_distinct_rows_and_best_in_spans() -> None:
    rng = np.random.default_rng(3)
    boards = rng.integers(0, 3, size=(500, 52)).astype(np.uint8)
    boards[250:] = boards[rng.integers(0, 250, size=250)]
    first, inverse = _distinct_rows(boards)
    assert np.array_equal(boards[first][inverse], boards)
    assert first.shape[0] == np.unique(boards, axis=0).shape[0]
    values = np.array([1.0, 3.0, 3.0, -1.0, 0.0])
    spans = np.array([[0, 0, 0, 3], [0, 1, 3, 5]], dtype=np.int64)
    assert _best_in_spans(values, spans).tolist() == [1, 4]


def test_repeated_boards_in_a_batch_get_the_same_search() -> None:
    # Searched once per distinct board, scattered back to every copy.
    boards = np.array(
        [p.to_array() for p in (hitting_position(), small_race(), hitting_position())],
        dtype=np.uint8,
    )
    together = evaluate_plies(toy, boards, 2, MoveFilter(keep=2, margin=0.5))
    for row, board in enumerate(boards):
        alone = evaluate_plies(toy, board[None, :], 2, MoveFilter(keep=2, margin=0.5))
        assert together[row] == pytest.approx(alone[0], abs=1e-12)
    assert np.array_equal(together[0], together[2])


def test_every_rolls_best_child_and_its_values_come_from_one_evaluation() -> None:
    """What a rollout's variance reduction reads (all 21 rolls at once): each roll's
    best play by the mover's equity, as that roll's plays ranked alone give it, and
    the child's own values."""
    calls: list[int] = []

    def counted(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
        calls.append(boards.shape[0])
        return toy(boards)

    board = Position.from_points(
        [0, 2, 2, 3, 0, 3, 0, 1, 0, 2, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [2, 2, 0, 3, 3, 2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2],
    ).to_array()
    children, boards, rolls, theirs = best_children_with_values(counted, board[None, :])
    assert len(calls) == 1 and list(boards) == [0] * 21 and list(rolls) == list(range(21))
    assert np.array_equal(theirs, toy(children))
    for (high, low, _), child in zip(weighted_rolls(), children, strict=True):
        _, kids = rank_children(board, high, low)
        mover = equities(invert(toy(kids)))
        assert np.array_equal(child, kids[int(np.argmax(mover))])
