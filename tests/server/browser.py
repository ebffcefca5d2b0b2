"""What the browser tests share: Debian's Chromium, a watch on everything that goes
wrong in a page, and a person's ways through the app (start a bot match, play it out
with the mouse). The ``browser`` fixture lives in conftest.py.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="needs Debian's chromium (apt-get install chromium)"
)
"""Mark a browser test module with ``pytestmark = needs_chromium``."""


def chromium() -> Iterator[Any]:
    """Debian's headless Chromium, through Playwright, for a fixture to yield from."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


# Something for the player to do: a button to press, a checker to move, a game's
# summary to dismiss, or the end.
READY = """() => {
  if (!document.querySelector('#result').hidden) return true;
  if (!document.querySelector('#game-summary').hidden) return true;
  const usable = (id) => {
    const button = document.querySelector(id);
    return !button.hidden && !button.disabled;
  };
  if (['#do-roll', '#do-take', '#do-done', '#do-forced', '#do-accept'].some(usable)) return true;
  return document.querySelector('#board .place.movable, #board .place.target') !== null;
}"""


# Every target a finger or a pointer aims at on the page, with its size in CSS pixels:
# links, buttons, fields, summaries, and the played boards' points, bar and tray (those
# that take the pointer); not what is hidden, nor inside a closed <details> (but its
# summary), nor what is there for screen readers only.
TARGETS = """() => {
  const out = [];
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    const closed = e.closest("details:not([open])");
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden"
      && getComputedStyle(e).pointerEvents !== "none" && !e.closest(".visually-hidden")
      && !(closed && !(e.tagName === "SUMMARY" && e.parentElement === closed));
  };
  const selector = "a[href], button, input, select, textarea, summary, .board-svg .place";
  for (const e of document.querySelectorAll(selector)) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    const name = e.dataset.place ? `place ${e.dataset.place}` : e.id || e.textContent.trim();
    const round = (x) => Math.round(x * 10) / 10;
    out.push({ name, width: round(r.width), height: round(r.height) });
  }
  return out;
}"""

FINGER = 32
"""The least width and height of a target on a phone, in CSS pixels."""


def keep_said(selector: str) -> str:
    """An init script that keeps every text the element ``selector`` (a status line)
    showed, in ``window.__said``: a bot may act a moment after a state, and a busy
    browser may render both (or a sentence and its replacement) before a test looks."""
    return f"""
window.__said = [];
new MutationObserver(() => {{
  const line = document.querySelector({selector!r});
  const text = line ? line.textContent : "";
  if (text && text !== window.__said[window.__said.length - 1]) window.__said.push(text);
}}).observe(document, {{ subtree: true, childList: true, characterData: true }});
"""


def small_targets(page: Any) -> list[str]:
    """The targets on the page (``TARGETS``) narrower or lower than ``FINGER`` pixels,
    one line each (name, width x height)."""
    measured = page.evaluate(TARGETS)
    return [
        f"{t['name']}: {t['width']} x {t['height']}"
        for t in measured
        if min(t["width"], t["height"]) < FINGER
    ]


def watch(page: Any) -> list[str]:
    """Collect every console message, page error, failed request and error answer."""
    problems: list[str] = []
    page.on("console", lambda message: problems.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on(
        "requestfailed",
        lambda request: (
            None  # aborted by a reload or a closing page: the browser's doing, not a fault
            if request.failure == "net::ERR_ABORTED"
            else problems.append(f"failed: {request.url} ({request.failure})")
        ),
    )
    page.on(
        "response",
        lambda response: (
            problems.append(f"{response.status}: {response.url}")
            if response.status >= 400
            else None
        ),
    )
    return problems


def start_bot_match(page: Any, url: str) -> str:
    """Open the app, play as a guest, start a 1-point match against the beginner bot;
    returns the match id."""
    page.goto(url + "/", wait_until="load")
    page.get_by_role("button", name="Play as guest").click()
    page.get_by_role("button", name="1", exact=True).click()
    page.get_by_role("button", name="Beginner").click()
    page.wait_for_selector("#board .place", state="attached")
    match_id: str = page.evaluate("location.hash").removeprefix("#/match/")
    assert match_id
    return match_id


def start_variant_bot_match(page: Any, url: str, variant: str) -> str:
    """Open the app, play as a guest, start a 1-point match of ``variant`` against
    the beginner bot (through the page's own session) and show it; returns its id."""
    page.goto(url + "/", wait_until="load")
    page.get_by_role("button", name="Play as guest").click()
    page.wait_for_selector("#bots button")
    match_id: str = page.evaluate(
        """async (variant) => {
          const answer = await fetch('/api/matches', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ settings: { variant, length: 1 }, opponent: 'bot:beginner' }),
          });
          return (await answer.json()).id;
        }""",
        variant,
    )
    page.evaluate(f"location.hash = '#/match/{match_id}'")
    page.wait_for_selector("#board .place", state="attached")
    return match_id


def visible(page: Any, selector: str) -> bool:
    return bool(page.locator(selector).is_visible())


def until(page: Any, condition: Callable[[], object], seconds: float, what: str = "") -> None:
    """Wait (letting the page run) until ``condition()`` is true; fail after ``seconds``
    naming ``what`` was awaited."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what or condition}"
        page.wait_for_timeout(100)


def play_the_turn(page: Any) -> None:
    """Make the rest of the turn's play with the mouse (a lit destination, else a
    movable checker, until *Done* shows) and send it."""
    while not page.locator("#do-done").is_visible():
        if page.locator("#board .place.target").count():
            page.locator("#board .place.target").first.click()
        else:
            page.locator("#board .place.movable").first.click()
    page.locator("#do-done").click()


def play_to_the_end(page: Any, timeout: float = 90.0) -> dict[str, int]:
    """Play with the mouse until the result is shown; returns what was clicked."""
    clicks = {
        "roll": 0,
        "take": 0,
        "accept": 0,
        "checker": 0,
        "destination": 0,
        "done": 0,
        "forced": 0,
        "continue": 0,
    }
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        page.wait_for_function(READY, timeout=30_000)
        if visible(page, "#result"):
            return clicks
        if visible(page, "#game-summary"):
            page.locator("#summary-continue").click()
            clicks["continue"] += 1
            continue
        if visible(page, "#do-take"):
            page.locator("#do-take").click()
            clicks["take"] += 1
        elif visible(page, "#do-accept"):
            page.locator("#do-accept").click()
            clicks["accept"] += 1
        elif visible(page, "#do-roll"):
            page.locator("#do-roll").click()
            clicks["roll"] += 1
        elif visible(page, "#do-forced"):
            page.locator("#do-forced").click()
            clicks["forced"] += 1
        elif visible(page, "#do-done"):
            page.locator("#do-done").click()
            clicks["done"] += 1
        elif page.locator("#board .place.target").count():
            page.locator("#board .place.target").first.click()
            clicks["destination"] += 1
        else:
            page.locator("#board .place.movable").first.click()
            clicks["checker"] += 1
            assert page.locator("#board .place.target").count() > 0, "no destination lit"
    raise AssertionError(f"the match did not end in {timeout} s: {clicks}")
