"""A player's match history with filters (``GET /api/users/{name}/matches``): the
service's filters and pages on a real SQLite database with an injected clock, and the
HTTP API's refusal of bad parameters (a 422 naming the parameter) on a real server."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from backgammon.server.db.database import Database
from backgammon.server.matches.history import HistoryFilter
from backgammon.server.protocol import ActionBody, ClockSettings, CreateMatch, MatchSettings
from backgammon.server.service import GameService, ServiceError
from backgammon.server.settings import Settings

from .conftest import new_postgresql_database

PASSWORD = "a long enough password"
DAY = 86_400.0
START = 1_700_000_000.0  # 2023-11-14 22:13:20 UTC


class FakeClock:
    """Time that moves only when told."""

    def __init__(self) -> None:
        self.time = START

    def now(self) -> float:
        return self.time


async def _finished_match(
    service: GameService, clock: FakeClock, host: Any, guest: Any, length: int, loser: Any
) -> tuple[str, str]:
    """A match of ``length`` points between host and guest, lost by ``loser``: on time
    when they were to act first (the opening roll decides), otherwise by leaving it.
    Returns its id and the winner's name."""
    settings = MatchSettings(length=length, clock=ClockSettings(delay=1, reserve_per_point=1))
    created = await service.create_match(host, CreateMatch(settings=settings, rated=False))
    await service.join_match(guest, created["id"])
    state = await service.state(created["id"])
    if state["players"][state["waiting_for"]] == loser.name:
        clock.time += 2 + length
        assert await service.check_clocks() == 1
    else:
        await service.act(loser, created["id"], ActionBody(kind="leave"))
    final = await service.state(created["id"])
    winner = state["players"][final["result"]["winner"]]
    assert winner != loser.name
    return created["id"], winner


def test_history_filters_by_opponent_result_length_and_dates_and_pages(
    tmp_path: Path, backend: str
) -> None:
    database = new_postgresql_database() if backend == "postgresql" else ""

    async def body(service: GameService, clock: FakeClock) -> None:
        alice, _ = await service.register("alice", PASSWORD)
        bob, _ = await service.register("bob", PASSWORD)
        carol, _ = await service.register("carol", PASSWORD)
        played: list[tuple[str, str, str, int, float]] = []  # id, opponent, winner, length, at
        # Alice wins three and loses two, whoever the opening roll favours.
        games = [
            (bob, 1, bob),
            (carol, 3, alice),
            (bob, 3, alice),
            (carol, 1, carol),
            (bob, 5, bob),
        ]
        for opponent, length, loser in games:
            at = clock.time
            match_id, winner = await _finished_match(service, clock, alice, opponent, length, loser)
            played.append((match_id, opponent.name, winner, length, at))
            clock.time += 2 * DAY
        going = await service.create_match(bob, CreateMatch(settings=MatchSettings(length=7)))
        await service.join_match(alice, going["id"])
        # An invitation to alice and an unlisted match of hers are nobody else's business.
        await service.create_match(carol, CreateMatch(opponent="alice"))
        await service.create_match(alice, CreateMatch(public=False))

        async def ids(opponent: str | None = None, **fields: Any) -> list[str]:
            page = await service.match_history("alice", HistoryFilter(**fields), opponent)
            assert page["total"] == len(page["matches"])
            return [match["id"] for match in page["matches"]]

        newest_first = [row[0] for row in reversed(played)]
        assert await ids() == [going["id"], *newest_first]
        assert await ids("bob") == [going["id"]] + [r[0] for r in reversed(played) if r[1] == "bob"]
        won = [r[0] for r in reversed(played) if r[2] == "alice"]
        lost = [r[0] for r in reversed(played) if r[2] != "alice"]
        assert len(won) == 3 and len(lost) == 2
        assert await ids(result="won") == won
        assert await ids(result="lost") == lost
        assert await ids(result="unfinished") == [going["id"]]
        assert await ids(length=3) == [r[0] for r in reversed(played) if r[3] == 3]
        assert await ids("carol", length=1) == [played[3][0]]
        day = datetime.fromtimestamp(played[1][4], UTC).date()
        assert await ids(since=day, until=day) == [played[1][0]]
        assert await ids(until=day) == [played[1][0], played[0][0]]
        assert await ids("nobody_here") == []

        first = await service.match_history("alice", HistoryFilter(page=1, per_page=4))
        second = await service.match_history("alice", HistoryFilter(page=2, per_page=4))
        assert first["total"] == second["total"] == 6
        both = first["matches"] + second["matches"]
        assert [match["id"] for match in both] == [going["id"], *newest_first]
        with pytest.raises(ServiceError) as missing:
            await service.match_history("nobody_here", HistoryFilter())
        assert missing.value.status == 404

    async def main() -> None:
        settings = Settings(data_dir=tmp_path, database_url=database, bots=(), warm_up=False)
        clock = FakeClock()
        service = GameService(settings, Database(settings.database), clock=clock)
        await service.start()
        try:
            await body(service, clock)
        finally:
            await service.stop()

    asyncio.run(main())


BAD_QUERIES = [
    ("result=drawn", "result"),
    ("length=-1", "length"),
    ("length=65", "length"),
    ("length=two", "length"),
    ("since=2024-13-01", "since"),
    ("until=yesterday", "until"),
    ("since=2024-05-02&until=2024-05-01", "until"),
    ("page=0", "page"),
    ("per_page=101", "per_page"),
    ("opponent=" + "x" * 41, "opponent"),
    ("opponent=%3Cscript%3E", "opponent"),
]


@pytest.mark.parametrize("backend", ["sqlite"])  # the service test covers both databases
def test_bad_history_parameters_get_a_422_naming_the_parameter(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    with httpx.Client(base_url=server.url, timeout=10) as client:
        client.post("/api/guest").raise_for_status()
        name = client.get("/api/me").json()["name"]
        assert client.get(f"/api/users/{name}/matches").json()["total"] == 0
        for query, parameter in BAD_QUERIES:
            answer = client.get(f"/api/users/{name}/matches?{query}")
            assert answer.status_code == 422, (query, answer.text)
            assert parameter in answer.text, (query, answer.text)
