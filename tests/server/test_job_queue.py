"""The long jobs' queue (:mod:`backgammon.server.bots.job_queue`): turns shared fairly
between owners, and the quick tools' worker never behind a long job."""

from __future__ import annotations

import asyncio
import time

from backgammon.server.bots.job_queue import JobQueue
from backgammon.server.bots.pool import BotPool


def _order(workers: int, arrivals: list[str], cancel: frozenset[int] = frozenset()) -> list[str]:
    """In which order jobs of the owners named in ``arrivals`` (queued in that order,
    each holding its turn until released) are given their turns; the ``cancel``
    indexes are cancelled while they wait."""
    queue = JobQueue(workers)
    started: list[str] = []

    async def job(index: int, owner: str, release: asyncio.Event) -> None:
        async with queue.turn(owner):
            started.append(f"{owner}{index}")
            await release.wait()

    async def scenario() -> None:
        releases = [asyncio.Event() for _ in arrivals]
        tasks = [
            asyncio.create_task(job(i, owner, releases[i])) for i, owner in enumerate(arrivals)
        ]
        await asyncio.sleep(0)
        for index in cancel:
            tasks[index].cancel()
        await asyncio.sleep(0)
        while any(not task.done() for task in tasks):
            for i, name in enumerate(arrivals):
                if f"{name}{i}" in started:
                    releases[i].set()
            await asyncio.sleep(0)
        assert queue.running == 0 and queue.waiting == 0

    asyncio.run(scenario())
    return started


def test_one_owners_second_job_waits_for_the_others_first() -> None:
    """A queues three, then B and C one each, on one worker: after A's first, B's and
    C's go before A's second (first come, first served ran A's three first)."""
    assert _order(1, ["a", "a", "a", "b", "c"]) == ["a0", "b3", "c4", "a1", "a2"]


def test_two_workers_are_shared_between_owners() -> None:
    assert _order(2, ["a", "a", "a", "b"]) == ["a0", "a1", "b3", "a2"]


def test_a_job_cancelled_while_waiting_never_runs_nor_holds_a_turn() -> None:
    assert _order(1, ["a", "b", "c"], cancel=frozenset({1})) == ["a0", "c2"]


def test_quick_work_is_answered_while_the_long_jobs_workers_are_busy() -> None:
    """Issue 50: the position tool waited behind a stranger's analysis in the one
    tools' worker. Here the long jobs' worker sleeps ten minutes with another job
    queued behind it, and quick work is still answered."""
    pool = BotPool(1, tool_processes=1)

    async def scenario() -> tuple[float, list[bool]]:
        held = [asyncio.ensure_future(pool.run_job(f"o{i}", time.sleep, 600)) for i in range(2)]
        await asyncio.sleep(0.5)
        answer = await asyncio.wait_for(pool.run(sum, [1, 2]), 90)
        states = [job.done() for job in held]
        for job in held:
            job.cancel()
        return answer, states

    try:
        answer, long_done = asyncio.run(scenario())
    finally:
        pool.close()
    assert answer == 3
    assert long_done == [False, False]
