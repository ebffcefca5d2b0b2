"""Training targets from games the engine plays *with search*, labelled by λ-returns.

Distillation (:mod:`backgammon.training.supervised`) teaches the networks the values
of their own deeper search, and a rollout (:mod:`backgammon.training.rollout_labels`)
what their own 0-ply play makes of a position; both keep the network's way of
*playing*. Here the engine plays whole games from chosen starting positions with an
n-ply search on both sides (a stronger policy than the 0-ply one the network learned
from: an expert-iteration step), and every contact or crashed position on the way gets
a target for the side on roll:

* its game's real outcome (``lam = 1``: a Monte Carlo label, unbiased for the searched
  policy but as noisy as one game), or
* its outcome *adjusted for luck* (:func:`luck_adjusted_outcomes`): the outcome less
  the luck of every recorded roll from that position on, each roll's luck being what
  it gave the roller at 0-ply against the average of the 21 rolls. Each luck term
  averages zero over the dice whatever the network's errors, so the label stays
  unbiased for the searched policy (as the outcome is), with much of the dice's noise
  taken out (the variance reduction of GNU Backgammon's rollouts), or
* the λ-return along the game, ``G_t = invert((1 - λ) V(s_{t+1}) + λ G_{t+1})`` with the
  network's 0-ply values ``V`` of the positions that followed (each seen from its own
  side on roll; ``invert`` swaps the points of view) and the outcome at the last
  recorded position: less noise, some of the network's bias back.

The starting positions are usually a pool's *back games* (:func:`backgame_starts`:
one side with checkers in or behind the other's home board, well behind in the race),
where the 0-ply network defends worst (``docs/analysis.md``). The result is written in
the layout of a ``label-rollouts`` folder, so ``distill --rollouts`` fits on it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from backgammon.engine.evaluator import Engine
from backgammon.engine.search import roll_values, weighted_rolls
from backgammon.rules.game import WinKind, outcome_of
from backgammon.rules.movegen import BOARD_SLOTS, generate_plays_packed
from backgammon.rules.position import Position

__all__ = [
    "SearchedGames",
    "backgame_starts",
    "lambda_returns",
    "luck_adjusted_outcomes",
    "play_searched_games",
    "play_searched_games_with",
    "played_rolls",
    "roll_values_with",
]

_HALF = BOARD_SLOTS // 2
_MAX_PLIES = 10_000


@dataclass(frozen=True)
class SearchedGames:
    """Positions from searched games, in play order.

    Attributes:
        boards: ``uint8[n, 52]``, each seen from its side on roll (before rolling).
        outcomes: ``float64[n, 5]``, the game's result for that side (win, win gammon,
            win backgammon, lose gammon, lose backgammon; gammons include backgammons).
        games: ``int64[n]``, the game each position belongs to; within a game the
            positions follow one another ply by ply, the side on roll alternating.
        rolls: ``int64[n]``, the roll played from each position (its index in
            :func:`backgammon.engine.search.weighted_rolls`; -1 where not recorded, as
            in folders made before rolls were kept).
    """

    boards: npt.NDArray[np.uint8]
    outcomes: npt.NDArray[np.float64]
    games: npt.NDArray[np.int64]
    rolls: npt.NDArray[np.int64]


def backgame_starts(
    boards: npt.ArrayLike, *, behind: int = 50, back: int = 2
) -> npt.NDArray[np.bool_]:
    """Which of ``boards`` (``uint8[n, 52]``) are back games: a side has at least
    ``back`` checkers on the bar or the other side's home board (its points 19-24)
    and trails by at least ``behind`` pips.

    Raises:
        ValueError: for a malformed board array or negative thresholds.
    """
    array = np.asarray(boards)
    if array.ndim != 2 or array.shape[1] != BOARD_SLOTS:
        raise ValueError(f"boards must be shaped (n, {BOARD_SLOTS}), got {array.shape}")
    if behind < 0 or back < 0:
        raise ValueError(f"behind and back must be >= 0, got {behind} and {back}")
    weights = np.arange(_HALF, dtype=np.int64)
    sides = (array[:, :_HALF].astype(np.int64), array[:, _HALF:].astype(np.int64))
    pips = [side @ weights for side in sides]
    backs = [side[:, 19:_HALF].sum(axis=1) for side in sides]
    mask: npt.NDArray[np.bool_] = ((backs[0] >= back) & (pips[0] - pips[1] >= behind)) | (
        (backs[1] >= back) & (pips[1] - pips[0] >= behind)
    )
    return mask


def _result_row(kind: WinKind, won: bool) -> tuple[float, float, float, float, float]:
    gammon = float(kind >= WinKind.GAMMON)
    backgammon = float(kind == WinKind.BACKGAMMON)
    return (1.0, gammon, backgammon, 0.0, 0.0) if won else (0.0, 0.0, 0.0, gammon, backgammon)


def play_searched_games(
    engine: Engine,
    starts: npt.ArrayLike,
    games: int,
    *,
    ply: int = 1,
    seed: int = 1,
    first_game: int = 0,
    progress: Callable[[int], None] | None = None,
) -> SearchedGames:
    """Play ``games`` games from starting boards drawn from ``starts`` (``uint8[m, 52]``,
    side on roll first), both sides choosing by ``engine.best_play`` at ``ply``, and
    record every contact or crashed position with its game's outcome. Game numbers
    begin at ``first_game``; ``progress`` is called with 1 after each game. The same
    seed gives the same games.

    Raises:
        ValueError: for a malformed start array, no starts or a bad count.
    """
    pool = np.ascontiguousarray(starts, dtype=np.uint8)
    if pool.ndim != 2 or pool.shape[1] != BOARD_SLOTS:
        raise ValueError(f"starts must be shaped (n, {BOARD_SLOTS}), got {pool.shape}")
    if pool.shape[0] == 0:
        raise ValueError("no starting positions")
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    dice = random.Random(seed)
    roll_index = {(high, low): r for r, (high, low, _) in enumerate(weighted_rolls())}
    boards: list[npt.NDArray[np.uint8]] = []
    rolled: list[int] = []
    outcomes: list[tuple[float, float, float, float, float]] = []
    numbers: list[int] = []
    for game in range(first_game, first_game + games):
        position = Position.from_array(pool[dice.randrange(pool.shape[0])])
        recorded: list[tuple[npt.NDArray[np.uint8], int, int]] = []
        side = 0
        for _ in range(_MAX_PLIES):
            roll = (dice.randint(1, 6), dice.randint(1, 6))
            if not position.is_race():
                recorded.append((position.to_array(), side, roll_index[max(roll), min(roll)]))
            after = engine.best_play(position, roll, ply).position
            kind = outcome_of(after, engine.variant)
            if kind is not None:
                break
            position, side = after.flip(), 1 - side
        else:  # pragma: no cover - a game of 10,000 plies does not happen
            raise RuntimeError(f"game {game} did not end in {_MAX_PLIES} plies")
        for board, mover, index in recorded:
            boards.append(board)
            outcomes.append(_result_row(kind, mover == side))
            numbers.append(game)
            rolled.append(index)
        if progress is not None:
            progress(1)
    return SearchedGames(
        boards=np.array(boards, dtype=np.uint8).reshape(-1, BOARD_SLOTS),
        outcomes=np.array(outcomes, dtype=np.float64).reshape(-1, 5),
        games=np.array(numbers, dtype=np.int64),
        rolls=np.array(rolled, dtype=np.int64),
    )


@njit(cache=True)
def _lambda_returns(
    values: npt.NDArray[np.float64],
    outcomes: npt.NDArray[np.float64],
    games: npt.NDArray[np.int64],
    lam: float,
    out: npt.NDArray[np.float64],
) -> None:
    n = values.shape[0]
    for t in range(n - 1, -1, -1):
        if t == n - 1 or games[t + 1] != games[t]:
            out[t, :] = outcomes[t, :]
            continue
        mixed = (1.0 - lam) * values[t + 1, :] + lam * out[t + 1, :]
        out[t, 0] = 1.0 - mixed[0]
        out[t, 1] = mixed[3]
        out[t, 2] = mixed[4]
        out[t, 3] = mixed[1]
        out[t, 4] = mixed[2]


def lambda_returns(
    values: npt.ArrayLike, outcomes: npt.ArrayLike, games: npt.ArrayLike, lam: float
) -> npt.NDArray[np.float64]:
    """The λ-return of each position of :class:`SearchedGames` (``float64[n, 5]``, for
    its side on roll): ``values`` are the network's estimates of the positions (each
    for its own side on roll), ``outcomes`` and ``games`` as in :class:`SearchedGames`.
    ``lam = 1`` gives the outcomes; ``lam = 0`` the value of the next position seen
    from the side before it (the last recorded position of a game keeps its outcome).

    Raises:
        ValueError: for arrays of different lengths or shapes, or ``lam`` outside 0..1.
    """
    value_array = np.ascontiguousarray(values, dtype=np.float64)
    outcome_array = np.ascontiguousarray(outcomes, dtype=np.float64)
    game_array = np.ascontiguousarray(games, dtype=np.int64)
    n = outcome_array.shape[0]
    if outcome_array.shape != (n, 5) or value_array.shape != (n, 5):
        raise ValueError(
            f"values and outcomes must both be shaped (n, 5), got {value_array.shape} "
            f"and {outcome_array.shape}"
        )
    if game_array.shape != (n,):
        raise ValueError(f"games must be shaped ({n},), got {game_array.shape}")
    if not 0.0 <= lam <= 1.0:
        raise ValueError(f"lambda must be between 0 and 1, got {lam}")
    out = np.empty((n, 5))
    _lambda_returns(value_array, outcome_array, game_array, float(lam), out)
    return out


def play_searched_games_with(
    weights: str | None,
    starts: npt.NDArray[np.uint8],
    games: int,
    ply: int,
    seed: int,
    first_game: int,
) -> SearchedGames:
    """:func:`play_searched_games` by a fresh engine on ``weights`` (``None``: the
    shipped networks): the form a worker process runs."""
    return play_searched_games(
        Engine(weights), starts, games, ply=ply, seed=seed, first_game=first_game
    )


@njit(cache=True)
def _same_board(first: npt.NDArray[np.uint8], second: npt.NDArray[np.uint8]) -> bool:
    """Whether two boards (or packed rows, board first) hold the same 52 slots."""
    for slot in range(BOARD_SLOTS):  # noqa: SIM110 (a plain loop for Numba)
        if first[slot] != second[slot]:
            return False
    return True


@njit(cache=True)
def _played_rolls(
    boards: npt.NDArray[np.uint8],
    games: npt.NDArray[np.int64],
    rolls: npt.NDArray[np.int64],
    out: npt.NDArray[np.bool_],
) -> None:
    n = boards.shape[0]
    target = np.empty(BOARD_SLOTS, dtype=np.uint8)
    for t in range(n - 1):
        if games[t + 1] != games[t]:
            continue
        # The next position is seen from the other side: flipped back, it is the
        # board after the mover's play, mover first (as packed rows are).
        target[:_HALF] = boards[t + 1, _HALF:]
        target[_HALF:] = boards[t + 1, :_HALF]
        for r in range(rolls.shape[0]):
            packed = generate_plays_packed(boards[t], rolls[r, 0], rolls[r, 1])
            if packed.shape[0] == 0:  # no play: the board stays as it is
                out[t, r] = _same_board(boards[t], target)
            for k in range(packed.shape[0]):
                if _same_board(packed[k], target):
                    out[t, r] = True
                    break


def played_rolls(
    boards: npt.ArrayLike, games: npt.ArrayLike, rolls: npt.ArrayLike | None = None
) -> npt.NDArray[np.bool_]:
    """The roll played from each position of :class:`SearchedGames`, as ``bool[n, 21]``
    (the rolls of :func:`backgammon.engine.search.weighted_rolls`): the recorded one
    where ``rolls`` has it (index >= 0), else every roll with a legal play that turns
    the board into the game's next one. Inferred rows are only approximately right:
    a roll with *some* play reaching that board is taken as possible even where the
    searched player would have played it otherwise, so their luck is slightly biased.
    The last recorded position of a game has no inferred roll (its successor is not
    recorded).

    Raises:
        ValueError: for arrays of different lengths or a malformed board array.
    """
    board_array = np.ascontiguousarray(boards, dtype=np.uint8)
    game_array = np.ascontiguousarray(games, dtype=np.int64)
    n = board_array.shape[0]
    if board_array.ndim != 2 or board_array.shape[1] != BOARD_SLOTS:
        raise ValueError(f"boards must be shaped (n, {BOARD_SLOTS}), got {board_array.shape}")
    if game_array.shape != (n,):
        raise ValueError(f"games must be shaped ({n},), got {game_array.shape}")
    table = np.array([(high, low) for high, low, _ in weighted_rolls()], dtype=np.int64)
    known = np.full(n, -1, dtype=np.int64) if rolls is None else np.asarray(rolls, dtype=np.int64)
    if known.shape != (n,) or known.max(initial=-1) >= table.shape[0]:
        raise ValueError(f"rolls must be {n} roll indices below {table.shape[0]} (or -1)")
    out = np.zeros((n, table.shape[0]), dtype=np.bool_)
    recorded = known >= 0
    if not recorded.all():
        _played_rolls(board_array, game_array, table, out)
    out[recorded] = False
    out[np.flatnonzero(recorded), known[recorded]] = True
    return out


@njit(cache=True)
def _accumulate_luck(
    luck: npt.NDArray[np.float64],
    games: npt.NDArray[np.int64],
    out: npt.NDArray[np.float64],
) -> None:
    n = luck.shape[0]
    for t in range(n - 1, -1, -1):
        out[t, :] = luck[t, :]
        if t < n - 1 and games[t + 1] == games[t]:
            # The later luck, seen from this side: the win chance changes sign, the
            # gammon (backgammon) columns swap sides.
            out[t, 0] -= out[t + 1, 0]
            out[t, 1] += out[t + 1, 3]
            out[t, 2] += out[t + 1, 4]
            out[t, 3] += out[t + 1, 1]
            out[t, 4] += out[t + 1, 2]


def luck_adjusted_outcomes(
    values: npt.ArrayLike,
    played: npt.ArrayLike,
    outcomes: npt.ArrayLike,
    games: npt.ArrayLike,
) -> npt.NDArray[np.float64]:
    """Each position's outcome less the luck of the rolls from there to the end of
    what was recorded of its game (``float64[n, 5]``, for its side on roll).

    ``values`` (``float[n, 21, 5]``, :func:`backgammon.engine.search.roll_values`) are
    what each roll gives the mover at 0-ply; ``played`` (``bool[n, 21]``,
    :func:`played_rolls`) the rolls that could have been played (more than one when
    several lead to the same board: their mean is taken; none: no luck is taken out);
    ``outcomes`` and ``games`` as in :class:`SearchedGames`. A roll's luck is its
    value less the weighted mean of the 21, so it averages zero over the dice and the
    label keeps the outcome's mean (the searched policy's value) with less noise; it
    is not clipped to 0..1.

    Raises:
        ValueError: for arrays of different lengths or shapes.
    """
    value_array = np.asarray(values, dtype=np.float64)
    played_array = np.asarray(played, dtype=np.bool_)
    outcome_array = np.ascontiguousarray(outcomes, dtype=np.float64)
    game_array = np.ascontiguousarray(games, dtype=np.int64)
    n = outcome_array.shape[0]
    rolls = len(weighted_rolls())
    if value_array.shape != (n, rolls, 5) or outcome_array.shape != (n, 5):
        raise ValueError(
            f"values must be shaped ({n}, {rolls}, 5) and outcomes ({n}, 5), got "
            f"{value_array.shape} and {outcome_array.shape}"
        )
    if played_array.shape != (n, rolls) or game_array.shape != (n,):
        raise ValueError(
            f"played must be shaped ({n}, {rolls}) and games ({n},), got "
            f"{played_array.shape} and {game_array.shape}"
        )
    weights = np.array([weight for _, _, weight in weighted_rolls()])
    mean = np.einsum("r,nrk->nk", weights, value_array)
    chance = played_array * weights
    total = chance.sum(axis=1)
    known = total > 0
    luck = np.zeros((n, 5))
    luck[known] = (
        np.einsum("nr,nrk->nk", chance[known], value_array[known]) / total[known, None]
        - mean[known]
    )
    later = np.empty((n, 5))
    _accumulate_luck(luck, game_array, later)
    adjusted: npt.NDArray[np.float64] = outcome_array - later
    return adjusted


def roll_values_with(weights: str | None, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """:func:`backgammon.engine.search.roll_values` of ``boards`` at 0-ply by a fresh
    engine on ``weights`` (``None``: the shipped networks), pruned as its searches are
    and with its solved bear-offs kept exact: the form a worker process runs. Stored
    in float32 (``float32[n, 21, 5]``)."""
    engine = Engine(weights)
    values = roll_values(engine.evaluate_boards, boards, engine.pruning, engine.solved_boards)
    return values.astype(np.float32)
