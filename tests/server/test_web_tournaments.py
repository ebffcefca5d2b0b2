"""The tournaments page in a real browser: the list, then one tournament whose
standings change as its round is played; a person who registers on the page, plays
their round on the board and sees the standings change (Debian's headless Chromium
against a real ``backgammon serve``)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .browser import needs_chromium, play_to_the_end, watch

pytestmark = needs_chromium


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (the server's own tests cover PostgreSQL)."""
    return "sqlite"


def _account(url: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=url)
    answer = client.post("/api/register", json={"name": name, "password": f"password-{name}"})
    answer.raise_for_status()
    client.headers["authorization"] = f"Bearer {answer.json()['token']}"
    return client


def test_the_page_lists_a_tournament_and_shows_its_standings_change(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--no-bots")
    ada, bob = _account(server.url, "ada"), _account(server.url, "bob")
    body = {
        "name": "<b>Club</b> cup",
        "format": "swiss",
        "rounds": 1,
        "early_length": 1,
        "clock": {"delay_seconds": 0, "reserve_per_point_seconds": 1},
        # Unrated: a rated event's clock has 30 s a point at least, and its start
        # withdraws players connected nowhere (ada and bob have no connection here).
        "rated": False,
    }
    created = ada.post("/api/tournaments", json=body)
    created.raise_for_status()
    tournament_id = created.json()["id"]
    for client in (ada, bob):
        client.post(f"/api/tournaments/{tournament_id}/register").raise_for_status()
    page = browser.new_page(viewport={"width": 390, "height": 800})
    page.goto(server.url + "/tournaments", wait_until="load")
    link = page.locator('ul[data-status="open"] a', has_text="<b>Club</b> cup")
    link.wait_for()
    link.click()
    page.wait_for_selector("#tournament:not([hidden])")
    assert page.locator("#tournament-name").text_content() == "<b>Club</b> cup"
    page.locator("#tournament-status", has_text="open").wait_for()
    page.locator("#tournament-status", has_text="starts when the organiser starts it").wait_for()
    assert page.locator("#standings tbody tr").count() == 0
    ada.post(f"/api/tournaments/{tournament_id}/start").raise_for_status()
    # Nobody moves: the player on roll loses on the clock; the page follows.
    page.locator("#tournament-status", has_text="finished").wait_for(timeout=20_000)
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).locator("td").nth(2).text_content() == "1"
    assert "won" in (page.locator("#rounds").text_content() or "")


def _points(page: Any) -> dict[str, str]:
    rows = page.locator("#standings tbody tr")
    return {
        str(rows.nth(i).locator("td").nth(1).text_content()): str(
            rows.nth(i).locator("td").nth(2).text_content()
        )
        for i in range(rows.count())
    }


def test_a_person_registers_plays_the_round_and_sees_the_standings_change(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    organiser = _account(server.url, "org")
    body = {"name": "Evening Swiss", "format": "swiss", "rounds": 1, "early_length": 1}
    tournament_id = organiser.post("/api/tournaments", json=body).json()["id"]
    organiser.post(
        f"/api/tournaments/{tournament_id}/bots", json={"level": "beginner"}
    ).raise_for_status()
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch(page)
    page.goto(server.url + "/", wait_until="load")
    page.locator("#login-form input[name=name]").fill("ada")
    page.locator("#login-form input[name=password]").fill("password-ada")
    page.get_by_role("button", name="Register").click()
    page.wait_for_selector("#lobby-view:not([hidden])")
    page.goto(f"{server.url}/tournaments?id={tournament_id}", wait_until="load")
    page.locator("#tournament-entry button", has_text="Register").click()
    page.locator("#tournament-status", has_text="bot_beginner_1, ada").wait_for()
    page.locator("#tournament-entry button", has_text="Withdraw").wait_for()
    assert page.locator("#standings tbody tr").count() == 0
    organiser.post(f"/api/tournaments/{tournament_id}/start").raise_for_status()
    # The round in play: both at 0 points, and a link to the person's own match.
    link = page.locator("#rounds a.your-match", has_text="play your match")
    link.wait_for(timeout=10_000)
    assert _points(page) == {"ada": "0", "bot_beginner_1": "0"}
    assert page.locator("#tournament-entry button").count() == 0
    link.click()
    page.wait_for_selector("#board .place", state="attached")
    play_to_the_end(page)
    page.goto(f"{server.url}/tournaments?id={tournament_id}", wait_until="load")
    page.locator("#tournament-status", has_text="finished").wait_for(timeout=20_000)
    after = _points(page)
    view = httpx.get(f"{server.url}/api/tournaments/{tournament_id}").json()
    winner = view["rounds"][0]["pairings"][0]["winner"]
    assert after == {winner: "1", ({"ada", "bot_beginner_1"} - {winner}).pop(): "0"}
    assert f"{winner} won" in (page.locator("#rounds").text_content() or "")
    assert problems == []
