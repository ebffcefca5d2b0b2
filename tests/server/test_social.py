"""The lobby's social side from the outside, as a hostile user tries it: private
messages to nobody, to oneself or from a muted user; oversized or control-character
texts; a friends list past its cap; another user's friends list. Each refusal is a
clear error and changes nothing (issue 35, "What players have elsewhere")."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from backgammon.server.client import ClientError, ServerClient
from backgammon.server.service import GameService, ServiceError
from backgammon.server.social import service as service_module
from backgammon.server.social.user_text import MAX_TEXT

from .test_moderation import PASSWORD, _logged_in, _refused, _servers
from .test_service import FakeClock, _run


async def _http_refusal(client: ServerClient, method: str, path: str) -> ClientError:
    with pytest.raises(ClientError) as refused:
        await client.request(method, path)
    return refused.value


def test_bad_private_messages_and_foreign_friends_lists_are_refused(
    server_factory: Any, backend: str
) -> None:
    server, _ = _servers(server_factory, backend)

    async def scenario() -> None:
        root = ServerClient(server.url)
        await root.login("root", PASSWORD)
        carl, dora, erin = [await _logged_in(server.url, name) for name in ("carl", "dora", "erin")]
        await carl.subscribe("lobby")
        # A tell that is refused says why, echoes its ref, and reaches nobody.
        for to, text, code, words in (
            ("ghost", "hello", "not_found", "no user called 'ghost'"),
            ("carl", "note to self", "bad_request", "you cannot tell yourself"),
            ("dora", "x" * (MAX_TEXT + 1), "bad_request", f"at most {MAX_TEXT} characters"),
            ("dora", "hi\x1b[2J", "bad_request", "U+001B"),
            ("dora", "a\u202eb", "bad_request", "U+202E"),
        ):
            error = await _refused(carl, {"type": "tell", "to": to, "text": text, "ref": "t1"})
            assert (error["code"], error["ref"]) == (code, "t1"), error
            assert words in error["message"], error
        for text in ("y" * (MAX_TEXT + 1), "bell\x07"):
            shout = {"type": "chat", "room": "lobby", "text": text, "ref": "c"}
            error = await _refused(carl, shout)
            assert (error["code"], error["ref"]) == ("bad_request", "c"), error
        # A muted user may not tell anyone anything, nor shout.
        await root.request("POST", "/api/admin/users/dora/mute")
        await dora.wait_for(lambda m: m["type"] == "moderation")
        for message in (
            {"type": "tell", "to": "carl", "text": "psst"},
            {"type": "chat", "room": "lobby", "text": "hello all"},
        ):
            error = await _refused(dora, message)
            assert (error["code"], error["message"]) == ("forbidden", "you are muted")
        # A good tell reaches its addressee, and the sender's pages see it sent.
        await erin.send({"type": "tell", "to": "carl", "text": "good game"})
        told = await carl.wait_for(lambda m: m["type"] == "tell")
        assert (told["from"], told["text"]) == ("erin", "good game")
        echo = await erin.wait_for(lambda m: m["type"] == "told")
        assert (echo["to"], echo["text"]) == ("carl", "good game")
        assert not any(m["type"] in ("tell", "chat") and m["from"] == "dora" for m in carl.messages)
        assert not any(m["type"] == "chat" for m in carl.messages)

        # Friends lists: one's own only, and no nonsense on them.
        assert [f["name"] for f in await carl.request("PUT", "/api/friends/dora")] == ["dora"]
        assert [f["name"] for f in await carl.request("PUT", "/api/friends/dora")] == ["dora"]
        assert await dora.request("GET", "/api/friends") == []  # not carl's
        for method, path, status, words in (
            ("PUT", "/api/friends/carl", 400, "befriend yourself"),
            ("PUT", "/api/friends/ghost", 404, "no user called 'ghost'"),
            ("PUT", "/api/friends/" + "z" * 300, 404, "no user called"),
            ("DELETE", "/api/friends/erin", 404, "erin is not on your list"),
        ):
            refusal = await _http_refusal(carl, method, path)
            assert refusal.status == status and words in refusal.message, refusal
        # There is no address for another user's list, and none without a session.
        for method, path in (
            ("GET", "/api/friends/carl"),
            ("GET", "/api/friends/carl/dora"),
            ("PUT", "/api/friends/carl/dora"),
            ("DELETE", "/api/friends/carl/dora"),
        ):
            refusal = await _http_refusal(dora, method, path)
            assert refusal.status in (404, 405), refusal
        # What dora writes is her own list: carl's is untouched.
        assert (await _http_refusal(dora, "DELETE", "/api/friends/dora")).status == 404
        assert [f["name"] for f in await dora.request("PUT", "/api/friends/carl")] == ["carl"]
        anonymous = ServerClient(server.url)
        for method, path in (("GET", "/api/friends"), ("PUT", "/api/friends/dora")):
            assert (await _http_refusal(anonymous, method, path)).status == 401
        profile = await anonymous.request("GET", "/api/users/carl")
        assert "friends" not in profile
        assert [f["name"] for f in await carl.request("GET", "/api/friends")] == ["dora"]
        assert (await carl.request("DELETE", "/api/friends/dora")) == []
        for client in (root, carl, dora, erin, anonymous):
            await client.close()

    asyncio.run(scenario())


def test_a_friends_list_is_capped_and_shows_who_is_online(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "MAX_FRIENDS", 3)

    async def body(service: GameService, _clock: FakeClock) -> None:
        owner, _ = await service.register("owner", PASSWORD)
        others = [(await service.guest())[0] for _ in range(4)]
        for other in others[:3]:
            listed = await service.add_friend(owner, other.name)
        assert [f["name"] for f in listed] == [o.name for o in others[:3]]
        assert all(f["online"] is False and f["rating"] is None for f in listed)
        with pytest.raises(ServiceError) as full:
            await service.add_friend(owner, others[3].name)
        assert (full.value.code, full.value.status) == ("conflict", 409)
        assert "full (3 friends)" in full.value.message
        assert len(await service.friends(owner)) == 3  # nothing changed
        # A friend already listed may be added again (nothing changes) at the cap.
        assert len(await service.add_friend(owner, others[0].name)) == 3
        # The same friend added by concurrent requests is listed once.
        await service.remove_friend(owner, others[0].name)
        lists = await asyncio.gather(*(service.add_friend(owner, others[0].name) for _ in range(5)))
        assert all(
            sorted(f["name"] for f in listed) == sorted(o.name for o in others[:3])
            for listed in lists
        )

    _run(tmp_path, body)
