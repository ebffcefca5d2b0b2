"""Rollout labels of many positions, in resumable shards, on local processes or Ray.

A labelling job rolls out every position of a positions file (one Position ID, XGID
or slots text a line; blank lines and ``#`` comments skipped) with the same
:class:`~backgammon.engine.rollout.RolloutSettings` (truncation, variance reduction,
quasi-random dice, one seed for all: the same dice for every position), and writes
the labels into a folder:

* ``job.json``: what the job is (the positions file's digest, the settings, the
  shard size); a restart with another job in the same folder is refused;
* ``shards/shard-NNNNN.json``: the labels of positions ``N*size`` to ``(N+1)*size-1``,
  each written atomically (a temporary file renamed) once the shard is done; a
  restart skips the shards already there, so a killed job loses at most the shards
  in progress and never writes one twice;
* ``labels.jsonl``: every label in file order, written when all shards are done.

Shards are the tasks of a :class:`~backgammon.engine.workers.TaskRunner`: local
processes, or a Ray cluster. A label is the rollout of the position's side on roll,
before it rolls: its five probabilities, cubeless equity, standard error, trials.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from backgammon.engine.rollout import RolloutSettings, rollout
from backgammon.engine.search import BoardEvaluator
from backgammon.engine.workers import TaskRunner
from backgammon.errors import BackgammonError
from backgammon.rules.position import Position

__all__ = [
    "LabellingSummary",
    "label_positions",
    "label_shard",
    "read_labels",
    "read_positions",
]

_JOB = "job.json"
_SHARDS = "shards"
_LABELS = "labels.jsonl"


def _parse_position(text: str) -> Position:
    if text.lower().startswith("slots:"):
        return Position.from_slots_text(text)
    if text.upper().startswith("XGID=") or ":" in text:
        return Position.from_xgid(text)
    return Position.from_position_id(text)


def read_positions(path: str | os.PathLike[str]) -> list[Position]:
    """The positions of a positions file, in order.

    Raises:
        OSError: if the file cannot be read.
        ValueError: naming the file and line of the first line that is not a
            position, or if the file holds none.
    """
    positions = []
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            position = _parse_position(stripped)
            position.validate()
        except (BackgammonError, ValueError) as error:
            raise ValueError(
                f"{os.fspath(path)}, line {number}: {stripped[:60]!r} is not a position "
                f"(a Position ID, an XGID or slots text was expected): {error}"
            ) from None
        positions.append(position)
    if not positions:
        raise ValueError(f"{os.fspath(path)} holds no positions")
    return positions


def label_shard(
    evaluator: BoardEvaluator, position_ids: list[str], settings: RolloutSettings
) -> list[dict[str, Any]]:
    """The labels of one shard (a task: it runs in one worker, in one process)."""
    labels = []
    for position_id in position_ids:
        result = rollout(evaluator, Position.from_position_id(position_id), settings)
        labels.append(
            {
                "position_id": position_id,
                "probabilities": list(result.probabilities),
                "equity": result.equity,
                "standard_error": result.standard_error,
                "trials": result.trials,
            }
        )
    return labels


@dataclass(frozen=True, slots=True)
class LabellingSummary:
    """What a labelling run did.

    Attributes:
        positions: positions in the job.
        shards: shards in the job.
        skipped_shards: shards already done by an earlier run (not redone).
        trials: trials played by this run.
        seconds: this run's wall time.
        cores: the runner's cores.
    """

    positions: int
    shards: int
    skipped_shards: int
    trials: int
    seconds: float
    cores: int

    @property
    def trials_per_second_per_core(self) -> float:
        """This run's throughput per core."""
        return self.trials / self.seconds / self.cores if self.seconds > 0 else 0.0


def _write_atomically(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def _shard_path(folder: Path, shard: int) -> Path:
    return folder / _SHARDS / f"shard-{shard:05d}.json"


def _check_job(folder: Path, job: dict[str, Any]) -> None:
    """Record the job in ``folder``, or check that it is the one recorded there."""
    recorded = folder / _JOB
    if recorded.exists():
        try:
            earlier = json.loads(recorded.read_text(encoding="utf-8"))
        except ValueError:
            earlier = None
        if earlier != job:
            raise ValueError(
                f"{os.fspath(folder)} holds labels of another job (other positions, "
                f"settings or shard size, see {_JOB}); choose another --out folder"
            )
        return
    _write_atomically(recorded, json.dumps(job, indent=2))


def _done_shards(folder: Path, shards: int) -> set[int]:
    done = set()
    for shard in range(shards):
        try:
            json.loads(_shard_path(folder, shard).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        done.add(shard)
    return done


def label_positions(
    evaluator: BoardEvaluator,
    positions: list[Position],
    folder: str | os.PathLike[str],
    settings: RolloutSettings,
    runner: TaskRunner,
    shard_size: int = 16,
    progress: Callable[[int, int], None] | None = None,
) -> LabellingSummary:
    """Label ``positions`` into ``folder`` (see the module doc), the shards not yet
    done running on ``runner``; ``progress(positions done, positions)`` after each
    shard. Each rollout runs in its shard's worker (``settings.processes`` is not
    used).

    Raises:
        ValueError: for a bad ``shard_size``, or if ``folder`` holds another job.
        OSError: if ``folder`` cannot be written.
    """
    if shard_size < 1:
        raise ValueError(f"the shard size must be >= 1, got {shard_size}")
    root = Path(folder)
    (root / _SHARDS).mkdir(parents=True, exist_ok=True)
    ids = [position.position_id for position in positions]
    settings_row = asdict(settings) | {"processes": 1}
    job = {
        "positions": len(ids),
        "positions_sha256": hashlib.sha256("\n".join(ids).encode()).hexdigest(),
        "settings": settings_row,
        "shard_size": shard_size,
    }
    _check_job(root, job)
    shards = [ids[start : start + shard_size] for start in range(0, len(ids), shard_size)]
    done = _done_shards(root, len(shards))
    todo = [shard for shard in range(len(shards)) if shard not in done]
    finished = sum(len(shards[shard]) for shard in done)
    if progress is not None:
        progress(finished, len(ids))
    work = functools.partial(label_shard, evaluator, settings=RolloutSettings(**settings_row))
    trials = 0
    began = time.perf_counter()
    for index, labels in runner.map_unordered(work, [shards[shard] for shard in todo]):
        shard = todo[index]
        body = {"shard": shard, "first": shard * shard_size, "labels": labels}
        _write_atomically(_shard_path(root, shard), json.dumps(body))
        trials += sum(label["trials"] for label in labels)
        finished += len(labels)
        if progress is not None:
            progress(finished, len(ids))
    seconds = time.perf_counter() - began
    lines = (json.dumps(label) + "\n" for label in _shard_labels(root, len(shards)))
    _write_atomically(root / _LABELS, "".join(lines))
    return LabellingSummary(len(ids), len(shards), len(done), trials, seconds, runner.cores)


def _shard_labels(folder: Path, shards: int) -> Iterator[dict[str, Any]]:
    for shard in range(shards):
        body = json.loads(_shard_path(folder, shard).read_text(encoding="utf-8"))
        yield from body["labels"]


def read_labels(folder: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The labels of a finished job, in the positions file's order.

    Raises:
        OSError: if the job is not finished (no ``labels.jsonl``).
    """
    text = (Path(folder) / _LABELS).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line]
