"""The FIBS front end: a scripted CLIP client over loopback plays a web user, and
every board line it gets is checked against the server's own position."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx

from backgammon.notation.fibs_board import decode_fibs_board, fibs_board_to_sides
from backgammon.rules.position import Position
from backgammon.server.client import ServerClient

from .clip_client import ClipClient
from .players import Policy, play_seat

PASSWORD = "a long enough password"


def _fibs_port(server: Any) -> int:
    for line in server.log.read_text().splitlines():
        if "FIBS clients: telnet" in line:
            return int(line.rsplit(" ", 1)[1])
    raise AssertionError("the server did not say where FIBS clients connect")


async def _clip_login(port: int, name: str, password: str) -> ClipClient:
    client = ClipClient("127.0.0.1", port)
    await client.connect()
    await client.wait_prompt("login: ")
    await client.send(f"login TestClient 1008 {name} {password}")
    await client.wait_for(lambda line: line == "6")
    return client


async def _register_as_guest(port: int, name: str, password: str) -> None:
    client = ClipClient("127.0.0.1", port)
    await client.connect()
    await client.wait_prompt("login: ")
    await client.send("guest")
    await client.wait_prompt("> ")
    await client.send(f"name {name}")
    await client.wait_prompt("Please give your password: ")
    await client.send(password)
    await client.wait_prompt("Please retype your password: ")
    await client.send(password)
    await client.wait_for(lambda line: "You are registered" in line)
    await client.send("bye")
    await client.close()


def _server_sides(state: dict[str, Any], seat: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    board = state["game"]["board"]
    mine = board["player0" if seat == 0 else "player1"]
    theirs = board["player1" if seat == 0 else "player0"]
    return tuple(mine[1:26]), tuple(theirs[1:26])


class FibsPlayer:
    """Plays one seat over CLIP: rolls, doubles once, takes, moves at random, and
    checks each board line against the server when it is its turn."""

    def __init__(self, client: ClipClient, url: str, rng: random.Random) -> None:
        self.client, self.url, self.rng = client, url, rng
        self.checked = 0
        self.doubled = False

    def last_board(self, before: int) -> str:
        for line in reversed(self.client.lines[:before]):
            if line.startswith("board:"):
                return line
        raise AssertionError("no board line yet")

    def check_board(self, line: str, match_id: str, seat: int) -> None:
        state = httpx.get(f"{self.url}/api/matches/{match_id}").json()
        fields = decode_fibs_board(line)
        sides = fibs_board_to_sides(fields.board, fields.colour, fields.direction)
        assert sides == _server_sides(state, seat), (line, state["game"]["board"])
        game = state["game"]
        assert fields.cube == game["cube"]["value"]
        assert [fields.player_score, fields.opponent_score] == [
            game["score"][seat],
            game["score"][1 - seat],
        ]
        if game["dice"]:
            assert list(fields.player_dice) == game["dice"]
            assert fields.can_move == game["to_move"], (line, game["to_move"])
        self.checked += 1

    async def play(self, match_id: str, seat: int) -> str:
        client, index = self.client, 0
        while True:
            index = await client.wait_for(
                lambda line: (
                    line.startswith(("It's your turn", "Please move"))
                    or "doubles. Type 'accept'" in line
                    or (" match " in line and ("wins the" in line or "You win the" in line))
                    or line.startswith("Type 'join' if you want to play the next game")
                ),
                since=index,
                timeout=60,
            )
            line = client.lines[index]
            index += 1
            if " match " in line and "win" in line:
                return line
            if line.startswith("Type 'join'"):  # between games, as FIBS asks
                await client.send("join")
                continue
            if "doubles. Type" in line:
                await client.send("accept")
                continue
            if line == "It's your turn to move.":  # the opening: its board follows
                index = 1 + await client.wait_for(lambda x: x.startswith("board:"), since=index)
            board = self.last_board(index)
            try:
                self.check_board(board, match_id, seat)
            except AssertionError:
                print("\n".join(client.lines[index - 12 : index + 1]))
                raise
            if line.startswith("It's your turn. Please roll"):
                fields = decode_fibs_board(board)
                if fields.player_may_double and not self.doubled:
                    self.doubled = True
                    await client.send("double")
                else:
                    await client.send("roll")
                continue
            fields = decode_fibs_board(board)
            position = Position.from_fibs_board(board)
            plays = position.legal_plays(fields.player_dice)
            play = self.rng.choice(list(plays))
            steps = " ".join(
                f"{'bar' if step.source == 25 else step.source}-"
                f"{'off' if step.destination == 0 else step.destination}"
                for step in play.steps
            )
            await client.send(f"move {steps}")


def test_a_fibs_client_plays_a_web_user(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0")
    port = _fibs_port(server)

    async def scenario() -> None:
        await _register_as_guest(port, "fred", PASSWORD)
        alice, carol = ServerClient(server.url), ServerClient(server.url)
        await alice.register("alice", PASSWORD)
        await carol.register("carol", PASSWORD)
        await alice.connect()
        await carol.connect()
        fred = await _clip_login(port, "fred", PASSWORD)
        welcome = fred.lines
        assert any(line.startswith("1 fred ") for line in welcome)
        assert any(line.startswith("2 fred ") for line in welcome)
        assert "3" in welcome and "4" in welcome
        who = [line.split()[1] for line in welcome if line.startswith("5 ")]
        assert {"alice", "carol", "fred"} <= set(who)
        # The FIBS client invites the web user, who joins from the web.
        mark = len(alice.messages)
        await fred.send("invite alice 3")
        invitation = await alice.wait_for(lambda m: m["type"] == "invitation", since=mark)
        assert invitation["from"] == "fred" and invitation["settings"]["length"] == 3
        await fred.wait_for(lambda line: line == "** You invited alice to a 3 point match.")
        match_id = invitation["match"]
        await alice.join(match_id)
        await alice.subscribe(match_id)
        await carol.subscribe(match_id)
        await fred.wait_for(lambda line: line.startswith("** Player alice has joined you"))
        # Chat reaches the right people only.
        await fred.send("say good luck")
        said = await alice.wait_for(lambda m: m["type"] == "say")
        assert said["from"] == "fred" and said["text"] == "good luck"
        await fred.send("kibitz hello everyone")
        for web in (alice, carol):
            await web.wait_for(lambda m: m["type"] == "chat" and m["text"] == "hello everyone")
        await fred.send("tell carol just for you")
        told = await carol.wait_for(lambda m: m["type"] == "tell")
        assert told["text"] == "just for you"
        await carol.send({"type": "chat", "room": match_id, "text": "spectators only"})
        await alice.send({"type": "chat", "room": match_id, "text": "thanks fred"})
        await fred.wait_for(lambda line: line == "15 alice thanks fred")
        assert not any("spectators only" in line for line in fred.lines)
        assert not any(
            m["type"] in ("say", "tell") and m["text"] == "just for you" for m in alice.messages
        )
        assert not any(m["type"] == "say" for m in carol.messages)
        # Play the match to the end: fred doubles once, alice always takes.
        fibs_player = FibsPlayer(fred, server.url, random.Random(4))
        seat = 0  # fred created the match
        results = await asyncio.gather(
            fibs_player.play(match_id, seat),
            play_seat(alice, match_id, 1, Policy(seed=8, double_first=False)),
        )
        last_line, final = results
        assert final["result"]["reason"] == "score"
        assert "3 point match" in last_line
        assert fibs_player.checked > 10
        assert any("accepts the double. The cube shows 2." in line for line in fred.lines)
        assert any(line.startswith("alice moves ") for line in fred.lines)
        profile = httpx.get(f"{server.url}/api/users/fred").json()
        assert profile["ratings"]["standard"]["experience"] == 3
        await fred.send("bye")
        await fred.close()
        for web in (alice, carol):
            await web.close()

    asyncio.run(scenario())


def test_bad_input_gets_fibs_errors_and_changes_nothing(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1", "--fibs-port", "0")
    port = _fibs_port(server)

    async def scenario() -> None:
        web = ServerClient(server.url)
        await web.register("gina", PASSWORD)
        await web.register("hugo", PASSWORD)  # the FIBS user's account, made on the web
        hugo = await _clip_login(port, "hugo", PASSWORD)

        async def answer(command: str | bytes) -> str:
            mark = len(hugo.lines)
            await hugo.send(command)
            index = await hugo.wait_for(lambda line: line.startswith("** "), since=mark)
            return hugo.lines[index]

        assert await answer("xyzzy") == "** Unknown command: 'xyzzy'"
        assert await answer("roll") == "** You're not playing."
        assert await answer("move 13-7") == "** You're not playing."
        assert await answer("tell nobody_here hi") == "** There is no one called nobody_here"
        too_long = "** Unknown command: (a line too long, ignored)"
        assert await answer("x" * 100_000) == too_long
        not_text = "** Unknown command: (bytes that are not text, ignored)"
        assert await answer(b"\xff\xfe\xfd\x80 roll") == not_text
        assert await answer("toggle nonsense") == "** Don't know how to toggle nonsense"
        # A match against a bot; the bot accepts at once, as FIBS bots do.
        mark = len(hugo.lines)
        await hugo.send("invite bot_beginner 1")
        await hugo.wait_for(
            lambda line: line.startswith("** Player bot_beginner has joined you"), mark
        )
        await hugo.wait_for(lambda line: line.startswith("board:"), since=mark)
        matches = httpx.get(f"{server.url}/api/users/hugo").json()["matches"]
        match_id = matches[0]["id"]
        # Wait for hugo's turn, then try bad moves: each refused, nothing changes.
        await hugo.wait_for(lambda line: line.startswith(("It's your turn", "Please move")), mark)
        state = httpx.get(f"{server.url}/api/matches/{match_id}").json()
        seq = state["seq"]
        if state["game"]["dice"] is None:
            assert (await answer("move 13-7")) == "** You have to roll the dice before moving."
            await hugo.send("roll")
            await hugo.wait_for(lambda line: line.startswith("Please move"), mark)
            state = httpx.get(f"{server.url}/api/matches/{match_id}").json()
            seq = state["seq"]
        assert (await answer("roll")) == "** You did already roll the dice."
        assert (await answer("move 24-30")).startswith("** ")
        assert (await answer("move 3-1 2")) == "** Can't understand the move '3-1 2'."
        nine = " ".join(f"{point}-{point - 1}" for point in range(20, 11, -1))
        assert (await answer(f"move {nine}")).startswith("** ")  # more steps than any play
        assert (await answer("move 24-23 24-23 24-23 1-0 2-1")).startswith("** ")
        assert (await answer("move 24-1 0-0")).startswith("** ")
        # A 1-point match: the reason is the dead cube, not the dice rolled for hugo.
        assert (await answer("double")) == "** Nobody may double in a 1 point match."
        assert (await answer("accept")).endswith("didn't double or resign.")
        assert httpx.get(f"{server.url}/api/matches/{match_id}").json()["seq"] == seq
        # The connection survives all of it.
        mark = len(hugo.lines)
        await hugo.send("who")
        await hugo.wait_for(lambda line: line == "6", since=mark)
        await hugo.send("bye")
        await hugo.close()
        await web.close()

    asyncio.run(scenario())


def test_a_restart_mid_match_and_the_fibs_client_goes_on(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1", "--fibs-port", "0")

    async def first_half() -> None:
        await _register_as_guest(_fibs_port(server), "ivy", PASSWORD)
        ivy = await _clip_login(_fibs_port(server), "ivy", PASSWORD)
        mark = len(ivy.lines)
        await ivy.send("invite bot_beginner 3")
        await ivy.wait_for(lambda line: line.startswith(("It's your turn", "Please move")), mark)
        await ivy.close()  # the client and the server vanish

    asyncio.run(first_half())
    server.kill()
    with server.log.open("a") as log:
        log.write("--- restarted ---\n")
    server.start()
    port = int(server.log.read_text().split("--- restarted ---")[1].split("telnet ")[1].split()[1])

    async def second_half() -> None:
        ivy = await _clip_login(port, "ivy", PASSWORD)
        await ivy.wait_for(lambda line: "Your running match was loaded." in line)
        match_id = httpx.get(f"{server.url}/api/users/ivy").json()["matches"][0]["id"]
        player = FibsPlayer(ivy, server.url, random.Random(2))
        last = await player.play(match_id, 0)
        assert "3 point match" in last
        final = httpx.get(f"{server.url}/api/matches/{match_id}").json()
        assert final["result"]["reason"] == "score"
        await ivy.close()

    asyncio.run(second_half())


def test_a_fibs_client_joins_a_web_invitation_and_watches(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0")
    port = _fibs_port(server)

    async def scenario() -> None:
        jane, kim, leo = (ServerClient(server.url) for _ in range(3))
        await jane.register("jane", PASSWORD)
        await kim.register("kim", PASSWORD)
        await leo.register("leo", PASSWORD)
        for web in (jane, kim):
            await web.connect()
        mona = ServerClient(server.url)
        await mona.register("mona", PASSWORD)
        watcher = await _clip_login(port, "mona", PASSWORD)
        player = await _clip_login(port, "leo", PASSWORD)
        # A web user invites the FIBS user, who joins from FIBS.
        created = await jane.create_match(length=1, opponent="leo")
        await player.wait_for(lambda line: line == "jane wants to play a 1 point match with you.")
        await player.wait_for(lambda line: line == "Type 'join jane' to accept.")
        await player.send("join jane")
        await player.wait_for(
            lambda line: line == "** You are now playing a 1 point match with jane"
        )
        await player.wait_for(lambda line: line == "Starting a new game with jane.")
        await jane.subscribe(created["id"])
        # A FIBS user watches the match between the web user and the FIBS user.
        await watcher.send("watch jane")
        await watcher.wait_for(lambda line: line == "You're now watching jane.")
        await watcher.wait_for(lambda line: line.startswith("board:jane:leo:1:"))
        state = httpx.get(f"{server.url}/api/matches/{created['id']}").json()
        if state["waiting_for"] == 1:  # leo's turn: jane may not act for him
            mark = len(player.lines)
            answer = await jane.act(created["id"], "roll")
            assert answer["type"] == "error" and answer["code"] == "not_your_turn"
            assert len(player.lines) == mark or not any(
                line.startswith("jane rolls") for line in player.lines[mark:]
            )
        else:  # jane's turn: leo's move out of turn is refused
            mark = len(player.lines)
            await player.send("move 13-7 8-7")
            index = await player.wait_for(lambda line: line.startswith("** "), since=mark)
            assert player.lines[index] == "** It's not your turn to move."
        results = await asyncio.gather(
            FibsPlayer(player, server.url, random.Random(7)).play(created["id"], 1),
            play_seat(jane, created["id"], 0, Policy(seed=3, double_first=False)),
        )
        assert results[1]["result"]["reason"] == "score"
        await watcher.wait_for(lambda line: "wins the 1 point match" in line)
        assert any(line.startswith(("jane moves", "leo moves")) for line in watcher.lines)
        for client in (watcher, player):
            await client.close()
        for web in (jane, kim, leo, mona):
            await web.close()

    asyncio.run(scenario())
