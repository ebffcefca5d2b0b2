"""The repository's copy of GNU Backgammon's reference records is whole, so the tests
that compare with it run on a fresh clone (a missing file would otherwise show up only
as empty parameter lists)."""

from __future__ import annotations

from tests.reference import (
    FORMATS,
    eval_records,
    format_positions,
    move_records,
    text_match_ids,
)


def test_the_records_are_in_the_repository() -> None:
    assert len(move_records()) == 3000
    assert len(eval_records()) == 2000
    assert len(format_positions()) == 8
    assert len(text_match_ids()) > 100


def test_the_three_matches_are_there_in_both_formats() -> None:
    stems = ("match01_3pt", "match02_3pt", "match03_5pt")
    assert sorted(path.name for path in FORMATS.glob("*.mat")) == [f"{s}.mat" for s in stems]
    assert sorted(path.name for path in FORMATS.glob("*.sgf")) == sorted(
        [f"{s}.sgf" for s in stems] + ["match03_5pt_analysed.sgf"]
    )
