"""Tests for backgammon.rules.dice: rolls, the 21 rolls and the dice sources."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.errors import InvalidNotationError
from backgammon.rules.dice import (
    ALL_ROLLS,
    DiceSource,
    Roll,
    ScriptedDice,
    SecureDice,
    SeededDice,
    roll_weight,
)

PAIRS = list(itertools.product(range(1, 7), repeat=2))


# -- Roll --------------------------------------------------------------------------------


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_every_pair_of_dice_is_a_roll(first: int, second: int) -> None:
    roll = Roll(first, second)
    assert (roll.first, roll.second) == (first, second)
    assert tuple(roll) == (first, second)
    assert str(roll) == f"{first}-{second}"
    assert Roll.parse(str(roll)) == roll
    assert roll.high == max(first, second)
    assert roll.low == min(first, second)
    assert roll.is_double == (first == second)


@pytest.mark.parametrize(
    ("first", "second"),
    [(0, 1), (1, 0), (7, 1), (1, 7), (-1, 3), (True, 2), (2, False), (1.0, 2), ("3", 1), (None, 1)],
)
def test_roll_refuses_what_is_not_a_die(first: object, second: object) -> None:
    with pytest.raises(ValueError, match=r"1\.\.6"):
        Roll(first, second)  # type: ignore[arg-type]


def test_roll_is_a_frozen_hashable_value() -> None:
    roll = Roll(6, 2)
    assert roll == Roll(6, 2)
    assert roll != Roll(2, 6)
    assert hash(roll) == hash(Roll(6, 2))
    with pytest.raises(AttributeError):
        roll.first = 5  # type: ignore[misc]


@pytest.mark.parametrize("text", ["6-2", "62", "6 2", "6,2", "6/2", " 6 - 2 ", "6-2\n"])
def test_parse_accepts_the_usual_forms(text: str) -> None:
    assert Roll.parse(text) == Roll(6, 2)


def test_parse_keeps_the_order() -> None:
    assert Roll.parse("2-6") == Roll(2, 6)
    assert Roll.parse("44") == Roll(4, 4)


@pytest.mark.parametrize(
    "text",
    ["", "6", "7-2", "6-7", "0-1", "6--2", "6-2-1", "abc", "6:2", "6 - - 2", "six-two", "66 6"],
)
def test_parse_refuses_bad_text(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="roll"):
        Roll.parse(text)


def test_coerce() -> None:
    roll = Roll(3, 1)
    assert Roll.coerce(roll) is roll
    assert Roll.coerce((3, 1)) == roll
    assert Roll.coerce([3, 1]) == roll  # type: ignore[arg-type]
    assert Roll.coerce("3-1") == roll
    assert Roll.coerce("31") == roll
    for bad in [(1, 2, 3), (1,), 5, None, (0, 1), (3, 7)]:
        with pytest.raises(ValueError):
            Roll.coerce(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidNotationError):
        Roll.coerce("3-9")


def test_moves() -> None:
    assert Roll(3, 1).moves == (3, 1)
    assert Roll(1, 3).moves == (1, 3)
    for die in range(1, 7):
        assert Roll(die, die).moves == (die,) * 4


def test_normalized() -> None:
    assert Roll(2, 6).normalized() == Roll(6, 2)
    assert Roll(6, 2).normalized() == Roll(6, 2)
    assert Roll(4, 4).normalized() == Roll(4, 4)


# -- the 21 rolls ------------------------------------------------------------------------


def test_all_rolls() -> None:
    assert len(ALL_ROLLS) == 21
    assert len(set(ALL_ROLLS)) == 21
    assert all(roll.first >= roll.second for roll in ALL_ROLLS)
    assert {Roll(*pair).normalized() for pair in PAIRS} == set(ALL_ROLLS)
    total = sum((roll.weight for roll in ALL_ROLLS), Fraction(0))
    assert isinstance(total, Fraction)
    assert total == 1
    assert sum(roll.is_double for roll in ALL_ROLLS) == 6
    for roll in ALL_ROLLS:
        expected = Fraction(1, 36) if roll.is_double else Fraction(1, 18)
        assert roll.weight == roll_weight(roll) == expected


def test_weights_match_the_36_ordered_pairs() -> None:
    counts = Counter(Roll(*pair).normalized() for pair in PAIRS)
    for roll in ALL_ROLLS:
        assert roll.weight == Fraction(counts[roll], 36)


# -- dice sources ------------------------------------------------------------------------


def test_seeded_dice_are_reproducible() -> None:
    a, b = SeededDice(2024), SeededDice(2024)
    sequence = [a.roll() for _ in range(200)]
    assert sequence == [b.roll() for _ in range(200)]
    assert all(isinstance(roll, Roll) for roll in sequence)
    other = SeededDice(2025)
    assert [other.roll() for _ in range(200)] != sequence


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=0, max_value=2**64))
def test_seeded_dice_give_valid_rolls_for_any_seed(seed: int) -> None:
    dice = SeededDice(seed)
    rolls = [dice.roll() for _ in range(20)]
    assert all(1 <= die <= 6 for roll in rolls for die in roll)
    replay = SeededDice(seed)
    assert [replay.roll() for _ in range(20)] == rolls


def test_seeded_dice_are_roughly_uniform() -> None:
    dice = SeededDice(12345)
    n = 36_000
    counts = Counter(tuple(dice.roll()) for _ in range(n))
    assert set(counts) == set(PAIRS)
    expected = n / 36
    chi_square = sum((counts[pair] - expected) ** 2 / expected for pair in PAIRS)
    # 35 degrees of freedom: the mean is 35 and P(chi2 > 90) is below 1e-6.
    assert chi_square < 90, chi_square
    faces = Counter(die for pair, count in counts.items() for die in pair for _ in range(count))
    face_expected = 2 * n / 6
    face_chi = sum((faces[face] - face_expected) ** 2 / face_expected for face in range(1, 7))
    assert face_chi < 40, face_chi


def test_secure_dice_give_valid_rolls() -> None:
    dice = SecureDice()
    rolls = [dice.roll() for _ in range(600)]
    assert all(isinstance(roll, Roll) for roll in rolls)
    assert all(1 <= die <= 6 for roll in rolls for die in roll)
    # 600 rolls miss one of the six faces with probability about 6 * (5/6)**1200.
    assert {die for roll in rolls for die in roll} == set(range(1, 7))


def test_scripted_dice_replay_then_run_out() -> None:
    dice = ScriptedDice(["3-1", (6, 6), Roll(2, 5), "44"])
    assert dice.remaining == 4
    assert dice.roll() == Roll(3, 1)
    assert dice.roll() == Roll(6, 6)
    assert dice.roll() == Roll(2, 5)
    assert dice.remaining == 1
    assert dice.roll() == Roll(4, 4)
    assert dice.remaining == 0
    with pytest.raises(IndexError):
        dice.roll()
    with pytest.raises(IndexError):
        dice.roll()


def test_scripted_dice_check_the_script_up_front() -> None:
    with pytest.raises(InvalidNotationError):
        ScriptedDice(["3-1", "9-9"])
    with pytest.raises(ValueError):
        ScriptedDice([(0, 1)])
    with pytest.raises(IndexError):
        ScriptedDice([]).roll()


@pytest.mark.parametrize("source", [SeededDice(1), SecureDice(), ScriptedDice(["3-1"])], ids=type)
def test_every_source_is_a_dice_source(source: object) -> None:
    assert isinstance(source, DiceSource)


def test_things_without_roll_are_not_dice_sources() -> None:
    assert not isinstance(object(), DiceSource)
    assert not isinstance(Roll(3, 1), DiceSource)
