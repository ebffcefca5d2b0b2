"""Time the hypergammon database build and check what it writes.

Builds the ``--checkers`` database (default 3) ``--runs`` times (default 2) into a
fresh temporary folder each time, with the build's own command path
(:func:`~backgammon.engine.hypergammon.build_database`, every core unless
``--threads``), and prints one JSON object: the wall time of each run and their
median, the sweeps, the file's size, the machine's load before and after
(``os.getloadavg``: on a shared machine the figure is only comparable with the load
it was measured under), and the checks of the last file written (each sweep's
largest change goes to stderr as it comes):

* ``reference``: the largest difference of every stored value (the five chances and
  the three cube arrays; NaN where both are NaN) against ``--reference``, a
  database file written before (e.g. by the old one-thread solver), or, with
  ``--legacy``, against the one-thread solve in memory (``threads=1``; sensible for 1
  and 2 checkers). ``ok`` when at most ``--agreement`` (1e-6).
* ``residual``: the fixed-point check of the Bellman sweep
  (:func:`~backgammon.engine.hypergammon.residual`), over ``--sample`` positions drawn
  at random (every position by default for 1 and 2 checkers, 200,000 for 3).
* ``opening`` (3 checkers): the opening roll winner's cubeless equity against Tom
  Keith's published +0.0836795444708631.
* ``bearoff``: agreement with the two-sided bear-off database where both apply
  (from ``benchmarks/hypergammon_check.py``).

Usage: ``python benchmarks/hypergammon_build.py [--checkers 3] [--runs 2]
[--reference FILE | --legacy] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from backgammon.engine.hypergammon import (
    HypergammonDatabase,
    build_database,
    database_file,
    residual,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hypergammon_check import (
    KEITH_OPENING_EQUITY,
    bearoff_agreement,
    opening_equity,
)

ARRAYS = ("_probabilities", "_centred_no_double", "_owned_no_double", "_opponent_owns")


def largest_difference(ours: HypergammonDatabase, theirs: HypergammonDatabase) -> dict[str, float]:
    """The largest absolute difference of each stored array (NaN where both are NaN;
    a NaN on one side only counts as infinite)."""
    out: dict[str, float] = {}
    for name in ARRAYS:
        mine = np.asarray(getattr(ours, name), dtype=np.float64)
        other = np.asarray(getattr(theirs, name), dtype=np.float64)
        both = np.isnan(mine) & np.isnan(other)
        diff = np.abs(mine - other)
        diff[both] = 0.0
        out[name.lstrip("_")] = float(np.nan_to_num(diff, nan=np.inf).max())
    return out


def timed_build(checkers: int, threads: int | None, folder: Path) -> tuple[float, Path, int]:
    """One build into ``folder``: seconds, the file, the sweeps."""
    sweeps = 0

    def count(sweep: int, change: float, seconds: float) -> None:
        nonlocal sweeps
        sweeps = sweep
        print(f"sweep {sweep}: largest change {change:.3g} at {seconds:.0f} s", file=sys.stderr)

    began = time.perf_counter()
    path = build_database(checkers, folder, progress=count, threads=threads)
    return time.perf_counter() - began, path, sweeps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkers", type=int, choices=(1, 2, 3), default=3)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--threads", type=int, default=None)
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--reference", type=Path, default=None)
    source.add_argument("--legacy", action="store_true")
    parser.add_argument("--agreement", type=float, default=1e-6)
    parser.add_argument("--sample", type=int, default=None)
    parser.add_argument("--keep", type=Path, default=None, help="copy the last file here")
    arguments = parser.parse_args()
    n = arguments.checkers
    if arguments.reference is not None and arguments.reference.name != database_file(n):
        parser.error(f"--reference must be a file named {database_file(n)}")
    from backgammon.engine.hypergammon.solver import _solve  # warm the kernels' cache first

    _solve(1, threads=1)
    _solve(1, threads=2)
    report: dict[str, Any] = {"checkers": n, "cores": os.cpu_count()}
    report["load_before"] = os.getloadavg()
    times, sweeps = [], []
    with tempfile.TemporaryDirectory() as scratch:
        last = None
        for run in range(arguments.runs):
            folder = Path(scratch) / f"run{run}"
            seconds, last, count = timed_build(n, arguments.threads, folder)
            times.append(seconds)
            sweeps.append(count)
            print(f"run {run + 1}: {seconds:.1f} s, {count} sweeps", file=sys.stderr)
        assert last is not None
        report["load_after"] = os.getloadavg()
        report["seconds"] = times
        report["median_seconds"] = statistics.median(times)
        report["sweeps"] = sweeps
        report["file_mb"] = last.stat().st_size / 1e6
        if arguments.keep is not None:
            arguments.keep.mkdir(parents=True, exist_ok=True)
            shutil.copy(last, arguments.keep)
        built = HypergammonDatabase.open(n, last.parent, build=False)
        reference = None
        if arguments.reference is not None:
            reference = HypergammonDatabase.open(n, arguments.reference.parent, build=False)
        elif arguments.legacy:
            reference = HypergammonDatabase.build(n, threads=1)
        if reference is not None:
            differences = largest_difference(built, reference)
            report["reference"] = {
                "against": str(arguments.reference) if arguments.reference else "threads=1",
                "largest_difference": differences,
                "ok": max(differences.values()) <= arguments.agreement,
            }
        sample = arguments.sample if arguments.sample is not None else (200_000 if n == 3 else None)
        report["residual"] = {"sample": sample, "largest": residual(built, sample)}
        if n == 3:
            opening = opening_equity(built)
            report["opening"] = {
                "ours": opening,
                "published": KEITH_OPENING_EQUITY,
                "difference": abs(opening - KEITH_OPENING_EQUITY),
            }
        report["bearoff"] = bearoff_agreement(built)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
