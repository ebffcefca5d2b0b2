"""Our written .mat and SGF files are imported by GNU Backgammon itself, which reaches
the same final score (runs where /usr/games/gnubg is installed; CI installs it)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from backgammon.formats import read_match, write_match
from tests.reference import REFERENCE

GNUBG = Path("/usr/games/gnubg")


@pytest.mark.skipif(not GNUBG.exists(), reason="needs Debian's gnubg (CI installs it)")
@pytest.mark.parametrize("stem", ["match01_3pt", "match03_5pt"])
def test_gnubg_imports_what_we_write(stem: str, tmp_path: Path) -> None:
    record = read_match(REFERENCE / "formats" / f"{stem}.mat")
    write_match(record, tmp_path / "ours.mat")
    write_match(record, tmp_path / "ours.sgf")
    commands = tmp_path / "commands.txt"
    commands.write_text(
        f"import mat {tmp_path / 'ours.mat'}\nshow score\n"
        f"load match {tmp_path / 'ours.sgf'}\nshow score\n"
    )
    done = subprocess.run(
        [str(GNUBG), "-t", "-q", "-r", "-c", str(commands)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    scores = re.findall(r"The score \(after (\d+) games?\) is: \S+ (\d+), \S+ (\d+)", done.stdout)
    assert len(scores) == 2, done.stdout[-2000:]
    expected = (str(len(record.games) - 1), *map(str, record.games[-1].score_before))
    final = tuple(map(str, record.score))
    for games, first, second in scores:
        # gnubg reports the score before the last game while that game's end is shown,
        # or the final score once it is over: either way it must be one of ours.
        assert (games, first, second) in (expected, (str(len(record.games)), *final))
