"""A command that needs the engine says what it is doing while the kernels compile
(a fresh install's first run), and says nothing once they are cached."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the command line as a subprocess


def test_hint_says_it_is_compiling_only_the_first_time(tmp_path: Path) -> None:
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    command = [sys.executable, "-m", "backgammon", "hint", "4HPwATDgc/ABMA", "--roll", "3-1"]
    first = subprocess.run(
        command, capture_output=True, text=True, env=environment, check=True, timeout=600
    )
    assert "backgammon: compiling move generation (1/3) (first run only)" in first.stderr
    assert "8/5 6/5" in first.stdout
    second = subprocess.run(
        command, capture_output=True, text=True, env=environment, check=True, timeout=600
    )
    assert "compiling" not in second.stderr
    assert second.stdout == first.stdout
