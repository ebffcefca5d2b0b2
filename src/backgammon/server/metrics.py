"""The server's counters and histograms for ``/metrics`` (Prometheus's text format is
written by :mod:`backgammon.server.web.routes.operations`).

Besides the game's own figures (actions, commits, latencies), the garbage
collector's passes are timed: a pass stops the event loop, so every client waits for
it. Under load the young passes are short, but a pass over the older generations
walks every live object (each session's state, each match), and those are what show
in the tail of the action latency.
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass, field
from typing import Any

__all__ = ["LATENCY_BUCKETS", "CollectorPauses", "Histogram", "Metrics"]

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""The upper bounds (seconds) of the latency histograms' buckets."""


@dataclass
class Histogram:
    """A Prometheus histogram: cumulative counts of observations at most each bound,
    their count and their sum."""

    bounds: tuple[float, ...] = LATENCY_BUCKETS
    buckets: list[int] = field(default_factory=list)
    count: int = 0
    total: float = 0.0

    def observe(self, value: float) -> None:
        """Count one observation."""
        if not self.buckets:
            self.buckets = [0] * len(self.bounds)
        self.count += 1
        self.total += value
        for index, bound in enumerate(self.bounds):
            if value <= bound:
                self.buckets[index] += 1

    def cumulative(self) -> list[tuple[float, int]]:
        """Each bound with the number of observations at most it."""
        counts = self.buckets or [0] * len(self.bounds)
        return list(zip(self.bounds, counts, strict=True))


class CollectorPauses:
    """Times the cyclic collector's passes while started (a ``gc.callbacks`` entry
    of its own): ``pauses[g]`` holds every pass over generation ``g`` (and the
    younger ones)."""

    def __init__(self) -> None:
        self.pauses = (Histogram(), Histogram(), Histogram())
        self._began = 0.0

    def start(self) -> None:
        """Begin timing (once however often it is called)."""
        if self._observe not in gc.callbacks:
            gc.callbacks.append(self._observe)

    def stop(self) -> None:
        """Stop timing."""
        if self._observe in gc.callbacks:
            gc.callbacks.remove(self._observe)

    def _observe(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        generation = min(int(info.get("generation", 0)), 2)
        self.pauses[generation].observe(time.perf_counter() - self._began)


@dataclass
class Metrics:
    """Counters for ``/metrics``: ``commit`` times each action's commit to the
    database, ``action`` each accepted action from its receipt (:meth:`GameService.act`
    entered) until its new state is published to the match's subscribers,
    ``collector`` the garbage collector's passes (timed while the server runs)."""

    actions: int = 0
    refused: int = 0
    matches_started: int = 0
    matches_finished: int = 0
    commit: Histogram = field(default_factory=Histogram)
    action: Histogram = field(default_factory=Histogram)
    collector: CollectorPauses = field(default_factory=CollectorPauses)
