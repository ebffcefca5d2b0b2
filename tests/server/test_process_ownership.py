"""Live things on several ``backgammon serve`` processes on one PostgreSQL database
(issue 53, item 1): tournaments, bots' matches and chouette tables.

Each process ticks (starts the events whose time has come, brings running arenas up
to date) and advances an event when one of its matches ends there; the event's steps
take turns across the processes (an advisory lock, ``server/db/locks.py``), so each
is done once. Before, the process that lost the race to start a due event found it
running and cancelled it.

When a process dies, one of the others takes over its work (its matches' clocks and
bots, its tables' bots, its events' steps): before, a Swiss of bots whose process
was killed never finished, and a bot about to throw at a chouette table never did.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import asyncpg
import pytest

from backgammon.server.client import ServerClient

from .conftest import POSTGRESQL, ServerProcess
from .test_chouettes import _act, _choose, _latest, _people, _play, _table, _watch
from .test_tournaments import _enter, _play_pairings, _until_finished

pytestmark = [pytest.mark.slow, pytest.mark.postgresql]

OPTIONS = ("--no-warm-up", "--bot-processes", "1")
ONE_POINT = {"early_length": 1, "semi_final_length": 1, "final_length": 1}
PASSWORD = "a long enough password"


@pytest.fixture
def backend() -> str:
    """PostgreSQL only: several processes share one database only there."""
    if not POSTGRESQL:
        pytest.skip("no PostgreSQL server (set BACKGAMMON_TEST_POSTGRESQL; .ci/run does)")
    return "postgresql"


async def _organiser(url: str, name: str) -> ServerClient:
    client = ServerClient(url)
    await client.register(name, PASSWORD)
    return client


async def _event(organiser: ServerClient, body: dict[str, Any], bots: int) -> str:
    """A tournament of ``bots`` beginner bots, created by ``organiser``; its id."""
    created = await organiser.request("POST", "/api/tournaments", {**ONE_POINT, **body})
    for _ in range(bots):
        path = f"/api/tournaments/{created['id']}/bots"
        await organiser.request("POST", path, {"level": "beginner"})
    return str(created["id"])


async def _ended(client: ServerClient, tournament_id: str, timeout: float) -> dict[str, Any]:
    """The tournament's view once it is over (finished or cancelled)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = await client.request("GET", f"/api/tournaments/{tournament_id}")
        if view["status"] in ("finished", "cancelled"):
            return dict(view)
        await asyncio.sleep(0.25)
    raise TimeoutError(f"tournament {tournament_id} did not end: {view['status']}")


async def _stored(database: str) -> tuple[dict[str, int], int]:
    """Each tournament's stored pairings (matches linked), and all matches stored."""
    connection = await asyncpg.connect(database)
    try:
        links = await connection.fetch(
            "SELECT tournament_id, count(*) AS n FROM tournament_matches GROUP BY tournament_id"
        )
        matches = await connection.fetchval("SELECT count(*) FROM matches")
    finally:
        await connection.close()
    return {row["tournament_id"]: int(row["n"]) for row in links}, int(matches)


def _errors(server: ServerProcess) -> list[str]:
    """The error lines of the log the processes share (one data folder, one log)."""
    log = server.log.read_text(encoding="utf-8", errors="replace")
    return [line for line in log.splitlines() if "ERROR" in line or "Traceback" in line]


def test_due_swisses_and_an_arena_run_once_on_two_processes(server_factory: Any) -> None:
    """Three Swisses of four bots due at the same second, on two processes that both
    tick: each starts once and plays its two rounds of two matches to the end (none
    cancelled by the process that lost the start); an arena of four bots, brought up
    to date by both every second, ends with every game stored once. The database
    holds one match per pairing and nothing else; neither server logged an error."""
    first, second = server_factory(*OPTIONS), server_factory(*OPTIONS)

    async def run() -> None:
        ada = await _organiser(first.url, "ada")
        bea = await _organiser(second.url, "bea")
        due = time.time() + 4
        swiss = {"format": "swiss", "rounds": 2, "starts_at": due}
        swisses = [await _event(ada, {"name": f"Due {n}", **swiss}, 4) for n in range(3)]
        arena_body = {"name": "Arena", "format": "arena", "duration_seconds": 20}
        arena = await _event(bea, arena_body, 4)
        await bea.request("POST", f"/api/tournaments/{arena}/start")
        views = {t: await _ended(bea, t, 240) for t in swisses}
        views[arena] = await _ended(ada, arena, 240)
        for view in views.values():
            assert view["status"] == "finished", (view["name"], view["status"])
        for tournament_id in swisses:
            assert [len(r["pairings"]) for r in views[tournament_id]["rounds"]] == [2, 2]
        games = views[arena]["games"]
        assert games and all(g["winner"] in g["players"] for g in games), games
        links, matches = await _stored(first.database)
        assert links == {**{t: 4 for t in swisses}, arena: len(games)}
        assert matches == sum(links.values())
        await asyncio.gather(ada.close(), bea.close())

    asyncio.run(run())
    assert _errors(first) == []  # both processes write to this one log


def test_a_swiss_and_an_arena_with_people_on_the_others_play_on_when_their_process_is_killed(
    server_factory: Any,
) -> None:
    """A Swiss (Bob on B, Cyd on C, four bots; 3-point matches) and an arena (Dee on
    B, Eve on C, two bots; 30 s), both created and started on A, whose steps and
    bots' matches run there; A is killed (SIGKILL) while round 1 is in play. Within
    seconds one of B and C takes over: the bots act again there, the people play
    on through their own processes, the Swiss's rounds are recorded and paired, the
    arena pairs its players again until its time is up; both finish with one
    stored match per pairing, and no match's log holds a move twice (the log's key:
    a match and a sequence number)."""
    first, second, third = (server_factory(*OPTIONS) for _ in range(3))

    async def run() -> None:
        ada = await _organiser(first.url, "ada")
        bob, dee = await _people(second.url, "bob", "dee")
        cyd, eve = await _people(third.url, "cyd", "eve")
        swiss = {"name": "Killed", "format": "swiss", "rounds": 2, "early_length": 3}
        arena = {"name": "Killed arena", "format": "arena", "duration_seconds": 30}
        events = [await _event(ada, body, bots) for body, bots in ((swiss, 4), (arena, 2))]
        for tournament_id, people in zip(events, ((bob, cyd), (dee, eve)), strict=True):
            for person in people:
                await person.request("POST", f"/api/tournaments/{tournament_id}/register")
        named = ((bob, "bob"), (cyd, "cyd"), (dee, "dee"), (eve, "eve"))
        players = asyncio.gather(
            *(_play_pairings(client, name, seed) for seed, (client, name) in enumerate(named))
        )
        for tournament_id in events:
            started = await ada.request("POST", f"/api/tournaments/{tournament_id}/start")
            assert started["status"] == "running"
        await _moves_stored(first.database, 8)
        await asyncio.to_thread(first.kill)
        killed = time.monotonic()
        views = [await _ended(bob, tournament_id, 300) for tournament_id in events]
        players.cancel()
        print(f"both finished {time.monotonic() - killed:.0f} s after their process was killed")
        assert [view["status"] for view in views] == ["finished", "finished"]
        assert [len(r["pairings"]) for r in views[0]["rounds"]] == [3, 3]
        assert all(p["winner"] in p["players"] for r in views[0]["rounds"] for p in r["pairings"])
        games = views[1]["games"]
        assert len(games) >= 2 and all(g["winner"] in g["players"] for g in games), games
        assert {"dee", "eve"} <= {name for game in games for name in game["players"]}
        links, matches = await _stored(second.database)
        assert links == {events[0]: 6, events[1]: len(games)}
        assert matches == sum(links.values())
        await asyncio.gather(*(client.close() for client in (ada, bob, cyd, dee, eve)))

    asyncio.run(run())


async def _moves_stored(database: str, at_least: int, timeout: float = 60.0) -> None:
    """Wait until the matches' logs hold ``at_least`` entries (round 1 is in play)."""
    connection = await asyncpg.connect(database)
    try:
        deadline = time.monotonic() + timeout
        while await connection.fetchval("SELECT count(*) FROM match_actions") < at_least:
            assert time.monotonic() < deadline, "no moves were stored"
            await asyncio.sleep(0.1)
    finally:
        await connection.close()


def test_a_chouette_table_with_bots_plays_on_when_its_process_is_killed(
    server_factory: Any,
) -> None:
    """ann on A at a table with two bots, whose bots act on A after her actions. A
    is killed (SIGKILL) while a bot is about to throw; ann logs in on B and the
    table plays on: one of B and C has taken over and the bot throws there."""
    first, second, _third = (server_factory(*OPTIONS) for _ in range(3))

    async def run() -> None:
        (ann,) = await _people(first.url, "ann")
        created = await ann.request("POST", "/api/chouettes", {"name": "Night", "seats": 3})
        table_id = str(created["id"])
        await _watch(ann, table_id)
        for _ in range(2):
            await ann.request("POST", f"/api/chouettes/{table_id}/bots", {"level": "beginner"})
        view = await ann.request("GET", f"/api/chouettes/{table_id}")
        bots = {seat["name"] for seat in view["seats"] if seat["bot"]}
        games = await _until_a_bot_throws(ann, table_id, bots)
        await asyncio.to_thread(first.kill)
        again = ServerClient(second.url)
        await again.login("ann", PASSWORD)
        await again.connect()
        await _watch(again, table_id)
        await asyncio.wait_for(_play(again, table_id, "ann", bots, games + 1), timeout=180)
        await again.close()

    asyncio.run(run())


async def _until_a_bot_throws(client: ServerClient, table_id: str, bots: set[str]) -> int:
    """Play ann's part until a bot is to throw the dice and nobody else may act;
    returns the games played so far."""
    while True:
        index, table = _latest(client)
        session = table["session"]
        bots_only = session is not None and all(a["player"] in bots for a in session["legal"])
        if bots_only and session["roller"] in bots:
            return int(session["games_played"])
        choice = None if session is None else _choose(session, "ann", bots)
        if choice is not None:
            await _act(client, table_id, table["seq"], **choice)
        await client.wait_for(lambda m: m["type"] == "chouette", timeout=60, since=index + 1)


def test_a_match_whose_process_died_before_its_opening_throw_starts_on_another(
    server_factory: Any,
) -> None:
    """Starting a match is two steps: the seat taken (the match marked playing), then
    the opening throw. A process killed between them left a match in play that nobody
    could act in until some process started again. Here the first step is written as
    that process would have (the invitee seated, the match playing, no throw), A is
    killed, and B, taking over, throws the opening: the match is played on there."""
    first, second = (server_factory(*OPTIONS) for _ in range(2))

    async def run() -> None:
        alice, bob = ServerClient(first.url), ServerClient(second.url)
        await alice.register("alice", PASSWORD)
        await bob.register("bob", PASSWORD)
        created = await alice.create_match(opponent="bob", length=3)
        connection = await asyncpg.connect(first.database)
        try:
            await connection.execute(
                "UPDATE matches SET player1 = invitee, status = 'playing' WHERE id = $1",
                created["id"],
            )
            await asyncio.to_thread(first.kill)
            deadline = time.monotonic() + 60
            while not await connection.fetchval(
                "SELECT count(*) FROM match_actions WHERE match_id = $1", created["id"]
            ):
                assert time.monotonic() < deadline, "nobody threw the opening"
                await asyncio.sleep(0.25)
        finally:
            await connection.close()
        await bob.connect()
        state = (await bob.subscribe(created["id"]))["state"]
        assert state["players"] == ["alice", "bob"] and state["result"] is None
        assert state["waiting_for"] in (0, 1) and state["seq"] >= 1
        assert _errors(second) == []
        await asyncio.gather(alice.close(), bob.close())

    asyncio.run(run())


def test_a_swiss_whose_two_people_are_on_two_processes_plays_its_rounds(
    server_factory: Any,
) -> None:
    """Ada on A, Bob on B, in a Swiss of six (four bots) run from A: each is told of
    every pairing on their own process, gives a nonce and plays there (Bob's matches
    against bots and against Ada live on whichever process took them up), and the
    event finishes with every pairing played."""
    first, second = (server_factory(*OPTIONS) for _ in range(2))

    async def run() -> None:
        (ada,) = await _people(first.url, "ada")
        (bob,) = await _people(second.url, "bob")
        body = {"name": "Two houses", "format": "swiss", "rounds": 3, **ONE_POINT}
        tournament_id = (await ada.request("POST", "/api/tournaments", body))["id"]
        await _enter(ada, tournament_id, [ada], 4)
        await bob.request("POST", f"/api/tournaments/{tournament_id}/register")
        players = asyncio.gather(_play_pairings(ada, "ada", 5), _play_pairings(bob, "bob", 50))
        await ada.request("POST", f"/api/tournaments/{tournament_id}/start")
        view = await _until_finished(bob, tournament_id, 300)
        players.cancel()
        assert [len(r["pairings"]) for r in view["rounds"]] == [3, 3, 3]
        for played in view["rounds"]:
            for pairing in played["pairings"]:
                assert pairing["winner"] in pairing["players"], pairing
        for client in (ada, bob):
            told = {m["round"] for m in client.messages if m["type"] == "tournament_pairing"}
            assert told == {1, 2, 3}
        assert _errors(first) == []
        await asyncio.gather(ada.close(), bob.close())

    asyncio.run(run())


def test_a_chouette_whose_people_are_on_two_processes_plays_two_games(
    server_factory: Any,
) -> None:
    """Ann and Cyd on A, Bob on B, and a bot, at one table created on A: Bob sits,
    watches and acts through B, every state reaches everyone, and two games are
    played; the record read on B is the one read on A."""
    first, second = (server_factory(*OPTIONS) for _ in range(2))

    async def run() -> None:
        ann, cyd = await _people(first.url, "ann", "cyd")
        (bob,) = await _people(second.url, "bob")
        table_id = await _table(ann, [bob, cyd], bot=True)
        bots = {"bot_beginner_1"}
        people = ((ann, "ann"), (bob, "bob"), (cyd, "cyd"))
        await asyncio.wait_for(
            asyncio.gather(*(_play(client, table_id, name, bots, 2) for client, name in people)),
            timeout=240,
        )
        on_a = await ann.request("GET", f"/api/chouettes/{table_id}/record")
        on_b = await bob.request("GET", f"/api/chouettes/{table_id}/record")
        assert on_a == on_b
        view = await bob.request("GET", f"/api/chouettes/{table_id}")
        assert view["session"]["games_played"] >= 2
        assert sum(view["session"]["scores"].values()) == 0
        assert _errors(first) == []
        await asyncio.gather(*(client.close() for client, _ in people))

    asyncio.run(run())
