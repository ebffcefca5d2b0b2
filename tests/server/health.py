"""The hostile tests' watch on the server: ``GET /healthz`` asked every 0.2 s while an
attack runs, each answer due within a second (issue 50's acceptance)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from typing import TypeVar

import httpx

_T = TypeVar("_T")

LIMIT = 1.0
"""The longest a ``/healthz`` may take, in seconds."""


@asynccontextmanager
async def healthy_throughout(url: str, every: float = 0.2) -> AsyncIterator[list[float]]:
    """Ask ``GET /healthz`` every ``every`` seconds while the block runs (yields the
    times taken); on leaving, fail if any answer was not 200, took :data:`LIMIT`
    seconds or more, or never came, and if none was asked at all. The probe ends
    between two requests, never in the middle of one."""
    slow: list[str] = []
    taken: list[float] = []
    stop = asyncio.Event()

    async def probe() -> None:
        async with httpx.AsyncClient() as client:
            while not stop.is_set():
                started = time.monotonic()
                try:
                    answer = await client.get(f"{url}/healthz", timeout=LIMIT)
                    took = time.monotonic() - started
                    taken.append(took)
                    if answer.status_code != 200 or took >= LIMIT:
                        slow.append(f"{answer.status_code} in {took:.2f} s")
                except httpx.HTTPError as error:
                    slow.append(repr(error))
                with_stop = asyncio.create_task(stop.wait())
                await asyncio.wait({with_stop}, timeout=every)
                with_stop.cancel()

    task = asyncio.create_task(probe())
    try:
        yield taken
    finally:
        stop.set()
        await task
    assert not slow, slow
    assert taken, "/healthz was never asked"


async def run_healthy(url: str, work: Awaitable[_T]) -> _T:
    """``await work`` with :func:`healthy_throughout` watching ``url``."""
    async with healthy_throughout(url):
        return await work
