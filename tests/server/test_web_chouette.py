"""The chouette page in a real browser: three people and a bot at a table; two team
members double their own cubes, the box takes one and drops the other, and every page
shows the cubes, whose decision it is and the line, and the table's chat (Debian's headless Chromium
against a real ``backgammon serve``), on a phone as on a desktop."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from .browser import needs_chromium, watch
from .test_web_layout import MEASURE

pytestmark = needs_chromium

PHONE = {"width": 375, "height": 800}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (the server's own tests cover PostgreSQL)."""
    return "sqlite"


def _person(browser: Any, url: str, name: str, viewport: dict[str, int]) -> tuple[Any, list[str]]:
    """A browser context logged in as a newly registered ``name``, and its page."""
    context = browser.new_context(viewport=viewport)
    answer = context.request.post(
        url + "/api/register", data={"name": name, "password": f"password-{name}"}
    )
    assert answer.ok, answer.text()
    page = context.new_page()
    return page, watch(page)


def _no_sideways_scroll(page: Any) -> None:
    measured = page.evaluate(MEASURE)
    assert measured["scrollWidth"] <= measured["innerWidth"], measured
    assert measured["outside"] == [] and measured["cut"] == [], measured


def _turn(page: Any, words: str) -> None:
    page.locator("#chouette-turn", has_text=words).wait_for(timeout=20_000)


def _until_the_team_is_on_roll(box: Any, captain: Any) -> None:
    """Throw and play for the box and the captain (the first listed play) until the
    team is on roll before its dice (a tied opening throw is thrown again)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        seq = box.locator("#chouette").get_attribute("data-seq")
        text = box.locator("#chouette-dice").text_content() or ""
        if text == "bob is on roll.":
            return
        mover = captain if text.startswith("bob") else box
        throw = mover.locator("#chouette-buttons button", has_text=re.compile("Roll|Opening"))
        if mover.locator("#chouette-play-row").is_visible():
            mover.locator("#chouette-play").click()
        elif throw.count():
            throw.first.click()
        else:
            time.sleep(0.1)
            continue
        box.wait_for_function(
            "(before) => document.querySelector('#chouette').dataset.seq !== before",
            arg=seq,
        )
    raise AssertionError("the team never came on roll")


def test_two_members_double_the_box_takes_one_and_drops_the_other(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "0")
    ann, ann_problems = _person(browser, server.url, "ann", DESKTOP)
    bob, bob_problems = _person(browser, server.url, "bob", PHONE)
    cyd, cyd_problems = _person(browser, server.url, "cyd", PHONE)
    # Ann opens a table from the list page; Bob and Cyd find it there and sit down
    # (Bob's list was open before: the table appears on it by itself).
    bob.goto(server.url + "/chouettes", wait_until="load")
    bob.locator("#chouette-tables li", has_text="No table is open.").wait_for()
    ann.goto(server.url + "/chouettes", wait_until="load")
    ann.locator("#chouette-new input[name=name]").fill("<i>Friday</i> chouette")
    ann.locator("#chouette-new button[type=submit]").click()
    ann.wait_for_selector("#chouette:not([hidden])")
    assert ann.locator("#chouette-name").text_content() == "<i>Friday</i> chouette"
    cyd.goto(server.url + "/chouettes", wait_until="load")
    for page in (bob, cyd):
        page.locator("#chouette-tables a", has_text="<i>Friday</i> chouette").click()
        page.locator("#chouette-sit").click()
    cyd.locator("#chouette-seats li", has_text="cyd").wait_for()
    # A bot fills the fourth seat: the table is full and its session starts.
    ann.locator("#chouette-bot").click()
    for page in (ann, bob, cyd):
        page.wait_for_selector("#chouette-session:not([hidden])")
        assert page.locator("#chouette-box").text_content() == "ann"
        assert page.locator("#chouette-captain").text_content() == "bob"
        assert page.locator("#chouette-queue").text_content() == "cyd → bot_beginner_1"
    _turn(cyd, "To decide: ann, bob")
    # The opening throw, then turns until the team is on roll before its dice.
    _until_the_team_is_on_roll(ann, bob)
    # Bob and Cyd each double their own cube; the box must answer both.
    bob.locator("#chouette-buttons button", has_text="Double my cube").click()
    cyd.locator("#chouette-buttons button", has_text="Double my cube").click()
    _turn(ann, "bob doubled bob's cube; cyd doubled cyd's cube. To decide: ann")
    _turn(cyd, "To decide: ann")
    assert cyd.locator("#chouette-buttons button").count() == 0  # nothing for Cyd
    ann.locator("#chouette-buttons button", has_text="Take bob's cube").click()
    _turn(ann, "cyd doubled cyd's cube. To decide: ann")
    ann.locator("#chouette-buttons button", has_text="Drop cyd's cube").click()
    for page in (ann, bob, cyd):
        page.locator("#chouette-cubes li", has_text="bob: 2, ann's").wait_for()
        page.locator(
            "#chouette-cubes li", has_text="cyd: 1, in the centre (out of this game)"
        ).wait_for()
        page.locator("#chouette-scores li", has_text="cyd: +1").wait_for()
        page.locator("#chouette-scores li", has_text="ann: -1").wait_for()
        page.locator("#chouette-cubes li", has_text="bot_beginner_1: 1, in the centre").wait_for()
    _turn(bob, "To decide: bob")  # Bob, the captain, throws for the team now
    # The table's chat: a line reaches every page there, as text.
    bob.locator("#chouette-chat-input").fill("<b>nice</b> take")
    bob.locator("#chouette-chat-form button[type=submit]").click()
    for page in (ann, bob, cyd):
        line = page.locator("#chouette-chat li", has_text="nice")
        line.wait_for()
        assert line.text_content() == "bob: <b>nice</b> take"
    cyd.reload(wait_until="load")  # a page that comes later reads the last lines
    cyd.locator("#chouette-chat li", has_text="nice").wait_for()
    assert cyd.locator("#chouette-chat li").count() == 1
    for page in (ann, bob, cyd):
        _no_sideways_scroll(page)
    # The lobby links to the chouette tables.
    ann.goto(server.url + "/", wait_until="load")
    assert ann.locator('a[href="/chouettes"]').count() == 1
    for problems in (ann_problems, bob_problems, cyd_problems):
        assert problems == [], problems
