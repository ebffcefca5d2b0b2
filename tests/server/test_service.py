"""The game service in-process, on a real SQLite database, with an injected clock
(so clocks and throttling are tested without sleeping)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from backgammon.server.db.database import Database
from backgammon.server.lobby.hub import Connection
from backgammon.server.protocol import ActionBody, ClockSettings, CreateMatch, MatchSettings
from backgammon.server.service import GameService, ServiceError
from backgammon.server.settings import Settings

PASSWORD = "a long enough password"


class FakeClock:
    """Time that moves only when told."""

    def __init__(self) -> None:
        self.time = 1_000_000.0

    def now(self) -> float:
        return self.time


def _run(tmp_path: Path, body: Callable[[GameService, FakeClock], Awaitable[None]]) -> None:
    async def main() -> None:
        settings = Settings(data_dir=tmp_path, bots=(), warm_up=False)
        clock = FakeClock()
        service = GameService(settings, Database(settings.database), clock=clock)
        await service.start()
        try:
            await body(service, clock)
        finally:
            await service.stop()

    asyncio.run(main())


def test_passwords_are_stored_only_as_argon2id_hashes(tmp_path: Path) -> None:
    async def body(service: GameService, _clock: FakeClock) -> None:
        await service.register("alice", PASSWORD)
        await service.register("bob", "another secret words")

    _run(tmp_path, body)
    database = tmp_path / "backgammon.sqlite3"
    with sqlite3.connect(database) as connection:
        hashes = [row[0] for row in connection.execute("SELECT password_hash FROM users")]
        stored_tokens = [row[0] for row in connection.execute("SELECT token_hash FROM tokens")]
    assert len(hashes) == 2 and all(h.startswith("$argon2id$") for h in hashes)
    assert all(len(token) == 64 for token in stored_tokens)
    raw = b"".join(path.read_bytes() for path in tmp_path.glob("backgammon.sqlite3*"))
    assert PASSWORD.encode() not in raw and b"another secret words" not in raw


def test_the_eleventh_wrong_password_in_a_row_is_refused(tmp_path: Path) -> None:
    async def body(service: GameService, clock: FakeClock) -> None:
        await service.register("carol", PASSWORD)
        for _ in range(10):
            with pytest.raises(ServiceError) as wrong:
                await service.login("carol", "not the password", "10.0.0.1")
            assert wrong.value.code == "unauthorized"
        with pytest.raises(ServiceError) as refused:
            await service.login("carol", PASSWORD, "10.0.0.2")
        assert refused.value.code == "throttled" and refused.value.status == 429
        # The same address is throttled for other accounts too.
        await service.register("dave", PASSWORD)
        with pytest.raises(ServiceError) as by_address:
            await service.login("dave", PASSWORD, "10.0.0.1")
        assert by_address.value.code == "throttled"
        clock.time += 61
        user, token = await service.login("carol", PASSWORD, "10.0.0.2")
        assert user.name == "carol" and await service.authenticate(token) == user

    _run(tmp_path, body)


async def _match(
    service: GameService, settings: MatchSettings, rated: bool = True
) -> tuple[Any, Any, str]:
    alice, _ = await service.register("alice", PASSWORD)
    bob, _ = await service.register("bob", PASSWORD)
    created = await service.create_match(alice, CreateMatch(settings=settings, rated=rated))
    await service.join_match(bob, created["id"])
    return alice, bob, created["id"]


def test_running_out_of_time_loses_the_match(tmp_path: Path) -> None:
    clock_settings = ClockSettings(delay=12, reserve_per_point=60)

    async def body(service: GameService, clock: FakeClock) -> None:
        alice, bob, match_id = await _match(service, MatchSettings(length=3, clock=clock_settings))
        state = await service.state(match_id)
        mover = (alice, bob)[state["waiting_for"]]
        assert state["clock"]["reserves"] == [180.0, 180.0]
        clock.time += 12 + 179  # one second of reserve left
        assert await service.check_clocks() == 0
        clock.time += 2
        assert await service.check_clocks() == 1
        final = await service.state(match_id)
        assert final["result"]["reason"] == "timeout"
        assert final["result"]["winner"] == 1 - state["waiting_for"]
        assert final["dice"]["seed"] is not None
        with pytest.raises(ServiceError) as over:
            await service.act(mover, match_id, ActionBody(kind="roll"))
        assert over.value.code == "over"

    _run(tmp_path, body)


def test_a_late_action_is_refused_and_ends_the_match(tmp_path: Path) -> None:
    async def body(service: GameService, clock: FakeClock) -> None:
        settings = MatchSettings(length=1, clock=ClockSettings(delay=5, reserve_per_point=10))
        alice, bob, match_id = await _match(service, settings)
        state = await service.state(match_id)
        mover = (alice, bob)[state["waiting_for"]]
        clock.time += 16
        move = state["game"]["legal_plays"][0]
        with pytest.raises(ServiceError) as late:
            await service.act(mover, match_id, ActionBody(kind="play", move=move))
        assert late.value.code == "time_up"
        assert (await service.state(match_id))["result"]["reason"] == "timeout"

    _run(tmp_path, body)


def test_chat_reaches_the_right_people(tmp_path: Path) -> None:
    async def body(service: GameService, _clock: FakeClock) -> None:
        alice, bob, match_id = await _match(service, MatchSettings(length=1))
        carl, _ = await service.register("carl", PASSWORD)
        dora, _ = await service.register("dora", PASSWORD)
        connections = {user.name: Connection(user) for user in (alice, bob, carl, dora)}
        for name, connection in connections.items():
            service.connect(connection)
            await service.subscribe(connection, match_id if name != "dora" else "lobby")
            while not connection.queue.empty():
                connection.queue.get_nowait()

        def heard(name: str) -> list[str]:
            lines = []
            queue = connections[name].queue
            while not queue.empty():
                message = queue.get_nowait()
                if message is not None and message["type"] == "chat":
                    lines.append(message["text"])
            return lines

        await service.chat(alice, match_id, "good luck")
        await service.chat(carl, match_id, "alice will win")
        await service.chat(dora, "lobby", "anyone for a game?")
        assert heard("alice") == ["good luck"]
        assert heard("bob") == ["good luck"]
        assert heard("carl") == ["good luck", "alice will win"]
        assert heard("dora") == ["anyone for a game?"]
        admin, _ = await service.register("admin", PASSWORD)
        with pytest.raises(ServiceError):
            await service.moderate(carl, "dora", "mute")
        from backgammon.server.db import repository

        async with service.db.transaction() as db:
            await repository.set_user_flags(db, admin.id, is_admin=True)
        admin = await service.user_named("admin")
        await service.moderate(admin, "carl", "mute")
        muted = await service.user_named("carl")
        with pytest.raises(ServiceError) as silenced:
            await service.chat(muted, match_id, "hello?")
        assert silenced.value.code == "forbidden"
        await service.moderate(admin, "dora", "ban")
        assert connections["dora"].closed
        with pytest.raises(ServiceError) as banned:
            await service.login("dora", PASSWORD, "10.1.1.1")
        assert banned.value.code == "forbidden"

    _run(tmp_path, body)


def test_rematch_invites_the_same_opponent_with_the_same_settings(tmp_path: Path) -> None:
    async def body(service: GameService, _clock: FakeClock) -> None:
        alice, bob, match_id = await _match(service, MatchSettings(length=1, clock=None))
        state = await service.state(match_id)
        loser = (alice, bob)[state["waiting_for"]]
        await service.act(loser, match_id, ActionBody(kind="leave"))
        final = await service.state(match_id)
        assert final["result"]["reason"] == "left"
        assert final["result"]["winner"] == 1 - state["waiting_for"]
        again = await service.rematch(alice, match_id)
        assert again["status"] == "open" and again["players"] == ["alice", None]
        assert again["settings"]["length"] == 1 and again["rematch_of"] == match_id
        joined = await service.join_match(bob, again["id"])
        assert joined["status"] == "playing"
        with pytest.raises(ServiceError):
            await service.join_match(bob, again["id"])

    _run(tmp_path, body)


def test_an_abandoned_untimed_match_is_adjudicated(tmp_path: Path) -> None:
    async def body(service: GameService, clock: FakeClock) -> None:
        _alice, _bob, match_id = await _match(service, MatchSettings(length=3, clock=None))
        state = await service.state(match_id)
        assert state["clock"] is None
        clock.time += service.settings.abandon_after - 1
        assert await service.check_clocks() == 0
        clock.time += 2
        assert await service.check_clocks() == 1
        final = await service.state(match_id)
        assert final["result"]["reason"] == "adjudicated"
        assert final["result"]["winner"] == 1 - state["waiting_for"]

    _run(tmp_path, body)


def test_administrators_named_in_the_settings(tmp_path: Path) -> None:
    async def register(service: GameService, _clock: FakeClock) -> None:
        await service.register("rootie", PASSWORD)
        with pytest.raises(ServiceError):
            await service.moderate(await service.user_named("rootie"), "rootie", "mute")

    _run(tmp_path, register)

    async def main() -> None:
        settings = Settings(data_dir=tmp_path, bots=(), warm_up=False, admins=("rootie",))
        service = GameService(settings, Database(settings.database), clock=FakeClock())
        await service.start()
        try:
            admin = await service.user_named("rootie")
            assert admin.is_admin
            await service.register("noisy", PASSWORD)
            await service.moderate(admin, "noisy", "mute")
            assert (await service.user_named("noisy")).muted
        finally:
            await service.stop()

    asyncio.run(main())


def test_a_spectator_who_subscribes_as_the_invitation_is_accepted_sees_the_started_match(
    tmp_path: Path,
) -> None:
    """A spectator's subscription to an open invitation (and a page's read of it)
    races the invitee's accept, which lands at many points of the subscription.
    Whatever the order, the last state the spectator hears is the started match as
    logged (its opening throw drawn), and the service's own copy of the match agrees
    with the log."""
    from backgammon.server.db import repository

    async def body(service: GameService, _clock: FakeClock) -> None:
        alice, _ = await service.register("alice", PASSWORD)
        bob, _ = await service.register("bob", PASSWORD)
        carl, _ = await service.register("carl", PASSWORD)
        ann, _ = await service.register("ann", PASSWORD)
        for steps in range(30):
            request = CreateMatch(settings=MatchSettings(length=1), opponent="bob")
            # Two hosts: one user may be in 20 unfinished matches (MAX_OPEN_MATCHES).
            host = (alice, ann)[steps % 2]
            match_id = (await service.create_match(host, request))["id"]
            watcher = Connection(carl)
            service.connect(watcher)
            # A page's read of the match (GET /api/matches/ID) races the accept too.
            reading = asyncio.create_task(service.state(match_id))
            subscribing = asyncio.create_task(service.subscribe(watcher, match_id))
            for _ in range(steps):
                await asyncio.sleep(0)
            await service.join_match(bob, match_id)
            await asyncio.gather(reading, subscribing)
            heard = []
            while not watcher.queue.empty():
                message = watcher.queue.get_nowait()
                if message is not None and message["type"] == "state":
                    heard.append(message["state"])
            async with service.db.transaction() as db:
                logged = len(await repository.match_entries(db, match_id))
            seqs = ["open" if "open" in state else state["seq"] for state in heard]
            assert logged > 0 and heard[-1].get("seq") == logged, (steps, seqs, logged)
            assert heard[-1]["game"] is not None, (steps, seqs)
            assert (await service.state(match_id))["seq"] == logged, (steps, seqs)
            service.disconnect(watcher)

    _run(tmp_path, body)


def test_actions_on_matches_that_do_not_exist_leave_no_lock_behind(tmp_path: Path) -> None:
    async def body(service: GameService, _clock: FakeClock) -> None:
        user, _ = await service.register("alice", PASSWORD)
        for number in range(50):
            with pytest.raises(ServiceError) as refused:
                await service.act(user, f"no-such-match-{number}", ActionBody(kind="roll"))
            assert refused.value.code == "not_found"
        assert len(service._locks) == 0

    _run(tmp_path, body)
