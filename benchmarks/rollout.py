"""Cubeless 0-ply rollout games per second, ours beside GNU Backgammon's ``rollout``.

    python benchmarks/rollout.py --trials 1296 --runs 3 [--variance-reduction] [--no-gnubg]

Both roll out the starting position (gnubg: ``set board 4HPwATDgc/ABMA``, the settings
of ``../shared/gnubg/bench.py``): cubeless, every game played to the end, seed 1, one
core each; ours is :func:`backgammon.engine.rollout.rollout` in this process, gnubg's
its ``rollout`` command with one thread (its start-up time measured apart and
subtracted). Each run measures both; the figure is the median of the runs' ratios.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from backgammon import Position
from backgammon.engine import Engine
from backgammon.engine.rollout import RolloutSettings, rollout

SHARED = Path(__file__).resolve().parents[2] / "shared"


def our_rate(engine: Engine, trials: int, variance_reduction: bool) -> tuple[float, float]:
    """Our games per second and the rollout's equity."""
    began = time.perf_counter()
    result = rollout(
        engine.evaluate_boards,
        Position.initial(),
        RolloutSettings(trials=trials, variance_reduction=variance_reduction, seed=1),
    )
    return trials / (time.perf_counter() - began), result.equity


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1296)
    parser.add_argument("--runs", type=int, default=3, help="runs of both; median ratio")
    parser.add_argument("--variance-reduction", action="store_true")
    parser.add_argument("--no-gnubg", action="store_true")
    args = parser.parse_args()
    engine = Engine()
    our_rate(engine, 36, args.variance_reduction)  # compile and warm up
    with_gnubg = not args.no_gnubg and Path("/usr/games/gnubg").exists()
    if with_gnubg:
        sys.path.insert(0, str(SHARED / "gnubg"))
        from bench import bench_rollout  # type: ignore[import-not-found]
    ratios = []
    for run in range(1, args.runs + 1):
        rate, equity = our_rate(engine, args.trials, args.variance_reduction)
        line = f"run {run}: ours {rate:,.0f} games/s (equity {equity:+.3f})"
        if with_gnubg:
            theirs, _ = bench_rollout(1, args.trials, args.variance_reduction)
            ratios.append(rate / theirs)
            line += f"; gnubg {theirs:,.0f} games/s (1 thread); ratio {ratios[-1]:.2f}"
        print(line, flush=True)
    kind = "with" if args.variance_reduction else "without"
    if ratios:
        print(
            f"cubeless 0-ply rollout {kind} variance reduction, ours / gnubg games per "
            f"second, median of {args.runs} runs: {statistics.median(ratios):.2f}"
        )
    else:
        print("gnubg: not measured")


if __name__ == "__main__":
    main()
