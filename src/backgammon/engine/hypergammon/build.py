"""Building a hypergammon database file, resumably, and its command line
(``python -m backgammon.engine.hypergammon build --checkers N``, also
``backgammon build-hypergammon``)."""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from backgammon.engine.bearoff import default_database_directory
from backgammon.engine.hypergammon.database import HypergammonDatabase, database_file
from backgammon.engine.hypergammon.indexing import CHECKER_COUNTS
from backgammon.engine.hypergammon.solver import SolveProgress, default_tolerance
from backgammon.errors import EngineError

__all__ = ["build_database", "main", "run_build"]


def build_database(
    checkers: int,
    directory: str | os.PathLike[str] | None = None,
    tolerance: float | None = None,
    progress: SolveProgress | None = None,
    threads: int | None = None,
) -> Path:
    """Solve ``checkers``-checker hypergammon on ``threads`` threads (if ``None``, every
    core for 3 checkers, one for 1 and 2) to ``tolerance`` (:func:`default_tolerance` if
    ``None``) and write it into ``directory``
    (:func:`~backgammon.engine.bearoff.default_database_directory` if ``None``),
    replacing any file there; returns its path. The iteration's state is kept beside it
    (``hypergammon-N.npz.partial``) every two minutes, so a build that is stopped resumes
    where it was when run again.

    Raises:
        ValueError: for a checker count other than 1, 2 or 3.
        OSError: if the file cannot be written.
    """
    folder = Path(directory or default_database_directory())
    folder.mkdir(parents=True, exist_ok=True)
    state = folder / f"{database_file(checkers)}.partial"
    database = HypergammonDatabase.build(checkers, tolerance, progress, state, threads)
    path = database.save(folder)
    state.unlink(missing_ok=True)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m backgammon.engine.hypergammon build --checkers N
    [--dir DIR] [--tolerance T] [--threads K] [--niceness X] [--quiet]``; returns the
    exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m backgammon.engine.hypergammon",
        description="Solve 1-, 2- or 3-checker hypergammon and cache the database.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="solve and cache one database")
    build.add_argument("--checkers", type=int, choices=CHECKER_COUNTS, default=3)
    build.add_argument(
        "--dir", default=None, help=f"folder for the file (default: {default_database_directory()})"
    )
    build.add_argument("--tolerance", type=float, default=None)
    build.add_argument(
        "--threads",
        type=int,
        default=None,
        help="default: every core for 3 checkers, else 1",
    )
    build.add_argument(
        "--niceness", type=int, default=0, help="lower this process's priority by this much"
    )
    build.add_argument("--quiet", action="store_true", help="print nothing but errors")
    build.add_argument(
        "--exit-with-parent",
        action="store_true",
        help="end when the process that started this one ends (Linux; a server's build)",
    )
    arguments = parser.parse_args(argv)
    if arguments.exit_with_parent:
        _exit_with_parent()
    if arguments.niceness > 0:
        os.nice(arguments.niceness)
    return run_build(
        arguments.checkers,
        arguments.dir,
        arguments.tolerance,
        arguments.quiet,
        threads=arguments.threads,
    )


def _exit_with_parent() -> None:
    """Have the kernel kill this process when its parent ends (Linux's
    ``PR_SET_PDEATHSIG``): a server killed with SIGKILL cannot stop its background
    build, and a thread watching the parent would not run while a kernel holds the
    GIL. Elsewhere nothing is done."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    parent = os.getppid()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent ended before the request was made
        os._exit(0)


def run_build(
    checkers: int,
    directory: str | None,
    tolerance: float | None = None,
    quiet: bool = False,
    *,
    threads: int | None = None,
) -> int:
    """Build one database with a progress bar (the digits converged: the largest
    change of each sweep against the tolerance) unless ``quiet``; the exit status."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    limit = default_tolerance(checkers) if tolerance is None else tolerance
    digits = max(1.0, -math.log10(limit))
    began = time.perf_counter()
    bar = Progress(
        TextColumn(f"hypergammon-{checkers}"),
        BarColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
        disable=quiet,
    )
    task = bar.add_task("solve", total=digits, status="sweep 1")

    def show(sweep: int, change: float, seconds: float) -> None:
        done = min(digits, max(0.0, -math.log10(max(change, 1e-300))))
        status = f"sweep {sweep}: largest change {change:.2g}"
        bar.update(task, completed=done, status=status)

    try:
        with bar:
            path = build_database(checkers, directory, limit, show, threads)
    except (OSError, EngineError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if not quiet:
        print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")
        print(f"done in {time.perf_counter() - began:.1f} s")
    return 0
