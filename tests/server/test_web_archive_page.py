"""The archive page (``backgammon archive ... --html``) in Debian's headless Chromium:
it loads with nothing going wrong, its three plots are drawn on screen with a mark per
match, and its missed positions show boards. A screenshot is kept in /tmp."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from backgammon.analysis import analyze_match
from backgammon.analysis.archive import player_archive
from backgammon.analysis.archive_report import write_archive_html
from backgammon.formats import read_match
from tests.reference import FORMATS

from .browser import needs_chromium, watch

pytestmark = needs_chromium


def test_the_archive_page_draws_its_plots(browser: Any, tmp_path: Path) -> None:
    analysed = []
    for name in ("match02_3pt.mat", "match01_3pt.sgf"):
        record = read_match(FORMATS / name)
        analysed.append((name, record, analyze_match(record, processes=1)))
    page_path = tmp_path / "archive.html"
    write_archive_html(player_archive("gnubg", analysed), page_path)
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    problems = watch(page)
    page.goto(page_path.as_uri())
    for plot, marks in (
        ("svg.error-rate-plot", "circle.match"),
        ("svg.luck-plot", "rect.match"),
    ):
        box = page.locator(plot).bounding_box()
        assert box is not None and box["width"] > 400 and box["height"] > 100
        assert page.locator(f"{plot} {marks}").count() == 2
    assert page.locator("svg.kinds-plot rect.kind").count() >= 4
    assert page.locator("h1").inner_text() == "gnubg: 2 matches"
    assert page.locator("p.missed").count() >= 1
    screenshot = tmp_path / "archive.png"  # the run's own folder: any user may run it
    page.screenshot(path=str(screenshot), full_page=True)
    assert screenshot.stat().st_size > 20_000
    assert problems == []
