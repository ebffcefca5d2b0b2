"""Running the web client's ``*.test.mjs`` files with Node's test runner, fed fixtures
the Python side makes (through environment variables)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "backgammon" / "server" / "web"
NODE = shutil.which("node")

needs_node = pytest.mark.skipif(NODE is None, reason="needs Node.js (`node`)")
"""Mark a test that runs Node."""


def run_node_tests(test_file: str, fixtures: dict[str, str]) -> None:
    """Run ``web/test_file`` with ``node --test`` and the ``fixtures`` in its
    environment; fail unless every test passed and none was skipped (a test skips
    itself when its fixture is missing)."""
    assert NODE is not None
    finished = subprocess.run(
        [NODE, "--test", str(WEB / test_file)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **fixtures},
        check=False,
    )
    output = finished.stdout + finished.stderr
    assert finished.returncode == 0, output[-6000:]
    assert "# fail 0" in output and "# skipped 0" in output, output[-3000:]
