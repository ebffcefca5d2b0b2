"""The FIBS front end on several processes (issue 53, item 4): a FIBS user on one
``backgammon serve`` process plays a web user on another, both on one PostgreSQL
database. The invitation, the join, every move, the double and the match's end
cross the processes (the event bus), and the FIBS user's board lines agree with the
database's state throughout."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from backgammon.server.client import ServerClient

from .conftest import POSTGRESQL, ServerProcess, new_postgresql_database
from .players import Policy, play_seat
from .test_fibs import PASSWORD, FibsPlayer, _clip_login, _fibs_port, _register_as_guest

pytestmark = [pytest.mark.slow, pytest.mark.postgresql]


@pytest.fixture
def two_processes(tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """A (with a FIBS port) and B, each with its own folder (and log), on one fresh
    PostgreSQL database."""
    if not POSTGRESQL:
        pytest.skip("no PostgreSQL server (set BACKGAMMON_TEST_POSTGRESQL; .ci/run does)")
    database = new_postgresql_database()
    options = ("--no-warm-up", "--no-bots")
    first = ServerProcess(tmp_path / "a", database, *options, "--fibs-port", "0")
    second = ServerProcess(tmp_path / "b", database, *options, "--fibs-port", "0")
    for server in (first, second):
        server.data.mkdir()
        server.start()
    yield first, second
    for server in (first, second):
        server.stop()


def test_a_fibs_user_on_one_process_plays_a_web_user_on_another(
    two_processes: tuple[ServerProcess, ServerProcess],
) -> None:
    first, second = two_processes
    port = _fibs_port(first)

    async def scenario() -> None:
        await _register_as_guest(port, "fred", PASSWORD)
        alice = ServerClient(second.url)
        await alice.register("alice", PASSWORD)
        await alice.connect()
        fred = await _clip_login(port, "fred", PASSWORD)
        mark = len(alice.messages)
        await fred.send("invite alice 3")
        invitation = await alice.wait_for(lambda m: m["type"] == "invitation", since=mark)
        assert invitation["from"] == "fred"
        match_id = invitation["match"]
        await alice.join(match_id)
        await alice.subscribe(match_id)
        await fred.wait_for(lambda line: line.startswith("** Player alice has joined you"))
        await fred.send("say good luck")
        said = await alice.wait_for(lambda m: m["type"] == "say")
        assert said["text"] == "good luck"
        await alice.send({"type": "chat", "room": match_id, "text": "thanks fred"})
        await fred.wait_for(lambda line: line == "15 alice thanks fred")
        fibs_player = FibsPlayer(fred, first.url, random.Random(4))
        last_line, final = await asyncio.gather(
            fibs_player.play(match_id, 0),
            play_seat(alice, match_id, 1, Policy(seed=8, double_first=False)),
        )
        assert final["result"]["reason"] == "score"
        assert "3 point match" in last_line
        assert fibs_player.checked > 10
        assert any(line.startswith("alice moves ") for line in fred.lines)
        await fred.send("bye")
        await fred.close()
        await alice.close()

    asyncio.run(scenario())


def test_a_fibs_user_whose_process_is_killed_logs_in_to_another_and_plays_on(
    two_processes: tuple[ServerProcess, ServerProcess],
) -> None:
    """Fred (FIBS, on A) plays Alice (web, on B); A is killed (SIGKILL) in the middle
    of the match. Fred's line client sees its connection closed, connects to B's FIBS
    port and logs in: the running match is loaded, its board agrees with the
    database's state, and both play it to the end."""
    first, second = two_processes

    async def scenario() -> None:
        await _register_as_guest(_fibs_port(first), "fred", PASSWORD)
        alice = ServerClient(second.url)
        await alice.register("alice", PASSWORD)
        await alice.connect()
        fred = await _clip_login(_fibs_port(first), "fred", PASSWORD)
        mark = len(alice.messages)
        await fred.send("invite alice 3")
        invitation = await alice.wait_for(lambda m: m["type"] == "invitation", since=mark)
        match_id = invitation["match"]
        await alice.join(match_id)
        await alice.subscribe(match_id)
        await fred.wait_for(lambda line: line.startswith("** Player alice has joined you"))
        alice_plays = asyncio.create_task(
            play_seat(alice, match_id, 1, Policy(seed=9, double_first=False))
        )
        before = FibsPlayer(fred, first.url, random.Random(5))
        fred_plays = asyncio.create_task(before.play(match_id, 0))
        while before.checked < 6:  # six of Fred's turns, each board checked
            await asyncio.sleep(0.05)
        await asyncio.to_thread(first.kill)
        with contextlib.suppress(ConnectionError, TimeoutError, httpx.HTTPError):
            await fred_plays  # its line closed, or its check of a board asked A
        deadline = time.monotonic() + 10
        while not fred.closed:  # the line client sees its connection closed
            assert time.monotonic() < deadline, "fred's connection to A stayed open"
            await asyncio.sleep(0.05)
        again = await _clip_login(_fibs_port(second), "fred", PASSWORD)
        await again.wait_for(lambda line: line.endswith("Your running match was loaded."))
        after = FibsPlayer(again, second.url, random.Random(6))
        last_line, final = await asyncio.gather(after.play(match_id, 0), alice_plays)
        assert final["result"]["reason"] == "score"
        assert "3 point match" in last_line
        assert after.checked > 0
        await again.send("bye")
        await again.close()
        await alice.close()

    asyncio.run(scenario())
