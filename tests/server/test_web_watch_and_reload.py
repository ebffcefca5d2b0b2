"""Watching without an account and reloading mid-turn, in a real browser (issue 35,
items 6 and 8): Debian's headless Chromium against a real ``backgammon serve``
process (SQLite).

A guest plays the beginner bot; a browser with no session opens the match's link and
sees the board live and read-only (no chat, no buttons) while moves arrive. Then the
guest moves one checker of a two-checker play and reloads: the checker is still
moved, the bot's last play still said, and the turn is finished as usual. A match not
yet started asks the viewer to log in, after which its page is the usual one.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from .browser import READY, needs_chromium, play_the_turn, start_bot_match, visible, watch
from .test_web import BOARD_SIGNATURE

pytestmark = needs_chromium


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (the server's own tests cover PostgreSQL)."""
    return "sqlite"


def _state(url: str, match_id: str) -> dict[str, Any]:
    state: dict[str, Any] = httpx.get(f"{url}/api/matches/{match_id}").json()
    return state


def _finish_turn(page: Any) -> None:
    """Play the rest of the turn with the mouse (or its forced play) and send it."""
    page.wait_for_function(READY, timeout=30_000)
    if visible(page, "#do-forced"):
        page.locator("#do-forced").click()
    else:
        play_the_turn(page)


def _wait_for_seq(page: Any, seq: int) -> None:
    page.wait_for_function(
        f"() => Number(document.querySelector('#board').dataset.seq) >= {seq}", timeout=30_000
    )


def _to_a_turn_after_the_bot(page: Any, url: str, match_id: str) -> dict[str, Any]:
    """Play on until the guest (seat 0) has a play of two or more checkers to make
    after a play of the bot's; returns that state."""
    for _ in range(30):
        # The bot's first move may compile the engine's kernels (no warm-up): 60 s.
        page.wait_for_function(READY, timeout=60_000)
        state = _state(url, match_id)
        assert state["result"] is None, "the match ended first"
        if visible(page, "#do-roll"):
            page.locator("#do-roll").click()
            continue
        last = state["last_play"]
        game = state["game"]
        choice = len({play for play in game["legal_plays"] or []}) > 1 and game["to_move"] >= 2
        if last is not None and last["by"] == 1 and choice and state["waiting_for"] == 0:
            _wait_for_seq(page, state["seq"])
            return state
        _finish_turn(page)
        _wait_for_seq(page, state["seq"] + 1)
    raise AssertionError("no turn with a choice came")


def test_a_shared_link_is_watched_without_an_account_then_a_reload_keeps_the_turn(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    url = server.url
    player = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch(player)
    match_id = start_bot_match(player, url)

    # Someone with no account (a fresh context: no cookie) opens the shared link.
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    viewer = context.new_page()
    viewer_problems = watch(viewer)
    viewer.goto(f"{url}/#/match/{match_id}", wait_until="load")
    viewer.wait_for_selector("#board .place", state="attached")
    assert viewer.locator("#login-view").is_hidden()
    assert "watching" in viewer.locator("#match-title").text_content()
    assert viewer.locator("#viewer-note").is_visible()
    assert not viewer.locator("#chat-input").is_visible(), "no chat without an account"
    assert viewer.locator("#controls button:visible").count() == 0
    assert viewer.locator("#board .place.movable").count() == 0
    assert viewer.locator("#who").text_content() == ""

    # The guest plays on to a turn of their own after one of the bot's: the viewer's
    # board follows every move.
    start = _state(url, match_id)["seq"]
    turn = _to_a_turn_after_the_bot(player, url, match_id)
    _wait_for_seq(viewer, turn["seq"])
    assert viewer.evaluate(BOARD_SIGNATURE) == player.evaluate(BOARD_SIGNATURE)
    said = f"bot_beginner played {turn['last_play']['move']}."
    assert said in viewer.locator("#match-status").text_content()

    # One checker of the play, then a reload: still moved, the bot's play still said.
    player.locator("#board .place.movable").first.click()
    player.locator("#board .place.target").first.click()
    assert player.locator("#do-undo").is_visible()
    chosen = player.locator("#match-status").text_content().split("Chosen: ")[-1]
    moved = player.evaluate(BOARD_SIGNATURE)
    assert moved != viewer.evaluate(BOARD_SIGNATURE), "the step shows on the board"
    player.reload(wait_until="load")
    player.wait_for_selector("#board .place", state="attached")
    player.wait_for_function("() => !document.querySelector('#do-undo').hidden")
    status = player.locator("#match-status").text_content()
    assert said in status, status
    assert status.split("Chosen: ")[-1] == chosen, status
    assert json.loads(player.evaluate(BOARD_SIGNATURE)) == json.loads(moved)
    # The turn goes on where it was: the rest of the play, then Done.
    _finish_turn(player)
    _wait_for_seq(player, turn["seq"] + 1)
    after = _state(url, match_id)
    assert after["seq"] > turn["seq"] > 0 and after["seq"] > start
    played = [e for e in (after["last_play"],) if e is not None and e["by"] == 0]
    bot_again = after["last_play"] is not None and after["last_play"]["by"] == 1
    assert played or bot_again, after["last_play"]
    if played:
        assert played[0]["steps"][0][0] == int(chosen.split("/")[0].replace("bar", "25"))
    _wait_for_seq(viewer, after["seq"])  # the moves made since it opened arrived
    assert viewer.locator("#chat-lines li").count() == 0
    # A match not started yet (an open match, an invitation) is not shown without an
    # account: the viewer is asked to log in.
    token = httpx.post(f"{url}/api/guest").json()["token"]
    body = {"settings": {"length": 1}}
    headers = {"authorization": f"Bearer {token}"}
    waiting = httpx.post(f"{url}/api/matches", json=body, headers=headers).json()["id"]
    viewer.evaluate(f"location.hash = '#/match/{waiting}'")
    viewer.wait_for_selector("#login-view:not([hidden])")
    assert "log in to see a match" in viewer.locator("#status").text_content()
    # Logged in (as a guest), the same link offers the seat, and the chat.
    viewer.get_by_role("button", name="Play as guest").click()
    viewer.locator("#do-join").wait_for()
    assert viewer.locator("#chat-input").is_visible()
    assert not viewer.locator("#viewer-note").is_visible()
    player.close()
    context.close()
    assert problems == [] and viewer_problems == []


def test_a_session_outlives_a_moment_the_server_cannot_be_reached(
    server_factory: Any, browser: Any
) -> None:
    """Asking who is signed in fails for a moment (the server out of reach, or the page
    left while it asked): the app and the tournaments page say so and ask again; only
    the server's "no session" logs out. (Once, a page left while it asked made every
    other page take the player for a stranger: no organiser's buttons.)"""
    server = server_factory("--no-warm-up", "--no-bots")
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.goto(server.url + "/", wait_until="load")
    page.locator("#login-form input[name=name]").fill("org")
    page.locator("#login-form input[name=password]").fill("password-org")
    page.get_by_role("button", name="Register").click()
    page.wait_for_selector("#lobby-view:not([hidden])")
    hint = "() => localStorage.getItem('backgammon.session')"

    def unreachable(route: Any) -> None:
        route.abort("connectionrefused")

    page.route("**/api/me", unreachable)
    page.reload(wait_until="load")
    page.locator("#status", has_text="Could not reach the server").wait_for()
    assert page.evaluate(hint) == "1", "a failed request is not a logout"
    page.goto(server.url + "/tournaments", wait_until="load")
    page.locator("#status", has_text="Failed to fetch").wait_for()
    assert page.locator("#tournament-new").is_hidden()
    page.unroute("**/api/me", unreachable)
    page.locator("#who", has_text="org").wait_for()  # asked again at the next refresh
    page.locator("#tournament-new").wait_for(state="visible")
    page.goto(server.url + "/", wait_until="load")
    page.wait_for_selector("#lobby-view:not([hidden])")
    # The server's own "no session" still logs out.
    context.clear_cookies()
    page.reload(wait_until="load")
    page.wait_for_selector("#login-form:not([hidden])")
    assert page.evaluate(hint) is None
    context.close()
