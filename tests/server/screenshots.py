"""Photographs of every page of the web app, on a desktop and on a phone, for
docs/web.md. From the repository's root, with the test dependencies and Debian's
Chromium installed::

    python -m tests.server.screenshots [FOLDER]

starts ``backgammon serve`` on loopback with an empty SQLite database in a temporary
folder, fills it (:mod:`tests.server.showcase`), opens each page at 1280x800 and
375x740 and writes ``PAGE-desktop.png`` and ``PAGE-phone.png`` (256 colours) to
FOLDER (``docs/images/web`` by default). It takes a few minutes.
"""

from __future__ import annotations

import io
import sys
import tempfile
from pathlib import Path

from PIL import Image

from .browser import CHROMIUM
from .conftest import ServerProcess
from .showcase import PAGES, VIEWPORTS, fill

FOLDER = Path("docs/images/web")

# Where a page's picture is taken when its content is taller than the screen: the
# element scrolled to the top ("start") or the bottom ("end") of the window.
FOCUS = {
    ("review", "phone"): ("#review-result", "start"),
    ("review", "desktop"): ("#review-errors-card", "start"),
    ("position", "phone"): ("#position-context", "start"),
    ("position", "desktop"): ("#position-rollout-form", "end"),
    ("chouette", "phone"): ("#chouette-turn", "start"),
    ("play", "phone"): ("#match-view .board-column", "start"),
    ("chouette", "desktop"): ("#chouette-session", "start"),
}


def _small_png(png: bytes) -> bytes:
    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(256)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def photograph(url: str, folder: Path) -> list[Path]:
    """Fill the server at ``url`` and write a picture of each page at each size."""
    from playwright.sync_api import sync_playwright

    content = fill(url)
    written = []
    folder.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for size, viewport in VIEWPORTS.items():
            for name, open_page in PAGES.items():
                context = browser.new_context(viewport=viewport)
                page = context.new_page()
                open_page(page, content)
                if (name, size) in FOCUS:
                    selector, block = FOCUS[name, size]
                    page.locator(selector).evaluate(
                        f"(element) => element.scrollIntoView({{block: '{block}'}})"
                    )
                path = folder / f"{name}-{size}.png"
                path.write_bytes(_small_png(page.screenshot(animations="disabled")))
                written.append(path)
                context.close()
        browser.close()
    return written


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER
    with tempfile.TemporaryDirectory() as data:
        server = ServerProcess(Path(data), "", "--no-warm-up", "--bot-processes", "1")
        server.start()
        try:
            for path in photograph(server.url, folder):
                print(f"{path} ({path.stat().st_size // 1024} KB)")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
