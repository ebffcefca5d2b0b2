"""2-ply best-play time per position, ours beside GNU Backgammon's (rollout speed:
``rollout.py``).

    python benchmarks/search_speed.py --positions 50 --runs 3

Positions: the first N records of ``tests/data/reference/evals_public.jsonl.xz`` with
their recorded dice. GNU Backgammon is driven through ``../shared/gnubg`` (its 2-ply
"normal" filter, as ``hint``); when it is not installed only our figures are shown.
"""

from __future__ import annotations

import argparse
import json
import lzma
import statistics
import sys
import time
from pathlib import Path

from backgammon import Position
from backgammon.engine import Engine

SHARED = Path(__file__).resolve().parents[2] / "shared"
EVALS = (
    Path(__file__).resolve().parents[1] / "tests" / "data" / "reference" / "evals_public.jsonl.xz"
)


def load(count: int) -> list[tuple[Position, tuple[int, int], list[list[int]]]]:
    """Positions, dice and GNU Backgammon boards from the reference file."""
    cases = []
    with lzma.open(EVALS, "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if "_meta" in record or "dice" not in record:
                continue
            sides = []
            for key in ("on_roll", "opponent"):
                side = record["position"][key]
                sides.append([side["off"], *side["points"], side["bar"]])
            position = Position(sides[0], sides[1])
            if position.is_game_over():
                continue
            cases.append((position, tuple(record["dice"]), record["gnubg_board"]))
            if len(cases) == count:
                break
    return cases  # type: ignore[return-value]


Case = tuple[Position, tuple[int, int], list[list[int]]]


def our_times(engine: Engine, cases: list[Case]) -> list[float]:
    """Seconds of our 2-ply best play per position (cache cleared for each)."""
    times = []
    for position, dice, _ in cases:
        engine.cache = type(engine.cache)()
        began = time.perf_counter()
        engine.best_play(position, dice, ply=2)
        times.append(time.perf_counter() - began)
    return times


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3, help="runs of both; median ratios")
    parser.add_argument("--no-gnubg", action="store_true")
    args = parser.parse_args()
    engine = Engine()
    cases = load(args.positions)
    for position, dice, _ in cases[:10]:  # compile every path and warm up
        engine.best_play(position, dice, ply=2)
    with_gnubg = not args.no_gnubg and Path("/usr/games/gnubg").exists()
    if with_gnubg:
        sys.path.insert(0, str(SHARED / "gnubg"))
        from gnubg_client import GnubgService  # type: ignore[import-not-found]

    median_ratios, mean_ratios = [], []
    for run in range(1, args.runs + 1):
        times = our_times(engine, cases)
        ours, ours_mean = statistics.median(times), statistics.mean(times)
        line = (
            f"run {run}: ours 2-ply best play median {ours * 1000:.1f} ms, "
            f"mean {ours_mean * 1000:.1f} ms per position ({len(times)} positions)"
        )
        if with_gnubg:
            with GnubgService() as service:
                service.hint(cases[0][2], cases[0][1], plies=2)
                gnubg_times = []
                for _, dice, board in cases:
                    began = time.perf_counter()
                    service.hint(board, dice, plies=2, n=1)
                    gnubg_times.append(time.perf_counter() - began)
            theirs, theirs_mean = statistics.median(gnubg_times), statistics.mean(gnubg_times)
            median_ratios.append(theirs / ours)
            mean_ratios.append(theirs_mean / ours_mean)
            line += (
                f"; gnubg 2-ply hint median {theirs * 1000:.1f} ms, mean "
                f"{theirs_mean * 1000:.1f} ms (with its pipe round trip); ratios "
                f"{median_ratios[-1]:.2f} (median), {mean_ratios[-1]:.2f} (mean)"
            )
        print(line)
    if median_ratios:
        print(
            f"2-ply time ratio (gnubg time / ours, higher is faster for us), median of "
            f"{args.runs} runs: {statistics.median(median_ratios):.2f} on the median "
            f"position, {statistics.median(mean_ratios):.2f} on the mean (target >= 1)"
        )


if __name__ == "__main__":
    main()
