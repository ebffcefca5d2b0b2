"""Limits on engine work in flight: per owner (a user, or an address for requests
without a session) and in all, for one server process.

The check and the count are one step (:meth:`Quota.take`, no ``await`` between them),
so concurrent requests cannot all pass a check made before any of them is counted.
The work gives its :class:`Slot` back when it ends (a ``with`` block, or
:meth:`Slot.release` from a job's done callback).
"""

from __future__ import annotations

from collections import Counter
from types import TracebackType

__all__ = ["Quota", "QuotaExceededError", "Slot"]


class QuotaExceededError(Exception):
    """A request over a :class:`Quota`; the message says which limit, for people."""


class Slot:
    """One unit of work counted by a :class:`Quota` until released (once)."""

    __slots__ = ("_owner", "_quota")

    def __init__(self, quota: Quota, owner: str) -> None:
        self._quota: Quota | None = quota
        self._owner = owner

    def release(self) -> None:
        """Give the slot back (a second call does nothing)."""
        if self._quota is not None:
            self._quota._give_back(self._owner)
            self._quota = None

    def __enter__(self) -> Slot:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.release()


class Quota:
    """At most ``per_owner`` units of ``what`` in flight per owner, and ``total``
    in all."""

    def __init__(self, what: str, per_owner: int, total: int) -> None:
        if not 1 <= per_owner <= total:
            raise ValueError(f"a quota needs 1 <= per_owner <= total, got {per_owner}, {total}")
        self.what = what
        self.per_owner = per_owner
        self.total = total
        self._held: Counter[str] = Counter()

    @property
    def in_flight(self) -> int:
        """How many units are held now, by everyone."""
        return sum(self._held.values())

    def take(self, owner: str) -> Slot:
        """Count one unit for ``owner`` if both limits allow it.

        Raises:
            QuotaExceededError: naming the limit reached (nothing is counted).
        """
        if self._held[owner] >= self.per_owner:
            raise QuotaExceededError(
                f"at most {self.per_owner} {self.what} at a time each: wait for yours to finish"
            )
        if self.in_flight >= self.total:
            raise QuotaExceededError(
                f"the server is busy ({self.total} {self.what} at a time): try again soon"
            )
        self._held[owner] += 1
        return Slot(self, owner)

    def _give_back(self, owner: str) -> None:
        self._held[owner] -= 1
        if self._held[owner] <= 0:
            del self._held[owner]
