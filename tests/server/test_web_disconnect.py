"""The disconnect notice in a real browser (issue 35, item 5): Debian's headless
Chromium against a real ``backgammon serve`` process (SQLite) whose wait before a
claim is 2 seconds (``--claim-after 2``; 300 by default).

alice and bob play a 3-point match without a clock, carol watches. The player the
match waits on closes their tab: the other player and the spectator are told at
once and see them marked away; they come back and both are told; they close it again
and, after the wait, the other player is offered "Claim the win", which ends the
match as abandoned. And on a phone no name is cut (item 10).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .browser import needs_chromium, watch

pytestmark = needs_chromium


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (test_disconnect.py covers the server)."""
    return "sqlite"


def _register(url: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=url)
    answer = client.post("/api/register", json={"name": name, "password": f"password-{name}"})
    answer.raise_for_status()
    client.headers["authorization"] = f"Bearer {answer.json()['token']}"
    return client


def _log_in(page: Any, url: str, name: str) -> None:
    page.goto(url + "/", wait_until="load")
    page.locator("#login-form input[name=name]").fill(name)
    page.locator("#login-form input[name=password]").fill(f"password-{name}")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_selector("#lobby-view:not([hidden])")


def _open(page: Any, match_id: str) -> None:
    page.evaluate(f"location.hash = '#/match/{match_id}'")
    page.wait_for_selector("#board .place", state="attached")


def _mover(pages: list[Any]) -> int:
    """The index of the page whose player has checkers to move (the opening's winner)."""
    for _ in range(100):
        movers = [page.locator("#board .place.movable").count() > 0 for page in pages]
        if any(movers):
            return movers.index(True)
        time.sleep(0.1)
    raise AssertionError("nobody has checkers to move")


def _status_says(page: Any, words: str) -> None:
    page.wait_for_function(
        "(words) => document.querySelector('#status').textContent.includes(words)",
        arg=words,
        timeout=10_000,
    )


def _marks(page: Any) -> list[str]:
    return [str(text) for text in page.locator("#match-view .presence").all_text_contents()]


def test_the_other_player_and_a_spectator_are_told_and_the_win_is_claimed(
    server_factory: Any, browser: Any, tmp_path: Path
) -> None:
    server = server_factory("--no-warm-up", "--no-bots", "--claim-after", "2")
    names = ["alice", "bob", "carol"]
    clients = [_register(server.url, name) for name in names]
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in names]
    pages = [context.new_page() for context in contexts]
    problems = [watch(page) for page in pages]
    for page, name in zip(pages, names, strict=True):
        _log_in(page, server.url, name)
    commitment = clients[0].post("/api/matches/commitment").json()["commitment"]
    body = {
        "settings": {"length": 3, "clock": None},
        "opponent": "bob",
        "commitment": commitment,
        "nonce": "a1",
    }
    match_id = str(clients[0].post("/api/matches", json=body).json()["id"])
    clients[1].post(f"/api/matches/{match_id}/join", json={"nonce": "b2"}).raise_for_status()
    for client in clients:
        client.close()
    for page in pages:
        _open(page, match_id)
    for page in pages:
        page.wait_for_function(
            "() => document.querySelectorAll('#match-view .presence:not(.away)').length === 2"
        )

    first = _mover(pages[:2])
    leaver, stayer, carol = pages[first], pages[1 - first], pages[2]
    gone = names[first]
    leaver.close()
    for page in (stayer, carol):
        _status_says(page, f"{gone} left.")
        page.wait_for_selector("#match-view .presence.away")
        assert page.locator("#presence-note").text_content().startswith(f"{gone} has been away 0:0")
    assert "away" in _marks(stayer) and "connected" in _marks(stayer)

    back = contexts[first].new_page()
    problems.append(watch(back))
    back.goto(f"{server.url}/#/match/{match_id}", wait_until="load")
    back.wait_for_selector("#board .place", state="attached")
    for page in (stayer, carol):
        _status_says(page, f"{gone} is back.")
        page.wait_for_function(
            "() => document.querySelectorAll('#match-view .presence:not(.away)').length === 2"
        )
        assert page.locator("#presence-note").is_hidden()
    assert stayer.locator("#do-claim").is_hidden()

    back.close()
    _status_says(stayer, f"{gone} left.")
    note = str(stayer.locator("#presence-note").text_content())
    assert "you may claim the win" in note, note
    claim = stayer.get_by_role("button", name="Claim the win")
    claim.wait_for(state="visible", timeout=10_000)
    assert carol.locator("#do-claim").is_hidden(), "a spectator claims nothing"
    assert "claim" not in str(carol.locator("#presence-note").text_content())
    stayer.screenshot(path=str(tmp_path / "disconnect.png"))
    claim.click()
    for page in (stayer, carol):
        page.wait_for_selector("#result:not([hidden])")
    winner = names[1 - first]
    assert stayer.locator("#result-text").text_content() == (
        f"You won the match 3–0: {gone} stayed away too long, and the win was claimed."
    )
    assert carol.locator("#result-text").text_content() == (
        f"{winner} won the match 3–0: {gone} stayed away too long, and the win was claimed."
    )
    assert stayer.locator("#do-claim").is_hidden()
    for found in problems:
        assert not [p for p in found if not p.startswith(("log:", "debug:", "info:"))], found


CUT = """() => [...document.querySelectorAll('#who, #match-view .player b')]
  .filter((node) => node.getClientRects().length)
  .filter((node) => node.scrollWidth > node.clientWidth + 1
    || node.getBoundingClientRect().right > window.innerWidth)
  .map((node) => node.textContent)"""


def test_a_long_name_is_never_cut_on_a_phone(
    server_factory: Any, browser: Any, tmp_path: Path
) -> None:
    """Issue 35, item 10: on a 375-pixel phone the header showed "b…" for a name."""
    server = server_factory("--no-warm-up", "--no-bots")
    names = ["bartholomew_smith", "maximiliana_jones"]
    clients = [_register(server.url, name) for name in names]
    page = browser.new_context(viewport={"width": 375, "height": 812}).new_page()
    problems = watch(page)
    _log_in(page, server.url, names[0])
    assert page.locator("#who").text_content() == names[0]
    assert page.evaluate(CUT) == [], "a name is cut in the lobby"
    body = {"settings": {"length": 1, "clock": None}, "opponent": names[1]}
    match_id = str(clients[0].post("/api/matches", json=body).json()["id"])
    clients[1].post(f"/api/matches/{match_id}/join", json={"nonce": "b2"}).raise_for_status()
    for client in clients:
        client.close()
    _open(page, match_id)
    assert page.evaluate(CUT) == [], "a name is cut in the match"
    page.screenshot(path=str(tmp_path / "phone-names.png"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways ({width} px)"
    assert not [p for p in problems if not p.startswith(("log:", "debug:", "info:"))], problems
