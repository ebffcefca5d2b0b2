"""The review's study mode in a real browser (headless Chromium against a real
``backgammon serve``, issue 56 item 4): a player's errors asked again one by one,
the board as they met it and the choices; the verdict and the explanation only after
the answer; the score; axe finds nothing. And its pure helpers
(``server/web/studyview.js``) under Node's test runner."""

from __future__ import annotations

from typing import Any

import pytest

from .browser import needs_chromium, watch
from .node import needs_node, run_node_tests
from .test_web_accessibility import axe_violations
from .test_web_review_explanations import reviewed


@needs_node
def test_study_helpers_under_node() -> None:
    run_node_tests("studyview.test.mjs", {})


@pytest.fixture
def backend() -> str:
    """SQLite only (the server's own tests cover PostgreSQL)."""
    return "sqlite"


def _best(error: dict[str, Any]) -> str:
    """The right answer's choice id: the best play, or the right cube action."""
    if error["kind"] == "checker":
        return str(error["options"][0]["play"])
    if error["action"] in ("double", "no double"):
        return "double" if error["should_double"] else "no double"
    return "take" if error["should_take"] else "pass"


@needs_chromium
def test_a_players_errors_are_asked_again_and_explained_after_the_answer(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    problems = watch(page)
    result = reviewed(page, server.url)
    by_player: dict[str, list[dict[str, Any]]] = {}
    for move in result["moves"]:
        if move["mark"]:
            by_player.setdefault(move["player"], []).append(move)
    player, deck = max(by_player.items(), key=lambda item: len(item[1]))
    assert page.locator("#review-study-card").is_visible()
    page.locator("#study-player").select_option(player)
    page.locator("#study-start").click()
    first = deck[0]
    prompt = page.locator("#study-prompt").text_content() or ""
    assert prompt.startswith(f"Game {first['game']}, move {first['move']}: {player}"), prompt
    assert page.locator("#study-result").is_hidden()  # nothing said before the answer
    choices = page.locator("#study-choices button")
    ids = [choices.nth(i).get_attribute("data-choice") for i in range(choices.count())]
    assert _best(first) in ids and len(ids) >= 2, ids
    wrong = next(choice for choice in ids if choice != _best(first))
    page.locator(f"#study-choices button[data-choice='{wrong}']").click()
    assert (page.locator("#study-verdict").text_content() or "").startswith("Not quite")
    explained = first["explanation"]
    assert page.locator("#study-explanation-text").text_content() == explained["text"]
    assert page.locator("#study-explanation-themes li").count() == len(explained["themes"])
    assert page.locator("#study-score").text_content() == f"0 right of 1 ({len(deck)} to study)"
    assert axe_violations(page) == []
    page.locator("#study-next").click()
    second = deck[1] if len(deck) > 1 else deck[0]
    page.locator(f"#study-choices button[data-choice='{_best(second)}']").click()
    assert (page.locator("#study-verdict").text_content() or "").startswith("Right")
    assert page.locator("#study-score").text_content() == f"1 right of 2 ({len(deck)} to study)"
    page.close()
    assert problems == []
