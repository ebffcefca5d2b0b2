"""Numbers and text from a stranger, bounded where they are parsed (issue 50): each
case found by an outside tester, sent to one real server process as an attacker
would, while ``GET /healthz`` is asked every 0.2 s and must answer within a second.
Bad input gets a clear error naming what is wrong (a 400 or 422, a FIBS ``**`` line),
never a 500 or a dropped connection."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx
import pytest

from backgammon.server.client import ServerClient

from .clip_client import ClipClient
from .conftest import ServerProcess
from .test_tool_attacks import healthy

pytestmark = pytest.mark.slow  # a server process of its own (a module fixture)

PASSWORD = "a long enough password"

BOARD = (
    "board:You:someplayer:{length}:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:"
    "0:0:0:0:2:0:1:6:2:0:0:{cube}:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module (SQLite; a bot to play over FIBS)."""
    started = ServerProcess(
        tmp_path_factory.mktemp("bounds"),
        "",
        "--no-warm-up",
        "--bot-processes",
        "1",
        "--fibs-port",
        "0",
    )
    started.start()
    yield started
    started.stop()


def test_huge_numbers_in_a_fibs_board_line_are_refused_where_parsed(
    server: ServerProcess,
) -> None:
    with healthy(server.url), httpx.Client(base_url=server.url, timeout=60) as client:
        for length, cube, field in [
            (3, 1 << 29, "cube"),
            (3, 999_999_999, "cube"),
            (3, 3, "cube must be a power of two"),
            (999_999_999, 1, "match_length"),
            (32_768, 1, "match_length"),
        ]:
            line = BOARD.format(length=length, cube=cube)
            for route in ("/api/position", "/api/rollout"):
                answer = client.post(route, json={"position": line, "ply": 0})
                assert answer.status_code == 400, (route, answer.text)
                assert field in answer.json()["message"], answer.text
        fine = client.post(
            "/api/position", json={"position": BOARD.format(length=3, cube=1 << 15), "ply": 0}
        )
        assert fine.status_code == 200, fine.text
        assert fine.json()["context"]["cube"] == 1 << 15
    assert "Traceback" not in server.log.read_text()


def _fibs_port(server: ServerProcess) -> int:
    for line in server.log.read_text().splitlines():
        if "FIBS clients: telnet" in line:
            return int(line.rsplit(" ", 1)[1])
    raise AssertionError("the server did not say where FIBS clients connect")


def test_long_or_odd_fibs_commands_get_an_error_line_and_the_session_goes_on(
    server: ServerProcess,
) -> None:
    port = _fibs_port(server)

    async def scenario() -> None:
        web = ServerClient(server.url)
        await web.register("mover", PASSWORD)
        await web.close()
        client = ClipClient("127.0.0.1", port)
        await client.connect()
        await client.wait_prompt("login: ")
        await client.send(f"login TestClient 1008 mover {PASSWORD}")
        await client.wait_for(lambda line: line == "6")

        async def answer(command: str) -> str:
            mark = len(client.lines)
            await client.send(command)
            index = await client.wait_for(lambda line: line.startswith("** "), since=mark)
            return client.lines[index]

        # '²' is a digit to str.isdigit but not to int(): the session failed on it.
        assert (await answer("invite bot_beginner ²")).startswith("** Match length '²'")
        mark = len(client.lines)
        await client.send("invite bot_beginner 1")
        await client.wait_for(lambda line: line.startswith("board:"), since=mark)
        # 319 characters of no points: refused (in FIBS's words) before the match.
        refused = await answer("move " + "x/y " * 80)
        expected = "** first move: legal words are 'bar', 'home', 'off', 'b', 'h' and 'o'."
        assert refused == expected, refused
        # The move that is not two points is named (the first was blamed for all).
        refused = await answer("move 13-8 zz-3")
        assert refused == expected.replace("first", "second"), refused
        mark = len(client.lines)
        await client.send("who")
        await client.wait_for(lambda line: line == "6", since=mark)
        await client.send("bye")
        await client.close()

    with healthy(server.url):
        asyncio.run(scenario())
    assert "FIBS session failed" not in server.log.read_text()


def _register(client: httpx.Client, name: str) -> dict[str, str]:
    answer = client.post("/api/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return {"authorization": f"Bearer {answer.json()['token']}"}


def test_history_dates_beyond_the_calendar_are_refused_with_422(server: ServerProcess) -> None:
    with healthy(server.url), httpx.Client(base_url=server.url, timeout=30) as client:
        _register(client, "dated")
        for query, field in [
            ("until=9999-12-31", "until"),
            ("since=9999-12-31", "since"),
            ("since=0001-01-01", "since"),
        ]:
            answer = client.get(f"/api/users/dated/matches?{query}")
            assert answer.status_code == 422, (query, answer.text)
            assert field in answer.text, answer.text
        fine = client.get("/api/users/dated/matches?since=2000-01-01&until=9998-12-31")
        assert fine.status_code == 200, fine.text


def test_a_tournament_start_must_be_finite_and_within_a_year(server: ServerProcess) -> None:
    with healthy(server.url), httpx.Client(base_url=server.url, timeout=30) as client:
        headers = _register(client, "organiser")
        for starts_at in ("Infinity", "1e400", "NaN", str(time.time() + 2 * 366 * 86_400)):
            body = '{"name": "Cup", "format": "knockout", "starts_at": ' + starts_at + "}"
            answer = client.post(
                "/api/tournaments",
                content=body,
                headers={**headers, "content-type": "application/json"},
            )
            assert answer.status_code == 422, (starts_at, answer.text)
            assert "starts_at" in answer.text, answer.text
        soon = {"name": "Cup", "format": "knockout", "starts_at": time.time() + 3600}
        answer = client.post("/api/tournaments", json=soon, headers=headers)
        assert answer.is_success, answer.text


def test_logins_keep_at_most_fifty_live_tokens_per_user(server: ServerProcess) -> None:
    credentials = {"name": "frequent", "password": PASSWORD}
    with healthy(server.url):
        with httpx.Client(base_url=server.url, timeout=30) as client:
            tokens = [_register(client, "frequent")]
        for _ in range(59):  # a fresh client each time: no cookie carries a session
            with httpx.Client(base_url=server.url, timeout=30) as client:
                answer = client.post("/api/login", json=credentials)
                assert answer.status_code == 200, answer.text
                tokens.append({"authorization": f"Bearer {answer.json()['token']}"})
        live = []
        for headers in tokens:
            with httpx.Client(base_url=server.url, timeout=30) as client:
                live.append(client.get("/api/me", headers=headers).status_code == 200)
    assert live == [False] * 10 + [True] * 50
