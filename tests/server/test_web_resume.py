"""What a reload mid-turn keeps (``server/web/resume.js``), by Node's test runner."""

from __future__ import annotations

from .node import needs_node, run_node_tests


@needs_node
def test_resume_logic_under_node() -> None:
    run_node_tests("resume.test.mjs", {})
