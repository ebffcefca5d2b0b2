"""The other server processes on one PostgreSQL database, and who is connected to each.

Every process sends a ``beat`` on the event bus every :data:`BEAT_SECONDS`; a process
not heard from (a beat or any other event) for :data:`EXPIRE_SECONDS` is taken for
dead, and its users leave this process's list of who is connected. A process that
stops cleanly says ``goodbye``, which drops its users at once. :class:`Peers` holds
this bookkeeping, with no I/O: the service feeds it what the bus hears and the time.
"""

from __future__ import annotations

from typing import Any

__all__ = ["BEAT_SECONDS", "EXPIRE_SECONDS", "Peers"]

BEAT_SECONDS = 2.0
"""How often each process says it is alive (one small NOTIFY)."""

EXPIRE_SECONDS = 6.0
"""How long a silent process is still believed alive (three beats missed): with a
check every :data:`BEAT_SECONDS`, its users leave within 8 s of its death."""


class Peers:
    """Who is connected to each other process (by its bus ``origin``), and when each
    was last heard."""

    def __init__(self) -> None:
        self._users: dict[str, dict[int, dict[str, Any]]] = {}
        self._heard: dict[str, float] = {}
        self._expired: set[str] = set()
        self._checked: float | None = None
        self._departed: list[str] = []

    def heard(self, origin: str, now: float) -> bool:
        """Note that ``origin`` spoke at ``now``; True if it had been taken for dead
        (its roster should be asked for again)."""
        self._heard[origin] = now
        if origin in self._expired:
            self._expired.discard(origin)
            return True
        return False

    def online(self, origin: str, user_id: int, public: dict[str, Any]) -> None:
        """``user_id`` (with its public facts) is connected to ``origin``."""
        self._users.setdefault(origin, {})[user_id] = public

    def offline(self, origin: str, user_id: int) -> None:
        """``user_id`` has no connection left to ``origin``."""
        users = self._users.get(origin)
        if users is not None:
            users.pop(user_id, None)
            if not users:
                del self._users[origin]

    def forget(self, origin: str) -> list[tuple[int, dict[str, Any]]]:
        """``origin`` is gone (said goodbye, or expired): the users it held (user id,
        public facts)."""
        if self._heard.pop(origin, None) is not None:
            self._departed.append(origin)
        return list(self._users.pop(origin, {}).items())

    def expire(self, now: float, after: float = EXPIRE_SECONDS) -> list[tuple[int, dict[str, Any]]]:
        """Forget every process silent for more than ``after`` seconds; the users
        they held (some may still be connected elsewhere). Nobody is forgotten when
        this process itself was stalled for more than half of ``after`` since the
        last check: what it has not yet read may be the others' beats."""
        stalled = self._checked is not None and now - self._checked > after / 2
        self._checked = now
        if stalled:
            return []
        silent = [origin for origin, at in self._heard.items() if now - at > after]
        self._expired.update(silent)
        return [user for origin in silent for user in self.forget(origin)]

    def departed(self) -> list[str]:
        """The processes forgotten since the last call (said goodbye, or expired),
        each once: the others take over their work."""
        departed, self._departed = self._departed, []
        return departed

    def __contains__(self, user_id: object) -> bool:
        return any(user_id in users for users in self._users.values())

    def items(self) -> list[tuple[int, dict[str, Any]]]:
        """Every user connected elsewhere (user id, public facts), each once."""
        seen: dict[int, dict[str, Any]] = {}
        for users in self._users.values():
            for user_id, public in users.items():
                seen.setdefault(user_id, public)
        return list(seen.items())
