"""The labeller: take the queue's chunks without a shard, roll out their positions,
write each chunk's shard.

Each chunk is a task of a :class:`~backgammon.engine.workers.TaskRunner` (local
processes or a Ray cluster); the task returns the labels and this process writes
the shard, atomically, so a labeller killed at any moment (``kill -9``) loses only
the chunks in progress. One labeller runs on a corpus folder at a time
(:func:`labeller_lock`, an advisory lock the system drops with the process). Races
and bear-ins are rolled out to the end, so that their labels do not lean on our
network; contact is truncated after 7 plies, or rolled out to the end where its chunk
says so (``label --fill`` queues such chunks since 2026-11-29), variance reduction
throughout: see :class:`CorpusSettings`.
"""

from __future__ import annotations

import functools
import hashlib
import os
import socket
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from backgammon import __version__
from backgammon.engine.network import Networks
from backgammon.engine.rollout import RolloutSettings, rollout
from backgammon.engine.search import BoardEvaluator
from backgammon.engine.workers import TaskRunner
from backgammon.rules.position import Position
from backgammon.training.corpus.format import CorpusFileError, Label, QueuedPosition
from backgammon.training.corpus.store import Chunk, Corpus

__all__ = [
    "CorpusSettings",
    "LabellerBusyError",
    "RunSummary",
    "ShardDone",
    "chunk_seed",
    "label_chunk",
    "labeller_lock",
    "network_identity",
    "run_queue",
]

_LOCK = ".labeller.lock"


@dataclass(frozen=True, slots=True)
class CorpusSettings:
    """The rollouts of the corpus's labels, by kind (each chunk's dice seed is
    :func:`chunk_seed`).

    Attributes:
        race: races and bear-ins (kinds ``R``, ``B``): played to the end.
        contact: contact and crashed positions (``C``, ``X``): truncated, the
            network's estimate taken at the truncation.
    """

    race: RolloutSettings = field(default_factory=lambda: RolloutSettings(trials=144))
    contact: RolloutSettings = field(
        default_factory=lambda: RolloutSettings(trials=144, truncation=7)
    )

    def for_chunk(self, chunk: Chunk) -> CorpusSettings:
        """These settings with the contact truncation ``chunk``'s header asks for
        (``contact_truncation``: plies, or ``null`` for rollouts to the end, as
        ``label --fill`` writes it); a chunk queued without it keeps these.

        Raises:
            CorpusFileError: if the header's value is not ``null`` or a positive
                number of plies.
        """
        if "contact_truncation" not in chunk.header:
            return self
        plies = chunk.header["contact_truncation"]
        if plies is not None and (type(plies) is not int or plies < 1):
            raise CorpusFileError(
                f"chunk {chunk.name}: contact_truncation must be null or a number of "
                f"plies >= 1, got {plies!r}"
            )
        return replace(self, contact=replace(self.contact, truncation=plies))

    def for_kind(self, kind: str, seed: int) -> RolloutSettings:
        """The settings of a position of ``kind``, with the dice ``seed``."""
        chosen = self.race if kind in ("R", "B") else self.contact
        return replace(chosen, seed=seed, processes=1)

    def as_json(self) -> dict[str, Any]:
        """The settings as recorded in a shard's header."""
        return {
            name: {key: value for key, value in asdict(settings).items() if key != "seed"}
            | {"processes": 1}
            for name, settings in (("race", self.race), ("contact", self.contact))
        }


def chunk_seed(name: str) -> int:
    """The dice seed of chunk ``name`` (its CRC-32): each chunk has its own dice."""
    return zlib.crc32(name.encode())


def network_identity(networks: Networks) -> str:
    """A short digest of the networks' weights, recorded in each shard so that labels
    can be judged later by the network that truncated them."""
    digest = hashlib.sha256()
    for name, net in sorted(networks.by_name().items()):
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(net.params).tobytes())
    return f"sha256:{digest.hexdigest()[:16]}"


def label_chunk(
    evaluator: BoardEvaluator,
    positions: tuple[QueuedPosition, ...],
    settings: CorpusSettings,
    seed: int,
) -> list[Label]:
    """The labels of one chunk's positions, in order (a task: one process)."""
    labels = []
    for queued in positions:
        position = Position.from_position_id(queued.position_id)
        result = rollout(evaluator, position, settings.for_kind(queued.kind, seed))
        labels.append(
            Label(queued, result.probabilities, result.equity, result.standard_error, result.trials)
        )
    return labels


def _task(
    evaluator: BoardEvaluator,
    deadline: float | None,
    item: tuple[str, tuple[QueuedPosition, ...], CorpusSettings],
) -> tuple[list[Label], float] | None:
    """One chunk's labels and seconds, or ``None`` if it starts after ``deadline``."""
    if deadline is not None and time.time() >= deadline:
        return None
    began = time.perf_counter()
    name, positions, settings = item
    labels = label_chunk(evaluator, positions, settings, chunk_seed(name))
    return labels, time.perf_counter() - began


class LabellerBusyError(RuntimeError):
    """Another labeller holds the corpus folder."""


@contextmanager
def labeller_lock(corpus: Corpus) -> Iterator[None]:
    """Hold the corpus's labeller lock while the block runs (released by the system
    if the process dies).

    Raises:
        LabellerBusyError: if another process holds it.
    """
    corpus.root.mkdir(parents=True, exist_ok=True)
    path = corpus.root / _LOCK
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            import fcntl

            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:  # pragma: no cover - not POSIX: no lock
            pass
        except OSError:
            holder = Path(path).read_text(encoding="utf-8").strip() or "?"
            raise LabellerBusyError(
                f"another labeller (pid {holder}) is labelling {corpus.root}"
            ) from None
        os.ftruncate(descriptor, 0)
        os.write(descriptor, str(os.getpid()).encode())
        yield
    finally:
        os.close(descriptor)


@dataclass(frozen=True, slots=True)
class ShardDone:
    """One shard written: its chunk, its labels' counts and how long it took."""

    name: str
    positions: int
    races: int
    trials: int
    seconds: float


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What a labeller run did: shards written, positions and trials labelled,
    and its wall time."""

    shards: int
    positions: int
    trials: int
    seconds: float


def _chosen(corpus: Corpus, reverse: bool, limit: int | None) -> list[str]:
    names = corpus.pending()
    if reverse:
        names.reverse()
    return names if limit is None else names[:limit]


def run_queue(
    corpus: Corpus,
    evaluator: BoardEvaluator,
    network: str,
    runner: TaskRunner,
    settings: CorpusSettings | None = None,
    *,
    minutes: float | None = None,
    reverse: bool = False,
    limit: int | None = None,
    on_shard: Callable[[ShardDone], None] | None = None,
) -> RunSummary:
    """Label the pending chunks (oldest first, or newest with ``reverse``; at most
    ``limit``) on ``runner``, writing a shard for each as it finishes and calling
    ``on_shard``; no chunk starts after ``minutes``. ``network`` is the
    evaluator's :func:`network_identity`; each chunk is rolled out with ``settings``
    as its header adjusts them (:meth:`CorpusSettings.for_chunk`). Hold
    :func:`labeller_lock` around it.

    Raises:
        OSError: if the corpus cannot be read or written.
        CorpusFileError: for a malformed queue chunk.
    """
    settings = CorpusSettings() if settings is None else settings
    began = time.perf_counter()
    deadline = None if minutes is None else time.time() + 60 * minutes
    names = _chosen(corpus, reverse, limit)
    chunks = [corpus.read_chunk(name) for name in names]
    items = [(chunk.name, chunk.positions, settings.for_chunk(chunk)) for chunk in chunks]
    work = functools.partial(_task, evaluator, deadline)
    header = {
        "network": network,
        "version": __version__,
        "host": socket.gethostname(),
    }
    shards = positions = trials = 0
    for index, result in runner.map_unordered(work, items):
        if result is None:
            continue
        labels, seconds = result
        name = names[index]
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        extra = {
            "settings": items[index][2].as_json(),
            "seed": chunk_seed(name),
            "finished": stamp,
            "seconds": round(seconds, 1),
        }
        try:
            corpus.write_shard(name, header | extra, labels)
        except FileExistsError:  # a copy of it came back from another machine meanwhile
            continue
        done = ShardDone(
            name,
            len(labels),
            sum(label.queued.kind in ("R", "B") for label in labels),
            sum(label.trials for label in labels),
            seconds,
        )
        shards, positions, trials = shards + 1, positions + done.positions, trials + done.trials
        if on_shard is not None:
            on_shard(done)
    return RunSummary(shards, positions, trials, time.perf_counter() - began)
