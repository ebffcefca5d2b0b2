"""The FIBS lobby feed as clients meet it: who comes and goes, told once to everyone,
never between a login's who list and its ``6`` line, however many log in at once; a
client too slow to read is dropped without holding up the others; a login on another
server process is told too."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest

from backgammon.server.client import ServerClient
from backgammon.server.db.database import Database
from backgammon.server.fibs.lobby_feed import LobbyFeed
from backgammon.server.fibs.session import FibsSession
from backgammon.server.fibs.who_lines import WhoLines
from backgammon.server.protocol import ActionBody, CreateMatch, MatchSettings
from backgammon.server.service import GameService
from backgammon.server.settings import Settings

from .clip_client import ClipClient
from .test_fibs import PASSWORD, _clip_login, _fibs_port
from .test_fibs_clients import fibs_server

LOGIN = re.compile(r"7 (\S+) (\S+) logs in\.")
DROP = re.compile(r"8 (\S+) (\S+) drops connection\.")


def _who_names(lines: list[str]) -> list[str]:
    return [line.split()[1] for line in lines if line.startswith("5 ")]


def _check_told(client: ClipClient, name: str, everyone: set[str]) -> None:
    """Everyone else is in the client's who list or in one login line after it;
    each login line is the user's own and is followed by their who line."""
    end = client.lines.index("6")
    listed = set(_who_names(client.lines[:end]))
    logins = []
    for index, line in enumerate(client.lines):
        told = LOGIN.fullmatch(line)
        if told is None:
            continue
        assert index > end, f"{name}: a login told inside the who list: {line}"
        assert told[1] == told[2]
        follower = client.lines[index + 1]
        assert follower.startswith(f"5 {told[1]} "), (name, line, follower)
        logins.append(told[1])
    assert name not in logins, f"{name} was told of its own login"
    assert len(logins) == len(set(logins)), f"{name}: a login told twice: {logins}"
    assert everyone - {name} <= listed | set(logins), (name, everyone - listed - set(logins))


async def _login_from(port: int, name: str, number: int) -> ClipClient:
    """A CLIP login from a loopback address of its own (one client per machine)."""
    client = ClipClient("127.0.0.1", port)
    await client.connect(source=f"127.0.1.{number + 1}")
    await client.wait_prompt("login: ")
    await client.send(f"login TestClient 1008 {name} {PASSWORD}")
    await client.wait_for(lambda line: line == "6")
    return client


def test_a_login_storm_tells_each_login_once_to_everyone_and_each_logout(
    tmp_path: Path,
) -> None:
    names = [f"storm{number:02}" for number in range(36)]

    async def scenario() -> None:
        async with fibs_server(tmp_path, "", random.Random(3)) as (service, port):
            for name in names:
                await service.register(name, PASSWORD)
            first = [await _login_from(port, name, n) for n, name in enumerate(names[:6])]
            rest = await asyncio.gather(
                *(_login_from(port, name, n) for n, name in enumerate(names) if n >= 6)
            )
            clients = dict(zip(names, [*first, *rest], strict=True))
            everyone = set(names)
            # The last login is told to the first client: by then all are.
            for name, client in clients.items():
                for other in names:
                    if other != name and other not in _who_names(client.lines):
                        await client.wait_for(lambda line, o=other: line == f"7 {o} {o} logs in.")
            for name, client in clients.items():
                _check_told(client, name, everyone)
            # A third leave at once: everyone else is told of each, once.
            leaving = names[::3]
            for name in leaving:
                await clients[name].send("bye")
            staying = [name for name in names if name not in leaving]
            for name in staying:
                client = clients[name]
                for gone in leaving:
                    await client.wait_for(
                        lambda line, g=gone: line == f"8 {g} {g} drops connection."
                    )
                drops = [m[1] for line in client.lines if (m := DROP.fullmatch(line))]
                assert sorted(drops) == sorted(leaving), (name, drops)
            for client in clients.values():
                assert client.unknown() == [], client.unknown()
                await client.close()

    asyncio.run(scenario())


async def _telnet_login(port: int, name: str) -> ClipClient:
    """A person at a terminal: the name at ``login:``, then the password."""
    client = ClipClient("127.0.0.1", port)
    await client.connect()
    await client.wait_prompt("login: ")
    await client.send(name)
    await client.wait_prompt("password: ")
    await client.send(PASSWORD)
    await client.wait_for(lambda line: line.startswith(f"Welcome {name}."))
    return client


def test_a_person_at_a_terminal_hears_logins_only_with_notify_on(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with fibs_server(tmp_path, "", random.Random(4)) as (service, port):
            for name in ("tina", "dave", "erin"):
                await service.register(name, PASSWORD)
            tina = await _telnet_login(port, "tina")
            dave = await _clip_login(port, "dave", PASSWORD)
            await tina.wait_for(lambda line: line == "dave logs in.")
            await tina.send("toggle notify")
            await tina.wait_for(lambda line: "notified" in line)
            erin = await _clip_login(port, "erin", PASSWORD)
            await dave.wait_for(lambda line: line == "7 erin erin logs in.")
            await erin.send("bye")
            await tina.wait_for(lambda line: line == "erin logs out.")
            assert "erin logs in." not in tina.lines
            assert not any(line.startswith(("7 ", "8 ")) for line in tina.lines)
            for client in (tina, dave, erin):
                await client.close()

    asyncio.run(scenario())


def test_a_client_too_slow_for_the_lobby_is_dropped_and_the_others_told(
    tmp_path: Path,
) -> None:
    """A session whose socket holds too much unread is disconnected by the feed (as a
    full queue is); another session of the same feed goes on being told."""

    async def scenario() -> None:
        settings = Settings(data_dir=tmp_path, bots=(), warm_up=False)
        service = GameService(settings, Database(settings.database))
        await service.start()
        try:
            for name in ("slow", "quick", "newcomer"):
                await service.register(name, PASSWORD)
            who_lines = WhoLines()
            feed = LobbyFeed(service, who_lines, interval=0.01)
            outputs: dict[str, list[str]] = {"slow": [], "quick": []}
            inputs: dict[str, asyncio.Queue[str]] = {}
            sessions: dict[str, FibsSession] = {}
            runs = []
            for name in ("slow", "quick"):
                inputs[name] = asyncio.Queue()

                async def write(text: str, out: list[str] = outputs[name]) -> None:
                    out.append(text)

                def write_now(text: str, name: str = name) -> bool:
                    outputs[name].append(text)
                    return name != "slow"  # the slow one's buffer is over the limit

                sessions[name] = FibsSession(
                    service, inputs[name].get, write, "127.0.0.1", who_lines, feed, write_now
                )
                runs.append(asyncio.create_task(sessions[name].run()))
                await inputs[name].put(f"login TestClient 1008 {name} {PASSWORD}")
                await _until(lambda n=name: "6\r\n" in "".join(outputs[n]))
            newcomer = await _clip_login_in_process(service, who_lines, feed)
            await _until(lambda: "7 newcomer newcomer logs in." in "".join(outputs["quick"]))
            await _until(lambda: sessions["slow"].connection is None)
            assert "** You were disconnected by the server." in "".join(outputs["slow"])
            assert runs[0].done()
            assert not runs[1].done()
            for task in [*runs, newcomer]:
                task.cancel()
            await asyncio.gather(*runs, newcomer, return_exceptions=True)
        finally:
            await service.stop()

    asyncio.run(scenario())


async def _clip_login_in_process(
    service: GameService, who_lines: WhoLines, feed: LobbyFeed
) -> asyncio.Task[None]:
    lines: asyncio.Queue[str] = asyncio.Queue()

    async def write(_text: str) -> None:
        return None

    session = FibsSession(service, lines.get, write, "127.0.0.1", who_lines, feed, None)
    await lines.put(f"login TestClient 1008 newcomer {PASSWORD}")
    return asyncio.create_task(session.run())


async def _until(condition: Any, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_a_login_on_another_process_is_told_to_fibs_clients_here(server_factory: Any) -> None:
    first = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0")
    second = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0")

    async def scenario() -> None:
        registrar = ServerClient(first.url)
        await registrar.register("pat", PASSWORD)
        await ServerClient(first.url).register("quinn", PASSWORD)
        pat = await _clip_login(_fibs_port(first), "pat", PASSWORD)
        quinn = await _clip_login(_fibs_port(second), "quinn", PASSWORD)
        await pat.wait_for(lambda line: line == "7 quinn quinn logs in.")
        assert pat.lines[pat.lines.index("7 quinn quinn logs in.") + 1].startswith("5 quinn ")
        await quinn.send("bye")
        await pat.wait_for(lambda line: line == "8 quinn quinn drops connection.")
        assert pat.unknown() == []
        await pat.close()
        await quinn.close()

    asyncio.run(scenario())


class _FixedDice:
    """Every match's dice seed: bytes([4]) * 32, whose opening throw is (1, 2)."""

    @staticmethod
    def randbytes(count: int) -> bytes:
        return bytes([4]) * count


def test_a_double_waiting_for_a_player_who_logs_in_again_is_asked_again(
    tmp_path: Path,
) -> None:
    """The offer's line is the only prompt a client has for it: a player who lost the
    connection while a double waited for them is asked again when the match is
    loaded, once, and the answer is taken."""

    async def scenario() -> None:
        async with fibs_server(tmp_path, "", _FixedDice()) as (service, port):  # type: ignore[arg-type]
            jane, _ = await service.register("jane", PASSWORD)
            await service.register("leo", PASSWORD)
            leo = await _clip_login(port, "leo", PASSWORD)
            created = await service.create_match(
                jane, CreateMatch(settings=MatchSettings(length=3), opponent="leo")
            )
            await leo.send("join jane")
            await leo.wait_for(lambda line: line == "It's your turn to move.")
            await leo.send("move 13-11 6-5")
            await leo.wait_for(lambda line: line.startswith("board:"), len(leo.lines))
            match_id = str(created["id"])
            await service.act(jane, match_id, ActionBody(kind="double"))
            offer = "jane doubles. Type 'accept' or 'reject'."
            await leo.wait_for(lambda line: line == offer)
            await leo.close()
            leo = await _clip_login(port, "leo", PASSWORD)
            loaded = await leo.wait_for(lambda line: "Your running match was loaded." in line)
            asked = await leo.wait_for(lambda line: line == offer, loaded)
            await leo.send("accept")
            await leo.wait_for(lambda line: line == "You accept the double. The cube shows 2.")
            assert leo.lines.count(offer) == 1
            assert any(line.startswith("board:") for line in leo.lines[loaded:asked])
            assert leo.unknown() == [], leo.unknown()
            await leo.close()

    asyncio.run(scenario())
