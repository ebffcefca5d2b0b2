"""The board in words for screen readers (``server/web/boardwords.js``), by Node's
test runner."""

from __future__ import annotations

from .node import needs_node, run_node_tests


@needs_node
def test_board_words_under_node() -> None:
    run_node_tests("boardwords.test.mjs", {})
