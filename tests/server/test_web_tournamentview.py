"""The tournaments page's words and form (``server/web/tournamentview.js``), by Node's
test runner."""

from __future__ import annotations

from .node import needs_node, run_node_tests


@needs_node
def test_tournament_view_logic_under_node() -> None:
    run_node_tests("tournamentview.test.mjs", {})
