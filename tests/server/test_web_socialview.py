"""The social side's words and bookkeeping (``server/web/socialview.js``), by Node's
test runner."""

from __future__ import annotations

from .node import needs_node, run_node_tests


@needs_node
def test_social_view_logic_under_node() -> None:
    run_node_tests("socialview.test.mjs", {})
