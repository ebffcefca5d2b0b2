"""Labelling throughput: trials per second per core of the label runner, beside
``backgammon rollout``'s, and on a local Ray cluster of 1 and of N CPUs.

    python benchmarks/label_throughput.py [--positions 16] [--trials 72] [--truncate 7]
        [--cpus 2] [--no-ray]

The same positions (the starting position after a few plays) are rolled out:

* ``rollout``: :func:`backgammon.engine.rollout.rollout` one position after another in
  this process (what ``backgammon rollout`` does with one process);
* ``label, 1 process``: :func:`backgammon.training.labelling.label_positions` on
  :class:`~backgammon.engine.workers.LocalProcesses` (1), shards of one position;
* ``label, N processes``: the same on N local processes (``--cpus``), after a
  warm-up job (each process loads the kernels once);
* ``label, Ray 1 CPU`` and ``label, Ray N CPUs``: the same on a local Ray cluster,
  after a warm-up job on it (worker start-up and kernel loading are not counted).

Every run's labels are checked equal to the first's. Timings are of the wall clock:
run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from backgammon import Position
from backgammon.engine import Engine
from backgammon.engine.rollout import RolloutSettings, rollout
from backgammon.engine.workers import LocalProcesses, RayCluster, TaskRunner, ray_installed
from backgammon.training.labelling import label_positions, read_labels


def sample_positions(count: int) -> list[Position]:
    """``count`` different positions after a few plays from the start."""
    found = [Position.initial()]
    rolls = [(3, 1), (6, 5), (4, 2), (5, 3), (6, 1), (2, 1), (6, 4), (5, 2)]
    while len(found) < count:
        plays = found[-1].legal_plays(rolls[len(found) % len(rolls)])
        after = plays[len(found) % 3 % len(plays)].position if plays else found[-1]
        found.append(after.flip() if not after.is_game_over() else Position.initial())
    return found


def timed_labels(
    engine: Engine,
    positions: list[Position],
    settings: RolloutSettings,
    runner: TaskRunner,
    folder: Path,
) -> tuple[float, list[float]]:
    """Trials per second per core of one labelling job, and its equities."""
    summary = label_positions(engine.evaluate_boards, positions, folder, settings, runner, 1)
    return summary.trials_per_second_per_core, [x["equity"] for x in read_labels(folder)]


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=16)
    parser.add_argument("--trials", type=int, default=72)
    parser.add_argument("--truncate", type=int, default=7)
    parser.add_argument("--cpus", type=int, default=2)
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    engine = Engine()
    positions = sample_positions(args.positions)
    settings = RolloutSettings(trials=args.trials, seed=1, truncation=args.truncate)
    rollout(engine.evaluate_boards, positions[0], RolloutSettings(36, truncation=2))  # warm up
    began = time.perf_counter()
    reference = [rollout(engine.evaluate_boards, p, settings).equity for p in positions]
    rate = args.positions * args.trials / (time.perf_counter() - began)
    print(f"rollout, 1 process      {rate:8.1f} trials/s/core", flush=True)
    work = Path(tempfile.mkdtemp(prefix="label-throughput-"))
    runs: list[tuple[str, Callable[[], TaskRunner], int]] = [
        ("label, 1 process", lambda: LocalProcesses(1), 0),
        (f"label, {args.cpus} processes", lambda: LocalProcesses(args.cpus), args.cpus),
    ]
    if not args.no_ray and ray_installed():
        runs += [
            ("label, Ray 1 CPU", lambda: RayCluster("local", 1), 1),
            (f"label, Ray {args.cpus} CPUs", lambda: RayCluster("local", args.cpus), args.cpus),
        ]
    for number, (name, open_one, warm_up) in enumerate(runs):
        with open_one() as runner:
            if warm_up:
                warm = positions[: 2 * warm_up]
                timed_labels(engine, warm, settings, runner, work / f"warm-{number}")
            per_core, equities = timed_labels(engine, positions, settings, runner, work / name)
        same = "same labels" if equities == reference else "LABELS DIFFER"
        print(f"{name:<23} {per_core:8.1f} trials/s/core ({same})", flush=True)


if __name__ == "__main__":
    main()
