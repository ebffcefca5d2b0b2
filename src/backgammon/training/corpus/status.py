"""The corpus's size, from its files only: positions queued and labelled by plan and
kind, shards, trials, the networks that truncated the labels, and how the contact
positions are rolled out (truncated or to the end)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from backgammon.engine.plans import Plan
from backgammon.training.corpus.format import KINDS
from backgammon.training.corpus.labeller import CorpusSettings
from backgammon.training.corpus.store import Corpus

__all__ = ["CorpusStatus", "corpus_status", "status_lines"]

_CONTACT = ("C", "X")
"""The kinds whose rollouts a chunk may truncate."""


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
        contact_queued: contact and crashed positions queued, by their rollouts'
            truncation in plies (``None``: to the end).
        contact_labelled: the same, labelled.
    """

    chunks: int = 0
    shards: int = 0
    queued: Counter[tuple[Plan, str]] = field(default_factory=Counter)
    labelled: Counter[tuple[Plan, str]] = field(default_factory=Counter)
    distinct: int = 0
    trials: int = 0
    networks: Counter[str] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)
    contact_queued: Counter[int | None] = field(default_factory=Counter)
    contact_labelled: Counter[int | None] = field(default_factory=Counter)

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
    defaults = CorpusSettings()
    for name in names:
        chunk = corpus.read_chunk(name)
        truncation = defaults.for_chunk(chunk).contact.truncation
        for entry in chunk.positions:
            status.queued[entry.plan, entry.kind] += 1
            status.sources[entry.source] += 1
            status.contact_queued[truncation] += entry.kind in _CONTACT
    seen = set()
    for name in sorted(corpus.shard_names()):
        shard = corpus.read_shard(name)
        status.shards += 1
        status.networks[str(shard.header.get("network", "?"))] += 1
        truncation = shard.header.get("settings", {}).get("contact", {}).get("truncation")
        for label in shard.labels:
            status.contact_labelled[truncation] += label.queued.kind in _CONTACT
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
        "contact rollouts: " + _contact_line(status),
    ]
    return lines


def _contact_line(status: CorpusStatus) -> str:
    """Contact and crashed positions labelled/queued by their rollouts' truncation."""
    kinds = sorted(status.contact_queued.keys() | status.contact_labelled.keys(), key=str)
    return ", ".join(
        f"{'to the end' if plies is None else f'truncated at {plies}'} "
        f"{status.contact_labelled[plies]:,}/{status.contact_queued[plies]:,}"
        for plies in kinds
    )
