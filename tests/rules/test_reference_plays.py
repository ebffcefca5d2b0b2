"""Legal plays and notation against GNU Backgammon's reference records."""

from __future__ import annotations

import pytest

from backgammon import Play, Position
from tests.reference import move_records, position_of


def test_reference_file_is_there() -> None:
    assert len(move_records()) == 3000


def test_position_ids_match_reference() -> None:
    for record in move_records():
        position = position_of(record["position"])
        assert position.position_id == record["position_id"], record["id"]
        assert Position.from_position_id(record["position_id"]) == position


def test_legal_play_sets_match_reference() -> None:
    mismatches = []
    for record in move_records():
        position = position_of(record["position"])
        plays = position.legal_plays(tuple(record["dice"]))
        ours = {play.position for play in plays}
        theirs = {position_of(play["result"], "mover") for play in record["plays"]}
        if ours != theirs or len(ours) != len(plays):
            mismatches.append(record["id"])
    assert not mismatches, f"{len(mismatches)} records differ, e.g. {mismatches[:5]}"


def test_result_ids_match_reference() -> None:
    for record in move_records()[:500]:
        position = position_of(record["position"])
        by_id = {play.position.position_id: play for play in position.legal_plays(record["dice"])}
        for reference_play in record["plays"]:
            play = by_id[reference_play["result_id"]]
            assert play.position.flip().position_id == reference_play["result_id_next"]


def test_gnubg_move_strings_parse_to_their_results() -> None:
    for record in move_records():
        position = position_of(record["position"])
        dice = tuple(record["dice"])
        for reference_play in record["plays"]:
            play = Play.parse(reference_play["move"], position, dice)
            assert play.position.position_id == reference_play["result_id"], (
                record["id"],
                reference_play["move"],
            )


def test_canonical_strings_parse_back_to_the_same_play() -> None:
    for record in move_records():
        position = position_of(record["position"])
        dice = tuple(record["dice"])
        for play in position.legal_plays(dice):
            assert Play.parse(str(play), position, dice) == play, (record["id"], str(play))


def test_canonical_strings_equal_gnubg() -> None:
    """Our canonical string is GNU Backgammon's for every play in the file (56,159)."""
    differ = []
    total = 0
    for record in move_records():
        position = position_of(record["position"])
        dice = tuple(record["dice"])
        ours = {play.position.position_id: str(play) for play in position.legal_plays(dice)}
        for reference_play in record["plays"]:
            total += 1
            if ours[reference_play["result_id"]] != reference_play["move"]:
                differ.append((record["id"], reference_play["move"]))
    assert total == 56159
    assert not differ, f"{len(differ)} strings differ, e.g. {differ[:5]}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [("no_move_other", 0), ("dance", 0)],
)
def test_no_move_records_give_empty_lists(source: str, expected: int) -> None:
    records = [r for r in move_records() if r["source"] == f"edge:{source}"]
    assert records
    for record in records:
        position = position_of(record["position"])
        assert len(position.legal_plays(record["dice"])) == expected
