"""The bookkeeping of the other server processes and their users
(:class:`~backgammon.server.lobby.peers.Peers`): who is connected where, and the
expiry of a process that fell silent (issue 53, item 2)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from backgammon.server.db.database import Database
from backgammon.server.db.events import PostgresBus
from backgammon.server.lobby.peers import EXPIRE_SECONDS, Peers
from backgammon.server.service import GameService
from backgammon.server.settings import Settings

from .conftest import POSTGRESQL

ALICE = {"name": "alice", "kind": "user", "bot_level": None}
BOB = {"name": "bob", "kind": "user", "bot_level": None}


def _two_processes() -> Peers:
    """Processes a (alice) and b (bob), both heard at time 0."""
    peers = Peers()
    for origin, user_id, public in (("a", 1, ALICE), ("b", 2, BOB)):
        peers.heard(origin, 0.0)
        peers.online(origin, user_id, public)
    return peers


def test_a_user_is_connected_elsewhere_while_any_process_holds_them() -> None:
    peers = _two_processes()
    peers.online("b", 1, ALICE)
    assert sorted(peers.items(), key=lambda item: item[0]) == [(1, ALICE), (2, BOB)]
    peers.offline("a", 1)
    assert 1 in peers
    peers.offline("b", 1)
    peers.offline("b", 1)  # twice changes nothing
    assert 1 not in peers and 2 in peers


def test_a_silent_process_expires_with_its_users() -> None:
    peers = _two_processes()
    peers.heard("b", EXPIRE_SECONDS)
    assert peers.expire(EXPIRE_SECONDS) == []
    assert peers.expire(EXPIRE_SECONDS + 0.5) == [(1, ALICE)]
    assert 1 not in peers and 2 in peers
    assert peers.expire(EXPIRE_SECONDS + 0.5) == []
    # Heard again after it was taken for dead: its roster is to be asked for.
    assert peers.heard("a", EXPIRE_SECONDS + 1.0) is True
    assert peers.heard("a", EXPIRE_SECONDS + 2.0) is False


def test_a_goodbye_drops_a_process_users_at_once() -> None:
    peers = _two_processes()
    assert peers.forget("a") == [(1, ALICE)]
    assert 1 not in peers
    assert peers.expire(100.0) == [(2, BOB)]  # only b was still heard of


def test_each_process_gone_is_handed_over_once() -> None:
    """A process that said goodbye, then one that expired, each listed once as
    departed (the others take over their work); forgetting one never heard of, or
    twice, departs nothing; one heard again and gone again departs again."""
    peers = _two_processes()
    peers.forget("a")
    peers.forget("a")
    peers.forget("nobody")
    assert peers.departed() == ["a"]
    assert peers.departed() == []
    peers.expire(100.0)
    assert peers.departed() == ["b"]
    peers.heard("b", 101.0)
    for now in (103.0, 105.0, 101.0 + EXPIRE_SECONDS + 1):  # checked every 2 s
        peers.expire(now)
    assert peers.departed() == ["b"]


class FakeClock:
    """Time that moves only when told."""

    def __init__(self) -> None:
        self.time = 1_000_000.0

    def now(self) -> float:
        return self.time


def _online(name: str, user_id: int, origin: str) -> dict[str, Any]:
    message = {"type": "lobby_event", "event": "online", "user": {"name": name}, "user_id": user_id}
    return {"k": "room", "room": "lobby", "message": message, "origin": origin}


def test_the_service_drops_the_users_of_a_process_gone_or_silent(tmp_path: Path) -> None:
    """In-process, with the bus's events handed in: a goodbye drops a process's users
    at once; a process silent past the expiry is dropped at the next beat, and asked
    for its roster when it speaks again."""

    async def run() -> None:
        settings = Settings(data_dir=tmp_path, bots=(), warm_up=False)
        clock = FakeClock()
        service = GameService(settings, Database(settings.database), clock=clock)
        await service.start()
        sent: list[dict[str, Any]] = []
        service.bus.send = sent.append  # type: ignore[method-assign]
        try:
            await service._on_event(_online("bob", 2, "b"))
            await service._on_event(_online("carl", 3, "c"))
            assert [public["name"] for _id, public in service.online()] == ["bob", "carl"]
            await service._on_event({"k": "goodbye", "origin": "b"})
            assert [public["name"] for _id, public in service.online()] == ["carl"]
            for _ in range(2):
                clock.time += EXPIRE_SECONDS / 2
                service._beat()
                assert [public["name"] for _id, public in service.online()] == ["carl"]
            clock.time += EXPIRE_SECONDS / 2
            service._beat()
            assert service.online() == []
            await service._on_event({"k": "beat", "origin": "c"})
            assert {"k": "roster_request", "of": "c"} in sent
        finally:
            await service.stop()

    asyncio.run(run())


def test_nobody_expires_while_this_process_was_stalled() -> None:
    """A check long after the last one (this process's own loop held up) forgets
    nobody: the others' beats may be waiting unread; the next check judges."""
    peers = _two_processes()
    assert peers.expire(1.0) == []
    assert peers.expire(1.0 + EXPIRE_SECONDS) == []
    peers.heard("b", 1.0 + EXPIRE_SECONDS)
    assert peers.expire(2.0 + EXPIRE_SECONDS) == [(1, ALICE)]


@pytest.mark.slow
@pytest.mark.postgresql
def test_a_closing_bus_says_its_farewell_first() -> None:
    """On PostgreSQL, the farewell of a closing bus (the service's goodbye) reaches
    the other processes."""
    if not POSTGRESQL:
        pytest.skip("no PostgreSQL server (set BACKGAMMON_TEST_POSTGRESQL; .ci/run does)")

    async def run() -> None:
        heard: list[dict[str, Any]] = []
        arrived = asyncio.Event()

        async def note(event: dict[str, Any]) -> None:
            heard.append(event)
            arrived.set()

        listener, leaver = PostgresBus(POSTGRESQL), PostgresBus(POSTGRESQL)
        await listener.start(note)
        await leaver.start(note)
        await leaver.close(farewell={"k": "goodbye"})
        await asyncio.wait_for(arrived.wait(), 10)
        await listener.close()
        assert heard[0] == {"k": "goodbye", "origin": leaver.origin}

    asyncio.run(run())
