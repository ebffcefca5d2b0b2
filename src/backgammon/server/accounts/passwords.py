"""Passwords and session tokens: Argon2id hashes, random tokens stored as SHA-256.

Nothing here touches the database; :mod:`backgammon.server.db.repository` stores what
these functions make. Hashing is deliberately slow (Argon2id's memory-hard cost), so
the server runs :func:`hash_password` and :func:`verify_password` in
:class:`PasswordWorkers`: threads of their own, at a lower CPU priority than the
event loop, behind a bounded first-come-first-served queue.

>>> hashed = hash_password("correct horse")
>>> hashed.startswith("$argon2id$")
True
>>> verify_password(hashed, "correct horse"), verify_password(hashed, "wrong")
(True, False)
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
import secrets
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

__all__ = [
    "ARGON2_MEMORY_KIB",
    "ARGON2_PARALLELISM",
    "ARGON2_TIME_COST",
    "NAME_PATTERN",
    "PasswordWorkers",
    "PasswordWorkersBusyError",
    "check_name",
    "check_password",
    "hash_password",
    "hash_token",
    "needs_rehash",
    "new_token",
    "verify_password",
]

_T = TypeVar("_T")

ARGON2_MEMORY_KIB = 19_456
ARGON2_TIME_COST = 2
ARGON2_PARALLELISM = 1
"""Argon2id with 19 MiB, 2 passes, 1 lane: the first configuration OWASP's Password
Storage Cheat Sheet lists (its minimum). argon2-cffi's default (RFC 9106's second
profile: 64 MiB, 3 passes, 4 lanes) costs several times more CPU per check (see
``benchmarks/password_hashing.py``); hashes made with it still verify and are
rehashed with these parameters at the owner's next login."""

NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,19}")
"""A user name: 3-20 letters, digits and underscores, starting with a letter (FIBS
clients split lines on spaces, so names have none)."""


def _hasher() -> PasswordHasher:
    return PasswordHasher(
        time_cost=ARGON2_TIME_COST,
        memory_cost=ARGON2_MEMORY_KIB,
        parallelism=ARGON2_PARALLELISM,
        type=Type.ID,
    )


def check_name(name: str) -> str:
    """Return ``name`` if it is a valid user name.

    Raises:
        ValueError: naming the rule it breaks.
    """
    if not NAME_PATTERN.fullmatch(name):
        raise ValueError(
            f"user name {name[:40]!r}: 3-20 letters, digits or _, starting with a letter"
        )
    if name.lower().startswith(("guest", "bot_")):
        raise ValueError(f"user name {name!r}: names starting guest or bot_ are reserved")
    return name


def check_password(password: str) -> str:
    """Return ``password`` if it is acceptable (8 to 256 characters).

    Raises:
        ValueError: saying what is wrong (never quoting the password).
    """
    if not 8 <= len(password) <= 256:
        raise ValueError("a password has 8 to 256 characters")
    return password


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` (salted; the encoded form holds the
    parameters)."""
    return _hasher().hash(password)


def verify_password(hashed: str, password: str) -> bool:
    """Whether ``password`` matches the Argon2id ``hashed``."""
    try:
        return _hasher().verify(hashed, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(hashed: str) -> bool:
    """Whether ``hashed`` was made with other parameters than today's (so the
    password, once checked, should be hashed again)."""
    try:
        return _hasher().check_needs_rehash(hashed)
    except InvalidHashError:
        return True


class PasswordWorkersBusyError(RuntimeError):
    """Every place in the password queue is taken: the caller should answer "busy,
    try again" rather than wait."""


def _lower_priority() -> None:
    """Run this worker thread at nice 10 (Linux schedules threads apart), so that
    under load the event loop that moves the games gets the CPU first."""
    with contextlib.suppress(AttributeError, OSError):  # not Linux, or not allowed
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


class PasswordWorkers:
    """Where password hashing runs: ``threads`` threads of its own (never the event
    loop's default pool, which other work uses), at a lower CPU priority, taking
    jobs first come, first served; at most ``queue`` jobs wait, and a job beyond
    that is refused at once by :meth:`admit`.

    Args:
        threads: how many hashes run at once (Argon2id with one lane uses one core
            each; argon2-cffi releases the GIL while hashing).
        queue: how many more may wait for a thread.
    """

    def __init__(self, threads: int, queue: int) -> None:
        self.threads = threads
        self.capacity = threads + queue
        self.admitted = 0
        self.refused = 0
        self._executor = ThreadPoolExecutor(
            threads, thread_name_prefix="password", initializer=_lower_priority
        )

    @contextmanager
    def admit(self) -> Iterator[None]:
        """Hold a place in the queue while checking one password (call from the event
        loop only: the count is the loop's, so taking a place is atomic).

        Raises:
            PasswordWorkersBusyError: when every place is taken.
        """
        if self.admitted >= self.capacity:
            self.refused += 1
            raise PasswordWorkersBusyError("the password queue is full")
        self.admitted += 1
        try:
            yield
        finally:
            self.admitted -= 1

    async def run(self, function: Callable[..., _T], *args: object) -> _T:
        """``function(*args)`` on a password thread, in the order of the calls."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, function, *args)

    def close(self) -> None:
        """Let running hashes finish; drop those still waiting."""
        self._executor.shutdown(wait=False, cancel_futures=True)


def new_token() -> str:
    """A fresh session token: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """What the database keeps of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()
