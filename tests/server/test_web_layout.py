"""No page of the web app scrolls sideways: every page, with content that stretches it
(names as long as allowed, a played match, a review, a rollout), opened in Debian's
headless Chromium at a phone's width (375 px) and a desktop's (1280 px), measured. The
chouette and tournament pages are also checked with axe-core here.

A table wider than a phone scrolls inside its own box (whose edges show that it
does); nothing else may stick out of the window or be cut, and on a desktop nothing
is cut or scrolls sideways (no table loses columns).
"""

from __future__ import annotations

from typing import Any

import pytest

from .browser import needs_chromium, watch
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


CLUB_PAGES = ("chouettes", "chouette", "tournaments", "tournament")
"""The pages outside the app's own (test_web_accessibility covers those): axe-core
checks them here, where they are open with their content."""


@pytest.fixture
def backend() -> str:
    """These tests run on SQLite only (the server's own tests cover PostgreSQL)."""
    return "sqlite"


def test_no_page_scrolls_sideways_on_a_phone_or_a_desktop(
    server_factory: Any, browser: Any
) -> None:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    content = fill(server.url)
    overflowing = []
    inaccessible = []
    for size, viewport in VIEWPORTS.items():
        for name, open_page in PAGES.items():
            context = browser.new_context(viewport=viewport)
            page = context.new_page()
            problems = watch(page)
            open_page(page, content)
            measured = page.evaluate(MEASURE)
            assert measured["innerWidth"] == viewport["width"]
            wide = measured["scrollWidth"] > measured["innerWidth"]
            if wide or measured["outside"] or measured["cut"]:
                overflowing.append(f"{name} at {size}: {measured}")
            if name in CLUB_PAGES and size == "desktop":
                inaccessible += [f"{name}: {line}" for line in axe_violations(page)]
            assert problems == [], (name, size, problems)
            context.close()
    assert overflowing == [], "\n".join(overflowing)
    assert inaccessible == [], "\n".join(inaccessible)
