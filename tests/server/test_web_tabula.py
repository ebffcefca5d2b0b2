"""Tabula in a real browser (Debian's headless Chromium against a real ``backgammon
serve``): the board shows the three dice of a throw, as the server threw them, and
a whole turn of three dice is played with the mouse and accepted.

Fails on anything in the browser's console, an uncaught error in the page, a
request that failed or an HTTP error answer.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from .browser import READY, needs_chromium, play_the_turn, start_variant_bot_match, watch

pytestmark = needs_chromium

DRAWN_DICE = """() => ({
  seq: Number(document.querySelector('#board').dataset.seq),
  dice: [...document.querySelectorAll('#board .die')].map((d) => Number(d.dataset.value)),
  status: document.querySelector('#match-status').textContent,
})"""


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (the server's own tests cover PostgreSQL)."""
    return "sqlite"


def test_the_board_shows_three_dice_and_a_tabula_turn_is_played(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    problems = watch(page)
    match_id = start_variant_bot_match(page, server.url, "tabula")
    me = page.locator("#who").text_content().split()[0]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        page.wait_for_function(READY, timeout=30_000)
        state = httpx.get(f"{server.url}/api/matches/{match_id}").json()
        shown = page.evaluate(DRAWN_DICE)
        if (
            state["waiting_for"] == state["players"].index(me)
            and state["game"]["dice"] is not None
            and shown["seq"] == state["seq"]
        ):
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the player never had a throw to play")
    dice = state["game"]["dice"]
    assert len(dice) == 3
    assert shown["dice"] == dice, (shown, dice)
    assert f"Your move: {dice[0]}-{dice[1]}-{dice[2]}." in shown["status"], shown
    assert page.locator("#board .cube").count() == 0, "tabula has no cube"
    seq = state["seq"]
    play_the_turn(page)
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.seq) > {seq}")
    after = httpx.get(f"{server.url}/api/matches/{match_id}").json()
    assert after["seq"] > seq
    page.close()
    assert problems == []
