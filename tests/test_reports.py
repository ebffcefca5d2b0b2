"""The suite's own plumbing: a failing test's report reaches the main process from a
parallel worker even when its message quotes text that UTF-8 cannot hold."""

from __future__ import annotations

import pytest
from execnet.gateway_base import dumps_internal

HALF_A_DIE = "throws \ud83c"  # the first half of a surrogate pair, as JavaScript may slice


def test_a_report_quoting_half_a_surrogate_pair_can_be_sent(request: pytest.FixtureRequest) -> None:
    report = pytest.TestReport(
        nodeid="tests/example.py::test_example",
        location=("tests/example.py", 1, "test_example"),
        keywords={},
        outcome="failed",
        longrepr=f"AssertionError: the page said {HALF_A_DIE!s}",
        when="call",
        sections=[("Captured stdout call", HALF_A_DIE)],
    )
    with pytest.raises(Exception, match="utf-8"):
        dumps_internal(HALF_A_DIE)  # what the worker's channel refuses
    data = request.config.hook.pytest_report_to_serializable(config=request.config, report=report)
    sent = dumps_internal(data)
    assert sent and "\\ud83c" in data["longrepr"] and data["outcome"] == "failed"
