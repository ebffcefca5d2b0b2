"""Whole matches over real WebSockets against a real server process.

Each test starts ``backgammon serve`` (uvicorn) on loopback with an empty database
(SQLite, and PostgreSQL where ``BACKGAMMON_TEST_POSTGRESQL`` names a server), and
drives it only through the documented HTTP API and WebSocket protocol.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from backgammon.formats import read_match
from backgammon.server.client import ServerClient
from backgammon.server.matches.fair_dice import verify_record

from .players import Policy, play_match, play_seat

PASSWORD = "a long enough password"


async def _users(url: str, *names: str) -> list[ServerClient]:
    clients = [ServerClient(url) for _ in names]
    for client, name in zip(clients, names, strict=True):
        await client.register(name, PASSWORD)
    return clients


def _check_spectator_saw_everything(messages: list[dict[str, Any]], match_id: str) -> int:
    """Every state after the first follows the previous one by exactly its entries."""
    states = [m for m in messages if m["type"] == "state" and m["match"] == match_id]
    assert states, "the spectator saw no state"
    for before, after in itertools.pairwise(states):
        assert after["state"]["seq"] == before["state"]["seq"] + len(after["entries"]), (
            f"a gap between states {before['state']['seq']} and {after['state']['seq']}"
        )
    return len(states)


def test_two_users_play_a_three_point_match(server_factory: Any, tmp_path: Path) -> None:
    server = server_factory("--no-warm-up", "--no-bots")

    async def scenario() -> None:
        alice, bob, carol = await _users(server.url, "alice", "bob", "carol")
        created = await alice.create_match(length=3, nonce="alice-nonce")
        match_id = created["id"]
        assert created["status"] == "open" and created["players"] == ["alice", None]
        joined = await bob.join(match_id, nonce="bob_nonce")
        assert joined["status"] == "playing" and joined["players"] == ["alice", "bob"]
        for client in (alice, bob, carol):
            welcome = await client.connect()
            assert welcome["protocol"] == 1
            first = await client.subscribe(match_id)
            assert first["type"] == "state"
        final = await play_match((alice, bob), match_id, seed=3)
        await carol.wait_for(
            lambda m: m["type"] == "state" and m["state"].get("result") is not None
        )
        result = final["result"]
        assert result["reason"] == "score"
        assert max(result["score"]) >= 3 and result["winner"] == result["score"].index(
            max(result["score"])
        )
        # The spectator saw every state, in order, without gaps.
        assert _check_spectator_saw_everything(carol.messages, match_id) > 20
        assert carol.states[match_id]["seq"] == final["seq"]
        # The seed appears in no message before the match is over.
        seed = final["dice"]["seed"]
        assert seed is not None and len(seed) == 64
        for client in (alice, bob, carol):
            for message in client.messages:
                if message["type"] == "state" and message["state"]["result"] is not None:
                    continue
                assert seed not in json.dumps(message), message["type"]
        # Doubles and takes were played (each player doubles at its first chance).
        mat = await alice.download(match_id, "mat")
        assert "Doubles" in mat and "Takes" in mat
        path = tmp_path / "match.mat"
        path.write_text(mat)
        record = read_match(path)
        assert list(record.score) == result["score"]
        assert record.players == ("alice", "bob")
        sgf = await alice.download(match_id, "sgf")
        (tmp_path / "match.sgf").write_text(sgf)
        assert list(read_match(tmp_path / "match.sgf").score) == result["score"]
        # The dice verify, by the library and by the command; a tampered roll fails.
        dice = json.loads(await carol.download(match_id, "dice"))
        assert dice["nonces"] == ["alice-nonce", "bob_nonce"]
        assert verify_record(dice) is None
        dice_file = tmp_path / "dice.json"
        dice_file.write_text(json.dumps(dice))
        verify = [sys.executable, "-m", "backgammon", "verify-dice", str(dice_file)]
        checked = subprocess.run(verify, capture_output=True, text=True, check=False)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "verify" in checked.stdout
        throw = dice["throws"][7]
        throw["dice"] = [throw["dice"][0] % 6 + 1, throw["dice"][1]]
        dice_file.write_text(json.dumps(dice))
        tampered = subprocess.run(verify, capture_output=True, text=True, check=False)
        assert tampered.returncode == 1
        assert "throw 7" in tampered.stdout
        # Ratings moved for both (a rated match between registered users).
        profile = await alice.request("GET", "/api/users/alice")
        rating = profile["ratings"]["standard"]
        assert rating["experience"] == 3 and rating["rating"] != 1500.0
        assert len(profile["rating_history"]) == 1
        for client in (alice, bob, carol):
            await client.close()

    asyncio.run(scenario())


def test_a_user_plays_a_bot_and_a_variant_match(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")

    async def scenario() -> None:
        (dave,) = await _users(server.url, "dave")
        await dave.connect()
        lobby = await dave.subscribe("lobby")
        assert {"bot_beginner", "bot_expert"} <= {bot["name"] for bot in lobby["bots"]}
        created = await dave.create_match(opponent="bot:beginner", length=1)
        assert created["status"] == "playing"
        match_id = created["id"]
        await dave.subscribe(match_id)
        final = await play_seat(dave, match_id, 0, Policy(seed=5, double_first=False))
        assert final["result"]["reason"] == "score"
        assert final["players"] == ["dave", "bot_beginner"]
        assert verify_record(json.loads(await dave.download(match_id, "dice"))) is None
        # A variant match against the bot: long nardy (no cube).
        nardy = await dave.create_match(opponent="bot:beginner", length=1, variant="long-nardy")
        await dave.subscribe(nardy["id"])
        final = await play_seat(dave, nardy["id"], 0, Policy(seed=6, double_first=False))
        assert final["settings"]["variant"] == "long-nardy"
        assert final["result"]["reason"] == "score"
        await dave.close()

    asyncio.run(scenario())


def test_two_users_play_nackgammon(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots")

    async def scenario() -> None:
        erin, frank = await _users(server.url, "erin", "frank")
        created = await erin.create_match(length=1, variant="nackgammon", opponent="frank")
        await frank.join(created["id"])
        for client in (erin, frank):
            await client.connect()
            state = (await client.subscribe(created["id"]))["state"]
        assert state["settings"]["variant"] == "nackgammon"
        assert sum(state["game"]["board"]["player0"]) == 15
        final = await play_match((erin, frank), created["id"], seed=11)
        assert final["result"]["reason"] == "score"
        for client in (erin, frank):
            await client.close()

    asyncio.run(scenario())
