"""Chouette tables on a real server: three people and a bot at a 4-seat table with
individual cubes play 3 games over real WebSockets (the lineup rotating after each),
the session survives a SIGKILL, and every wrong action is refused with no change (on
SQLite and, where ``BACKGAMMON_TEST_POSTGRESQL`` is set, PostgreSQL)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from backgammon.formats.chouette import read_chouette
from backgammon.rules.chouette import rotate
from backgammon.server.chouettes.service import ChouetteService, CreateChouette
from backgammon.server.client import ClientError, ServerClient
from backgammon.server.db import repository
from backgammon.server.protocol import ChouetteActionBody
from backgammon.server.service import GameService, ServiceError

from .test_moderation import _logged_in
from .test_service import _run

PASSWORD = "a long enough password"
BOTS = ("--no-warm-up", "--bot-processes", "0")


async def _people(url: str, *names: str) -> list[ServerClient]:
    clients = []
    for name in names:
        client = ServerClient(url)
        await client.register(name, PASSWORD)
        await client.connect()
        clients.append(client)
    return clients


def _latest(client: ServerClient) -> tuple[int, dict[str, Any]]:
    """The newest table state ``client`` was sent, and its index in the messages."""
    for index in range(len(client.messages) - 1, -1, -1):
        message = client.messages[index]
        if message["type"] == "chouette":
            table: dict[str, Any] = message["table"]
            return index, table
    raise AssertionError("no table state arrived")


async def _act(client: ServerClient, table_id: str, expect: int | None, **action: Any) -> Any:
    """Send a chouette action; returns its ``ack`` or ``error``."""
    mark = len(client.messages)
    ref = f"c{mark}-{id(action)}"
    message: dict[str, Any] = {"type": "chouette", "table": table_id, "action": action, "ref": ref}
    if expect is not None:
        message["expect"] = expect
    await client.send(message)
    return await client.wait_for(lambda m: m.get("ref") == ref, since=mark)


async def _watch(client: ServerClient, table_id: str) -> Any:
    """Subscribe to a table's room; returns its first state (or an ``error``)."""
    mark = len(client.messages)
    await client.send({"type": "subscribe", "match": f"chouette:{table_id}"})
    return await client.wait_for(lambda m: m["type"] in ("chouette", "error"), since=mark)


def _choose(session: dict[str, Any], me: str, bots: set[str]) -> dict[str, Any] | None:
    """What a scripted person does: drop every double they must answer, play the
    first legal play, double every person's cube they may (the box: the people's
    cubes), and throw only when no person may double any more."""
    mine = [action for action in session["legal"] if action["player"] == me]
    for action in mine:
        if action["kind"] == "drop":
            return {"kind": "drop", "member": action["member"]}
    for action in mine:
        if action["kind"] == "play":
            return {"kind": "play", "move": action["move"]}
    for action in mine:
        if action["kind"] == "double" and action["member"] not in bots:
            return {"kind": "double", "member": action["member"]}
    people_doubles = [
        action
        for action in session["legal"]
        if action["kind"] == "double"
        and action["player"] not in bots
        and action["member"] not in bots
    ]
    if session["roller"] == me and not people_doubles:
        return {"kind": "roll"}
    return None


async def _play(client: ServerClient, table_id: str, me: str, bots: set[str], games: int) -> None:
    """Act for ``me`` until the session has played ``games`` games. A refusal may
    only be a race lost to another player (``stale``, or a throw that came second)."""
    while True:
        index, table = _latest(client)
        session = table["session"]
        if session is not None and session["games_played"] >= games:
            return
        choice = None if session is None else _choose(session, me, bots)
        if choice is not None:
            answer = await _act(client, table_id, table["seq"], **choice)
            if answer["type"] == "error":
                assert answer["code"] in ("stale", "not_your_turn", "illegal"), answer
        await client.wait_for(lambda m: m["type"] == "chouette", timeout=60, since=index + 1)


async def _table(owner: ServerClient, others: list[ServerClient], bot: bool) -> str:
    created = await owner.request("POST", "/api/chouettes", {"name": "Club night", "seats": 4})
    table_id: str = created["id"]
    for client in (owner, *others):
        await _watch(client, table_id)
    for client in others:
        await client.request("POST", f"/api/chouettes/{table_id}/sit")
    if bot:
        await owner.request("POST", f"/api/chouettes/{table_id}/bots", {"level": "beginner"})
    return table_id


def _lineups(record: str) -> list[tuple[str, ...]]:
    chouette = read_chouette(record)
    return [result.lineup for result in chouette.results]


def test_four_seats_with_a_bot_play_three_games_rotating(server_factory: Any) -> None:
    server = server_factory(*BOTS)

    async def main() -> None:
        ann, bob, cy = await _people(server.url, "ann", "bob", "cyd")
        table_id = await _table(ann, [bob, cy], bot=True)
        view = await ann.request("GET", f"/api/chouettes/{table_id}")
        assert view["status"] == "playing"  # full: it started by itself
        assert [seat["name"] for seat in view["seats"]] == ["ann", "bob", "cyd", "bot_beginner_1"]
        session = view["session"]
        assert (session["box"], session["captain"], session["queue"]) == (
            "ann",
            "bob",
            ["cyd", "bot_beginner_1"],
        )
        assert [cube["member"] for cube in session["cubes"]] == ["bob", "cyd", "bot_beginner_1"]
        bots = {"bot_beginner_1"}
        await asyncio.wait_for(
            asyncio.gather(
                *(
                    _play(client, table_id, name, bots, 3)
                    for client, name in ((ann, "ann"), (bob, "bob"), (cy, "cyd"))
                )
            ),
            timeout=240,
        )
        record = await ann.request("GET", f"/api/chouettes/{table_id}/record")
        chouette = read_chouette(record)
        results = chouette.results
        assert len(results) >= 3
        lineup = results[0].lineup
        assert lineup == ("ann", "bob", "cyd", "bot_beginner_1")
        for result in results[:3]:
            assert result.lineup == lineup
            following = rotate(lineup, result.captain_won)
            assert following != lineup  # a rotation after each game
            lineup = following
            assert sum(result.points().values()) == 0
            # every person's cube was doubled and dropped, or played out
            assert {cube.member for cube in result.cubes} == set(result.lineup[1:])
        final = await cy.request("GET", f"/api/chouettes/{table_id}")
        assert final["session"]["scores"] == chouette.scores
        assert sum(final["session"]["scores"].values()) == 0
        # Cyd leaves: a bot plays Cyd's seat, and the others play a fourth game.
        left = await cy.request("POST", f"/api/chouettes/{table_id}/leave")
        assert left["status"] == "playing"
        assert [seat["left"] for seat in left["seats"]] == [False, False, True, False]
        refused = await _act(cy, table_id, None, kind="roll")
        assert refused["code"] == "not_a_player"
        await asyncio.wait_for(
            asyncio.gather(
                *(
                    _play(client, table_id, name, {*bots, "cyd"}, 4)
                    for client, name in ((ann, "ann"), (bob, "bob"))
                )
            ),
            timeout=120,
        )
        for client in (ann, bob, cy):
            await client.close()

    asyncio.run(main())


def test_the_session_continues_after_a_sigkill(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots")

    async def main() -> tuple[str, dict[str, Any]]:
        ann, bob, cy = await _people(server.url, "ann", "bob", "cyd")
        table_id = await _table(ann, [bob, cy], bot=False)
        await ann.request("POST", f"/api/chouettes/{table_id}/start")
        await asyncio.wait_for(
            asyncio.gather(
                *(
                    _play(client, table_id, name, set(), 1)
                    for client, name in ((ann, "ann"), (bob, "bob"), (cy, "cyd"))
                )
            ),
            timeout=60,
        )
        before = await ann.request("GET", f"/api/chouettes/{table_id}")
        for client in (ann, bob, cy):
            await client.close()
        return table_id, before

    table_id, before = asyncio.run(main())
    assert before["session"]["games_played"] == 1
    server.kill()
    server.start()

    async def after() -> None:
        ann = ServerClient(server.url)
        await ann.login("ann", PASSWORD)
        await ann.connect()
        bob = ServerClient(server.url)
        await bob.login("bob", PASSWORD)
        await bob.connect()
        cy = ServerClient(server.url)
        await cy.login("cyd", PASSWORD)
        await cy.connect()
        snapshot = await ann.request("GET", f"/api/chouettes/{table_id}")
        assert snapshot == before
        for client in (ann, bob, cy):
            await _watch(client, table_id)
        await asyncio.wait_for(
            asyncio.gather(
                *(
                    _play(client, table_id, name, set(), 2)
                    for client, name in ((ann, "ann"), (bob, "bob"), (cy, "cyd"))
                )
            ),
            timeout=60,
        )
        record = await ann.request("GET", f"/api/chouettes/{table_id}/record")
        lineups = _lineups(record)
        assert len(lineups) >= 2
        assert lineups[0] == ("ann", "bob", "cyd")
        for client in (ann, bob, cy):
            await client.close()

    asyncio.run(after())


def test_wrong_seats_spectators_and_bad_messages_change_nothing(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots")

    async def main() -> None:
        ann, bob, cy, dan = await _people(server.url, "ann", "bob", "cyd", "dan")
        table_id = await _table(ann, [bob], bot=False)
        # Before the start: nobody acts; the rules of the seats.
        refused = await _act(bob, table_id, None, kind="roll")
        assert refused["code"] == "over"
        with pytest.raises(ClientError) as caught:
            await bob.request("POST", f"/api/chouettes/{table_id}/sit")
        assert caught.value.status == 409 and "already" in caught.value.message
        with pytest.raises(ClientError) as caught:
            await ann.request("POST", f"/api/chouettes/{table_id}/start")
        assert "at least 3 players" in caught.value.message
        with pytest.raises(ClientError) as caught:
            await bob.request("POST", f"/api/chouettes/{table_id}/start")
        assert caught.value.status == 403
        with pytest.raises(ClientError) as caught:
            await ann.request("POST", "/api/chouettes", {"name": "Big", "seats": 9})
        assert caught.value.status == 422
        with pytest.raises(ClientError) as caught:
            await ann.request("POST", f"/api/chouettes/{table_id}/bots", {"level": "beginner"})
        assert "no bot" in caught.value.message
        await cy.request("POST", f"/api/chouettes/{table_id}/sit")
        await ann.request("POST", f"/api/chouettes/{table_id}/start")
        with pytest.raises(ClientError) as caught:
            await dan.request("POST", f"/api/chouettes/{table_id}/sit")
        assert caught.value.status == 409
        assert (await _watch(dan, table_id))["type"] == "chouette"  # a spectator
        start = await dan.request("GET", f"/api/chouettes/{table_id}")
        assert start["session"]["roller"] == "ann"
        assert start["session"]["deciders"] == ["ann", "bob"]
        # The wrong seat, a spectator, a stranger, bad actions and bad messages.
        answers = [
            (await _act(cy, table_id, None, kind="roll"), "not_your_turn", "cyd may not throw"),
            (await _act(dan, table_id, None, kind="roll"), "not_a_player", "seated"),
            (
                await _act(ann, table_id, None, kind="double", member="bob"),
                "illegal",
                "not started",
            ),
            (await _act(bob, table_id, None, kind="take"), "illegal", "no double"),
            (await _act(ann, table_id, None, kind="double"), "bad_action", "names the member"),
            (await _act(ann, table_id, None, kind="play"), "bad_action", "needs its move"),
            (await _act(ann, table_id, 5, kind="roll"), "stale", "meant for 5"),
            (await _act(ann, "nosuchtable", None, kind="roll"), "not_found", "no chouette"),
            (await _act(ann, table_id, None, kind="explode"), "bad_message", "kind"),
            (
                await _act(ann, table_id, None, kind="roll", member="x" * 41),
                "bad_message",
                "member",
            ),
        ]
        for answer, code, words in answers:
            assert answer["type"] == "error" and answer["code"] == code, answer
            assert words in answer["message"], answer
        anonymous = ServerClient(server.url)
        await anonymous.connect()
        watched = await _watch(anonymous, table_id)
        assert watched["type"] == "chouette" and watched["table"]["seq"] == 0
        answer = await _act(anonymous, table_id, None, kind="roll")
        assert answer["code"] == "login_required"
        assert await dan.request("GET", f"/api/chouettes/{table_id}") == start
        # The box and the captain throw at once: one throw counts, the other is stale.
        answers = await asyncio.gather(
            _act(ann, table_id, 0, kind="roll"), _act(bob, table_id, 0, kind="roll")
        )
        assert sorted(answer["type"] for answer in answers) == ["ack", "error"]
        assert [a["code"] for a in answers if a["type"] == "error"] == ["stale"]
        # Out of turn now: the mover throwing again, the other side's play.
        table = await ann.request("GET", f"/api/chouettes/{table_id}")
        while table["session"]["on_roll"] is None:  # a tied opening throw: again
            assert (await _act(ann, table_id, table["seq"], kind="roll"))["type"] == "ack"
            table = await ann.request("GET", f"/api/chouettes/{table_id}")
        mover = table["session"]["on_roll"]
        other = "bob" if mover == "ann" else "ann"
        clients = {"ann": ann, "bob": bob, "cyd": cy}
        again = await _act(clients[mover], table_id, None, kind="roll")
        assert again["code"] == "illegal" and "already rolled" in again["message"]
        move = table["session"]["legal"][0]["move"]
        wrong = await _act(clients[other], table_id, None, kind="play", move=move)
        assert wrong["code"] == "not_your_turn" and f"{mover} is on roll" in wrong["message"]
        bad = await _act(clients[mover], table_id, None, kind="play", move="24/1")
        assert bad["code"] == "illegal"
        assert await ann.request("GET", f"/api/chouettes/{table_id}") == table
        # A person leaving a session in play, with no bots to take the seat, closes it.
        await cy.request("POST", f"/api/chouettes/{table_id}/leave")
        closed = await ann.request("GET", f"/api/chouettes/{table_id}")
        assert closed["status"] == "closed"
        # At most 3 open or playing tables per owner.
        for number in range(3):
            await dan.request("POST", "/api/chouettes", {"name": f"Table {number}"})
        with pytest.raises(ClientError) as caught:
            await dan.request("POST", "/api/chouettes", {"name": "One too many"})
        assert caught.value.status == 409 and "at most 3" in caught.value.message
        for client in (ann, bob, cy, dan, anonymous):
            await client.close()

    asyncio.run(main())


NAMES = ("root", "ann", "bob", "cyd", "dan")


def _with_admin(server: Any) -> Any:
    """``server`` (started with ``--admin root``) with the accounts :data:`NAMES`,
    restarted so that root is an administrator."""
    for name in NAMES:
        body = {"name": name, "password": PASSWORD}
        assert httpx.post(f"{server.url}/api/register", json=body).status_code == 201
    server.stop()
    server.start()
    return server


async def _everyone(url: str) -> list[ServerClient]:
    """A connected client of each of :data:`NAMES`, logged in."""
    return [await _logged_in(url, name) for name in NAMES]


def test_a_ban_hands_the_seat_to_a_bot_and_the_others_play_on(server_factory: Any) -> None:
    """A kick or ban during a session empties the person's seat as leaving does:
    a bot plays it, and the two others finish a game."""
    server = _with_admin(server_factory(*BOTS, "--admin", "root"))

    async def main() -> None:
        clients = await _everyone(server.url)
        root, ann, bob, cyd, dan = clients
        created = await ann.request("POST", "/api/chouettes", {"name": "Late", "seats": 3})
        table_id = created["id"]
        for client in (ann, bob):
            await _watch(client, table_id)
        for client in (bob, cyd):
            await client.request("POST", f"/api/chouettes/{table_id}/sit")
        # Dan sits at another, open table: the kick frees that seat.
        other = await bob.request("POST", "/api/chouettes", {"name": "Open", "seats": 4})
        await dan.request("POST", f"/api/chouettes/{other['id']}/sit")
        await root.request("POST", "/api/admin/users/cyd/ban")
        await root.request("POST", "/api/admin/users/dan/kick")
        view = await ann.request("GET", f"/api/chouettes/{table_id}")
        assert view["status"] == "playing"
        assert [(seat["name"], seat["left"]) for seat in view["seats"]] == [
            ("ann", False),
            ("bob", False),
            ("cyd", True),
        ]
        opened = await bob.request("GET", f"/api/chouettes/{other['id']}")
        assert [seat["name"] for seat in opened["seats"]] == ["bob"]
        await asyncio.wait_for(
            asyncio.gather(
                _play(ann, table_id, "ann", {"cyd"}, 1), _play(bob, table_id, "bob", {"cyd"}, 1)
            ),
            timeout=120,
        )
        for client in clients:
            await client.close()

    asyncio.run(main())


def test_a_banned_users_actions_on_their_way_are_refused(tmp_path: Path) -> None:
    """What a banned person sent before the ban closed their connection (or from a
    process that has just heard of it) changes nothing at the table."""

    async def body(service: GameService, _clock: object) -> None:
        tables = ChouetteService(service, bot_pause=0)
        admin, _ = await service.register("root", PASSWORD)
        async with service.db.transaction() as db:
            await repository.set_user_flags(db, admin.id, is_admin=True)
        admin = await service.user_named("root")
        ann, _ = await service.register("ann", PASSWORD)
        bob, _ = await service.register("bob", PASSWORD)
        cyd, _ = await service.register("cyd", PASSWORD)
        table = await tables.create(ann, CreateChouette(name="Club", seats=3))
        await tables.sit(bob, table["id"])
        await tables.sit(cyd, table["id"])
        await service.moderate(admin, "ann", "ban")
        for attempt in (
            tables.act(ann, table["id"], ChouetteActionBody(kind="roll")),
            tables.start(ann, table["id"]),
            tables.add_bot(ann, table["id"], "beginner"),
            tables.create(ann, CreateChouette(name="Another")),
        ):
            with pytest.raises(ServiceError) as refused:
                await attempt
            assert refused.value.code == "forbidden" and "banned" in refused.value.message
        after = await tables.view(table["id"])
        # Closed before its start (the owner banned): no session, nothing thrown or played.
        assert after["seq"] is None and after["status"] == "closed"
        await tables.close()

    _run(tmp_path, body)


def test_players_and_spectators_chat_at_a_table(server_factory: Any) -> None:
    """The table's room has a chat, checked and moderated as a match's is: the
    players' words reach everyone there, a spectator's only the spectators."""
    server = _with_admin(server_factory("--no-warm-up", "--no-bots", "--admin", "root"))

    async def main() -> None:
        clients = await _everyone(server.url)
        root, ann, bob, cyd, dan = clients
        table_id = await _table(ann, [bob, cyd], bot=False)
        await _watch(dan, table_id)
        room = f"chouette:{table_id}"

        async def say(client: ServerClient, text: str, to: str = room) -> dict[str, Any]:
            mark = len(client.messages)
            ref = f"t{mark}"
            await client.send({"type": "chat", "room": to, "text": text, "ref": ref})
            return await client.wait_for(
                lambda m: m.get("ref") == ref or (m["type"] == "chat" and m["text"] == text),
                since=mark,
            )

        heard = await say(ann, "good luck all")
        assert (heard["room"], heard["from"], heard["audience"]) == (room, "ann", "all")
        for client in (bob, cyd, dan):
            line = await client.wait_for(lambda m: m["type"] == "chat" and m["from"] == "ann")
            assert line["text"] == "good luck all"
        marks = [len(client.messages) for client in (ann, bob, cyd)]
        whisper = await say(dan, "the box is in trouble")
        assert whisper["audience"] == "spectators"
        # A player's line after the spectator's: the players never heard the spectator.
        await say(bob, "thanks")
        for client, mark in zip((ann, bob, cyd), marks, strict=True):
            texts = [m["text"] for m in client.messages[mark:] if m["type"] == "chat"]
            assert "the box is in trouble" not in texts
        # The same checks as a match's chat: size, control characters, rooms, mute.
        refused = [
            (await say(ann, "x" * 501), "bad_request"),
            (await say(ann, "bell\x07"), "bad_request"),
            (await say(ann, "hello", "chouette:nosuchtable"), "not_found"),
            (await say(ann, "hello", "chouette:" + "x" * 40), "bad_message"),
        ]
        await root.request("POST", "/api/admin/users/bob/mute")
        await bob.wait_for(lambda m: m["type"] == "moderation")
        refused.append((await say(bob, "hear me"), "forbidden"))
        for answer, code in refused:
            assert answer["type"] == "error" and answer["code"] == code, answer
        anonymous = ServerClient(server.url)
        await anonymous.connect()
        await _watch(anonymous, table_id)
        assert (await say(anonymous, "hi"))["code"] == "login_required"
        # A page that comes later reads the last lines: a player those to everyone,
        # a spectator the spectators' too; no account, no chat.
        path = f"/api/chouettes/{table_id}/chat"
        to_all = ["good luck all", "thanks"]
        assert [line["text"] for line in (await cyd.request("GET", path))["lines"]] == to_all
        seen = [(line["name"], line["text"]) for line in (await dan.request("GET", path))["lines"]]
        assert seen == [("ann", to_all[0]), ("dan", "the box is in trouble"), ("bob", to_all[1])]
        with pytest.raises(ClientError) as caught:
            await anonymous.request("GET", path)
        assert caught.value.status == 401
        for client in (*clients, anonymous):
            await client.close()

    asyncio.run(main())


async def _play_until(clients: dict[str, ServerClient], table_id: str, doubler: str) -> None:
    """Throw and play (the first listed play) until ``doubler`` may double the
    team's cube; nobody doubles meanwhile."""
    viewer = next(iter(clients.values()))
    for _ in range(200):
        table = await viewer.request("GET", f"/api/chouettes/{table_id}")
        session = table["session"]
        legal = session["legal"]
        if any(a["kind"] == "double" and a["player"] == doubler for a in legal):
            return
        play = next((a for a in legal if a["kind"] == "play"), None)
        if play is not None:
            answer = await _act(
                clients[play["player"]], table_id, table["seq"], kind="play", move=play["move"]
            )
        else:
            thrower = session["roller"] or session["deciders"][0]
            answer = await _act(clients[thrower], table_id, table["seq"], kind="roll")
        assert answer["type"] == "ack", answer
    raise AssertionError(f"{doubler} never came to double")


def test_the_team_cube_is_doubled_taken_dropped_and_redoubled(server_factory: Any) -> None:
    """The one-team-cube form over real WebSockets: the box doubles the team's
    single cube (two members take, one drops); the captain redoubles it for the
    members still in, and the box drops them all at once."""
    server = server_factory("--no-warm-up", "--no-bots")

    async def main() -> None:
        people = await _people(server.url, "ann", "bob", "cyd", "dan")
        clients = dict(zip(("ann", "bob", "cyd", "dan"), people, strict=True))
        body = {"name": "Old school", "seats": 4, "team_cube": True}
        table_id = (await clients["ann"].request("POST", "/api/chouettes", body))["id"]
        for name in ("bob", "cyd", "dan"):
            await clients[name].request("POST", f"/api/chouettes/{table_id}/sit")
        view = await clients["ann"].request("GET", f"/api/chouettes/{table_id}")
        assert view["session"]["team_cube"] is True
        # One cube for the team: each member's stake on it is shown, doubled together.
        assert [(c["member"], c["value"]) for c in view["session"]["cubes"]] == [
            ("bob", 1),
            ("cyd", 1),
            ("dan", 1),
        ]
        await _play_until(clients, table_id, "ann")
        # Only the team's cube: naming a member's cube is refused, and changes nothing.
        before = await clients["ann"].request("GET", f"/api/chouettes/{table_id}")
        refused = await _act(clients["ann"], table_id, None, kind="double", member="bob")
        assert refused["code"] == "illegal" and "one cube" in refused["message"], refused
        assert await clients["ann"].request("GET", f"/api/chouettes/{table_id}") == before
        assert (await _act(clients["ann"], table_id, None, kind="double"))["type"] == "ack"
        for name, kind in (("bob", "take"), ("cyd", "take"), ("dan", "drop")):
            answer = await _act(clients[name], table_id, None, kind=kind)
            assert answer["type"] == "ack", answer
        taken = (await clients["ann"].request("GET", f"/api/chouettes/{table_id}"))["session"]
        assert [(c["member"], c["value"], c["owner"], c["in"]) for c in taken["cubes"]] == [
            ("bob", 2, "member", True),
            ("cyd", 2, "member", True),
            ("dan", 1, "centre", False),
        ]
        assert taken["scores"] == {"ann": 1, "bob": 0, "cyd": 0, "dan": -1}
        # Cyd may not double for the team: only the captain does.
        await _play_until(clients, table_id, "bob")
        refused = await _act(clients["cyd"], table_id, None, kind="double")
        assert refused["type"] == "error", refused
        assert (await _act(clients["bob"], table_id, None, kind="double"))["type"] == "ack"
        assert (await _act(clients["ann"], table_id, None, kind="drop"))["type"] == "ack"
        final = (await clients["ann"].request("GET", f"/api/chouettes/{table_id}"))["session"]
        assert final["games_played"] == 1
        assert final["scores"] == {"ann": -3, "bob": 2, "cyd": 2, "dan": -1}
        record = read_chouette(
            await clients["ann"].request("GET", f"/api/chouettes/{table_id}/record")
        )
        assert record.rules.team_cube and record.scores == final["scores"]
        assert final["lineup"] == list(rotate(("ann", "bob", "cyd", "dan"), True))
        for client in people:
            await client.close()

    asyncio.run(main())


def test_the_list_room_hears_tables_opened_started_and_closed(server_factory: Any) -> None:
    """The room ``chouettes`` (anyone may listen, without an account) has the list
    now, then every table's line as it opens, fills, starts and closes."""
    server = server_factory("--no-warm-up", "--no-bots")

    async def main() -> None:
        ann, bob, cyd = await _people(server.url, "ann", "bob", "cyd")
        listener = ServerClient(server.url)
        await listener.connect()  # anonymous
        await listener.send({"type": "subscribe", "match": "chouettes"})
        snapshot = await listener.wait_for(lambda m: m["type"] in ("chouette_tables", "error"))
        assert snapshot == {**snapshot, "type": "chouette_tables", "tables": []}

        async def heard(status: str, players: list[str]) -> dict[str, Any]:
            line = await listener.wait_for(
                lambda m: (
                    m["type"] == "chouette_table"
                    and m["table"]["status"] == status
                    and m["table"]["players"] == players
                )
            )
            table: dict[str, Any] = line["table"]
            return table

        created = await ann.request("POST", "/api/chouettes", {"name": "<b>Club</b>", "seats": 4})
        opened = await heard("open", ["ann"])
        assert opened == {
            "id": created["id"],
            "name": "<b>Club</b>",
            "status": "open",
            "seats": 4,
            "players": ["ann"],
        }
        for client in (bob, cyd):
            await client.request("POST", f"/api/chouettes/{created['id']}/sit")
        await heard("open", ["ann", "bob", "cyd"])
        await ann.request("POST", f"/api/chouettes/{created['id']}/start")
        await heard("playing", ["ann", "bob", "cyd"])
        await ann.request("POST", f"/api/chouettes/{created['id']}/close")
        await heard("closed", ["ann", "bob", "cyd"])
        for client in (ann, bob, cyd, listener):
            await client.close()

    asyncio.run(main())


def test_the_cube_limit_refuses_a_double_past_it_and_bad_limits(server_factory: Any) -> None:
    """A table's cube limit (``max_cube``) as an attacker meets it: a limit that is
    not a power of two from 2 to 1024 is refused with a one-line 422 naming the
    field; at a table whose limit is 2, a redouble of a cube at 2 is refused by the
    rules (and changes nothing) while a cube at 1 may still be doubled."""
    server = server_factory("--no-warm-up", "--no-bots")

    async def main() -> None:
        people = await _people(server.url, "ann", "bob", "cyd")
        clients = dict(zip(("ann", "bob", "cyd"), people, strict=True))
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as anyone:
            await anyone.post("/api/register", json={"name": "eve", "password": PASSWORD})
            for limit in (48, 1, 0, 2048, 1 << 40, -2, "lots", True, None, 2.5):
                body = {"name": "Bad", "seats": 3, "max_cube": limit}
                answer = await anyone.post("/api/chouettes", json=body)
                assert answer.status_code == 422, (limit, answer.text)
                detail = answer.json()["detail"]
                assert len(detail) == 1 and detail[0]["loc"] == ["body", "max_cube"], detail
                assert "\n" not in detail[0]["msg"], detail
                if isinstance(limit, int) and not isinstance(limit, bool):
                    assert "a power of two from 2 to 1024" in detail[0]["msg"], detail
        body = {"name": "Small cubes", "seats": 3, "max_cube": 2}
        table_id = (await clients["ann"].request("POST", "/api/chouettes", body))["id"]
        for name in ("bob", "cyd"):
            await clients[name].request("POST", f"/api/chouettes/{table_id}/sit")
        view = await clients["ann"].request("GET", f"/api/chouettes/{table_id}")
        assert view["settings"]["max_cube"] == 2
        await _play_until(clients, table_id, "cyd")  # the team on roll, before its throw
        assert (await _act(clients["bob"], table_id, None, kind="double"))["type"] == "ack"
        assert (await _act(clients["ann"], table_id, None, kind="take", member="bob"))[
            "type"
        ] == "ack"
        # The box took Bob's cube at 2: it may not redouble it past the limit; Cyd's is free.
        await _play_until(clients, table_id, "ann")
        before = await clients["ann"].request("GET", f"/api/chouettes/{table_id}")
        legal = before["session"]["legal"]
        assert {"player": "ann", "kind": "double", "member": "cyd"} in legal
        assert not any(a["kind"] == "double" and a["member"] == "bob" for a in legal), legal
        refused = await _act(clients["ann"], table_id, None, kind="double", member="bob")
        assert refused["code"] == "illegal", refused
        assert "it is at 2, and the table's cube limit is 2" in refused["message"], refused
        assert await clients["ann"].request("GET", f"/api/chouettes/{table_id}") == before
        record = read_chouette(
            await clients["ann"].request("GET", f"/api/chouettes/{table_id}/record")
        )
        assert record.rules.max_cube == 2
        for client in people:
            await client.close()

    asyncio.run(main())
