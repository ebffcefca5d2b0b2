"""Tournaments on a real server: people over HTTP and WebSockets, the server's bots
in the other seats; a knock-out with its consolation and last chance, a Swiss, a
double elimination and an arena played to the end, a restart after a SIGKILL in
round 2, and the refusals (wrong user, late registration, bad bodies)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import pytest

from backgammon.server.client import ClientError, ServerClient
from backgammon.tournaments import arena_points

from .players import Policy, play_seat
from .test_fibs import _clip_login, _fibs_port

PASSWORD = "a long enough password"
BOTS = ("--no-warm-up", "--bot-processes", "1")
ONE_POINT = {"early_length": 1, "semi_final_length": 1, "final_length": 1}
# The formats' rules are the service's, not the database's: these run on SQLite only
# (the knock-out, the Swiss and the restart run on both).
SQLITE_ONLY = pytest.mark.parametrize("backend", ["sqlite"])


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
        with contextlib.suppress(ClientError):  # started without it (READY_SECONDS)
            await client.give_nonce(match_id, f"{name}{played}")
        snapshot = await client.subscribe(match_id)
        state = snapshot["state"]
        if "players" not in state:  # it starts once the other person's nonce comes
            started = await client.wait_for(
                lambda m, match_id=match_id: (
                    m["type"] == "state" and m["match"] == match_id and "players" in m["state"]
                ),
                timeout=60,
            )
            state = started["state"]
        seat = state["players"].index(name)
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


def _losers_of_round_one(view: dict[str, Any]) -> set[str]:
    return {
        name
        for pairing in view["rounds"][0]["pairings"]
        for name in pairing["players"]
        if name is not None and name != pairing["winner"]
    }


def test_knockout_with_consolation_and_last_chance_plays_to_the_end(
    server_factory: Any,
) -> None:
    server = server_factory(*BOTS)

    async def main() -> None:
        ada, bob = await _people(server.url, "ada", "bob")
        body = {"name": "Club cup", "format": "knockout", "consolation": True, "last_chance": True}
        created = await ada.request("POST", "/api/tournaments", {**body, **ONE_POINT})
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
        # The consolation is a knock-out of round 1's four losers, the last chance
        # one of the consolation's two first-round losers; both are played out. The
        # last chance begins when the consolation's first round ends, which may be
        # after the main event's final.
        assert view["side_events"][0]["kind"] == "consolation", view["side_events"]
        consolation = await _until_finished(ada, view["side_events"][0]["id"], 300)
        view = await ada.request("GET", f"/api/tournaments/{tournament_id}")
        kinds = [side["kind"] for side in view["side_events"]]
        assert kinds == ["consolation", "last-chance"], view["side_events"]
        last_chance = await _until_finished(ada, view["side_events"][1]["id"], 300)
        players.cancel()
        assert [len(r["pairings"]) for r in view["rounds"]] == [4, 2, 1]
        _check_played(view)
        champion = view["rounds"][-1]["pairings"][0]["winner"]
        assert view["standings"][0]["name"] == champion
        assert len(view["standings"]) == 8
        assert consolation["parent"] == tournament_id and last_chance["parent"] == consolation["id"]
        assert consolation["settings"]["last_chance"] and not last_chance["settings"]["last_chance"]
        assert consolation["name"] == "Club cup: consolation"
        assert last_chance["name"] == "Club cup: last chance"
        assert {p["name"] for p in consolation["players"]} == _losers_of_round_one(view)
        assert [len(r["pairings"]) for r in consolation["rounds"]] == [2, 1]
        assert {p["name"] for p in last_chance["players"]} == _losers_of_round_one(consolation)
        assert [len(r["pairings"]) for r in last_chance["rounds"]] == [1]
        for side in (consolation, last_chance):
            _check_played(side)
            assert side["standings"][0]["name"] == side["rounds"][-1]["pairings"][0]["winner"]
        # Both people were paired in round 1 and played through the API.
        told = [m for m in ada.messages + bob.messages if m["type"] == "tournament_pairing"]
        assert {m["round"] for m in told} >= {1}
        assert len({m["match"] for m in told if m["round"] == 1}) >= 1
        # The room heard the standings change live.
        updates = [m for m in ada.messages if m["type"] == "tournament"]
        assert updates[-1]["tournament"]["status"] == "finished"
        # Tournament matches are rated as any rated match: one rated match per round
        # ada played, side events included.
        profile = await ada.request("GET", "/api/users/ada")
        reached = sum(
            1
            for event in (view, consolation, last_chance)
            for r in event["rounds"]
            for p in r["pairings"]
            if "ada" in p["players"] and p["match"] is not None
        )
        assert profile["ratings"]["standard"]["experience"] == reached
        for client in (ada, bob):
            await client.close()

    asyncio.run(main())


def test_swiss_of_ten_with_two_people_plays_four_rounds(server_factory: Any) -> None:
    server = server_factory(*BOTS)

    async def main() -> None:
        ada, bob = await _people(server.url, "ada", "bob")
        body = {"name": "Swiss ten", "format": "swiss", "rounds": 4, **ONE_POINT}
        tournament_id = (await ada.request("POST", "/api/tournaments", body))["id"]
        await _enter(ada, tournament_id, [ada, bob], 8)
        players = asyncio.gather(_play_pairings(ada, "ada", 7), _play_pairings(bob, "bob", 70))
        await ada.request("POST", f"/api/tournaments/{tournament_id}/start")
        view = await _until_finished(ada, tournament_id, 300)
        players.cancel()
        names = {p["name"] for p in view["players"]}
        assert len(names) == 10
        _check_played(view)
        # Four rounds of five matches: everyone plays each round (an even field has
        # no bye), and no two players meet twice.
        assert [len(r["pairings"]) for r in view["rounds"]] == [5, 5, 5, 5]
        for played in view["rounds"]:
            seated = [name for p in played["pairings"] for name in p["players"]]
            assert sorted(seated) == sorted(names)
        met = [frozenset(p["players"]) for r in view["rounds"] for p in r["pairings"]]
        assert len(met) == len(set(met)) == 20
        # The standings: a point a win, Buchholz the opponents' points, in order.
        wins = dict.fromkeys(names, 0)
        for pairing in (p for r in view["rounds"] for p in r["pairings"]):
            wins[pairing["winner"]] += 1
        opponents: dict[str, list[str]] = {name: [] for name in names}
        for a, b in (p["players"] for r in view["rounds"] for p in r["pairings"]):
            opponents[a].append(b)
            opponents[b].append(a)
        table = view["standings"]
        assert {s["name"]: s["points"] for s in table} == wins
        for standing in table:
            buchholz = sum(wins[o] for o in opponents[standing["name"]])
            assert standing["tiebreaks"]["buchholz"] == buchholz, standing
        keys = [(s["points"], s["tiebreaks"]["buchholz"]) for s in table]
        assert keys == sorted(keys, reverse=True)
        # Each person was told of a pairing in every round and played it.
        for client in (ada, bob):
            told = {m["round"] for m in client.messages if m["type"] == "tournament_pairing"}
            assert told == {1, 2, 3, 4}
            await client.close()

    asyncio.run(main())


@SQLITE_ONLY
def test_double_elimination_of_five_plays_until_one_player_has_lost_once_at_most(
    server_factory: Any,
) -> None:
    server = server_factory(*BOTS)

    async def main() -> None:
        (ada,) = await _people(server.url, "ada")
        body = {"name": "Double", "format": "double-elim", "max_players": 5, **ONE_POINT}
        tournament_id = (await ada.request("POST", "/api/tournaments", body))["id"]
        await _enter(ada, tournament_id, [ada], 4)
        player = asyncio.gather(_play_pairings(ada, "ada", 3))
        await ada.request("POST", f"/api/tournaments/{tournament_id}/start")
        view = await _until_finished(ada, tournament_id, 300)
        player.cancel()
        _check_played(view)
        losses = {p["name"]: 0 for p in view["players"]}
        for played in view["rounds"]:
            for pairing in played["pairings"]:
                for name in pairing["players"]:
                    # Nobody plays (or has a bye) after a second loss.
                    assert name is None or losses[name] < 2, (played, losses)
                loser = [n for n in pairing["players"] if n not in (None, pairing["winner"])]
                for name in loser:
                    losses[name] += 1
        champion = view["standings"][0]["name"]
        assert losses[champion] <= 1
        assert sorted(losses.values()) == sorted([losses[champion]] + [2] * 4)
        assert view["rounds"][0]["pairings"][0]["players"][1] is None  # an odd field: a bye
        await ada.close()

    asyncio.run(main())


@SQLITE_ONLY
def test_arena_pairs_players_as_they_return_and_scores_streaks(server_factory: Any) -> None:
    server = server_factory(*BOTS)

    async def main() -> None:
        (ada,) = await _people(server.url, "ada")
        body = {"name": "Arena", "format": "arena", "duration_seconds": 15, **ONE_POINT}
        tournament_id = (await ada.request("POST", "/api/tournaments", body))["id"]
        await _enter(ada, tournament_id, [ada], 4)
        player = asyncio.gather(_play_pairings(ada, "ada", 5))
        started = await ada.request("POST", f"/api/tournaments/{tournament_id}/start")
        # Four of the five are paired at once; the fifth waits for someone to return.
        assert [g["winner"] for g in started["games"]] == [None, None]
        view = await _until_finished(ada, tournament_id, 120)
        player.cancel()
        assert view["ends_at"] - time.time() < 0
        games = view["games"]
        assert len(games) > 2  # players were paired again as they came back
        results: dict[str, list[bool]] = {p["name"]: [] for p in view["players"]}
        for game in games:
            assert game["winner"] in game["players"] and game["match"] is not None, game
            for name in game["players"]:
                results[name].append(game["winner"] == name)
        # Two points a win, double after two wins in a row (lichess's fire).
        assert {s["name"]: s["points"] for s in view["standings"]} == {
            name: arena_points(played) for name, played in results.items()
        }
        assert any(sum(played) for played in results.values())
        told = [m for m in ada.messages if m["type"] == "tournament_pairing"]
        assert len(told) == len(results["ada"]) >= 1
        await ada.close()

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


@SQLITE_ONLY
def test_arena_survives_a_sigkill(server_factory: Any) -> None:
    server = server_factory(*BOTS)

    async def first_half() -> tuple[str, dict[str, Any]]:
        (ada,) = await _people(server.url, "ada")
        body = {"name": "Arena", "format": "arena", "duration_seconds": 12, **ONE_POINT}
        tournament_id = (await ada.request("POST", "/api/tournaments", body))["id"]
        await _enter(ada, tournament_id, [], 4)
        await ada.request("POST", f"/api/tournaments/{tournament_id}/start")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while loop.time() < deadline:
            view = await ada.request("GET", f"/api/tournaments/{tournament_id}")
            if sum(game["winner"] is not None for game in view["games"]) >= 2:
                break
            await asyncio.sleep(0.05)
        await ada.close()
        return tournament_id, view

    tournament_id, before = asyncio.run(first_half())
    assert before["status"] == "running"
    server.kill()
    server.start()

    async def second_half() -> None:
        client = ServerClient(server.url)
        view = await _until_finished(client, tournament_id, 120)
        # Every game stored before the kill is kept, with its winner once it had one;
        # the games in play at the kill were finished after the restart.
        kept = view["games"][: len(before["games"])]
        for old, new in zip(before["games"], kept, strict=True):
            assert old["players"] == new["players"] and old["match"] == new["match"]
            assert old["winner"] in (None, new["winner"])
        assert all(game["winner"] in game["players"] for game in view["games"])
        assert sum(s["tiebreaks"]["games"] for s in view["standings"]) == 2 * len(view["games"])
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
        with pytest.raises(ClientError) as refused:
            await cai.request("POST", f"{path}/register")
        assert refused.value.status == 409
        # Withdrawing once it runs is a player's (see the test of forfeits), no one else's.
        with pytest.raises(ClientError) as refused:
            await cai.request("POST", f"{path}/withdraw")  # (cai: the one left out)
        assert refused.value.status == 404
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
            ({"name": "Cup", "format": "swiss", "consolation": True}, "consolation"),
            ({"name": "Cup", "format": "knockout", "last_chance": True}, "last_chance"),
            ({"name": "Cup", "format": "double-elim", "max_players": 33}, "max_players"),
            ({"name": "Cup", "format": "arena", "duration_seconds": 1}, "duration_seconds"),
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
            "rated": False,  # a rated event's clock has 30 s a point at least
            "starts_at": time.time() + 2,
            **ONE_POINT,
        }
        created = await ada.request("POST", "/api/tournaments", body)
        for client in (ada, leo):
            await client.request("POST", f"/api/tournaments/{created['id']}/register")
        # Started at its time by the server; the FIBS user hears of the pairing in a
        # line FIBS clients show, and the match is an ordinary match to its client.
        await fibs.wait_for(lambda line: line == "** Tournament Cup, round 1: you play ada.")
        # With the dice commitment and the way to add a nonce (FIBS has none).
        told = fibs.lines[await fibs.wait_for(lambda line: line.startswith("** Dice commitment "))]
        commitment = told.split()[3].rstrip(".")
        assert "type: nonce WORD" in told
        await fibs.send("nonce not a word")
        await fibs.wait_for(lambda line: "A-Z a-z 0-9 _ -" in line)
        await fibs.send("nonce leo-fresh-7")
        await fibs.wait_for(
            lambda line: (
                line == f"** Your dice nonce leo-fresh-7 is taken; the commitment is {commitment}."
            )
        )
        await fibs.send("nonce again")
        await fibs.wait_for(lambda line: "no tournament match waiting" in line)
        await fibs.wait_for(
            lambda line: line == "** Player ada has joined you for a 1 point match."
        )
        # Nobody moves: whoever is on roll loses on the clock, and the event ends.
        view = await _until_finished(ada, created["id"], 30)
        (pairing,) = view["rounds"][0]["pairings"]
        state = await ada.request("GET", f"/api/matches/{pairing['match']}")
        assert state["result"]["reason"] == "timeout"
        assert pairing["winner"] == state["players"][state["result"]["winner"]]
        assert pairing["score"] == [1 - state["result"]["winner"], state["result"]["winner"]]
        # The match names its event (its page leads back to it).
        assert state["event"] == {
            "kind": "tournament",
            "id": created["id"],
            "name": "Cup",
            "format": "swiss",
            "round": 1,
        }
        record = json.loads(await ada.download(pairing["match"], "dice"))
        assert record["commitment"] == commitment
        assert record["nonces"][state["players"].index("leo")] == "leo-fresh-7"
        for client in (ada, leo):
            await client.close()
        await fibs.close()

    asyncio.run(main())


def test_an_event_starts_when_full_and_its_organiser_may_cancel_it(server_factory: Any) -> None:
    """``start_when_full``: the registration that fills the event starts it; the
    organiser (not a player) cancels an event, once."""
    server = server_factory("--no-warm-up", "--no-bots")

    async def main() -> None:
        ada, bob = await _people(server.url, "ada", "bob")
        body = {"format": "swiss", "rounds": 1, "rated": False, "max_players": 2, **ONE_POINT}
        full = await ada.request(
            "POST", "/api/tournaments", {**body, "name": "Fills", "start_when_full": True}
        )
        await ada.request("POST", f"/api/tournaments/{full['id']}/register")
        started = await bob.request("POST", f"/api/tournaments/{full['id']}/register")
        assert started["status"] == "running" and len(started["rounds"]) == 1
        later = await ada.request("POST", "/api/tournaments", {**body, "name": "Later"})
        await bob.request("POST", f"/api/tournaments/{later['id']}/register")
        with pytest.raises(ClientError) as refused:
            await bob.request("POST", f"/api/tournaments/{later['id']}/cancel")
        assert refused.value.status == 403
        cancelled = await ada.request("POST", f"/api/tournaments/{later['id']}/cancel")
        assert cancelled["status"] == "cancelled"
        told = await bob.wait_for(lambda m: m.get("action") == "cancel_tournament")
        assert told["message"] == "its organiser cancelled the tournament Later"
        with pytest.raises(ClientError) as again:
            await ada.request("POST", f"/api/tournaments/{later['id']}/cancel")
        assert again.value.status == 409
        for client in (ada, bob):
            await client.close()

    asyncio.run(main())


@SQLITE_ONLY
def test_a_pairing_is_told_again_to_a_connection_that_opens_while_it_waits(
    server_factory: Any,
) -> None:
    """A person with no page open when the round is paired (a page loading, say) hears
    the pairing on the WebSocket they open while the match waits for their nonce; once
    they have given it, a new connection hears nothing more of it, and a connection of
    someone outside the event never does."""
    server = server_factory("--no-warm-up", "--no-bots")

    async def main() -> None:
        (ada,) = await _people(server.url, "ada")
        bob, eve = ServerClient(server.url), ServerClient(server.url)
        await bob.register("bob", PASSWORD)
        await eve.register("eve", PASSWORD)
        body = {"format": "swiss", "rounds": 1, "rated": False, "max_players": 2, **ONE_POINT}
        event = await ada.request(
            "POST", "/api/tournaments", {**body, "name": "Late", "start_when_full": True}
        )
        await ada.request("POST", f"/api/tournaments/{event['id']}/register")
        started = await bob.request("POST", f"/api/tournaments/{event['id']}/register")
        (pairing,) = started["rounds"][0]["pairings"]
        told_ada = await ada.wait_for(lambda m: m["type"] == "tournament_pairing")
        await bob.connect()
        told_bob = await bob.wait_for(lambda m: m["type"] == "tournament_pairing", timeout=5)
        assert told_bob["match"] == told_ada["match"] == pairing["match"], (told_bob, pairing)
        assert told_bob["commitment"] == told_ada["commitment"]
        assert (told_bob["opponent"], told_bob["name"], told_bob["round"]) == ("ada", "Late", 1)
        await bob.give_nonce(pairing["match"], "bobs-nonce")
        await eve.connect()
        again = ServerClient(server.url)
        await again.login("bob", PASSWORD)
        await again.connect()
        for client in (again, eve):
            # What a connection is told on opening comes before the answer to its first
            # message: a ping's pong.
            await client.send({"type": "ping", "ref": "p"})
            await client.wait_for(lambda m: m["type"] == "pong")
            assert not [m for m in client.messages if m["type"] == "tournament_pairing"]
        for client in (ada, bob, eve, again):
            await client.close()

    asyncio.run(main())


@SQLITE_ONLY
def test_a_player_withdraws_from_a_running_swiss_and_forfeits_the_rest(
    server_factory: Any,
) -> None:
    """Withdrawing once it runs: the match in play is conceded, every later pairing
    is a forfeit won by the opponent at once; the rounds and standings stay whole,
    and a second withdrawal (or a stranger's) is refused."""
    server = server_factory(*BOTS)

    async def main() -> None:
        ada, bob, cai = await _people(server.url, "ada", "bob", "cai")
        body = {"name": "Leavers", "format": "swiss", "rounds": 2, "rated": False, **ONE_POINT}
        tournament_id = (await ada.request("POST", "/api/tournaments", body))["id"]
        await _enter(ada, tournament_id, [ada, bob], 2)
        bob_plays = asyncio.ensure_future(_play_pairings(bob, "bob", 11))
        path = f"/api/tournaments/{tournament_id}"
        await ada.request("POST", f"{path}/start")
        await ada.wait_for(lambda m: m["type"] == "tournament_pairing", timeout=30)
        with pytest.raises(ClientError) as stranger:
            await cai.request("POST", f"{path}/withdraw")
        assert stranger.value.status == 404
        await ada.request("POST", f"{path}/withdraw")
        with pytest.raises(ClientError) as again:
            await ada.request("POST", f"{path}/withdraw")
        assert again.value.status == 409
        view = await _until_finished(ada, tournament_id, 300)
        bob_plays.cancel()
        _check_played(view)
        assert view["settings"]["withdrawn"] == ["ada"]
        ada_pairings = [p for r in view["rounds"] for p in r["pairings"] if "ada" in p["players"]]
        assert len(ada_pairings) == 2, view["rounds"]
        for pairing in ada_pairings:
            assert pairing["winner"] != "ada", pairing
            if pairing["match"]:
                state = await ada.request("GET", f"/api/matches/{pairing['match']}")
                assert state["result"]["reason"] == "left", state["result"]
        assert next(s for s in view["standings"] if s["name"] == "ada")["points"] == 0
        for client in (ada, bob, cai):
            await client.close()

    asyncio.run(main())


@SQLITE_ONLY
def test_a_paused_swiss_plays_its_round_and_pairs_the_next_once_resumed(
    server_factory: Any,
) -> None:
    server = server_factory(*BOTS)

    async def main() -> None:
        ada, bob = await _people(server.url, "ada", "bob")
        body = {"name": "Paused", "format": "swiss", "rounds": 2, "rated": False, **ONE_POINT}
        tournament_id = (await ada.request("POST", "/api/tournaments", body))["id"]
        path = f"/api/tournaments/{tournament_id}"
        await _enter(ada, tournament_id, [ada, bob], 2)
        with pytest.raises(ClientError) as early:
            await ada.request("POST", f"{path}/pause")  # not running yet
        assert early.value.status == 409
        players = asyncio.gather(_play_pairings(ada, "ada", 5), _play_pairings(bob, "bob", 50))
        await ada.request("POST", f"{path}/start")
        with pytest.raises(ClientError) as stranger:
            await bob.request("POST", f"{path}/pause")
        assert stranger.value.status == 403
        paused = await ada.request("POST", f"{path}/pause")
        assert paused["settings"]["paused"] is True
        deadline = time.monotonic() + 120
        while True:  # round 1 plays on to its end...
            view = await ada.request("GET", path)
            if all(p["winner"] for p in view["rounds"][0]["pairings"]):
                break
            assert time.monotonic() < deadline, view["rounds"]
            await asyncio.sleep(0.3)
        await asyncio.sleep(1.5)  # ...and round 2 waits for the organiser
        view = await ada.request("GET", path)  # its pairings shown, no match started
        assert view["status"] == "running"
        assert [p["match"] for p in view["rounds"][1]["pairings"]] == [None, None]
        resumed = await ada.request("POST", f"{path}/resume")
        assert resumed["settings"]["paused"] is False
        assert all(p["match"] for p in resumed["rounds"][1]["pairings"])
        finished = await _until_finished(ada, tournament_id, 300)
        players.cancel()
        _check_played(finished)
        for client in (ada, bob):
            await client.close()

    asyncio.run(main())
