"""The web app in a real browser: Debian's headless Chromium against a real
``backgammon serve`` process (SQLite), driven as a person would, with the mouse.

Every test fails on anything in the browser's console, an uncaught error in the
page, a request that failed or an HTTP error answer.
"""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from .browser import (
    READY,
    needs_chromium,
    play_to_the_end,
    small_targets,
    start_bot_match,
    until,
    visible,
    watch,
)

pytestmark = needs_chromium


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (the server's own tests cover PostgreSQL)."""
    return "sqlite"


def test_a_guest_plays_a_whole_match_against_a_bot_with_the_mouse(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch(page)
    match_id = start_bot_match(page, server.url)
    assert page.locator("#player-top").text_content().startswith("bot_beginner")
    clicks = play_to_the_end(page)
    result = page.locator("#result-text").text_content()
    assert "won the match" in result, result
    assert clicks["done"] > 0 and clicks["destination"] >= clicks["done"], clicks
    assert clicks["checker"] == clicks["destination"], clicks
    # The server agrees: the match is over, the guest played seat 0.
    state = httpx.get(f"{server.url}/api/matches/{match_id}").json()
    assert state["result"] is not None and state["result"]["reason"] == "score"
    assert state["players"][1] == "bot_beginner"
    you_won = state["result"]["winner"] == 0
    assert result.startswith("You won") == you_won, (result, state["result"])
    assert page.locator("#do-rematch").is_visible()
    page.close()
    assert problems == []


def test_a_checker_is_dragged_and_a_move_typed(server_factory: Any, browser: Any) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    problems = watch(page)
    match_id = start_bot_match(page, server.url)
    # Wait for our move (rolling first if we may double).
    for _ in range(2):
        page.wait_for_function(READY, timeout=30_000)
        if visible(page, "#do-roll"):
            page.locator("#do-roll").click()
            continue
        break
    assert page.locator("#board .place.movable").count() > 0
    # Drag the first movable checker onto its first destination.
    source = page.locator("#board .place.movable").first
    place = int(source.get_attribute("data-place"))
    box = source.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 10, box["y"] + box["height"] / 2, steps=3)
    target = page.locator("#board .place.target").first
    goal = target.bounding_box()
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=5)
    page.mouse.up()
    assert page.locator("#do-undo").is_visible(), "the dragged step was made"
    chosen = page.locator("#match-status").text_content().split("Chosen: ")[-1]
    assert chosen.startswith("bar/" if place == 25 else f"{place}/"), chosen
    # Undo it, then type a legal play instead.
    page.locator("#do-undo").click()
    assert not page.locator("#do-undo").is_visible()
    state = httpx.get(f"{server.url}/api/matches/{match_id}").json()
    seq = state["seq"]
    page.locator("#move-input").fill(state["game"]["legal_plays"][0])
    page.locator("#move-form button").click()
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.seq) > {seq}")
    # A chat line comes back.
    page.locator("#chat-input").fill("good luck")
    page.locator("#chat-form button").click()
    page.wait_for_function(
        "() => document.querySelector('#chat-lines').textContent.includes('good luck')"
    )
    page.close()
    assert problems == []


def test_the_play_page_fits_a_phone_and_spectators_onlywatch(
    server_factory: Any, browser: Any, tmp_path: Path
) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    context = browser.new_context(viewport={"width": 375, "height": 812}, has_touch=True)
    page = context.new_page()
    problems = watch(page)
    match_id = start_bot_match(page, server.url)
    page.wait_for_function(READY, timeout=30_000)
    if visible(page, "#do-roll"):
        page.locator("#do-roll").click()
        page.wait_for_function(READY, timeout=30_000)
    page.screenshot(path=str(tmp_path / "play-375.png"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways ({width} px)"
    # What a turn needs is on the screen as the page shows it (scrolled to the board,
    # the header above it); the header and the chat are a scroll away, never sideways.
    playing = [
        "#board",
        "#match-status",
        "#to-lobby",
        "#player-top",
        "#player-bottom",
        *[f"#controls button >> nth={i}" for i in range(page.locator("#controls button").count())],
    ]
    if visible(page, "#move-form"):
        playing += ["#move-input", "#move-form button"]
    shown = 0
    for selector in [*playing, "#logout", "#chat-input", "#chat-form button"]:
        locator = page.locator(selector)
        if not locator.is_visible():
            continue
        shown += 1
        box = locator.bounding_box()
        assert box is not None, selector
        inside = box["x"] >= 0 and box["x"] + box["width"] <= 375
        if selector in playing:
            inside = inside and box["y"] >= 0 and box["y"] + box["height"] <= 812
        assert inside, f"{selector} is off the screen: {box}"
    assert shown >= 10
    board = page.locator("#board").bounding_box()
    assert board["width"] >= 340, board
    # Every target is a finger's, the board's points too (the board is turned a quarter).
    if page.locator("#board .place.movable").count():
        page.locator("#board .place.movable").first.click()
    assert small_targets(page) == []
    # The points' numbers are legible: they were about 3x5 px before the board was turned.
    heights = page.eval_on_selector_all(
        "#board text.label", "labels => labels.map((l) => l.getBoundingClientRect().height)"
    )
    assert len(heights) >= 24 and min(heights) >= 9, heights
    page.close()
    # Someone else watches: the board without buttons or movable checkers.
    watcher = browser.new_page(viewport={"width": 800, "height": 800})
    watcher_problems = watch(watcher)
    watcher.goto(server.url + "/", wait_until="load")
    watcher.get_by_role("button", name="Play as guest").click()
    watcher.wait_for_selector("#bots button")
    watcher.evaluate(f"location.hash = '#/match/{match_id}'")
    watcher.wait_for_selector("#board .place", state="attached")
    assert "watching" in watcher.locator("#match-title").text_content()
    assert watcher.locator("#controls button:visible").count() == 0
    assert watcher.locator("#board .place.movable").count() == 0
    assert not watcher.locator("#move-form").is_visible()
    watcher.close()
    context.close()
    assert problems == [] and watcher_problems == []


def test_two_guests_meet_in_the_lobby(server_factory: Any, browser: Any) -> None:
    """One opens a match, the other sees it in the lobby and joins; both get the
    board, the opening roll's winner may move, and chat reaches the other."""
    server = server_factory("--no-warm-up", "--no-bots")
    pages = [browser.new_context().new_page() for _ in range(2)]
    problems = [watch(page) for page in pages]
    host, guest = pages
    for page in pages:
        page.goto(server.url + "/", wait_until="load")
        page.get_by_role("button", name="Play as guest").click()
        page.wait_for_selector("#lobby-view:not([hidden])")
    host.get_by_role("button", name="3", exact=True).click()
    host.get_by_role("button", name="Create an open match").click()
    host.wait_for_function("() => location.hash.startsWith('#/match/')")
    # The match's state comes over the WebSocket after the address changes.
    host.wait_for_function(
        "() => document.querySelector('#match-status').textContent"
        ".includes('Waiting for an opponent')"
    )
    join = guest.locator("#open-matches button", has_text="Join")
    join.wait_for()
    assert "3-point" in guest.locator("#open-matches").text_content()
    join.click()
    for page in pages:
        page.wait_for_selector("#board .place", state="attached")
        assert "3-point match" in page.locator("#match-title").text_content()
    names = [page.locator("#who").text_content().split()[0] for page in pages]
    for page, name in zip(pages, names, strict=True):
        assert page.locator("#player-bottom").text_content().startswith(name)
    movers = [page.locator("#board .place.movable").count() > 0 for page in pages]
    for _ in range(50):
        if any(movers):
            break
        time.sleep(0.1)
        movers = [page.locator("#board .place.movable").count() > 0 for page in pages]
    assert movers.count(True) == 1, movers
    # The opening roll's winner plays it with the mouse; the other doubles; it is taken.
    mover, other = (pages[0], pages[1]) if movers[0] else (pages[1], pages[0])
    while not mover.locator("#do-done").is_visible():
        if mover.locator("#board .place.target").count():
            mover.locator("#board .place.target").first.click()
        else:
            mover.locator("#board .place.movable").first.click()
    mover.locator("#do-done").click()
    other.locator("#do-double").click()
    mover.locator("#do-take").click()
    for page in pages:
        page.wait_for_function(TAKEN_AT_2)
    assert mover.locator("#board .cube").get_attribute("data-owner") == "bottom"
    assert other.locator("#board .cube").get_attribute("data-owner") == "top"
    guest.locator("#chat-input").fill("hello host")
    guest.locator("#chat-form button").click()
    host.wait_for_function(
        "() => document.querySelector('#chat-lines').textContent.includes('hello host')"
    )
    for page in pages:
        page.close()
    assert problems == [[], []]


def test_the_position_tool_ranks_the_plays_of_a_pasted_xgid(
    server_factory: Any, browser: Any
) -> None:
    from backgammon import Position

    start = Position.from_position_id("4HPwATDgc/ABMA")
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch(page)
    page.goto(server.url + "/", wait_until="load")
    page.get_by_role("link", name="Position").click()  # no login needed
    page.locator("#position-text").fill(start.xgid)
    page.locator("#position-dice").fill("3-1")
    page.get_by_role("button", name="Hint").click()
    first = page.locator("#position-plays tbody tr").first
    first.wait_for(timeout=60_000)
    assert first.locator("td.play").text_content() == "8/5 6/5"
    assert page.locator("#position-plays tbody tr").count() == 10
    assert "equity" in page.locator("#position-evaluation").text_content()
    # The position is drawn: 30 checkers, the dice; clicking a play draws its result.
    assert page.locator("#position-board .checker").count() == 30
    assert page.locator("#position-board .die").count() == 2
    before = page.locator("#position-board").inner_html()
    first.click()
    assert first.get_attribute("aria-selected") == "true"
    assert page.locator("#position-board").inner_html() != before
    assert page.locator("#position-board .checker").count() == 30
    page.close()
    assert problems == []


def test_an_uploaded_match_is_reviewed_with_a_progress_bar(
    server_factory: Any, browser: Any
) -> None:
    from tests.server.test_review import SHORT_MATCH

    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch(page)
    page.goto(server.url + "/", wait_until="load")
    page.get_by_role("link", name="Review").click()  # no login needed
    page.locator("#review-file").set_input_files(
        {"name": "short.mat", "mimeType": "text/plain", "buffer": SHORT_MATCH.encode()}
    )
    page.locator("#review-progress").wait_for(state="visible", timeout=30_000)
    page.locator("#review-errors tbody tr").first.wait_for(timeout=120_000)
    # The bar stays, full; the players' table and the errors with their move numbers.
    progress = page.locator("#review-progress")
    assert progress.is_visible()
    assert progress.get_attribute("value") == progress.get_attribute("max") != "0"
    players = page.locator("#review-players tbody tr")
    assert players.count() == 2
    assert players.first.locator("td").first.text_content() == "Alice"
    rows = page.locator("#review-errors tbody tr")
    cells = [rows.nth(i).locator("td").all_text_contents() for i in range(rows.count())]
    assert cells[0][:3] == ["1", "4", "Alice"], cells
    assert any(row[1:3] == ["5", "Bob"] for row in cells), cells
    # The board shows the first error (Alice's 2-1 with a checker on the bar), with the
    # play made and the best play as arrows; another row shows its own position.
    board = page.locator("#review-board")
    assert board.get_attribute("data-error") == "0"
    assert rows.first.get_attribute("aria-selected") == "true"
    assert board.locator("circle.checker.on-bar").count() == 1
    assert board.locator(".die").count() == 2
    assert board.locator("line.arrow.played").count() >= 1
    assert board.locator("line.arrow.best").count() >= 1
    assert "Alice rolled 2-1" in (page.locator("#review-note").text_content() or "")
    assert page.locator("#review-legend").is_visible()
    signature = "() => document.querySelector('#review-board').innerHTML"
    first = page.evaluate(signature)
    last = rows.count() - 1
    rows.nth(last).click()
    assert board.get_attribute("data-error") == str(last)
    assert rows.nth(last).get_attribute("aria-selected") == "true"
    assert rows.first.get_attribute("aria-selected") == "false"
    assert page.evaluate(signature) != first
    rows.first.focus()
    page.keyboard.press("Enter")
    assert board.get_attribute("data-error") == "0"
    assert page.evaluate(signature) == first
    page.close()
    assert problems == []


def test_a_long_analysis_is_stopped_and_the_same_file_chosen_again_is_read_again(
    server_factory: Any, browser: Any
) -> None:
    """A 5-point match at 2-ply (minutes on two cores) is stopped from the page: the bar
    says where it stopped and the server's job is cancelled; choosing the same file
    again starts a new analysis (the file input kept it, and its change event did not
    fire)."""
    match_file = Path(__file__).parents[1] / "data" / "reference" / "formats" / "match03_5pt.mat"
    upload = {"name": "five.mat", "mimeType": "text/plain", "buffer": match_file.read_bytes()}
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch(page)
    jobs: list[str] = []
    page.on(
        "response",
        lambda answer: (
            jobs.append(answer.json()["id"])
            if answer.request.method == "POST" and answer.url.endswith("/api/analysis")
            else None
        ),
    )
    page.goto(server.url + "/#/review", wait_until="load")
    page.locator("#review-ply").select_option("2")
    page.locator("#review-file").set_input_files(upload)
    stop = page.get_by_role("button", name="Stop the analysis")
    stop.wait_for(state="visible", timeout=30_000)
    stop.click()
    text = page.locator("#review-progress-text")
    until(page, lambda: "stopped after" in (text.text_content() or ""), 30, "stopped")
    assert stop.is_hidden() and page.locator("#review-result").is_hidden()
    status = httpx.get(f"{server.url}/api/analysis/{jobs[0]}").json()
    assert status["state"] == "cancelled", status
    page.locator("#review-file").set_input_files(upload)
    until(page, lambda: len(jobs) == 2 and stop.is_visible(), 30, "a second analysis")
    assert "stopped" not in (text.text_content() or "")
    stop.click()
    until(page, lambda: "stopped after" in (text.text_content() or ""), 30, "stopped again")
    page.close()
    assert problems == []


BOARD_SIGNATURE = """() => {
  const board = document.querySelector('#board');
  const checkers = [...board.querySelectorAll('circle.checker')]
    .map((c) => [c.getAttribute('cx'), c.getAttribute('cy'), c.getAttribute('fill')]
      .map((value) => value.slice(0, 8)).join(','))
    .sort();
  const cube = board.querySelector('.cube');
  return JSON.stringify({seq: board.dataset.seq, checkers,
                         cube: cube ? cube.getAttribute('data-value') : null});
}"""


TAKEN_AT_2 = (
    "() => { const cubes = document.querySelectorAll('#board .cube');"
    " return cubes.length === 1 && cubes[0].dataset.value === '2'; }"
)
"""A page's board once a double to 2 is taken: the offer's own cube (at 2, offered,
beside the centred cube) has given way to the one cube, at 2."""


def _an_invitation(
    browser: Any, url: str, count: int, length: str = "1"
) -> tuple[list[Any], list[Any], str]:
    """``count`` guests in their own browser contexts, in the lobby; the first invites
    the second by name (a ``length``-point match) and is shown the open match. Returns
    the pages, each page's problems (see :func:`watch`) and the match id."""
    pages = [browser.new_context().new_page() for _ in range(count)]
    problems = [watch(page) for page in pages]
    for page in pages:
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(url + "/", wait_until="load")
        page.get_by_role("button", name="Play as guest").click()
        page.wait_for_selector("#lobby-view:not([hidden])")
    host, guest = pages[:2]
    guest_name = guest.locator("#who").text_content().split()[0]
    host.get_by_role("button", name=length, exact=True).click()
    host.locator("#invite-name").fill(guest_name)
    host.locator("#invite-form button").click()
    host.wait_for_function("() => location.hash.startsWith('#/match/')")
    return pages, problems, host.evaluate("location.hash").removeprefix("#/match/")


def test_an_invitation_a_double_a_take_and_a_watcher(server_factory: Any, browser: Any) -> None:
    """One guest invites another by name, who accepts; a third context watches and
    sees the same board as the inviter (seat 0, drawn at the bottom for both) at each
    turn; a double is taken; then the inviter concedes and all three see the result."""
    server = server_factory("--no-warm-up", "--no-bots")
    # 3 points: in a 1-point match nobody may usefully double (issue 35).
    pages, problems, match_id = _an_invitation(browser, server.url, 3, length="3")
    host, guest, watcher = pages
    accept = guest.locator("#invitations button", has_text="Accept")
    accept.wait_for()
    accept.click()
    for page in (host, guest):
        page.wait_for_selector("#board .place", state="attached")
    # The watcher opens the match once it has started (spectators who open it while
    # the invitation is still open: the next test).
    watcher.goto(f"{server.url}/#/match/{match_id}")
    watcher.wait_for_selector("#board .place", state="attached")

    def same_board() -> None:
        seq = int(httpx.get(f"{server.url}/api/matches/{match_id}").json()["seq"])
        for page in (host, watcher):
            page.wait_for_function(
                f"() => Number(document.querySelector('#board').dataset.seq) >= {seq}"
            )
        seen = host.evaluate(BOARD_SIGNATURE)
        assert len(json.loads(seen)["checkers"]) >= 20, seen  # checkers are drawn
        assert seen == watcher.evaluate(BOARD_SIGNATURE)

    same_board()
    movers = []
    for _ in range(50):
        movers = [page.locator("#board .place.movable").count() > 0 for page in (host, guest)]
        if any(movers):
            break
        time.sleep(0.1)
    assert movers.count(True) == 1, movers
    mover, other = (host, guest) if movers[0] else (guest, host)
    while not mover.locator("#do-done").is_visible():
        if mover.locator("#board .place.target").count():
            mover.locator("#board .place.target").first.click()
        else:
            mover.locator("#board .place.movable").first.click()
    mover.locator("#do-done").click()
    other.locator("#do-double").wait_for()
    same_board()
    other.locator("#do-double").click()
    mover.locator("#do-take").click()
    for page in pages:
        page.wait_for_function(TAKEN_AT_2)
    same_board()
    assert watcher.locator("#do-roll, #do-double, #do-take").evaluate_all(
        "buttons => buttons.every((button) => button.hidden)"
    )
    host.locator("#do-leave").click()
    for page in pages:
        page.wait_for_selector("#result:not([hidden])")
    for page in pages:
        page.close()
    assert problems == [[], [], []]


def test_spectators_of_an_invitation_see_the_board_once_it_is_accepted(
    server_factory: Any, browser: Any
) -> None:
    """One spectator opens an invited match before the invitee accepts: the page says
    the invitation waits to be accepted, with no board and no Join button; another
    opens it just as the invitee accepts. Both then see the board (the server sends
    the started match to everyone who subscribed while it was open)."""
    server = server_factory("--no-warm-up", "--no-bots")
    pages, problems, match_id = _an_invitation(browser, server.url, 4)
    host, guest, early, late = pages
    guest_name = guest.locator("#who").text_content().split()[0]
    early.goto(f"{server.url}/#/match/{match_id}")
    early.wait_for_function(
        "() => document.querySelector('#match-status').textContent"
        ".includes('waiting for the invitation to be accepted')"
    )
    status = early.locator("#match-status").text_content()
    assert guest_name in status, status
    assert early.locator("#board .place").count() == 0
    assert not early.locator("#do-join").is_visible()
    host.wait_for_function(
        f"() => document.querySelector('#match-status').textContent"
        f".includes('Waiting for {guest_name} to accept')"
    )
    accept = guest.locator("#invitations button", has_text="Accept")
    accept.wait_for()
    accept.click()
    late.goto(f"{server.url}/#/match/{match_id}")
    for page in pages:
        page.wait_for_selector("#board .place", state="attached")
        assert page.locator("#open-panel").is_hidden()
    seq = int(httpx.get(f"{server.url}/api/matches/{match_id}").json()["seq"])
    assert seq > 0
    for page in pages:
        page.wait_for_function(
            f"() => Number(document.querySelector('#board').dataset.seq) >= {seq}"
        )
    boards = {page.evaluate(BOARD_SIGNATURE) for page in (host, early, late)}
    assert len(boards) == 1, boards
    for page in pages:
        page.close()
    assert problems == [[], [], [], []]


def test_a_player_page_shows_ratings_a_graph_and_downloads(
    server_factory: Any, browser: Any
) -> None:
    """Two registered users play a rated 1-point match (the loser leaves at once);
    the winner's page shows a rating other than 1500, the graph and the downloads."""
    from backgammon.server.client import ServerClient

    server = server_factory("--no-warm-up", "--no-bots")

    async def rated_match() -> str:
        async with ServerClient(server.url) as alice, ServerClient(server.url) as bob:
            await alice.register("alice_p", "password-alice")
            await bob.register("bob_p", "password-bob")
            created = await alice.create_match(length=1, rated=True)
            match_id = str(created["id"])
            await bob.join(match_id)
            await bob.connect()
            await bob.subscribe(match_id)
            answer = await bob.act(match_id, "leave")
            assert answer["type"] == "ack", answer
            return match_id

    # Playwright's sync API runs an event loop in this thread: use another one.
    with ThreadPoolExecutor(1) as pool:
        match_id = pool.submit(asyncio.run, rated_match()).result()
    state = httpx.get(f"{server.url}/api/matches/{match_id}").json()
    assert state["result"] is not None and state["result"]["winner"] == 0, state

    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch(page)
    page.goto(server.url + "/", wait_until="load")
    page.locator("#login-form input[name=name]").fill("alice_p")
    page.locator("#login-form input[name=password]").fill("password-alice")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_selector("#lobby-view:not([hidden])")
    page.locator("#online a.player-link", has_text="alice_p").click()
    page.wait_for_selector("#player-ratings tbody tr[data-variant='standard']")
    assert page.evaluate("location.hash") == "#/player/alice_p"
    assert page.locator("#player-name").text_content() == "alice_p"
    rating = float(
        page.locator("#player-ratings tr[data-variant='standard'] .rating").text_content()
    )
    assert rating != 1500.0 and rating > 1500.0, rating
    points = page.locator("#player-graph polyline").get_attribute("points")
    assert points is not None and len(points.split()) >= 2, points
    row = page.locator(f"#player-matches tr[data-match='{match_id}']")
    assert "bob_p" in row.text_content()
    assert "won" in row.text_content()
    mat = row.locator("a", has_text=".mat")
    assert mat.get_attribute("href") == f"/api/matches/{match_id}/record.mat"
    assert httpx.get(server.url + mat.get_attribute("href")).status_code == 200
    ogxm = row.locator("a", has_text="OGXM")
    assert ogxm.get_attribute("href") == f"/api/matches/{match_id}/record.ogxm"
    assert httpx.get(server.url + ogxm.get_attribute("href")).content.startswith(b"OGXM")
    # The opponent's page, from the history's link.
    row.locator("a.player-link", has_text="bob_p").click()
    # The page changes on the hash's event, after the click returns: until then
    # alice_p's rows are still there (the page empties them when it opens bob_p's).
    page.wait_for_function("() => document.querySelector('#player-name').textContent === 'bob_p'")
    page.wait_for_selector("#player-ratings tbody tr[data-variant='standard']")
    assert page.evaluate("location.hash") == "#/player/bob_p"
    bobs_row = page.locator(f"#player-matches tr[data-match='{match_id}']")
    bobs_row.wait_for()
    assert "lost" in bobs_row.text_content() and "alice_p" in bobs_row.text_content()
    page.close()
    assert problems == []


def test_an_invitation_link_is_joined_by_whoever_opens_it(
    server_factory: Any, browser: Any
) -> None:
    """The host makes an unlisted match and copies its link; it is not in the lobby
    (nor a lobby event); a guest who opens the link logs in and joins; both get the board."""
    server = server_factory("--no-warm-up", "--no-bots")
    host_context = browser.new_context()
    host_context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    host = host_context.new_page()
    guest = browser.new_context().new_page()
    problems = [watch(host), watch(guest)]
    host.goto(server.url + "/", wait_until="load")
    host.get_by_role("button", name="Play as guest").click()
    host.get_by_role("button", name="Invite by link").click()
    link = host.locator("#invite-link")
    link.wait_for()
    host.wait_for_function(
        "() => document.querySelector('#invite-link').value.includes('#/match/')"
    )
    url = link.input_value()
    match_id = url.rsplit("/", 1)[1]
    assert url == f"{server.url}/#/match/{match_id}"
    assert not host.locator("#do-join").is_visible()
    host.get_by_role("button", name="Copy link").click()
    assert host.evaluate("navigator.clipboard.readText()") == url

    with httpx.Client(base_url=server.url) as client:
        client.post("/api/guest").raise_for_status()
        lobby = client.get("/api/lobby").json()
    assert match_id not in [m["id"] for m in lobby["open"]], "an unlisted match is not listed"

    guest.goto(url, wait_until="load")
    guest.get_by_role("button", name="Play as guest").click()
    join = guest.get_by_role("button", name="Join this match")
    join.wait_for()
    assert "waits for an opponent" in guest.locator("#match-status").text_content()
    join.click()
    for page in (host, guest):
        page.wait_for_selector("#board .place", state="attached")
        assert page.locator("#open-panel").is_hidden()
    assert guest.evaluate("location.hash") == f"#/match/{match_id}"
    host.close()
    guest.close()
    assert problems == [[], []]


def test_an_xg_file_that_cannot_be_read_is_said_plainly(server_factory: Any, browser: Any) -> None:
    """A damaged eXtreme Gammon file on the review page: the status line says in plain
    words that it cannot be read as a match, without the reader's detail (issue 52)."""
    from backgammon.formats import read_match
    from tests.formats.xg_files import xg_of

    match_file = Path(__file__).parents[1] / "data" / "reference" / "formats" / "match01_3pt.mat"
    broken = xg_of(read_match(match_file))[:300]
    server = server_factory("--no-warm-up", "--no-bots")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch(page)
    page.goto(server.url + "/#/review", wait_until="load")
    page.locator("#review-file").set_input_files(
        {"name": "broken.xg", "mimeType": "application/octet-stream", "buffer": broken}
    )
    status = page.locator("#status")
    status.filter(has_text="broken.xg cannot be read as a match").wait_for()
    said = status.text_content() or ""
    assert "damaged, cut short, or another kind of file" in said
    # No reader's jargon ("not a whole number of 2560-byte records") for a person.
    assert "byte" not in said and "record" not in said, said
    page.close()
    assert all("400" in problem for problem in problems), problems  # the refusal, nothing else
