"""Tabula on the server: three dice a throw, verifiable, played by the bots.

A person plays a 1-point tabula match against a bot over a real WebSocket (the bot
plays with the engine, the throws are three dice that verify from the revealed seed);
a play that leaves a die unused when the whole throw can be played is refused and
changes nothing.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from backgammon.server.client import ServerClient
from backgammon.server.matches.fair_dice import derive_throw, derive_throw_of, verify_record
from backgammon.server.matches.live import ActionRefusedError, LiveMatch
from backgammon.server.protocol import ActionBody, MatchSettings

from .players import Policy, play_seat
from .test_fibs import _clip_login, _fibs_port

PASSWORD = "a long enough password"


def test_a_user_plays_a_whole_tabula_match_against_a_bot(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")

    async def scenario() -> None:
        erin = ServerClient(server.url)
        await erin.register("erin", PASSWORD)
        await erin.connect()
        created = await erin.create_match(opponent="bot:beginner", length=1, variant="tabula")
        assert created["status"] == "playing"
        match_id = created["id"]
        await erin.subscribe(match_id)
        final = await play_seat(erin, match_id, 0, Policy(seed=7, double_first=False))
        assert final["settings"]["variant"] == "tabula"
        assert final["result"]["reason"] == "score"
        assert final["players"] == ["erin", "bot_beginner"]
        rolled = [
            entry["dice"]
            for message in erin.messages
            if message.get("type") == "state"
            for entry in message["entries"]
            if entry["kind"] == "roll"
        ]
        record = json.loads(await erin.download(match_id, "dice"))
        throws = [throw["dice"] for throw in record["throws"] if throw["kind"] == "roll"]
        assert throws and all(len(dice) == 3 for dice in throws)
        assert all(len(dice) == 3 for dice in rolled)
        assert verify_record(record) is None
        await erin.close()

    asyncio.run(scenario())


def test_three_dice_extend_the_verifiable_two_dice_throw() -> None:
    seed = bytes(range(32))
    for index in range(20):
        three = derive_throw_of(seed, ("a", "b"), index, 3)
        assert three[:2] == derive_throw(seed, ("a", "b"), index)
        assert all(1 <= die <= 6 for die in three)


def test_a_tabula_play_that_drops_a_playable_die_is_refused_and_changes_nothing() -> None:
    live = LiveMatch(
        "t1", MatchSettings(variant="tabula", length=1, clock=None), ("a", "b"), bytes(32)
    )
    live.start(0.0)
    state = live.state(1.0)
    game = state["game"]
    assert len(game["dice"]) == 3  # the opening winner has thrown three dice
    seat = state["waiting_for"]
    full = game["legal_plays"][0]
    assert len(full.split()) >= 2
    short = full.split()[0]  # one checker entered, the other dice unused
    try:
        live.act(seat, ActionBody(kind="play", move=short), 2.0)
    except ActionRefusedError as error:
        assert error.code == "illegal"
    else:
        raise AssertionError(f"{short!r} was accepted from {game['dice']}")
    assert live.state(3.0) == live.state(3.0) and live.state(3.0)["game"] == game
    try:
        live.act(1 - seat, ActionBody(kind="play", move=full), 2.0)
    except ActionRefusedError as error:
        assert error.code == "not_your_turn"
    else:
        raise AssertionError("the other seat moved")
    assert live.state(3.0)["game"] == game


def test_fibs_explains_that_it_cannot_show_a_tabula_match(server_factory: Any) -> None:
    """A FIBS board has two dice: a FIBS user invited to tabula is told so, and
    cannot join (the invitation stays open); watching or looking at a player in a
    tabula match gets the same explanation, and the session goes on."""
    server = server_factory("--no-warm-up", "--bot-processes", "1", "--fibs-port", "0")
    port = _fibs_port(server)

    async def scenario() -> None:
        jane, kim = ServerClient(server.url), ServerClient(server.url)
        await jane.register("jane", PASSWORD)
        await kim.register("kim", PASSWORD)
        await ServerClient(server.url).register("leo", PASSWORD)
        leo = await _clip_login(port, "leo", PASSWORD)
        invited = await jane.create_match(length=1, opponent="leo", variant="tabula")
        await leo.wait_for(lambda line: line == "jane wants to play a 1 point match of tabula.")
        await leo.wait_for(lambda line: line.startswith("** It can't be played here: tabula"))
        mark = len(leo.lines)
        await leo.send("join jane")
        index = await leo.wait_for(lambda line: line.startswith("** "), since=mark)
        assert leo.lines[index] == (
            "** You can't join this match here: tabula throws 3 dice, which a FIBS board "
            "cannot show; play or watch it on the web."
        )
        state = await jane.request("GET", f"/api/matches/{invited['id']}")
        assert state["open"]["status"] == "open", state
        # A match in play: kim against a bot.
        playing = await kim.create_match(opponent="bot:beginner", length=1, variant="tabula")
        assert playing["status"] == "playing"
        mark = len(leo.lines)
        await leo.send("watch kim")
        await leo.wait_for(lambda line: line.startswith("** kim's match is not shown"), since=mark)
        mark = len(leo.lines)
        await leo.send("look kim")
        await leo.wait_for(lambda line: line.startswith("** kim's match is not shown"), since=mark)
        mark = len(leo.lines)
        await leo.send("board")
        await leo.wait_for(lambda line: line == "** You're not watching or playing.", since=mark)
        assert not any(line.startswith("board:") for line in leo.lines)
        await leo.close()

    asyncio.run(scenario())
