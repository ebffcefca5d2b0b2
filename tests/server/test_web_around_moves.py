"""Around the moves (issue 52's defects), in Debian's headless Chromium against a real
``backgammon serve``: two guests meet by invitation and play a 1-point match. A
double-clicked Accept joins once and says no error; both pages say who won the
opening roll; a 1-point match draws no cube; a backgammon resigned in it shows the
match's 1 point beside the names, not the game's 3; the waiting pages of the winner's
next open match and of the other's next invitation show nothing of the finished one.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .browser import needs_chromium
from .test_web_invitations import _guest, _invite

pytestmark = needs_chromium


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (the server's own tests cover PostgreSQL)."""
    return "sqlite"


def _status(page: Any) -> str:
    return str(page.locator("#match-status").text_content() or "")


def test_an_invitation_accepted_twice_a_told_opening_and_a_resigned_backgammon(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--no-bots")
    host, host_problems, host_name = _guest(browser, server.url)
    guest, guest_problems, guest_name = _guest(browser, server.url)
    match_id = _invite(host, guest_name)
    accept = guest.locator(f'#invitations li[data-match="{match_id}"] button', has_text="Accept")
    accept.dblclick()
    guest.wait_for_function(f"() => location.hash === '#/match/{match_id}'")
    pages = {host_name: host, guest_name: guest}
    for page in pages.values():
        page.wait_for_selector("#board .place", state="attached")
        page.locator("#match-status", has_text="won the opening roll").wait_for()
        assert page.locator("#board .cube").count() == 0, "a 1-point match has no cube"
    said = {name: _status(page) for name, page in pages.items()}
    # (A tied first throw may be told first: "Both threw 5: the opening roll is thrown
    # again. ...", on a page that saw it; the dice are the match's own.)
    winner = next(name for name, words in said.items() if "You won the opening" in words)
    loser = next(name for name in pages if name != winner)
    assert f"{winner} won the opening roll " in said[loser], said
    assert re.search(r"opening roll (\d)-(\d)\.", said[winner]), said
    # The opening roll's winner resigns a backgammon (worth 3), its opponent accepts.
    pages[winner].locator("#do-resign").click()
    pages[winner].locator("#resign-menu button[data-level='3']").click()
    pages[loser].locator("#do-accept").click()
    for page in pages.values():
        page.locator("#result").wait_for()
        scores = page.locator(".player span", has_text="score").all_text_contents()
        assert sorted(scores) == ["score 0", "score 1"], scores
    # The match's winner opens a new match: its waiting page shows nothing of the last.
    page = pages[loser]
    page.get_by_role("button", name="Lobby").click()
    page.get_by_role("button", name="Create an open match").click()
    page.locator("#match-status", has_text="Waiting for an opponent").wait_for()
    assert page.locator("#result").is_hidden() and page.locator("#game-summary").is_hidden()
    # So does the waiting page of the other's new invitation.
    other = pages[winner]
    other.get_by_role("button", name="Lobby").click()
    _invite(other, loser)
    assert other.locator("#result").is_hidden() and other.locator("#game-summary").is_hidden()
    assert host_problems == [] and guest_problems == []


def test_a_player_in_the_lobby_is_not_back_at_the_board(server_factory: Any, browser: Any) -> None:
    """The opponent who goes to the lobby has left the board (still online); coming back
    to the match they are back; nobody is told "back" while they are only in the lobby."""
    server = server_factory("--no-warm-up", "--no-bots")
    host, host_problems, _host_name = _guest(browser, server.url)
    guest, guest_problems, guest_name = _guest(browser, server.url)
    match_id = _invite(host, guest_name)
    guest.locator(f'#invitations li[data-match="{match_id}"] button', has_text="Accept").click()
    for page in (host, guest):
        page.wait_for_selector("#board .place", state="attached")
    said: list[str] = []
    host.expose_function("heard", lambda text: said.append(text))
    host.evaluate(
        """() => new MutationObserver(() => window.heard(document.querySelector('#status')
             .textContent)).observe(document.querySelector('#status'), {childList: true})"""
    )
    guest.get_by_role("button", name="Lobby").click()
    guest.wait_for_selector("#lobby-view:not([hidden])")
    host.locator("#status", has_text=f"{guest_name} left the board.").wait_for()
    guest.goto(f"{server.url}/#/match/{match_id}", wait_until="load")
    guest.wait_for_selector("#board .place", state="attached")
    host.locator("#status", has_text=f"{guest_name} is back.").wait_for()
    # Gone (the tab closed), then back in the lobby only: online, not at the board.
    guest.goto("about:blank")
    host.locator("#status", has_text=f"{guest_name} left.").wait_for()
    guest.goto(f"{server.url}/", wait_until="load")
    guest.wait_for_selector("#lobby-view:not([hidden])")
    host.locator("#status", has_text=f"{guest_name} is online, not at the board.").wait_for()
    back = [line for line in said if "is back" in line]
    assert len(back) == 1, said  # once, when they returned to the board
    assert host_problems == [] and guest_problems == []


def test_a_returning_player_is_told_their_match_is_waiting(
    server_factory: Any, browser: Any
) -> None:
    """A guest starts a match against a bot, then comes back to the site later: the
    lobby says at once that the match waits and resumes it in one click."""
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page, problems, _name = _guest(browser, server.url)
    page.get_by_role("button", name="3", exact=True).click()
    page.get_by_role("button", name="Beginner").click()
    page.wait_for_selector("#board .place", state="attached")
    match_id = str(page.evaluate("location.hash")).removeprefix("#/match/")
    page.goto("about:blank")
    page.goto(server.url + "/", wait_until="load")
    page.wait_for_selector("#lobby-view:not([hidden])")
    page.locator(
        "#status", has_text="Your match against bot_beginner is waiting for you"
    ).wait_for()
    waiting = page.locator(f'#yours li[data-match="{match_id}"]')
    assert "Against bot_beginner: 3-point" in (waiting.text_content() or "")
    waiting.get_by_role("button", name="Resume").click()
    page.wait_for_function(f"() => location.hash === '#/match/{match_id}'")
    page.wait_for_selector("#board .place", state="attached")
    assert problems == []
