"""Accounts under attack: login throttling, sign-up limits, case-insensitive names,
cookies and cross-site requests, password hashing cost (docs/security.md).

The HTTP tests drive a real ``backgammon serve`` (uvicorn) on loopback with parallel
requests, on SQLite and on PostgreSQL where ``BACKGAMMON_TEST_POSTGRESQL`` is set.
Clients are told apart by ``X-Forwarded-For``, which uvicorn honours from loopback
(its default ``--forwarded-allow-ips``), as it does from nginx when told to.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, select

from backgammon.server.accounts.passwords import (
    PasswordWorkers,
    PasswordWorkersBusyError,
    hash_password,
    verify_password,
)
from backgammon.server.db import tables
from backgammon.server.db.database import Database
from backgammon.server.service import GameService, ServiceError
from backgammon.server.settings import Settings

PASSWORD = "a long enough password"
QUIET = ("--no-warm-up", "--no-bots", "--bot-processes", "0")


def _from(address: str) -> dict[str, str]:
    return {"x-forwarded-for": address}


async def _post(
    client: httpx.AsyncClient, path: str, body: Any = None, **headers: str
) -> httpx.Response:
    return await client.post(path, json=body, headers=headers)


# -- login throttling over HTTP -------------------------------------------------------


@pytest.mark.alone  # the budget refills with time: the 40 requests must arrive together
def test_forty_parallel_wrong_passwords_are_counted_before_any_is_checked(
    server_factory: Any,
) -> None:
    """Strangers at 40 addresses try 40 passwords at once: only the account's free
    budget is checked, the rest refused unchecked; the owner, at the address it
    registered from, still logs in at once (the waits themselves are tested with a
    clock below)."""
    server = server_factory(*QUIET)

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            owner = _from("10.0.0.1")
            made = await http.post(
                "/api/register", json={"name": "alice", "password": PASSWORD}, headers=owner
            )
            assert made.status_code == 201
            answers = await asyncio.gather(
                *(
                    http.post(
                        "/api/login",
                        json={"name": "alice", "password": f"guess number {i}"},
                        headers=_from(f"10.6.6.{i}"),
                    )
                    for i in range(40)
                )
            )
            statuses = Counter(answer.status_code for answer in answers)
            assert statuses[401] == 10 and statuses[429] == 30, [
                (a.status_code, a.text) for a in answers
            ]
            refused = next(answer for answer in answers if answer.status_code == 429)
            assert refused.json()["error"] == "throttled"
            assert int(refused.headers["retry-after"]) >= 1
            # The owner is not locked out by strangers ...
            back = await http.post(
                "/api/login", json={"name": "alice", "password": PASSWORD}, headers=owner
            )
            assert back.status_code == 200, back.text

    asyncio.run(scenario())


def test_one_address_spraying_many_accounts_is_slowed_down(server_factory: Any) -> None:
    server = server_factory(*QUIET)

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            answers = await asyncio.gather(
                *(
                    http.post(
                        "/api/login",
                        json={"name": f"victim{i}", "password": PASSWORD},
                        headers=_from("10.6.6.6"),
                    )
                    for i in range(25)
                )
            )
            statuses = Counter(answer.status_code for answer in answers)
            assert statuses == {401: 10, 429: 15}, statuses
            # Another client is not held back by that address's failures.
            other = await http.post(
                "/api/login",
                json={"name": "victim99", "password": PASSWORD},
                headers=_from("10.5.5.5"),
            )
            assert other.status_code == 401

    asyncio.run(scenario())


def test_forwarded_addresses_count_only_from_trusted_proxies(server_factory: Any) -> None:
    """With ``--forwarded-allow-ips`` naming another proxy, ``X-Forwarded-For`` from
    loopback is ignored: every request is loopback's, one budget."""
    server = server_factory(*QUIET, "--forwarded-allow-ips", "10.9.9.9")

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            statuses = []
            for i in range(11):
                answer = await http.post(
                    "/api/login",
                    json={"name": f"someone{i}", "password": PASSWORD},
                    headers=_from(f"10.8.8.{i}"),
                )
                statuses.append(answer.status_code)
            assert statuses == [401] * 10 + [429]

    asyncio.run(scenario())


# -- sign-ups ---------------------------------------------------------------------


def test_registrations_and_guests_are_limited_per_address(server_factory: Any) -> None:
    server = server_factory(*QUIET, "--signups-per-hour", "3")

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            burst = await asyncio.gather(
                *(http.post("/api/guest", headers=_from("10.1.1.1")) for _ in range(10))
            )
            assert Counter(answer.status_code for answer in burst) == {201: 3, 429: 7}
            again = await http.post(
                "/api/register",
                json={"name": "mallory", "password": PASSWORD},
                headers=_from("10.1.1.1"),
            )
            assert again.status_code == 429 and again.json()["error"] == "throttled"
            elsewhere = await http.post(
                "/api/register",
                json={"name": "mallory", "password": PASSWORD},
                headers=_from("10.1.1.2"),
            )
            assert elsewhere.status_code == 201

    asyncio.run(scenario())


# -- names ------------------------------------------------------------------------


def test_racing_registrations_differing_in_case_make_one_account(server_factory: Any) -> None:
    server = server_factory(*QUIET)
    spellings = ["Alice", "alice", "ALICE", "aLice", "alIce", "aliCe", "alicE", "ALice"]

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            answers = await asyncio.gather(
                *(
                    http.post(
                        "/api/register",
                        json={"name": name, "password": PASSWORD},
                        headers=_from(f"10.2.2.{i}"),
                    )
                    for i, name in enumerate(spellings)
                )
            )
            statuses = Counter(answer.status_code for answer in answers)
            assert statuses == {201: 1, 409: 7}, [answer.text for answer in answers]
            for answer in answers:
                if answer.status_code == 409:
                    assert answer.json()["error"] == "conflict"
                    assert "is taken" in answer.json()["message"]

    asyncio.run(scenario())


# -- cookies and cross-site requests ----------------------------------------------


def test_secure_cookies_when_asked(server_factory: Any) -> None:
    plain = server_factory(*QUIET)
    secure = server_factory(*QUIET, "--secure-cookies")
    cookies = []
    for server in (plain, secure):
        answer = httpx.post(server.url + "/api/guest", timeout=30)
        assert answer.status_code == 201
        cookies.append(answer.headers["set-cookie"].lower())
    assert "secure" not in cookies[0].split("; ")
    assert "secure" in cookies[1].split("; ") and "httponly" in cookies[1]


def test_cross_site_posts_with_the_cookie_are_refused(server_factory: Any) -> None:
    server = server_factory(*QUIET)
    own = server.url
    with httpx.Client(base_url=server.url, timeout=30) as http:
        session = http.post("/api/guest")
        assert session.status_code == 201
        token = session.json()["token"]
        match = http.post("/api/matches", json={"rated": False}, headers={"origin": own})
        assert match.status_code == 201, match.text
        # A page on another site makes the browser POST with the cookie: refused.
        for headers in (
            {"origin": "https://evil.example"},
            {"origin": "null"},
            {"sec-fetch-site": "cross-site"},
        ):
            forged = http.post("/api/logout", headers=headers)
            assert forged.status_code == 403, headers
            assert forged.json()["error"] == "forbidden"
            assert "cross-site" in forged.json()["message"]
        still = http.get("/api/me")
        assert still.status_code == 200  # the forged logout changed nothing
        # A program with a bearer token is not a browser page: unaffected.
        http.cookies.clear()
        bearer = http.post(
            "/api/matches",
            json={"rated": False},
            headers={"authorization": f"Bearer {token}", "origin": "https://evil.example"},
        )
        assert bearer.status_code == 201
        # The site's own page logs out.
        http.cookies.set("bg_session", token)
        out = http.post("/api/logout", headers={"origin": own, "sec-fetch-site": "same-origin"})
        assert out.status_code == 200
        assert http.get("/api/me", headers={"authorization": f"Bearer {token}"}).status_code == 401


# -- the service in-process, with a clock that moves only when told ----------------


class FakeClock:
    """Time that moves only when told."""

    def __init__(self) -> None:
        self.time = 1_000_000.0

    def now(self) -> float:
        return self.time


def _service_run(tmp_path: Path, body: Any, **settings: Any) -> None:
    async def main() -> None:
        made = Settings(data_dir=tmp_path, bots=(), warm_up=False, **settings)
        clock = FakeClock()
        service = GameService(made, Database(made.database), clock=clock)
        await service.start()
        try:
            await body(service, clock)
        finally:
            await service.stop()

    asyncio.run(main())


async def _refused(call: Any) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        await call
    return refused.value


def test_a_password_check_without_a_session_stores_no_token(tmp_path: Path) -> None:
    """FIBS logins (``check_login``) open no web session: no token row is written,
    while ``login`` writes one; a wrong password is refused the same way."""

    async def tokens(service: GameService) -> int:
        async with service.db.transaction() as connection:
            return int(await connection.scalar(select(func.count()).select_from(tables.tokens)))

    async def body(service: GameService, _clock: FakeClock) -> None:
        await service.register("alice", PASSWORD, address="10.0.0.1")
        before = await tokens(service)
        user = await service.check_login("alice", PASSWORD, "10.0.0.1")
        assert user.name == "alice" and await tokens(service) == before
        wrong = await _refused(service.check_login("alice", "not the password", "10.0.0.1"))
        assert wrong.code == "unauthorized" and await tokens(service) == before
        await service.login("alice", PASSWORD, "10.0.0.1")
        assert await tokens(service) == before + 1

    _service_run(tmp_path, body)


def test_waits_double_per_address_and_per_account_and_are_forgiven(tmp_path: Path) -> None:
    async def body(service: GameService, clock: FakeClock) -> None:
        await service.register("alice", PASSWORD, address="10.0.0.1")
        for _ in range(10):
            wrong = await _refused(service.login("alice", "not the password", "10.6.6.6"))
            assert wrong.code == "unauthorized"
        # That address must now wait, whatever it tries ...
        held = await _refused(service.login("bob", PASSWORD, "10.6.6.6"))
        assert (held.code, held.status, held.retry_after) == ("throttled", 429, 1)
        assert "from your address" in held.message
        # ... the owner, at an address it used before, is not held back ...
        user, _ = await service.login("alice", PASSWORD, "10.0.0.1")
        assert user.name == "alice"
        # ... while a new address must wait to try this account, right password or not.
        new = await _refused(service.login("ALICE", PASSWORD, "10.7.7.7"))
        assert new.code == "throttled" and "to this account" in new.message
        clock.time += 1
        wrong = await _refused(service.login("alice", "still wrong", "10.7.7.7"))
        assert wrong.code == "unauthorized"
        doubled = await _refused(service.login("alice", PASSWORD, "10.7.7.8"))
        assert doubled.retry_after == 2
        clock.time += 2
        assert (await _refused(service.login("alice", "wrong", "10.7.7.9"))).code == "unauthorized"
        assert (await _refused(service.login("alice", PASSWORD, "10.7.7.9"))).retry_after == 4
        # One failure is forgiven every 10 minutes: after two hours all is forgotten.
        clock.time += 2 * 3600
        user, _ = await service.login("alice", PASSWORD, "10.7.7.7")
        assert user.name == "alice"
        user, _ = await service.login("alice", PASSWORD, "10.6.6.6")
        assert user.name == "alice"

    _service_run(tmp_path, body)


def test_ipv6_clients_are_counted_by_their_64_network(tmp_path: Path) -> None:
    async def body(service: GameService, _clock: FakeClock) -> None:
        for i in range(10):
            await _refused(service.login(f"nobody{i}", PASSWORD, f"2001:db8:1:2::{i + 1:x}"))
        held = await _refused(service.login("nobody", PASSWORD, "2001:db8:1:2:ffff::1"))
        assert held.code == "throttled"
        other = await _refused(service.login("nobody", PASSWORD, "2001:db8:1:3::1"))
        assert other.code == "unauthorized"

    _service_run(tmp_path, body)


def test_old_hashes_verify_and_are_rehashed_at_login(tmp_path: Path) -> None:
    from backgammon.server.db import repository

    old = PasswordHasher().hash(PASSWORD)  # argon2-cffi's default: m=65536, t=3, p=4
    assert "m=65536,t=3,p=4" in old

    async def body(service: GameService, _clock: FakeClock) -> None:
        async with service.db.transaction() as connection:
            await repository.create_user(connection, "olduser", old, "human", 1.0)
        user, _ = await service.login("olduser", PASSWORD, "10.0.0.1")
        assert user.name == "olduser"
        await service.register("newuser", PASSWORD)

    _service_run(tmp_path, body)
    with sqlite3.connect(tmp_path / "backgammon.sqlite3") as connection:
        hashes = dict(connection.execute("SELECT name, password_hash FROM users"))
    assert hashes["olduser"] != old
    for hashed in hashes.values():
        assert hashed.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
        assert verify_password(hashed, PASSWORD)
    assert hash_password(PASSWORD).startswith("$argon2id$v=19$m=19456,t=2,p=1$")


def test_password_workers_are_bounded_and_first_come_first_served() -> None:
    async def main() -> None:
        workers = PasswordWorkers(threads=1, queue=2)
        release = threading.Event()
        order: list[int] = []

        def job(number: int) -> int:
            release.wait(10)
            order.append(number)
            return number

        async def admitted(number: int) -> int:
            with workers.admit():
                return await workers.run(job, number)

        tasks = [asyncio.create_task(admitted(number)) for number in range(3)]
        await asyncio.sleep(0)
        with pytest.raises(PasswordWorkersBusyError), workers.admit():
            pass
        release.set()
        assert await asyncio.gather(*tasks) == [0, 1, 2]
        assert order == [0, 1, 2]
        with workers.admit():  # places are free again
            assert await workers.run(job, 3) == 3
        workers.close()

    asyncio.run(main())


def test_a_login_storm_beyond_the_queue_is_told_to_come_back(tmp_path: Path) -> None:
    async def body(service: GameService, _clock: FakeClock) -> None:
        await service.register("alice", PASSWORD, address="10.0.0.1")
        results = await asyncio.gather(
            *(service.login("alice", PASSWORD, "10.0.0.1") for _ in range(12)),
            return_exceptions=True,
        )
        busy = [r for r in results if isinstance(r, ServiceError)]
        assert len(busy) == 9 and {(e.code, e.status) for e in busy} == {("busy", 503)}
        assert all(e.retry_after for e in busy) and "try again" in busy[0].message
        assert sum(not isinstance(r, BaseException) for r in results) == 3
        # Refused unchecked, they counted nothing: the owner logs in again at once.
        user, _ = await service.login("alice", PASSWORD, "10.0.0.1")
        assert user.name == "alice"

    _service_run(tmp_path, body, password_threads=1, password_queue=2)


def test_names_differing_only_in_case_cannot_both_be_stored(tmp_path: Path) -> None:
    from sqlalchemy.exc import IntegrityError

    from backgammon.server.db import repository

    async def body(service: GameService, _clock: FakeClock) -> None:
        async with service.db.transaction() as connection:
            await repository.create_user(connection, "Bob", None, "human", 1.0)
        with pytest.raises(IntegrityError):
            async with service.db.transaction() as connection:
                await repository.create_user(connection, "bOB", None, "human", 1.0)
        taken = await _refused(service.register("BOB", PASSWORD))
        assert (taken.code, taken.status, taken.message) == (
            "conflict",
            409,
            "the name 'BOB' is taken",
        )

    _service_run(tmp_path, body)


def test_the_migration_renames_names_that_clash_in_case(tmp_path: Path) -> None:
    from backgammon.server.db.database import upgrade

    path = tmp_path / "old.sqlite3"
    upgrade(f"sqlite+aiosqlite:///{path}", "0001")
    with sqlite3.connect(path) as connection:
        for name in ("Alice", "alice", "bob"):
            connection.execute(
                "INSERT INTO users (name, kind, is_admin, muted, banned, created_at) "
                "VALUES (?, 'human', 0, 0, 0, 1.0)",
                (name,),
            )
    upgrade(f"sqlite+aiosqlite:///{path}")
    with sqlite3.connect(path) as connection:
        names = [row[0] for row in connection.execute("SELECT name FROM users ORDER BY id")]
    assert names == ["Alice", "alice_2", "bob"]
