"""The tests run the checkout they belong to: in this process and in the processes
they start, ``backgammon`` is imported from this checkout's ``src``, even where the
environment has another checkout installed (see the root conftest.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import backgammon

SOURCE = Path(__file__).resolve().parents[1] / "src"


def test_this_process_imports_this_checkout() -> None:
    assert Path(backgammon.__file__).resolve().is_relative_to(SOURCE)


def test_a_started_process_imports_this_checkout() -> None:
    probe = "import backgammon; print(backgammon.__file__)"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert Path(done.stdout.strip()).resolve().is_relative_to(SOURCE), done.stdout
