#!/usr/bin/env python3
"""Legal-play generation speed: our public path and kernel against GNU Backgammon.

Run by hand, never by the test suite::

    .venv/bin/python benchmarks/movegen.py [--runs 5] [--limit N] [--json OUT] [--no-gnubg]

Every position of the reference file (``moves_public.jsonl``, 3,000 records) is played
with each of the 21 distinct rolls, not only the record's own dice: 63,000
position x roll pairs. Measured, each ``--runs`` times after a warm-up (JIT compile),
reported as the median:

* **public path**: ``Position.legal_plays((high, low))``, the full ``PlayList`` of
  ``Play`` value objects;
* **public path + notation**: the same, also touching ``play.position`` and
  ``str(play)`` for every play;
* **kernel, per pair**: ``rules.movegen.generate_plays(board, die1, die2)`` called from
  Python once per pair;
* **kernel, batch**: ``rules.movegen.count_plays_batch(boards, rolls)`` called once for
  all positions and rolls (the form an engine uses).

GNU Backgammon, where installed, is measured in the same run on the same pairs, the way
``shared/gnubg/bench.py`` measures its legal-move part (whose helpers it imports; their
code is not copied here):

* the PyPI ``gnubg`` package (``findbestmoves`` with a 0-ply cubeless evaluation
  context), run by ``/tmp/venv-gnubg/bin/python``;
* the Debian ``gnubg`` binary's embedded Python (``set board`` / ``set dice`` /
  ``hint()`` at 0-ply, looped inside gnubg through ``gnubg_client.GnubgService``; a new
  game every 500 pairs, because each ``set board`` lengthens the game record and slows
  every later command).

Both also score every play with gnubg's 0-ply network (there is no list-only call), and
both keep an evaluation cache across calls: a repeated pass over the same positions is
much faster than the first. Each is therefore measured *warm* (default cache, one
untimed pass first, as bench.py's median of repeated passes effectively is) and *cold*
(``set cache 0``). The PyPI package is also measured on the records' own dice alone,
the pair set behind the issue's "about 71,000 pairs/s".

Numba's on-disk cache is kept in a private folder (``--numba-cache-dir``) so that this
script neither reads nor writes the package's ``__pycache__``.
"""

from __future__ import annotations

import argparse
import gc
import json
import lzma
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from backgammon import Position

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
DEFAULT_REFERENCE = ROOT / "tests" / "data" / "reference" / "moves_public.jsonl.xz"
DEFAULT_GNUBG_DIR = SHARED / "gnubg"
DEFAULT_PYPI_PYTHON = Path("/tmp/venv-gnubg/bin/python")
DEFAULT_NUMBA_CACHE = Path(tempfile.gettempdir()) / "backgammon-bench-numba-cache"

#: The 21 distinct rolls, higher die first.
ROLLS: tuple[tuple[int, int], ...] = tuple(
    (high, low) for high in range(1, 7) for low in range(1, high + 1)
)

#: The figure named in our issue for the PyPI gnubg build (bench.py, record dice).
ISSUE_GNUBG_PYPI_PAIRS_PER_S = 71_000.0
#: bgsage's published legal-play figure (another machine; for orientation only).
BGSAGE_PAIRS_PER_S = 60_000.0
#: Targets from the issue: our public path and our kernel against the PyPI gnubg build.
TARGET_PUBLIC = 1.0
TARGET_KERNEL = 1.5

Board = npt.NDArray[np.uint8]


# -- reference positions -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Case:
    """One reference record: the position to play from and what the file says about it."""

    record_id: str
    position: Position
    board: Board
    position_id: str
    dice: tuple[int, int]
    n_plays: int


def load_cases(path: Path, limit: int | None) -> list[Case]:
    """Read the reference records, plain or xz-compressed (skipping the ``_meta`` line), at
    most ``limit``.

    Raises:
        ValueError: if a record's position does not match its ``off`` counts.
    """
    from backgammon import Position

    cases: list[Case] = []
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            record = json.loads(line)
            if "_meta" in record:
                continue
            if limit is not None and len(cases) >= limit:
                break
            on_roll = record["position"]["on_roll"]
            opponent = record["position"]["opponent"]
            position = Position.from_points(
                on_roll["points"],
                opponent["points"],
                player_bar=on_roll["bar"],
                opponent_bar=opponent["bar"],
            )
            if (position.player_off, position.opponent_off) != (on_roll["off"], opponent["off"]):
                raise ValueError(
                    f"record {record['id']}: borne-off counts {on_roll['off']}/{opponent['off']}"
                    f" do not match the position built from its points"
                )
            dice = record["dice"]
            cases.append(
                Case(
                    record_id=record["id"],
                    position=position,
                    board=position.to_array(),
                    position_id=record["position_id"],
                    dice=(max(dice), min(dice)),
                    n_plays=int(record["n_plays"]),
                )
            )
    return cases


# -- measurements ------------------------------------------------------------------------


@dataclass(slots=True)
class Figure:
    """One measured path: its median time over the runs and what it produced."""

    name: str
    pairs: int
    plays: int
    seconds: list[float] = field(default_factory=list)
    note: str = ""

    @property
    def median(self) -> float:
        """The median wall time of one pass, in seconds."""
        return statistics.median(self.seconds)

    @property
    def pairs_per_s(self) -> float:
        """Position x roll pairs handled per second (median run)."""
        return self.pairs / self.median

    @property
    def plays_per_s(self) -> float:
        """Distinct plays produced per second (median run)."""
        return self.plays / self.median

    def as_dict(self) -> dict[str, Any]:
        """The figure as plain JSON data."""
        return {
            "pairs": self.pairs,
            "plays": self.plays,
            "median_s": self.median,
            "pairs_per_s": self.pairs_per_s,
            "plays_per_s": self.plays_per_s,
            "runs_s": self.seconds,
            "note": self.note,
        }


def time_runs(name: str, pairs: int, runs: int, body: Callable[[], int], note: str = "") -> Figure:
    """Run ``body`` ``runs`` times; it returns the number of plays it produced.

    Raises:
        RuntimeError: if two runs produce different numbers of plays.
    """
    figure = Figure(name=name, pairs=pairs, plays=-1, note=note)
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        plays = body()
        figure.seconds.append(time.perf_counter() - start)
        if figure.plays not in (-1, plays):
            raise RuntimeError(f"{name}: runs disagree on the number of plays")
        figure.plays = plays
    return figure


def public_path(positions: Sequence[Position]) -> int:
    """Every legal-play list of every position and roll through the public API."""
    total = 0
    for position in positions:
        legal_plays = position.legal_plays
        for roll in ROLLS:
            total += len(legal_plays(roll))
    return total


def public_path_record_dice(cases: Sequence[Case]) -> int:
    """The public path on each record's own dice only (bench.py's pair set)."""
    total = 0
    for case in cases:
        total += len(case.position.legal_plays(case.dice))
    return total


def public_path_notation(positions: Sequence[Position]) -> int:
    """As :func:`public_path`, also touching each play's position and notation."""
    total = 0
    for position in positions:
        legal_plays = position.legal_plays
        for roll in ROLLS:
            for play in legal_plays(roll):
                _ = play.position
                _ = str(play)
                total += 1
    return total


def kernel_per_pair(boards: Sequence[Board]) -> int:
    """``generate_plays`` called from Python once per position and roll."""
    from backgammon.rules.movegen import generate_plays

    total = 0
    for board in boards:
        for high, low in ROLLS:
            results, _, _ = generate_plays(board, high, low)
            total += results.shape[0]
    return total


def kernel_batch(boards: Board, rolls: npt.NDArray[np.int64]) -> int:
    """``count_plays_batch`` called once for every position and roll."""
    from backgammon.rules.movegen import count_plays_batch

    return int(count_plays_batch(boards, rolls).sum())


def measure_ours(cases: Sequence[Case], runs: int) -> tuple[list[Figure], npt.NDArray[np.int64]]:
    """Warm up, then time our four paths; also return the play counts ``[case, roll]``.

    Raises:
        RuntimeError: if the paths disagree on the number of plays.
    """
    from backgammon.rules.movegen import count_plays_batch, generate_plays

    positions = [case.position for case in cases]
    boards = [case.board for case in cases]
    stacked = np.ascontiguousarray(np.stack(boards))
    rolls = np.array(ROLLS, dtype=np.int64)
    pairs = len(cases) * len(ROLLS)

    # Warm-up: compile every signature used below (also the read-only buffer the
    # public path passes) and touch the Python-level code once.
    for high, low in ROLLS:
        generate_plays(boards[0], high, low)
    count_plays_batch(stacked[:2], rolls)
    public_path_notation(positions[: min(50, len(positions))])
    kernel_per_pair(boards[: min(50, len(boards))])

    counts = count_plays_batch(stacked, rolls)
    figures = [
        time_runs(
            "public path",
            pairs,
            runs,
            lambda: public_path(positions),
            "Position.legal_plays(roll) -> PlayList of Play",
        ),
        time_runs(
            "public path + notation",
            pairs,
            runs,
            lambda: public_path_notation(positions),
            "also play.position and str(play) for every play",
        ),
        time_runs(
            "kernel, per pair",
            pairs,
            runs,
            lambda: kernel_per_pair(boards),
            "generate_plays(board, d1, d2) called from Python",
        ),
        time_runs(
            "kernel, batch",
            pairs,
            runs,
            lambda: kernel_batch(stacked, rolls),
            "count_plays_batch(boards[n, 52], rolls[21, 2]), one call",
        ),
    ]
    expected = int(counts.sum())
    record = time_runs(
        "public path (record dice only)",
        len(cases),
        runs,
        lambda: public_path_record_dice(cases),
        "Position.legal_plays(record's dice), bench.py's pair set",
    )
    record_expected = sum(
        int(counts[row, ROLLS.index(case.dice)]) for row, case in enumerate(cases)
    )
    if record.plays != record_expected:
        raise RuntimeError(
            f"{record.name} produced {record.plays} plays, the batch kernel {record_expected}"
        )
    for figure in figures:
        if figure.plays != expected:
            raise RuntimeError(
                f"{figure.name} produced {figure.plays} plays, the batch kernel {expected}"
            )
    return [*figures, record], counts


# -- GNU Backgammon ----------------------------------------------------------------------

# Runs under the PyPI gnubg venv's Python: argv = spec.json out.json.
_PYPI_WORKER = """
import json, sys, time
import gnubg

spec = json.load(open(sys.argv[1]))
items = [(gnubg.positionfromid(pid), (d1, d2)) for pid, d1, d2 in spec["pairs"]]
ci = gnubg.cubeinfo()
ec = gnubg.evalcontext(0, 0, 1, 1, 0.0)
find = gnubg.findbestmoves


def one_pass():
    counts = []
    start = time.perf_counter()
    for board, dice in items:
        counts.append(len(find(board, ci, ec, dice)))
    seconds = time.perf_counter() - start
    return seconds, counts


out = {"version": str(gnubg.version() if callable(gnubg.version) else gnubg.version)}
first, counts = one_pass()
out["first_pass_s"] = first
out["counts"] = counts
out["warm_s"] = [one_pass()[0] for _ in range(spec["runs"])]
gnubg.command("set cache 0")
out["cold_s"] = [one_pass()[0] for _ in range(spec["runs"])]
json.dump(out, open(sys.argv[2], "w"))
"""

# Runs inside the Debian gnubg binary (GnubgService.python); %(spec)r is a JSON file.
# Every `set board` adds to the game record and makes later commands slower (quadratic
# over a long pass: ~150 pairs/s after 80,000 pairs), so a new game starts every 500 pairs.
_DEBIAN_PASS = """
import json
d = json.load(open(%(spec)r))
counts = []
start = time.perf_counter()
for index, (pid, d1, d2) in enumerate(d['pairs']):
    if index %% 500 == 0:
        gnubg.command('new game')
    gnubg.command('set board ' + pid)
    gnubg.command('set dice %%d %%d' %% (d1, d2))
    counts.append(len(gnubg.hint(100000)['hint']))
result = [time.perf_counter() - start, counts if d['keep'] else None]
"""


def _pair_list(cases: Sequence[Case], all_rolls: bool) -> list[tuple[str, int, int]]:
    if all_rolls:
        return [(case.position_id, high, low) for case in cases for high, low in ROLLS]
    return [(case.position_id, *case.dice) for case in cases]


def _gnubg_figures(
    name: str, pairs: int, plays: int, warm: list[float], cold: list[float], note: str
) -> list[Figure]:
    return [
        Figure(f"{name}, warm cache", pairs, plays, warm, note),
        Figure(f"{name}, cold (set cache 0)", pairs, plays, cold, note),
    ]


def measure_gnubg_pypi(
    cases: Sequence[Case], runs: int, python: Path, all_rolls: bool
) -> tuple[list[Figure], list[int] | None, str]:
    """Time the PyPI gnubg package's ``findbestmoves`` in its own venv.

    Returns the figures (empty if the venv is missing or fails), gnubg's play count per
    pair, and a line saying what happened.
    """
    if not python.exists():
        return [], None, f"PyPI gnubg: not installed ({python} missing)"
    pairs = _pair_list(cases, all_rolls)
    with tempfile.TemporaryDirectory() as folder:
        spec_path = Path(folder) / "spec.json"
        out_path = Path(folder) / "out.json"
        spec_path.write_text(json.dumps({"pairs": pairs, "runs": runs}))
        done = subprocess.run(
            [str(python), "-c", _PYPI_WORKER, str(spec_path), str(out_path)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0 or not out_path.exists():
            return [], None, f"PyPI gnubg: failed ({done.stderr.strip()[-300:]})"
        out = json.loads(out_path.read_text())
    counts: list[int] = out["counts"]
    which = "21 rolls" if all_rolls else "record dice"
    figures = _gnubg_figures(
        f"gnubg PyPI {out['version']} ({which})",
        len(pairs),
        sum(counts),
        out["warm_s"],
        out["cold_s"],
        "findbestmoves, lists and scores every play (0-ply)",
    )
    return figures, counts, f"PyPI gnubg {out['version']}: first pass {out['first_pass_s']:.2f} s"


def measure_gnubg_debian(
    cases: Sequence[Case], runs: int, gnubg_dir: Path
) -> tuple[list[Figure], list[int] | None, str]:
    """Time gnubg's embedded Python (``hint`` at 0-ply) looped inside the Debian binary.

    Returns the figures (empty if gnubg is not installed), gnubg's play count per pair
    and a line saying what happened.
    """
    if not (gnubg_dir / "gnubg_client.py").exists():
        return [], None, f"Debian gnubg: {gnubg_dir}/gnubg_client.py not found"
    sys.path.insert(0, str(gnubg_dir))
    try:
        from gnubg_client import GnubgService, gnubg_binary
    finally:
        sys.path.remove(str(gnubg_dir))
    try:
        binary = gnubg_binary()
    except RuntimeError as error:
        return [], None, f"Debian gnubg: not installed ({error})"
    pairs = _pair_list(cases, all_rolls=True)
    with tempfile.TemporaryDirectory() as folder:
        spec_path = Path(folder) / "pairs.json"
        log_path = Path(folder) / "gnubg.log"

        def one_pass(service: Any, keep: bool) -> tuple[float, list[int] | None]:
            spec_path.write_text(json.dumps({"pairs": pairs, "keep": keep}))
            seconds, counts = service.python(_DEBIAN_PASS % {"spec": str(spec_path)})
            return float(seconds), counts

        with GnubgService(log_path=str(log_path)) as service:
            service.command("set threads 1")
            first, counts = one_pass(service, keep=True)
            warm = [one_pass(service, keep=False)[0] for _ in range(runs)]
            service.command("set cache 0")
            cold = [one_pass(service, keep=False)[0] for _ in range(runs)]
            shim = service.shim
    assert counts is not None
    figures = _gnubg_figures(
        "gnubg Debian embedded (21 rolls)",
        len(pairs),
        sum(counts),
        warm,
        cold,
        "set board/set dice/hint(100000) at 0-ply inside gnubg, 1 thread",
    )
    return (
        figures,
        counts,
        (
            f"Debian gnubg ({binary}, fastpoll shim {'on' if shim else 'off'}):"
            f" first pass {first:.2f} s"
        ),
    )


def compare_counts(
    cases: Sequence[Case], ours: npt.NDArray[np.int64], theirs: Sequence[int], label: str
) -> str:
    """Compare our play count per position and roll with gnubg's; describe mismatches."""
    theirs_array = np.asarray(theirs, dtype=np.int64).reshape(len(cases), len(ROLLS))
    bad = np.argwhere(ours != theirs_array)
    if bad.size == 0:
        return f"{label}: play counts agree on all {ours.size} pairs"
    examples = ", ".join(
        f"{cases[row].record_id} {ROLLS[col][0]}-{ROLLS[col][1]}:"
        f" ours {ours[row, col]} gnubg {theirs_array[row, col]}"
        for row, col in bad[:5]
    )
    return f"{label}: {len(bad)} of {ours.size} pairs DISAGREE (e.g. {examples})"


def check_reference(cases: Sequence[Case], counts: npt.NDArray[np.int64]) -> str:
    """Compare our counts for each record's own dice with the reference file's."""
    bad = [
        case
        for row, case in enumerate(cases)
        if counts[row, ROLLS.index(case.dice)] != case.n_plays
    ]
    if not bad:
        return f"reference file: play counts agree on all {len(cases)} records' own dice"
    return f"reference file: {len(bad)} records DISAGREE (e.g. {bad[0].record_id})"


# -- report ------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    """What this ran on."""
    import numba

    import backgammon

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "backgammon": backgammon.__version__,
    }


def print_report(
    info: dict[str, Any],
    n_cases: int,
    runs: int,
    ours: Sequence[Figure],
    gnubg: Sequence[Figure],
    ratios: Sequence[tuple[str, float, float | None]],
    notes: Sequence[str],
) -> None:
    """Print the table of figures, the ratios and the notes."""
    from rich.console import Console
    from rich.table import Table

    console = Console(width=120)
    console.print(
        f"Legal-play generation, {n_cases} reference positions x {len(ROLLS)} rolls"
        f" = {n_cases * len(ROLLS):,} pairs; median of {runs} runs"
    )
    console.print(
        f"{info['cpu']}, {info['nproc']} CPUs, Python {info['python']},"
        f" numpy {info['numpy']}, numba {info['numba']}, backgammon {info['backgammon']}"
    )
    table = Table(show_lines=False)
    table.add_column("path")
    table.add_column("pairs", justify="right")
    table.add_column("pairs/s", justify="right")
    table.add_column("plays/s", justify="right")
    table.add_column("median s", justify="right")
    table.add_column("min-max s", justify="right")
    for index, figure in enumerate([*ours, *gnubg]):
        if index == len(ours) and gnubg:
            table.add_section()
        table.add_row(
            figure.name,
            f"{figure.pairs:,}",
            f"{figure.pairs_per_s:,.0f}",
            f"{figure.plays_per_s:,.0f}",
            f"{figure.median:.3f}",
            f"{min(figure.seconds):.3f}-{max(figure.seconds):.3f}",
        )
    console.print(table)
    if ratios:
        console.print("Ratios (higher is faster for us):")
        for label, value, target in ratios:
            verdict = ""
            if target is not None:
                verdict = f"  target >= {target:.1f}: " + ("met" if value >= target else "NOT met")
            console.print(f"  {label:<62} {value:6.2f}{verdict}")
    for note in notes:
        console.print(f"- {note}")


def build_ratios(
    ours: Sequence[Figure], gnubg: Sequence[Figure]
) -> list[tuple[str, float, float | None]]:
    """Our figures divided by gnubg's PyPI figures (same pairs) and published ones."""
    by_name = {figure.name: figure for figure in ours}
    public = by_name["public path"].pairs_per_s
    per_pair = by_name["kernel, per pair"].pairs_per_s
    batch = by_name["kernel, batch"].pairs_per_s
    ratios: list[tuple[str, float, float | None]] = []
    for figure in gnubg:
        if not figure.name.startswith("gnubg PyPI") or "21 rolls" not in figure.name:
            continue
        cache = "warm" if "warm" in figure.name else "cold"
        yardstick = figure.pairs_per_s
        primary = cache == "warm"
        ratios += [
            (
                f"public path / gnubg PyPI ({cache}, same pairs)",
                public / yardstick,
                TARGET_PUBLIC if primary else None,
            ),
            (
                f"kernel per pair / gnubg PyPI ({cache}, same pairs)",
                per_pair / yardstick,
                TARGET_KERNEL if primary else None,
            ),
            (
                f"kernel batch / gnubg PyPI ({cache}, same pairs)",
                batch / yardstick,
                TARGET_KERNEL if primary else None,
            ),
        ]
    record = by_name["public path (record dice only)"].pairs_per_s
    for figure in gnubg:
        if figure.name.startswith("gnubg PyPI") and "record dice" in figure.name:
            cache = "warm" if "warm" in figure.name else "cold"
            ratios.append(
                (
                    f"public path / gnubg PyPI ({cache}), both on record dice only",
                    record / figure.pairs_per_s,
                    None,
                )
            )
    ratios += [
        (
            "public path / issue's 71,000 pairs/s",
            public / ISSUE_GNUBG_PYPI_PAIRS_PER_S,
            TARGET_PUBLIC,
        ),
        (
            "kernel batch / issue's 71,000 pairs/s",
            batch / ISSUE_GNUBG_PYPI_PAIRS_PER_S,
            TARGET_KERNEL,
        ),
        ("public path / bgsage's published ~60,000 pairs/s", public / BGSAGE_PAIRS_PER_S, None),
    ]
    return ratios


def compare_variant(cases: Sequence[Case], name: str, runs: int) -> int:
    """Time the public path under ``name``'s rules against standard, interleaved."""
    from backgammon import ALL_ROLLS, variants

    variant = variants.find(name)
    positions = [case.position for case in cases]
    rolls = [(roll.high, roll.low) for roll in ALL_ROLLS]

    def timed(chosen: Any) -> float:
        began = time.perf_counter()
        for position in positions:
            for roll in rolls:
                position.legal_plays(roll, chosen)
        return time.perf_counter() - began

    timed(None)
    timed(variant)
    standard_times, variant_times = [], []
    for _ in range(runs):
        standard_times.append(timed(None))
        variant_times.append(timed(variant))
    pairs = len(positions) * len(rolls)
    standard = pairs / statistics.median(standard_times)
    other = pairs / statistics.median(variant_times)
    print(f"{pairs:,} position x roll pairs, median of {runs} interleaved runs")
    print(f"standard      {standard:12,.0f} pairs/s")
    ratio = other / standard
    print(f"{variant.name:13} {other:12,.0f} pairs/s   ratio {ratio:.3f} (target >= 0.9)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, measure, print the table and optionally write JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per path (median)")
    parser.add_argument("--limit", type=int, default=None, help="use the first N records")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument("--no-gnubg", action="store_true", help="measure only our paths")
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    parser.add_argument(
        "--gnubg-dir",
        type=Path,
        default=DEFAULT_GNUBG_DIR,
        help="folder of bench.py / gnubg_client.py",
    )
    parser.add_argument(
        "--pypi-python",
        type=Path,
        default=DEFAULT_PYPI_PYTHON,
        help="Python of the venv with the PyPI gnubg package",
    )
    parser.add_argument(
        "--numba-cache-dir",
        type=Path,
        default=DEFAULT_NUMBA_CACHE,
        help="private Numba cache folder (keeps src/ untouched)",
    )
    parser.add_argument(
        "--variant",
        default=None,
        help="also time Position.legal_plays under this variant's rules, as a ratio to "
        "standard on the same positions (target for standard-topology variants: >= 0.9)",
    )
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    # Before numba is imported (by backgammon.rules.movegen).
    os.environ["NUMBA_CACHE_DIR"] = str(args.numba_cache_dir)

    cases = load_cases(args.reference, args.limit)
    if not cases:
        parser.error(f"no records in {args.reference}")
    if args.variant is not None:
        return compare_variant(cases, args.variant, args.runs)
    info = machine()
    ours, counts = measure_ours(cases, args.runs)
    notes = [check_reference(cases, counts)]
    gnubg: list[Figure] = []
    if args.no_gnubg:
        notes.append("gnubg: not measured (--no-gnubg); only our figures are shown")
    else:
        for label, job in (
            ("PyPI", lambda: measure_gnubg_pypi(cases, args.runs, args.pypi_python, True)),
            (
                "PyPI record dice",
                lambda: measure_gnubg_pypi(cases, args.runs, args.pypi_python, False),
            ),
            ("Debian", lambda: measure_gnubg_debian(cases, args.runs, args.gnubg_dir)),
        ):
            figures, gnubg_counts, line = job()
            gnubg += figures
            if label != "PyPI record dice":
                notes.append(line)
                if gnubg_counts is not None:
                    notes.append(compare_counts(cases, counts, gnubg_counts, f"gnubg {label}"))
        if not gnubg:
            notes.append("gnubg: not installed; only our figures are shown")
        else:
            notes.append(
                "gnubg figures include scoring every play with its 0-ply network; 'warm' repeats"
                " passes over positions already in its evaluation cache"
            )
    notes.append(
        f"published: bgsage lists about {BGSAGE_PAIRS_PER_S:,.0f} pairs/s (another machine)"
    )
    ratios = build_ratios(ours, gnubg)
    print_report(info, len(cases), args.runs, ours, gnubg, ratios, notes)
    if args.json is not None:
        report = {
            "machine": info,
            "reference": str(args.reference),
            "positions": len(cases),
            "rolls": len(ROLLS),
            "runs": args.runs,
            "ours": {figure.name: figure.as_dict() for figure in ours},
            "gnubg": {figure.name: figure.as_dict() for figure in gnubg},
            "ratios": {label: value for label, value, _ in ratios},
            "notes": notes,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
