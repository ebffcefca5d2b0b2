"""Bad input over the network: every refusal is an error message that changes
nothing, and the server keeps serving everyone else."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backgammon.server.client import ServerClient

PASSWORD = "a long enough password"


async def _setup(url: str) -> tuple[list[ServerClient], str, str]:
    """Four users: anna and ben play one match, carl watches it, dora plays carl in
    another."""
    clients = [ServerClient(url) for _ in range(4)]
    for client, name in zip(clients, ("anna", "ben", "carl", "dora"), strict=True):
        await client.register(name, PASSWORD)
    anna, ben, carl, dora = clients
    first = (await anna.create_match(length=3, opponent="ben"))["id"]
    await ben.join(first)
    second = (await dora.create_match(length=1))["id"]
    await carl.join(second)
    for client in clients:
        await client.connect()
        await client.subscribe(first)
    return clients, first, second


def _seq(url: str, match_id: str) -> int:
    return int(httpx.get(f"{url}/api/matches/{match_id}").json()["seq"])


def test_refusals_change_nothing(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots")

    async def scenario() -> None:
        (anna, ben, carl, dora), first, second = await _setup(server.url)
        state = anna.states[first]
        mover = (anna, ben)[state["waiting_for"]]
        other = (anna, ben)[1 - state["waiting_for"]]
        before = _seq(server.url, first)

        async def refused(client: ServerClient, message: Any, code: str) -> None:
            mark = len(client.messages)
            await client.send(message)
            error = await client.wait_for(lambda m: m["type"] == "error", since=mark)
            assert error["code"] == code, error
            assert _seq(server.url, first) == before

        def action(match_id: str, **body: Any) -> dict[str, Any]:
            return {"type": "action", "match": match_id, "action": body, "ref": "x"}

        # Out of turn, as a spectator, in another match, for the other player.
        await refused(other, action(first, kind="roll"), "not_your_turn")
        await refused(carl, action(first, kind="roll"), "not_a_player")
        await refused(dora, action(first, kind="roll"), "not_a_player")
        await refused(anna, action(second, kind="roll"), "not_a_player")
        impersonation = action(first, kind="roll")
        impersonation["seat"] = 1 - state["waiting_for"]
        await refused(other, impersonation, "bad_message")
        # Illegal and malformed plays, doubles after rolling, answers to nothing.
        await refused(mover, action(first, kind="play", move="24/1"), "illegal")
        await refused(mover, action(first, kind="play", move="hello"), "illegal")
        await refused(mover, action(first, kind="play"), "bad_action")
        await refused(mover, action(first, kind="double"), "illegal")
        await refused(mover, action(first, kind="take"), "illegal")
        await refused(mover, action(first, kind="fly"), "bad_message")
        await refused(mover, action("nosuchmatch", kind="roll"), "not_found")
        # Malformed JSON and unknown types.
        await refused(mover, "{not json", "bad_message")
        await refused(mover, "[1, 2]", "bad_message")
        await refused(mover, json.dumps({"type": "shout", "text": "hi"}), "bad_message")
        await refused(mover, b"\xff\xfe\x00", "bad_message")
        # A stale action (the client acts on a state it has not seen).
        stale = action(first, kind="play", move=state["game"]["legal_plays"][0])
        stale["expect"] = before - 1
        await refused(mover, stale, "stale")
        # An oversized message closes that connection; the others are still served.
        await mover.send("x" * 100_000)
        for _ in range(50):
            if mover.closed_with is not None:
                break
            await asyncio.sleep(0.1)
        assert mover.closed_with is not None
        pong = len(other.messages)
        await other.send({"type": "ping", "ref": "still-there"})
        await other.wait_for(lambda m: m["type"] == "pong", since=pong)
        assert _seq(server.url, first) == before
        # The mover reconnects and gets the whole state, then its move is accepted.
        await mover.close()
        again = ServerClient(server.url)
        await again.login(mover.user["name"] if mover.user else "", PASSWORD)
        await again.connect()
        snapshot = await again.subscribe(first)
        assert snapshot["state"]["seq"] == before
        answer = await again.act(first, "play", move=state["game"]["legal_plays"][0])
        assert answer["type"] == "ack" and answer["seq"] > before
        for client in (anna, ben, carl, dora, again):
            await client.close()

    asyncio.run(scenario())


def test_http_refusals(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots")
    url = server.url
    assert httpx.post(f"{url}/api/matches", json={}).status_code == 401
    assert httpx.get(f"{url}/api/lobby").status_code == 401
    bad_name = httpx.post(f"{url}/api/register", json={"name": "a b", "password": PASSWORD})
    assert bad_name.status_code == 400 and "user name" in bad_name.json()["message"]
    short = httpx.post(f"{url}/api/register", json={"name": "shorty", "password": "x"})
    assert short.status_code == 400 and "8 to 256" in short.json()["message"]
    first = httpx.post(f"{url}/api/register", json={"name": "gina", "password": PASSWORD})
    assert first.status_code == 201
    cookie = first.cookies.get("bg_session")
    assert cookie and "httponly" in first.headers["set-cookie"].lower()
    assert "samesite=lax" in first.headers["set-cookie"].lower()
    again = httpx.post(f"{url}/api/register", json={"name": "Gina", "password": PASSWORD})
    assert again.status_code == 409
    headers = {"authorization": f"Bearer {first.json()['token']}"}
    unknown_variant = httpx.post(
        f"{url}/api/matches", json={"settings": {"variant": "chess"}}, headers=headers
    )
    assert unknown_variant.status_code == 422 and "unknown variant" in unknown_variant.text
    no_bot = httpx.post(f"{url}/api/matches", json={"opponent": "bot:godlike"}, headers=headers)
    assert no_bot.status_code == 400
    assert httpx.post(f"{url}/api/matches/nope/join", json={}, headers=headers).status_code == 404
    not_admin = httpx.post(f"{url}/api/admin/users/gina/ban", headers=headers)
    assert not_admin.status_code == 403
    assert httpx.get(f"{url}/api/matches/nope/record.mat").status_code == 404


def test_nul_and_control_characters_are_refused_before_the_database(
    server_factory: Any,
) -> None:
    """U+0000, which PostgreSQL cannot store, in a path, a query, a JSON body or a
    WebSocket message: a 400 (or ``bad_message``) naming where, before any route runs;
    the WebSocket goes on. Before, each reached the database: 500s on PostgreSQL, and
    a closed connection (found by the random messages below, beside two CPU hogs)."""
    server = server_factory("--no-warm-up", "--no-bots")
    url = server.url
    paths = [
        "/api/matches/%00",
        "/api/matches/a%00b/record.mat",
        "/api/tournaments/%00",
        "/api/chouettes/%00",
        "/api/users/%00",
        "/api/users/gina/matches?opponent=%00",
        "/api/users/gina/matches?opponent=a%0Ab",
    ]
    for path in paths:
        answer = httpx.get(url + path)
        assert answer.status_code == 400, (path, answer.text)
        where = "query" if "?" in path else "path"
        assert answer.json()["message"].startswith(f"{where}: a control character"), answer.text
    for body in ({"name": "gi\u0000na", "password": PASSWORD}, {"name": "x", "password": "\u0000"}):
        answer = httpx.post(url + "/api/login", json=body)
        assert answer.status_code == 400, (body, answer.text)
        assert answer.json()["message"] == "body: U+0000 is not allowed in any text"
    # An escaped backslash before "u0000" is text, not U+0000: an ordinary refusal.
    text = httpx.post(url + "/api/login", json={"name": "ab\\u0000", "password": PASSWORD})
    assert text.status_code == 401, text.text

    async def live() -> None:
        async with ServerClient(url) as client:
            await client.guest()
            await client.connect()
            for message in (
                {"type": "action", "match": "\u0000", "action": {"kind": "roll"}},
                {"type": "subscribe", "match": "a\u0000"},
                {"type": "chouette", "table": "\u0000", "action": {"kind": "roll"}},
                {"type": "chat", "room": "lobby", "text": "hi", "\u0000": 1},
            ):
                mark = len(client.messages)
                await client.send(message)
                refused = await client.wait_for(lambda m: m["type"] == "error", since=mark)
                assert "U+0000" in refused["message"], refused
            await client.send({"type": "ping", "ref": "after"})
            await client.wait_for(lambda m: m["type"] == "pong")

    asyncio.run(live())
    assert httpx.get(url + "/healthz").status_code == 200


def test_a_record_the_format_cannot_hold_is_a_409_naming_the_variant(server_factory: Any) -> None:
    """An acey-deucey match has no .mat, SGF or OGXM form: each download says so (it
    was a 500), and the match plays on."""
    server = server_factory("--no-warm-up", "--no-bots")
    url = server.url
    tokens = []
    for name in ("hana", "ivo"):
        answer = httpx.post(f"{url}/api/register", json={"name": name, "password": PASSWORD})
        tokens.append({"authorization": f"Bearer {answer.json()['token']}"})
    body = {"settings": {"variant": "acey-deucey", "length": 3}}
    created = httpx.post(f"{url}/api/matches", json=body, headers=tokens[0]).json()
    joined = httpx.post(f"{url}/api/matches/{created['id']}/join", json={}, headers=tokens[1])
    assert joined.status_code == 200, joined.text
    before = _seq(url, created["id"])
    for kind in ("mat", "sgf", "ogxm"):
        answer = httpx.get(f"{url}/api/matches/{created['id']}/record.{kind}")
        assert answer.status_code == 409, (kind, answer.status_code, answer.text)
        assert "acey-deucey" in answer.json()["message"], answer.text
    dice = httpx.get(f"{url}/api/matches/{created['id']}/record.dice")
    assert dice.status_code == 200 and dice.json()["seed"] is None  # secret until the end
    assert _seq(url, created["id"]) == before


def test_random_messages_leave_the_server_serving(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots")

    async def setup() -> tuple[str, str, str]:
        (anna, ben, carl, dora), first, _second = await _setup(server.url)
        tokens = (anna.token or "", ben.token or "")
        for client in (anna, ben, carl, dora):
            await client.close()
        return tokens[0], tokens[1], first

    token, other_token, match_id = asyncio.run(setup())
    before = _seq(server.url, match_id)
    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=30)
    )
    values = st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
        max_leaves=12,
    )
    messages = st.one_of(
        st.binary(max_size=200),
        st.text(max_size=200),
        values.map(json.dumps),
        st.fixed_dictionaries(
            {
                "type": st.sampled_from(["action", "subscribe", "chat", "ping", "x"]),
                "match": st.one_of(st.just(match_id), st.text(max_size=20)),
                "action": st.fixed_dictionaries(
                    {"kind": st.sampled_from(["roll", "play", "double", "take", "resign"])},
                    optional={"move": st.text(max_size=20), "level": st.integers(-2, 5)},
                ),
            },
            optional={"text": st.text(max_size=50), "expect": st.integers(-5, 500)},
        ).map(json.dumps),
    )

    async def send_one(message: str | bytes) -> None:
        # A player's token: random messages may be refused or (rarely) be legal
        # actions; either way the server must answer the next message.
        client = ServerClient(server.url)
        client.token = other_token
        await client.connect()
        mark = len(client.messages)
        await client.send(message)
        await client.send({"type": "ping", "ref": "after"})
        await client.wait_for(lambda m: m["type"] == "pong", since=mark, timeout=10)
        await client.close()

    @settings(
        max_examples=60,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(messages)
    def random_message(message: str | bytes) -> None:
        asyncio.run(send_one(message))

    random_message()
    # A good client is still answered.

    async def good() -> None:
        client = ServerClient(server.url)
        client.token = token
        await client.connect()
        state = (await client.subscribe(match_id))["state"]
        assert state["seq"] >= before
        mark = len(client.messages)
        await client.send({"type": "ping"})
        await client.wait_for(lambda m: m["type"] == "pong", since=mark)
        await client.close()

    asyncio.run(good())


def test_websocket_origin_and_authentication(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots")

    async def scenario() -> None:
        client = ServerClient(server.url)
        await client.register("olga", PASSWORD)
        host = server.url.removeprefix("http://")
        welcome = await client.connect(origin=f"http://{host}")
        assert welcome["user"]["name"] == "olga"
        await client.close()
        foreign = ServerClient(server.url)
        foreign.token = client.token
        try:
            await foreign.connect(origin="https://evil.example")
        except Exception as error:  # the handshake is refused
            assert "403" in str(error) or "4403" in str(error) or "rejected" in str(error)
        else:
            raise AssertionError("a foreign origin was accepted")
        finally:
            await foreign.close()
        # Without a session (none, or one that ended): an anonymous viewer, who may
        # only watch (tests/server/test_spectators.py).
        for token in (None, "not-a-session"):
            anonymous = ServerClient(server.url)
            anonymous.token = token
            try:
                assert (await anonymous.connect())["user"] is None
                refused = await anonymous.subscribe("lobby")
                assert refused["code"] == "login_required", refused
            finally:
                await anonymous.close()

    asyncio.run(scenario())


def test_health_and_metrics(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots")
    health = httpx.get(f"{server.url}/healthz")
    assert health.status_code == 200 and health.json()["ready"] is True

    async def scenario() -> None:
        (anna, ben, carl, dora), first, _second = await _setup(server.url)
        state = anna.states[first]
        mover = (anna, ben)[state["waiting_for"]]
        await mover.act(first, "play", move=state["game"]["legal_plays"][0])
        metrics = httpx.get(f"{server.url}/metrics").text
        values = {
            line.split()[0]: float(line.split()[1])
            for line in metrics.splitlines()
            if line and not line.startswith("#")
        }
        assert values["backgammon_connections"] == 4
        assert values["backgammon_matches_started_total"] == 2
        assert values["backgammon_actions_total"] >= 5
        assert values['backgammon_commit_seconds_bucket{le="+Inf"}'] >= 3
        for client in (anna, ben, carl, dora):
            await client.close()

    asyncio.run(scenario())
