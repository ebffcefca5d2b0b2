"""Rollouts: play a position out many times with the 0-ply player and average.

Cubeless. Each trial plays both sides with the evaluator's best 0-ply play until the
game ends (or until ``truncation`` plies, where the evaluator's estimate is taken).
Trials are seeded and reproducible:

* **Quasi-random dice.** The first roll of trial ``t`` is the ``t mod 36``-th entry of
  a seeded shuffle of the 36 ordered rolls, and the second roll the ``(t div 36) mod
  36``-th entry of another shuffle, so every 36 trials see every first roll once and
  every 1,296 trials every pair of first two rolls (GNU Backgammon's stratification).
  Later rolls come from the trial's own seeded generator.
* **Variance reduction.** Before each roll, the value of the best play for every one
  of the 21 rolls is computed at 0-ply; the luck of the roll that came (its value
  minus the average) is summed from the rolled-out side's point of view and
  subtracted from the trial's result (the luck-adjusted result has the same mean).
* **Standard errors and a confidence stop.** The mean of the five probabilities and
  the equity come with the standard error of the equity; with ``stop_error`` the
  rollout stops once at least ``min_trials`` are done and the standard error is below
  it.
* **All cores.** Trials are split over processes (``processes``); the evaluator must be
  picklable (a module-level function or an engine object). A ``progress`` callback
  receives ``(trials done, trials planned)``.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from backgammon.engine.cube import (
    CONTACT_EFFICIENCY,
    CubeOwner,
    money_cube_decision,
    money_cubeful_equity,
    race_cube_efficiency,
)
from backgammon.engine.search import (
    BoardEvaluator,
    equities,
    invert,
    rank_children,
    weighted_rolls,
)
from backgammon.rules.movegen import BOARD_SLOTS
from backgammon.rules.position import Position

__all__ = ["RolloutResult", "RolloutSettings", "rollout", "rollout_trials"]

_ORDERED_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, 7))
_HALF = BOARD_SLOTS // 2
_MAX_PLIES = 10_000
_SIGN = np.array([-1.0, 1.0, 1.0, 1.0, 1.0])


@dataclass(frozen=True, slots=True)
class RolloutSettings:
    """How to roll out.

    Attributes:
        trials: how many games to play (at most).
        seed: the seed of the dice (same seed, same results).
        truncation: stop each trial after this many plies and take the evaluator's
            estimate (``None``: play to the end).
        variance_reduction: subtract each roll's luck (costs 21 evaluations per ply).
        stop_error: stop early once the equity's standard error is below this.
        min_trials: never stop before this many trials.
        processes: worker processes (1: run in this process).
        cubeful: play money games with the cube (Janowski decisions on the 0-ply
            evaluations, cube 1 centred at the start); the equity is then the mean
            cubeful points (variance reduction does not apply).
    """

    trials: int = 1296
    seed: int = 0
    truncation: int | None = None
    variance_reduction: bool = True
    stop_error: float | None = None
    min_trials: int = 144
    processes: int = 1
    cubeful: bool = False

    def __post_init__(self) -> None:
        if self.trials < 1:
            raise ValueError(f"a rollout needs at least one trial, got {self.trials}")
        if self.truncation is not None and self.truncation < 1:
            raise ValueError(f"truncation is a number of plies >= 1, got {self.truncation}")
        if self.processes < 1:
            raise ValueError(f"processes must be >= 1, got {self.processes}")


@dataclass(frozen=True, slots=True)
class RolloutResult:
    """The averages of a rollout, for the side on roll of the rolled-out position.

    Attributes:
        probabilities: mean win, win gammon, win backgammon, lose gammon, lose
            backgammon.
        equity: mean cubeless money equity (cubeful points for a cubeful rollout).
        standard_error: the standard error of the equity.
        probability_errors: the standard error of each probability.
        trials: how many trials were played.
    """

    probabilities: tuple[float, float, float, float, float]
    equity: float
    standard_error: float
    probability_errors: tuple[float, float, float, float, float]
    trials: int


def _stratified(seed: int, salt: int) -> list[tuple[int, int]]:
    rolls = list(_ORDERED_ROLLS)
    random.Random(seed * 1_000_003 + salt).shuffle(rolls)
    return rolls


def _terminal(board: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64] | None:
    """Exact probabilities if the game is over (for the side on roll of ``board``)."""
    if not board[1:26].any():
        opponent_off = board[_HALF]
        gammon = opponent_off == 0
        backgammon = gammon and bool(board[_HALF + 19 : _HALF + 26].any())
        return np.array([1.0, float(gammon), float(backgammon), 0.0, 0.0])
    if not board[_HALF + 1 : _HALF + 26].any():
        own_off = board[0]
        gammon = own_off == 0
        backgammon = gammon and bool(board[19:26].any())
        return np.array([0.0, 0.0, 0.0, float(gammon), float(backgammon)])
    return None


def _best_child(
    evaluator: BoardEvaluator, board: npt.NDArray[np.uint8], die1: int, die2: int
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]:
    """The child (opponent on roll) of the mover's best 0-ply play, and the mover's
    probabilities after it."""
    _, kids = rank_children(board, die1, die2)
    if kids.shape[0] == 0:
        kids = np.concatenate((board[_HALF:], board[:_HALF]))[None, :]
    values = invert(np.asarray(evaluator(kids), dtype=np.float64))
    best = int(np.argmax(equities(values)))
    return kids[best], values[best]


def _trial(
    evaluator: BoardEvaluator,
    start: npt.NDArray[np.uint8],
    trial: int,
    settings: RolloutSettings,
    first: list[tuple[int, int]],
    second: list[tuple[int, int]],
) -> npt.NDArray[np.float64]:
    """One game from ``start``; the result seen from ``start``'s side on roll."""
    rng = random.Random(settings.seed * 7_919 + trial)
    board = start.copy()
    luck = np.zeros(5)
    mover_is_root = True
    for ply in range(_MAX_PLIES):
        over = _terminal(board)
        if over is not None:
            result = over
            break
        if settings.truncation is not None and ply >= settings.truncation:
            result = np.asarray(evaluator(board[None, :]), dtype=np.float64)[0]
            break
        if ply == 0:
            die1, die2 = first[trial % 36]
        elif ply == 1:
            die1, die2 = second[(trial // 36) % 36]
        else:
            die1, die2 = rng.randint(1, 6), rng.randint(1, 6)
        child, value = _best_child(evaluator, board, die1, die2)
        if settings.variance_reduction:
            average = np.zeros(5)
            for high, low, weight in weighted_rolls():
                average += weight * _best_child(evaluator, board, high, low)[1]
            roll_luck = value - average
            # A difference of outcomes seen from the other side: the win part changes
            # sign, the gammon parts swap sides.
            luck += roll_luck if mover_is_root else roll_luck[[0, 3, 4, 1, 2]] * _SIGN
        board = child
        mover_is_root = not mover_is_root
    else:  # pragma: no cover - games end long before this
        raise RuntimeError("a rollout trial did not end")
    root_result = result if mover_is_root else invert(result)
    adjusted = root_result - luck
    row: npt.NDArray[np.float64] = np.append(adjusted, equities(adjusted))
    return row


def _cubeful_trial(
    evaluator: BoardEvaluator,
    start: npt.NDArray[np.uint8],
    trial: int,
    settings: RolloutSettings,
    first: list[tuple[int, int]],
    second: list[tuple[int, int]],
) -> npt.NDArray[np.float64]:
    """One money game with the cube from ``start`` (cube 1, centred): both sides
    double, take and pass by Janowski's model on the evaluator's probabilities. The
    row holds the outcome (win, gammon, backgammon, lose gammon, lose backgammon, a
    pass counting as a single game) and the points won, from the root's side."""
    rng = random.Random(settings.seed * 7_919 + trial)
    board = start.copy()
    cube = 1
    owner: int | None = None  # 0 = the root's side, 1 = the other side
    mover = 0
    for ply in range(_MAX_PLIES):
        over = _terminal(board)
        if over is not None:
            result, points = over, float(equities(over)) * cube
            break
        probabilities = np.asarray(evaluator(board[None, :]), dtype=np.float64)[0]
        relative = (
            CubeOwner.CENTRED
            if owner is None
            else CubeOwner.PLAYER
            if owner == mover
            else CubeOwner.OPPONENT
        )
        efficiency = (
            race_cube_efficiency(int(np.dot(np.arange(26), board[:26])))
            if _is_race(board)
            else CONTACT_EFFICIENCY
        )
        if settings.truncation is not None and ply >= settings.truncation:
            result = probabilities
            points = money_cubeful_equity(probabilities, relative, efficiency) * cube
            break
        if relative is not CubeOwner.OPPONENT:
            decision = money_cube_decision(probabilities, relative, efficiency)
            if decision.should_double:
                if not decision.take:
                    result = np.array([1.0, 0.0, 0.0, 0.0, 0.0])
                    points = float(cube)
                    break
                cube *= 2
                owner = 1 - mover
        if ply == 0:
            die1, die2 = first[trial % 36]
        elif ply == 1:
            die1, die2 = second[(trial // 36) % 36]
        else:
            die1, die2 = rng.randint(1, 6), rng.randint(1, 6)
        board, _ = _best_child(evaluator, board, die1, die2)
        mover = 1 - mover
    else:  # pragma: no cover - games end long before this
        raise RuntimeError("a rollout trial did not end")
    if mover != 0:
        result, points = invert(result), -points
    row: npt.NDArray[np.float64] = np.append(result, points)
    return row


def _is_race(board: npt.NDArray[np.uint8]) -> bool:
    back = max((i for i in range(1, 26) if board[i]), default=0)
    their_back = max((i for i in range(1, 26) if board[_HALF + i]), default=0)
    return back + their_back <= 25


def rollout_trials(
    evaluator: BoardEvaluator,
    start: npt.NDArray[np.uint8],
    trials: range,
    settings: RolloutSettings,
) -> npt.NDArray[np.float64]:
    """The results of the given trial numbers (a worker's share), one row each."""
    first = _stratified(settings.seed, 1)
    second = _stratified(settings.seed, 2)
    play = _cubeful_trial if settings.cubeful else _trial
    return np.array([play(evaluator, start, t, settings, first, second) for t in trials])


def _summary(rows: npt.NDArray[np.float64]) -> RolloutResult:
    n = rows.shape[0]
    mean = rows[:, :5].mean(axis=0)
    equity_rows = rows[:, 5]
    spread = rows[:, :5].std(axis=0, ddof=1) if n > 1 else np.zeros(5)
    equity_se = float(equity_rows.std(ddof=1) / math.sqrt(n)) if n > 1 else float("inf")
    probabilities = tuple(float(x) for x in mean)
    errors = tuple(float(x / math.sqrt(n)) for x in spread)
    return RolloutResult(
        probabilities,  # type: ignore[arg-type]
        float(equity_rows.mean()),
        equity_se,
        errors,  # type: ignore[arg-type]
        n,
    )


def _confident(rows: list[npt.NDArray[np.float64]], done: int, settings: RolloutSettings) -> bool:
    """Whether the confidence stop is reached."""
    target = settings.stop_error
    if target is None or done < settings.min_trials:
        return False
    return _summary(np.concatenate(rows)).standard_error < target


def rollout(
    evaluator: BoardEvaluator,
    position: Position,
    settings: RolloutSettings | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RolloutResult:
    """Roll out ``position`` (its side on roll, before rolling).

    Raises:
        ValueError: for bad settings.
    """
    settings = RolloutSettings() if settings is None else settings
    start = position.to_array()
    batch = 36 if settings.stop_error is not None else max(36, settings.trials // 20)
    rows: list[npt.NDArray[np.float64]] = []
    done = 0
    pool = ProcessPoolExecutor(max_workers=settings.processes) if settings.processes > 1 else None
    try:
        while done < settings.trials:
            stop = min(settings.trials, done + batch * settings.processes)
            if pool is None:
                rows.append(rollout_trials(evaluator, start, range(done, stop), settings))
            else:
                bounds = np.linspace(done, stop, settings.processes + 1).astype(int)
                jobs = [
                    pool.submit(rollout_trials, evaluator, start, range(a, b), settings)
                    for a, b in itertools.pairwise(bounds)
                    if b > a
                ]
                rows.extend(job.result() for job in jobs)
            done = stop
            if progress is not None:
                progress(done, settings.trials)
            if _confident(rows, done, settings):
                break
    finally:
        if pool is not None:
            pool.shutdown()
    return _summary(np.concatenate(rows))
