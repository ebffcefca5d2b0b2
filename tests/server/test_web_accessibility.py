"""Accessibility in a real browser (Debian's headless Chromium against a real
``backgammon serve``): axe-core (bundled by ``axe-playwright-python``, nothing fetched)
finds no violation on any page, and a whole 1-point match against a bot is played
from the accessible tree alone: controls found by role and accessible name, the
position and the dice read from the page's accessible text, the keyboard only.

Every test fails on anything in the browser's console, an uncaught error in the page,
a request that failed or an HTTP error answer.
"""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

import backgammon as bg

from .browser import needs_chromium, start_bot_match, watch
from .test_review import played_match

pytestmark = needs_chromium


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (the server's own tests cover PostgreSQL)."""
    return "sqlite"


def axe_violations(page: Any) -> list[str]:
    """axe-core's violations on the page as it is now, one line each (rule, nodes)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    lines = []
    for violation in results.response["violations"]:
        nodes = "; ".join(
            f"{node['target']}: {node.get('failureSummary', '')}" for node in violation["nodes"]
        )
        lines.append(f"{violation['id']} ({violation['help']}): {nodes}")
    return lines


def _played(url: str) -> str:
    # Playwright's sync API runs an event loop in this thread: use another one.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(played_match, url, 20).result()


def test_axe_finds_no_violation_on_any_page(server_factory: Any, browser: Any) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    finished = _played(server.url)
    players = httpx.get(f"{server.url}/api/matches/{finished}").json()["players"]
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch(page)
    found: dict[str, list[str]] = {}

    page.goto(server.url + "/", wait_until="load")
    page.get_by_role("button", name="Play as guest").wait_for()
    found["login"] = axe_violations(page)

    start_bot_match(page, server.url)  # through the lobby
    page.get_by_role("button", name="Roll").or_(page.get_by_role("status")).first.wait_for()
    found["play"] = axe_violations(page)

    page.evaluate("location.hash = '#/'")
    page.get_by_role("heading", name="New match").wait_for()
    page.get_by_role("button", name="Resume").or_(
        page.get_by_role("button", name="Watch")
    ).first.wait_for()
    found["lobby"] = axe_violations(page)

    page.evaluate(f"location.hash = '#/review/{finished}'")
    page.locator("#review-moves tbody tr").first.wait_for(timeout=120_000)
    found["review"] = axe_violations(page)

    page.evaluate("location.hash = '#/position'")
    page.get_by_role("textbox", name="Position ID, XGID or FIBS board: line").fill("4HPwATDgc/ABMA")
    page.get_by_role("textbox", name="Dice").fill("3-1")
    page.get_by_role("button", name="Hint", exact=True).click()
    page.locator("#position-plays tbody tr").first.wait_for(timeout=60_000)
    found["position"] = axe_violations(page)

    page.evaluate(f"location.hash = '#/player/{players[0]}'")
    page.get_by_role("heading", name=players[0]).wait_for()
    page.locator("#player-matches tbody tr").first.wait_for(timeout=30_000)
    found["player"] = axe_violations(page)

    report = [f"{where}: {line}" for where, lines in found.items() for line in lines]
    assert not report, "\n".join(report)
    assert problems == []


POINT = re.compile(r"point (\d+): (\d+) of (yours|.+'s)\"?$")
DICE = re.compile(r"Dice: (\d)(?: and (\d))+, yours")
BAR = re.compile(r"On the bar: you (\d+), .+ (\d+)\.")


def position_in_words(page: Any) -> tuple[bg.Position, tuple[int, int]]:
    """The position (the viewer on roll) and the dice, read from the board in words
    as the accessibility tree gives it."""
    tree = page.get_by_role("region", name="The board in words").aria_snapshot()
    mine, theirs = [0] * 24, [0] * 24
    bars = (0, 0)
    dice = None
    for line in tree.splitlines():
        if found := POINT.search(line):
            point, count, whose = int(found[1]), int(found[2]), found[3]
            if whose == "yours":
                mine[point - 1] = count
            else:
                theirs[24 - point] = count  # their own numbering
        elif found := BAR.search(line):
            bars = (int(found[1]), int(found[2]))
        elif found := DICE.search(line):
            dice = (int(found[1]), int(found[2]))
    assert dice is not None, tree
    position = bg.Position.from_points(mine, theirs, player_bar=bars[0], opponent_bar=bars[1])
    return position, dice


def pick_up_put_down_and_undo(page: Any) -> None:
    """On the board, with the keys: pick a checker up, put it down where it may go
    (the board's accessible name says where the cursor is), then Undo."""
    board = page.get_by_role("img", name=re.compile(r"^the board"))
    board.press("ArrowRight")
    expect(board).to_have_accessible_name(
        re.compile(r"^the board: .*; Enter picks up a checker$"), timeout=15_000
    )
    board.press("Enter")
    expect(board).to_have_accessible_name(
        re.compile(r"^the board: (move|bear) the checker .*; Enter "), timeout=15_000
    )
    board.press("Enter")
    expect(page.get_by_role("status").filter(has_text="Chosen: ")).to_have_count(1, timeout=15_000)
    page.get_by_role("button", name="Undo", exact=True).press("Enter")
    expect(page.get_by_role("status").filter(has_text="Chosen: ")).to_have_count(0, timeout=15_000)


def test_a_whole_match_played_from_the_accessible_tree(server_factory: Any, browser: Any) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch(page)
    page.goto(server.url + "/", wait_until="load")
    # Keyboard only: a locator's press() focuses its element and presses the key.
    page.get_by_role("button", name="Play as guest").press("Enter")
    page.get_by_role("button", name="1", exact=True).press("Enter")
    page.get_by_role("button", name="Beginner").press("Enter")
    roll = page.get_by_role("button", name="Roll", exact=True)
    take = page.get_by_role("button", name="Take", exact=True)
    accept = page.get_by_role("button", name="Accept", exact=True)
    move = page.get_by_role("textbox", name="your move")
    review = page.get_by_role("link", name="Review this match")
    statuses = page.get_by_role("status")
    heard: list[str] = []

    def said() -> str:
        return " | ".join(statuses.all_inner_texts())

    match_status = page.get_by_role("status", name="match status")

    def press_and_hear(control: Any, what: str) -> None:
        # The match's live region says something new once the server has answered.
        before = match_status.inner_text()
        control.press("Enter")
        deadline = time.monotonic() + 30
        while match_status.inner_text() == before:
            assert time.monotonic() < deadline, f"nothing said after {what}: {said()}"
            time.sleep(0.02)

    plays = 0
    deadline = time.monotonic() + 150
    while not review.is_visible():
        assert time.monotonic() < deadline, f"the match did not end: {plays} plays, {heard[-5:]}"
        if not heard or heard[-1] != said():
            heard.append(said())
        if take.is_visible():
            press_and_hear(take, "take")
        elif accept.is_visible():
            press_and_hear(accept, "accept")
        elif roll.is_visible():
            press_and_hear(roll, "roll")
        elif move.is_visible():
            if plays == 0:
                pick_up_put_down_and_undo(page)
                # A bad move is refused in words, in a live region; nothing changes.
                words = page.get_by_role("region", name="The board in words").aria_snapshot()
                move.fill("7/99")
                move.press("Enter")
                expect(statuses.filter(has_text="7/99")).to_have_count(1, timeout=15_000)
                expect(move).to_be_visible()
                region = page.get_by_role("region", name="The board in words")
                assert region.aria_snapshot() == words
            position, dice = position_in_words(page)
            choice = str(position.legal_plays(dice)[0])
            move.fill(choice)
            press_and_hear(move, f"{choice} with {dice} on {position!r}")
            plays += 1
        else:
            time.sleep(0.05)
    result = " ".join(statuses.all_inner_texts())
    assert re.search(r"(You|bot_beginner) won the match", result), result
    assert plays > 0
    # The live region said the bot's rolls and plays as they came.
    assert any(re.search(r"bot_beginner played \S+/\S+", text) for text in heard), heard
    assert any(re.search(r"bot_beginner to move \d-\d", text) for text in heard), heard
    # The finished match's page (its result, downloads and review link) passes axe too.
    assert axe_violations(page) == []
    assert problems == []
