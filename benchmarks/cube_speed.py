"""2-ply cube decisions: time per position, ours (the cubeful search,
``backgammon.engine.cubeful``) beside GNU Backgammon's ``cfevaluate`` at the same
depth, and how often the two agree on the action (gnubg's three equities classified
by our rule, so the names compare).

    python benchmarks/cube_speed.py --positions 50 --runs 3

Positions: the first N records of ``tests/data/reference/evals_public.jsonl.xz`` (money,
centred cube, the side on roll deciding before its roll). GNU Backgammon is driven
through ``../shared/gnubg`` (with its fast-poll shim, so its per-call floor is about
50 µs); when it is not installed only our figures are shown.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from backgammon.engine import Engine
from backgammon.engine.bearoff import BearoffDatabase
from backgammon.engine.cube import classify_cube_decision
from backgammon.engine.cubeful import CubeContext, cube_decision_at

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_speed import SHARED, Case, load


def ours(
    engine: Engine, cases: list[Case], exact: BearoffDatabase
) -> tuple[list[float], list[str]]:
    """Seconds per 2-ply cube decision, and the actions."""
    times, actions = [], []
    for position, _, _ in cases:
        began = time.perf_counter()
        decision = cube_decision_at(
            engine.evaluate_boards,
            position.to_array(),
            2,
            CubeContext(),
            engine.pruning,
            exact.cube_equity_rows,
        )
        times.append(time.perf_counter() - began)
        actions.append(decision.action.value)
    return times, actions


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3, help="runs of both; median ratios")
    parser.add_argument("--no-gnubg", action="store_true")
    args = parser.parse_args()
    engine = Engine()
    exact = BearoffDatabase.open()
    cases = load(args.positions)
    ours(engine, cases[:10], exact)  # compile every path and warm up
    with_gnubg = not args.no_gnubg and Path("/usr/games/gnubg").exists()
    if with_gnubg:
        sys.path.insert(0, str(SHARED / "gnubg"))
        from gnubg_client import GnubgService  # type: ignore[import-not-found]

    ratios = []
    for run in range(1, args.runs + 1):
        times, actions = ours(engine, cases, exact)
        mine = statistics.median(times)
        line = f"run {run}: ours 2-ply cube decision median {mine * 1000:.1f} ms"
        if with_gnubg:
            with GnubgService() as service:
                service.cfevaluate(cases[0][2], plies=2)
                gnubg_times, gnubg_actions = [], []
                for _, _, board in cases:
                    began = time.perf_counter()
                    answer = service.cfevaluate(board, plies=2)
                    gnubg_times.append(time.perf_counter() - began)
                    # Its three equities, classified as ours are (so the names match).
                    theirs_decision = classify_cube_decision(
                        answer["nodouble"], answer["take"], answer["drop"]
                    )
                    gnubg_actions.append(theirs_decision.action.value)
            theirs = statistics.median(gnubg_times)
            ratios.append(theirs / mine)
            same = sum(a == b for a, b in zip(actions, gnubg_actions, strict=True))
            line += (
                f"; gnubg cfevaluate 2-ply median {theirs * 1000:.1f} ms; ratio "
                f"{ratios[-1]:.2f}; same action in {same}/{len(cases)}"
            )
        print(line)
    if ratios:
        print(
            f"2-ply cube decision time ratio (gnubg / ours, higher is faster for us), median "
            f"of {args.runs} runs: {statistics.median(ratios):.2f} (target >= 1)"
        )


if __name__ == "__main__":
    main()
