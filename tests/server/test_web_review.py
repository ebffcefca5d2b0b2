"""The review page in a real browser (Debian's headless Chromium against a real
``backgammon serve``): a match played on the server opened for review from its result
panel and from the player page, every move listed, the board, the alternatives, the
plot, the keyboard, the lookahead and the report; an unfinished match refused.

Every test fails on anything unexpected in the browser's console, an uncaught error in
the page, a failed request or an HTTP error answer.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from backgammon.formats import read_match_text

from ..formats.test_ogxm_signatures import signed
from ..formats.xg_files import xg_of
from .browser import needs_chromium, watch
from .test_review import SHORT_MATCH, played_match

REAL_XG = Path(__file__).parents[1] / "data" / "xg" / "gammonview"

pytestmark = needs_chromium

BOARD = "() => document.querySelector('#review-board').innerHTML"


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (the server's own tests cover PostgreSQL)."""
    return "sqlite"


def _played(url: str, entries: int = 30, *, finish: bool = True) -> str:
    # Playwright's sync API runs an event loop in this thread: use another one.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(played_match, url, entries, finish=finish).result()


def _selected(page: Any) -> int:
    return int(page.locator("#review-board").get_attribute("data-move"))


def test_a_finished_match_is_reviewed_move_by_move(server_factory: Any, browser: Any) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    # Random plays on the server's own dice: 60 entries make it all but certain that
    # one checker play is not an error (30 left none in one run in many).
    match_id = _played(server.url, 60)
    state = httpx.get(f"{server.url}/api/matches/{match_id}").json()
    assert state["result"] is not None

    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    problems = watch(page)
    page.goto(server.url + "/", wait_until="load")
    page.get_by_role("button", name="Play as guest").click()
    page.wait_for_selector("#lobby-view:not([hidden])")
    # The finished match's result panel links to its review.
    page.evaluate(f"location.hash = '#/match/{match_id}'")
    link = page.locator("#review-match")
    link.wait_for(state="visible", timeout=30_000)
    assert link.get_attribute("href") == f"#/review/{match_id}"
    link.click()
    assert page.evaluate("location.hash") == f"#/review/{match_id}"
    page.locator("#review-progress").wait_for(state="visible", timeout=30_000)
    assert page.locator("#review-file-label").is_hidden()
    assert match_id in (page.locator("#review-source").text_content() or "")
    page.locator("#review-moves tbody tr").first.wait_for(timeout=120_000)
    progress = page.locator("#review-progress")
    assert progress.get_attribute("value") == progress.get_attribute("max") != "0"
    assert "at 0-ply" in (page.locator("#review-progress-text").text_content() or "")

    # Every move is listed (not only the errors), the errors coloured by mark; the plot
    # has a point per move in each panel.
    report = page.locator("#review-report")
    job = (report.get_attribute("href") or "").split("/")[3]
    result = httpx.get(f"{server.url}/api/analysis/{job}").json()["result"]
    moves, errors = result["moves"], result["errors"]
    rows = page.locator("#review-moves tbody tr")
    assert rows.count() == len(moves) > len(errors) > 0
    for move in moves:
        row = rows.nth(move["index"])
        if move["mark"]:
            assert f"mark-{move['mark'].replace(' ', '-')}" in (row.get_attribute("class") or "")
        else:
            assert "mark-" not in (row.get_attribute("class") or "")
    assert page.locator("#review-plot circle.win-point").count() == len(moves)
    assert page.locator("#review-plot circle.equity-point").count() == len(moves)
    assert page.locator("#review-plot circle.error.win-point").count() == len(errors)
    assert page.locator("#review-errors tbody tr").count() == len(errors)

    # The first error is shown, with its best play; a good play shows only the play made.
    first = errors[0]["index"]
    assert _selected(page) == first
    assert rows.nth(first).get_attribute("aria-selected") == "true"
    assert page.locator("#review-board").get_attribute("data-error") == "0"
    good = next(m for m in moves if m["kind"] == "checker" and not m["mark"] and m["played"])
    before = page.evaluate(BOARD)
    rows.nth(good["index"]).click()
    assert _selected(page) == good["index"]
    assert page.evaluate(BOARD) != before
    assert page.locator("#review-board").get_attribute("data-error") is None
    assert page.locator("#review-board line.arrow.played").count() >= 1
    assert page.locator("#review-board line.arrow.best").count() == 0
    note = page.locator("#review-note").text_content() or ""
    assert note.startswith(f"Game {good['game']}, move {good['move']}: {good['player']} rolled")
    # Its alternatives: the best plays ranked, the one played marked.
    alternatives = page.locator("#review-alternatives tbody tr")
    assert alternatives.count() == len(good["options"]) >= 1
    assert page.locator("#review-alternatives thead th").first.text_content() == "#"
    assert page.locator("#review-alternatives tr.played").count() == 1
    assert page.locator("#review-alternatives tr.best").count() == 1

    # The keyboard steps through the moves (j / k, the arrows).
    page.locator("#review-plot").hover()  # nothing focused that takes keys
    page.keyboard.press("j")
    assert _selected(page) == min(good["index"] + 1, len(moves) - 1)
    page.keyboard.press("k")
    assert _selected(page) == good["index"]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert _selected(page) == min(good["index"] + 2, len(moves) - 1)
    page.keyboard.press("Home")
    assert _selected(page) == 0
    assert rows.first.get_attribute("aria-selected") == "true"

    # A cube decision: the three equities and the right action.
    cube = next(m for m in moves if m["kind"] == "cube")
    rows.nth(cube["index"]).click()
    assert _selected(page) == cube["index"]
    cells = page.locator("#review-alternatives tbody tr td:first-child").all_text_contents()
    assert cells == ["No double", "Double, take", "Double, pass"]
    assert page.locator("#review-alternatives tr.best").count() == 1
    assert cube["cube_action"] in (page.locator("#review-alternatives-note").text_content() or "")
    assert page.locator("#review-board line.arrow").count() == 0

    # A point of the plot selects its move.
    last = len(moves) - 1
    page.locator(f"#review-plot circle.win-point[data-index='{last}']").click()
    assert _selected(page) == last
    assert page.locator("#review-plot .plot-cursor").count() == 1

    # The report, as the CLI writes it.
    answer = httpx.get(server.url + (report.get_attribute("href") or ""))
    assert answer.status_code == 200
    assert answer.text.startswith("<!DOCTYPE html>") and "analysed at 0-ply" in answer.text
    with page.expect_download() as download:
        report.click()
    assert download.value.suggested_filename.endswith(".html")

    # Another lookahead: analysed again.
    page.locator("#review-ply").select_option("1")
    page.wait_for_function(
        "() => (document.querySelector('#review-progress-text').textContent || '')"
        ".includes('at 1-ply') && !document.querySelector('#review-result').hidden",
        timeout=120_000,
    )
    assert page.locator("#review-moves tbody tr").count() == len(moves)

    # The player page's history links to the review too.
    name = state["players"][0]
    page.evaluate(f"location.hash = '#/player/{name}'")
    review = page.locator(f"#player-matches tr[data-match='{match_id}'] a.review-link")
    review.wait_for(timeout=30_000)
    assert review.get_attribute("href") == f"#/review/{match_id}"
    review.click()
    page.locator("#review-moves tbody tr").first.wait_for(timeout=120_000)
    page.close()
    assert problems == []


def test_an_unfinished_match_is_refused_clearly(server_factory: Any, browser: Any) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    match_id = _played(server.url, 6, finish=False)
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch(page)
    page.goto(f"{server.url}/#/review/{match_id}", wait_until="load")
    page.wait_for_function(
        "() => document.querySelector('#status').classList.contains('error')", timeout=30_000
    )
    assert "is not over" in (page.locator("#status").text_content() or "")
    assert page.locator("#review-result").is_hidden()
    assert page.locator("#review-progress-row").is_hidden()
    page.close()
    # The refusal itself is the only thing the watch saw (the answer and its console line).
    assert problems, problems
    assert all("409" in problem for problem in problems), problems
    assert any(problem == f"409: {server.url}/api/analysis" for problem in problems), problems


def _xg_file() -> bytes:
    return xg_of(read_match_text(SHORT_MATCH))


def _upload(page: Any, name: str, content: bytes) -> None:
    files = [{"name": name, "mimeType": "application/octet-stream", "buffer": content}]
    page.locator("#review-file").set_input_files(files=files)


@pytest.mark.parametrize(
    ("name", "options"),
    [("short.xg", 1), ("B4_SrGcsKAQmoTyHlgJCbM.xg", 4)],
    ids=["built by the tests", "saved by XG itself"],
)
def test_an_uploaded_xg_file_shows_xgs_equities_next_to_ours(
    server_factory: Any, browser: Any, name: str, options: int
) -> None:
    """The tests' own XG file, and a real money session saved by eXtreme Gammon
    (tests/data/xg/README.md): on a move XG analysed, its equities beside ours."""
    content = _xg_file() if name == "short.xg" else (REAL_XG / name).read_bytes()
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    problems = watch(page)
    page.goto(f"{server.url}/#/review", wait_until="load")
    _upload(page, name, content)
    page.locator("#review-moves tbody tr").first.wait_for(timeout=120_000)
    report = page.locator("#review-report").get_attribute("href") or ""
    result = httpx.get(f"{server.url}/api/analysis/{report.split('/')[3]}").json()["result"]
    move = next(
        m
        for m in result["moves"]
        if m["kind"] == "checker"
        and not m["forced"]
        and len(m["file_analysis"]["options"]) >= options
    )
    page.locator("#review-moves tbody tr").nth(move["index"]).click()
    head = page.locator("#review-alternatives thead th").all_text_contents()
    assert head[2] == "Equity" and head[-1] == "XG", head
    # Our equity and XG's in one row (the tests' writer gives XG's best play +0.100).
    xg_best = move["file_analysis"]["options"][0]
    if name == "short.xg":
        assert xg_best["equity"] == pytest.approx(0.1)
    rows = page.locator("#review-alternatives tbody tr")
    cells = [rows.nth(i).locator("td").all_text_contents() for i in range(rows.count())]
    shown = {row[1]: (row[2], row[-1]) for row in cells}
    assert shown[xg_best["play"]][1] == f"{xg_best['equity']:+.3f}", cells
    ours = move["options"][0]
    assert shown[ours["play"]][0] == f"{ours['equity']:+.3f}", cells
    note = page.locator("#review-alternatives-note").text_content() or ""
    assert f"XG: best {xg_best['play']} ({xg_best['equity']:+.3f})" in note, note
    page.close()
    assert problems == []


def test_an_ogxm_upload_shows_whether_its_signatures_hold(
    server_factory: Any, browser: Any
) -> None:
    """A signature that holds, one broken by renaming a player after signing, and a
    signer's name that is markup (shown as text)."""
    key = Ed25519PrivateKey.generate()
    hostile = '<img src=x onerror="document.title=1">club'
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    problems = watch(page)
    page.goto(f"{server.url}/#/review", wait_until="load")
    for name, content, verdict in [
        ("signed.ogxm", signed(key, key_id=hostile), "holds (integrity only"),
        ("renamed.ogxm", signed(key, rename="Mallory"), "DOES NOT HOLD"),
    ]:
        _upload(page, name, content)
        page.locator("#review-signatures li").first.wait_for(timeout=120_000)
        page.wait_for_function(
            "(verdict) => document.querySelector('#review-signatures').textContent"
            ".includes(verdict)",
            arg=verdict,
            timeout=120_000,
        )
        lines = page.locator("#review-signatures li").all_text_contents()
        assert len(lines) == 1 and lines[0].startswith("match signature 1 ("), lines
    assert page.locator("#review-signatures img").count() == 0
    _upload(page, "short.xg", _xg_file())
    page.wait_for_function("() => document.querySelector('#review-signatures-row').hidden")
    page.close()
    assert problems == []


def test_a_corrupt_or_oversized_xg_upload_is_refused_clearly(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch(page)
    page.goto(f"{server.url}/#/review", wait_until="load")
    _upload(page, "big.xg", bytes(1_000_001))
    assert "larger than 1 MB" in (page.locator("#status").text_content() or "")
    _upload(page, "broken.xg", _xg_file()[:400])
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('data:')",
        timeout=30_000,
    )
    assert page.locator("#status").evaluate("node => node.classList.contains('error')")
    assert page.locator("#review-result").is_hidden()
    page.close()
    # The refusal is the only thing the watch saw (the answer and its console line).
    assert problems and all("400" in problem for problem in problems), problems
