"""Match files at the command line, as a new player types them: the mistakes (a wrong
name, a folder, an empty, cut-short or unwritable file) get a one-line error naming the
problem, and a converted match reports its score as the match ended."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from backgammon.apps.cli import app

REAL = Path(__file__).parents[1] / "data"
XG = REAL / "xg" / "gammonview" / "XCu3RJ0UvDg_Tldl.xg"
OGXM = REAL / "ogxm" / "gammonview" / "match.ogxm"
XG_FREE_MATCH = REAL / "reference" / "formats" / "match01_3pt.mat"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_a_converted_match_reports_the_score_it_ended_on(tmp_path: Path) -> None:
    code, out, _ = _run("convert", str(XG), str(tmp_path / "x.mat"))
    assert code == 0 and out.strip().endswith("2 games, final score 0-5"), out
    resigned = REAL / "ogxm" / "gammonview" / "resign.ogxm"
    code, out, _ = _run("convert", str(resigned), str(tmp_path / "r.mat"))
    assert code == 0 and "1 game, final score" in out, out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("show", "/nowhere/match.xg"), "/nowhere/match.xg: cannot read the file"),
        (("show", "{folder}"), "cannot read the file"),
        (("convert", str(XG), "/nowhere/out.sgf"), "/nowhere/out.sgf: the folder /nowhere does"),
        (("convert", "{folder}/x.mat", "{folder}/../{name}/x.mat"), "x.mat is the file read"),
        (("convert", str(XG), "{folder}/out.txt"), "the format is chosen by the extension"),
        (("analyze", "{folder}/nothing", "--processes", "1"), "holds no match file (.mat, .sgf"),
        (("convert", "{folder}/empty.ogxm", "{folder}/x.mat"), "the file is empty (0 bytes)"),
        (("convert", "{folder}/cut.ogxm", "{folder}/x.mat"), "cut short or damaged"),
        (("convert", "{folder}/cut.xg", "{folder}/x.mat"), "cut short or damaged"),
    ],
)
def test_mistakes_get_a_one_line_error(args: tuple[str, ...], message: str, tmp_path: Path) -> None:
    (tmp_path / "nothing").mkdir()
    (tmp_path / "empty.ogxm").write_bytes(b"")
    (tmp_path / "cut.ogxm").write_bytes(OGXM.read_bytes()[:100])
    (tmp_path / "cut.xg").write_bytes(XG.read_bytes()[:30_000])
    (tmp_path / "x.mat").write_text(XG_FREE_MATCH.read_text())
    code, out, err = _run(*(arg.format(folder=tmp_path, name=tmp_path.name) for arg in args))
    assert code == 2, (out, err)
    assert message in err and "Traceback" not in err + out, err
    assert len(err.strip().splitlines()) == 1, err
