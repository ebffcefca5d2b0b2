"""Tests for backgammon.rules.position: the Position value and its codecs."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.errors import InvalidIdError, InvalidPositionError
from backgammon.notation.position_id import encode_position_id
from backgammon.rules.position import Position

START_ID = "4HPwATDgc/ABMA"
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
START_SIDE = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def side(points: dict[int, int], *, bar: int = 0, total: int = 15) -> list[int]:
    """26 slots from ``{point: checkers}``; the rest of ``total`` is borne off."""
    slots = [0] * 26
    for point, count in points.items():
        slots[point] = count
    slots[25] = bar
    slots[0] = total - sum(slots[1:])
    return slots


def asymmetric() -> Position:
    """A contact position with a checker on each bar and some borne off."""
    return Position(
        side({24: 1, 13: 4, 8: 2, 6: 4, 3: 2}, bar=1),
        side({20: 2, 13: 3, 6: 5, 5: 2}, bar=1),
    )


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Random valid positions: up to 15 checkers a side spread over the points, the bar
    and off, never both sides on one point."""
    player = [0] * 26
    for slot in draw(st.lists(st.integers(1, 25), max_size=15)):
        player[slot] += 1
    player[0] = 15 - sum(player[1:])
    # The opponent's point p is the player's point 25 - p; the bars never clash.
    free = [p for p in range(1, 26) if p == 25 or not player[25 - p]]
    opponent = [0] * 26
    for slot in draw(st.lists(st.sampled_from(free), max_size=15)):
        opponent[slot] += 1
    opponent[0] = 15 - sum(opponent[1:])
    return Position(player, opponent)


# -- the initial position -------------------------------------------------------------


def test_initial_position() -> None:
    start = Position.initial()
    assert start.position_id == START_ID
    assert start.pip_counts() == (167, 167)
    assert start.player_checkers() == start.opponent_checkers() == 15
    assert start.player == START_SIDE
    assert start.opponent == START_SIDE
    assert not start.is_race()
    assert start.has_contact()
    assert not start.is_game_over()
    assert start.problems() == []
    start.validate()
    assert start == Position.from_position_id(START_ID)


def test_views_and_at() -> None:
    start = Position.initial()
    assert [start.at(p) for p in range(1, 25)] == [
        -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2,
    ]  # fmt: skip
    position = asymmetric()
    assert position.player_bar == 1
    assert position.opponent_bar == 1
    assert position.player_off == 1
    assert position.opponent_off == 2
    assert position.player[25] == position.player_bar
    assert position.opponent[0] == position.opponent_off
    assert position.at(24) == 1
    assert position.at(5) == -2  # the opponent's 20-point
    assert position.at(20) == -2  # the opponent's 5-point
    assert position.at(12) == -3  # the opponent's 13-point
    assert position.at(1) == 0
    for bad in (0, 25, -1):
        with pytest.raises(ValueError, match=str(bad)):
            position.at(bad)


def test_flip_swaps_the_sides_and_twice_is_identity() -> None:
    position = asymmetric()
    flipped = position.flip()
    assert flipped != position
    assert flipped.flip() == position
    assert flipped.player == position.opponent
    assert flipped.opponent == position.player
    assert flipped.pip_counts() == position.pip_counts()[::-1]
    assert flipped.player_bar == position.opponent_bar
    assert flipped.player_off == position.opponent_off
    for point in range(1, 25):
        assert flipped.at(point) == -position.at(25 - point)


@settings(max_examples=150, deadline=None)
@given(positions())
def test_flip_on_random_positions(position: Position) -> None:
    assert position.flip().flip() == position
    assert position.flip().pip_counts() == position.pip_counts()[::-1]
    assert position.flip().is_race() == position.is_race()


# -- races, game over, problems ----------------------------------------------------------


def test_is_race() -> None:
    home = Position.from_points([3, 3, 3, 2, 2, 2, *[0] * 18], [2, 2, 2, 3, 3, 3, *[0] * 18])
    assert home.is_race()
    # Our back checker on 12 and theirs on their 12 (our 13) have passed each other.
    passed = Position.from_points([0] * 11 + [1] + [0] * 12, [0] * 11 + [1] + [0] * 12, checkers=1)
    assert passed.is_race()
    # Ours on 13 and theirs on their 13 (our 12) still face each other.
    facing = Position.from_points(
        [0] * 12 + [1] + [0] * 11,
        [0] * 12 + [1] + [0] * 11,
        checkers=1,
    )
    assert not facing.is_race()
    assert facing.has_contact()
    # A checker on the bar keeps contact while the other side has checkers on the board.
    on_bar = Position.from_points(
        [2, 2, 2, 3, 3, 2, *[0] * 18], [3, 3, 3, 2, 2, 2, *[0] * 18], player_bar=1
    )
    assert not on_bar.is_race()
    assert Position.initial().flip().has_contact()


def test_is_game_over() -> None:
    assert Position(side({}), side({6: 5})).is_game_over()
    assert Position(side({6: 5}), side({})).is_game_over()
    assert not Position(side({6: 5}), side({6: 5})).is_game_over()
    assert not Position(side({}, bar=1), side({6: 5})).is_game_over()


def test_problems_and_validate() -> None:
    assert asymmetric().problems() == []
    too_few = Position(side({6: 14}, total=14), side({6: 15}))
    found = too_few.problems()
    assert len(found) == 1
    assert "14 checkers" in found[0]
    with pytest.raises(InvalidPositionError, match="14 checkers"):
        too_few.validate()
    too_many = Position(side({6: 15}), side({6: 16}, total=16))
    assert any("16 checkers" in problem for problem in too_many.problems())
    finished = Position(side({}), side({}))
    assert finished.is_game_over()
    assert any("both sides" in problem for problem in finished.problems())
    with pytest.raises(InvalidPositionError, match="both sides"):
        finished.validate()


# -- the constructor and other builders ---------------------------------------------


def test_constructor_refuses_a_point_held_by_both_sides() -> None:
    player = side({6: 5, 13: 10})
    opponent = side({12: 2, 6: 13})  # their 12 is our 13
    before = (list(player), list(opponent))
    with pytest.raises(InvalidPositionError, match="13"):
        Position(player, opponent)
    assert (player, opponent) == before


@pytest.mark.parametrize(
    ("player", "opponent"),
    [
        (START_SIDE[:25], START_SIDE),
        (START_SIDE, (*START_SIDE, 0)),
        ((), ()),
        ((-1, *START_SIDE[1:]), START_SIDE),
        (START_SIDE, (*START_SIDE[:6], -5, *START_SIDE[7:])),
        ((256, *START_SIDE[1:]), START_SIDE),
        ((1.5, *START_SIDE[1:]), START_SIDE),
        (("1", *START_SIDE[1:]), START_SIDE),
        ((None, *START_SIDE[1:]), START_SIDE),
    ],
)
def test_constructor_refuses_malformed_sides(
    player: tuple[object, ...], opponent: tuple[object, ...]
) -> None:
    with pytest.raises(InvalidPositionError):
        Position(player, opponent)  # type: ignore[arg-type]


def test_from_points() -> None:
    points = [0] * 24
    points[5], points[7], points[12], points[23] = 5, 3, 5, 2
    assert Position.from_points(points, points) == Position.initial()
    built = Position.from_points(
        [2, *[0] * 23], [0, 0, 0, 0, 0, 4, *[0] * 18], player_bar=1, opponent_bar=2
    )
    assert built.player_off == 12
    assert built.opponent_off == 9
    assert built.player_bar == 1
    assert built.opponent_bar == 2
    assert Position.from_points([1, *[0] * 23], [0] * 24, checkers=3).player_off == 2
    with pytest.raises(InvalidPositionError, match="24"):
        Position.from_points([0] * 23, [0] * 24)
    with pytest.raises(InvalidPositionError, match="16"):
        Position.from_points([16, *[0] * 23], [0] * 24)
    with pytest.raises(InvalidPositionError, match="more than"):
        Position.from_points([15, *[0] * 23], [0] * 24, player_bar=1)


def test_from_slots_is_the_constructor() -> None:
    assert Position.from_slots(START_SIDE, START_SIDE) == Position.initial()


def test_array_round_trip() -> None:
    position = asymmetric()
    array = position.to_array()
    assert array.dtype == np.uint8
    assert array.shape == (52,)
    assert list(array) == [*position.player, *position.opponent]
    assert Position.from_array(array) == position
    assert Position.from_array(array.reshape(2, 26)) == position
    assert Position.from_array(array.astype(np.int64)) == position
    array[6] = 9  # a fresh copy: the position does not change
    assert Position.from_array(position.to_array()) == position
    assert list(position) == list(position.to_array())


def test_from_array_refuses_bad_arrays() -> None:
    with pytest.raises(InvalidPositionError, match="52"):
        Position.from_array(np.zeros(51, dtype=np.uint8))
    bad = Position.initial().to_array().astype(np.int64)
    bad[0] = -1
    with pytest.raises(InvalidPositionError):
        Position.from_array(bad)
    clash = np.zeros(52, dtype=np.int64)
    clash[1] = 1
    clash[26 + 24] = 1
    with pytest.raises(InvalidPositionError):
        Position.from_array(clash)


# -- value semantics --------------------------------------------------------------------


def test_repr_evaluates_back() -> None:
    start = Position.initial()
    assert repr(start) == f"Position.from_position_id({START_ID!r})"
    for position in (
        start,
        asymmetric(),
        asymmetric().flip(),
        Position(side({6: 3}, total=3), side({6: 3}, total=3)),
        Position(side({6: 15}), side({6: 3}, total=3)),
    ):
        assert eval(repr(position), {"Position": Position}) == position


@settings(max_examples=100, deadline=None)
@given(positions())
def test_repr_evaluates_back_on_random_positions(position: Position) -> None:
    assert eval(repr(position), {"Position": Position}) == position


def test_hash_and_equality() -> None:
    a, b = asymmetric(), asymmetric()
    assert a == b
    assert a is not b
    assert hash(a) == hash(b)
    assert len({a, b, Position.initial(), a.flip()}) == 3
    assert a != Position.initial()
    assert a != a.to_array().tolist()
    assert a.__eq__("x") is NotImplemented


def test_immutable() -> None:
    position = Position.initial()
    with pytest.raises(AttributeError):
        position._data = bytes(52)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        position.anything = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        del position._data
    assert position.position_id == START_ID


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_round_trip(protocol: int) -> None:
    for position in (Position.initial(), asymmetric()):
        copy = pickle.loads(pickle.dumps(position, protocol=protocol))
        assert copy == position
        assert hash(copy) == hash(position)


# -- the text diagram -----------------------------------------------------------------


def _board_marks(diagram: str) -> tuple[int, int]:
    """X and O marks drawn inside the frame (not the labels on the right)."""
    rows = [line[: line.rindex("|") + 1] for line in diagram.splitlines() if line.startswith(" |")]
    inside = "".join(rows)
    return inside.count("X"), inside.count("O")


def test_str_draws_every_checker_and_the_pips() -> None:
    text = str(Position.initial())
    assert _board_marks(text) == (15, 15)
    assert text.count("pips 167") == 2
    assert text.count("off 0") == 2
    position = asymmetric()
    text = str(position)
    on_board = (15 - position.player_off, 15 - position.opponent_off)
    assert _board_marks(text) == on_board
    player_pips, opponent_pips = position.pip_counts()
    assert f"off {position.player_off}, pips {player_pips}" in text
    assert f"off {position.opponent_off}, pips {opponent_pips}" in text


def test_str_shows_tall_stacks_with_a_count() -> None:
    position = Position(side({6: 9}), side({6: 5}))
    text = str(position)
    # Five rows: four marks and the count 9 in the fifth.
    assert _board_marks(text) == (4, 5)
    assert " 9 " in text


# -- XGID -------------------------------------------------------------------------------


def test_xgid_of_the_initial_position() -> None:
    assert Position.initial().xgid == START_XGID
    assert Position.from_xgid(START_XGID) == Position.initial()
    assert Position.from_xgid(START_XGID.removeprefix("XGID=")) == Position.initial()


def test_xgid_writes_the_side_on_roll_as_x_on_turn_one() -> None:
    position = asymmetric()
    fields = position.xgid.removeprefix("XGID=").split(":")
    assert fields[1:] == ["0", "0", "1", "00", "0", "0", "0", "0", "10"]
    board = fields[0]
    assert board[25] == "A"  # our checker on the bar, upper case
    assert board[0] == "a"  # theirs, lower case
    assert board[24] == "A"  # our 24-point
    assert board[5] == "b"  # their 20-point is our 5
    assert Position.from_xgid(position.xgid) == position
    assert Position.from_xgid(position.flip().xgid) == position.flip()


def test_xgid_with_the_top_player_on_roll() -> None:
    # X (bottom): 2 on its 1-point, 13 on its 6-point. O (top): 15 on its 1-point,
    # which is XG's point 24.
    board = "-B----M" + "-" * 17 + "o-"
    bottom_on_roll = Position.from_xgid(f"XGID={board}:0:0:1:00:0:0:0:0:10")
    assert bottom_on_roll.pip_counts() == (80, 15)
    assert bottom_on_roll.at(6) == 13
    assert bottom_on_roll.at(24) == -15
    top_on_roll = Position.from_xgid(f"XGID={board}:0:0:-1:52:0:0:0:0:10")
    assert top_on_roll == bottom_on_roll.flip()
    assert top_on_roll.pip_counts() == (15, 80)
    assert top_on_roll.at(1) == 15
    # Written back, the side on roll becomes X again.
    assert Position.from_xgid(top_on_roll.xgid) == top_on_roll


@settings(max_examples=150, deadline=None)
@given(positions())
def test_xgid_round_trip(position: Position) -> None:
    assert Position.from_xgid(position.xgid) == position
    fields = position.xgid.split(":")
    fields[3] = "-1"
    assert Position.from_xgid(":".join(fields)) == position.flip()


def test_from_xgid_errors() -> None:
    for bad in ("", "XGID=", "XGID=" + "-" * 26, START_XGID[:-3], START_XGID.replace("b", "!")):
        with pytest.raises(InvalidIdError):
            Position.from_xgid(bad)
    too_many = "-" * 6 + "P" + "-" * 19  # 16 of X's checkers on its 6-point
    with pytest.raises(InvalidIdError, match="16"):
        Position.from_xgid(f"XGID={too_many}:0:0:1:00:0:0:0:0:10")


# -- Position ID ------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(positions())
def test_position_id_round_trip(position: Position) -> None:
    position_id = position.position_id
    assert len(position_id) == 14
    assert Position.from_position_id(position_id) == position
    assert Position.from_position_id(f"  {position_id}\n") == position


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "4HPwATDgc/ABM",
        "4HPwATDgc/ABMAA",
        "4HPwATDgc/AB!A",
        "4HPwATDgc/AB A",
        "4HPwATDgc-ABMA",
        "4HPwATDgc/ABM=",
        "//////////////",
        "4HPwATDgc/ABMB",  # padding bits set in the last character
        "ÄHPwATDgc/ABMA",
    ],
)
def test_from_position_id_refuses_malformed_ids(bad: str) -> None:
    with pytest.raises(InvalidIdError):
        Position.from_position_id(bad)


def test_from_position_id_refuses_non_strings() -> None:
    with pytest.raises(InvalidIdError):
        Position.from_position_id(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidIdError):
        Position.from_position_id(b"4HPwATDgc/ABMA")  # type: ignore[arg-type]


def test_from_position_id_refuses_more_than_fifteen_checkers() -> None:
    sixteen = (0,) * 5 + (16,) + (0,) * 19
    two = (0,) * 5 + (2,) + (0,) * 19
    player_has_16 = encode_position_id(sixteen, two)
    opponent_has_16 = encode_position_id(two, sixteen)
    for position_id, who in ((player_has_16, "player"), (opponent_has_16, "opponent")):
        with pytest.raises(InvalidIdError, match=f"{who} has 16 checkers"):
            Position.from_position_id(position_id)
    wide = Position.from_position_id(player_has_16, checkers=16)
    assert wide.player_checkers() == wide.opponent_checkers() == 16
    assert wide.player_off == 0
    assert wide.opponent_off == 14
