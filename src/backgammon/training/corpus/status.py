"""The corpus's size, from its files only: positions queued and labelled by plan and
kind, shards, trials, the networks that truncated the labels."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from backgammon.engine.plans import Plan
from backgammon.training.corpus.format import KINDS
from backgammon.training.corpus.store import Corpus

__all__ = ["CorpusStatus", "corpus_status", "status_lines"]


@dataclass(slots=True)
class CorpusStatus:
    """Counts of a corpus.

    Attributes:
        chunks: queue chunks.
        shards: chunks labelled (their shards).
        queued: positions queued in all, by ``(plan, kind)``.
        labelled: positions labelled, by ``(plan, kind)``.
        distinct: distinct Position IDs labelled (a position labelled twice counts
            once).
        trials: trials of all labels.
        networks: shards by the network that truncated their rollouts.
        sources: positions queued by source code.
    """

    chunks: int = 0
    shards: int = 0
    queued: Counter[tuple[Plan, str]] = field(default_factory=Counter)
    labelled: Counter[tuple[Plan, str]] = field(default_factory=Counter)
    distinct: int = 0
    trials: int = 0
    networks: Counter[str] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)

    @property
    def waiting(self) -> int:
        """Positions queued and not labelled yet."""
        return sum(self.queued.values()) - sum(self.labelled.values())


def corpus_status(corpus: Corpus) -> CorpusStatus:
    """Count ``corpus``'s files.

    Raises:
        OSError: if a file cannot be read.
        CorpusFileError: for a malformed queue chunk or shard.
    """
    status = CorpusStatus()
    names = corpus.chunk_names()
    status.chunks = len(names)
    for name in names:
        for entry in corpus.read_chunk(name).positions:
            status.queued[entry.plan, entry.kind] += 1
            status.sources[entry.source] += 1
    seen = set()
    for name in sorted(corpus.shard_names()):
        shard = corpus.read_shard(name)
        status.shards += 1
        status.networks[str(shard.header.get("network", "?"))] += 1
        for label in shard.labels:
            status.labelled[label.queued.plan, label.queued.kind] += 1
            status.trials += label.trials
            seen.add(label.queued.position_id)
    status.distinct = len(seen)
    return status


def status_lines(status: CorpusStatus) -> list[str]:
    """A table of ``status``: labelled / queued by plan (rows) and kind (columns)."""
    kinds = list(KINDS)
    lines = [f"{'plan':<14}" + "".join(f"{kind:>16}" for kind in [*kinds, "all"])]
    for plan in Plan:
        cells = [f"{status.labelled[plan, k]:,}/{status.queued[plan, k]:,}" for k in kinds]
        done = sum(status.labelled[plan, k] for k in kinds)
        total = sum(status.queued[plan, k] for k in kinds)
        cells.append(f"{done:,}/{total:,}")
        lines.append(f"{plan.label:<14}" + "".join(f"{cell:>16}" for cell in cells))
    labelled = sum(status.labelled.values())
    lines += [
        "(labelled/queued; kinds: B bear-off, R race, X crashed, C contact)",
        f"{status.shards:,} of {status.chunks:,} chunks labelled: {labelled:,} positions "
        f"({status.distinct:,} distinct), {status.trials:,} trials; "
        f"{status.waiting:,} positions waiting",
        "sources: " + ", ".join(f"{k} {n:,}" for k, n in sorted(status.sources.items())),
        "networks: " + ", ".join(f"{k} ({n} shards)" for k, n in sorted(status.networks.items())),
    ]
    return lines
