"""The FIBS session in-process, on a real SQLite database: orderings of its two tasks
(the commands it reads and the events it is sent) that loopback seldom produces."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from backgammon.notation.fibs_board import decode_fibs_board, fibs_board_to_sides
from backgammon.rules.position import Position
from backgammon.server.db.database import Database
from backgammon.server.db.repository import User
from backgammon.server.fibs.session import FibsSession
from backgammon.server.protocol import ActionBody, CreateMatch, MatchSettings
from backgammon.server.service import GameService
from backgammon.server.settings import Settings

PASSWORD = "a long enough password"


async def _until(done: Any, what: str) -> None:
    for _ in range(1000):
        if done():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"timed out waiting for {what}")


async def _jane_and_leo(
    service: GameService,
) -> tuple[User, FibsSession, asyncio.Queue[str], list[str]]:
    """Accounts jane and leo; a FIBS session not yet run (leo will log in), the
    queue its lines are read from and the list of what it writes."""
    jane, _ = await service.register("jane", PASSWORD)
    await service.register("leo", PASSWORD)
    inputs: asyncio.Queue[str] = asyncio.Queue()
    output: list[str] = []

    async def write(text: str) -> None:
        output.append(text)

    return jane, FibsSession(service, inputs.get, write, "127.0.0.1"), inputs, output


def test_a_join_whose_reply_comes_after_the_match_started_event_starts_playing_once(
    tmp_path: Path,
) -> None:
    """The service tells the joiner's session that the match started before
    ``join_match`` returns; here the session handles that event (and the state after
    it) before the command goes on. The match is told once: one new game, one prompt,
    the joiner's own line, not the inviter's."""

    async def main() -> None:
        settings = Settings(data_dir=tmp_path, bots=(), warm_up=False)
        service = GameService(settings, Database(settings.database))
        await service.start()
        try:
            jane, session, inputs, output = await _jane_and_leo(service)
            handled: list[str] = []
            event = session._event

            async def tracked_event(message: dict[str, Any]) -> None:
                await event(message)
                handled.append(message.get("type", ""))

            session._event = tracked_event  # type: ignore[method-assign]
            join = service.join_match

            async def slow_join(*args: Any, **kwargs: Any) -> dict[str, Any]:
                joined = await join(*args, **kwargs)
                # The reply is late: the session's events are all handled first.
                await _until(lambda: "match_started" in handled, "the match_started event")
                connection = session.connection
                assert connection is not None
                for _ in range(20):
                    await asyncio.sleep(0.005)
                await _until(connection.queue.empty, "the session's events")
                return joined

            service.join_match = slow_join  # type: ignore[method-assign]
            running = asyncio.create_task(session.run())
            await inputs.put(f"login TestClient 1008 leo {PASSWORD}")
            await _until(lambda: "6\r\n" in "".join(output), "the login")
            request = CreateMatch(settings=MatchSettings(length=1), opponent="leo")
            await service.create_match(jane, request)
            await _until(lambda: "Type 'join jane'" in "".join(output), "the invitation")
            await inputs.put("join jane")
            await _until(lambda: "** You are now playing" in "".join(output), "the join's answer")
            await _until(lambda: "Starting a new game" in "".join(output), "the new game")
            connection = session.connection
            assert connection is not None
            await _until(connection.queue.empty, "the session's events")
            for _ in range(20):
                await asyncio.sleep(0.005)
            lines = "".join(output).split("\r\n")
            await inputs.put("bye")
            await running
        finally:
            await service.stop()
        assert lines.count("Starting a new game with jane.") == 1
        prompts = ("Please move", "It's your turn")
        assert len([line for line in lines if line.startswith(prompts)]) <= 1
        assert lines.count("** You are now playing a 1 point match with jane") == 1
        assert not any(line.startswith("** Player jane has joined you") for line in lines)

    asyncio.run(main())


def test_a_session_catching_up_on_a_match_shows_the_opening_board_and_prompts_its_turn(
    tmp_path: Path,
) -> None:
    """The inviter's session is busy when the match starts: the joiner has won the
    opening and moved before the session tells the match, from its log, at once. The
    board after the opening is the starting position with the opening dice (not the
    position after the move), and the inviter is asked to roll: without that prompt
    a FIBS client waits for ever (fibs_load saw it at 500 matches)."""

    async def main() -> None:
        settings = Settings(data_dir=tmp_path, bots=(), warm_up=False)
        seed = bytes([4]) * 32  # the opening throw is (1, 2): seat 1, the joiner, starts
        service = GameService(settings, Database(settings.database), dice_seeds=lambda: seed)
        await service.start()
        try:
            jane, session, inputs, output = await _jane_and_leo(service)
            started, busy = session._match_started, asyncio.Event()

            async def busy_started(message: dict[str, Any]) -> None:
                await busy.wait()
                await started(message)

            session._match_started = busy_started  # type: ignore[method-assign]
            running = asyncio.create_task(session.run())
            await inputs.put(f"login TestClient 1008 leo {PASSWORD}")
            await _until(lambda: "6\r\n" in "".join(output), "the login")
            await inputs.put("invite jane 3")
            await _until(lambda: "** You invited jane" in "".join(output), "the invitation")
            match_id = await service.invitation_from(jane, "leo")
            await service.join_match(jane, match_id)
            state = await service.state(match_id)
            assert state["game"]["turn"] == 1
            move = state["game"]["legal_plays"][0]
            await service.act(jane, match_id, ActionBody(kind="play", move=move))
            busy.set()
            await _until(lambda: "Please roll" in "".join(output), "the prompt")
            lines = "".join(output).split("\r\n")
            await inputs.put("bye")
            await running
        finally:
            await service.stop()
        opening = lines.index("You rolled 1, jane rolled 2")
        assert lines[opening + 1] == "jane makes the first move."
        board = decode_fibs_board(lines[opening + 2])
        assert board.opponent_dice == (2, 1) and board.player_dice == (0, 0)
        start = Position.initial()
        mine, theirs = fibs_board_to_sides(board.board, board.colour, board.direction)
        assert (tuple(mine[:24]), tuple(theirs[:24])) == (start.player[1:25], start.opponent[1:25])
        assert lines[opening + 3].startswith("jane moves ")
        assert lines.count("It's your turn. Please roll or double") == 1

    asyncio.run(main())
