"""Tournaments on a real server: people over HTTP and WebSockets, the server's bots
in the other seats; a knock-out and a Swiss played to the end, a restart after a
SIGKILL in round 2, and the refusals (wrong user, late registration, bad bodies)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from backgammon.server.client import ClientError, ServerClient

from .players import Policy, play_seat
from .test_fibs import _clip_login, _fibs_port

PASSWORD = "a long enough password"
BOTS = ("--no-warm-up", "--bot-processes", "1")
ONE_POINT = {"early_length": 1, "semi_final_length": 1, "final_length": 1}


async def _people(url: str, *names: str) -> list[ServerClient]:
    clients = []
    for name in names:
        client = ServerClient(url)
        await client.register(name, PASSWORD)
        await client.connect()
        clients.append(client)
    return clients


async def _play_pairings(client: ServerClient, name: str, seed: int) -> int:
    """Play every tournament match ``name`` is paired in (told by a
    ``tournament_pairing`` message); runs until cancelled; returns nothing useful."""
    seen = 0
    played = 0
    while True:
        told = await client.wait_for(
            lambda m: m["type"] == "tournament_pairing", timeout=600, since=seen
        )
        seen = client.messages.index(told) + 1
        match_id = told["match"]
        snapshot = await client.subscribe(match_id)
        seat = snapshot["state"]["players"].index(name)
        await play_seat(client, match_id, seat, Policy(seed + played, double_first=False))
        played += 1


async def _until_finished(client: ServerClient, tournament_id: str, timeout: float) -> Any:
    """Poll the tournament until it is finished; returns its view."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        view = await client.request("GET", f"/api/tournaments/{tournament_id}")
        if view["status"] == "finished":
            return view
        await asyncio.sleep(0.25)
    raise TimeoutError(f"the tournament did not finish: {view}")


async def _enter(
    organiser: ServerClient, tournament_id: str, people: list[ServerClient], bots: int
) -> None:
    for client in people:
        await client.request("POST", f"/api/tournaments/{tournament_id}/register")
    for _ in range(bots):
        await organiser.request(
            "POST", f"/api/tournaments/{tournament_id}/bots", {"level": "beginner"}
        )


def _check_played(view: dict[str, Any]) -> None:
    """Every pairing has a winner, every real match a match id."""
    for played in view["rounds"]:
        for pairing in played["pairings"]:
            assert pairing["winner"] in pairing["players"], pairing
            assert (pairing["match"] is None) == (pairing["players"][1] is None), pairing


def test_knockout_of_bots_and_two_people_plays_to_the_end(server_factory: Any) -> None:
    server = server_factory(*BOTS)

    async def main() -> None:
        ada, bob = await _people(server.url, "ada", "bob")
        created = await ada.request(
            "POST", "/api/tournaments", {"name": "Club cup", "format": "knockout", **ONE_POINT}
        )
        tournament_id = created["id"]
        await ada.send({"type": "subscribe", "match": f"tournament:{tournament_id}"})
        snapshot = await ada.wait_for(lambda m: m["type"] == "tournament")
        assert snapshot["tournament"]["status"] == "open"
        await _enter(ada, tournament_id, [ada, bob], 6)
        listed = await bob.request("GET", "/api/tournaments?status=open")
        assert [t["id"] for t in listed["tournaments"]] == [tournament_id]
        players = asyncio.gather(_play_pairings(ada, "ada", 1), _play_pairings(bob, "bob", 50))
        started = await ada.request("POST", f"/api/tournaments/{tournament_id}/start")
        assert started["status"] == "running" and len(started["rounds"][0]["pairings"]) == 4
        view = await _until_finished(ada, tournament_id, 300)
        players.cancel()
        assert [len(r["pairings"]) for r in view["rounds"]] == [4, 2, 1]
        _check_played(view)
        champion = view["rounds"][-1]["pairings"][0]["winner"]
        assert view["standings"][0]["name"] == champion
        assert len(view["standings"]) == 8
        # Both people were paired in round 1 and played through the API.
        told = [m for m in ada.messages + bob.messages if m["type"] == "tournament_pairing"]
        assert {m["round"] for m in told} >= {1}
        assert len({m["match"] for m in told if m["round"] == 1}) >= 1
        # The room heard the standings change live.
        updates = [m for m in ada.messages if m["type"] == "tournament"]
        assert updates[-1]["tournament"]["status"] == "finished"
        # Tournament matches are rated as any rated match: one rated match per round
        # ada reached.
        profile = await ada.request("GET", "/api/users/ada")
        reached = sum(1 for r in view["rounds"] for p in r["pairings"] if "ada" in p["players"])
        assert profile["ratings"]["standard"]["experience"] == reached
        for client in (ada, bob):
            await client.close()

    asyncio.run(main())


def test_swiss_survives_a_sigkill_in_round_two(server_factory: Any) -> None:
    server = server_factory(*BOTS)

    async def first_half() -> tuple[str, dict[str, Any]]:
        (ada,) = await _people(server.url, "ada")
        created = await ada.request(
            "POST",
            "/api/tournaments",
            {"name": "Swiss", "format": "swiss", "rounds": 3, **ONE_POINT},
        )
        tournament_id = created["id"]
        await _enter(ada, tournament_id, [], 5)
        await ada.request("POST", f"/api/tournaments/{tournament_id}/start")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 120
        while loop.time() < deadline:
            view = await ada.request("GET", f"/api/tournaments/{tournament_id}")
            if view["round_in_play"] == 2:
                break
            await asyncio.sleep(0.05)
        assert view["round_in_play"] == 2, view
        await ada.close()
        return tournament_id, view

    tournament_id, before = asyncio.run(first_half())
    server.kill()
    server.start()

    async def second_half() -> None:
        client = ServerClient(server.url)
        view = await _until_finished(client, tournament_id, 300)
        assert [len(r["pairings"]) for r in view["rounds"]] == [3, 3, 3]
        _check_played(view)
        # Round 1's results are kept, and round 2 went on with the same matches:
        # those over before the crash kept their winners.
        assert view["rounds"][0] == before["rounds"][0]
        pairs = zip(before["rounds"][1]["pairings"], view["rounds"][1]["pairings"], strict=True)
        for kept, played in pairs:
            assert kept["players"] == played["players"]
            # A pairing whose match was not yet stored at the kill gets one at restart.
            assert kept["match"] in (None, played["match"]), (kept, played)
            assert kept["winner"] in (None, played["winner"]), before
        # No rematch: the library paired the 6 players without repeats.
        met = [frozenset(p["players"]) for r in view["rounds"] for p in r["pairings"]]
        assert len(met) == len(set(met))
        assert sum(s["points"] for s in view["standings"]) == 9
        await client.close()

    asyncio.run(second_half())


def test_hostile_requests_are_refused_and_change_nothing(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots")

    async def main() -> None:
        ada, bob, cai = await _people(server.url, "ada", "bob", "cai")
        created = await ada.request(
            "POST", "/api/tournaments", {"name": "Cup", "format": "swiss", "max_players": 2}
        )
        path = f"/api/tournaments/{created['id']}"
        await ada.request("POST", f"{path}/register")
        with pytest.raises(ClientError) as refused:
            await ada.request("POST", f"{path}/register")
        assert refused.value.status == 409 and "already" in refused.value.message
        # Two people race for the last place: exactly one gets it.
        raced = await asyncio.gather(
            bob.request("POST", f"{path}/register"),
            cai.request("POST", f"{path}/register"),
            return_exceptions=True,
        )
        refusals = [answer for answer in raced if isinstance(answer, ClientError)]
        assert len(refusals) == 1 and refusals[0].status == 409, raced
        assert "full" in refusals[0].message
        if raced[0] is refusals[0]:  # cai won the race: bob is the one left out
            bob, cai = cai, bob
        raced_winner = "cai" if raced[0] is refusals[0] else "bob"
        with pytest.raises(ClientError) as refused:
            await bob.request("POST", f"{path}/start")
        assert refused.value.status == 403
        with pytest.raises(ClientError) as refused:
            await bob.request("POST", f"{path}/withdraw?name=ada")
        assert refused.value.status == 403
        with pytest.raises(ClientError) as refused:
            await ada.request("POST", f"{path}/bots", {"level": "beginner"})
        assert refused.value.status == 422 and "level" in refused.value.message
        view = await cai.request("GET", path)
        assert [p["name"] for p in view["players"]] == ["ada", raced_winner]
        assert view["status"] == "open"
        started = await ada.request("POST", f"{path}/start")
        assert started["status"] == "running"
        for client, action in ((cai, "register"), (bob, "withdraw")):
            with pytest.raises(ClientError) as refused:
                await client.request("POST", f"{path}/{action}")
            assert refused.value.status == 409, action
        with pytest.raises(ClientError) as refused:
            await ada.request("POST", f"{path}/start")
        assert refused.value.status == 409
        bad_bodies = [
            ({"name": "x" * 81, "format": "swiss"}, "name"),
            ({"name": "Cup", "format": "ladder"}, "format"),
            ({"name": "Cup", "format": "swiss", "max_players": 10_000}, "max_players"),
            ({"name": "Cup", "format": "swiss", "early_length": 0}, "early_length"),
            ({"name": "Cup", "format": "swiss", "surprise": 1}, "surprise"),
            ({"name": "Cup\x1b[2J", "format": "swiss"}, "name"),
        ]
        for body, field in bad_bodies:
            with pytest.raises(ClientError) as refused:
                await cai.request("POST", "/api/tournaments", body)
            assert refused.value.status in (400, 422) and field in refused.value.message, body
        for number in range(5):
            await cai.request("POST", "/api/tournaments", {"name": f"T{number}", "format": "swiss"})
        with pytest.raises(ClientError) as refused:
            await cai.request("POST", "/api/tournaments", {"name": "T5", "format": "swiss"})
        assert refused.value.status == 409
        listed = await cai.request("GET", "/api/tournaments?status=running")
        assert [t["id"] for t in listed["tournaments"]] == [created["id"]]
        for client in (ada, bob, cai):
            await client.close()

    asyncio.run(main())


def test_a_fibs_player_is_told_its_pairing_and_a_no_show_loses_on_the_clock(
    server_factory: Any,
) -> None:
    server = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0")

    async def main() -> None:
        (ada,) = await _people(server.url, "ada")
        leo = ServerClient(server.url)
        await leo.register("leo", PASSWORD)
        fibs = await _clip_login(_fibs_port(server), "leo", PASSWORD)
        body = {
            "name": "Cup",
            "format": "swiss",
            "rounds": 1,
            "clock": {"delay_seconds": 0, "reserve_per_point_seconds": 1},
            "starts_at": time.time() + 2,
            **ONE_POINT,
        }
        created = await ada.request("POST", "/api/tournaments", body)
        for client in (ada, leo):
            await client.request("POST", f"/api/tournaments/{created['id']}/register")
        # Started at its time by the server; the FIBS user hears of the pairing in a
        # line FIBS clients show, and the match is an ordinary match to its client.
        await fibs.wait_for(lambda line: line == "** Tournament Cup, round 1: you play ada.")
        await fibs.wait_for(
            lambda line: line == "** Player ada has joined you for a 1 point match."
        )
        # Nobody moves: whoever is on roll loses on the clock, and the event ends.
        view = await _until_finished(ada, created["id"], 30)
        (pairing,) = view["rounds"][0]["pairings"]
        state = await ada.request("GET", f"/api/matches/{pairing['match']}")
        assert state["result"]["reason"] == "timeout"
        assert pairing["winner"] == state["players"][state["result"]["winner"]]
        for client in (ada, leo):
            await client.close()
        await fibs.close()

    asyncio.run(main())
