"""Tests for backgammon.notation.match_id: GNU Backgammon's Match ID codec."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon.errors import InvalidIdError
from backgammon.notation import match_id
from backgammon.notation.match_id import MatchIdFields, decode_match_id, encode_match_id
from tests.reference import format_positions, text_match_ids

BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
MAX15 = (1 << 15) - 1
POSITIONS = format_positions()
TEXT_MATCH_IDS = text_match_ids()

# The manual's worked example: 9-point match at 2-4, player 0 owns a 2-cube, player 1
# has rolled 52. It predates bit 67 (Jacoby off), so that bit is clear.
MANUAL_EXAMPLE = "QYkqASAAIAAA"
MANUAL_FIELDS = MatchIdFields(
    cube_log2=1,
    cube_owner=0,
    dice_owner=1,
    turn=1,
    dice=(5, 2),
    match_length=9,
    score0=2,
    score1=4,
    jacoby=True,
)

# An independent bit packer (test oracle): (name, width) in key order, then padding.
_RAW_LAYOUT = (
    ("cube_log2", 4),
    ("cube_owner", 2),
    ("dice_owner", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("double_offered", 1),
    ("resignation", 2),
    ("die1", 3),
    ("die2", 3),
    ("match_length", 15),
    ("score0", 15),
    ("score1", 15),
    ("no_jacoby", 1),
    ("padding", 5),
)


def raw_match_id(**values: int) -> str:
    """Pack raw field values (any that fit their width) into 12 Base64 characters."""
    defaults = {"cube_owner": 3, "game_state": 1, "no_jacoby": 1}
    bits = ""
    for name, width in _RAW_LAYOUT:
        value = values.get(name, defaults.get(name, 0))
        assert 0 <= value < 1 << width
        bits += format(value, f"0{width}b")[::-1]  # least significant bit first
    chars: list[str] = []
    for start in range(0, 72, 24):
        group = bits[start : start + 24]
        data = bytes(int(group[i : i + 8][::-1], 2) for i in range(0, 24, 8))
        number = int.from_bytes(data, "big")
        chars.extend(BASE64[(number >> shift) & 63] for shift in (18, 12, 6, 0))
    return "".join(chars)


@st.composite
def match_id_fields(draw: st.DrawFn) -> MatchIdFields:
    """Any valid MatchIdFields."""
    match_length = draw(st.sampled_from([0, 1, 3, 5, 7, 9, 25]) | st.integers(0, MAX15))
    game_state = draw(st.integers(0, 4))
    if game_state == 1 and match_length > 0:
        scores = st.integers(0, match_length - 1)
    else:
        scores = st.integers(0, MAX15)
    dice = draw(st.just((0, 0)) | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    return MatchIdFields(
        cube_log2=draw(st.integers(0, 15)),
        cube_owner=draw(st.sampled_from([0, 1, 3])),
        dice_owner=draw(st.integers(0, 1)),
        crawford=draw(st.booleans()) if match_length else False,
        game_state=game_state,
        turn=draw(st.integers(0, 1)),
        double_offered=draw(st.booleans()),
        resignation=draw(st.integers(0, 3)),
        dice=dice,
        match_length=match_length,
        score0=draw(scores),
        score1=draw(scores),
        jacoby=draw(st.booleans()),
    )


def assert_decodes_consistently(text: object) -> None:
    """Decoding gives InvalidIdError, or fields that re-encode to the stripped text."""
    try:
        fields = decode_match_id(text)  # type: ignore[arg-type]
    except InvalidIdError:
        return
    assert isinstance(text, str)
    assert encode_match_id(fields) == text.strip()


# --- worked examples and reference data -------------------------------------------


def test_manual_worked_example_encodes() -> None:
    assert encode_match_id(MANUAL_FIELDS) == MANUAL_EXAMPLE


def test_manual_worked_example_decodes() -> None:
    assert decode_match_id(MANUAL_EXAMPLE) == MANUAL_FIELDS


def test_gnubg_107_sets_the_jacoby_off_bit() -> None:
    fields = decode_match_id("QYkqASAAIAAE")
    assert fields.jacoby is False
    assert fields == MatchIdFields(
        cube_log2=1,
        cube_owner=0,
        dice_owner=1,
        turn=1,
        dice=(5, 2),
        match_length=9,
        score0=2,
        score1=4,
    )


def test_surrounding_whitespace_is_ignored() -> None:
    assert decode_match_id(f"  {MANUAL_EXAMPLE}\n") == MANUAL_FIELDS


def test_default_fields_are_a_fresh_money_game() -> None:
    fields = MatchIdFields()
    assert (fields.cube_log2, fields.cube_owner, fields.game_state) == (0, 3, 1)
    assert fields.dice == (0, 0)
    assert encode_match_id(fields) == "MAEAAAAAAAAE"


@pytest.mark.parametrize("entry", POSITIONS, ids=[entry["name"] for entry in POSITIONS])
def test_reference_positions_round_trip(entry: dict[str, Any]) -> None:
    ids = {
        entry["match_id"],
        entry["match_id_ours"],
        entry["gnubg_id"].split(":")[1],
        entry["xgid_imported_by_gnubg_as"]["match_id"],
    }
    for text in ids:
        assert encode_match_id(decode_match_id(text)) == text


@pytest.mark.parametrize("entry", POSITIONS, ids=[entry["name"] for entry in POSITIONS])
def test_reference_positions_fields(entry: dict[str, Any]) -> None:
    """GNU Backgammon's player 1 is on roll in every entry; ``state`` lists only changes."""
    fields = decode_match_id(entry["match_id"])
    state = entry["state"]
    on_roll_score, opponent_score = state.get("score", (0, 0))
    owner = {None: 3, 1: 1, -1: 0}[state.get("owner_rel")]
    assert fields.dice_owner == 1
    assert fields.game_state == 1
    assert fields.cube_log2 == state.get("cube", 1).bit_length() - 1
    assert fields.cube_owner == owner
    assert fields.dice == tuple(state.get("dice", (0, 0)))
    assert fields.match_length == state.get("match_length", 0)
    assert (fields.score1, fields.score0) == (on_roll_score, opponent_score)
    assert fields.crawford == state.get("crawford", False)
    assert fields.double_offered == state.get("doubled", False)
    assert fields.turn == (0 if state.get("doubled") else 1)
    assert fields.jacoby is False


def test_every_match_id_in_the_reference_text_exports_round_trips() -> None:
    assert len(TEXT_MATCH_IDS) > 100
    for text in TEXT_MATCH_IDS:
        fields = decode_match_id(text)
        assert encode_match_id(fields) == text
        assert fields.dice[0] >= fields.dice[1]  # GNU Backgammon writes the higher die first


# --- rejections ---------------------------------------------------------------------


def test_raw_oracle_agrees_with_the_encoder() -> None:
    assert raw_match_id() == encode_match_id(MatchIdFields())
    assert (
        raw_match_id(
            cube_log2=1,
            cube_owner=0,
            dice_owner=1,
            turn=1,
            die1=5,
            die2=2,
            match_length=9,
            score0=2,
            score1=4,
            no_jacoby=0,
        )
        == MANUAL_EXAMPLE
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "expected 12"),
        ("QYkqASAAIAA", "expected 12"),
        ("QYkqASAAIAAAA", "expected 12"),
        ("QYkqASAAIA=A", "Base64"),
        ("QYkq ASAAIAA", "Base64"),
        ("QYkqASAAIAA-", "Base64"),
        ("QYkqASAAIAA\u00e9", "Base64"),
        ("QYkqASAAIAA=", "Base64"),
        (raw_match_id(padding=1), "padding"),
        (raw_match_id(padding=16), "padding"),
        ("QYkqASAAIAAI", "padding"),
        ("QYkqASAAIABA", "padding"),
        (raw_match_id(cube_owner=2), "cube_owner"),
        (raw_match_id(game_state=5), "game_state"),
        (raw_match_id(game_state=7), "game_state"),
        (raw_match_id(die1=7, die2=1), "die"),
        (raw_match_id(die1=3, die2=7), "die"),
        (raw_match_id(die1=3), "both rolled"),
        (raw_match_id(die2=6), "both rolled"),
        (raw_match_id(match_length=5, score0=5), "already ends"),
        (raw_match_id(match_length=5, score1=9), "already ends"),
        (raw_match_id(crawford=1), "Crawford"),
    ],
)
def test_malformed_ids_are_rejected(text: str, problem: str) -> None:
    with pytest.raises(InvalidIdError, match=problem) as info:
        decode_match_id(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(
    "text",
    [
        raw_match_id(match_length=5, score0=5, game_state=2),  # the match just ended
        raw_match_id(match_length=3, score1=6, game_state=3),  # a gammon on a 2-cube
        raw_match_id(match_length=5, score0=5, game_state=4),
        raw_match_id(match_length=5, score0=9, game_state=0),  # no game: not checked
        raw_match_id(score0=MAX15, score1=MAX15),  # money: scores not checked
        raw_match_id(die1=2, die2=5),  # lower die first: kept as written
        raw_match_id(double_offered=1, die1=3, die2=1),  # odd but representable
    ],
)
def test_representable_oddities_are_accepted(text: str) -> None:
    assert encode_match_id(decode_match_id(text)) == text


def test_non_string_is_rejected() -> None:
    with pytest.raises(InvalidIdError, match="string"):
        decode_match_id(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"cube_log2": 16}, "cube_log2"),
        ({"cube_log2": -1}, "cube_log2"),
        ({"cube_owner": 2}, "cube_owner"),
        ({"cube_owner": 4}, "cube_owner"),
        ({"dice_owner": 2}, "dice_owner"),
        ({"game_state": 5}, "game_state"),
        ({"turn": -1}, "turn"),
        ({"resignation": 4}, "resignation"),
        ({"dice": (7, 1)}, "die"),
        ({"dice": (0, 3)}, "both rolled"),
        ({"dice": (1, 2, 3)}, "two ints"),
        ({"dice": [1, 2]}, "two ints"),
        ({"match_length": MAX15 + 1}, "match_length"),
        ({"score0": -1}, "score0"),
        ({"score1": MAX15 + 1}, "score1"),
        ({"crawford": 1}, "crawford"),
        ({"jacoby": None}, "jacoby"),
        ({"crawford": True}, "Crawford"),
        ({"match_length": 7, "score0": 7}, "already ends"),
        ({"turn": 1.0}, "turn"),
    ],
)
def test_bad_fields_are_rejected_by_the_constructor(changes: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        MatchIdFields(**changes)


# --- properties ---------------------------------------------------------------------


@given(match_id_fields())
def test_round_trip_from_fields(fields: MatchIdFields) -> None:
    text = encode_match_id(fields)
    assert len(text) == 12
    assert set(text) <= set(BASE64)
    assert decode_match_id(text) == fields


@given(match_id_fields())
def test_encoder_agrees_with_the_raw_oracle(fields: MatchIdFields) -> None:
    expected = raw_match_id(
        cube_log2=fields.cube_log2,
        cube_owner=fields.cube_owner,
        dice_owner=fields.dice_owner,
        crawford=int(fields.crawford),
        game_state=fields.game_state,
        turn=fields.turn,
        double_offered=int(fields.double_offered),
        resignation=fields.resignation,
        die1=fields.dice[0],
        die2=fields.dice[1],
        match_length=fields.match_length,
        score0=fields.score0,
        score1=fields.score1,
        no_jacoby=int(not fields.jacoby),
    )
    assert encode_match_id(fields) == expected


@given(st.text())
def test_arbitrary_text_gives_only_invalid_id_error(text: str) -> None:
    assert_decodes_consistently(text)


@given(st.text(alphabet=BASE64, min_size=12, max_size=12))
def test_arbitrary_base64_gives_only_invalid_id_error(text: str) -> None:
    assert_decodes_consistently(text)


@given(st.binary(max_size=16))
def test_arbitrary_bytes_give_only_invalid_id_error(data: bytes) -> None:
    assert_decodes_consistently(data)
    assert_decodes_consistently(data.decode("latin-1"))


@st.composite
def near_misses(draw: st.DrawFn) -> str:
    """A valid Match ID with one character replaced, deleted, inserted or swapped."""
    valid = draw(
        st.sampled_from([MANUAL_EXAMPLE, *TEXT_MATCH_IDS[:40]])
        | match_id_fields().map(encode_match_id)
    )
    index = draw(st.integers(0, len(valid) - 1))
    char = draw(st.sampled_from(BASE64) | st.characters())
    kind = draw(st.sampled_from(["replace", "delete", "insert", "swap"]))
    if kind == "replace":
        return valid[:index] + char + valid[index + 1 :]
    if kind == "delete":
        return valid[:index] + valid[index + 1 :]
    if kind == "insert":
        return valid[:index] + char + valid[index:]
    other = draw(st.integers(0, len(valid) - 1))
    chars = list(valid)
    chars[index], chars[other] = chars[other], chars[index]
    return "".join(chars)


@given(near_misses())
def test_near_misses_give_only_invalid_id_error(text: str) -> None:
    assert_decodes_consistently(text)


def test_module_imports_nothing_from_the_package_but_errors() -> None:
    assert match_id.__file__ is not None
    tree = ast.parse(Path(match_id.__file__).read_text())
    imported = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module is not None
    } | {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    assert {name for name in imported if name.startswith("backgammon")} == {"backgammon.errors"}
