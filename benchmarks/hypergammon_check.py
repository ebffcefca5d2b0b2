"""Check the solved hypergammon databases against GNU Backgammon's (``makehyper``).

For each checker count: solve ours in memory (timed) or, with ``--cached``, open the
cache folder's file; check its self-consistency; build GNU Backgammon's ``hyperN.bd``
with ``makehyper -t 1e-6`` into ``--gnubg-dir`` if it is not there (timed); then compare
every position (or ``--sample`` of them) and print one JSON object per checker count:

* ``cubeless_equity``: the largest difference of the cubeless equities (unique);
* ``probabilities``: the largest difference of the five chances, the share of positions
  where one differs by more than 1e-4, and the largest amount by which GNU Backgammon's
  lie outside the range of our optimal strategies (ties: see
  :func:`~backgammon.engine.hypergammon.probability_ranges`);
* ``cubeful``: the largest differences of the money cubeful equities (no double
  centred, no double owned, opponent owns, and the centred equity with the cube
  action), ours against makehyper's; and the same with ours solved under makehyper's
  rule for rolls with no legal play (``gnubg_no_move``), which should agree.

* ``bearoff``: an independent check of ours, by the two-sided bear-off database (its
  own exact solution, itself checked against GNU Backgammon's): every position where
  both sides have all their checkers in play on points 1..6 and at least one borne off
  (so no gammons), the largest differences of the winning chance and the three
  cubeful equities.

* ``opening`` (3 checkers): the cubeless equity of the opening roll's winner (the
  average over the 15 non-double rolls of the best play's value) against the figure
  Tom Keith published from his own solution, +0.0836795444708631
  (https://bkgm.com/articles/Keith/Hyper06/index.html).

With ``--no-gnubg`` only ours is checked (self-consistency, bear-offs): GNU
Backgammon's ``makehyper`` needs 3-4.5 hours of one core for 3 checkers.

Usage: ``python benchmarks/hypergammon_check.py --checkers 1 2 [--gnubg-dir DIR]``;
``--checkers 3 --no-gnubg`` for the 3-checker file built by ``backgammon
build-hypergammon --checkers 3``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from backgammon.engine.bearoff import TwoSidedDatabase
from backgammon.engine.hypergammon import (
    HypergammonDatabase,
    probability_ranges,
    read_gnubg_database,
    residual,
    side_count,
)
from backgammon.engine.hypergammon.solver import _solve
from backgammon.rules.position import Position
from backgammon.variants import find

HYPERGAMMON = {1: find("hypergammon-1"), 2: find("hypergammon-2"), 3: find("hypergammon")}

Array = npt.NDArray[np.float64]


def equities(p: Array) -> Array:
    result: Array = 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]
    return result


def centred(database: HypergammonDatabase, rows: npt.NDArray[np.int64]) -> Array:
    no_double = np.asarray(database._centred_no_double, dtype=np.float64)[rows]
    take = 2 * np.asarray(database._opponent_owns, dtype=np.float64)[rows]
    result: Array = np.maximum(no_double, np.minimum(take, 1.0))
    return result


def cube_differences(
    ours: HypergammonDatabase, gnubg: HypergammonDatabase, rows: npt.NDArray[np.int64]
) -> dict[str, float]:
    out = {}
    for name in ("_centred_no_double", "_owned_no_double", "_opponent_owns"):
        mine = np.asarray(getattr(ours, name), dtype=np.float64)[rows]
        theirs = np.asarray(getattr(gnubg, name), dtype=np.float64)[rows]
        out[name.strip("_")] = float(np.abs(mine - theirs).max())
    out["centred"] = float(np.abs(centred(ours, rows) - centred(gnubg, rows)).max())
    return out


def gnubg_file(checkers: int, folder: Path) -> tuple[Path, float | None]:
    path = folder / f"hyper{checkers}.bd"
    if path.exists():
        return path, None
    makehyper = shutil.which("makehyper") or "/usr/games/makehyper"
    began = time.perf_counter()
    subprocess.run(
        [makehyper, "-c", str(checkers), "-t", "1e-6", "-n", "-f", str(path)],
        check=True,
        capture_output=True,
        cwd=folder,
    )
    return path, time.perf_counter() - began


def bearoff_agreement(database: HypergammonDatabase) -> dict[str, float | int]:
    """Largest differences from the two-sided bear-off database on the positions
    without gammons where every checker in play is home (see the module doc)."""
    bearoff = TwoSidedDatabase.open()
    n = database.checkers
    homes = [c for c in itertools.product(range(n), repeat=6) if 1 <= sum(c) < n]
    win = cube = 0.0
    for mine, theirs in itertools.product(homes, homes):
        position = Position.from_points([*mine, *[0] * 18], [*theirs, *[0] * 18], checkers=n)
        ours = database.cube_equities(position)
        exact = bearoff.cube_equities(mine, theirs)
        win = max(win, abs(database.evaluate(position)[0] - bearoff.win_probability(mine, theirs)))
        for name in ("centred", "owned", "opponent_owns"):
            cube = max(cube, abs(getattr(ours, name) - getattr(exact, name)))
    return {"positions": len(homes) ** 2, "win": win, "cubeful": cube}


KEITH_OPENING_EQUITY = 0.0836795444708631


def opening_equity(database: HypergammonDatabase) -> float:
    """The opening roll winner's cubeless equity: the average over the 15 non-double
    rolls of the best play's equity for the mover."""
    variant = HYPERGAMMON[database.checkers]
    start = Position.initial(variant)
    total = 0.0
    rolls = [(high, low) for high in range(2, 7) for low in range(1, high)]
    for roll in rolls:
        after = [play.position.flip() for play in start.legal_plays(roll, variant)]
        chances = np.array([database.evaluate(position) for position in after])
        total += float((-equities(chances)).max())
    return total / len(rolls)


def check(
    checkers: int, folder: Path, sample: int, cached: bool, with_gnubg: bool = True
) -> dict[str, object]:
    report: dict[str, object] = {"checkers": checkers}
    wall, cpu = time.perf_counter(), time.process_time()
    if cached:
        ours = HypergammonDatabase.open(checkers, build=False)
    else:
        ours = HypergammonDatabase.build(checkers)
        report["solve_seconds"] = round(time.perf_counter() - wall, 2)
        report["solve_cpu_seconds"] = round(time.process_time() - cpu, 2)
    report["sweeps"] = ours.sweeps
    report["residual"] = residual(ours)
    report["bearoff"] = bearoff_agreement(ours)
    if checkers == 3:
        opening = opening_equity(ours)
        report["opening"] = {
            "ours": opening,
            "keith": KEITH_OPENING_EQUITY,
            "difference": abs(opening - KEITH_OPENING_EQUITY),
        }
    if not with_gnubg:
        return report
    path, seconds = gnubg_file(checkers, folder)
    if seconds is not None:
        report["makehyper_seconds"] = round(seconds, 1)
    gnubg = read_gnubg_database(path, checkers)
    size = side_count(checkers)
    probs = np.asarray(ours._probabilities, dtype=np.float64)
    index = np.arange(probs.shape[0])
    live = index[(index // size > 0) & (index % size > 0) & ~np.isnan(probs[:, 0])]
    rows = live
    if sample and sample < live.size:
        rows = np.sort(np.random.default_rng(0).choice(live, size=sample, replace=False))
    report["positions_compared"] = int(rows.size)
    mine, theirs = probs[rows], np.asarray(gnubg._probabilities, dtype=np.float64)[rows]
    report["cubeless_equity"] = float(np.abs(equities(mine) - equities(theirs)).max())
    low, high = probability_ranges(ours)
    outside = np.maximum(low[rows] - theirs, theirs - high[rows]).max()
    report["probabilities"] = {
        "largest_difference": float(np.abs(mine - theirs).max()),
        "share_over_1e-4": float(np.mean(np.abs(mine - theirs).max(axis=1) > 1e-4)),
        "share_non_unique_over_1e-4": float(np.mean((high[rows] - low[rows]).max(axis=1) > 1e-4)),
        "widest_tie_range": float((high[rows] - low[rows]).max()),
        "gnubg_outside_our_ranges": float(max(outside, 0.0)),
    }
    report["cubeful_vs_makehyper"] = cube_differences(ours, gnubg, rows)
    rule = _solve(checkers, gnubg_no_move=True)
    as_gnubg = HypergammonDatabase(
        checkers,
        rule.probabilities,
        rule.centred_no_double,
        rule.owned_no_double,
        rule.opponent_owns,
    )
    report["cubeful_with_makehypers_no_move_rule"] = cube_differences(as_gnubg, gnubg, rows)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--gnubg-dir", default="/tmp/gnubg-hyper")
    parser.add_argument("--sample", type=int, default=0, help="positions (0: all)")
    parser.add_argument("--cached", action="store_true", help="open ours from the cache")
    parser.add_argument("--no-gnubg", action="store_true", help="check ours only")
    arguments = parser.parse_args()
    folder = Path(arguments.gnubg_dir)
    folder.mkdir(parents=True, exist_ok=True)
    for checkers in arguments.checkers:
        report = check(
            checkers,
            folder,
            arguments.sample,
            arguments.cached or checkers == 3,
            not arguments.no_gnubg,
        )
        print(json.dumps(report, indent=2), flush=True)


if __name__ == "__main__":
    main()
