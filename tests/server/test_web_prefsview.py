"""The preferences, time-control presets and share links of the web client
(``server/web/prefs.js``, ``clocks.js``, ``share.js``), by Node's test runner."""

from __future__ import annotations

import pytest

from .node import needs_node, run_node_tests


@needs_node
@pytest.mark.parametrize("test_file", ["prefs.test.mjs", "clocks.test.mjs", "share.test.mjs"])
def test_preference_logic_under_node(test_file: str) -> None:
    run_node_tests(test_file, {})
