"""Hostile checks of the dice in the new modes (issue 50, finding 10), on a real server:
a tournament match's commitment reaches its players before its first throw, their
nonces count only before it, and its dice verify against both afterwards; a chouette
session's throws verify against the commitment its table showed before any throw,
with its people's nonces; a tampered throw fails the check (``backgammon
verify-dice`` too). ``/healthz`` answers within a second throughout."""

from __future__ import annotations

import asyncio
import copy
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from backgammon.server.client import ClientError, ServerClient
from backgammon.server.matches.fair_dice import verify_record

from .test_chouettes import _act
from .test_tool_attacks import healthy

PASSWORD = "a long enough password"
ONE_POINT = {"early_length": 1, "semi_final_length": 1, "final_length": 1}


async def _people(url: str, *names: str) -> list[ServerClient]:
    clients = []
    for name in names:
        client = ServerClient(url)
        await client.register(name, PASSWORD)
        await client.connect()
        clients.append(client)
    return clients


async def _refused(call: Any, status: int) -> None:
    """Await ``call``; it must be refused with ``status``."""
    try:
        await call
    except ClientError as error:
        assert error.status == status, error
    else:
        raise AssertionError(f"expected a {status} refusal")


def _verify_cli(path: Path, record: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    path.write_text(json.dumps(record), encoding="utf-8")
    command = [sys.executable, "-m", "backgammon", "verify-dice", str(path)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def _tampered(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its first throw's first die changed."""
    forged = copy.deepcopy(record)
    die = forged["throws"][0]["dice"][0]
    forged["throws"][0]["dice"][0] = die % 6 + 1
    return forged


async def _until_match_over(client: ServerClient, match_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state: dict[str, Any] = await client.request("GET", f"/api/matches/{match_id}")
        if state.get("result") is not None:
            return state
        await asyncio.sleep(0.25)
    raise AssertionError(f"match {match_id} did not end")


async def _tournament_match(tmp_path: Path, url: str) -> None:
    """A one-round Swiss of two people; nobody moves, so the clock ends the match."""
    ada, bob, eve = await _people(url, "ada", "bob", "eve")
    body = {
        "name": "Cup",
        "format": "swiss",
        "rounds": 1,
        "clock": {"delay_seconds": 0, "reserve_per_point_seconds": 1},
        "rated": False,
        **ONE_POINT,
    }
    created = await ada.request("POST", "/api/tournaments", body)
    for client in (ada, bob):
        await client.request("POST", f"/api/tournaments/{created['id']}/register")
    await ada.request("POST", f"/api/tournaments/{created['id']}/start")
    told = [
        await client.wait_for(lambda m: m["type"] == "tournament_pairing") for client in (ada, bob)
    ]
    match_id, published = told[0]["match"], told[0]["commitment"]
    assert told[1]["commitment"] == published and told[1]["match"] == match_id
    # Before any nonce and any throw: the match waits, with the commitment told.
    state = (await ada.request("GET", f"/api/matches/{match_id}"))["open"]
    assert state["status"] == "open" and state["commitment"] == published, state
    # An early action loads the match before the nonces are in: it must not pin them.
    early = await ada.act(match_id, "roll")
    assert early["type"] == "error", early
    await _refused(eve.give_nonce(match_id, "eve-wants-in"), 403)
    await _refused(ada.request("POST", f"/api/matches/{match_id}/nonce", {"nonce": "a b"}), 422)
    await ada.give_nonce(match_id, "ada-fresh-1")
    await _refused(ada.give_nonce(match_id, "ada-second-try"), 409)
    summary = await bob.give_nonce(match_id, "bob-fresh-2")
    assert summary["commitment"] == published
    state = await _until_match_over(ada, match_id)
    assert state["result"]["reason"] == "timeout", state
    await _refused(bob.give_nonce(match_id, "bob-too-late"), 409)
    record = json.loads(await ada.download(match_id, "dice"))
    seats = state["players"]
    nonces = {"ada": "ada-fresh-1", "bob": "bob-fresh-2"}
    assert record["commitment"] == published
    assert record["nonces"] == [nonces[seats[0]], nonces[seats[1]]]
    assert record["throws"], record
    assert verify_record(record) is None
    assert verify_record(_tampered(record)) is not None
    for client in (ada, bob, eve):
        await client.close()


async def _throw_until(clients: dict[str, ServerClient], table_id: str, throws: int) -> None:
    """Throw and play (the first legal play) until the session has ``throws`` throws."""
    owner = next(iter(clients.values()))
    while True:
        view = await owner.request("GET", f"/api/chouettes/{table_id}")
        record = await owner.request("GET", f"/api/chouettes/{table_id}/record.dice")
        if len(record["throws"]) >= throws:
            return
        session = view["session"]
        plays = [a for a in session["legal"] if a["kind"] == "play"]
        if session["roller"] is not None:
            player, action = session["roller"], {"kind": "roll"}
        else:
            player, action = plays[0]["player"], {"kind": "play", "move": plays[0]["move"]}
        answer = await _act(clients[player], table_id, view["seq"], **action)
        assert answer["type"] != "error", answer


async def _chouette_session(tmp_path: Path, url: str) -> None:
    """Three people at a three-seat table: the owner's nonce after opening, the
    others' as they sit; a few throws; the record verifies once the table is closed."""
    cid, dan, fay = await _people(url, "cid", "dan", "fay")
    table = await cid.request("POST", "/api/chouettes", {"name": "Dice night", "seats": 3})
    table_id = table["id"]
    published = table["dice"]["commitment"]
    assert table["dice"]["seed"] is None and table["session"] is None
    await cid.request("POST", f"/api/chouettes/{table_id}/nonce", {"nonce": "cid-1"})
    await _refused(cid.request("POST", f"/api/chouettes/{table_id}/nonce", {"nonce": "x"}), 409)
    await dan.request("POST", f"/api/chouettes/{table_id}/sit", {"nonce": "dan-2"})
    await fay.request("POST", f"/api/chouettes/{table_id}/sit", {"nonce": "fay-3"})
    await _throw_until({"cid": cid, "dan": dan, "fay": fay}, table_id, 4)
    await _refused(dan.request("POST", f"/api/chouettes/{table_id}/nonce", {"nonce": "y"}), 409)
    secret = await dan.request("GET", f"/api/chouettes/{table_id}/record.dice")
    assert secret["seed"] is None  # revealed only once the table is closed
    closed = await cid.request("POST", f"/api/chouettes/{table_id}/close")
    assert closed["dice"]["commitment"] == published and closed["dice"]["seed"]
    record = await dan.request("GET", f"/api/chouettes/{table_id}/record.dice")
    assert record["commitment"] == published
    assert [seat["nonce"] for seat in record["seats"]] == ["cid-1", "dan-2", "fay-3"]
    assert len(record["throws"]) >= 4
    assert verify_record(record) is None
    checked = _verify_cli(tmp_path / "chouette.dice.json", record)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    forged = _verify_cli(tmp_path / "forged.dice.json", _tampered(record))
    assert forged.returncode == 1 and "FAILED" in forged.stdout, forged.stdout + forged.stderr
    for client in (cid, dan, fay):
        await client.close()


def test_tournament_and_chouette_dice_are_committed_first_and_verify_after(
    server_factory: Any, tmp_path: Path
) -> None:
    server = server_factory("--no-warm-up", "--no-bots")
    with healthy(server.url):
        asyncio.run(_tournament_match(tmp_path, server.url))
        asyncio.run(_chouette_session(tmp_path, server.url))
