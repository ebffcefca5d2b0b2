"""Move notation: parsing, canonical formatting, round trips and fuzzing."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon import (
    AmbiguousPlayError,
    BackgammonError,
    IllegalPlayError,
    InvalidNotationError,
    Play,
    Position,
)
from backgammon.notation.play_text import format_steps, parse_play_text
from backgammon.rules.fastgame import new_rng_state
from tests.reference import move_records, position_of

START = Position.initial()


@pytest.mark.parametrize(
    ("text", "roll", "canonical"),
    [
        ("8/5 6/5", (3, 1), "8/5 6/5"),
        ("6/5, 8/5", (3, 1), "8/5 6/5"),
        ("3-1: 8/5 6/5", (3, 1), "8/5 6/5"),
        ("31: 8/5 6/5", (1, 3), "8/5 6/5"),
        ("13/7 13/11", (6, 2), "13/11 13/7"),
        ("24/18 13/11", (6, 2), "24/18 13/11"),
        ("13/5", (6, 2), "13/5"),
        ("13/11/5", (6, 2), "13/5"),
        ("8/4(2)", (2, 2), "8/4(2)"),
        ("8/6(2) 6/4(2)", (2, 2), "8/4(2)"),
        ("6/2(2) 13/9(2)", (4, 4), "13/9(2) 6/2(2)"),
        ("24/20(2) 13/9(2)", (4, 4), "24/20(2) 13/9(2)"),
        ("13/7 8/7", (6, 1), "13/7 8/7"),
        ("BAR/24 13/7", (6, 1), None),
    ],
)
def test_parse_and_canonical(text: str, roll: tuple[int, int], canonical: str | None) -> None:
    if canonical is None:
        with pytest.raises(IllegalPlayError):
            Play.parse(text, START, roll)
        return
    play = Play.parse(text, START, roll)
    assert str(play) == canonical
    assert Play.parse(canonical, START, roll) == play


def test_ascii_alternatives_for_bar_and_off() -> None:
    # Player on the bar, opponent's board open on 22: "bar/22", "25/22", "b/22" agree.
    position = Position.from_points(
        [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2],
        player_bar=1,
    )
    plays = {
        Play.parse(text, position, (3, 1))
        for text in ("bar/22 24/23", "25/22 24/23", "b/22 24/23", "Bar/22, 24/23")
    }
    assert len(plays) == 1
    assert str(plays.pop()) == "bar/22 24/23"
    # Bearing off: "6/off" and "6/0" agree.
    home = Position.from_points([0, 0, 0, 0, 0, 2] + [0] * 18, [2] + [0] * 23)
    one = Play.parse("6/off 6/1", home, (6, 5))
    assert one == Play.parse("6/0 6/1", home, (6, 5))
    assert str(one) == "6/1 6/off"


def test_errors_name_the_problem() -> None:
    with pytest.raises(InvalidNotationError, match="13/x"):
        Play.parse("13/x", START, (3, 1))
    with pytest.raises(InvalidNotationError, match="toward home"):
        Play.parse("5/8", START, (3, 1))
    with pytest.raises(IllegalPlayError, match="not a legal play"):
        Play.parse("24/16", START, (3, 1))
    with pytest.raises(IllegalPlayError, match="not enough"):
        Play.parse("7/4 7/6", START, (3, 1))
    with pytest.raises(IllegalPlayError, match="written for"):
        Play.parse("6-2: 8/5 6/5", START, (3, 1))
    with pytest.raises(IllegalPlayError, match="no blot"):
        Play.parse("8/5* 6/5", START, (3, 1))
    with pytest.raises(IllegalPlayError, match="a play is possible"):
        Play.parse("Ø", START, (3, 1))


def test_ambiguous_when_hits_differ_and_no_mark_decides() -> None:
    # Opponent blots on our 10 and 11: 13/9 with 3-1 can pass either. "13/9" alone
    # could be 13/10*/9 or 13/12/9 (no hit) or 13/12, 11... -> the unmarked form picks
    # the play without hits; a mark picks the hitting one.
    opponent = [0] * 24
    opponent[25 - 10 - 1] = 1
    opponent[25 - 12 - 1] = 1
    opponent[5] = 13
    position = Position.from_points(
        [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2], opponent
    )
    hitting_10 = Play.parse("13/10*/9", position, (3, 1))
    hitting_12 = Play.parse("13/12*/9", position, (3, 1))
    assert hitting_10 != hitting_12
    assert hitting_10.hits == (10,)
    assert hitting_12.hits == (12,)
    with pytest.raises(AmbiguousPlayError, match="13/9"):
        Play.parse("13/9", position, (3, 1))


def test_no_move_notation() -> None:
    closed = Position.from_points(
        [0] * 23 + [0],
        [2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3],
        player_bar=2,
    )
    assert len(closed.legal_plays((6, 5))) == 0
    for text in ("Ø", "0/0", "pass", "no move", "6-5: Ø", "-"):
        play = Play.parse(text, closed, (6, 5))
        assert play.is_no_move()
        assert play.position == closed
    assert str(Play.no_move(closed)) == "Ø"


def test_partial_plays_mark_unplayable_dice() -> None:
    records = [r for r in move_records() if "one_die_only" in r["tags"]]
    assert records
    record = records[0]
    position = position_of(record["position"])
    play = position.legal_plays(record["dice"])[0]
    assert play.notation(record["dice"]).endswith(" Ø")
    assert Play.parse(play.notation(record["dice"]), position, record["dice"]) == play


@given(st.text(max_size=40))
@settings(max_examples=400)
def test_fuzz_text_raises_only_library_errors(text: str) -> None:
    with contextlib.suppress(InvalidNotationError):
        parse_play_text(text)
    with contextlib.suppress(BackgammonError):
        Play.parse(text, START, (3, 1))


_ALPHABET = "0123456789/*() bar off Ø,-:"


@given(st.text(alphabet=_ALPHABET, max_size=30))
@settings(max_examples=600)
def test_fuzz_notation_like_text(text: str) -> None:
    for roll in ((6, 4), (2, 2)):
        try:
            play = Play.parse(text, START, roll)
        except BackgammonError:
            continue
        assert play in START.legal_plays(roll)


@given(st.integers(0, 2**32), st.sampled_from(range(len(move_records()))))
@settings(max_examples=200)
def test_round_trip_on_random_reference_positions(seed: int, index: int) -> None:
    record = move_records()[index]
    position = position_of(record["position"])
    rng = random.Random(seed)
    roll = (rng.randint(1, 6), rng.randint(1, 6))
    for play in position.legal_plays(roll):
        assert Play.parse(str(play), position, roll) == play
        assert Play.parse(play.notation(roll), position, roll) == play


def test_format_is_canonical_for_step_order() -> None:
    steps = [(13, 11, False), (24, 18, False)]
    assert format_steps(steps) == format_steps(list(reversed(steps))) == "24/18 13/11"


def test_rng_state_is_deterministic() -> None:
    assert new_rng_state(3)[0] == new_rng_state(3)[0] != new_rng_state(4)[0]
