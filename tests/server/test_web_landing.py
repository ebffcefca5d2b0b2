"""The landing page for someone without an account (issue 52, item 3), in Debian's
headless Chromium against a real ``backgammon serve``: what is on now (a public match
being played, an open and a running tournament, a chouette table) with links to each, the count of
open matches waiting, and the way to play; a match is watched from it in one click."""

from __future__ import annotations

from typing import Any

from .browser import needs_chromium, watch
from .test_web_tournaments import _account
from .test_web_tournaments import backend as backend  # SQLite only, as there

pytestmark = needs_chromium


def test_a_visitor_sees_what_is_on_and_watches_a_match_in_one_click(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    ada, bob = _account(server.url, "ada"), _account(server.url, "bob")
    played = ada.post("/api/matches", json={"settings": {"length": 3}, "opponent": "bot:beginner"})
    played.raise_for_status()
    bob.post("/api/matches", json={"settings": {"length": 5}}).raise_for_status()  # waits
    ada.post("/api/tournaments", json={"name": "Friday Swiss", "format": "swiss"})
    running = bob.post(
        "/api/tournaments",
        json={"name": "Bots' cup", "format": "swiss", "rounds": 1, "early_length": 11},
    ).json()
    for _ in range(2):
        path = f"/api/tournaments/{running['id']}/bots"
        bob.post(path, json={"level": "beginner"}).raise_for_status()
    bob.post(f"/api/tournaments/{running['id']}/start").raise_for_status()
    ada.post("/api/chouettes", json={"name": "Ada's table"}).raise_for_status()
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch(page)
    page.goto(server.url + "/", wait_until="load")
    page.get_by_role("button", name="Play as guest").wait_for()
    live = page.locator("#live-card")
    live.get_by_role("link", name="ada – bot_beginner").wait_for()
    assert "3-point" in (page.locator("#live-matches").text_content() or "")
    assert page.locator("#live-waiting").text_content() == (
        "1 open match waits for an opponent: play as a guest to take one."
    )
    event = live.get_by_role("link", name="Friday Swiss")
    assert event.get_attribute("href", timeout=5_000).startswith("/tournaments?id=")
    under_way = live.locator("li", has_text="Bots' cup")
    assert "running" in (under_way.text_content() or ""), under_way.text_content()
    link = under_way.get_by_role("link", name="Bots' cup").get_attribute("href")
    assert link == f"/tournaments?id={running['id']}"
    assert (
        live.get_by_role("link", name="Ada's table")
        .get_attribute("href")
        .startswith("/chouettes?id=")
    )
    live.get_by_role("link", name="ada – bot_beginner").click()
    page.wait_for_function(f"() => location.hash === '#/match/{played.json()['id']}'")
    page.wait_for_selector("#board .place", state="attached")
    assert page.locator("#do-roll").is_hidden()  # watching: read-only
    assert problems == []
