"""Tests for backgammon.notation.fibs_board: the FIBS CLIP ``board:`` line codec."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon.errors import InvalidIdError
from backgammon.notation import fibs_board
from backgammon.notation.fibs_board import (
    FibsBoardFields,
    decode_fibs_board,
    encode_fibs_board,
    fibs_board_to_sides,
    sides_to_fibs_board,
)
from backgammon.notation.match_id import decode_match_id
from tests.reference import format_positions

POSITIONS = format_positions()

START_SIDE = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)

# The example of the FIBS Client Protocol specification (anchors.md 5.1): the player
# is O (colour 1) moving 24 -> 1 (direction -1), at the start, having rolled 62.
SPEC_EXAMPLE = (
    "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:"
    "1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0"
)

# A real FIBS line (quoted in the fibsboard.com thread "How to write a client", spaces
# after the colons removed): the player is X (colour -1) moving 1 -> 24 (direction 1).
FIBS_X_EXAMPLE = (
    "board:mpgnu:buster:17:0:2:0:0:0:2:1:4:3:0:1:0:1:0:0:2:0:0:0:0:0:1:-2:-2:-1:-4:-4:0:"
    "-1:3:6:0:0:1:1:1:0:-1:1:25:0:2:0:0:0:2:2:0:0"
)


def side(counts: dict[int, int]) -> tuple[int, ...]:
    """25 counts from ``{point: checkers}`` (point 25 = bar)."""
    slots = [0] * 25
    for point, count in counts.items():
        slots[point - 1] = count
    return tuple(slots)


def assert_decodes_consistently(text: object) -> None:
    """Decoding gives InvalidIdError, or fields that re-encode to the stripped text."""
    try:
        fields = decode_fibs_board(text)  # type: ignore[arg-type]
    except InvalidIdError:
        return
    assert isinstance(text, str)
    assert encode_fibs_board(fields) == text.strip()


@st.composite
def two_sides(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(player, opponent) in their own numbering, never both on one point."""
    player = [0] * 25
    opponent = [0] * 25
    for point in range(1, 25):
        owner = draw(st.sampled_from(["none", "player", "opponent"]))
        if owner == "player":
            player[point - 1] = draw(st.integers(1, 15))
        elif owner == "opponent":
            opponent[24 - point] = draw(st.integers(1, 15))
    player[24] = draw(st.integers(0, 15))
    opponent[24] = draw(st.integers(0, 15))
    return tuple(player), tuple(opponent)


names = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters=":", exclude_categories=["C"]),
    min_size=1,
    max_size=12,
).filter(str.isprintable)
dice_pairs = st.just((0, 0)) | st.tuples(st.integers(1, 6), st.integers(1, 6))
counts = st.integers(0, 20) | st.integers(0, 999_999_999)
scores = st.integers(0, 20) | st.integers(0, 32_767)


@st.composite
def fibs_fields(draw: st.DrawFn) -> FibsBoardFields:
    """Any valid FibsBoardFields (the board from two non-clashing sides)."""
    colour = draw(st.sampled_from([-1, 1]))
    direction = draw(st.sampled_from([-1, 1]))
    player, opponent = draw(two_sides())
    return FibsBoardFields(
        player_name=draw(names),
        opponent_name=draw(names),
        match_length=draw(st.sampled_from([0, 1, 5, 9999]) | scores),
        player_score=draw(scores),
        opponent_score=draw(scores),
        board=sides_to_fibs_board(player, opponent, colour, direction),
        turn=draw(st.sampled_from([-1, 0, 1])),
        player_dice=draw(dice_pairs),
        opponent_dice=draw(dice_pairs),
        cube=draw(st.sampled_from([1, 2, 4, 64]) | st.integers(0, 15).map(lambda n: 1 << n)),
        player_may_double=draw(st.booleans()),
        opponent_may_double=draw(st.booleans()),
        was_doubled=draw(st.sampled_from([-1, 0, 1])),
        colour=colour,
        direction=direction,
        home=0 if direction == -1 else 25,
        bar=25 if direction == -1 else 0,
        player_off=draw(counts),
        opponent_off=draw(counts),
        player_on_bar=draw(counts),
        opponent_on_bar=draw(counts),
        can_move=draw(st.integers(0, 4)),
        forced_move=draw(counts),
        did_crawford=draw(counts),
        redoubles=draw(counts),
    )


# --- examples and reference data ----------------------------------------------------


def test_spec_example() -> None:
    fields = decode_fibs_board(SPEC_EXAMPLE)
    assert (fields.player_name, fields.opponent_name) == ("You", "someplayer")
    assert (fields.match_length, fields.player_score, fields.opponent_score) == (3, 0, 0)
    assert fields.turn == 1
    assert (fields.player_dice, fields.opponent_dice) == ((6, 2), (0, 0))
    assert fields.cube == 1
    assert fields.player_may_double and fields.opponent_may_double
    assert fields.was_doubled == 0
    assert (fields.colour, fields.direction, fields.home, fields.bar) == (1, -1, 0, 25)
    assert fields.can_move == 2
    assert fibs_board_to_sides(fields.board, fields.colour, fields.direction) == (
        START_SIDE,
        START_SIDE,
    )
    assert encode_fibs_board(fields) == SPEC_EXAMPLE


def test_direction_one_example_from_fibs() -> None:
    fields = decode_fibs_board(FIBS_X_EXAMPLE)
    assert (fields.colour, fields.direction, fields.home, fields.bar) == (-1, 1, 25, 0)
    player, opponent = fibs_board_to_sides(fields.board, fields.colour, fields.direction)
    # X moves 1 -> 24, so its own 1-point is index 24; O's own point p is index p.
    assert player == side({1: 4, 2: 4, 3: 1, 4: 2, 5: 2})
    assert opponent == side({3: 2, 4: 1, 5: 4, 6: 3, 8: 1, 10: 1, 13: 2, 19: 1})
    assert sum(player) + fields.player_off == 15
    assert sum(opponent) + fields.opponent_off == 15
    assert sides_to_fibs_board(player, opponent, -1, 1) == fields.board
    assert encode_fibs_board(fields) == FIBS_X_EXAMPLE


def test_line_ending_is_ignored() -> None:
    assert decode_fibs_board(SPEC_EXAMPLE + "\r\n") == decode_fibs_board(SPEC_EXAMPLE)


@pytest.mark.parametrize("entry", POSITIONS, ids=[entry["name"] for entry in POSITIONS])
def test_reference_positions(entry: dict[str, Any]) -> None:
    """GNU Backgammon writes the line for the side on roll as O moving 24 -> 1."""
    text = entry["fibs_board"]
    fields = decode_fibs_board(text)
    assert encode_fibs_board(fields) == text
    assert (fields.colour, fields.direction, fields.home, fields.bar) == (1, -1, 0, 25)
    on_roll, opponent = entry["position"]["on_roll"], entry["position"]["opponent"]
    player_side, opponent_side = fibs_board_to_sides(fields.board, fields.colour, fields.direction)
    assert player_side == (*on_roll["points"], on_roll["bar"])
    assert opponent_side == (*opponent["points"], opponent["bar"])
    assert (fields.player_off, fields.opponent_off) == (on_roll["off"], opponent["off"])
    assert sides_to_fibs_board(player_side, opponent_side, 1, -1) == fields.board
    # gnubg leaves the on-bar fields at 0 even with checkers on the bar.
    assert (fields.player_on_bar, fields.opponent_on_bar) == (0, 0)


@pytest.mark.parametrize("entry", POSITIONS, ids=[entry["name"] for entry in POSITIONS])
def test_reference_positions_agree_with_the_match_id(entry: dict[str, Any]) -> None:
    """The player is GNU Backgammon's player 1 (on roll), the opponent player 0."""
    fields = decode_fibs_board(entry["fibs_board"])
    # positions.json notes that gnubg does not keep a pending double when set up.
    match = decode_match_id(entry["xgid_imported_by_gnubg_as"]["match_id"])
    assert fields.match_length == match.match_length
    assert (fields.player_score, fields.opponent_score) == (match.score1, match.score0)
    assert fields.cube == 1 << match.cube_log2
    assert fields.player_dice == match.dice
    assert fields.opponent_dice == match.dice  # gnubg writes the roll into both pairs
    assert fields.turn == fields.colour
    assert fields.was_doubled == int(match.double_offered)
    # gnubg derives may-double from cube ownership only (even in the Crawford game).
    assert fields.player_may_double == (match.cube_owner in (1, 3))
    assert fields.opponent_may_double == (match.cube_owner in (0, 3))


# --- rejections ---------------------------------------------------------------------


def _with_field(index: int, value: str) -> str:
    parts = SPEC_EXAMPLE.split(":")
    parts[index] = value
    return ":".join(parts)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "start with 'board:'"),
        ("board", "52 ':'-separated fields"),
        ("Board" + SPEC_EXAMPLE[5:], "start with 'board:'"),
        ("boards" + SPEC_EXAMPLE[5:], "start with 'board:'"),
        (SPEC_EXAMPLE[6:], "start with 'board:'"),
        (SPEC_EXAMPLE + ":0", "52 ':'-separated fields"),
        (SPEC_EXAMPLE.rsplit(":", 1)[0], "52 ':'-separated fields"),
        (SPEC_EXAMPLE.replace(":", ": "), "field 3"),
        (_with_field(3, " 3"), "field 3"),
        (_with_field(3, "x"), "field 3"),
        (_with_field(3, ""), "field 3"),
        (_with_field(3, "+3"), "field 3"),
        (_with_field(3, "03"), "field 3"),
        (_with_field(6, "-0"), "field 6"),
        (_with_field(6, "1.5"), "field 6"),
        (_with_field(6, "1" * 10), "field 6"),
        (_with_field(1, ""), "player_name"),
        (_with_field(2, ""), "opponent_name"),
        (_with_field(2, "a\tb"), "opponent_name"),
        (_with_field(3, "-1"), "match_length"),
        (_with_field(4, "-1"), "player_score"),
        (_with_field(32, "2"), "turn"),
        (_with_field(33, "7"), "die"),
        (_with_field(33, "0"), "both rolled"),
        (_with_field(35, "3"), "both rolled"),
        (_with_field(37, "0"), "cube"),
        (_with_field(37, "3"), "cube must be a power of two"),
        (_with_field(37, "65536"), "cube must be in 1..32768"),
        (_with_field(37, str(1 << 29)), "cube must be in 1..32768"),
        (_with_field(37, "999999999"), "cube"),
        (_with_field(3, "32768"), "match_length must be in 0..32767"),
        (_with_field(3, "999999999"), "match_length"),
        (_with_field(4, "32768"), "player_score must be in 0..32767"),
        (_with_field(5, "999999999"), "opponent_score"),
        (_with_field(38, "2"), "may double"),
        (_with_field(39, "-1"), "may double"),
        (_with_field(40, "2"), "was_doubled"),
        (_with_field(41, "0"), "colour"),
        (_with_field(42, "2"), "direction"),
        (_with_field(43, "1"), "home"),
        (_with_field(44, "24"), "bar"),
        (_with_field(45, "-1"), "player_off"),
        (_with_field(48, "-2"), "opponent_on_bar"),
        (_with_field(49, "5"), "can_move"),
        (_with_field(50, "-1"), "forced_move"),
        (_with_field(51, "-1"), "did_crawford"),
        (_with_field(52, "-1"), "redoubles"),
    ],
)
def test_malformed_lines_are_rejected(text: str, problem: str) -> None:
    with pytest.raises(InvalidIdError, match=problem) as info:
        decode_fibs_board(text)
    assert repr(text) in str(info.value)


def test_non_string_is_rejected() -> None:
    with pytest.raises(InvalidIdError, match="string"):
        decode_fibs_board(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"player_name": "a:b"}, "player_name"),
        ({"opponent_name": "x\ny"}, "opponent_name"),
        ({"board": (0,) * 25}, "26 ints"),
        ({"board": [0] * 26}, "26 ints"),
        ({"player_dice": (1, 2, 3)}, "two ints"),
        ({"cube": 0}, "cube"),
        ({"cube": 6}, "power of two"),
        ({"cube": 1 << 16}, "cube"),
        ({"match_length": 1 << 15}, "match_length"),
        ({"opponent_score": 1 << 15}, "opponent_score"),
        ({"player_may_double": 1}, "player_may_double"),
        ({"colour": True}, "colour"),
        ({"can_move": -1}, "can_move"),
    ],
)
def test_bad_fields_are_rejected_by_the_constructor(changes: dict[str, Any], problem: str) -> None:
    fields = decode_fibs_board(SPEC_EXAMPLE)
    with pytest.raises(ValueError, match=problem):
        replace(fields, **changes)


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        (((0,) * 25, 1, -1), "26 numbers"),
        (((0,) * 26, 0, -1), "colour"),
        (((0,) * 26, 1, 0), "direction"),
        (((0,) * 25 + (-1,), 1, -1), "bar"),  # the player's (O's) bar holds an X checker
        (((2,) + (0,) * 25, 1, -1), "bar"),  # the opponent's bar holds an O checker
        (((1,) + (0,) * 25, -1, 1), "bar"),  # direction 1: the player's bar is index 0
    ],
)
def test_board_to_sides_rejects(arguments: tuple[tuple[int, ...], int, int], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        fibs_board_to_sides(*arguments)


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ((START_SIDE[:24], START_SIDE, 1, -1), "player needs 25"),
        ((START_SIDE, (*START_SIDE, 0), 1, -1), "opponent needs 25"),
        ((side({3: -1}), START_SIDE, 1, -1), "player count"),
        ((START_SIDE, START_SIDE, 2, -1), "colour"),
        ((START_SIDE, START_SIDE, 1, 1.0), "direction"),
        ((side({6: 1}), side({19: 1}), 1, -1), "both sides hold"),
        ((side({6: 1}), side({19: 1}), -1, 1), "both sides hold"),
    ],
)
def test_sides_to_board_rejects(arguments: tuple[Any, ...], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        sides_to_fibs_board(*arguments)


@pytest.mark.parametrize(("colour", "direction"), [(1, -1), (1, 1), (-1, -1), (-1, 1)])
def test_bars_and_orientation(colour: int, direction: int) -> None:
    player = side({1: 1, 24: 2, 25: 3})
    opponent = side({2: 4, 25: 5})
    board = sides_to_fibs_board(player, opponent, colour, direction)
    player_bar, opponent_bar = (25, 0) if direction == -1 else (0, 25)
    assert board[player_bar] == 3 * colour
    assert board[opponent_bar] == -5 * colour
    player_one_point = 1 if direction == -1 else 24
    assert board[player_one_point] == colour
    assert board[25 - player_one_point] == 2 * colour  # the player's 24 is across the board
    assert board[25 - (2 if direction == -1 else 23)] == -4 * colour
    assert fibs_board_to_sides(board, colour, direction) == (player, opponent)


# --- properties ---------------------------------------------------------------------


@given(fibs_fields())
def test_round_trip_from_fields(fields: FibsBoardFields) -> None:
    text = encode_fibs_board(fields)
    assert text.startswith("board:")
    assert len(text.split(":")) == 53
    assert decode_fibs_board(text) == fields


@given(two_sides(), st.sampled_from([-1, 1]), st.sampled_from([-1, 1]))
def test_sides_round_trip(
    sides: tuple[tuple[int, ...], tuple[int, ...]], colour: int, direction: int
) -> None:
    board = sides_to_fibs_board(*sides, colour, direction)
    assert len(board) == 26
    assert fibs_board_to_sides(board, colour, direction) == sides
    # Mirroring both colour and direction keeps the sides and negates the board only
    # in sign, and flipping the direction reverses the board.
    assert sides_to_fibs_board(*sides, -colour, direction) == tuple(-n for n in board)
    assert sides_to_fibs_board(*sides, colour, -direction) == board[::-1]


@given(
    st.lists(st.integers(-15, 15), min_size=24, max_size=24),
    st.integers(0, 15),
    st.integers(0, 15),
    st.sampled_from([-1, 1]),
    st.sampled_from([-1, 1]),
)
def test_board_round_trip(
    points: list[int], player_bar: int, opponent_bar: int, colour: int, direction: int
) -> None:
    board = [0, *points, 0]
    board[25 if direction == -1 else 0] = player_bar * colour
    board[0 if direction == -1 else 25] = -opponent_bar * colour
    player, opponent = fibs_board_to_sides(board, colour, direction)
    assert sides_to_fibs_board(player, opponent, colour, direction) == tuple(board)


@given(st.text())
def test_arbitrary_text_gives_only_invalid_id_error(text: str) -> None:
    assert_decodes_consistently(text)
    assert_decodes_consistently("board:" + text)


@given(st.lists(st.text(alphabet="-0123456789x", max_size=3), min_size=50, max_size=54))
def test_board_shaped_text_gives_only_invalid_id_error(parts: list[str]) -> None:
    assert_decodes_consistently(":".join(["board", "a", "b", *parts]))


@st.composite
def near_misses(draw: st.DrawFn) -> str:
    """A valid line with one field replaced, deleted or duplicated, or one char changed."""
    valid = draw(
        st.sampled_from([SPEC_EXAMPLE, FIBS_X_EXAMPLE, *(e["fibs_board"] for e in POSITIONS)])
        | fibs_fields().map(encode_fibs_board)
    )
    parts = valid.split(":")
    index = draw(st.integers(0, len(parts) - 1))
    kind = draw(st.sampled_from(["field", "delete", "duplicate", "char"]))
    if kind == "field":
        parts[index] = draw(st.sampled_from(["-1", "0", "2", "7", "25", "99", "", "x"]) | st.text())
    elif kind == "delete":
        del parts[index]
    elif kind == "duplicate":
        parts.insert(index, parts[index])
    else:
        position = draw(st.integers(0, len(valid) - 1))
        char = draw(st.sampled_from(":-0123456789 ") | st.characters())
        return valid[:position] + char + valid[position + 1 :]
    return ":".join(parts)


@given(near_misses())
def test_near_misses_give_only_invalid_id_error(text: str) -> None:
    assert_decodes_consistently(text)


def test_module_imports_nothing_from_the_package_but_errors() -> None:
    assert fibs_board.__file__ is not None
    tree = ast.parse(Path(fibs_board.__file__).read_text())
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


def test_position_from_fibs_board_matches_reference_positions() -> None:

    from backgammon import Position

    entries = format_positions()
    for entry in entries:
        expected = Position.from_position_id(entry["position_id"])
        assert Position.from_fibs_board(entry["fibs_board"]) == expected, entry["name"]
