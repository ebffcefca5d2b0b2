"""Rate limits: the per-connection token bucket every front end applies to what one
client sends (WebSocket messages, FIBS command lines), and buckets by key for what one
user may do across all their connections (chat lines)."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable

__all__ = ["TokenBucket", "TokenBuckets"]


class TokenBucket:
    """``rate`` messages a second, in bursts of up to ``burst``.

    :meth:`allow` takes one token for each message; a message with no token left is
    refused and counted in :attr:`refused`. A front end refuses such a message with
    its own words, and disconnects a client once :attr:`flooding` (more than
    ``5 * burst`` refusals: it does not slow down when told).

    Args:
        rate: tokens added a second.
        burst: the bucket's size (and the tokens it starts with).
        clock: monotonic seconds (injectable for tests).
    """

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self._clock = clock
        self.last = clock()
        self.refused = 0

    def allow(self) -> bool:
        """Take a token for one message: True if the message may be handled."""
        now = self._clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False

    @property
    def flooding(self) -> bool:
        """Whether the client kept sending far past the limit (disconnect it)."""
        return self.refused > 5 * self.burst


class TokenBuckets:
    """A :class:`TokenBucket` per key (e.g. a user's id: their chat lines from every
    connection and room together). A bucket left alone until it is full again is
    the same as none, so such buckets are forgotten once ``most`` are kept.

    Args:
        rate, burst, clock: as :class:`TokenBucket`'s.
        most: how many buckets are kept before the full ones are forgotten.
    """

    def __init__(
        self,
        rate: float,
        burst: int,
        clock: Callable[[], float] = time.monotonic,
        most: int = 10_000,
    ) -> None:
        self.rate, self.burst = rate, burst
        self._clock = clock
        self._most = most
        self._buckets: dict[Hashable, TokenBucket] = {}

    def allow(self, key: Hashable) -> bool:
        """Take a token from ``key``'s bucket: True if what it pays for may happen."""
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self._most:
                now, refill = self._clock(), self.burst / self.rate
                self._buckets = {
                    kept: old for kept, old in self._buckets.items() if now - old.last < refill
                }
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, self._clock)
        return bucket.allow()

    def __len__(self) -> int:
        return len(self._buckets)
