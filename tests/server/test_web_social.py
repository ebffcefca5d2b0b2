"""The lobby's social side in Debian's headless Chromium against a real ``backgammon
serve`` process (issue 35, "What players have elsewhere"): the lobby chat between two
browsers and a FIBS client on a raw socket, private-message threads both ways, ratings
after names, a friend shown coming online and invited in one click, and the notice of
an invitation that arrives while the tab is in the background.

Every test fails on anything in the browser's console, an uncaught error in the page,
a request that failed or an HTTP error answer.
"""

from __future__ import annotations

import socket
import time
from typing import Any

import httpx
import pytest

from .browser import needs_chromium, watch
from .test_fibs import _fibs_port

pytestmark = needs_chromium

PASSWORD = "a long enough password"

# Made before any page script: a tab we can send to the background and back, and
# notifications the page is allowed to show, kept where the test can read them.
BACKGROUND = """
window.__notices = [];
Object.defineProperty(document, "hidden", {
  configurable: true, get: () => window.__hidden === true,
});
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) { window.__notices.push(options.body); }
  addEventListener() {}
  close() {}
};
"""


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (test_social.py covers the server)."""
    return "sqlite"


def _register(url: str, *names: str) -> None:
    for name in names:
        answer = httpx.post(f"{url}/api/register", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text


def _log_in(browser: Any, url: str, name: str, script: str = "") -> tuple[Any, list[str]]:
    """``name`` logs in, in a browser context of their own; returns the page and its
    problems (see :func:`watch`)."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    if script:
        context.add_init_script(script)
    page = context.new_page()
    problems = watch(page)
    page.goto(url + "/", wait_until="load")
    page.locator("#login-form input[name=name]").fill(name)
    page.locator("#login-form input[name=password]").fill(PASSWORD)
    page.locator("#login-form button[value=login]").click()
    page.wait_for_selector("#lobby-view:not([hidden])")
    return page, problems


def _says(page: Any, selector: str, words: str) -> None:
    page.wait_for_function(
        "([selector, words]) => [...document.querySelectorAll(selector)]"
        ".some((node) => node.textContent.includes(words))",
        arg=[selector, words],
    )


class _Fibs:
    """A FIBS (CLIP) client on a raw blocking socket: send commands, wait for lines."""

    def __init__(self, port: int, name: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buffer = b""
        self.lines: list[str] = []
        self.send(f"login TestClient 1008 {name} {PASSWORD}")
        self.wait_for("6")

    def send(self, command: str) -> None:
        self.sock.sendall(command.encode() + b"\r\n")

    def wait_for(self, wanted: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while wanted not in self.lines:
            assert time.monotonic() < deadline, f"no {wanted!r} in {self.lines[-8:]}"
            self.buffer += self.sock.recv(65536)
            *complete, self.buffer = self.buffer.split(b"\n")
            self.lines += [raw.decode().rstrip("\r") for raw in complete]

    def close(self) -> None:
        self.send("bye")
        self.sock.close()


def test_lobby_chat_and_private_messages_between_browsers_and_fibs_with_ratings(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0")
    _register(server.url, "alice", "bob", "fred")
    alice, alice_problems = _log_in(browser, server.url, "alice")
    bob, bob_problems = _log_in(browser, server.url, "bob")
    fred = _Fibs(_fibs_port(server), "fred")

    # Ratings after names: the online list shows each rated user's.
    for name in ("bob", "fred"):
        _says(alice, f"#online li:has(a.player-link[href='#/player/{name}']) .rating", "(1500)")

    # A shout from one browser reaches the other (with the speaker's rating) and FIBS.
    alice.locator("#shout-input").fill("hello lobby")
    alice.locator("#shout-form button").click()
    _says(bob, "#shouts li", "alice (1500): hello lobby")
    fred.wait_for("13 alice hello lobby")
    # A FIBS shout reaches the browsers.
    fred.send("shout hi from fibs")
    _says(alice, "#shouts li", "fred (1500): hi from fibs")
    _says(bob, "#shouts li", "hi from fibs")

    # Bob clicks alice's name in the chat: a thread with her opens; she reads his line.
    bob.locator("#shouts button.chat-name", has_text="alice").click()
    bob.locator("#pm-card").wait_for()
    assert bob.locator("#pm-with").text_content() == "alice"
    bob.locator("#pm-input").fill("a game later?")
    bob.locator("#pm-form button").click()
    _says(bob, "#pm-lines li", "bob: a game later?")
    _says(alice, "#pm-lines li", "bob: a game later?")
    assert alice.locator("#pm-with").text_content() == "bob"
    assert "a game later?" not in alice.locator("#shouts").text_content()  # private

    # Private messages between a browser and FIBS, both ways.
    alice.locator("#online li:has(a[href='#/player/fred']) button.message-user").click()
    _says(alice, "#pm-with", "fred")
    alice.locator("#pm-input").fill("hi fred")
    alice.locator("#pm-form button").click()
    fred.wait_for("12 alice hi fred")
    fred.send("tell alice back at you")
    _says(alice, "#pm-lines li", "fred: back at you")
    assert "bob (1)" not in alice.locator("#pm-tabs").text_content()  # read before
    # A refused message is said in the thread, and the thread is unchanged.
    alice.locator("#pm-input").fill("x" * 499 + "\u202e")
    alice.locator("#pm-form button").click()
    _says(alice, "#pm-error", "U+202E")
    assert alice.locator("#pm-lines li").count() == 2
    fred.close()
    # On a phone, a long unbroken shout and the panels never make the page scroll sideways.
    bob.locator("#shout-input").fill("w" * 300)
    bob.locator("#shout-form button").click()
    _says(alice, "#shouts li", "w" * 300)
    alice.set_viewport_size({"width": 375, "height": 800})
    widths = alice.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], widths
    assert alice_problems == [] and bob_problems == []


def test_a_friend_comes_online_is_invited_in_one_click_and_the_background_tab_is_told(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--no-bots")
    _register(server.url, "alice", "bob")
    alice, alice_problems = _log_in(browser, server.url, "alice")
    alice.locator("#friend-name").fill("bob")
    alice.locator("#friend-form button").click()
    friend = alice.locator("#friends li[data-friend='bob']")
    friend.wait_for()
    assert friend.get_attribute("data-online") == "false"
    assert "offline" in friend.text_content() and "(1500)" in friend.text_content()

    bob, bob_problems = _log_in(browser, server.url, "bob", BACKGROUND)
    alice.locator("#friends li[data-friend='bob'][data-online='true']").wait_for()
    assert "online" in alice.locator("#friends li[data-friend='bob']").text_content()

    # Bob's tab goes to the background; alice invites him in one click.
    bob.evaluate("window.__hidden = true; document.dispatchEvent(new Event('visibilitychange'))")
    alice.locator("#friends li[data-friend='bob'] button", has_text="Invite").click()
    alice.wait_for_function("() => location.hash.startsWith('#/match/')")
    bob.wait_for_function("() => document.title === '(1) Backgammon'")
    assert bob.evaluate("window.__notices") == ["alice invites you to a 5-point match."]
    icon = bob.locator("link[rel~='icon']").get_attribute("href")
    assert icon.startswith("data:image/svg+xml")
    _says(bob, "#invitations li", "alice (1500) invites you: 5-point, ")  # then the clock
    assert ", rated" in bob.locator("#invitations li").first.text_content()
    # Back in front: the badge goes.
    bob.evaluate("window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    bob.wait_for_function("() => document.title === 'Backgammon'")
    assert bob.locator("link[rel~='icon']").get_attribute("href") == "data:,"
    # Bob accepts: both players' ratings stand next to their names over the board.
    bob.locator("#invitations button", has_text="Accept").click()
    for page in (alice, bob):
        for seat in ("#player-top", "#player-bottom"):
            _says(page, f"{seat} .rating", "(1500)")

    # Removed from the list, bob is gone from it after a reload too.
    alice.goto(server.url + "/", wait_until="load")
    alice.locator("#friends li[data-friend='bob'] button", has_text="Remove").click()
    alice.locator("#friends li.none").wait_for()
    alice.reload(wait_until="load")
    alice.locator("#lobby-view:not([hidden])").wait_for()
    alice.locator("#friends li.none").wait_for()
    assert alice_problems == [] and bob_problems == []
