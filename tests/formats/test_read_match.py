"""The public entry points: read_match / write_match on every reference file, both
ways, and the command line's convert and show."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from backgammon import MatchFileError, Play
from backgammon.apps.cli import app
from backgammon.formats import read_match, write_match
from tests.reference import REFERENCE

FILES = sorted((REFERENCE / "formats").glob("match0*.mat")) + sorted(
    (REFERENCE / "formats").glob("match0*.sgf")
)


def signature(record: object) -> list[tuple[object, ...]]:
    """What a round trip must keep: scores, who did what, and where each play led (a
    .mat file does not keep the order of a turn's steps)."""
    games = record.games  # type: ignore[attr-defined]
    return [
        (
            game.score_before,
            game.score_after,
            tuple(
                (
                    entry.player,
                    entry.action.position if isinstance(entry.action, Play) else entry.action,
                )
                for entry in game.entries
            ),
        )
        for game in games
    ]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_reference_file_reads_and_round_trips_both_ways(path: Path, tmp_path: Path) -> None:
    record = read_match(path)
    assert record.length in (3, 5)
    assert record.games[0].score_before == (0, 0)
    for before, after in zip(record.games, record.games[1:], strict=False):
        assert after.score_before == before.score_after
    assert max(record.games[-1].score_after) >= record.length
    for suffix in (".mat", ".sgf"):
        target = tmp_path / f"copy{suffix}"
        write_match(record, target)
        again = read_match(target)
        assert again.length == record.length
        assert signature(again) == signature(record)


def test_mat_and_sgf_of_the_same_match_agree() -> None:
    for stem in ("match01_3pt", "match02_3pt", "match03_5pt"):
        mat = read_match(REFERENCE / "formats" / f"{stem}.mat")
        sgf = read_match(REFERENCE / "formats" / f"{stem}.sgf")
        assert [g.score_after for g in mat.games] == [g.score_after for g in sgf.games]
        assert mat.players == sgf.players


def test_errors_are_match_file_errors(tmp_path: Path) -> None:
    with pytest.raises(MatchFileError, match="cannot read"):
        read_match(tmp_path / "missing.mat")
    binary = tmp_path / "binary.mat"
    binary.write_bytes(b"\x00\x01\x02 3 point match")
    with pytest.raises(MatchFileError, match="not a text file"):
        read_match(binary)
    with pytest.raises(ValueError, match=r"by the extension, \.mat, \.sgf or \.ogxm"):
        write_match(read_match(FILES[0]), tmp_path / "out.txt")


@given(st.binary(max_size=300))
@settings(max_examples=150, deadline=None)
def test_garbage_bytes_raise_only_match_file_errors(data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        for suffix in (".mat", ".sgf"):
            path = Path(folder) / f"garbage{suffix}"
            path.write_bytes(data)
            try:
                read_match(path)
            except MatchFileError as error:
                assert str(path) in str(error)


def test_convert_and_show_commands(tmp_path: Path) -> None:
    source = REFERENCE / "formats" / "match01_3pt.mat"
    target = tmp_path / "converted.sgf"
    result = CliRunner().invoke(app, ["convert", str(source), str(target)])
    assert result.exit_code == 0, result.output
    assert read_match(target).games[-1].score_after == read_match(source).games[-1].score_after
    shown = CliRunner().invoke(app, ["show", str(source), "--game", "2", "--move", "5"])
    assert shown.exit_code == 0, shown.output
    assert "Game 2" in shown.output and "BAR" in shown.output
    listing = CliRunner().invoke(app, ["show", str(target)])
    assert listing.exit_code == 0
    assert "wins" in listing.output
    bad = tmp_path / "bad.mat"
    bad.write_text(" 3 point match\n\n Game 1\n a : 0  b : 0\n  1) 31: 24/1\n")
    failed = CliRunner().invoke(app, ["convert", str(bad), str(tmp_path / "x.sgf")])
    assert failed.exit_code == 2
    assert "bad.mat" in failed.output


RESIGNED_AT_ONCE = """ 3 point match

 Game 1
 ann : 0                              bob : 0
  1)                                   Wins 1 point

 Game 2
 ann : 0                              bob : 1
  1) 31: 8/5 6/5                      42: 8/4 6/4
  2)                                   Wins 2 points
"""


def test_a_resignation_before_the_opening_roll_is_read_and_kept_in_every_format(
    tmp_path: Path,
) -> None:
    """Game 1 ends before anyone rolled (ann resigns; eXtreme Gammon and servers write
    such games): it was refused as 'the game has not started'. It reads, and .mat,
    SGF and OGXM files written from it read back the same."""
    from backgammon.formats import read_match_text, write_match_text
    from backgammon.rules.cube import AcceptResignation, Resign

    record = read_match_text(RESIGNED_AT_ONCE, "mat")
    first = record.games[0]
    assert [type(entry.action) for entry in first.entries] == [Resign, AcceptResignation]
    assert first.entries[0].action.player == 0 and first.score_after == (0, 1)
    assert record.games[1].score_after == (0, 3)
    for kind in ("mat", "sgf"):
        again = read_match_text(write_match_text(record, kind), kind)
        assert signature(again) == signature(record), kind
    path = tmp_path / "resigned.ogxm"
    write_match(record, path)
    assert signature(read_match(path)) == signature(record)
