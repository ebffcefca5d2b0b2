"""The play page's board in a real browser (Debian's headless Chromium against a real
``backgammon serve``, SQLite): a bot match played with the keyboard alone (sounds on,
the moves animated), long nardy's checkers where its rules put them (compared with the
server's state), the sounds' toggle remembered, no animation with reduced motion.

Every test fails on anything in the browser's console, an uncaught error in the page,
a request that failed or an HTTP error answer.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from backgammon import variants

from .browser import READY, needs_chromium, start_bot_match, visible, watch

pytestmark = needs_chromium

# Count the checkers' animations (motion.js uses Element.animate).
COUNT_ANIMATIONS = """
window.__animations = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__animations += 1;
  return animate.apply(this, args);
};
"""

# The checkers as drawn: {side: {place: count}} from their data-key ("bottom:13:0").
DRAWN = """() => {
  const out = { bottom: {}, top: {} };
  for (const node of document.querySelectorAll('#board [data-key]')) {
    const [side, place] = node.dataset.key.split(':');
    out[side][place] = (out[side][place] || 0) + 1;
  }
  return { seq: Number(document.querySelector('#board').dataset.seq), drawn: out };
}"""


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (the server's own tests cover PostgreSQL)."""
    return "sqlite"


def _focus_place(page: Any) -> int | None:
    value = page.evaluate(
        "() => { const f = document.querySelector('#board .key-focus');"
        " return f ? Number(f.dataset.focus) : null; }"
    )
    return None if value is None else int(value)


def test_a_bot_match_played_with_the_keyboard(server_factory: Any, browser: Any) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.add_init_script(COUNT_ANIMATIONS)
    problems = watch(page)
    start_bot_match(page, server.url)
    page.locator("#sound-toggle").click()  # sounds on: they must not break anything
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"
    page.locator("#board").focus()
    turns = steps = undone = 0
    deadline = time.monotonic() + 90
    while turns < 3 and time.monotonic() < deadline:
        page.wait_for_function(READY, timeout=30_000)
        if visible(page, "#result"):
            break
        if visible(page, "#do-take"):
            page.locator("#do-take").focus()
            page.keyboard.press("Enter")
        elif visible(page, "#do-accept"):
            page.locator("#do-accept").focus()
            page.keyboard.press("Enter")
        elif visible(page, "#do-roll"):
            seq = page.evaluate("document.querySelector('#board').dataset.seq")
            page.keyboard.press("r")
            page.wait_for_function(
                f"() => document.querySelector('#board').dataset.seq !== '{seq}'"
            )
        elif visible(page, "#do-done"):
            page.locator("#board").focus()
            page.keyboard.press("Enter")
            page.wait_for_function("() => document.querySelector('#do-done').hidden")
            turns += 1
        else:
            # Go round the movable places with the arrows: the ring follows.
            page.locator("#board").focus()
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowLeft")
            place = _focus_place(page)
            movable = page.eval_on_selector_all(
                "#board .place.movable", "nodes => nodes.map((n) => Number(n.dataset.place))"
            )
            assert place in movable, (place, movable)
            before = page.evaluate("window.__animations")
            page.keyboard.press("Enter")  # pick it up: its destinations light up
            targets = page.eval_on_selector_all(
                "#board .place.target", "nodes => nodes.map((n) => Number(n.dataset.place))"
            )
            assert targets, "no destination lit"
            assert _focus_place(page) == max(targets), "the cursor on the first destination"
            page.keyboard.press("Enter")  # put it down on the first one
            steps += 1
            assert page.locator("#do-undo").is_visible()
            assert page.evaluate("window.__animations") > before, "the step was animated"
            if undone == 0:
                page.keyboard.press("u")  # take it back, with the keyboard too
                undone += 1
                page.wait_for_function("() => document.querySelector('#do-undo').hidden")
    assert steps > 0 and (turns > 0 or visible(page, "#result")), (steps, turns)
    assert undone == 1
    # The help says which keys there are; ? opens it.
    page.keyboard.press("?")
    assert page.locator("#key-help").get_attribute("open") is not None
    assert "Backspace" in page.locator("#key-help").text_content()
    # Keys typed into the chat are text, not actions.
    page.locator("#chat-input").fill("")
    page.locator("#chat-input").type("rdu")
    assert page.locator("#chat-input").input_value() == "rdu"
    page.close()
    assert problems == []


def test_long_nardy_checkers_stand_where_the_rules_put_them(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    problems = watch(page)
    page.goto(server.url + "/", wait_until="load")
    page.get_by_role("button", name="Play as guest").click()
    page.wait_for_selector("#bots button")
    match_id = page.evaluate(
        """async () => {
          const answer = await fetch('/api/matches', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ settings: { variant: 'long-nardy', length: 1 },
                                   opponent: 'bot:beginner' }),
          });
          return (await answer.json()).id;
        }"""
    )
    page.evaluate(f"location.hash = '#/match/{match_id}'")
    page.wait_for_selector("#board .place", state="attached")
    nardy = variants.find("long-nardy")
    # Compare the drawn board with the server's state of the same seq.
    for _ in range(50):
        state = httpx.get(f"{server.url}/api/matches/{match_id}").json()
        shown = page.evaluate(DRAWN)
        if shown["seq"] == state["seq"]:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the board never showed the server's state")
    me = page.locator("#who").text_content().split()[0]
    seat = state["players"].index(me)
    board = state["game"]["board"]
    mine, theirs = board[f"player{seat}"], board[f"player{1 - seat}"]
    expected_bottom = {str(p): n for p, n in enumerate(mine) if n}
    expected_top: dict[str, int] = {}
    for point, count in enumerate(theirs):
        if count:
            place = point if point in (0, 25) else nardy.opponent_point(point)
            expected_top[str(place)] = expected_top.get(str(place), 0) + count
    assert shown["drawn"] == {"bottom": expected_bottom, "top": expected_top}
    # The heads: ours (own 24) at the top right, theirs (their 24: our 12) at the
    # bottom left, diagonally across, as at the start.
    assert mine[24] >= 13 and theirs[24] >= 13, board
    boxes = page.evaluate(
        """() => {
          const svg = document.querySelector('#board').getBoundingClientRect();
          const at = (key) => {
            const node = document.querySelector(`#board [data-key="${key}"]`);
            const box = node.getBoundingClientRect();
            const x = (box.x + box.width / 2 - svg.x) / svg.width;
            return [x, (box.y + box.height / 2 - svg.y) / svg.height];
          };
          return { ours: at('bottom:24:0'), theirs: at('top:12:0') };
        }"""
    )
    assert boxes["ours"][0] > 0.5 and boxes["ours"][1] < 0.5, boxes
    assert boxes["theirs"][0] < 0.5 and boxes["theirs"][1] > 0.5, boxes
    assert page.locator("#board .cube").count() == 0, "long nardy has no cube"
    # One move with the mouse, sent and accepted.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        page.wait_for_function(READY, timeout=30_000)
        if visible(page, "#do-roll"):
            page.locator("#do-roll").click()
        elif visible(page, "#do-done"):
            seq = page.evaluate("document.querySelector('#board').dataset.seq")
            page.locator("#do-done").click()
            page.wait_for_function(
                f"() => document.querySelector('#board').dataset.seq !== '{seq}'"
            )
            break
        elif page.locator("#board .place.target").count():
            page.locator("#board .place.target").first.click()
        else:
            page.locator("#board .place.movable").first.click()
    else:
        raise AssertionError("no long nardy move was made")
    page.close()
    assert problems == []


def test_the_sound_toggle_is_remembered_and_reduced_motion_respected(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    context = browser.new_context(viewport={"width": 375, "height": 812}, reduced_motion="reduce")
    context.add_init_script(COUNT_ANIMATIONS)
    page = context.new_page()
    problems = watch(page)
    page.goto(server.url + "/", wait_until="load")
    toggle = page.locator("#sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false", "off by default"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('backgammon.sound')") == "on"
    page.reload(wait_until="load")
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"
    box = page.locator("#sound-toggle").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 375, box
    # With reduced motion, steps are drawn without sliding.
    start_bot_match(page, server.url)
    for _ in range(3):
        page.wait_for_function(READY, timeout=30_000)
        if visible(page, "#do-roll"):
            page.locator("#do-roll").click()
            continue
        if visible(page, "#do-take"):
            page.locator("#do-take").click()
            continue
        break
    if page.locator("#board .place.movable").count():
        page.locator("#board .place.movable").first.click()
        page.locator("#board .place.target").first.click()
        assert page.locator("#do-undo").is_visible()
    assert page.evaluate("window.__animations") == 0
    page.locator("#sound-toggle").click()
    assert page.evaluate("localStorage.getItem('backgammon.sound')") == "off"
    context.close()
    assert problems == []
