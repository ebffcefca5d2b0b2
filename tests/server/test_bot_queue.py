"""The bots' scheduler (issue 50, finding 4): which waiting bot decision goes next,
and that no more run at once than there are workers. Pure and fast: no server."""

from __future__ import annotations

import asyncio

import pytest

from backgammon.server.bots.queue import URGENT_SECONDS, BotQueue, Schedule


def _drain(schedule: Schedule[str], now: float = 0.0) -> list[str]:
    return [schedule.pop(now) for _ in range(len(schedule))]


def test_one_owners_decisions_go_clocked_by_deadline_then_unclocked_oldest_first() -> None:
    schedule: Schedule[str] = Schedule()
    schedule.push("ann", None, "free 1")
    schedule.push("ann", 500.0, "late")
    schedule.push("ann", None, "free 2")
    schedule.push("ann", 100.0, "early")
    assert _drain(schedule) == ["early", "late", "free 1", "free 2"]


def test_one_owners_bulk_keeps_another_waiting_behind_one_of_its_decisions_at_most() -> None:
    """Thirty unclocked bot matches of one account, then one decision of another:
    the other's goes second, and then the two owners take turns."""
    schedule: Schedule[str] = Schedule()
    for number in range(30):
        schedule.push("mallory", None, f"m{number}")
    schedule.push("bob", None, "b0")
    schedule.push("bob", None, "b1")
    assert _drain(schedule)[:5] == ["m0", "b0", "m1", "b1", "m2"]


def test_an_urgent_clocked_decision_goes_before_everyone_elses() -> None:
    """A bot whose time runs out within URGENT_SECONDS goes first, before 30 clocked
    decisions with time to spare and 30 unclocked ones queued before it."""
    schedule: Schedule[str] = Schedule()
    for number in range(30):
        schedule.push("olga", 300.0 + number, f"o{number}")
        schedule.push("mallory", None, f"m{number}")
    schedule.push("bob", URGENT_SECONDS - 1, "bob's bot")
    assert schedule.pop(0.0) == "bob's bot"


def test_urgent_decisions_of_two_owners_take_turns() -> None:
    """An organiser's bots, all short of time, cannot keep a person's bot (short of
    time too, a little later) waiting behind more than one of theirs."""
    schedule: Schedule[str] = Schedule()
    for number in range(20):
        schedule.push("olga", 1.0 + number / 100, f"o{number}")
    schedule.push("bob", 5.0, "bob's bot")
    assert _drain(schedule)[:3] == ["o0", "bob's bot", "o1"]


def test_clocked_bulk_does_not_keep_unclocked_work_waiting_for_ever() -> None:
    """Clocked decisions with time to spare take turns with another owner's unclocked
    one: only urgency goes before the round robin."""
    schedule: Schedule[str] = Schedule()
    for number in range(30):
        schedule.push("olga", 600.0, f"o{number}")
    schedule.push("carol", None, "chouette")
    assert "chouette" in _drain(schedule)[:2]


def test_an_owner_with_nothing_waiting_is_new_again() -> None:
    """Bob's one bot match asks again after each of his turns: each time, it goes
    before the rest of Mallory's bulk."""
    schedule: Schedule[str] = Schedule()
    for number in range(30):
        schedule.push("mallory", None, f"m{number}")
    schedule.push("bob", None, "b0")
    assert [schedule.pop(0.0) for _ in range(3)] == ["m0", "b0", "m1"]
    schedule.push("bob", None, "b1")
    assert schedule.pop(0.0) == "b1"


def test_an_empty_schedule_says_so() -> None:
    with pytest.raises(IndexError):
        Schedule[str]().pop(0.0)


def test_the_queue_runs_as_many_at_once_as_there_are_workers_in_the_schedules_order() -> None:
    """Two workers: never more than two decisions at once; the thirty of one owner
    queued first do not keep another's waiting (it starts among the first four); a
    caller cancelled before its turn is never run; a decision's error reaches its
    caller."""
    started: list[str] = []
    running = 0
    most = 0

    def decision(name: str) -> asyncio.Future[str]:
        async def run() -> str:
            nonlocal running, most
            started.append(name)
            running += 1
            most = max(most, running)
            await asyncio.sleep(0.001)
            running -= 1
            if name == "broken":
                raise RuntimeError("the worker died")
            return name.upper()

        return asyncio.ensure_future(queue.submit(name[0], None, run))

    async def scenario() -> None:
        bulk = [decision(f"m{number}") for number in range(30)]
        dropped = decision("dropped")
        bobs = decision("bob")
        broken = decision("broken")
        await asyncio.sleep(0)  # all are waiting in the schedule now
        dropped.cancel()
        assert await bobs == "BOB"
        with pytest.raises(RuntimeError, match="the worker died"):
            await broken
        assert await asyncio.gather(*bulk) == [f"M{number}" for number in range(30)]
        assert queue.waiting == 0 and queue.running == 0

    queue = BotQueue(2, clock=lambda: 0.0)
    asyncio.run(scenario())
    assert most == 2
    assert "dropped" not in started
    assert started.index("bob") < 4
