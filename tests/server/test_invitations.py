"""Invitations and taking back open matches, over HTTP and the WebSocket against a
real ``backgammon serve`` process: an invitation reaches its invitee alone and lasts
in the database (a restarted server still shows it); it can be declined (the inviter
hears it at once) or cancelled; an open match can be withdrawn; nobody else may do any
of that; one user's open matches are limited. And creating a match is idempotent by
the client's request id, even for requests that arrive together (issue 35, items 2
and 3).
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from backgammon.server.client import ClientError, ServerClient
from backgammon.server.service import MAX_OPEN_MATCHES


async def _guests(url: str, count: int) -> list[ServerClient]:
    clients = [ServerClient(url) for _ in range(count)]
    for client in clients:
        await client.guest()
    return clients


def _name(client: ServerClient) -> str:
    assert client.user is not None
    return str(client.user["name"])


def _ids(matches: list[dict[str, Any]]) -> set[str]:
    return {match["id"] for match in matches}


def test_an_invitation_reaches_only_its_invitee_and_outlives_the_server(
    server_factory: Any,
) -> None:
    server = server_factory("--no-warm-up", "--no-bots")

    async def before_the_restart() -> tuple[list[ServerClient], str]:
        alice, bob, carol = await _guests(server.url, 3)
        for client in (bob, carol):
            await client.connect()
        await carol.subscribe("lobby")
        invited = (await alice.create_match(opponent=_name(bob), length=3))["id"]
        told = await bob.wait_for(lambda m: m["type"] == "invitation")
        assert told["match"] == invited and told["from"] == _name(alice)
        # An open match made after it: carol hears of that one, and of nothing before.
        listed = (await alice.create_match(length=1))["id"]
        mark = await carol.wait_for(lambda m: m.get("event") == "match_open")
        assert mark["match"] == listed
        assert not any(invited in str(message) for message in carol.messages)
        lobbies = [await client.request("GET", "/api/lobby") for client in (alice, bob, carol)]
        for lobby in lobbies:
            assert _ids(lobby["open"]) == {listed}, "an invitation is not an open match"
        assert _ids(lobbies[1]["invitations"]) == {invited}
        assert lobbies[1]["invitations"][0]["players"][0] == _name(alice)
        assert lobbies[0]["invitations"] == [] and lobbies[2]["invitations"] == []
        assert _ids(lobbies[0]["sent"]) == {invited}, "the inviter's own invitations"
        assert lobbies[1]["sent"] == [] and lobbies[2]["sent"] == []
        for name in (_name(alice), _name(bob)):  # nor on the players' pages
            page = await carol.request("GET", f"/api/users/{name}")
            assert invited not in _ids(page["matches"])
        for client in (alice, bob, carol):
            await client.close()
        return [alice, bob, carol], invited

    clients, invited = asyncio.run(before_the_restart())
    server.kill()
    server.start()

    async def after_the_restart() -> None:
        alice, bob = (ServerClient(server.url) for _ in range(2))
        alice.token, bob.token = clients[0].token, clients[1].token
        lobby = await bob.request("GET", "/api/lobby")
        assert _ids(lobby["invitations"]) == {invited}
        await bob.join(invited)  # and it can still be accepted
        state = await alice.request("GET", f"/api/matches/{invited}")
        assert state["players"] == [_name(clients[0]), _name(clients[1])]
        for client in (alice, bob):
            await client.close()

    asyncio.run(after_the_restart())


def test_declined_cancelled_withdrawn_and_nobody_else_may(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots")

    async def scenario() -> None:
        alice, bob, carol = await _guests(server.url, 3)
        for client in (alice, bob, carol):
            await client.connect()
        await carol.subscribe("lobby")

        async def refused(client: ServerClient, match_id: str, how: str, status: int) -> str:
            with pytest.raises(ClientError) as error:
                await client.request("POST", f"/api/matches/{match_id}/{how}")
            assert error.value.status == status, error.value
            return error.value.message

        async def still_open(match_id: str) -> None:
            state = await carol.request("GET", f"/api/matches/{match_id}")
            assert state["open"]["status"] == "open", state

        # Strangers, and the wrong party, may neither decline nor cancel an invitation.
        invited = (await alice.create_match(opponent=_name(bob), length=3))["id"]
        message = await refused(carol, invited, "decline", 403)
        assert "only its invitee may decline" in message, message
        message = await refused(carol, invited, "cancel", 403)
        assert "only its creator may cancel" in message, message
        await refused(bob, invited, "cancel", 403)
        await refused(alice, invited, "decline", 403)
        await still_open(invited)
        bobs = await bob.request("GET", "/api/lobby")
        assert _ids(bobs["invitations"]) == {invited}
        # The invitee declines: the inviter hears it at once; the match is gone.
        mark = len(alice.messages)
        answer = await bob.request("POST", f"/api/matches/{invited}/decline")
        assert answer["reason"] == "declined"
        closed = await alice.wait_for(lambda m: m["type"] == "match_closed", since=mark)
        assert closed == {
            **closed,
            "match": invited,
            "reason": "declined",
            "by": _name(bob),
            "host": _name(alice),
            "invitee": _name(bob),
        }
        await refused(bob, invited, "decline", 404)
        with pytest.raises(ClientError) as gone:
            await bob.join(invited)
        assert gone.value.status == 404
        assert (await bob.request("GET", "/api/lobby"))["invitations"] == []
        assert (await alice.request("GET", "/api/lobby"))["sent"] == []

        # The inviter cancels another: the invitee hears it at once.
        again = (await alice.create_match(opponent=_name(bob), length=1))["id"]
        await bob.wait_for(lambda m: m["type"] == "invitation" and m["match"] == again)
        mark = len(bob.messages)
        await alice.request("POST", f"/api/matches/{again}/cancel")
        closed = await bob.wait_for(lambda m: m["type"] == "match_closed", since=mark)
        assert closed["reason"] == "cancelled" and closed["match"] == again
        assert (await bob.request("GET", "/api/lobby"))["invitations"] == []

        # An open match: only its creator withdraws it; the lobby hears it.
        listed = (await alice.create_match(length=5))["id"]
        await carol.wait_for(lambda m: m.get("event") == "match_open" and m["match"] == listed)
        await refused(carol, listed, "cancel", 403)
        await refused(carol, listed, "decline", 403)
        await still_open(listed)
        await alice.request("POST", f"/api/matches/{listed}/cancel")
        await carol.wait_for(lambda m: m.get("event") == "match_closed" and m["match"] == listed)
        assert listed not in _ids((await carol.request("GET", "/api/lobby"))["open"])

        # A started match is no longer anyone's to cancel or decline.
        started = (await alice.create_match(opponent=_name(bob), length=1))["id"]
        await bob.join(started)
        await refused(alice, started, "cancel", 409)
        await refused(bob, started, "decline", 409)
        await refused(carol, started, "cancel", 403)
        state = await carol.request("GET", f"/api/matches/{started}")
        assert state["game"] is not None and state["result"] is None
        await refused(carol, "nosuchmatch", "cancel", 404)

        # Twenty unfinished matches (open ones, invitations, the started one) at
        # once, not more.
        for number in range(MAX_OPEN_MATCHES - 1):
            await alice.create_match(opponent=_name(bob) if number % 2 else None, length=1)
        with pytest.raises(ClientError) as full:
            await alice.create_match(length=1)
        assert full.value.status == 409 and "cancel one first" in full.value.message
        lobby = await alice.request("GET", "/api/lobby")
        assert len(lobby["open"]) + len(lobby["sent"]) == MAX_OPEN_MATCHES - 1
        for client in (alice, bob, carol):
            await client.close()

    asyncio.run(scenario())


def test_creating_requests_with_one_request_id_make_one_match(server_factory: Any) -> None:
    """Eight identical requests at once (one dice commitment, one request id), then
    four at once each with a commitment of its own: each group makes one match, and
    every answer names it."""
    server = server_factory("--no-warm-up", "--no-bots")

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            token = (await http.post("/api/guest")).json()["token"]
            auth = {"authorization": f"Bearer {token}"}

            async def commitment() -> str:
                answer = await http.post("/api/matches/commitment", headers=auth)
                return str(answer.json()["commitment"])

            async def create(request_id: str, published: str) -> httpx.Response:
                body = {
                    "settings": {"length": 3},
                    "commitment": published,
                    "nonce": "my-nonce",
                    "request_id": request_id,
                }
                return await http.post("/api/matches", json=body, headers=auth)

            published = await commitment()
            same = await asyncio.gather(*(create("double-click-1", published) for _ in range(8)))
            assert [answer.status_code for answer in same] == [201] * 8, same[0].text
            first = {answer.json()["id"] for answer in same}
            assert len(first) == 1, first
            assert {answer.json()["commitment"] for answer in same} == {published}

            commitments = [await commitment() for _ in range(4)]
            each = await asyncio.gather(*(create("double-click-2", c) for c in commitments))
            assert [answer.status_code for answer in each] == [201] * 4, each[0].text
            second = {answer.json()["id"] for answer in each}
            assert len(second) == 1 and second != first, second

            lobby = (await http.get("/api/lobby", headers=auth)).json()
            assert _ids(lobby["open"]) == first | second
            # Without a request id, or with another, a request makes a new match.
            again = await create("double-click-3", await commitment())
            assert again.status_code == 201 and again.json()["id"] not in first | second
            # A request id is 8-40 letters, digits, - or _.
            bad = await create("no spaces please", await commitment())
            assert bad.status_code == 422 and "request_id" in bad.text

    asyncio.run(scenario())
