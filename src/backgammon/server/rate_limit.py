"""A per-connection rate limit: the token bucket every front end applies to what one
client sends (WebSocket messages, FIBS command lines)."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["TokenBucket"]


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
