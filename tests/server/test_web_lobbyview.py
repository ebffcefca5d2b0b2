"""The lobby's words (``server/web/lobbyview.js``), by Node's test runner."""

from __future__ import annotations

from .node import needs_node, run_node_tests


@needs_node
def test_lobby_view_logic_under_node() -> None:
    run_node_tests("lobbyview.test.mjs", {})
