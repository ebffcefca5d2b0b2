"""The club features under attack (issue 50): tournaments and chouettes driven as an
attacker would, over HTTP and WebSockets against one real ``backgammon serve`` per
database (its bots on, ``root`` an administrator). Each test checks that the server's
``/healthz`` answered within a second throughout, and that the state stayed right."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from backgammon.server.client import ClientError, ServerClient
from backgammon.server.tournaments.arena import new_arena_state
from backgammon.tournaments import Entrant, Pairing, Round, Swiss

from .conftest import BACKENDS, POSTGRESQL, ServerProcess, new_postgresql_database
from .health import healthy_throughout

# A server process of its own (a module fixture); rates and latencies measured on the
# clock, so nothing else runs meanwhile.
pytestmark = [pytest.mark.slow, pytest.mark.alone]

PASSWORD = "a long enough password"


@pytest.fixture(scope="module", params=BACKENDS)
def club(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One server for the whole file (on SQLite, then on PostgreSQL): bots on,
    ``root`` an administrator."""
    if request.param == "postgresql" and not POSTGRESQL:
        pytest.skip("no PostgreSQL server (set BACKGAMMON_TEST_POSTGRESQL; .ci/run does)")
    database = new_postgresql_database() if request.param == "postgresql" else ""
    data = tmp_path_factory.mktemp("club")
    server = ServerProcess(data, database, "--no-warm-up", "--bot-processes", "1")
    server.extra = (*server.extra, "--admin", "root")
    server.start()
    body = {"name": "root", "password": PASSWORD}
    assert httpx.post(f"{server.url}/api/register", json=body).status_code == 201
    server.stop()  # root is made an administrator when it starts again
    server.start()
    yield server
    server.stop()


async def _person(server: Any, name: str, connect: bool = True) -> ServerClient:
    client = ServerClient(server.url)
    await client.register(name, PASSWORD)
    if connect:
        await client.connect()
    return client


async def _sql(server: Any, statement: str, *values: Any) -> None:
    """Run one statement on the server's database (``?`` for each value): the
    tests' way to build in a moment what an attacker would take hours to."""
    if server.database:
        import asyncpg

        parts = statement.split("?")
        statement = "".join(f"{part}${i + 1}" for i, part in enumerate(parts[:-1])) + parts[-1]
        connection = await asyncpg.connect(server.database)
        try:
            await connection.execute(statement, *values)
        finally:
            await connection.close()
    else:
        import sqlite3

        with sqlite3.connect(Path(server.data) / "backgammon.sqlite3", timeout=30) as database:
            database.execute(statement, values)


def _played_swiss(players: int, rounds: int) -> dict[str, Any]:
    """The record of a Swiss played to the end (winners drawn at random)."""
    event = Swiss([Entrant(f"p{i}", 1500.0 + i) for i in range(players)], rounds=rounds, seed=1)
    draw = random.Random(1)
    while (pending := event.next_round()) is not None:
        played = [
            p if p.is_bye else p.won_by(str(p.players[draw.randrange(2)])) for p in pending.pairings
        ]
        event.record(Round(pending.number, tuple(played)))
    return event.to_json()


def _long_arena(games: int, now: float) -> dict[str, Any]:
    """A running arena's stored state with ``games`` games played (16 players, in
    pairs that alternate; its time ends in a day)."""
    names = [f"a{i}" for i in range(16)]
    state = new_arena_state([Entrant(name, 1500.0) for name in names], 86_400, 1, now).to_json()
    draw = random.Random(2)
    for number in range(games):
        shift = number // 8 % 2
        first, second = names[(2 * number + shift) % 16], names[(2 * number + shift + 1) % 16]
        pairing = Pairing((first, second), (first, second)[draw.randrange(2)])
        started = number / 8.0
        state["arena"]["games"].append(
            {"pairing": pairing.to_json(), "started": started, "ended": started + 0.05}
        )
        state["paired"].append([first, second])
    return state


# -- 6: what a view and the ticker cost --------------------------------------------------


def test_a_big_finished_tournament_and_long_arenas_do_not_stall_the_server(club: Any) -> None:
    """A finished 256-player, 20-round Swiss polled by many pages at once, while eight
    arenas with 15,000 games each are running: the views are computed once, the
    ticker does not parse the arenas every second."""

    async def main() -> None:
        organiser = await _person(club, "olga6")
        cup = await organiser.request(
            "POST", "/api/tournaments", {"name": "Big Swiss", "format": "swiss"}
        )
        record = _played_swiss(256, 20)
        await _sql(
            club,
            "UPDATE tournaments SET status = 'finished', state = ? WHERE id = ?",
            json.dumps(record),
            cup["id"],
        )
        arena = json.dumps(_long_arena(15_000, time.time()))
        arenas = []
        second = await _person(club, "oscar6", connect=False)  # 5 live events each at most
        for number in range(8):
            created = await (organiser, second)[number % 2].request(
                "POST", "/api/tournaments", {"name": f"Arena {number}", "format": "arena"}
            )
            arenas.append(created["id"])
            await _sql(
                club,
                "UPDATE tournaments SET status = 'running', state = ? WHERE id = ?",
                arena,
                created["id"],
            )
        path = f"/api/tournaments/{cup['id']}"

        async def poll(times: int) -> list[Any]:
            async with httpx.AsyncClient(base_url=club.url, timeout=60) as client:
                return [(await client.get(path)).json() for _ in range(times)]

        try:
            async with healthy_throughout(club.url):
                began = time.monotonic()
                views = await asyncio.gather(*(poll(4) for _ in range(8)))
                took = time.monotonic() - began
                await asyncio.sleep(3)  # the ticker's turns with the arenas running
                shown = await organiser.request("GET", f"/api/tournaments/{arenas[0]}")
        finally:
            for tournament_id in arenas:
                await _sql(
                    club, "UPDATE tournaments SET status = 'finished' WHERE id = ?", tournament_id
                )
        first = views[0][0]
        assert first["status"] == "finished" and len(first["standings"]) == 256
        assert len(first["rounds"]) == 20
        assert all(view == first for answers in views for view in answers)
        assert took < 10, f"32 views took {took:.1f} s"
        assert shown["status"] == "running" and len(shown["games"]) == 15_000
        for client in (organiser, second):
            await client.close()

    asyncio.run(main())


# -- 8: a muted user's names, and the administrator's closings -------------------------


async def _refused(call: Any, status: int, words: str) -> None:
    with pytest.raises(ClientError) as refused:
        await call
    assert refused.value.status == status and words in refused.value.message, refused.value


def test_a_muted_user_cannot_publish_names_and_an_administrator_closes_tables_and_events(
    club: Any,
) -> None:
    """A muted user opens a chouette table and a tournament named as adverts (both
    listed to everyone): refused, nothing listed. An administrator closes a table and
    cancels a tournament; their people are told; nobody else may."""

    async def main() -> None:
        root = ServerClient(club.url)
        await root.login("root", PASSWORD)
        mona, nick, pia = [await _person(club, name) for name in ("mona8", "nick8", "pia8")]
        await root.request("POST", "/api/admin/users/mona8/mute")
        await mona.wait_for(lambda m: m["type"] == "moderation", timeout=10)
        advert = "FREE CHIPS at evil.example"
        async with healthy_throughout(club.url):
            await _refused(mona.request("POST", "/api/chouettes", {"name": advert}), 403, "muted")
            body = {"name": advert, "format": "swiss"}
            await _refused(mona.request("POST", "/api/tournaments", body), 403, "muted")
            await _refused(
                nick.request("POST", "/api/chouettes", {"name": "Evil\u202eelbat"}), 400, "name"
            )
            tables = await nick.request("GET", "/api/chouettes")
            events = await nick.request("GET", "/api/tournaments")
            assert advert not in [t["name"] for t in tables["tables"]]
            assert advert not in [t["name"] for t in events["tournaments"]]
            # The administrator's closing of a table, told to the people seated.
            table = await nick.request("POST", "/api/chouettes", {"name": "Nick's table"})
            await pia.request("POST", f"/api/chouettes/{table['id']}/sit")
            close = f"/api/admin/chouettes/{table['id']}/close"
            await _refused(nick.request("POST", close), 403, "administrators")
            closed = await root.request("POST", close)
            assert closed["status"] == "closed"
            for client in (nick, pia):
                told = await client.wait_for(
                    lambda m: m["type"] == "moderation" and m.get("table") == table["id"],
                    timeout=10,
                )
                assert "closed" in told["message"]
            await _refused(root.request("POST", close), 409, "closed")
            await _refused(mona.request("POST", f"/api/chouettes/{table['id']}/sit"), 409, "")
            # The administrator's cancelling of a tournament, told to its players.
            cup = await nick.request("POST", "/api/tournaments", {"name": "Cup", "format": "swiss"})
            path = f"/api/tournaments/{cup['id']}"
            await pia.request("POST", f"{path}/register")
            cancel = f"/api/admin/tournaments/{cup['id']}/cancel"
            await _refused(nick.request("POST", cancel), 403, "administrators")
            cancelled = await root.request("POST", cancel)
            assert cancelled["status"] == "cancelled"
            for client in (nick, pia):
                told = await client.wait_for(
                    lambda m: m["type"] == "moderation" and m.get("tournament") == cup["id"],
                    timeout=10,
                )
                assert "cancelled" in told["message"]
            await _refused(nick.request("POST", f"{path}/start"), 409, "not open")
            await _refused(mona.request("POST", f"{path}/register"), 409, "")
            assert (await mona.request("GET", path))["status"] == "cancelled"
        for client in (root, mona, nick, pia):
            await client.close()

    asyncio.run(main())


# -- 12: places, absentees, clocks and numbered bots --------------------------------------


async def _resign_when_on_roll(client: ServerClient, match_id: str, name: str) -> None:
    """Resign a backgammon (which any opponent accepts) at ``name``'s first turn (after
    giving a dice nonce: a tournament match starts once its people have)."""
    await client.give_nonce(match_id, f"{name}-nonce")
    snapshot = await client.subscribe(match_id)
    seat = snapshot["state"]["players"].index(name)
    await client.wait_for(
        lambda m: (
            m["type"] == "state" and m["match"] == match_id and m["state"]["waiting_for"] == seat
        ),
        timeout=60,
    )
    answer = await client.act(match_id, "resign", level=3)
    assert answer["type"] == "ack", answer


def _rating(profile: dict[str, Any]) -> tuple[float, int]:
    standard = profile["ratings"].get("standard") or {"rating": 1500.0, "experience": 0}
    return float(standard["rating"]), int(standard["experience"])


def test_guests_absentees_short_clocks_and_numbered_bots_do_not_game_ratings(club: Any) -> None:
    """A guest squats a place; the organiser cannot withdraw a person; a rated event
    with a 1-second clock is started at once on a registered player who is not there;
    a numbered bot is a fresh 1500-rated account to beat. None of it works: guests
    do not enter, the organiser withdraws anyone before the start, a rated event's
    clock has 30 s a point at least, an absentee is withdrawn at the start, and a
    numbered bot plays on its level's rating."""

    async def main() -> None:
        tina, uma = await _person(club, "tina12"), await _person(club, "uma12")
        vic = await _person(club, "vic12", connect=False)  # registered, then away
        guest = ServerClient(club.url)
        await guest.guest()
        short = {"delay_seconds": 0, "reserve_per_point_seconds": 1}
        one_point = {"format": "swiss", "rounds": 1, "early_length": 1}
        async with healthy_throughout(club.url):
            body = {"name": "Quick", "clock": short, **one_point}
            await _refused(tina.request("POST", "/api/tournaments", body), 422, "clock")
            cup = await tina.request("POST", "/api/tournaments", {"name": "Cup", **one_point})
            path = f"/api/tournaments/{cup['id']}"
            await _refused(guest.request("POST", f"{path}/register"), 403, "account")
            for client in (tina, uma, vic):
                await client.request("POST", f"{path}/register")
            await tina.request("POST", f"{path}/withdraw?name=uma12")
            told = await uma.wait_for(lambda m: m.get("tournament") == cup["id"], timeout=10)
            assert "withdrew" in told["message"]
            await _refused(uma.request("POST", f"{path}/withdraw?name=tina12"), 403, "only")
            await uma.request("POST", f"{path}/register")
            started = await tina.request("POST", f"{path}/start")
            assert started["status"] == "running"
            assert [p["name"] for p in started["players"]] == ["tina12", "uma12"]
            (pairing,) = started["rounds"][0]["pairings"]
            assert sorted(pairing["players"]) == ["tina12", "uma12"]
            assert _rating(await vic.request("GET", "/api/users/vic12")) == (1500.0, 0)
            # A numbered bot plays on its level's rating.
            level = await tina.request("GET", "/api/users/bot_beginner")
            bots = await tina.request("POST", "/api/tournaments", {"name": "Bots", **one_point})
            path = f"/api/tournaments/{bots['id']}"
            await tina.request("POST", f"{path}/register")
            await tina.request("POST", f"{path}/bots", {"level": "beginner"})
            started = await tina.request("POST", f"{path}/start")
            match_id = started["rounds"][0]["pairings"][0]["match"]
            await _resign_when_on_roll(tina, match_id, "tina12")
            deadline = time.monotonic() + 60
            while (await tina.request("GET", path))["status"] != "finished":
                assert time.monotonic() < deadline, "the bots' event did not finish"
                await asyncio.sleep(0.25)
            numbered = await tina.request("GET", "/api/users/bot_beginner_1")
            assert _rating(numbered) == (1500.0, 0), numbered
            after = await tina.request("GET", "/api/users/bot_beginner")
            assert _rating(after)[1] == _rating(level)[1] + 1
            assert _rating(after)[0] > _rating(level)[0]
        for client in (tina, uma, vic, guest):
            await client.close()

    asyncio.run(main())
