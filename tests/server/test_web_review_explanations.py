"""The review page in a real browser (headless Chromium against a real ``backgammon
serve``): the selected error's explanation under its board (issue 56), the text and
each theme named; none for a good move; axe still finds nothing."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .browser import needs_chromium, watch
from .test_review import SHORT_MATCH
from .test_web_accessibility import axe_violations

pytestmark = needs_chromium


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (the server's own tests cover PostgreSQL)."""
    return "sqlite"


def reviewed(page: Any, url: str) -> dict[str, Any]:
    """Upload SHORT_MATCH on the review page, wait for its moves; the analysis' result
    as the server gives it."""
    page.goto(f"{url}/#/review", wait_until="load")
    files = [{"name": "short.mat", "mimeType": "text/plain", "buffer": SHORT_MATCH.encode()}]
    page.locator("#review-file").set_input_files(files=files)
    page.locator("#review-moves tbody tr").first.wait_for(timeout=120_000)
    report = page.locator("#review-report").get_attribute("href") or ""
    found: dict[str, Any] = httpx.get(f"{url}/api/analysis/{report.split('/')[3]}").json()
    return dict(found["result"])


def test_the_selected_errors_explanation_shows(server_factory: Any, browser: Any) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    problems = watch(page)
    result = reviewed(page, server.url)
    rows = page.locator("#review-moves tbody tr")
    box = page.locator("#review-explanation")
    for error in result["errors"]:
        rows.nth(error["index"]).click()
        assert box.is_visible()
        expected = error["explanation"]
        assert page.locator("#review-explanation-text").text_content() == expected["text"]
        items = page.locator("#review-explanation-themes li")
        assert items.count() == len(expected["themes"]) >= 1
        for i, theme in enumerate(expected["themes"]):
            assert items.nth(i).get_attribute("data-theme") == theme["id"]
            assert items.nth(i).text_content() == f"{theme['name']}: {theme['says']}"
    assert axe_violations(page) == []
    good = next(move for move in result["moves"] if not move["mark"])
    rows.nth(good["index"]).click()
    assert box.is_hidden()
    page.close()
    assert problems == []
