"""Compiling the engine's kernels before the first move: :func:`warm_up`.

The engine's compiled kernels (Numba, ``cache=True``) are built on their first call
and kept in Numba's disk cache, so only a fresh install (or a changed source file)
compiles them: about 10 s of one CPU for everything a 2-ply bot uses, and 3 s more to
build the bear-off databases; later starts load them in a fraction of a second.
:func:`warm_up` does that at a moment of the caller's choosing, with a progress line
per stage, instead of during the first move: a server calls it before it reports
ready, a command prints its lines (``benchmarks/cold_start.py`` measures both ways).

It goes through the same calls a bot makes, in stages:

1. move generation (:meth:`~backgammon.rules.position.Position.legal_plays`);
2. evaluation: the batch evaluator every play choice uses, and the single-position one
   behind 0-ply cube decisions;
3. lookahead search (for ``ply`` > 0): the children of a position for every roll, the
   pruning network, the 1-ply expectimax (deeper plies use the same kernels);
4. the bear-off databases: opened, or built into their cache folder the first time
   (see :func:`~backgammon.engine.bearoff.default_database_directory`), and the
   kernels that read them.

When the cache lacks the kernels and more than one CPU is free, the stages are
compiled in parallel in worker processes (Numba compiles one function at a time in a
process, threads included), which write Numba's cache; this process then loads what
they wrote, stage by stage, as each is ready. A worker that fails or is missing
leaves its stages to this process: the outcome is the same, only slower.

Run ``python -m backgammon.engine.warmup`` to warm up from the command line.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from backgammon.engine.evaluator import MAX_PLY, Engine
from backgammon.rules.position import Position

__all__ = ["STAGES", "warm_up"]

Progress = Callable[[str], None]
"""Takes one short line per stage, such as ``"compiling move generation (1/4)"``."""

_WORKER_TIMEOUT = 600.0
"""Seconds to wait for a worker's stage before compiling it here instead."""


def _race_position() -> Position:
    """A race (no contact) outside the bear-off databases."""
    side = [2, 2, 2, 2, 2, 2, 1, 1, 1] + [0] * 15
    return Position.from_points(side, side)


def _bearoff_position() -> Position:
    """A bear-off position the two-sided database values exactly."""
    return Position.from_points([2, 2, 1, 1] + [0] * 20, [1, 2, 2, 1] + [0] * 20)


def _moves(engine: Engine) -> None:
    start = Position.initial()
    start.legal_plays((3, 1))
    start.legal_plays((2, 2))


def _evaluation(engine: Engine) -> None:
    start = Position.initial()
    engine.evaluate_many([start, _race_position()])
    engine.evaluate(start)
    engine.evaluate(_race_position())


def _search(engine: Engine) -> None:
    engine.evaluate_at(Position.initial(), 1)


def _bearoff(engine: Engine) -> None:
    position = _bearoff_position()
    engine.evaluate_many([position])
    engine.evaluate(position)


def _bearoff_kernels(engine: Engine) -> None:
    """The bear-off stage in a worker: the databases and their own kernels only (the
    engine's path would compile the evaluation kernels there a second time)."""
    from backgammon.engine.bearoff import BearoffDatabase

    database = BearoffDatabase.open()
    boards = _bearoff_position().to_array().reshape(1, -1)
    database.covers(boards)
    database.evaluate_boards(boards)


def _bearoff_verb() -> str:
    from backgammon.engine.bearoff import (
        ONE_SIDED_FILE,
        TWO_SIDED_FILE,
        default_database_directory,
    )

    folder = default_database_directory()
    present = (folder / ONE_SIDED_FILE).exists() and (folder / TWO_SIDED_FILE).exists()
    return "loading" if present else "building"


def _kernels(*names: str) -> Callable[[], list[Any]]:
    """The dispatchers ``module:function`` whose cached code stands for a stage."""

    def find() -> list[Any]:
        import importlib

        found = []
        for name in names:
            module, function = name.split(":")
            found.append(getattr(importlib.import_module(module), function))
        return found

    return find


@dataclass(frozen=True, slots=True)
class _Stage:
    """One stage of :func:`warm_up`."""

    name: str
    """Its name (as the command line and the workers take it)."""
    label: str
    """What it prepares, for the progress line."""
    run: Callable[[Engine], None]
    """The bot's own calls (loading what a worker compiled, or compiling it)."""
    kernels: Callable[[], list[Any]]
    """The kernels whose presence in Numba's cache means the stage is compiled."""
    in_worker: Callable[[Engine], None] | None = None
    """What a worker runs instead of ``run``, if not the same."""
    verb: Callable[[], str] | None = None
    """The progress line's verb, if not "compiling"."""


_STAGES = (
    _Stage(
        "moves",
        "move generation",
        _moves,
        _kernels("backgammon.rules.movegen:generate_plays_packed"),
    ),
    _Stage(
        "evaluation",
        "evaluation",
        _evaluation,
        _kernels(
            "backgammon.engine.evaluator:_hidden_rows",
            "backgammon.engine.evaluator:_evaluate_one",
        ),
    ),
    _Stage(
        "search",
        "lookahead search",
        _search,
        _kernels("backgammon.engine.search:_children_of"),
    ),
    _Stage(
        "bearoff",
        "the bear-off databases",
        _bearoff,
        _kernels("backgammon.engine.bearoff.kernels:_evaluate_bearoff_rows"),
        in_worker=_bearoff_kernels,
        verb=_bearoff_verb,
    ),
)

STAGES = tuple(stage.name for stage in _STAGES)
"""The names of the stages, in order (``search`` runs only for ``ply`` > 0)."""

_GROUPS = {
    2: (("moves", "bearoff"), ("evaluation", "search")),
    3: (("moves", "search"), ("evaluation",), ("bearoff",)),
}
"""How the stages are shared among two or three workers: a group in one process, in
order. The search links the move generator and calls the evaluation: it comes after
one of them in the same process and finds the other in the cache by then (else it
compiles it again: the result is the same)."""


def _cached(stage: _Stage) -> bool:
    """Whether Numba's cache holds code of the stage's kernels for this source and this
    machine (read from Numba's index files; ``False`` when that cannot be told)."""
    try:
        for dispatcher in stage.kernels():
            cache = dispatcher._cache
            wanted = cache._index_key(None, dispatcher.targetctx.codegen())[1:]
            index = cache._cache_file._load_index()  # {} when missing or stale
            if not any(key[1:] == wanted for key in index):
                return False
    except Exception:  # Numba's internals moved: assume there is work to do
        return False
    if stage.name == "bearoff":
        return _bearoff_verb() == "loading"
    return True


class _Worker:
    """A worker process compiling some stages, and a thread reading which it has
    finished."""

    def __init__(self, names: Sequence[str]) -> None:
        package_root = str(Path(__file__).resolve().parents[2])
        code = (
            f"import sys; sys.path.insert(0, {package_root!r}); "
            "from backgammon.engine.warmup import _work; "
            f"_work({list(names)!r})"
        )
        self.names = tuple(names)
        self._finished: set[str] = set()
        self._ended = False
        self._changed = threading.Condition()
        self._process = subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self._process.stdout is not None
        self._reader = threading.Thread(target=self._read, args=(self._process.stdout,))
        self._reader.daemon = True
        self._reader.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            with self._changed:
                self._finished.add(line.strip())
                self._changed.notify_all()
        with self._changed:
            self._ended = True
            self._changed.notify_all()

    def wait(self, name: str) -> None:
        """Until the worker has finished stage ``name``, or ended, or timed out."""
        with self._changed:
            self._changed.wait_for(lambda: name in self._finished or self._ended, _WORKER_TIMEOUT)

    def finished(self, name: str) -> bool:
        """Whether the worker has reported stage ``name`` done."""
        with self._changed:
            return name in self._finished

    def stop(self) -> None:
        """End the process if it still runs."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        self._reader.join(1.0)


def _work(names: Sequence[str]) -> None:
    """A worker's body: compile the stages, printing each name when done."""
    engine = Engine()
    by_name = {stage.name: stage for stage in _STAGES}
    for name in names:
        stage = by_name[name]
        (stage.in_worker or stage.run)(engine)
        print(name, flush=True)


def _groups(names: Sequence[str], processes: int) -> list[list[str]]:
    """The stages ``names`` shared among at most ``processes`` (>= 2) workers."""
    layout = _GROUPS[min(processes, max(_GROUPS))]
    groups = [[name for name in group if name in names] for group in layout]
    return [group for group in groups if group]


def _start_workers(cold: Sequence[str], processes: int | None) -> dict[str, _Worker]:
    """Workers for the ``cold`` stages (missing from the cache), by stage name; none
    where this process should compile them itself."""
    if processes is None:
        processes = _cpus()
    if processes < 2 or not cold or not sys.executable:
        return {}
    workers: dict[str, _Worker] = {}
    for group in _groups(cold, processes):
        try:
            worker = _Worker(group)
        except OSError:
            continue
        workers.update((name, worker) for name in group)
    return workers


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def warm_up(
    ply: int = 2,
    progress: Progress | None = None,
    *,
    processes: int | None = None,
) -> float:
    """Compile (or load from Numba's cache) every kernel a bot needs for a standard
    game: a move and a cube decision at 0-ply and up to ``ply`` lookahead, and the
    bear-off databases (built the first time). Returns the seconds it took.

    ``progress`` is called with a short line at the start of each stage, such as
    ``"compiling move generation (1/4)"`` (``loading`` where Numba's cache has it,
    ``building`` for bear-off databases not yet built). ``processes`` caps the worker processes
    that compile stages in parallel when the cache lacks them (default: one per CPU
    this process may use, at most three; ``0`` or ``1``: compile here, in order).

    Afterwards an :class:`~backgammon.engine.evaluator.Engine` of the default kind
    (any weights of the standard sizes) plays without compiling anything.

    Raises:
        ValueError: for a ``ply`` outside ``0..4`` or a negative ``processes``.
        EngineError: if the weights or the bear-off databases cannot be read.
        OSError: if the bear-off databases cannot be written.
    """
    if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= MAX_PLY:
        raise ValueError(f"ply must be a whole number in 0..{MAX_PLY}, got {ply!r}")
    if processes is not None and processes < 0:
        raise ValueError(f"processes must be >= 0, got {processes}")
    began = time.perf_counter()
    stages = [stage for stage in _STAGES if ply > 0 or stage.name != "search"]
    cold = [not _cached(stage) for stage in stages]
    verbs = [
        stage.verb() if stage.verb is not None else "compiling" if needed else "loading"
        for stage, needed in zip(stages, cold, strict=True)
    ]
    workers = _start_workers(
        [stage.name for stage, needed in zip(stages, cold, strict=True) if needed], processes
    )
    try:
        engine = Engine()
        for number, (stage, verb) in enumerate(zip(stages, verbs, strict=True), 1):
            if progress is not None:
                progress(f"{verb} {stage.label} ({number}/{len(stages)})")
            worker = workers.get(stage.name)
            if worker is not None:
                worker.wait(stage.name)
            stage.run(engine)
    finally:
        for worker in set(workers.values()):
            worker.stop()
    return time.perf_counter() - began


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m backgammon.engine.warmup [--ply N] [--processes N]``."""
    parser = argparse.ArgumentParser(description="Compile the engine's kernels.")
    parser.add_argument("--ply", type=int, default=2, help="deepest lookahead to prepare")
    parser.add_argument("--processes", type=int, default=None, help="worker processes")
    args = parser.parse_args(argv)
    seconds = warm_up(args.ply, lambda line: print(line, flush=True), processes=args.processes)
    print(f"ready in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
