"""Invitations and match creation in the web app, in Debian's headless Chromium
against a real ``backgammon serve`` process (issue 35, items 2 and 3): an invitation
is seen by its invitee alone, survives a reload, is declined (the inviter is told at
once) and cancelled from the inviter's lobby; a double click creates one match, and an
open match is withdrawn from its page.

Every test fails on anything in the browser's console, an uncaught error in the page,
a request that failed or an HTTP error answer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from .browser import needs_chromium, watch

pytestmark = needs_chromium


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (test_invitations.py covers the server)."""
    return "sqlite"


def _guest(browser: Any, url: str) -> tuple[Any, list[str], str]:
    """A new guest in a browser context of its own, in the lobby: its page, the
    page's problems (see :func:`watch`) and its name."""
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    problems = watch(page)
    page.goto(url + "/", wait_until="load")
    page.get_by_role("button", name="Play as guest").click()
    page.wait_for_selector("#lobby-view:not([hidden])")
    return page, problems, page.locator("#who").text_content().split()[0]


def _invite(host: Any, name: str) -> str:
    """The host invites ``name`` to a 1-point match; returns the match id."""
    host.get_by_role("button", name="1", exact=True).click()
    host.locator("#invite-name").fill(name)
    host.locator("#invite-form button").click()
    host.wait_for_function("() => location.hash.startsWith('#/match/')")
    host.wait_for_function(
        f"() => document.querySelector('#match-status').textContent"
        f".includes('Waiting for {name} to accept')"
    )
    return str(host.evaluate("location.hash").removeprefix("#/match/"))


def _status_says(page: Any, words: str) -> None:
    page.wait_for_function(
        f"() => document.querySelector('#status').textContent.includes({words!r})"
    )


def test_an_invitation_is_seen_by_its_invitee_alone_survives_a_reload_and_is_declined(
    server_factory: Any, browser: Any, tmp_path: Path
) -> None:
    server = server_factory("--no-warm-up", "--no-bots")
    host, host_problems, host_name = _guest(browser, server.url)
    guest, guest_problems, guest_name = _guest(browser, server.url)
    other, other_problems, _other_name = _guest(browser, server.url)
    match_id = _invite(host, guest_name)

    invitation = guest.locator(f"#invitations li[data-match='{match_id}']")
    invitation.wait_for()
    assert f"{host_name} invites you: 1-point" in invitation.text_content()
    guest.screenshot(path=str(tmp_path / "lobby-invitation.png"))
    # A third user sees it nowhere, even in a fresh snapshot of the lobby.
    other.reload(wait_until="load")
    other.wait_for_function(
        f"() => document.querySelector('#online').textContent.includes({host_name!r})"
    )
    assert other.locator("#invitations-card").is_hidden()
    assert other.locator(f"[data-match='{match_id}']").count() == 0
    assert "none" in other.locator("#open-matches").text_content()
    # The invitee reloads: the invitation is still there.
    guest.reload(wait_until="load")
    invitation.wait_for()
    assert guest.locator(f"#open-matches [data-match='{match_id}']").count() == 0
    # Declined: the inviter, waiting on the match's page, is told and sent to the lobby.
    invitation.get_by_role("button", name="Decline").click()
    _status_says(host, f"{guest_name} declined your invitation.")
    host.wait_for_selector("#lobby-view:not([hidden])")
    guest.locator("#invitations-card").wait_for(state="hidden")
    assert httpx.get(f"{server.url}/api/matches/{match_id}").status_code == 404

    # Invited again; the inviter's lobby lists it, and it is cancelled from there.
    again = _invite(host, guest_name)
    invitation = guest.locator(f"#invitations li[data-match='{again}']")
    invitation.wait_for()
    host.get_by_role("button", name="Lobby").click()
    sent = host.locator(f"#sent li[data-match='{again}']")
    sent.wait_for()
    assert f"You invited {guest_name}: 1-point" in sent.text_content()
    host.screenshot(path=str(tmp_path / "lobby-sent.png"))
    sent.get_by_role("button", name="Cancel").click()
    _status_says(host, f"You cancelled your invitation to {guest_name}.")
    _status_says(guest, f"{host_name} cancelled the invitation.")
    invitation.wait_for(state="detached")
    assert guest.locator("#invitations-card").is_hidden()
    host.locator("#sent-card").wait_for(state="hidden")
    for page in (host, guest, other):
        page.close()
    assert (host_problems, guest_problems, other_problems) == ([], [], [])


def test_a_double_click_creates_one_match(server_factory: Any, browser: Any) -> None:
    """Double-clicking "Beginner" starts one bot match; double-clicking "Create an
    open match" leaves one open match (which its creator then withdraws)."""
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page, problems, name = _guest(browser, server.url)

    def matches() -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = httpx.get(f"{server.url}/api/users/{name}").json()["matches"]
        return found

    page.get_by_role("button", name="1", exact=True).click()
    page.get_by_role("button", name="Beginner").dblclick()
    page.wait_for_selector("#board .place", state="attached")
    assert [match["status"] for match in matches()] == ["playing"]
    page.get_by_role("button", name="Lobby").click()
    page.wait_for_selector("#lobby-view:not([hidden])")
    page.get_by_role("button", name="Create an open match").dblclick()
    page.wait_for_function(
        "() => document.querySelector('#match-status').textContent"
        ".includes('Waiting for an opponent')"
    )
    assert sorted(match["status"] for match in matches()) == ["open", "playing"]
    page.get_by_role("button", name="Withdraw the match").click()
    _status_says(page, "You withdrew your match.")
    page.wait_for_selector("#lobby-view:not([hidden])")
    assert [match["status"] for match in matches()] == ["playing"]
    page.close()
    assert problems == []
