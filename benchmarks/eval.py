#!/usr/bin/env python3
"""Static (0-ply) evaluation speed: our Engine against GNU Backgammon.

Run by hand, never by the test suite::

    .venv/bin/python benchmarks/eval.py [--runs 5] [--repeat 5] [--json OUT] [--no-gnubg]
        [--plans all|blitz,prime,...]

The positions are the 2,000 records of ``tests/data/reference/evals_public.jsonl.xz`` (half
contact, a quarter race, a quarter bear-off). Measured ``--runs`` times after a warm-up
(JIT compile), reported as the median, each run making ``--repeat`` passes over all
positions:

* **evaluate_many**: ``Engine.evaluate_many(positions)``, one call per pass, returning a
  list of ``Evaluation`` objects;
* **evaluate_boards**: ``Engine.evaluate_boards(boards[2000, 52])``, the array form
  (``float64[n, 5]`` out), one call per pass;
* **evaluate (single)**: ``Engine.evaluate(position)`` called once per position;
* **best_play (0-ply)**: ``Engine.best_play(position, dice)`` on each record's own dice
  (every legal play generated and evaluated), for orientation.

The engine runs the default network sizes (contact and crashed 242-128-5, race
208-128-5; see ``--hidden``) with seeded random weights: speed does not depend on the
weights. With ``--plans``, networks of game plans of the same size are added (a contact
position of such a plan is theirs) and the engine without them is measured beside. No
bearoff database is plugged in, so bear-off positions go through the race
network (GNU Backgammon looks them up in its databases, which is cheaper).

GNU Backgammon, where installed, in the same run (its helper scripts in
``../shared/gnubg`` are imported, not copied):

* ``calibrate`` in the Debian binary (``/usr/games/gnubg``), one thread: static
  evaluations per second of random positions, no cache (``--calibrate N`` iterations);
* the PyPI ``gnubg`` package's ``evaluate(board, cubeinfo, evalcontext)`` at 0-ply,
  looped in Python over the same 2,000 positions, with its position cache warm (the
  default, repeated passes hit it) and off (``set cache 0``); it needs
  ``python3 -m venv /tmp/venv-gnubg && /tmp/venv-gnubg/bin/pip install gnubg==1.1.0a16``;
* the Debian binary's embedded Python ``gnubg.evaluate`` loop inside gnubg (with the
  fastpoll shim), warm and with ``set cache 0``.

Targets (ratios in the same run): evaluate_many >= gnubg's one-thread calibrate and >=
the PyPI evaluate loop with the cache off; single evaluate >= a quarter of the latter.
Numba's disk cache goes to a private folder (``--numba-cache-dir``).
"""

from __future__ import annotations

import argparse
import gc
import json
import lzma
import os
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

if TYPE_CHECKING:
    from backgammon import Position
    from backgammon.engine.evaluator import Engine
    from backgammon.engine.network import Networks

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
DEFAULT_REFERENCE = ROOT / "tests" / "data" / "reference" / "evals_public.jsonl.xz"
DEFAULT_GNUBG_DIR = SHARED / "gnubg"
DEFAULT_PYPI_PYTHON = Path("/tmp/venv-gnubg/bin/python")
DEFAULT_NUMBA_CACHE = Path(tempfile.gettempdir()) / "backgammon-bench-numba-cache"

#: Targets from the issue: ours divided by gnubg's.
TARGET_MANY_VS_CALIBRATE = 1.0
TARGET_MANY_VS_PYPI_COLD = 1.0
TARGET_SINGLE_VS_PYPI_COLD = 0.25


@dataclass(slots=True)
class Figure:
    """One measured path: seconds per pass over ``items`` positions, per run."""

    name: str
    items: int
    seconds: list[float] = field(default_factory=list)
    note: str = ""

    @property
    def median(self) -> float:
        """The median time of one pass, in seconds."""
        return statistics.median(self.seconds)

    @property
    def per_s(self) -> float:
        """Evaluations (positions) per second, median run."""
        return self.items / self.median

    def as_dict(self) -> dict[str, Any]:
        """The figure as plain JSON data."""
        return {
            "items": self.items,
            "median_s": self.median,
            "per_s": self.per_s,
            "runs_s": self.seconds,
            "note": self.note,
        }


@dataclass(slots=True)
class Rate:
    """A figure given directly as a rate (gnubg's calibrate), one per run."""

    name: str
    rates: list[float]
    note: str = ""

    @property
    def per_s(self) -> float:
        """The median rate."""
        return statistics.median(self.rates)

    def as_dict(self) -> dict[str, Any]:
        """The figure as plain JSON data."""
        return {"per_s": self.per_s, "runs_per_s": self.rates, "note": self.note}


def load_records(path: Path) -> list[dict[str, Any]]:
    """The records of the reference file, plain or xz-compressed (the ``_meta`` line skipped)."""
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    return [record for record in records if "_meta" not in record]


def to_position(record: dict[str, Any]) -> Position:
    """Our position from a record's explicit form."""
    from backgammon import Position

    sides = record["position"]

    def slots(side: dict[str, Any]) -> list[int]:
        return [side["off"], *side["points"], side["bar"]]

    return Position(slots(sides["on_roll"]), slots(sides["opponent"]))


def time_runs(name: str, items: int, runs: int, repeat: int, body: Callable[[], object]) -> Figure:
    """Run ``body`` (one pass over ``items`` positions) ``repeat`` times per run."""
    figure = Figure(name=name, items=items)
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        for _ in range(repeat):
            body()
        figure.seconds.append((time.perf_counter() - start) / repeat)
    return figure


def measure_ours(
    engine: Engine,
    positions: Sequence[Position],
    dice: Sequence[tuple[int, int]],
    runs: int,
    repeat: int,
) -> list[Figure]:
    """Warm up, then time the engine's paths."""
    boards = np.stack([position.to_array() for position in positions])
    evaluate = engine.evaluate
    best_play = engine.best_play
    # Warm-up: compile every kernel and touch the Python paths.
    engine.evaluate_many(positions)
    engine.evaluate_boards(boards)
    for position, roll in zip(positions[:100], dice[:100], strict=True):
        evaluate(position)
        best_play(position, roll)
    n = len(positions)
    figures = [
        time_runs("evaluate_many", n, runs, repeat, lambda: engine.evaluate_many(positions)),
        time_runs(
            "evaluate_boards (arrays)", n, runs, repeat, lambda: engine.evaluate_boards(boards)
        ),
        time_runs("evaluate (single)", n, runs, repeat, lambda: [evaluate(p) for p in positions]),
        time_runs(
            "best_play 0-ply (record dice)",
            n,
            runs,
            1,
            lambda: [best_play(p, roll) for p, roll in zip(positions, dice, strict=True)],
        ),
    ]
    figures[0].note = "list of Evaluation; classify + encode + network in Numba, sigmoid in NumPy"
    figures[1].note = "uint8[n, 52] -> float64[n, 5]"
    figures[2].note = "one Numba call per position"
    figures[3].note = "plays per position x roll, all evaluated; positions x rolls per second"
    return figures


# -- GNU Backgammon ----------------------------------------------------------------------

# Runs under the PyPI gnubg venv's Python: argv = spec.json out.json.
_PYPI_WORKER = """
import json, sys, time
import gnubg

spec = json.load(open(sys.argv[1]))
boards = [gnubg.positionfromid(pid) for pid in spec["ids"]]
ci = gnubg.cubeinfo()
ec = gnubg.evalcontext(0, 0, 1, 1, 0.0)
evaluate = gnubg.evaluate


def one_pass():
    start = time.perf_counter()
    for board in boards:
        evaluate(board, ci, ec)
    return time.perf_counter() - start


out = {"version": str(gnubg.version() if callable(gnubg.version) else gnubg.version)}
out["first_pass_s"] = one_pass()
out["warm_s"] = [one_pass() for _ in range(spec["runs"])]
gnubg.command("set cache 0")
out["cold_s"] = [one_pass() for _ in range(spec["runs"])]
json.dump(out, open(sys.argv[2], "w"))
"""

# Runs inside the Debian gnubg binary (GnubgService.python); %(spec)r is a JSON file.
_DEBIAN_PASS = """
import json, time
d = json.load(open(%(spec)r))
bs = [gnubg.positionfromid(p) for p in d['ids']]
ci = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)
ec = gnubg.evalcontext(0, 0, 1, 1, 0.0)
start = time.perf_counter()
for b in bs:
    gnubg.evaluate(b, ci, ec)
result = time.perf_counter() - start
"""


def _gnubg_helpers(gnubg_dir: Path) -> Any:
    """Import ``bench`` (and through it ``gnubg_client``) from the shared gnubg folder."""
    sys.path.insert(0, str(gnubg_dir))
    try:
        import bench  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(gnubg_dir))
    return bench


def measure_calibrate(gnubg_dir: Path, runs: int, iterations: int) -> tuple[list[Rate], str]:
    """gnubg's ``calibrate`` with one thread, ``runs`` times."""
    if not (gnubg_dir / "bench.py").exists():
        return [], f"gnubg calibrate: {gnubg_dir}/bench.py not found"
    bench = _gnubg_helpers(gnubg_dir)
    try:
        binary = bench.gnubg_binary()
    except RuntimeError as error:
        return [], f"gnubg calibrate: not installed ({error})"
    rates = [bench.bench_calibrate(1, iterations) for _ in range(runs)]
    if any(rate is None for rate in rates):
        return [], "gnubg calibrate: no 'Calibration result' in its output"
    rate = Rate(
        "gnubg calibrate, 1 thread",
        [float(rate) for rate in rates],
        f"{binary}: random positions, no cache, calibrate {iterations}",
    )
    return [rate], f"gnubg calibrate: {binary}, {iterations} iterations per run"


def measure_pypi(ids: Sequence[str], runs: int, python: Path) -> tuple[list[Figure], str]:
    """The PyPI gnubg package's ``evaluate`` loop, warm and with the cache off."""
    if not python.exists():
        return [], f"PyPI gnubg: not installed ({python} missing)"
    with tempfile.TemporaryDirectory() as folder:
        spec_path = Path(folder) / "spec.json"
        out_path = Path(folder) / "out.json"
        spec_path.write_text(json.dumps({"ids": list(ids), "runs": runs}))
        done = subprocess.run(
            [str(python), "-c", _PYPI_WORKER, str(spec_path), str(out_path)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0 or not out_path.exists():
            return [], f"PyPI gnubg: failed ({done.stderr.strip()[-300:]})"
        out = json.loads(out_path.read_text())
    note = "gnubg.evaluate(board, cubeinfo, evalcontext 0-ply) looped in Python"
    figures = [
        Figure(f"gnubg PyPI {out['version']} evaluate, warm cache", len(ids), out["warm_s"], note),
        Figure(f"gnubg PyPI {out['version']} evaluate, cache off", len(ids), out["cold_s"], note),
    ]
    return figures, f"PyPI gnubg {out['version']}: first pass {out['first_pass_s']:.3f} s"


def measure_debian(ids: Sequence[str], runs: int, gnubg_dir: Path) -> tuple[list[Figure], str]:
    """gnubg's embedded Python ``evaluate`` loop inside the Debian binary."""
    if not (gnubg_dir / "gnubg_client.py").exists():
        return [], f"Debian gnubg: {gnubg_dir}/gnubg_client.py not found"
    bench = _gnubg_helpers(gnubg_dir)
    try:
        binary = bench.gnubg_binary()
    except RuntimeError as error:
        return [], f"Debian gnubg: not installed ({error})"
    with tempfile.TemporaryDirectory() as folder:
        spec_path = Path(folder) / "ids.json"
        spec_path.write_text(json.dumps({"ids": list(ids)}))
        code = _DEBIAN_PASS % {"spec": str(spec_path)}
        with bench.GnubgService(log_path=str(Path(folder) / "gnubg.log")) as service:
            service.command("set threads 1")
            service.python(code)
            warm = [float(service.python(code)) for _ in range(runs)]
            service.command("set cache 0")
            cold = [float(service.python(code)) for _ in range(runs)]
            shim = service.shim
    note = "gnubg.evaluate looped inside gnubg, 1 thread"
    return (
        [
            Figure("gnubg Debian embedded evaluate, warm cache", len(ids), warm, note),
            Figure("gnubg Debian embedded evaluate, cache off", len(ids), cold, note),
        ],
        f"Debian gnubg embedded Python ({binary}, fastpoll shim {'on' if shim else 'off'})",
    )


# -- report ------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    """What this ran on (shared with ``movegen.py``, run from the same folder)."""
    from movegen import machine as describe

    return describe()


def with_plans(networks: Networks, names: str) -> Networks:
    """``networks`` with random plans' networks of the same size added: ``names`` is
    comma-separated (``blitz,prime``), ``all`` or empty (none)."""
    from backgammon.engine.network import PLAN_NETWORK_NAMES, Network

    chosen = list(PLAN_NETWORK_NAMES.values()) if names == "all" else names.split(",")
    added = {
        name: Network.random(
            networks.contact.inputs, networks.contact.hidden, networks.contact.encoding, index
        )
        for index, name in enumerate(name.strip() for name in chosen if name.strip())
    }
    return networks.with_networks(added)


def build_ratios(
    ours: Sequence[Figure], gnubg: Sequence[Figure | Rate]
) -> list[tuple[str, float, float | None]]:
    """Our figures divided by gnubg's, with the targets where there is one; with the
    plans' networks measured against none, those ratios first."""
    mine = {figure.name: figure.per_s for figure in ours}
    many = mine["evaluate_many"]
    single = mine["evaluate (single)"]
    ratios: list[tuple[str, float, float | None]] = [
        (f"{name} / the same without plans' networks", mine[name] / mine[other], None)
        for name in ("evaluate_many", "evaluate (single)")
        if (other := f"{name} (no plans' networks)") in mine
    ]
    for figure in gnubg:
        theirs = figure.per_s
        if figure.name.startswith("gnubg calibrate"):
            ratios.append(("evaluate_many / gnubg calibrate (1 thread)", many / theirs, 1.0))
            ratios.append(("evaluate (single) / gnubg calibrate (1 thread)", single / theirs, None))
        elif figure.name.startswith("gnubg PyPI"):
            cold = figure.name.endswith("cache off")
            label = "PyPI evaluate loop, " + ("cache off" if cold else "warm cache")
            ratios.append(
                (
                    f"evaluate_many / {label}",
                    many / theirs,
                    TARGET_MANY_VS_PYPI_COLD if cold else None,
                )
            )
            ratios.append(
                (
                    f"evaluate (single) / {label}",
                    single / theirs,
                    TARGET_SINGLE_VS_PYPI_COLD if cold else None,
                )
            )
        elif figure.name.startswith("gnubg Debian"):
            cold = figure.name.endswith("cache off")
            label = "Debian embedded evaluate, " + ("cache off" if cold else "warm cache")
            ratios.append((f"evaluate (single) / {label}", single / theirs, None))
    return ratios


def print_report(
    info: dict[str, Any],
    sizes: str,
    n: int,
    runs: int,
    repeat: int,
    ours: Sequence[Figure],
    gnubg: Sequence[Figure | Rate],
    ratios: Sequence[tuple[str, float, float | None]],
    notes: Sequence[str],
) -> None:
    """Print the figures, the ratios and the notes."""
    print(
        f"0-ply evaluation, {n:,} reference positions (evals_public.jsonl); "
        f"median of {runs} runs x {repeat} passes"
    )
    print(
        f"{info['cpu']}, {info['nproc']} CPUs, Python {info['python']}, numpy {info['numpy']},"
        f" numba {info['numba']}, backgammon {info['backgammon']}"
    )
    print(f"networks: {sizes}")
    print(f"{'path':<52} {'evals/s':>12} {'median s/pass':>14}")
    for figure in ours:
        print(f"{figure.name:<52} {figure.per_s:>12,.0f} {figure.median:>14.5f}")
    for theirs in gnubg:
        median = f"{theirs.median:>14.5f}" if isinstance(theirs, Figure) else f"{'-':>14}"
        print(f"{theirs.name:<52} {theirs.per_s:>12,.0f} {median}")
    if ratios:
        print("Ratios (ours / gnubg, higher is faster for us):")
        for label, value, target in ratios:
            verdict = ""
            if target is not None:
                verdict = f"  target >= {target:.2f}: " + ("met" if value >= target else "NOT met")
            print(f"  {label:<58} {value:6.2f}{verdict}")
    for note in notes:
        print(f"- {note}")


def main(argv: Sequence[str] | None = None) -> int:
    """Parse arguments, measure, print (and optionally write JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5, help="passes per run (ours)")
    parser.add_argument("--hidden", type=int, default=128, help="hidden units per network")
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    parser.add_argument("--gnubg-dir", type=Path, default=DEFAULT_GNUBG_DIR)
    parser.add_argument("--pypi-python", type=Path, default=DEFAULT_PYPI_PYTHON)
    parser.add_argument("--calibrate", type=int, default=1000, help="gnubg calibrate iterations")
    parser.add_argument("--no-gnubg", action="store_true")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--numba-cache-dir", type=Path, default=DEFAULT_NUMBA_CACHE)
    parser.add_argument(
        "--plans",
        default="",
        help="plans' networks to add (comma-separated names, or 'all'); the same engine "
        "without them is measured too, and the ratio given",
    )
    args = parser.parse_args(argv)
    os.environ["NUMBA_CACHE_DIR"] = str(args.numba_cache_dir)

    from backgammon.engine.evaluator import Engine
    from backgammon.engine.network import Networks

    records = load_records(args.reference)
    positions = [to_position(record) for record in records]
    dice = [(max(record["dice"]), min(record["dice"])) for record in records]
    ids = [record["position_id"] for record in records]
    plain = Networks.random(seed=1, hidden=args.hidden)
    networks = with_plans(plain, args.plans)
    engine = Engine(networks)
    sizes = ", ".join(
        f"{name} {net.inputs}-{net.hidden}-5" for name, net in networks.by_name().items()
    )
    ours = measure_ours(engine, positions, dice, args.runs, args.repeat)
    if networks.plans:
        without = measure_ours(Engine(plain), positions, dice, args.runs, args.repeat)
        for figure in without:
            figure.name += " (no plans' networks)"
        ours += without

    gnubg: list[Figure | Rate] = []
    notes: list[str] = []
    if not args.no_gnubg:
        rates, note = measure_calibrate(args.gnubg_dir, args.runs, args.calibrate)
        gnubg += rates
        notes.append(note)
        pypi, note = measure_pypi(ids, args.runs, args.pypi_python)
        gnubg += pypi
        notes.append(note)
        debian, note = measure_debian(ids, args.runs, args.gnubg_dir)
        gnubg += debian
        notes.append(note)
    notes.append(
        "our bear-off positions use the race network (no database plugged in); gnubg reads"
        " its bearoff databases for them"
    )
    ratios = build_ratios(ours, gnubg)
    info = machine()
    print_report(info, sizes, len(positions), args.runs, args.repeat, ours, gnubg, ratios, notes)
    if args.json is not None:
        report = {
            "machine": info,
            "networks": sizes,
            "positions": len(positions),
            "runs": args.runs,
            "repeat": args.repeat,
            "ours": {figure.name: figure.as_dict() for figure in ours},
            "gnubg": {figure.name: figure.as_dict() for figure in gnubg},
            "ratios": [
                {"ratio": label, "value": value, "target": target}
                for label, value, target in ratios
            ],
            "notes": notes,
        }
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
