"""Head to head: a candidate network against the shipped one (or another file).

    python benchmarks/head_to_head.py CANDIDATE [--against FILE] [--deals 10000]
        [--seeds 1000000 2000000] [--ply 0] [--processes 2]

Cubeless money games with duplicate dice (each deal played twice, seats swapped) through
:func:`backgammon.engine.strength.duplicate_match`, the figure every "vs the shipped
net" row of ``docs/training.md`` reports. Each seed is a separate run of ``--deals``
deals with dice seeds ``seed, seed + 1, ...``: seeds closer together than ``--deals``
replay mostly the same dice, so the defaults lie 1,000,000 apart. Prints each run's
points per game for the candidate with its standard error, and all runs pooled.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from backgammon.engine import Engine
from backgammon.engine.players import EnginePlayer
from backgammon.engine.strength import duplicate_match


def run(
    candidate: str, against: str | None, deals: int, seed: int, ply: int
) -> tuple[float, float]:
    """The candidate's points per game and standard error over ``deals`` deals from ``seed``."""
    ours = EnginePlayer(Engine(candidate), ply)
    theirs = EnginePlayer(Engine(against), ply)
    return duplicate_match(ours, theirs, deals, seed)


def print_runs(
    label: str, seeds: list[int], deals: int, results: list[tuple[float, float]], began: float
) -> None:
    """Print each seed's points per game with its standard error, then all pooled
    under ``label`` (who played whom) with the seconds since ``began``."""
    for seed, (ppg, error) in zip(seeds, results, strict=True):
        print(f"seed {seed}: {ppg:+.4f} ± {error:.4f} points per game ({2 * deals} games)")
    pooled = sum(ppg for ppg, _ in results) / len(results)
    pooled_error = math.sqrt(sum(error**2 for _, error in results)) / len(results)
    print(
        f"{label}: {pooled:+.4f} ± {pooled_error:.4f} points per game over "
        f"{2 * deals * len(results)} games ({time.perf_counter() - began:.0f} s)"
    )


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("candidate", help="weights file (networks.npz) to measure")
    parser.add_argument("--against", default=None, help="weights file (default: the shipped ones)")
    parser.add_argument("--deals", type=int, default=10_000, help="deals per seed (2 games each)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1_000_000, 2_000_000])
    parser.add_argument("--ply", type=int, default=0, choices=(0, 1, 2))
    parser.add_argument("--processes", type=int, default=2, help="seeds run in parallel")
    args = parser.parse_args()
    for weights in (args.candidate, args.against):
        if weights is not None and not Path(weights).is_file():
            parser.error(f"no weights file {weights!r}")
    if args.deals < 2:
        parser.error(f"--deals must be at least 2, got {args.deals}")
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.processes)) as workers:
        futures = [
            workers.submit(run, args.candidate, args.against, args.deals, seed, args.ply)
            for seed in args.seeds
        ]
        results = [future.result() for future in futures]
    opponent = args.against or "the shipped networks"
    label = f"{args.candidate} against {opponent} at {args.ply}-ply"
    print_runs(label, args.seeds, args.deals, results, began)


if __name__ == "__main__":
    main()
