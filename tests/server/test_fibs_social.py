"""FIBS's commands between people, as clients use them over loopback: ``message``
(kept for the next login), ``gag``, ``blind``, ``whois``, ``pip`` and the 'join'
step between games. Every line each client gets is classified with the public
CookieMonster table, and none may be unknown."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest

from backgammon.server.fibs.events import EVENTS
from backgammon.server.service import MAX_STORED_FROM_ONE, MAX_STORED_MESSAGES
from backgammon.server.social.user_text import MAX_TEXT

from .clip_client import ClipClient
from .conftest import new_postgresql_database
from .test_fibs import PASSWORD, _clip_login
from .test_fibs_clients import fibs_server

JOIN = "Type 'join' if you want to play the next game, type 'leave' if you don't."


def _database(backend: str) -> str:
    return new_postgresql_database() if backend == "postgresql" else ""


async def _bye(*clients: ClipClient) -> None:
    for client in clients:
        await client.send("bye")
        await client.wait_for(lambda line: line.endswith(" Goodbye."))
        await client.close()
        assert client.unknown() == [], client.unknown()


def test_a_message_waits_for_the_next_login_or_goes_at_once_to_someone_online(
    tmp_path: Path, backend: str
) -> None:
    database = _database(backend)

    async def scenario() -> None:
        async with fibs_server(tmp_path, database, random.Random(1)) as (service, port):
            for name in ("fred", "alice"):
                await service.register(name, PASSWORD)
            fred = await _clip_login(port, "fred", PASSWORD)
            await fred.send("message alice see you at 8, ok?")
            await fred.wait_for(lambda line: line == "11 alice")  # saved
            alice = await _clip_login(port, "alice", PASSWORD)
            # After the MOTD, before the who list, as FIBS sends them.
            start = alice.lines.index("4")
            assert alice.lines[start + 1] == "There are messages for you:"
            assert re.fullmatch(r"9 fred \d+ see you at 8, ok\?", alice.lines[start + 2])
            assert alice.lines[start + 3].startswith("5 ")
            # Delivered once: the next login has none.
            await _bye(alice)
            first_login = set(alice.classifier.classes())
            alice = await _clip_login(port, "alice", PASSWORD)
            assert "There are messages for you:" not in alice.lines
            # To someone online: at once (CLIP 10 to the sender, 9 to the addressee).
            await fred.send("message alice now")
            await fred.wait_for(lambda line: line == "10 alice")
            await alice.wait_for(lambda line: re.fullmatch(r"9 fred \d+ now", line) is not None)
            await _bye(fred, alice)
            classes = set(fred.classifier.classes()) | set(alice.classifier.classes())
            classes |= first_login
            for expected in (
                "CLIP_MESSAGE_SAVED", "CLIP_MESSAGE_DELIVERED", "CLIP_MESSAGE",
                "FIBS_MessagesForYou",
            ):  # fmt: skip
                assert expected in classes, expected

    asyncio.run(scenario())


def test_a_message_with_no_addressee_a_bad_text_or_a_full_mailbox_is_refused_and_not_kept(
    tmp_path: Path, backend: str
) -> None:
    database = _database(backend)

    async def scenario() -> None:
        async with fibs_server(tmp_path, database, random.Random(2)) as (service, port):
            fred_user, _ = await service.register("fred", PASSWORD)
            alice_user, _ = await service.register("alice", PASSWORD)
            fred = await _clip_login(port, "fred", PASSWORD)
            await fred.send("message nobody hello")
            await fred.wait_for(lambda line: line == "** Don't know user nobody")
            await fred.send("message alice")
            await fred.wait_for(lambda line: line == "** usage: message <user> <text>")
            await fred.send("message alice " + "x" * (MAX_TEXT + 1))
            await fred.wait_for(
                lambda line: line.startswith("** usage: message <user> <text> (text: at most")
            )
            # Several senders fill alice's mailbox (each may keep only a few for her).
            senders = [fred_user]
            while len(senders) * MAX_STORED_FROM_ONE < MAX_STORED_MESSAGES:
                senders.append((await service.register(f"sender{len(senders)}", PASSWORD))[0])
            for number in range(MAX_STORED_MESSAGES):
                sender = senders[number // MAX_STORED_FROM_ONE]
                await service.leave_message(sender, "alice", f"note {number}")
            await fred.send("message alice one too many")
            await fred.wait_for(lambda line: "messages waiting already" in line)
            await _bye(fred)
            assert fred.classifier.classes().count("FIBS_MessageUsage") == 3
            assert "FIBS_DontKnowUser" in fred.classifier.classes()
            kept = await service.take_messages(alice_user)
            assert [message["text"] for message in kept] == [
                f"note {number}" for number in range(MAX_STORED_MESSAGES)
            ]

    asyncio.run(scenario())


def test_gag_and_blind_hide_one_user_from_the_one_who_typed_them_only(
    tmp_path: Path, backend: str
) -> None:
    database = _database(backend)

    async def scenario() -> None:
        async with fibs_server(tmp_path, database, random.Random(3)) as (service, port):
            for name in ("fred", "alice", "mona"):
                await service.register(name, PASSWORD)
            fred = await _clip_login(port, "fred", PASSWORD)
            alice = await _clip_login(port, "alice", PASSWORD)
            mona = await _clip_login(port, "mona", PASSWORD)
            await mona.send("gag mona")
            await mona.wait_for(lambda line: line == "** You talk too much, don't you?")
            await mona.send("blind mona")
            await mona.wait_for(lambda line: line == "** You can't read this message now, can you?")
            await mona.send("gag nobody")
            await mona.wait_for(lambda line: line == "** There is no one called nobody")
            await mona.send("gag fred")
            await mona.wait_for(lambda line: line == "** You gag fred.")
            await mona.send("blind fred")
            await mona.wait_for(lambda line: line == "** You blind fred.")
            await fred.send("shout first")
            await fred.send("tell mona psst")
            await fred.send("message mona later")
            await fred.send("invite mona 3")
            await fred.wait_for(lambda line: line.startswith("** You invited mona"))
            await alice.wait_for(lambda line: line == "13 fred first")  # alice still hears
            await mona.send("gag fred")
            await mona.wait_for(lambda line: line == "** You ungag fred.")
            await mona.send("blind fred")
            await mona.wait_for(lambda line: line == "** You unblind fred.")
            await fred.send("shout second")
            await mona.wait_for(lambda line: line == "13 fred second")
            # 'toggle silent': no shouts (they reached a silent user before).
            await alice.send("toggle silent")
            await alice.wait_for(lambda line: line == "** You won't hear what other players shout.")
            await fred.send("shout third")
            await mona.wait_for(lambda line: line == "13 fred third")
            await fred.send("tell alice still here")  # what a silent user still hears
            await alice.wait_for(lambda line: line == "12 fred still here")
            assert not any("third" in line for line in alice.lines)
            assert not any("first" in line or "psst" in line for line in mona.lines)
            assert not any("later" in line for line in mona.lines)
            assert not any("wants to play" in line for line in mona.lines)
            await _bye(fred, alice, mona)
            for expected in ("FIBS_YouGag", "FIBS_YouUngag", "FIBS_YouBlind", "FIBS_YouUnblind"):
                assert expected in mona.classifier.classes(), expected

    asyncio.run(scenario())


def test_waitfor_tells_both_users_once_when_the_awaited_one_logs_in(
    tmp_path: Path, backend: str
) -> None:
    database = _database(backend)

    async def scenario() -> None:
        async with fibs_server(tmp_path, database, random.Random(5)) as (service, port):
            for name in ("fred", "alice", "mona"):
                await service.register(name, PASSWORD)
            fred = await _clip_login(port, "fred", PASSWORD)
            mona = await _clip_login(port, "mona", PASSWORD)
            for command, answer in (
                ("waitfor fred", "** You can't wait for yourself."),
                ("waitfor nobody", "** There is no one called nobody"),
                ("waitfor mona", "** mona is logged in now."),
                ("waitfor alice", "** Waiting for alice to log in."),
                ("waitfor", "** You are waiting for alice."),
            ):
                await fred.send(command)
                await fred.wait_for(lambda line, answer=answer: line == answer)
            alice = await _clip_login(port, "alice", PASSWORD)
            await fred.wait_for(lambda line: line == "** FINALLY!!! alice logs in")
            await alice.wait_for(lambda line: line == "fred is waiting for you to log in.")
            # Told once: the wait is over, a second login is not announced again.
            await fred.send("waitfor")
            await fred.wait_for(lambda line: line == "** You are waiting for no one.")
            await _bye(alice)
            assert "FIBS_PlayerIsWaitingForYou" in alice.classifier.classes()
            alice = await _clip_login(port, "alice", PASSWORD)
            await fred.send("whois alice")
            await fred.wait_for(lambda line: "Still logged in" in line)
            assert fred.lines.count("** FINALLY!!! alice logs in") == 1
            assert "fred is waiting for you to log in." not in alice.lines
            assert not any("waiting for you" in line for line in mona.lines)
            # The client's table has no class for waitfor's own answers (FIBS's
            # "** FINALLY!!!" line included): those, and only those, are unknown to it.
            waitfor_answers = {
                "** mona is logged in now.",
                "** Waiting for alice to log in.",
                "** You are waiting for alice.",
                "** You are waiting for no one.",
                "** FINALLY!!! alice logs in",
                "** You can't wait for yourself.",
            }
            assert set(fred.unknown()) <= waitfor_answers, fred.unknown()
            fred.classifier.seen = [
                c for c in fred.classifier.seen if c.message not in waitfor_answers
            ]
            await _bye(fred, alice, mona)

    asyncio.run(scenario())


def test_whois_and_pip_and_the_join_step_between_games(tmp_path: Path, backend: str) -> None:
    database = _database(backend)

    async def scenario() -> None:
        async with fibs_server(tmp_path, database, random.Random(4)) as (service, port):
            for name in ("fred", "alice", "olga"):
                await service.register(name, PASSWORD)
            fred = await _clip_login(port, "fred", PASSWORD)
            alice = await _clip_login(port, "alice", PASSWORD)
            await fred.send("pip")
            await fred.wait_for(lambda line: line == "** You're not watching or playing.")
            await fred.send("whois olga")
            await fred.wait_for(lambda line: line == " Not logged in right now.")
            await fred.send("whois nobody")
            await fred.wait_for(lambda line: line == "No information found on user nobody.")
            await fred.send("invite alice 3")
            await alice.wait_for(lambda line: line == "Type 'join fred' to accept.")
            await alice.send("join fred")
            await fred.wait_for(lambda line: line.startswith("** Player alice has joined you"))
            await fred.wait_for(lambda line: line.startswith("board:"))
            await fred.send("pip")
            await fred.wait_for(lambda line: line == "points for alice: 167")
            assert "points for You: 167" in fred.lines
            await alice.send("whois fred")
            await alice.wait_for(lambda line: line == " fred is playing with alice.")
            # The first game ends by a resignation; between games nothing is told
            # and nothing can be played until 'join'.
            turn = ("Please move", "It's your turn")
            await fred.wait_for(lambda line: line.startswith((*turn, "alice makes the first")))
            first, second = (
                (fred, alice) if any(x.startswith(turn) for x in fred.lines) else (alice, fred)
            )
            await first.wait_for(lambda line: line.startswith(turn))
            await first.send("resign n")
            await second.wait_for(lambda line: "wants to resign" in line)
            await second.send("accept")
            await fred.wait_for(lambda line: line == JOIN)
            await alice.wait_for(lambda line: line == JOIN)
            await fred.send("roll")
            await fred.wait_for(lambda line: line == JOIN, since=fred.lines.index(JOIN) + 1)
            await alice.send("join")
            await alice.wait_for(lambda line: line == "Starting a new game with fred.")
            after = fred.lines.index(JOIN)
            assert not any(line.startswith("Starting a new game") for line in fred.lines[after:])
            await fred.send("join")
            await fred.wait_for(lambda line: line == "Starting a new game with alice.", since=after)
            await fred.wait_for(lambda line: line.startswith("board:"), since=after)
            await _bye(fred, alice)
            classes = set(fred.classifier.classes()) | set(alice.classifier.classes())
            for expected in (
                "FIBS_PointsFor", "FIBS_PlayerInfoStart", "FIBS_NotLoggedIn", "FIBS_NoInfo",
                "FIBS_StillLoggedIn", "FIBS_IsPlayingWith", "FIBS_RatingExperience",
                "FIBS_NoEmail", "FIBS_JoinNextGame",
            ):  # fmt: skip
                assert expected in classes, expected

    asyncio.run(scenario())


def test_goodbye_is_said_while_the_pump_tells_an_event(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bye`` typed while the session's pump is in the middle of telling an event
    (one that waits, as a board waits for the database under load): the lines of the
    pump's unfinished batch, the ``Goodbye.`` among them, are still written before
    the connection closes. Before, the batch went with the cancelled pump and the
    client never heard its goodbye."""
    telling, never = asyncio.Event(), asyncio.Event()
    tell = EVENTS["tell"]

    async def tell_slowly(session: Any, message: dict[str, Any]) -> None:
        telling.set()
        await never.wait()  # cancelled with the pump, never let through
        await tell(session, message)

    monkeypatch.setitem(EVENTS, "tell", tell_slowly)

    async def scenario() -> None:
        async with fibs_server(tmp_path, "", random.Random(1)) as (service, port):
            for name in ("fred", "alice"):
                await service.register(name, PASSWORD)
            fred = await _clip_login(port, "fred", PASSWORD)
            alice = await _clip_login(port, "alice", PASSWORD)
            await fred.send("tell alice are you there?")
            await asyncio.wait_for(telling.wait(), 10)
            await _bye(alice, fred)

    asyncio.run(scenario())
