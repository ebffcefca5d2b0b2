"""Throttles kept in the database: how often a client may try a password or make an
account, counted atomically across every server process.

Each throttled key (``login-address:10.0.0.1``, ``login-account:alice``,
``signup:10.0.0.1``) has one row: a *level* (tries counted and not yet forgiven,
leaking away at the policy's rate) and the time the next try may come. A try is
taken by one ``UPDATE ... WHERE next_at <= now RETURNING``: the database's row lock
orders concurrent tries, so forty parallel requests cannot all read "not yet
throttled" (the old code read a count, hashed, then wrote). A try is counted before
the password is checked and given back if it was right.

While the level is at most ``free``, tries come as fast as they like; past it each
try must wait twice as long as the one before (1 s, 2 s, 4 s, ...), up to
``max_delay``.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from sqlalchemy import case, delete, literal, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.elements import ColumnElement

from backgammon.server.db.tables import login_addresses, throttles

__all__ = [
    "Policy",
    "client_address",
    "forget_stale",
    "give_back",
    "is_known_address",
    "remember_address",
    "take",
]


@dataclass(frozen=True, slots=True)
class Policy:
    """How one kind of key is throttled.

    Attributes:
        free: tries allowed back to back.
        leak_seconds: one try is forgiven per this many seconds.
        max_delay: the longest wait between two tries past ``free``.
    """

    free: int
    leak_seconds: float
    max_delay: float

    def delays(self) -> list[tuple[int, float]]:
        """``(level, wait)`` steps: after a try that brings the level to at most
        ``level``, the next waits ``wait`` seconds (``max_delay`` past the last)."""
        steps = [(self.free - 1, 0.0)]
        wait = 1.0
        while wait < self.max_delay:
            steps.append((steps[-1][0] + 1, wait))
            wait *= 2
        return steps


def client_address(address: str) -> str:
    """The key part for a client's address: IPv6 clients by their /64 network (one
    subscriber's allocation), anything else as it is (at most 64 characters)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{parsed}/64", strict=False))
    return str(parsed)


# Requests read the time before they reach the database, so a row may have been
# written at a later ``now`` than the one a try brings: no time passes backwards.


def _later(now: float, column: ColumnElement[float]) -> ColumnElement[float]:
    return case((column > now, column), else_=literal(now))


def _new_level(now: float, policy: Policy) -> ColumnElement[float]:
    elapsed = _later(now, throttles.c.at) - throttles.c.at
    leaked = throttles.c.level - elapsed / policy.leak_seconds
    return case((leaked < 0, literal(1.0)), else_=leaked + 1.0)


def _next_at(now: float, level: ColumnElement[float], policy: Policy) -> ColumnElement[float]:
    """When the try after this one may come: as before while the level is within
    ``free``, else ``now`` plus the level's wait."""
    steps = [(level <= bound + 0.5, literal(wait)) for bound, wait in policy.delays()]
    wait = case(*steps, else_=literal(policy.max_delay))
    return case((wait == 0.0, throttles.c.next_at), else_=literal(now) + wait)


async def _ensure_row(connection: AsyncConnection, key: str, now: float) -> None:
    values = {"key": key, "level": 0.0, "at": now, "next_at": 0.0}
    if connection.dialect.name == "postgresql":
        await connection.execute(
            postgresql_insert(throttles).values(**values).on_conflict_do_nothing()
        )
    else:
        await connection.execute(sqlite_insert(throttles).values(**values).on_conflict_do_nothing())


async def take(connection: AsyncConnection, key: str, now: float, policy: Policy) -> float:
    """Count one try for ``key`` if it may come now.

    Returns:
        0.0 if the try is counted, else the seconds until one may come.
    """
    await _ensure_row(connection, key, now)
    level = _new_level(now, policy)
    taken = await connection.execute(
        update(throttles)
        .where(throttles.c.key == key, throttles.c.next_at <= now)
        .values(level=level, at=_later(now, throttles.c.at), next_at=_next_at(now, level, policy))
        .returning(throttles.c.level)
    )
    if taken.first() is not None:
        return 0.0
    next_at = await connection.scalar(select(throttles.c.next_at).where(throttles.c.key == key))
    return max(float(next_at or now) - now, 0.001)


async def give_back(connection: AsyncConnection, key: str) -> None:
    """Un-count one try of ``key`` (it was a right password); the wait it set stays,
    so a client cannot clear its failures by logging in to an account of its own."""
    await connection.execute(
        update(throttles)
        .where(throttles.c.key == key)
        .values(level=case((throttles.c.level >= 1.0, throttles.c.level - 1.0), else_=0.0))
    )


async def forget_stale(connection: AsyncConnection, before: float) -> None:
    """Drop the rows of keys not tried since ``before`` (their level has leaked away
    and their wait is over)."""
    await connection.execute(
        delete(throttles).where(throttles.c.at < before, throttles.c.next_at < before)
    )


async def is_known_address(connection: AsyncConnection, user_id: int, address: str) -> bool:
    """Whether the account has logged in (or registered) from ``address``."""
    found = await connection.scalar(
        select(login_addresses.c.at).where(
            login_addresses.c.user_id == user_id, login_addresses.c.address == address
        )
    )
    return found is not None


async def remember_address(
    connection: AsyncConnection, user_id: int, address: str, now: float
) -> None:
    """Record that the account logged in from ``address``."""
    values = {"user_id": user_id, "address": address, "at": now}
    keys = [login_addresses.c.user_id, login_addresses.c.address]
    if connection.dialect.name == "postgresql":
        pg = postgresql_insert(login_addresses).values(**values)
        await connection.execute(pg.on_conflict_do_update(index_elements=keys, set_={"at": now}))
    else:
        lite = sqlite_insert(login_addresses).values(**values)
        await connection.execute(lite.on_conflict_do_update(index_elements=keys, set_={"at": now}))
