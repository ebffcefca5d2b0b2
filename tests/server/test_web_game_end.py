"""The end of each game in a real browser (issue 35, items 1 and 4): Debian's headless
Chromium against a real ``backgammon serve`` process (SQLite).

Two registered players in their own browsers play a timed 5-point match: a dropped
double, an accepted resignation of a gammon, then one of them runs out of time; each
end is said in one true sentence and the game's summary waits to be dismissed before
the next game is shown. A guest then plays a 1-point match against a bot, where
nobody is ever asked to double and the bot never does.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .browser import (
    needs_chromium,
    play_the_turn,
    play_to_the_end,
    start_bot_match,
    visible,
    watch,
)

pytestmark = needs_chromium


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (the server's own tests cover PostgreSQL)."""
    return "sqlite"


def _register(url: str, name: str) -> httpx.Client:
    """A new account, logged in: an HTTP client that acts as it."""
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


def _timed_match(alice: httpx.Client, bob: httpx.Client) -> str:
    """alice invites bob to a 5-point match with a short clock (10 s a decision, then
    10 s of reserve); bob accepts. Returns the match id."""
    commitment = alice.post("/api/matches/commitment").json()["commitment"]
    settings = {"length": 5, "clock": {"delay": 10, "reserve_per_point": 2}}
    body = {"settings": settings, "opponent": "bob", "commitment": commitment, "nonce": "a1"}
    created = alice.post("/api/matches", json=body)
    created.raise_for_status()
    match_id = str(created.json()["id"])
    bob.post(f"/api/matches/{match_id}/join", json={"nonce": "b2"}).raise_for_status()
    return match_id


def _mover(pages: list[Any]) -> int:
    """The index of the page whose player has checkers to move."""
    for _ in range(100):
        movers = [page.locator("#board .place.movable").count() > 0 for page in pages]
        if any(movers):
            assert movers.count(True) == 1, movers
            return movers.index(True)
        time.sleep(0.1)
    raise AssertionError("nobody has checkers to move")


def _summary(page: Any, number: int) -> tuple[str, str]:
    """Wait for game ``number``'s summary; returns its title and text."""
    page.wait_for_function(
        "(n) => { const s = document.querySelector('#game-summary');"
        " return !s.hidden && s.textContent.includes(`Game ${n}:`); }",
        arg=number,
        timeout=15_000,
    )
    return (
        page.locator("#game-summary-title").text_content(),
        page.locator("#game-summary-text").text_content(),
    )


def _dismiss(page: Any) -> str:
    """Dismiss the summary; returns the status line then shown."""
    page.get_by_role("button", name="Continue").click()
    assert page.locator("#game-summary").is_hidden()
    return str(page.locator("#match-status").text_content())


def test_a_drop_a_resignation_and_a_timeout_are_each_said_and_summarised(
    server_factory: Any, browser: Any, tmp_path: Path
) -> None:
    server = server_factory("--no-warm-up", "--no-bots")
    names = ["alice", "bob"]
    clients = [_register(server.url, name) for name in names]
    pages = [browser.new_context(viewport={"width": 1200, "height": 900}).new_page() for _ in "ab"]
    problems = [watch(page) for page in pages]
    for page, name in zip(pages, names, strict=True):
        _log_in(page, server.url, name)
    match_id = _timed_match(*clients)  # the clock starts: open the match at once
    for client in clients:
        client.close()
    for page in pages:
        page.evaluate(f"location.hash = '#/match/{match_id}'")
    for page in pages:
        page.wait_for_selector("#board .place", state="attached")

    # Game 1: the opening roll's winner plays; the other doubles; it is dropped.
    first = _mover(pages)
    mover, other = pages[first], pages[1 - first]
    play_the_turn(mover)
    other.locator("#do-double").click()
    mover.locator("#do-drop").click()
    winner = names[1 - first]
    title, text = _summary(other, 1)
    assert title == "Game 1: you won", title
    assert text.startswith(f"{names[first]} dropped the double: you won 1 point."), text
    score = [0, 0]
    score[1 - first] = 1
    assert f"Score: alice {score[0]}, bob {score[1]}, to 5." in text, text
    title, text = _summary(mover, 1)
    assert title == f"Game 1: {winner} won", title
    assert text.startswith(f"You dropped the double: {winner} won 1 point."), text
    # The summary stays over the ended game: nothing to roll, move or double.
    for page in pages:
        assert page.locator("#controls button:visible").count() == 0
        assert page.locator("#board .place.movable").count() == 0
    other.screenshot(path=str(tmp_path / "game-summary.png"))
    for page in pages:
        line = _dismiss(page)
        assert "won the opening roll" in line and "doubl" not in line, line

    # Game 2: whoever moves first resigns a gammon; the other accepts.
    first = _mover(pages)
    mover, other = pages[first], pages[1 - first]
    mover.locator("#do-resign").click()
    mover.locator("#resign-menu [data-level='2']").click()
    other.locator("#do-accept").click()
    winner = names[1 - first]
    score[1 - first] += 2
    tally = f"Score: alice {score[0]}, bob {score[1]}, to 5."
    title, text = _summary(other, 2)
    assert title == "Game 2: you won", title
    loser = names[first]
    assert text == f"You accepted {loser}'s resignation of a gammon: you won 2 points. {tally}"
    title, text = _summary(mover, 2)
    assert text == f"{winner} accepted your resignation of a gammon: {winner} won 2 points. {tally}"
    assert "reject" not in str(mover.locator("#match-status").text_content())
    for page in pages:
        _dismiss(page)

    # Game 3: the opening roll's winner does nothing and runs out of time.
    late = _mover(pages)
    for page in pages:
        page.wait_for_selector("#result:not([hidden])", timeout=40_000)
    final = httpx.get(f"{server.url}/api/matches/{match_id}").json()["result"]
    assert final["reason"] == "timeout" and final["winner"] == 1 - late, final
    loser_score = score[late]
    said = pages[1 - late].locator("#result-text").text_content()
    assert said == f"You won the match 5–{loser_score}: {names[late]} ran out of time.", said
    said = pages[late].locator("#result-text").text_content()
    assert said == f"{names[1 - late]} won the match 5–{loser_score}: you ran out of time.", said
    for page in pages:
        assert page.locator("#game-summary").is_hidden()
        page.close()
    assert problems == [[], []]


DOUBLE_WATCH = """() => {
  window.doubleOffered = false;
  window.statusLines = [];
  const check = () => {
    if (!document.querySelector('#do-double').hidden) window.doubleOffered = true;
    const line = document.querySelector('#match-status').textContent;
    if (window.statusLines.at(-1) !== line) window.statusLines.push(line);
  };
  new MutationObserver(check).observe(document.querySelector('#match-view'),
    { subtree: true, childList: true, attributes: true, characterData: true });
  check();
}"""


def test_a_one_point_match_never_asks_for_a_double_and_the_bot_never_doubles(
    server_factory: Any, browser: Any
) -> None:
    """Before, every turn asked "roll or double" and the bot doubled at double match
    point, where the cube is dead; the result read "won 0-6"."""
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch(page)
    match_id = start_bot_match(page, server.url)
    page.evaluate(DOUBLE_WATCH)
    clicks = play_to_the_end(page, timeout=150.0)
    assert clicks["roll"] == 0, f"the server rolls for both sides: {clicks}"
    assert page.evaluate("window.doubleOffered") is False
    lines = page.evaluate("window.statusLines")
    assert not [line for line in lines if "double" in line.lower()], lines
    result = page.locator("#result-text").text_content()
    assert result.endswith("won the match 1–0."), result
    record = httpx.get(f"{server.url}/api/matches/{match_id}/record.mat").text
    assert "Doubles" not in record and "Takes" not in record, record
    assert visible(page, "#do-rematch")
    page.close()
    assert problems == []
