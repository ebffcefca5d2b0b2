"""FIBS clients as they are written: every line a session receives is classified with
the public CookieMonster table (tests/data/fibs_cookie_monster.json) and none may be
unknown; a guest registers the way GNU Backgammon for Android does; and every turn
shape arrives in FIBS's order with FIBS's board fields (docs/fibs.md, "Turn shapes")."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from backgammon.notation.fibs_board import FibsBoardFields, decode_fibs_board
from backgammon.rules.position import Position
from backgammon.server.db.database import Database
from backgammon.server.fibs.listener import FibsListener
from backgammon.server.service import GameService
from backgammon.server.settings import Settings

from .clip_client import ClipClient
from .conftest import new_postgresql_database
from .test_fibs import PASSWORD, _clip_login, _fibs_port

LENGTH = 5


@contextlib.asynccontextmanager
async def fibs_server(
    tmp_path: Path, database: str, dice: random.Random, **overrides: Any
) -> AsyncIterator[tuple[GameService, int]]:
    """The game service with its FIBS listener on a free loopback port, in this
    process, on ``database`` (a URL; empty: SQLite in ``tmp_path``), each match's
    dice seed drawn from ``dice``: a session replays exactly. ``overrides`` are
    settings (``bots=("beginner",)``). Yields the service and the port."""
    chosen: dict[str, Any] = {
        "bots": (),
        "warm_up": False,
        "messages_per_second": 500,
        "message_burst": 1000,
        **overrides,
    }
    settings = Settings(database_url=database, data_dir=tmp_path, **chosen)
    service = GameService(
        settings, Database(settings.database), dice_seeds=lambda: dice.randbytes(32)
    )
    await service.start()
    listener = FibsListener(service, "127.0.0.1", 0)
    try:
        await listener.start()
        yield service, listener.port
    finally:
        await listener.stop()
        await service.stop()


async def _register_like_gnubg_android(port: int, name: str, password: str) -> list[str]:
    """GNU Backgammon for Android's registration (ClientReceiveParser's register
    mode): it acts only on the classes of what it reads. Returns the classes."""
    client = ClipClient("127.0.0.1", port)
    await client.connect()
    seen, registered = 0, False
    try:
        while True:
            while seen >= len(client.classifier.seen):
                if client.closed:
                    return client.classifier.classes()
                await asyncio.sleep(0.01)
            cls = client.classifier.seen[seen].cls
            seen += 1
            if cls == "FIBS_LoginPrompt":
                await client.send("guest")
            elif cls == "FIBS_GiveUsername":
                await client.send("bye" if registered else f"name {name}")
            elif cls in ("FIBS_GivePassword", "FIBS_RetypePassword"):
                await client.send(password)
            elif cls in ("FIBS_YouAreRegistered", "FIBS_UseAnotherName"):
                registered = True
                if cls == "FIBS_UseAnotherName":
                    await client.send("bye")
    finally:
        await client.close()


def test_a_guest_registers_as_gnubg_for_android_does_and_a_taken_name_is_refused_at_once(
    server_factory: Any,
) -> None:
    server = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0")
    port = _fibs_port(server)

    async def scenario() -> None:
        classes = await asyncio.wait_for(_register_like_gnubg_android(port, "nina", PASSWORD), 30)
        assert "FIBS_WelcomeToFibs" in classes
        assert "FIBS_YouAreRegistered" in classes
        nina = await _clip_login(port, "nina", PASSWORD)  # the new account logs in
        assert any(line.startswith("1 nina ") for line in nina.lines)
        await nina.close()
        again = await asyncio.wait_for(_register_like_gnubg_android(port, "nina", "other"), 30)
        assert "FIBS_UseAnotherName" in again
        assert "FIBS_GivePassword" not in again  # refused before any password

    asyncio.run(scenario())


@dataclass
class Script:
    """What one scripted player does at each decision (by game number): double at
    the first chance (``double_in``), redouble at the first chance while holding the
    cube (``redouble_in``), offer to resign at the first move (``resign_in``). Each
    happens whatever the dice."""

    double_in: set[int] = field(default_factory=set)
    redouble_in: set[int] = field(default_factory=set)
    take: bool = True
    resign_in: set[int] = field(default_factory=set)
    accept_resign: bool = True
    done: set[str] = field(default_factory=set)


async def _play(client: ClipClient, name: str, script: Script, rng: random.Random) -> str:
    """A strict FIBS client: acts only on lines it recognises; returns the match end."""
    index, game = 0, 0
    while True:
        index = await client.wait_for(lambda _line: True, since=index, timeout=60)
        line = client.lines[index]
        index += 1
        if line.startswith("Starting a new game with"):
            game += 1
        elif re.match(r"^(You win|\S+ wins) the \d+ point match", line):
            return line
        elif line == "Type 'join' if you want to play the next game, type 'leave' if you don't.":
            await client.send("join")
        elif line.startswith("It's your turn. Please roll or double"):
            await client.send("double" if _doubles_now(client, index, game, script) else "roll")
        elif "doubles. Type 'accept' or 'reject'." in line:
            await client.send("accept" if script.take else "reject")
        elif "wants to resign. You will win" in line:
            await client.send("accept" if script.accept_resign else "reject")
        elif line.startswith("Please move") or line == "It's your turn to move.":
            if game in script.resign_in and f"resign{game}" not in script.done:
                script.done.add(f"resign{game}")
                await client.send("resign n")
                continue
            if line == "It's your turn to move.":
                index = 1 + await client.wait_for(lambda x: x.startswith("board:"), since=index)
            board = next(x for x in reversed(client.lines[:index]) if x.startswith("board:"))
            fields = decode_fibs_board(board)
            plays = Position.from_fibs_board(board).legal_plays(fields.player_dice)
            play = rng.choice(list(plays))
            await client.send(
                "move "
                + " ".join(
                    f"{'bar' if s.source == 25 else s.source}-"
                    f"{'off' if s.destination == 0 else s.destination}"
                    for s in play.steps
                )
            )


def _doubles_now(client: ClipClient, index: int, game: int, script: Script) -> bool:
    """Whether the script doubles at this 'roll or double' prompt (once a game)."""
    if f"double{game}" in script.done:
        return False
    board = decode_fibs_board(
        next(x for x in reversed(client.lines[:index]) if x.startswith("board:"))
    )
    holding = board.cube > 1 and board.player_may_double
    if game in script.double_in or (game in script.redouble_in and holding):
        script.done.add(f"double{game}")
        return True
    return False


def _board(line: str) -> FibsBoardFields:
    assert line.startswith("board:"), line
    return decode_fibs_board(line)


def _check_opening(lines: list[str], me: str, watching: bool = False) -> int:
    """'Starting a new game with X.' (to a player: a watcher is told no such line),
    'A rolled a, B rolled b', who starts, a board with the starter's pair of dice
    showing the opening roll."""
    count = 0
    for i, line in enumerate(lines):
        found = re.match(r"^(\S+) rolled (\d), (\S+) rolled (\d)$", line)
        if not found or found.group(2) == found.group(4):
            continue
        count += 1
        before = lines[i - 1]  # the start of the game, or a tie rolled again
        tie = re.match(r"^\S+ rolled (\d), \S+ rolled (\d)$", before)
        assert (before.startswith("Starting a new game with") != watching) or (
            tie is not None and tie.group(1) == tie.group(2)
        ), before
        first, second = int(found.group(2)), int(found.group(4))
        starts_first = first > second
        if found.group(1) == "You":
            assert lines[i + 1] == (
                "It's your turn to move."
                if starts_first
                else f"{found.group(3)} makes the first move."
            )
        board = _board(lines[i + 2])
        mine = starts_first == (found.group(1) in ("You", me))
        dice = board.player_dice if mine else board.opponent_dice
        assert sorted(dice) == sorted((first, second)), (line, lines[i + 2])
        assert (board.opponent_dice if mine else board.player_dice) == (0, 0)
    return count


def _check_own_rolls(lines: list[str]) -> dict[str, int]:
    """'You roll a and b.', a board showing them with can-move, then 'Please move n
    pieces.' (n = can-move) or 'You can't move.' and the opponent's turn's board."""
    shapes = {"roll": 0, "doubles": 0, "no move": 0, "forced one": 0, "bar": 0}
    for i, line in enumerate(lines):
        found = re.match(r"^You roll (\d) and (\d)\.$", line)
        if not found:
            continue
        dice = (int(found.group(1)), int(found.group(2)))
        board = _board(lines[i + 1])
        assert board.player_dice == dice and board.opponent_dice == (0, 0)
        assert board.turn == board.colour
        shapes["roll"] += 1
        shapes["doubles"] += dice[0] == dice[1]
        shapes["bar"] += board.player_on_bar > 0
        if board.can_move:
            assert lines[i + 2] == f"Please move {board.can_move} piece" + (
                "s." if board.can_move > 1 else "."
            )
            shapes["forced one"] += board.can_move == 1
        else:
            assert lines[i + 2] == "You can't move.", lines[i : i + 4]
            after = _board(lines[i + 3])
            assert after.turn == -after.colour and after.player_dice == (0, 0)
            shapes["no move"] += 1
    return shapes


def _check_their_rolls(lines: list[str], other: str) -> int:
    """'X rolls a and b.' and a board with X's dice; then 'X moves ... .' or 'X can't
    move.' and a board with no dice."""
    count = 0
    for i, line in enumerate(lines):
        found = re.match(rf"^{other} rolls (\d) and (\d)\.$", line)
        if not found:
            continue
        count += 1
        board = _board(lines[i + 1])
        assert board.opponent_dice == (int(found.group(1)), int(found.group(2)))
        assert board.player_dice == (0, 0) and board.turn == -board.colour
        if lines[i + 2].startswith("**") or "wants to resign" in lines[i + 2]:
            continue
        assert lines[i + 2].startswith((f"{other} moves ", f"{other} can't move.")), lines[i + 2]
        after = _board(lines[i + 3])
        assert after.opponent_dice == (0, 0)
    return count


def test_whole_sessions_are_recognised_and_every_turn_shape_is_fibs(
    tmp_path: Path, backend: str
) -> None:
    """Fred doubles at his first chance, alice takes and redoubles at hers, fred
    drops; alice offers to resign at her first move in game 1 (fred rejects), fred at
    his in game 2 (alice accepts): these shapes come whatever the dice. The dice are
    seeded, so the rest (doubles, a checker on the bar) comes the same way each run."""

    database = new_postgresql_database() if backend == "postgresql" else ""

    async def scenario() -> None:
        async with fibs_server(tmp_path, database, random.Random(34)) as (service, port):
            for name in ("fred", "alice", "mona"):
                await service.register(name, PASSWORD)
            await session(port)

    async def session(port: int) -> None:
        fred = await _clip_login(port, "fred", PASSWORD)
        alice = await _clip_login(port, "alice", PASSWORD)
        mona = await _clip_login(port, "mona", PASSWORD)
        clients = (fred, alice, mona)
        # Toggles, each there and back, and the list; chat outside a game.
        for toggle in ("allowpip", "bell", "greedy", "moves", "notify", "ready", "report"):
            await mona.send(f"toggle {toggle}")
            await mona.send(f"toggle {toggle}")
        await mona.send("toggle")
        await mona.send("board")
        await mona.send("shout hello all")
        await mona.send("who")
        await mona.wait_for(lambda line: line == "** You're not watching or playing.")
        # Watching a player who is not playing yet, then the match starts.
        await mona.send("watch fred")
        await mona.wait_for(lambda line: line == "fred is not doing anything interesting.")
        await fred.send("invite alice 5")
        await alice.wait_for(lambda line: line == "Type 'join fred' to accept.")
        await alice.send("join fred")
        await fred.wait_for(lambda line: line.startswith("** Player alice has joined you"))
        await fred.send("say good luck")
        await alice.send("kibitz thanks")
        await mona.wait_for(lambda line: line == "fred and alice start a 5 point match.")
        await mona.send("kibitz go fred")
        fred_script = Script(double_in={1}, take=False, accept_resign=False, resign_in={2})
        alice_script = Script(redouble_in={1}, resign_in={1})
        ends = await asyncio.gather(
            _play(fred, "fred", fred_script, random.Random(5)),
            _play(alice, "alice", alice_script, random.Random(6)),
        )
        await mona.wait_for(lambda line: f"the {LENGTH} point match" in line)
        assert ends[0].startswith(("You win the 5 point match", "alice wins the 5 point match"))
        # Watching by name follows the player into the next match, as on FIBS; its
        # players leave with the match in play (their goodbyes were once lost while
        # the session's pump told the new match's board: test_fibs_social).
        mark, invited = len(mona.lines), len(alice.lines)
        await fred.send("invite alice 1")
        await alice.wait_for(lambda line: line == "Type 'join fred' to accept.", since=invited)
        await alice.send("join fred")
        await mona.wait_for(lambda line: line == "fred and alice start a 1 point match.", mark)
        await mona.wait_for(lambda line: line.startswith("board:"), mark)
        await mona.send("unwatch")
        await mona.wait_for(lambda line: line == "You stop watching fred.")
        for client in clients:
            await client.send("bye")
            await client.wait_for(lambda line: line.endswith(" Goodbye."))
            await client.close()

        # 1. Every line of every session is recognised.
        for client in clients:
            assert client.unknown() == [], client.unknown()
        fred_classes = set(fred.classifier.classes())
        for expected in (
            "CLIP_WELCOME", "CLIP_OWN_INFO", "CLIP_WHO_INFO", "CLIP_WHO_END", "FIBS_Board",
            "FIBS_YouInvited", "FIBS_NewMatchAck2", "FIBS_StartingNewGame", "FIBS_FirstRoll",
            "FIBS_YouRoll", "FIBS_PlayerRolls", "FIBS_PleaseMove", "FIBS_PlayerMoves",
            "FIBS_RollOrDouble", "FIBS_YouDouble", "FIBS_PlayerAcceptsDouble",
            "FIBS_AcceptRejectDouble", "FIBS_YouGiveUp", "FIBS_PlayerWantsToResign",
            "FIBS_YouReject", "FIBS_YouResign", "FIBS_AcceptWins", "FIBS_ScoreUpdate",
            "CLIP_YOU_SAY", "CLIP_KIBITZES", "FIBS_Goodbye", "FIBS_JoinNextGame",
        ):  # fmt: skip
            assert expected in fred_classes, expected
        mona_classes = set(mona.classifier.classes())
        for expected in (
            "FIBS_NotWatchingPlaying", "FIBS_YouAreWatching", "FIBS_NotInteresting",
            "FIBS_PlayersStartingMatch", "FIBS_ReadyTrue", "FIBS_ReadyFalse",
            "FIBS_SettingsHeader", "FIBS_Doubles", "FIBS_WatchResign", "FIBS_YouStopWatching",
            "CLIP_YOU_SHOUT", "CLIP_YOU_KIBITZ",
        ):  # fmt: skip
            assert expected in mona_classes, expected
        assert any(line.startswith("board:fred:alice:5:") for line in mona.lines)

        # 2. The turn shapes, in FIBS's order, for the players and the watcher.
        assert _check_opening(fred.lines, "fred") >= 2
        assert _check_opening(mona.lines, "fred", watching=True) >= 2
        assert not any(line.startswith("Starting a new game") for line in mona.lines)
        shapes = _check_own_rolls(fred.lines)
        other = _check_own_rolls(alice.lines)
        assert shapes["roll"] > 10 and other["roll"] > 10
        assert shapes["bar"] + other["bar"] and shapes["doubles"] + other["doubles"]
        assert _check_their_rolls(fred.lines, "alice") > 10
        assert _check_their_rolls(mona.lines, "alice") > 10
        # Double, take, roll with the new cube; the redouble dropped.
        i = fred.lines.index("You double. Please wait for alice to accept or reject.")
        assert fred.lines[i + 1] == "alice accepts the double. The cube shows 2."
        assert fred.lines[i + 2].startswith("You roll ")
        assert _board(fred.lines[i + 3]).cube == 2
        i = fred.lines.index("alice doubles. Type 'accept' or 'reject'.")
        assert fred.lines[i + 1 : i + 3] == [
            "You give up. alice wins 2 points.",
            "score in 5 point match: fred-0 alice-2",
        ]
        # Resign offered and rejected, then the same roll is played.
        i = next(
            i
            for i, line in enumerate(fred.lines)
            if re.match(r"^alice wants to resign\. You will win \d+ points?\. Type", line)
        )
        assert fred.lines[i + 1] == "You reject. The game continues."
        i = alice.lines.index("fred rejects. The game continues.")
        assert alice.lines[i + 1].startswith("Please move")
        # Resign offered and accepted.
        i = fred.lines.index("You want to resign. alice will win 1 point.")
        assert fred.lines[i + 1 : i + 3] == [
            "alice accepts and wins 1 point.",
            "score in 5 point match: fred-0 alice-3",
        ]
        # Between games: FIBS's 'join' step; the next game is told once joined.
        joins = [i for i, line in enumerate(fred.lines) if line.startswith("Type 'join' if")]
        assert len(joins) >= 2
        for i in joins:
            assert fred.lines[i - 1].startswith("score in 5 point match:"), fred.lines[i - 1]
            assert fred.lines[i + 1] == "Starting a new game with alice.", fred.lines[i + 1]
        # A game borne off: the last move's board (turn 0, nobody's dice), the end.
        ends_of_games = [
            i
            for i, line in enumerate(fred.lines)
            if line.startswith(("You win the game", "alice wins the game"))
        ]
        assert ends_of_games
        for i in ends_of_games:
            last = _board(fred.lines[i - 1])
            assert last.turn == 0 and last.player_dice == last.opponent_dice == (0, 0)
            assert 15 in (last.player_off, last.opponent_off)

    asyncio.run(scenario())
