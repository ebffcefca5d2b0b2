"""Rollouts: play a position out many times with the 0-ply player and average.

:func:`rollout` is cubeless; :func:`cubeful_rollout` plays the cube (below). Each trial
plays both sides with the evaluator's best 0-ply play until the
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
* **Cubeful rollouts.** :func:`cubeful_rollout` rolls a cube decision out, as GNU
  Backgammon's cubeful rollouts do: every trial is played twice on the same dice, once
  after "no double" and once after "double, take" (the opponent owning twice the
  cube); in both, each side takes its cube actions by the 0-ply cubeful model
  (:mod:`backgammon.engine.cubeful`: double when doubling beats not doubling, pass when
  a take is worth less than a pass) and picks its plays by the same model (the
  cubeful value of the position it leaves), and the game is scored at its cube (money: points,
  Jacoby counted; a match: match winning chances). The luck of each roll is measured
  cubefully (the roller's 0-ply cubeful value after the best play of the roll came,
  against the mean over the 21 rolls) and subtracted. "Double, pass" is exact.
* **All cores.** Trials are split over processes (``processes``), or over any
  :class:`~backgammon.engine.workers.TaskRunner` (a Ray cluster); the evaluator must be
  picklable (a module-level function or an engine object). A ``progress`` callback
  receives ``(trials done, trials planned)``.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from backgammon.engine.cube import CubeDecision, CubeOwner, classify_cube_decision
from backgammon.engine.cubeful import (
    CubeContext,
    board_efficiencies,
    cubeful_values,
    play_scorer,
)
from backgammon.engine.search import (
    BoardEvaluator,
    best_children,
    best_children_with_values,
    equities,
    invert,
    rank_children,
    weighted_rolls,
)
from backgammon.engine.workers import LocalProcesses, TaskRunner
from backgammon.rules.movegen import BOARD_SLOTS
from backgammon.rules.position import Position

__all__ = [
    "CubefulRolloutResult",
    "RolloutResult",
    "RolloutSettings",
    "cubeful_rollout",
    "cubeful_rollout_trials",
    "rollout",
    "rollout_trials",
]

_ORDERED_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, 7))
_HALF = BOARD_SLOTS // 2
_MAX_PLIES = 10_000
_SIGN = np.array([-1.0, 1.0, 1.0, 1.0, 1.0])
_ROLL_INDEX = {(high, low): k for k, (high, low, _) in enumerate(weighted_rolls())}
_ROLL_WEIGHTS = np.array([weight for _, _, weight in weighted_rolls()])


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
    """

    trials: int = 1296
    seed: int = 0
    truncation: int | None = None
    variance_reduction: bool = True
    stop_error: float | None = None
    min_trials: int = 144
    processes: int = 1

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
        equity: mean cubeless money equity.
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
        if settings.variance_reduction:
            children, _, rolls, theirs = best_children_with_values(evaluator, board[None, :])
            values = invert(theirs)
            rolled = int(np.flatnonzero(rolls == _ROLL_INDEX[max(die1, die2), min(die1, die2)])[0])
            child, value = children[rolled], values[rolled]
            roll_luck = value - _ROLL_WEIGHTS[rolls] @ values
            # A difference of outcomes seen from the other side: the win part changes
            # sign, the gammon parts swap sides.
            luck += roll_luck if mover_is_root else roll_luck[[0, 3, 4, 1, 2]] * _SIGN
        else:
            child, value = _best_child(evaluator, board, die1, die2)
        board = child
        mover_is_root = not mover_is_root
    else:  # pragma: no cover - games end long before this
        raise RuntimeError("a rollout trial did not end")
    root_result = result if mover_is_root else invert(result)
    adjusted = root_result - luck
    row: npt.NDArray[np.float64] = np.append(adjusted, equities(adjusted))
    return row


def rollout_trials(
    evaluator: BoardEvaluator,
    start: npt.NDArray[np.uint8],
    trials: range,
    settings: RolloutSettings,
) -> npt.NDArray[np.float64]:
    """The results of the given trial numbers (a worker's share), one row each."""
    first = _stratified(settings.seed, 1)
    second = _stratified(settings.seed, 2)
    return np.array([_trial(evaluator, start, t, settings, first, second) for t in trials])


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


def _run_trials(
    work: Callable[[range], npt.NDArray[np.float64]],
    settings: RolloutSettings,
    progress: Callable[[int, int], None] | None,
    error: Callable[[npt.NDArray[np.float64]], float],
    runner: TaskRunner | None = None,
) -> npt.NDArray[np.float64]:
    """Run the trials ``work(range)`` in batches on ``runner`` (default:
    ``settings.processes`` local processes), reporting ``progress``, until all are
    done or (with ``stop_error``, after ``min_trials``) the ``error`` of the rows so far
    is below it; all the rows, in trial order."""
    if runner is None:
        with LocalProcesses(settings.processes) as local:
            return _run_trials(work, settings, progress, error, local)
    cores = runner.cores
    batch = 36 if settings.stop_error is not None else max(36, settings.trials // 20)
    rows: list[npt.NDArray[np.float64]] = []
    done = 0
    while done < settings.trials:
        stop = min(settings.trials, done + batch * cores)
        bounds = np.linspace(done, stop, cores + 1).astype(int)
        shares = [range(a, b) for a, b in itertools.pairwise(bounds) if b > a]
        finished = dict(runner.map_unordered(work, shares))
        rows.extend(finished[index] for index in range(len(shares)))
        done = stop
        if progress is not None:
            progress(done, settings.trials)
        target = settings.stop_error
        if (
            target is not None
            and done >= settings.min_trials
            and error(np.concatenate(rows)) < target
        ):
            break
    return np.concatenate(rows)


def rollout(
    evaluator: BoardEvaluator,
    position: Position,
    settings: RolloutSettings | None = None,
    progress: Callable[[int, int], None] | None = None,
    runner: TaskRunner | None = None,
) -> RolloutResult:
    """Roll out ``position`` (its side on roll, before rolling), on ``runner``
    (:mod:`backgammon.engine.workers`; default: ``settings.processes`` local processes).

    Raises:
        ValueError: for bad settings.
    """
    settings = RolloutSettings() if settings is None else settings
    work = functools.partial(rollout_trials, evaluator, position.to_array(), settings=settings)
    rows = _run_trials(
        work, settings, progress, lambda table: _summary(table).standard_error, runner
    )
    return _summary(rows)


# -- cubeful rollouts ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CubefulRolloutResult:
    """A rolled-out cube decision, for the side on roll, per unit of the current cube
    (match winning chances converted as the cube decisions are).

    Attributes:
        no_double: the equity after "no double" (the cubeful equity of the position
            when the side on roll may not double).
        double_take: the equity after "double, take" (``None`` where it may not double).
        double_pass: +1 (the cube's value), ``None`` where it may not double.
        no_double_error, double_take_error: their standard errors.
        decision: the cube action these equities give (``None`` where it may not double).
        trials: how many trials were played (each on both branches).
    """

    no_double: float
    double_take: float | None
    double_pass: float | None
    no_double_error: float
    double_take_error: float | None
    decision: CubeDecision | None
    trials: int


def _final_value(over: npt.NDArray[np.float64], context: CubeContext) -> float:
    """What a finished game (``over``: exact probabilities of the side on roll) is worth
    to the side on roll at its cube."""
    won = over[0] > 0.5
    gammon = over[1] if won else over[3]
    backgammon = over[2] if won else over[4]
    points = 1 + int(gammon > 0.5) + int(backgammon > 0.5)
    if context.jacoby and context.is_money and context.owner is CubeOwner.CENTRED:
        points = 1
    signed = points * context.cube * (1 if won else -1)
    if context.away is None:
        return float(signed)
    assert context.met is not None
    return context.met.after_game(context.away[0], context.away[1], signed)


def _cubeful_branch(
    evaluator: BoardEvaluator,
    start: npt.NDArray[np.uint8],
    context: CubeContext,
    dice: list[tuple[int, int]],
    rng: random.Random,
    settings: RolloutSettings,
) -> float:
    """One game from ``start`` with the cube ``context`` (the root side on roll, which
    takes no cube action before its first roll); its luck-adjusted value for the root
    side. ``dice`` are the first rolls to use; later ones come from ``rng``."""
    board = start.copy()
    luck = 0.0
    mover_is_root = True
    value = 0.0
    for ply in range(_MAX_PLIES):
        over = _terminal(board)
        if over is not None:
            value = _final_value(over, context)
            break
        if settings.truncation is not None and ply >= settings.truncation:
            value = float(cubeful_values(evaluator, board[None, :], 0, [context])[0, 0])
            break
        if ply > 0 and context.may_double():
            probabilities = np.asarray(evaluator(board[None, :]), dtype=np.float64)
            efficiency = board_efficiencies(board[None, :])
            decision = classify_cube_decision(
                float(context.no_double(probabilities, efficiency)[0]),
                float(context.doubled().no_double(probabilities, efficiency)[0]),
                context.pass_value(),
            )
            if decision.should_double:
                if not decision.take:
                    value = context.pass_value()
                    break
                context = context.doubled()
        die1, die2 = dice[ply] if ply < len(dice) else (rng.randint(1, 6), rng.randint(1, 6))
        roll = (max(die1, die2), min(die1, die2))
        if settings.variance_reduction:
            children, _, roll_of = best_children(
                evaluator, board[None, :], score=play_scorer(context)
            )
            theirs = cubeful_values(evaluator, children, 0, [context.flipped()])[:, 0]
            mine = context.for_opponent(theirs)
            rolled = int(np.flatnonzero(roll_of == _ROLL_INDEX[roll])[0])
            roll_luck = float(mine[rolled] - _ROLL_WEIGHTS[roll_of] @ mine)
            luck += roll_luck if mover_is_root else -roll_luck
            board = children[rolled]
        else:
            children, _, roll_of = best_children(
                evaluator, board[None, :], score=play_scorer(context)
            )
            board = children[int(np.flatnonzero(roll_of == _ROLL_INDEX[roll])[0])]
        context = context.flipped()
        mover_is_root = not mover_is_root
    else:  # pragma: no cover - games end long before this
        raise RuntimeError("a rollout trial did not end")
    if not mover_is_root:
        value = float(context.for_opponent(value))
    return value - luck


def cubeful_rollout_trials(
    evaluator: BoardEvaluator,
    start: npt.NDArray[np.uint8],
    trials: range,
    settings: RolloutSettings,
    context: CubeContext,
) -> npt.NDArray[np.float64]:
    """The given trials (a worker's share) of a cubeful rollout: one row each, the
    root side's luck-adjusted value after "no double" and after "double, take" (NaN
    where it may not double), in money points or match winning chances."""
    first = _stratified(settings.seed, 1)
    second = _stratified(settings.seed, 2)
    rows = np.full((len(trials), 2), np.nan)
    for row, trial in enumerate(trials):
        dice = [first[trial % 36], second[(trial // 36) % 36]]
        branches = [context, context.doubled()] if context.may_double() else [context]
        for column, branch in enumerate(branches):
            rng = random.Random(settings.seed * 7_919 + trial)
            rows[row, column] = _cubeful_branch(evaluator, start, branch, dice, rng, settings)
    return rows


def _cubeful_summary(rows: npt.NDArray[np.float64], context: CubeContext) -> CubefulRolloutResult:
    n = rows.shape[0]
    means = rows.mean(axis=0)
    errors = rows.std(axis=0, ddof=1) / math.sqrt(n) if n > 1 else np.full(2, np.inf)

    def per_cube(value: float, error: float) -> tuple[float, float]:
        equity = context.normalised(value)
        return equity, abs(context.normalised(value + error) - equity)

    no_double, no_double_error = per_cube(float(means[0]), float(errors[0]))
    if not context.may_double():
        return CubefulRolloutResult(no_double, None, None, no_double_error, None, None, n)
    double_take, double_take_error = per_cube(float(means[1]), float(errors[1]))
    double_pass = context.normalised(context.pass_value())
    decision = classify_cube_decision(
        no_double, double_take, double_pass, beavers=context.beavers and context.is_money
    )
    return CubefulRolloutResult(
        no_double, double_take, double_pass, no_double_error, double_take_error, decision, n
    )


def cubeful_rollout(
    evaluator: BoardEvaluator,
    position: Position,
    context: CubeContext | None = None,
    settings: RolloutSettings | None = None,
    progress: Callable[[int, int], None] | None = None,
    runner: TaskRunner | None = None,
) -> CubefulRolloutResult:
    """Roll out the cube decision of ``position``'s side on roll (before it rolls) in
    ``context`` (default: money, cube 1 centred): "no double" and "double, take" on
    the same dice, the cube played by the 0-ply cubeful model (see the module doc).
    Where the side on roll may not double, only its cubeful equity. ``stop_error``
    applies to the larger of the two standard errors (in root units). ``runner``: as
    in :func:`rollout`.

    Raises:
        ValueError: for bad settings.
    """
    settings = RolloutSettings() if settings is None else settings
    context = CubeContext() if context is None else context
    work = functools.partial(
        cubeful_rollout_trials, evaluator, position.to_array(), settings=settings, context=context
    )

    def error(table: npt.NDArray[np.float64]) -> float:
        return float(np.nanmax(table.std(axis=0, ddof=1) / math.sqrt(table.shape[0])))

    return _cubeful_summary(_run_trials(work, settings, progress, error, runner), context)
