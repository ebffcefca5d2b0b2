"""What the services of the site share: the refusal error, the clock, the seats of a
match, limits and small helpers (moved from service.py with GameService's split)."""

from __future__ import annotations

import logging
import math
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from backgammon.server.db.repository import User

__all__ = [
    "MAX_FRIENDS",
    "MAX_OPEN_MATCHES",
    "MAX_STORED_MESSAGES",
    "Clock",
    "ServiceError",
    "SystemClock",
]

log = logging.getLogger("backgammon.server")

_T = TypeVar("_T")


class Clock(Protocol):
    """Where the service reads the time (injectable, so tests need not sleep)."""

    def now(self) -> float:
        """Seconds since the epoch."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        """Seconds since the epoch."""
        return time.time()


class ServiceError(Exception):
    """A request the service refuses; nothing changed.

    Attributes:
        code: machine-readable (``bad_request``, ``unauthorized``, ``forbidden``,
            ``not_found``, ``conflict``, ``throttled``, ``busy``, and the
            :class:`~backgammon.server.matches.live.ActionRefusedError` codes).
        message: what is wrong, for people.
        status: the HTTP status that fits.
        retry_after: for ``throttled`` and ``busy``, the seconds to wait.
        detail: for programmers, what a reader or a library said (the ``message``
            stays plain for people); None when the message says it all.
    """

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        *,
        retry_after: float | None = None,
        detail: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after
        self.detail = detail


@dataclass
class _Seats:
    """Who sits where in a live match, and whose its bots' work counts as (the
    person who started it, or the tournament's organiser)."""

    users: tuple[User | None, User | None]
    rated: bool
    public: bool
    owner: int

    def seat_of(self, user: User) -> int | None:
        for seat, seated in enumerate(self.users):
            if seated is not None and seated.id == user.id:
                return seat
        return None


def _findable(public: bool, player_ids: Iterable[int | None], viewer: User) -> bool:
    """Whether ``viewer`` may find a match by a player's name or in a list (the
    lobby's matches in play; FIBS's ``watch``, ``look``, ``who``): a public match, or
    one of the viewer's own. An unlisted match's id is its invitation link: only those
    it was handed to may open it (issue 50)."""
    return public or viewer.id in player_ids


class _ConflictError(Exception):
    """Another process appended to the match's log first."""


PENDING_COMMITMENTS = 10
"""How many dice commitments handed out for matches not yet created a user keeps
(the oldest is forgotten)."""


READY_SECONDS = 10.0
"""How long a seated match (a tournament's) waits, from when it is stored, for each
person in it to give a dice nonce (:meth:`GameService.give_nonce`) after its
commitment is published; then it starts with the nonces given so far (issue 50)."""


MAX_STORED_MESSAGES = 50
"""Messages that may wait for one user's next login (FIBS's ``message``)."""

MAX_STORED_FROM_ONE = 5
"""Messages one user may keep waiting for one other user (so that one sender cannot
fill another's mailbox)."""

MAX_STORED_SENT = 20
"""Messages one user may keep waiting for others in all."""

STORED_MESSAGE_DAYS = 30
"""Days a stored message waits at most: older ones are dropped (the mailbox of a
user who never logs in over FIBS empties)."""

MAX_GAGS = 200
"""Users one user may gag (FIBS's ``gag``, kept across logins)."""


MAX_OPEN_MATCHES = 20
"""Unfinished matches one user may be in at once when creating another: open ones
and invitations waiting, and matches in play, against bots too (each bot match keeps a
bot thinking, so one account could otherwise keep the bots busy: issue 50)."""


VIEWER_ROOMS = 2
"""Matches one anonymous viewer's connection may watch at once."""

FINISHED_KEPT = 64
"""How many finished matches one process keeps rebuilt for readers (their state and
records), the most recently read; others are rebuilt from the log when read."""


def _login_required(what: str) -> ServiceError:
    """The refusal of anything but watching to an anonymous viewer."""
    return ServiceError(
        "login_required", f"log in to {what}: watching without an account is read-only", 401
    )


MAX_FRIENDS = 100
"""The most users one friends list holds."""

MAX_TOKENS_PER_USER = 50
"""The most live session tokens one user holds; a login past it revokes the oldest."""


LOBBY_CACHE_SECONDS = 5.0
"""The longest the lobby's shared part (its open matches and matches in play) is
served from memory; any lobby event about a match forgets it sooner."""

ROSTER_CHUNK = 40
"""Users per ``roster`` event (a process's connected users, told to one that has
just started), so that each stays under the bus's payload limit."""


def _new_match_id() -> str:
    return secrets.token_urlsafe(9)


FORGET_THROTTLES_AFTER = 86_400.0
"""Throttle rows untouched this long are deleted (every policy has leaked away by
then)."""


def _throttled(message: str, wait: float) -> ServiceError:
    seconds = max(1, math.ceil(wait))
    return ServiceError(
        "throttled", f"{message}: try again in {seconds} s", 429, retry_after=seconds
    )


def _busy() -> ServiceError:
    return ServiceError(
        "busy",
        "the server is busy checking passwords: try again in a few seconds",
        503,
        retry_after=5,
    )
