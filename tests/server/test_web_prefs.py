"""The player's preferences and the sharing of what is on the screen, in a real
browser (Debian's headless Chromium against a real ``backgammon serve``): board
themes and dark mode kept across reloads, auto-roll, time-control presets, the
player page's history filters, a shared position link, and malformed share links.

Every test fails on anything in the browser's console, an uncaught error in the
page, a request that failed or an HTTP error answer (but the ones a test provokes).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .browser import needs_chromium, visible, watch
from .conftest import ServerProcess

pytestmark = needs_chromium

PASSWORD = "a long enough password"
XGID = "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:2:3:0:7:10"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server (SQLite) for this module's tests: each acts as its own users."""
    started = ServerProcess(
        tmp_path_factory.mktemp("prefs"), "", "--no-warm-up", "--bot-processes", "1"
    )
    started.start()
    yield started
    started.stop()


@pytest.fixture
def site(server: ServerProcess, browser: Any) -> Iterator[tuple[str, Any]]:
    """The server's address, and a maker of browser pages on it (each with its
    problems list)."""
    contexts: list[Any] = []

    def new_page(**options: Any) -> tuple[Any, list[str]]:
        context = browser.new_context(viewport={"width": 1200, "height": 900}, **options)
        contexts.append(context)
        page = context.new_page()
        return page, watch(page)

    yield server.url, new_page
    for context in contexts:
        context.close()


def _root(page: Any, name: str) -> str:
    return str(page.evaluate(f"document.documentElement.dataset.{name}"))


def _css(page: Any, prop: str) -> str:
    script = f"getComputedStyle(document.documentElement).getPropertyValue('{prop}').trim()"
    return str(page.evaluate(script))


def _choose(page: Any, select: str, option: str) -> None:
    """Open the settings (if closed) and choose ``option`` (its words) in ``select``."""
    if not page.locator("#prefs").evaluate("details => details.open"):
        page.locator("#prefs summary").click()
    page.locator(select).select_option(label=option)


def test_theme_and_dark_mode_follow_the_system_then_the_choice_across_reloads(site: Any) -> None:
    url, new_page = site
    page, problems = new_page(color_scheme="dark")
    page.goto(url + "/", wait_until="load")
    assert _root(page, "mode") == "dark", "the system's dark mode is followed by default"
    assert _root(page, "theme") == "felt"
    dark_paper = _css(page, "--paper")
    _choose(page, "#prefs-theme", "Classic wood")
    _choose(page, "#prefs-mode", "Light")
    assert (_root(page, "theme"), _root(page, "mode")) == ("wood", "light")
    assert _css(page, "--board-felt") == "#deb887" and _css(page, "--paper") != dark_paper
    page.reload(wait_until="load")
    assert (_root(page, "theme"), _root(page, "mode")) == ("wood", "light")
    assert page.locator("#prefs-theme").input_value() == "wood"
    assert page.locator("#prefs-mode").input_value() == "light"
    # Every page: the position tool's board is drawn in the theme's colours.
    page.goto(url + "/#/position?p=4HPwATDgc%2FABMA&dice=3-1", wait_until="load")
    page.locator("#position-plays tbody tr").first.wait_for(timeout=60_000)
    felt = page.locator("#position-board .felt").first
    assert felt.evaluate("node => getComputedStyle(node).fill") == "rgb(222, 184, 135)"
    _choose(page, "#prefs-theme", "High contrast")
    assert felt.evaluate("node => getComputedStyle(node).fill") == "rgb(255, 255, 255)"
    _choose(page, "#prefs-mode", "Dark")
    page.goto(url + "/#/review", wait_until="load")
    page.reload(wait_until="load")
    assert (_root(page, "theme"), _root(page, "mode")) == ("contrast", "dark")
    assert _css(page, "--paper") == dark_paper
    assert problems == []


def _play_without_rolling(page: Any, our_plays: int, timeout: float = 90.0) -> dict[str, int]:
    """Play with the mouse until we have made ``our_plays`` plays, never pressing Roll;
    fails if the Roll button waits for a click."""
    ready = """() => {
      if (!document.querySelector('#result').hidden) return true;
      if (!document.querySelector('#game-summary').hidden) return true;
      const usable = (id) => {
        const button = document.querySelector(id);
        return !button.hidden && !button.disabled;
      };
      if (['#do-take', '#do-done', '#do-forced', '#do-accept'].some(usable)) return true;
      return document.querySelector('#board .place.movable, #board .place.target') !== null;
    }"""
    clicks = {"plays": 0, "take": 0, "continue": 0}
    deadline = time.monotonic() + timeout
    while clicks["plays"] < our_plays and time.monotonic() < deadline:
        page.wait_for_function(ready, timeout=20_000)
        if visible(page, "#result"):
            break
        if visible(page, "#game-summary"):
            page.locator("#summary-continue").click()
            clicks["continue"] += 1
        elif visible(page, "#do-take"):
            page.locator("#do-take").click()
            clicks["take"] += 1
        elif visible(page, "#do-accept"):
            page.locator("#do-accept").click()
        elif visible(page, "#do-forced") or visible(page, "#do-done"):
            button = "#do-forced" if visible(page, "#do-forced") else "#do-done"
            seq = page.locator("#board").get_attribute("data-seq")
            page.locator(button).click()
            clicks["plays"] += 1
            page.wait_for_function(
                f"document.querySelector('#board').dataset.seq !== {seq!r}", timeout=20_000
            )
        elif page.locator("#board .place.target").count():
            page.locator("#board .place.target").first.click()
        else:
            page.locator("#board .place.movable").first.click()
    return clicks


def test_auto_roll_rolls_with_no_click(site: Any) -> None:
    url, new_page = site
    page, problems = new_page()
    page.goto(url + "/", wait_until="load")
    page.locator("#prefs summary").click()
    page.locator("#prefs-auto-roll").check()
    page.keyboard.press("Escape")
    assert not page.locator("#prefs-auto-roll").is_visible()
    page.get_by_role("button", name="Play as guest").click()
    page.get_by_role("button", name="3", exact=True).click()
    page.get_by_role("button", name="Beginner").click()
    page.wait_for_selector("#board .place", state="attached")
    page.evaluate(
        "window.rollClicks = 0;"
        "document.querySelector('#do-roll').addEventListener('click', () => window.rollClicks++)"
    )
    # In a 3-point match at 0-0 the cube is alive: without auto-roll the second of our
    # turns waits for Roll (or Double); with it, the dice come with no click.
    clicks = _play_without_rolling(page, our_plays=3)
    assert clicks["plays"] == 3, clicks
    assert page.evaluate("window.rollClicks") == 0
    assert problems == []


def test_a_preset_creates_a_match_with_the_right_clock(site: Any) -> None:
    url, new_page = site
    page, problems = new_page()
    page.goto(url + "/", wait_until="load")
    page.get_by_role("button", name="Play as guest").click()
    page.get_by_role("button", name="3", exact=True).click()
    page.locator("#clock").select_option("blitz")
    page.get_by_role("button", name="Create an open match").click()
    page.wait_for_url("**/#/match/*")
    match_id = page.evaluate("location.hash").removeprefix("#/match/")
    state = page.request.get(f"{url}/api/matches/{match_id}").json()
    settings = (state.get("open") or state)["settings"]
    assert settings["clock"] == {"delay": 5, "reserve_per_point": 30, "money_reserve": 300}
    # Another player sees it in the lobby by its preset's name.
    other, other_problems = new_page()
    other.goto(url + "/", wait_until="load")
    other.get_by_role("button", name="Play as guest").click()
    listed = other.locator(f'#open-matches li[data-match="{match_id}"]')
    listed.wait_for(timeout=10_000)
    assert "3-point, blitz clock" in listed.text_content()
    # A custom clock: its figures reach the server, and the lobby names them.
    page.locator("#to-lobby").click()
    page.locator("#clock").select_option("custom")
    page.locator("#clock-delay").fill("8")
    page.locator("#clock-reserve").fill("45")
    page.get_by_role("button", name="Invite by link").click()
    page.wait_for_function(
        f"location.hash.startsWith('#/match/') && !location.hash.endsWith('{match_id}')"
    )
    custom_id = page.evaluate("location.hash").removeprefix("#/match/")
    custom = page.request.get(f"{url}/api/matches/{custom_id}").json()
    assert (custom.get("open") or custom)["settings"]["clock"] == {
        "delay": 8,
        "reserve_per_point": 45,
        "money_reserve": 450,
    }
    page.locator("#to-lobby").click()
    sent = page.locator(f'#sent li[data-match="{custom_id}"]')
    sent.wait_for(timeout=10_000)
    assert "custom clock (8 s + 45 s a point)" in sent.text_content()
    # A custom clock out of the server's range is refused before anything is sent.
    page.locator("#clock-delay").fill("601")
    page.get_by_role("button", name="Invite by link").click()
    status = page.locator("#status")
    assert "delay must be a number of seconds from 0 to 600" in status.text_content()
    assert problems == [] and other_problems == []


def _account(url: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=10)
    client.post("/api/register", json={"name": name, "password": PASSWORD}).raise_for_status()
    return client


def test_history_filters_narrow_the_list(site: Any) -> None:
    url, new_page = site
    alice, bob, carol = (_account(url, name) for name in ("alice", "bob", "carol"))
    made: dict[str, tuple[str, int]] = {}  # id: opponent, length
    try:
        for opponent, length in [(bob, 1), (carol, 3), (bob, 5), (carol, 1)]:
            settings = {"length": length, "clock": None}
            created = alice.post("/api/matches", json={"settings": settings, "rated": False})
            created.raise_for_status()
            match_id = created.json()["id"]
            opponent.post(f"/api/matches/{match_id}/join", json={}).raise_for_status()
            made[match_id] = (str(opponent.get("/api/me").json()["name"]), length)
    finally:
        for client in (alice, bob, carol):
            client.close()
    page, problems = new_page()
    page.goto(url + "/#/player/alice", wait_until="load")
    rows = page.locator("#player-matches tbody tr")

    def shown() -> set[str]:
        page.wait_for_function("document.querySelector('#history-count').textContent !== ''")
        return {str(row.get_attribute("data-match")) for row in rows.all()}

    def filtered() -> set[str]:
        page.locator("#history-count").evaluate("node => (node.textContent = '')")
        page.get_by_role("button", name="Filter").click()
        return shown()

    assert shown() == set(made)
    assert page.locator("#history-count").text_content() == "1-4 of 4"
    page.locator("#history-opponent").fill("bob")
    assert filtered() == {m for m, (who, _) in made.items() if who == "bob"}
    page.locator("#history-length").fill("1")
    assert filtered() == {m for m, (who, n) in made.items() if who == "bob" and n == 1}
    page.locator("#history-opponent").fill("")
    assert filtered() == {m for m, (_, n) in made.items() if n == 1}
    page.locator("#history-result").select_option("won")
    assert filtered() == set()
    assert page.locator("#history-count").text_content() == "No matches."
    page.locator("#history-result").select_option("unfinished")
    page.locator("#history-length").fill("")
    page.locator("#history-until").fill("2020-01-01")
    assert filtered() == set()
    page.locator("#history-count").evaluate("node => (node.textContent = '')")
    page.get_by_role("button", name="Clear").click()
    assert shown() == set(made)
    assert problems == []


def test_a_shared_position_link_reopens_the_position(site: Any) -> None:
    url, new_page = site
    page, problems = new_page(permissions=["clipboard-read", "clipboard-write"])
    page.goto(url + "/#/position", wait_until="load")
    page.locator("#position-text").fill(XGID)
    page.locator("#position-dice").fill("5-2")
    page.locator("#position-ply").select_option("1")
    page.locator("#position-hint").click()
    page.locator("#position-plays tbody tr").first.wait_for(timeout=60_000)
    ids = page.locator("#position-ids").text_content()
    plays = page.locator("#position-plays tbody").text_content()
    page.get_by_role("button", name="Copy link").click()
    page.wait_for_function("document.querySelector('#position-copied').textContent !== ''")
    link = str(page.evaluate("navigator.clipboard.readText()"))
    assert link.startswith(url + "/#/position?p=XGID"), link
    # Someone else opens it: the same position, dice and lookahead, and the same hint.
    other, other_problems = new_page()
    other.goto(link, wait_until="load")
    other.locator("#position-plays tbody tr").first.wait_for(timeout=60_000)
    assert other.locator("#position-text").input_value() == XGID
    assert other.locator("#position-dice").input_value() == "5-2"
    assert other.locator("#position-ply").input_value() == "1"
    assert other.locator("#position-ids").text_content() == ids
    assert other.locator("#position-plays tbody").text_content() == plays
    assert problems == [] and other_problems == []


def test_a_finished_matchs_review_link_opens_for_anyone(site: Any) -> None:
    url, new_page = site
    page, problems = new_page(permissions=["clipboard-read", "clipboard-write"])
    page.goto(url + "/", wait_until="load")
    page.get_by_role("button", name="Play as guest").click()
    page.get_by_role("button", name="1", exact=True).click()
    page.get_by_role("button", name="Beginner").click()
    page.wait_for_selector("#board .place", state="attached")
    match_id = page.evaluate("location.hash").removeprefix("#/match/")
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#do-leave").click()
    page.locator("#review-match").wait_for(state="visible", timeout=30_000)
    page.locator("#review-match").click()
    page.get_by_role("button", name="Copy link").click()
    page.wait_for_function("document.querySelector('#review-copied').textContent !== ''")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == f"{url}/#/review/{match_id}"
    # Someone with no account opens it: the review, not the login page.
    other, other_problems = new_page()
    other.goto(link, wait_until="load")
    other.locator("#review-result").wait_for(state="visible", timeout=120_000)
    assert match_id in other.locator("#review-source").text_content()
    assert other.locator("#login-view").is_hidden()
    # A link to no match says so, and nothing breaks.
    other.goto(url + "/#/review/abcdef123456", wait_until="load")
    other.wait_for_function("document.querySelector('#status').classList.contains('error')")
    assert "no match" in other.locator("#status").text_content()
    assert problems == []
    assert [p for p in other_problems if "404" not in p] == []


MALFORMED_LINKS = [
    ("#/position?p=" + "A" * 3000, "The shared link is too long"),
    ("#/position?p=" + "A" * 500, "position is too long (500 characters; at most 400)"),
    ("#/position?dice=3-1", "has no position"),
    ("#/position?p=4HPwATDgc%2FABMA&ply=7", "lookahead (ply=) must be 0, 1 or 2"),
    ("#/position?p=not-an-id%3Cscript%3E", "The shared position could not be opened"),
]


def test_a_malformed_share_link_says_what_is_wrong(site: Any) -> None:
    url, new_page = site
    page, problems = new_page()
    for link, said in MALFORMED_LINKS:
        page.goto("about:blank")
        page.goto(url + "/" + link, wait_until="load")
        page.wait_for_function("document.querySelector('#status').classList.contains('error')")
        assert said in page.locator("#status").text_content(), link
        assert page.locator("#position-view").is_visible()
        assert page.locator("#position-plays").is_hidden()
    provoked = ("400: ", "error: Failed to load resource: the server responded with a status of 4")
    assert [p for p in problems if not p.startswith(provoked)] == [], problems
