"""The position tool in a real browser: Debian's headless Chromium against a real
``backgammon serve`` process, driven with the mouse: the cube decision of a pasted
XGID, a rollout with its progress bar, a position set up by clicking, the IDs copied.

Every test fails on anything in the browser's console, an uncaught error in the
page, a request that failed or an HTTP error answer (but the one a test provokes).
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from backgammon import Position

from .browser import needs_chromium, watch

pytestmark = needs_chromium

START = Position.from_position_id("4HPwATDgc/ABMA")
# The starting position, O (the top player) on roll holding a cube of 2, 7-point match,
# X 2, O 3.
MATCH_XGID = "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:2:3:0:7:10"


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (the server's own tests cover PostgreSQL)."""
    return "sqlite"


@pytest.fixture
def tool(server_factory: Any, browser: Any) -> Any:
    """A page on the position tool, with the clipboard allowed; yields (page, problems)."""
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    context = browser.new_context(
        viewport={"width": 1200, "height": 1000},
        permissions=["clipboard-read", "clipboard-write"],
    )
    page = context.new_page()
    problems = watch(page)
    page.goto(server.url + "/", wait_until="load")
    page.get_by_role("link", name="Position").click()  # no login needed
    yield page, problems
    context.close()


def _hint(page: Any, text: str, dice: str = "") -> None:
    page.locator("#position-text").fill(text)
    page.locator("#position-dice").fill(dice)
    page.locator("#position-hint").click()


def test_a_pasted_xgid_with_cube_and_score_gives_the_cube_decision(tool: Any) -> None:
    page, problems = tool
    _hint(page, MATCH_XGID)
    action = page.locator("#position-cube-action")
    action.wait_for(timeout=60_000)
    page.wait_for_function("document.querySelector('#position-cube-action').textContent !== ''")
    assert action.text_content().startswith("Proper cube action: ")
    rows = page.locator("#position-cube-table tbody tr")
    assert rows.count() == 3
    assert [rows.nth(i).locator("td").first.text_content() for i in range(3)] == [
        "No double",
        "Double, take",
        "Double, pass",
    ]
    assert page.locator("#position-cube-table tr.best").count() == 1
    context = page.locator("#position-context").text_content()
    assert "On roll: O" in context and "no dice" in context
    assert "7-point match, score 3-2" in context
    assert "cube 2, owned by the side on roll" in context
    assert "match equity" in page.locator("#position-cube-scale").text_content()
    # The cube is drawn on the side on roll's side (the bottom), showing 2.
    cube = page.locator("#position-board .cube")
    assert cube.get_attribute("data-owner") == "bottom"
    assert cube.get_attribute("data-value") == "2"
    assert page.locator("#position-plays").is_hidden()
    assert MATCH_XGID in page.locator("#position-ids").text_content()

    # The text's own dice are used (the dice field empty), and the cube decision goes.
    _hint(page, START.xgid.replace(":1:00:", ":1:31:"))
    first = page.locator("#position-plays tbody tr").first
    first.wait_for(timeout=60_000)
    assert first.locator("td.play").text_content() == "8/5 6/5"
    assert "dice 3-1 (from the text)" in page.locator("#position-context").text_content()
    assert page.locator("#position-cube").is_hidden()

    # A bad ID: a clear error, and the tool still shows the last position.
    before = page.locator("#position-board").inner_html()
    _hint(page, "XGID=-b----E-C---eE---c-e----B-:0:0")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('position:')")
    assert "invalid XGID" in page.locator("#status").text_content() or "XGID" in (
        page.locator("#status").text_content()
    )
    assert page.locator("#position-board").inner_html() == before
    assert problems and all("400" in problem for problem in problems), problems


def test_a_rollout_shows_its_progress_and_can_be_cancelled(tool: Any) -> None:
    page, problems = tool
    page.locator("#position-text").fill(START.position_id)
    # Too many trials: said at once, nothing sent.
    page.locator("#position-trials").fill("5000")
    page.locator("#position-rollout").click()
    assert page.locator("#status").text_content() == "trials: a whole number from 1 to 1296"
    assert page.locator("#position-rollout-progress-row").is_hidden()

    page.locator("#position-trials").fill("96")
    page.locator("#position-rollout").click()
    page.locator("#position-rollout-progress-row").wait_for(timeout=30_000)
    assert page.locator("#position-rollout-cancel").is_visible()
    seen = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        value = page.evaluate("document.querySelector('#position-rollout-progress').value")
        seen.append(value)
        if page.locator("#position-rollout-text").text_content().startswith("done"):
            break
        time.sleep(0.1)
    assert page.locator("#position-rollout-text").text_content() == "done: 96 trials"
    assert any(0 < value < 1 for value in seen), seen  # it moved while it ran
    assert page.evaluate("document.querySelector('#position-rollout-progress').value") == 1
    (row,) = page.locator("#position-rollout-lines tbody tr").all()
    cells = [cell.text_content() for cell in row.locator("td").all()]
    assert cells[0] == "the position" and cells[1] == "96"
    assert "±" in cells[2] and cells[3].endswith("%")
    assert row.get_attribute("title").startswith("win ± ")
    assert page.locator("#position-rollout-cancel").is_hidden()

    # With dice: the three best plays; cancelled part way.
    page.locator("#position-dice").fill("3-1")
    page.locator("#position-trials").fill("432")  # each of three plays: 1296 in all
    page.locator("#position-rollout").click()
    page.wait_for_function(
        "document.querySelectorAll('#position-rollout-lines tbody tr').length === 3"
        " && document.querySelector('#position-rollout-progress').value > 0",
        timeout=60_000,
    )
    page.locator("#position-rollout-cancel").click()
    page.wait_for_function(
        "document.querySelector('#position-rollout-text').textContent.startsWith('cancelled')",
        timeout=60_000,
    )
    plays = page.locator("#position-rollout-lines tbody tr td.play").all_text_contents()
    assert plays[0] == "8/5 6/5" and len(plays) == 3
    assert problems == []


def test_a_position_set_up_by_clicking_and_its_ids_copied(tool: Any) -> None:
    page, problems = tool
    page.locator("#position-edit").click()
    assert page.locator("#position-editor").is_visible()
    # The starting position to begin with: a 16th white checker is refused.
    page.locator('#position-board [data-place="6"]').click()
    message = page.locator("#position-edit-message")
    assert "already has 15 checkers" in message.text_content()
    assert START.position_id in page.locator("#position-ids").text_content()

    page.locator("#position-edit-empty").click()
    assert page.locator("#position-board .checker").count() == 0
    for _ in range(3):
        page.locator('#position-board [data-place="6"]').click()
    page.locator('#position-board [data-place="5"]').click()
    page.locator('#position-board [data-place="5"]').click(modifiers=["Shift"])  # removed
    page.locator('#position-board [data-place="4"]').click()
    page.locator('#position-board [data-place="4"]').click(button="right")  # removed
    page.locator("#position-edit-mode").select_option("opponent")
    page.locator('#position-board [data-place="19"]').click()  # Black's 6 point
    page.locator('#position-board [data-place="19"]').click()
    page.locator('#position-board [data-place="25"]').click()  # Black's bar
    # A point held by the other side is refused.
    page.locator('#position-board [data-place="6"]').click()
    assert "point 6 holds White (bottom)'s checkers" in message.text_content()
    assert page.locator("#position-board .checker").count() == 6
    page.locator("#position-edit-dice").fill("6-5")

    player = [0] * 26
    opponent = [0] * 26
    player[6] = 3
    opponent[6] = 2
    opponent[25] = 1
    player[0], opponent[0] = 12, 12
    expected = Position(player, opponent)
    ids = page.locator("#position-ids").text_content()
    assert expected.position_id in ids
    assert expected.xgid.replace(":1:00:", ":1:65:") in ids

    # Copy the Position ID and read it back from the clipboard.
    page.locator("#position-copy-id").click()
    page.wait_for_function("document.querySelector('#position-copied').textContent !== ''")
    assert page.locator("#position-copied").text_content() == "Copied the Position ID."
    assert page.evaluate("navigator.clipboard.readText()") == expected.position_id

    # Black on roll: the Position ID is seen from Black's side.
    page.locator("#position-edit-turn").select_option("opponent")
    assert Position(opponent, player).position_id in page.locator("#position-ids").text_content()
    page.locator("#position-edit-turn").select_option("player")

    # Use it for the hint: the 6-5 comes with the XGID.
    page.locator("#position-edit-use").click()
    first = page.locator("#position-plays tbody tr").first
    first.wait_for(timeout=60_000)
    assert page.locator("#position-editor").is_hidden()
    assert page.locator("#position-text").input_value().startswith("XGID=")
    assert "dice 6-5 (from the text)" in page.locator("#position-context").text_content()
    assert expected.position_id in page.locator("#position-ids").text_content()
    page.locator("#position-copy-xgid").click()
    page.wait_for_function(
        "document.querySelector('#position-copied').textContent === 'Copied the XGID.'"
    )
    copied = page.evaluate("navigator.clipboard.readText()")
    assert Position.from_xgid(copied).position_id == expected.position_id
    assert problems == []
