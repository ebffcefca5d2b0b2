"""A server filled with what each page of the web app shows, and the way to each page
in a browser. ``test_web_layout.py`` measures the pages at a phone's and a desktop's
width; ``python -m tests.server.screenshots`` photographs them for docs/web.md.

The content is what stretches a layout: the two players' names are as long as the
server allows, they have finished matches (a player page's table, a review's tables),
one of them has an open match in the lobby, and a match is in progress, a game of
which ends by a dropped double while its page is open (the game's summary). At the
chouette tables one is open and one plays: the two players and a bot (the table's
chat heard while its page is open).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from backgammon.server.client import ServerClient

from .players import Policy, play_seat

ALICE = "maximilian_schneider"
BOB = "konstantin_petrovski"
"""Two players whose names have the most characters a name may have (20)."""

PASSWORD = "a password long enough"

# A middle game position: O on roll with a cube of 2 in a 7-point match, X 2, O 3.
XGID = "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:2:3:0:7:10"


@dataclass(frozen=True)
class Content:
    """What :func:`fill` put on the server at ``url``."""

    url: str
    finished: str  # the id of a finished 3-point match between ALICE and BOB
    playing: str  # the id of an untimed 7-point match in progress between them
    chouette: str  # the id of a chouette table in play: ALICE, BOB and a bot
    tournament: str  # the id of a Swiss in its first round: ALICE, BOB and two bots


async def _registered(url: str, name: str) -> ServerClient:
    client = ServerClient(url)
    await client.__aenter__()
    await client.register(name, PASSWORD)
    await client.connect()
    return client


async def _match(
    alice: ServerClient, bob: ServerClient, length: int, rated: bool, **settings: Any
) -> str:
    created = await alice.create_match(length=length, rated=rated, **settings)
    match_id = str(created["id"])
    await bob.join(match_id)
    for client in (alice, bob):
        await client.subscribe(match_id)
    return match_id


async def _played(alice: ServerClient, bob: ServerClient, entries: int, seed: int) -> str:
    """A rated 3-point match played at random to ``entries`` entries, then left by BOB."""
    match_id = await _match(alice, bob, 3, rated=True)
    await asyncio.gather(
        play_seat(alice, match_id, 0, Policy(seed, stop_at_seq=entries)),
        play_seat(bob, match_id, 1, Policy(seed + 1, stop_at_seq=entries)),
    )
    if bob.states[match_id]["result"] is None:
        answer = await bob.act(match_id, "leave")
        assert answer["type"] == "ack", answer
    return match_id


async def _fill(url: str) -> Content:
    alice, bob = await _registered(url, ALICE), await _registered(url, BOB)
    try:
        finished = await _played(alice, bob, 60, seed=1)
        for seed in (3, 5):
            await _played(alice, bob, 8, seed)
        playing = await _match(alice, bob, 7, rated=True, clock=None)
        await bob.create_match(length=5, rated=True)  # an open match in the lobby
        chouette = await _chouettes(alice, bob)
        return Content(url, finished, playing, chouette, await _tournaments(alice, bob))
    finally:
        for client in (alice, bob):
            await client.close()


async def _chouettes(alice: ServerClient, bob: ServerClient) -> str:
    """An open table of BOB's, and a table of ALICE's where she, BOB and a bot play
    (its id)."""
    await bob.request("POST", "/api/chouettes", {"name": "Konstantin's Thursday table"})
    table = await alice.request(
        "POST", "/api/chouettes", {"name": "The long-named players' chouette", "seats": 3}
    )
    await bob.request("POST", f"/api/chouettes/{table['id']}/sit")
    await alice.request("POST", f"/api/chouettes/{table['id']}/bots", {"level": "beginner"})
    return str(table["id"])


async def _tournaments(alice: ServerClient, bob: ServerClient) -> str:
    """An open knock-out of BOB's, and ALICE's Swiss in its first round (its id):
    ALICE, BOB and two bots, 3-point matches, their people's nonces given."""
    await bob.request(
        "POST", "/api/tournaments", {"name": "Friday knock-out", "format": "knockout"}
    )
    body = {"name": "Thursday club Swiss", "format": "swiss", "rounds": 3, "early_length": 3}
    swiss = await alice.request("POST", "/api/tournaments", body)
    for client in (alice, bob):
        await client.request("POST", f"/api/tournaments/{swiss['id']}/register")
    for _ in range(2):
        await alice.request("POST", f"/api/tournaments/{swiss['id']}/bots", {"level": "beginner"})
    started = await alice.request("POST", f"/api/tournaments/{swiss['id']}/start")
    # Each person's dice nonce, as their page gives it when the pairing arrives (a page
    # opened while a match waits for its person's nonce is taken to that match).
    for pairing in started["rounds"][0]["pairings"]:
        for client in (alice, bob):
            if client.user is not None and client.user["name"] in pairing["players"]:
                await client.give_nonce(pairing["match"], f"showcase-{client.user['name']}")
    return str(swiss["id"])


async def _chat(url: str, room: str, text: str) -> None:
    """BOB says ``text`` in ``room``."""
    bob = await _logged_in(url, BOB)
    try:
        await bob.send({"type": "subscribe", "match": room})
        await bob.wait_for(lambda m: m["type"] == "chouette")
        mark = len(bob.messages)
        await bob.send({"type": "chat", "room": room, "text": text, "ref": "showcase"})
        heard = await bob.wait_for(lambda m: m["type"] in ("chat", "error"), since=mark)
        assert heard["type"] == "chat", heard
    finally:
        await bob.close()


async def _logged_in(url: str, name: str) -> ServerClient:
    client = ServerClient(url)
    await client.__aenter__()
    await client.login(name, PASSWORD)
    await client.connect()
    return client


async def _new_match(url: str) -> str:
    """A 7-point match between ALICE (seat 0) and BOB, with the default clock."""
    alice, bob = await _logged_in(url, ALICE), await _logged_in(url, BOB)
    try:
        return await _match(alice, bob, 7, rated=True)
    finally:
        for client in (alice, bob):
            await client.close()


def _later_state(match_id: str, seq: int) -> Callable[[dict[str, Any]], bool]:
    def later(message: dict[str, Any]) -> bool:
        return bool(
            message["type"] == "state"
            and message["match"] == match_id
            and message["state"]["seq"] > seq
        )

    return later


async def _drop_a_game(url: str, match_id: str, seed: int) -> None:
    """Both players act at random until one doubles and the other drops."""
    rng = random.Random(seed)
    seats = [await _logged_in(url, ALICE), await _logged_in(url, BOB)]
    try:
        for client in seats:
            await client.subscribe(match_id)
        number = seats[0].states[match_id]["game"]["number"]
        while True:
            state = seats[0].states[match_id]
            game = state["game"]
            if game["number"] != number or state["result"] is not None:
                return
            client = seats[state["waiting_for"]]
            fields: dict[str, Any] = {}
            if game["pending"] is not None:
                kind = "drop"
            elif game["dice"] is None:
                kind = "double" if game["can_double"] else "roll"
            else:
                kind, fields = "play", {"move": rng.choice(game["legal_plays"])}
            mark = len(seats[0].messages)
            answer = await client.act(match_id, kind, **fields)
            assert answer["type"] == "ack", answer
            await seats[0].wait_for(_later_state(match_id, state["seq"]), since=max(0, mark - 1))
    finally:
        for client in seats:
            await client.close()


def _in_a_thread(work: Callable[[], Any]) -> Any:
    # Playwright's sync API runs an event loop in this thread: use another one.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work).result()


def fill(url: str) -> Content:
    """Register ALICE and BOB on the server at ``url``, play their matches, open BOB's
    match in the lobby; takes some seconds."""
    return _in_a_thread(lambda: asyncio.run(_fill(url)))  # type: ignore[no-any-return]


# -- The pages -------------------------------------------------------------------------


def _log_in(page: Any, url: str, name: str = ALICE) -> None:
    page.goto(url + "/", wait_until="load")
    page.locator("#login-form input[name=name]").fill(name)
    page.locator("#login-form input[name=password]").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.locator("#lobby-view").wait_for()


def login_page(page: Any, content: Content) -> None:
    page.goto(content.url + "/", wait_until="load")
    page.locator("#login-view").wait_for()


def lobby_page(page: Any, content: Content) -> None:
    _log_in(page, content.url)
    page.locator("#open-matches li", has_text=BOB).wait_for()
    page.locator("#playing li", has_text=BOB).first.wait_for()


def play_page(page: Any, content: Content) -> None:
    """A new match (with a clock) just after its first game ended by a drop (the
    game's summary shown)."""
    match_id = _in_a_thread(lambda: asyncio.run(_new_match(content.url)))
    # BOB's own tab keeps him connected (left open until the browser closes).
    for viewer, name in ((page.context.browser.new_context().new_page(), BOB), (page, ALICE)):
        _log_in(viewer, content.url, name)
        viewer.evaluate(f"location.hash = '#/match/{match_id}'")
        viewer.locator("#board .checker").first.wait_for(state="attached")
    _in_a_thread(lambda: asyncio.run(_drop_a_game(content.url, match_id, seed=7)))
    page.locator("#game-summary").wait_for(timeout=30_000)


def review_page(page: Any, content: Content) -> None:
    _log_in(page, content.url)
    page.evaluate(f"location.hash = '#/review/{content.finished}'")
    page.locator("#review-players tbody tr").first.wait_for(timeout=120_000)
    page.locator("#review-errors tbody tr, #review-no-errors:not([hidden])").first.wait_for()


def position_page(page: Any, content: Content) -> None:
    """The position tool with a hint and a rollout of the three best plays."""
    page.goto(content.url + "/#/position", wait_until="load")
    page.locator("#position-text").fill(XGID)
    page.locator("#position-dice").fill("6-4")
    page.locator("#position-ply").select_option("0")
    page.locator("#position-hint").click()
    page.locator("#position-plays tbody tr").first.wait_for(timeout=60_000)
    page.locator("#position-trials").fill("18")
    page.locator("#position-rollout").click()
    page.wait_for_function(
        "document.querySelector('#position-rollout-text').textContent.startsWith('done')",
        timeout=180_000,
    )


def player_page(page: Any, content: Content) -> None:
    page.goto(f"{content.url}/#/player/{ALICE}", wait_until="load")
    page.locator("#player-matches tbody tr").first.wait_for()


def chouettes_page(page: Any, content: Content) -> None:
    """The list of chouette tables (one open, one playing)."""
    _log_in(page, content.url)
    page.goto(content.url + "/chouettes", wait_until="load")
    page.locator("#chouette-tables li a", has_text="Thursday").wait_for()


def chouette_page(page: Any, content: Content) -> None:
    """ALICE's chouette table in play, a line of the table's chat heard."""
    _log_in(page, content.url)
    page.goto(f"{content.url}/chouettes?id={content.chouette}", wait_until="load")
    page.locator("#chouette-session:not([hidden])").wait_for()
    page.locator("#chouette-chat-card:not([hidden])").wait_for()
    room = f"chouette:{content.chouette}"
    _in_a_thread(lambda: asyncio.run(_chat(content.url, room, "Good luck, box!")))
    page.locator("#chouette-chat li").first.wait_for()


def tournaments_page(page: Any, content: Content) -> None:
    """The list of tournaments (one open, one running)."""
    _log_in(page, content.url)
    page.goto(content.url + "/tournaments", wait_until="load")
    page.locator('ul[data-status="running"] a', has_text="Thursday").wait_for()


def tournament_page(page: Any, content: Content) -> None:
    """ALICE's Swiss in its first round: the players, the pairings, her match (opened
    from this page before: the page would take her there the first time)."""
    import httpx

    _log_in(page, content.url)
    view = httpx.get(f"{content.url}/api/tournaments/{content.tournament}").json()
    matches = [p["match"] for r in view["rounds"] for p in r["pairings"] if p["match"]]
    opened = json.dumps(json.dumps(matches))
    page.evaluate(f"sessionStorage.setItem('{OPENED_MATCHES}', {opened})")
    page.goto(f"{content.url}/tournaments?id={content.tournament}", wait_until="load")
    page.locator("#rounds a.your-match").first.wait_for()


OPENED_MATCHES = "backgammon.tournament-matches-opened"
"""Where the tournaments page keeps the matches it has taken the player to."""


PAGES: dict[str, Callable[[Any, Content], None]] = {
    "login": login_page,
    "lobby": lobby_page,
    "play": play_page,
    "review": review_page,
    "position": position_page,
    "player": player_page,
    "chouettes": chouettes_page,
    "chouette": chouette_page,
    "tournaments": tournaments_page,
    "tournament": tournament_page,
}
"""Each page of the app (there is no admin page: moderation is an HTTP API), and how
to open it with its content shown."""

VIEWPORTS: dict[str, Any] = {
    "phone": {"width": 375, "height": 740},
    "desktop": {"width": 1280, "height": 800},
}
