"""The who facts kept in memory (server/lobby/presence.py): a who list of many users is one
read, concurrent asks share it, a change is seen once forgotten or stale."""

from __future__ import annotations

import asyncio

from backgammon.server.lobby.presence import NameCache, WhoCache, WhoFacts


class Loader:
    """A database stand-in that counts reads and can be held mid-read."""

    def __init__(self) -> None:
        self.reads: list[list[int]] = []
        self.rating = 1500.0
        self.gate = asyncio.Event()
        self.gate.set()

    async def __call__(self, user_ids: list[int]) -> dict[int, WhoFacts]:
        self.reads.append(list(user_ids))
        await self.gate.wait()
        return {
            user_id: WhoFacts(f"user{user_id}", "human", self.rating, 0, None)
            for user_id in user_ids
            if user_id < 100  # ids of 100 and more do not exist
        }


def test_a_who_list_is_one_read_and_then_none() -> None:
    async def run() -> None:
        loader, now = Loader(), [0.0]
        cache = WhoCache(loader, lambda: now[0], ttl=30.0)
        found = await cache.get_many([*range(50), 100])
        assert len(found) == 50 and 100 not in found
        assert loader.reads == [[*range(50), 100]]
        again = await cache.get_many(list(range(50)))
        assert again == found and len(loader.reads) == 1
        assert await cache.get(100) is None  # unknown users are asked again, not kept
        assert len(loader.reads) == 2

    asyncio.run(run())


def test_concurrent_asks_share_one_read() -> None:
    async def run() -> None:
        loader = Loader()
        loader.gate.clear()
        cache = WhoCache(loader, lambda: 0.0)
        asks = [asyncio.create_task(cache.get_many([1, 2, 3])) for _ in range(20)]
        await asyncio.sleep(0)
        loader.gate.set()
        results = await asyncio.gather(*asks)
        assert loader.reads == [[1, 2, 3]]
        assert all(result == results[0] and len(result) == 3 for result in results)

    asyncio.run(run())


def test_a_change_is_seen_when_forgotten_or_stale() -> None:
    async def run() -> None:
        loader, now = Loader(), [0.0]
        cache = WhoCache(loader, lambda: now[0], ttl=30.0)
        assert (await cache.get(7)) == WhoFacts("user7", "human", 1500.0, 0, None)
        loader.rating = 1510.0
        assert (await cache.get(7)).rating == 1500.0  # type: ignore[union-attr]
        cache.forget(7)
        assert (await cache.get(7)).rating == 1510.0  # type: ignore[union-attr]
        loader.rating = 1520.0
        now[0] = 31.0
        assert (await cache.get(7)).rating == 1520.0  # type: ignore[union-attr]

    asyncio.run(run())


def test_a_failed_read_reaches_every_waiter_and_is_not_kept() -> None:
    async def run() -> None:
        calls = []

        async def failing(user_ids: list[int]) -> dict[int, WhoFacts]:
            calls.append(user_ids)
            await asyncio.sleep(0.01)
            raise OSError("database gone")

        cache = WhoCache(failing, lambda: 0.0)
        results = await asyncio.gather(
            cache.get_many([1]), cache.get_many([1]), return_exceptions=True
        )
        assert all(isinstance(result, OSError) for result in results)
        assert len(calls) == 1

    asyncio.run(run())


def test_names_are_kept_up_to_a_size() -> None:
    names = NameCache(size=2)
    names.put(1, "alice")
    names.put(2, "bob")
    assert names.get(1) == "alice"  # 1 is now the most recent
    names.put(3, "carol")
    assert names.get(2) is None and names.get(1) == "alice" and names.get(3) == "carol"
