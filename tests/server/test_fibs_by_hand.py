"""FIBS for a person at a terminal (issue 54, "FIBS, by hand"): what a plain line
client meets, each over a raw socket to the listener, in FIBS's own words (see
/work/shared/research/fibs.md and docs/fibs.md)."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

from backgammon.notation.fibs_board import decode_fibs_board
from backgammon.rules.position import Position

from .clip_client import ClipClient
from .test_fibs import PASSWORD, _clip_login
from .test_fibs_clients import fibs_server
from .test_fibs_lobby_feed import _telnet_login


async def _answer(client: ClipClient, command: str, starts: str = "") -> str:
    """Send ``command``; the first line after it that starts with ``starts``."""
    mark = len(client.lines)
    await client.send(command)
    index = await client.wait_for(lambda line: line.startswith(starts), since=mark)
    return client.lines[index]


async def _lines_after(client: ClipClient, command: str, last: str) -> list[str]:
    """Send ``command``; its lines up to the one starting with ``last``."""
    mark = len(client.lines)
    await client.send(command)
    end = await client.wait_for(lambda line: line.startswith(last), since=mark)
    return client.lines[mark : end + 1]


async def _match(port: int, length: int) -> tuple[ClipClient, ClipClient, ClipClient]:
    """ann invites bob (both CLIP) to a match; returns ann, bob and the starter."""
    ann = await _clip_login(port, "ann", PASSWORD)
    bob = await _clip_login(port, "bob", PASSWORD)
    await ann.send(f"invite bob {length}")
    await bob.wait_for(lambda line: line == "Type 'join ann' to accept.")
    await bob.send("join ann")
    for client in (ann, bob):
        await client.wait_for(lambda line: line.startswith("board:"))
    starter = ann if "It's your turn to move." in ann.lines else bob
    return ann, bob, starter


def _last_board(client: ClipClient) -> str:
    return next(line for line in reversed(client.lines) if line.startswith("board:"))


async def _play_any(client: ClipClient) -> None:
    """Move some legal play of the last board's dice."""
    board = _last_board(client)
    plays = Position.from_fibs_board(board).legal_plays(decode_fibs_board(board).player_dice)
    steps = " ".join(
        f"{'bar' if step.source == 25 else step.source}-"
        f"{'off' if step.destination == 0 else step.destination}"
        for step in next(iter(plays)).steps
    )
    await client.send(f"move {steps}")


def test_a_long_move_is_refused_in_fibs_words_and_the_connection_stays(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with fibs_server(tmp_path, "", random.Random(1)) as (service, port):
            for name in ("ann", "bob"):
                await service.register(name, PASSWORD)
            _ann, _bob, starter = await _match(port, 1)
            for count in (300, 50, 5):
                move = "move " + " ".join(["24-23"] * count)
                answer = await _answer(starter, move, "** ")
                assert answer == "** Please don't give more than 2 moves.", answer
            assert await _answer(starter, "who", "6") == "6"
            assert not starter.closed

    asyncio.run(scenario())


def test_leave_then_join_or_invite_resumes_the_saved_match_with_invitations_open(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with fibs_server(tmp_path, "", random.Random(2)) as (service, port):
            for name in ("ann", "bob", "cid", "dee"):
                await service.register(name, PASSWORD)
            ann, bob, _starter = await _match(port, 3)
            others = [await _clip_login(port, name, PASSWORD) for name in ("cid", "dee")]
            for name, other in zip(("cid", "dee"), others, strict=True):  # more invitations
                await other.send("invite bob 5")
                await bob.wait_for(lambda line, n=name: line == f"Type 'join {n}' to accept.")
            watcher = others[1]
            assert (await _answer(watcher, "watch ann", "You're now watching")).endswith("ann.")
            mark = len(bob.lines)
            assert await _answer(ann, "leave", "** ") == (
                "** You terminated the game. The game was saved."
            )
            # As FIBS tells it: the opponent is out of the match too, the watchers told.
            told = await bob.wait_for(lambda line: line.startswith("** Player"), since=mark)
            assert bob.lines[told] == "** Player ann has left the game. The game was saved."
            await watcher.wait_for(lambda line: line == "ann has left the game with bob.")
            assert await _answer(bob, "leave", "** ") == "** You're not playing."
            assert "FIBS_OpponentLeftGame" in bob.classifier.classes()  # as clients read it
            # (The watchers' line is the form other clients' tables quote whole, "bob
            # has left the game with alice."; GNU Backgammon for Android's table has
            # only an unanchored "has left the game." for it, and drops it.)
            assert "FIBS_YouTerminated" in ann.classifier.classes()
            refused = await _answer(bob, "invite ann 5", "** ")
            assert refused == "** You have a match with ann going on: type 'join ann' to resume it."
            mark = len(ann.lines)
            assert await _answer(bob, "join ann", "You are now playing") == (
                "You are now playing with ann. Your running match was loaded."
            )
            # ann, out of the match, is asked to take it up again as FIBS asks.
            asked = await ann.wait_for(lambda line: "wants to resume" in line, since=mark)
            assert ann.lines[asked : asked + 2] == [
                "bob wants to resume a saved match with you.",
                "Type 'join bob' to accept.",
            ]
            mark = len(bob.lines)
            assert await _answer(ann, "join bob", "You are now playing") == (
                "You are now playing with bob. Your running match was loaded."
            )
            joined = await bob.wait_for(lambda line: "has joined you" in line, since=mark)
            assert bob.lines[joined] == "ann has joined you. Your running match was loaded."
            assert {"FIBS_ResumeMatchRequest", "FIBS_TypeJoin"} <= set(ann.classifier.classes())
            assert "FIBS_ResumeMatchAck0" in bob.classifier.classes()
            # 'invite bob' resumes too.
            assert (await _answer(ann, "leave", "** ")).startswith("** You terminated")
            assert (await _answer(ann, "invite bob", "You are now playing")).endswith("loaded.")
            bob_user = await service.user_named("bob")
            assert len(await service.matches_of(bob_user)) == 1
            assert await _answer(others[0], "join bob", "** ") == "** bob didn't invite you."

    asyncio.run(scenario())


STYLE_1_START = [
    "   +13-14-15-16-17-18-------19-20-21-22-23-24-+ X: bob - score: 0",
    "   | O           X    |   |  X              O |",
    "   | O           X    |   |  X              O |",
    "   | O           X    |   |  X                |",
    "   | O                |   |  X                |",
    "   | O                |   |  X                |",
    "  v|                  |BAR|                   |    3-point match",
    "   | X                |   |  O                |",
    "   | X                |   |  O                |",
    "   | X           O    |   |  O                |",
    "   | X           O    |   |  O              X |",
    "   | X           O    |   |  O              X |",
    "   +12-11-10--9--8--7--------6--5--4--3--2--1-+ O: ann - score: 0",
    "",
]
"""FIBS's style-1 board at the start, as FIBS draws it (a FIBS session's transcript
in the research notes' sources: the same picture, names and match aside)."""


def test_boardstyles_1_2_3_draw_the_board_as_fibs_does_for_a_telnet_player(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with fibs_server(tmp_path, "", random.Random(3)) as (service, port):
            for name in ("ann", "bob"):
                await service.register(name, PASSWORD)
            ann = await _telnet_login(port, "ann")
            bob = await _clip_login(port, "bob", PASSWORD)
            await ann.send("invite bob 3")
            await bob.wait_for(lambda line: line == "Type 'join ann' to accept.")
            await bob.send("join ann")
            await ann.wait_for(lambda line: line.startswith("   BAR: O-0 X-0"))
            assert not any(line.startswith("board:") for line in ann.lines)  # style 2
            drawn = await _lines_after(ann, "board", "   BAR:")
            assert drawn[0] == "    13 14 15 16 17 18       19 20 21 22 23 24"
            assert drawn[1] == "   +------------------------------------------+ X: bob - score: 0"
            assert drawn[2:13] == STYLE_1_START[1:12]
            assert drawn[14] == "    12 11 10  9  8  7        6  5  4  3  2  1"
            assert await _answer(ann, "set boardstyle 1") == "Value of 'boardstyle' set to 1."
            drawn = await _lines_after(ann, "board", "   BAR:")
            assert drawn[:14] == STYLE_1_START
            status = r"   BAR: O-0 X-0   OFF: O-0 X-0   Cube: 1  (You|bob) rolled \d \d\."
            assert re.fullmatch(status, drawn[14]), drawn[14]
            await _answer(ann, "set boardstyle 3")
            assert (await _answer(ann, "board")).startswith("board:You:bob:3:0:0:")
            assert await _answer(ann, "set boardstyle 4", "** ") == (
                "** Valid arguments are the numbers 1 to 3."
            )

    asyncio.run(scenario())


def test_registration_says_why_a_name_is_refused_before_any_password(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with fibs_server(tmp_path, "", random.Random(4)) as (service, port):
            await service.register("taken", PASSWORD)
            guest = ClipClient("127.0.0.1", port)
            await guest.connect()
            await guest.wait_prompt("login: ")
            await guest.send("guest")
            await guest.wait_prompt("> ")
            refusals = {
                "name bob smith": "** Your name may not contain blanks ' ' or colons ':'.",
                "name ab": "** Your name may only contain letters, digits and the underscore",
                "name guest7": "** Please use another name. Names starting with 'guest'",
                "name taken": "** Please use another name. 'taken' is already used by someone",
            }
            for command, refusal in refusals.items():
                assert (await _answer(guest, command, "** ")).startswith(refusal)
                await guest.wait_prompt("> ")
            assert "Please give your password: " not in "\n".join(guest.lines)
            await guest.send("name nina")
            await guest.wait_prompt("Please give your password: ")
            short = await _answer(guest, "short", "Please give your password: Minimal")
            assert short.endswith("Minimal password length is 8 characters.")
            await guest.wait_prompt("Please give your password: ")
            # Typed twice differently: asked for both again (it went back to the name).
            await guest.send(PASSWORD)
            await guest.wait_prompt("Please retype your password: ")
            mark = len(guest.lines)
            await guest.send(PASSWORD + "x")
            index = await guest.wait_for(lambda line: "not identical" in line, since=mark)
            assert guest.lines[index].endswith(  # (after the prompts, which end no line)
                "** The two passwords were not identical. Please give them again."
            )
            await guest.wait_prompt("Please give your password: ")
            await guest.send(PASSWORD)
            await guest.wait_prompt("Please retype your password: ")
            await guest.send(PASSWORD)
            index = await guest.wait_for(lambda line: line.startswith("Welcome nina."))
            assert guest.lines[index - 2 : index] == ["Type 'help beginner' to get started.", ""]

    asyncio.run(scenario())


def test_help_beginner_and_help_on_a_topic(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with fibs_server(tmp_path, "", random.Random(5)) as (service, port):
            await service.register("ann", PASSWORD)
            ann = await _telnet_login(port, "ann")
            page = await _lines_after(ann, "help beginner", "    help topic")
            assert page[:2] == [" NAME", "  beginner - very short introduction to the server"]
            assert "    join player          (and the game can begin)" in page
            page = await _lines_after(ann, "help invite", "  going on, 'invite name'")
            assert page[1] == "  invite - invite a user to a match"
            assert " SYNOPSIS" in page and "  invite name [n|unlimited]" in page
            topics = await _lines_after(ann, "help", "  Type 'help beginner'")
            assert any("beginner" in line and "board" in line for line in topics)
            assert await _answer(ann, "help xyzzy", "** ") == "** No help available on xyzzy"
            # A refused tell is a sentence, not the web's field name ("** to: ...").
            assert await _answer(ann, "tell ann hello me", "** ") == "** you cannot tell yourself"

    asyncio.run(scenario())


def test_whois_and_rawwho_show_ready_and_watching_and_a_refusing_user_is_not_invited(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with fibs_server(tmp_path, "", random.Random(6)) as (service, port):
            for name in ("ann", "bob", "cid"):
                await service.register(name, PASSWORD)
            ann = await _telnet_login(port, "ann")
            bob = await _clip_login(port, "bob", PASSWORD)
            cid = await _clip_login(port, "cid", PASSWORD)
            whois = await _lines_after(ann, "whois bob", " Rating")
            assert " bob is ready to play, not watching, not playing." in whois
            await _answer(bob, "toggle ready", "** ")
            whois = await _lines_after(ann, "whois bob", " Rating")
            assert " bob is not ready to play, not watching, not playing." in whois
            assert await _answer(ann, "invite bob 3", "** ") == "** bob is refusing games."
            await _answer(cid, "watch bob", "bob is not doing")
            whois = await _lines_after(ann, "whois cid", " Rating")
            assert " cid is ready to play, watching bob, not playing." in whois
            raw = await _lines_after(ann, "rawwho", "6")
            lines = {line.split()[1]: line.split() for line in raw if line.startswith("5 ")}
            assert lines["bob"][2:5] == ["-", "-", "0"]
            assert lines["cid"][2:5] == ["-", "bob", "1"]
            assert await _answer(ann, "whois", "** ") == "** Whois who?"
            assert await _answer(cid, "watch cid", "** ") == "** Use a mirror to do that."

    asyncio.run(scenario())


def test_a_changed_ready_or_watching_is_pushed_to_clip_clients(tmp_path: Path) -> None:
    """FIBS pushes a user's new who line (``5 ...`` then ``6``) to every CLIP client
    when the user toggles ``ready`` or starts or stops watching; a client that only
    asked once (at login) otherwise shows a stale ready flag (it did here)."""

    async def pushed(client: ClipClient, since: int, name: str) -> list[str]:
        index = await client.wait_for(lambda line: line.startswith(f"5 {name} "), since=since)
        assert client.lines[index + 1] == "6", client.lines[index : index + 2]
        return client.lines[index].split()

    async def scenario() -> None:
        async with fibs_server(tmp_path, "", random.Random(8)) as (service, port):
            for name in ("ann", "bob", "cid"):
                await service.register(name, PASSWORD)
            ann = await _clip_login(port, "ann", PASSWORD)
            bob = await _clip_login(port, "bob", PASSWORD)
            await _clip_login(port, "cid", PASSWORD)
            mark = len(ann.lines)
            await _answer(bob, "toggle ready", "** ")
            assert (await pushed(ann, mark, "bob"))[2:5] == ["-", "-", "0"]
            mark = len(ann.lines)
            await _answer(bob, "toggle ready", "** ")
            assert (await pushed(ann, mark, "bob"))[2:5] == ["-", "-", "1"]
            mark = len(ann.lines)
            await _answer(bob, "watch cid", "cid is not doing")
            assert (await pushed(ann, mark, "bob"))[2:5] == ["-", "cid", "1"]
            mark = len(ann.lines)
            await _answer(bob, "unwatch", "You stop watching")
            assert (await pushed(ann, mark, "bob"))[2:5] == ["-", "-", "1"]

    asyncio.run(scenario())


def test_set_lists_the_variables_and_takes_fibs_values(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with fibs_server(tmp_path, "", random.Random(7)) as (service, port):
            await service.register("ann", PASSWORD)
            ann = await _telnet_login(port, "ann")
            listed = await _lines_after(ann, "set", "timezone:")
            assert listed == [
                "Settings of variables:",
                "boardstyle: 2",
                "linelength: 0",
                "pagelength: 0",
                "redoubles:  none",
                "sortwho:    login",
                "timezone:   UTC",
            ]
            for variable, value in (
                ("timezone", "Europe/Berlin"),
                ("redoubles", "unlimited"),
                ("sortwho", "rating"),
                ("linelength", "80"),
            ):
                answer = await _answer(ann, f"set {variable} {value}")
                assert answer == f"Value of '{variable}' set to {value}."
            assert (await _answer(ann, "set timezone Mars/Base", "** ")).startswith(
                "** Can't find timezone 'Mars/Base'."
            )
            assert await _answer(ann, "set colour red", "** ") == (
                "** Invalid argument. Type 'help set'."
            )
            # A CLIP login's own-info line ends in the timezone set (it said UTC).
            again = await _clip_login(port, "ann", PASSWORD)
            own = next(line for line in again.lines if line.startswith("2 ann "))
            assert own.endswith(" Europe/Berlin"), own
            assert "CLIP_OWN_INFO" in again.classifier.classes()

    asyncio.run(scenario())


def test_fibs_own_words_for_refused_actions_and_the_crawford_game(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with fibs_server(tmp_path, "", random.Random(8)) as (service, port):
            for name in ("ann", "bob"):
                await service.register(name, PASSWORD)
            ann, bob, starter = await _match(port, 3)
            other = bob if starter is ann else ann
            them = {id(ann): "bob", id(bob): "ann"}
            assert await _answer(other, "accept", "** ") == (
                f"** {them[id(other)]} didn't double or resign."
            )
            assert await _answer(starter, "say  ", "** ") == "** You can't say nothing."
            await _play_any(starter)
            await other.wait_for(lambda line: line == "It's your turn. Please roll or double")
            await other.send("double")
            await starter.wait_for(lambda line: line.endswith("Type 'accept' or 'reject'."))
            assert await _answer(other, "roll", "** ") == (
                f"** {them[id(other)]} hasn't responded to your double yet."
            )
            assert await _answer(starter, "roll", "** ") == (
                f"** {them[id(starter)]} doubles. Type 'accept' or 'reject'."
            )
            await starter.send("accept")
            await other.wait_for(lambda line: line.startswith("Please move"))
            await other.send("resign n")
            await starter.wait_for(lambda line: "wants to resign" in line)
            await starter.send("accept")
            for client in (ann, bob):  # 2-0 in a 3 point match: the Crawford game
                await client.wait_for(lambda line: line.startswith("Type 'join'"))
                await client.send("join")
            for client in (ann, bob):
                ended = await client.wait_for(lambda line: line.startswith("score in 3 point"))
                await client.wait_for(lambda line: line.startswith("board:"), ended)
            mark = {id(c): len(c.lines) for c in (ann, bob)}
            for client in (ann, bob):
                await client.send("double")
            for client in (ann, bob):
                index = await client.wait_for(lambda line: line.startswith("** "), mark[id(client)])
                assert client.lines[index] in (
                    "** The Crawford rule doesn't allow you to double in this game.",
                    "** It's not your turn to double.",
                ), client.lines[index]
            assert (await _answer(ann, "leave", "** ")).startswith("** You terminated")
            assert await _answer(ann, "say hello", "** ") == "** You're not playing."

    asyncio.run(scenario())


def test_toggles_and_variables_are_kept_with_the_account_across_a_restart(
    tmp_path: Path,
) -> None:
    async def first() -> None:
        async with fibs_server(tmp_path, "", random.Random(9)) as (service, port):
            await service.register("ann", PASSWORD)
            ann = await _telnet_login(port, "ann")
            for toggle in ("ready", "notify", "allowpip"):
                await _answer(ann, f"toggle {toggle}", "** ")
            await _answer(ann, "set boardstyle 1", "Value")
            await ann.send("bye")
            await ann.wait_for(lambda line: line.endswith("Goodbye."))

    async def second() -> None:
        async with fibs_server(tmp_path, "", random.Random(10)) as (_service, port):
            ann = await _telnet_login(port, "ann")
            listed = await _lines_after(ann, "toggle", "wrap")
            for toggle in ("ready", "notify", "allowpip"):
                assert f"{toggle:12} NO" in listed, listed
            assert f"{'double':12} YES" in listed
            assert await _answer(ann, "set boardstyle") == "Value of 'boardstyle' is 1"
            clip = await _clip_login(port, "ann", PASSWORD)  # (this login replaces the first)
            own = next(line for line in clip.lines if line.startswith("2 ann "))
            fields = own.split()
            assert fields[2] == "0"  # allowpip
            assert await _answer(clip, "set boardstyle") == "Value of 'boardstyle' is 3"

    asyncio.run(first())
    asyncio.run(second())


def test_a_bot_is_invited_in_fibs_order_and_whois_finds_it_logged_in(tmp_path: Path) -> None:
    async def scenario() -> None:
        bots = {"bots": ("beginner",), "bot_processes": 0}
        async with fibs_server(tmp_path, "", random.Random(11), **bots) as (service, port):
            await service.register("ann", PASSWORD)
            ann = await _clip_login(port, "ann", PASSWORD)
            whois = await _lines_after(ann, "whois bot_beginner", " Rating")
            assert " Still logged in. 0:00 minutes idle." in whois
            assert " bot_beginner is ready to play, not watching, not playing." in whois
            mark = len(ann.lines)
            await ann.send("invite bot_beginner 1")
            await ann.wait_for(lambda line: line.startswith("** Player bot_beginner"), mark)
            said = [line for line in ann.lines[mark:] if line.startswith("** ")]
            assert said[:2] == [
                "** You invited bot_beginner to a 1 point match.",
                "** Player bot_beginner has joined you for a 1 point match.",
            ]

    asyncio.run(scenario())


def test_smaller_things_a_person_meets(tmp_path: Path) -> None:
    """A second login closes the first (told why); a tell reads as a tell; an error
    line never repeats kilobytes; the server's stop is told."""

    async def scenario() -> None:
        async with fibs_server(tmp_path, "", random.Random(12)) as (service, port):
            for name in ("ann", "bob"):
                await service.register(name, PASSWORD)
            first = await _telnet_login(port, "ann")
            bob = await _telnet_login(port, "bob")
            await bob.send("tell ann hello there")
            await first.wait_for(lambda line: line == "bob tells: hello there")
            assert await _answer(bob, "tell ann", "** ") == "** Tell ann what?"
            answer = await _answer(bob, "x" * 4000, "** ")
            assert len(answer) < 100 and answer.startswith("** Unknown command: 'xxx")
            answer = await _answer(bob, "move " + "1-" * 1000, "** ")
            assert len(answer) < 400
            second = await _telnet_login(port, "ann")
            await first.wait_for(lambda line: line.startswith("** ann logged in again"))
            for _ in range(100):
                if first.closed:
                    break
                await asyncio.sleep(0.05)
            assert first.closed
        for client in (second, bob):  # the server stopped
            await client.wait_for(lambda line: line == "** All running games will be saved.")

    asyncio.run(scenario())
