"""The dice promise, in the order that makes it one (issue 33, finding 5): the server
commits to the seed before any nonce is seen, and the human's nonce counts in bot
matches too. Driven over HTTP as a client does, and checked by the procedure
docs/fair-dice.md gives (SHA-256 and HMAC, nothing of this package)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from typing import Any

import httpx
import pytest

from backgammon.server.client import ServerClient
from backgammon.server.matches.fair_dice import verify_record


@pytest.fixture
def backend() -> str:
    """The order of commitment and nonce does not depend on the database."""
    return "sqlite"


def _throw(seed: bytes, nonce0: str, nonce1: str, index: int) -> tuple[int, int]:
    """Throw ``index`` exactly as docs/fair-dice.md writes it out."""
    dice: list[int] = []
    counter = 0
    while len(dice) < 2:
        message = f"backgammon-dice-v1:{nonce0}:{nonce1}:{index}:{counter}"
        digest = hmac.new(seed, message.encode("ascii"), hashlib.sha256).digest()
        for byte in digest:
            if byte < 252 and len(dice) < 2:
                dice.append(byte % 6 + 1)
        counter += 1
    return dice[0], dice[1]


def _guest(url: str) -> dict[str, str]:
    token = httpx.post(f"{url}/api/guest", timeout=30).json()["token"]
    return {"authorization": f"Bearer {token}"}


def test_a_bot_match_commits_before_the_humans_nonce_and_the_nonce_counts(
    server_factory: Any,
) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "0")
    url = server.url
    human = _guest(url)
    settings = {"length": 1, "clock": None}
    # 1. The commitment, before any nonce exists.
    published = httpx.post(f"{url}/api/matches/commitment", headers=human, timeout=30)
    assert published.status_code == 201, published.text
    commitment = published.json()["commitment"]
    assert len(commitment) == 64
    # 2. Then the nonce, with the commitment; the match is bound to that commitment.
    nonce = "chosen-after-the-commitment"
    body = {"settings": settings, "rated": False, "opponent": "bot:beginner"}
    created = httpx.post(
        f"{url}/api/matches",
        json={**body, "commitment": commitment, "nonce": nonce},
        headers=human,
        timeout=30,
    )
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    assert created.json()["commitment"] == commitment
    # A commitment serves one match.
    again = httpx.post(
        f"{url}/api/matches",
        json={**body, "commitment": commitment, "nonce": "x"},
        headers=human,
        timeout=30,
    )
    assert again.status_code == 400 and "commitment" in again.json()["message"], again.text
    # The human leaves: the match is over and the seed revealed.
    left = _leave(url, match_id, human)
    assert left["result"] is not None
    record = httpx.get(f"{url}/api/matches/{match_id}/record.dice", timeout=30).json()
    seed = bytes.fromhex(record["seed"])
    assert hashlib.sha256(seed).hexdigest() == commitment == record["commitment"]
    # The bot's nonce is the empty string, fixed by the rules before anyone's nonce.
    assert record["nonces"] == [nonce, ""]
    throws = [tuple(throw["dice"]) for throw in record["throws"]]
    assert throws and throws == [_throw(seed, nonce, "", i) for i in range(len(throws))]
    assert verify_record(record) is None
    # The human's nonce counts: the same seed without it gives other dice.
    with_nonce = [_throw(seed, nonce, "", i) for i in range(12)]
    assert with_nonce != [_throw(seed, "", "", i) for i in range(12)]
    # A rematch keeps the promise: a nonce alone is refused, a fresh commitment binds it.
    rematch = f"{url}/api/matches/{match_id}/rematch"
    alone = httpx.post(rematch, json={"nonce": "n"}, headers=human, timeout=30)
    assert alone.status_code == 400 and alone.json()["message"].startswith("nonce:"), alone.text
    fresh = httpx.post(f"{url}/api/matches/commitment", headers=human, timeout=30)
    second = fresh.json()["commitment"]
    again_nonce = "rematch-nonce"
    created = httpx.post(
        rematch, json={"commitment": second, "nonce": again_nonce}, headers=human, timeout=30
    )
    assert created.status_code == 201 and created.json()["commitment"] == second, created.text
    _leave(url, created.json()["id"], human)
    record = httpx.get(f"{url}/api/matches/{created.json()['id']}/record.dice", timeout=30).json()
    assert record["commitment"] == second and record["nonces"] == [again_nonce, ""]


def _leave(url: str, match_id: str, headers: dict[str, str]) -> dict[str, Any]:
    """Leave a match over the WebSocket (the match ends); its final state."""

    async def leave() -> dict[str, Any]:
        async with ServerClient(url) as client:
            client.token = headers["authorization"].removeprefix("Bearer ")
            client.http.headers.update(headers)
            await client.connect()
            await client.subscribe(match_id)
            answer = await client.act(match_id, "leave")
            assert answer["type"] == "ack", answer
            final = await client.wait_for(
                lambda m: m["type"] == "state" and m["state"].get("result") is not None
            )
            state: dict[str, Any] = final["state"]
            return state

    return asyncio.run(leave())


def test_a_nonce_is_refused_unless_it_comes_after_a_commitment(server_factory: Any) -> None:
    """Before the fix the seed was drawn when the create request, nonce and all, had
    arrived: nothing showed the nonce came after the seed. Now a nonce without a
    commitment, someone else's commitment, or an invented one is refused, and
    nothing is created."""
    server = server_factory("--no-warm-up", "--no-bots")
    url = server.url
    alice, bob = _guest(url), _guest(url)
    body: dict[str, Any] = {"settings": {"length": 1}, "rated": False}
    alone = httpx.post(f"{url}/api/matches", json={**body, "nonce": "n1"}, headers=alice)
    assert alone.status_code == 400, alone.text
    assert alone.json()["message"].startswith("nonce: give it with a commitment")
    bobs = httpx.post(f"{url}/api/matches/commitment", headers=bob).json()["commitment"]
    stolen = httpx.post(
        f"{url}/api/matches", json={**body, "commitment": bobs, "nonce": "n2"}, headers=alice
    )
    assert stolen.status_code == 400 and stolen.json()["message"].startswith("commitment:")
    invented = httpx.post(
        f"{url}/api/matches", json={**body, "commitment": "0" * 64, "nonce": "n3"}, headers=alice
    )
    assert invented.status_code == 400 and invented.json()["message"].startswith("commitment:")
    assert httpx.get(f"{url}/api/lobby", headers=alice).json()["open"] == []
    # Bob's commitment is still his to use (the refusals changed nothing).
    used = httpx.post(
        f"{url}/api/matches", json={**body, "commitment": bobs, "nonce": "n4"}, headers=bob
    )
    assert used.status_code == 201 and used.json()["commitment"] == bobs
    # Without nonce and commitment a match is still created (no nonce, no promise).
    plain = httpx.post(f"{url}/api/matches", json=body, headers=alice)
    assert plain.status_code == 201, plain.text
