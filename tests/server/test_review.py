"""Analysis of match files over HTTP (uploaded, or played on the server):
``POST /api/analysis``, polling ``GET /api/analysis/{id}`` and the report at
``GET /api/analysis/{id}/report.html``, against a real server process."""

from __future__ import annotations

import asyncio
import base64
import itertools
import time
from typing import Any

import httpx
import pytest

from backgammon.formats import read_match_bytes, read_match_text
from backgammon.rules.dice import Roll
from backgammon.server.client import ServerClient

from ..formats.xg_files import xg_of
from .players import Policy, play_seat

# Two blunders by the engine's measure: Alice's bar/23 6/5, Bob's 13/7(2) 8/2*(2).
SHORT_MATCH = """ 3 point match

 Game 1
 Alice : 0                            Bob : 0
  1)                                 31: 8/5 6/5
  2) 64: 24/14                       52: 13/8 13/11*
  3) 21: 25/23 6/5                   66: 13/7 13/7 8/2 8/2
"""


@pytest.fixture(scope="module")
def url(module_server_factory: Any) -> str:
    """One server for the module: the analyses do not touch the database (SQLite
    is enough), and each test waits for the jobs it starts."""
    server = module_server_factory("--no-warm-up", "--bot-processes", "1")
    return str(server.url)


async def _played_match(url: str, entries: int, finish: bool) -> str:
    async with ServerClient(url) as alice, ServerClient(url) as bob:
        await alice.guest()
        await bob.guest()
        created = await alice.create_match(length=3, rated=False)
        match_id = str(created["id"])
        await bob.join(match_id)
        for client in (alice, bob):
            await client.connect()
            await client.subscribe(match_id)
        await asyncio.gather(
            play_seat(alice, match_id, 0, Policy(1, stop_at_seq=entries)),
            play_seat(bob, match_id, 1, Policy(2, stop_at_seq=entries)),
        )
        if finish and bob.states[match_id]["result"] is None:
            answer = await bob.act(match_id, "leave")
            assert answer["type"] == "ack", answer
        return match_id


def played_match(url: str, entries: int = 30, *, finish: bool = True) -> str:
    """A 3-point match between two guests on the server at ``url``: random plays (the
    first player to roll in a game doubles, the other takes) until its log has
    ``entries`` entries, then (``finish``) the second player leaves; returns its id.
    Runs its own event loop (in a thread of its own where one is running)."""
    return asyncio.run(_played_match(url, entries, finish))


def _wait(url: str, job: str, timeout: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status: dict[str, Any] = httpx.get(f"{url}/api/analysis/{job}", timeout=30).json()
        assert 0 <= status["done"] <= status["total"]
        if status["state"] != "running":
            return status
        time.sleep(0.2)
    raise AssertionError(f"the analysis did not finish in {timeout} s")


def test_an_uploaded_mat_file_is_analysed_with_progress(url: str) -> None:
    answer = httpx.post(
        f"{url}/api/analysis", json={"text": SHORT_MATCH, "name": "short.mat"}, timeout=60
    )
    assert answer.status_code == 202, answer.text
    started = answer.json()
    assert started["total"] > 0 and started["done"] == 0
    status = _wait(url, started["id"])
    assert status["state"] == "done", status
    assert status["done"] == status["total"] == started["total"]
    result = status["result"]
    assert [player["name"] for player in result["players"]] == ["Alice", "Bob"]
    for player in result["players"]:
        assert player["error_rate"] >= 0 and player["pr"] >= 0
        assert isinstance(player["luck_rate"], float)
    plays = [error for error in result["errors"] if error["kind"] == "checker"]
    assert {(error["player"], error["move"]) for error in plays} >= {("Alice", 4), ("Bob", 5)}
    moves = [(error["game"], error["move"]) for error in result["errors"]]
    assert moves == sorted(moves)
    # Each error carries the board before it, seen from the player who erred, and a
    # checker error its dice and both plays as single-die steps in that numbering.
    alice = next(error for error in plays if error["player"] == "Alice")
    assert alice["board"]["player"][25] == 1 and sum(alice["board"]["player"]) == 15
    assert sum(alice["board"]["opponent"]) == 15 and len(alice["board"]["opponent"]) == 26
    assert alice["dice"] == [2, 1]
    assert alice["played"] == [[25, 23], [6, 5]]
    assert alice["best"] and alice["best"][0][0] == 25 and alice["best"] != alice["played"]
    assert alice["cube"] == {"value": 1, "owner": None}
    for error in result["errors"]:
        assert len(error["board"]["player"]) == 26
        assert ("played" in error) == (error["kind"] == "checker")


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"text": SHORT_MATCH.replace("25/23 6/5", "6/4 6/5"), "name": "x.mat"}, "text"),
        ({"text": "no match here", "name": "x.txt"}, "text"),
        ({"text": ""}, "text"),
        ({"name": "x.mat"}, "text"),
    ],
)
def test_bad_uploads_are_a_400_naming_the_problem(
    url: str, body: dict[str, Any], named: str
) -> None:
    answer = httpx.post(f"{url}/api/analysis", json=body, timeout=60)
    assert answer.status_code == 400, answer.text
    assert answer.json()["message"].startswith(f"{named}:"), answer.json()


def test_too_large_and_unknown_jobs(url: str) -> None:
    big = {"text": "x" * 1_500_000, "name": "big.mat"}
    assert httpx.post(f"{url}/api/analysis", json=big, timeout=60).status_code == 413
    assert httpx.get(f"{url}/api/analysis/nope", timeout=30).status_code == 404


def test_a_finished_match_is_reviewed_move_by_move_with_a_report(url: str) -> None:
    match_id = played_match(url)
    answer = httpx.post(f"{url}/api/analysis", json={"match": match_id, "ply": 1}, timeout=60)
    assert answer.status_code == 202, answer.text
    started = answer.json()
    assert started["ply"] == 1 and started["total"] > 0
    # The same match at the same ply is the same job; another ply is another one.
    again = httpx.post(f"{url}/api/analysis", json={"match": match_id, "ply": 1}, timeout=60)
    assert again.status_code == 202 and again.json()["id"] == started["id"]
    status = _wait(url, started["id"])
    assert status["state"] == "done" and status["ply"] == 1, status
    result = status["result"]
    assert result["ply"] == 1 and len(result["names"]) == 2
    assert result["game_results"][0]["game"] == 1
    moves = result["moves"]
    assert [move["index"] for move in moves] == list(range(len(moves)))
    plays = [move for move in moves if move["kind"] == "checker"]
    assert len(plays) >= 8  # every play, not only the errors
    assert [(m["game"], m["move"]) for m in moves] == sorted((m["game"], m["move"]) for m in moves)
    for move in plays:
        options = move["options"]
        assert options[0]["difference"] == 0.0
        assert all(b["equity"] <= a["equity"] + 1e-9 for a, b in itertools.pairwise(options))
        assert sum(option["played"] for option in options) == 1
        assert move["played"] or move["play"] == "Ø"
        assert 0.0 <= move["before"]["win"] <= 1.0
        assert len(move["board"]["player"]) == 26 and len(move["dice"]) == 2
    cubes = [move for move in moves if move["kind"] == "cube"]
    assert any(move["action"] == "double" for move in cubes), cubes  # Policy doubles
    for move in cubes:
        assert set(move["equities"]) == {"no_double", "double_take", "double_pass"}
        assert move["cube_action"] and move["right"]
    errors = result["errors"]
    assert errors == [move for move in moves if move["mark"] is not None]
    # The report, as the CLI writes it.
    report = httpx.get(f"{url}/api/analysis/{started['id']}/report.html", timeout=30)
    assert report.status_code == 200, report.text
    assert report.headers["content-type"].startswith("text/html")
    assert "attachment" in report.headers["content-disposition"]
    assert report.text.startswith("<!DOCTYPE html>") and "<svg" in report.text
    assert "analysed at 1-ply" in report.text
    other = httpx.post(f"{url}/api/analysis", json={"match": match_id}, timeout=60)
    assert other.status_code == 202 and other.json()["id"] != started["id"]
    assert other.json()["ply"] == 0


def test_bad_review_requests_are_refused_and_start_nothing(url: str) -> None:
    going_on = played_match(url, 6, finish=False)
    refused = [
        ({"match": "no_such_match"}, 404, "match:"),
        ({"match": going_on}, 409, "match:"),
        ({"match": "bad id!"}, 400, "match:"),
        ({"text": SHORT_MATCH, "match": going_on}, 400, "text:"),
        ({"text": SHORT_MATCH, "ply": 3}, 422, "ply:"),
        ({"text": SHORT_MATCH, "ply": -1}, 422, "ply:"),
        ({"text": SHORT_MATCH, "ply": "1"}, 422, "ply:"),
        ({"text": SHORT_MATCH, "ply": 1.5}, 422, "ply:"),
    ]
    for body, code, named in refused:
        answer = httpx.post(f"{url}/api/analysis", json=body, timeout=60)
        assert answer.status_code == code, (body, answer.text)
        assert answer.json()["message"].startswith(named), (body, answer.json())
    # Nothing started: the first good upload is a new job with nothing done.
    answer = httpx.post(f"{url}/api/analysis", json={"text": SHORT_MATCH}, timeout=60)
    assert answer.status_code == 202
    job = answer.json()["id"]
    assert httpx.get(f"{url}/api/analysis/nope/report.html", timeout=30).status_code == 404
    status = _wait(url, job)
    assert status["state"] == "done"
    assert httpx.get(f"{url}/api/analysis/{job}/report.html", timeout=30).status_code == 200


def _xg_upload() -> dict[str, Any]:
    record = read_match_text(SHORT_MATCH)
    return {"data": base64.b64encode(xg_of(record)).decode(), "name": "short.xg"}


def test_an_uploaded_xg_file_shows_xgs_analysis_beside_ours(url: str) -> None:
    answer = httpx.post(f"{url}/api/analysis", json=_xg_upload(), timeout=60)
    assert answer.status_code == 202, answer.text
    status = _wait(url, answer.json()["id"])
    assert status["state"] == "done", status
    moves = status["result"]["moves"]
    assert [p["name"] for p in status["result"]["players"]] == ["Alice", "Bob"]
    plays = [move for move in moves if move["kind"] == "checker"]
    assert plays and all(move["file_analysis"] is not None for move in plays)
    first = plays[0]["file_analysis"]
    # The tests' writer gives XG's plays the equities 0.1, 0.05, ... best first.
    assert first["engine"] == "XG" and first["kind"] == "checker"
    assert first["options"][0]["equity"] == pytest.approx(0.1)
    assert plays[0]["options"][0]["equity"] != first["options"][0]["equity"]  # ours


def _same_dice(action: object) -> object:
    return sorted((action.first, action.second)) if isinstance(action, Roll) else action


def test_the_same_match_downloads_as_ogxm(url: str) -> None:
    match_id = played_match(url, 12)
    answer = httpx.get(f"{url}/api/matches/{match_id}/record.ogxm", timeout=30)
    assert answer.status_code == 200, answer.text
    assert f'filename="{match_id}.ogxm"' in answer.headers["content-disposition"]
    assert answer.content.startswith(b"OGXM")
    mat = httpx.get(f"{url}/api/matches/{match_id}/record.mat", timeout=30).text
    ours = read_match_text(mat)
    theirs = read_match_bytes(answer.content, path="x.ogxm")
    # Every action kept (dice in either order), but a last roll not yet played (a ply
    # in OGXM is a roll and its play).
    kept = [_same_dice(entry.action) for game in theirs.games for entry in game.entries]
    actions = [_same_dice(entry.action) for game in ours.games for entry in game.entries]
    assert kept == actions[: len(kept)] and len(kept) >= len(actions) - 1 >= 8
    assert theirs.info.players == ours.info.players
    unknown = httpx.get(f"{url}/api/matches/{match_id}/record.xg", timeout=30)
    assert unknown.status_code == 400 and "ogxm" in unknown.json()["message"]


def test_bad_binary_uploads_are_refused_naming_the_problem(url: str) -> None:
    good = _xg_upload()
    corrupt = base64.b64encode(base64.b64decode(good["data"])[:300]).decode()
    refused = [
        ({"data": corrupt, "name": "short.xg"}, 400, "data: short.xg cannot be read as a match"),
        ({"data": "not base64!", "name": "short.xg"}, 400, "data:"),
        ({"data": base64.b64encode(b"OGXM" + bytes(50)).decode(), "name": "x.ogxm"}, 400, "data:"),
        ({**good, "text": SHORT_MATCH}, 400, "text:"),
        ({"data": base64.b64encode(bytes(1_000_001)).decode(), "name": "big.xg"}, 413, ""),
    ]
    for body, code, named in refused:
        answer = httpx.post(f"{url}/api/analysis", json=body, timeout=60)
        assert answer.status_code == code, (body.get("name"), answer.text[:300])
        assert answer.json()["message"].startswith(named), answer.json()
    # The plain sentence for people; what the reader said, apart, for programmers.
    short = httpx.post(f"{url}/api/analysis", json=refused[0][0], timeout=60).json()
    assert "byte" not in short["message"] and short["detail"], short
    # The server still serves: the good file is analysed.
    answer = httpx.post(f"{url}/api/analysis", json=good, timeout=60)
    assert answer.status_code == 202
    assert _wait(url, answer.json()["id"])["state"] == "done"


async def _started_variant_match(url: str, variant: str) -> str:
    async with ServerClient(url) as alice, ServerClient(url) as bob:
        await alice.guest()
        await bob.guest()
        created = await alice.create_match(length=3, rated=False, variant=variant)
        await bob.join(str(created["id"]))
        return str(created["id"])


def test_a_match_ogxm_cannot_hold_is_a_409_naming_why(url: str) -> None:
    match_id = asyncio.run(_started_variant_match(url, "acey-deucey"))
    answer = httpx.get(f"{url}/api/matches/{match_id}/record.ogxm", timeout=30)
    assert answer.status_code == 409, answer.text
    assert answer.json()["message"].startswith("ogxm: OGXM holds backgammon"), answer.json()
    assert httpx.get(f"{url}/api/matches/{match_id}", timeout=30).status_code == 200
