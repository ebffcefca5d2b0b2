"""Every page of the web app, with content that stretches it (names as long as allowed,
a played match, a review, a rollout), opened in Debian's headless Chromium at a phone's
width (375 px) and a desktop's (1280 px), measured: no page scrolls sideways, axe-core
finds nothing on any page at either size, and on the phone no target (link, button,
field, the match's and the chouette's points) is under 32 pixels either way.

A table wider than a phone scrolls inside its own box (whose edges show that it
does); nothing else may stick out of the window or be cut, and on a desktop nothing
is cut or scrolls sideways (no table loses columns).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from .browser import chromium, needs_chromium, small_targets, watch
from .conftest import ServerProcess
from .showcase import PAGES, VIEWPORTS, fill
from .test_web_accessibility import axe_violations

pytestmark = needs_chromium

# The page's width against the window's, and every shown element whose box sticks
# out of the window unless a box around it clips or scrolls it (a table's own
# scrolling box, a name cut with an ellipsis).
MEASURE = """() => {
  const width = document.documentElement.clientWidth;
  const clipped = (element) => {
    for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
      if (getComputedStyle(box).overflowX !== "visible") return true;
    }
    return false;
  };
  const name = (element) => element.tagName.toLowerCase()
    + (element.id ? "#" + element.id : "")
    + (typeof element.className === "string" && element.className
       ? "." + element.className.trim().split(/\\s+/).join(".") : "");
  const out = [];
  for (const element of document.body.querySelectorAll("*")) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if ((box.right > width + 0.5 || box.left < -0.5) && !clipped(element)) {
      const parent = element.parentElement;
      if (parent && out.some((line) => line.element === parent)) continue;
      const span = `${Math.round(box.left)}..${Math.round(box.right)}`;
      out.push({ element, line: `${name(element)} spans ${span}` });
    }
  }
  // Boxes that cut their content sideways or scroll it: none on a desktop; on a phone
  // only a table's own box (.table-scroll, whose edges show that it scrolls).
  const cut = [];
  for (const element of document.body.querySelectorAll("*")) {
    if (["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName)) continue;
    if (getComputedStyle(element).overflowX === "visible") continue;
    if (element.scrollWidth <= element.clientWidth + 1 || element.clientWidth === 0) continue;
    if (width < 600 && element.classList.contains("table-scroll")) continue;
    if (element.closest(".visually-hidden")) continue; // for screen readers: clipped on purpose
    cut.push(`${name(element)} shows ${element.clientWidth} of ${element.scrollWidth} px`);
  }
  return {
    cut: cut.slice(0, 8),
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    outside: out.map((o) => o.line).slice(0, 8),
  };
}"""


TARGET_PAGES = (
    "login",
    "lobby",
    "play",
    "player",
    "chouettes",
    "chouette",
    "tournaments",
    "tournament",
)
"""The pages whose every target is measured on a phone: all but the review's and the
position tool's, whose boards are pictures (the position's editor aside)."""


@dataclass
class Findings:
    """What is wrong on the pages, one line each."""

    overflowing: list[str] = field(default_factory=list)
    inaccessible: list[str] = field(default_factory=list)
    small: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium, through Playwright, for the module."""
    yield from chromium()


def _examine(page: Any, name: str, size: str, findings: Findings) -> None:
    """Measure the page as it is open now and run axe-core on it."""
    measured = page.evaluate(MEASURE)
    assert measured["innerWidth"] == VIEWPORTS[size]["width"]
    wide = measured["scrollWidth"] > measured["innerWidth"]
    if wide or measured["outside"] or measured["cut"]:
        findings.overflowing.append(f"{name} at {size}: {measured}")
    findings.inaccessible += [f"{name} at {size}: {line}" for line in axe_violations(page)]
    if size == "phone" and name in TARGET_PAGES:
        if name == "lobby":  # the header's settings, open
            page.locator("#prefs summary").click()
        findings.small += [f"{name}: {line}" for line in small_targets(page)]


@pytest.fixture(scope="module")
def findings(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Findings]:
    """Every page at both sizes, examined once for the module's tests (SQLite)."""
    server = ServerProcess(
        tmp_path_factory.mktemp("layout"), "", "--no-warm-up", "--bot-processes", "1"
    )
    server.start()
    try:
        content = fill(server.url)
        found = Findings()
        for size, viewport in VIEWPORTS.items():
            for name, open_page in PAGES.items():
                context = browser.new_context(viewport=viewport)
                page = context.new_page()
                problems = watch(page)
                open_page(page, content)
                _examine(page, name, size, found)
                assert problems == [], (name, size, problems)
                context.close()
        yield found
    finally:
        server.stop()


def test_no_page_scrolls_sideways_on_a_phone_or_a_desktop(findings: Findings) -> None:
    assert findings.overflowing == [], "\n".join(findings.overflowing)


def test_axe_finds_no_violation_on_any_page_on_a_phone_or_a_desktop(findings: Findings) -> None:
    """Before: the review's move list scrolled with nothing in it to focus (axe's
    scrollable-region-focusable), and the pages were checked on a desktop only."""
    assert findings.inaccessible == [], "\n".join(findings.inaccessible)


def test_no_target_under_32_pixels_on_a_phone(findings: Findings) -> None:
    """Before: the match's points were 23 px wide (their numbers 3 x 5 px), the header's
    links, Lobby, the rated checkbox and the names' links under 32 px high, and the
    tournament pages' links and form too."""
    assert findings.small == [], "\n".join(findings.small)
