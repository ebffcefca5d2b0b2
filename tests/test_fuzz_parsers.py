"""Arbitrary text fed to every parser raises only the library's own errors."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon import BackgammonError, MatchState, Play, Position, Roll
from backgammon.notation.fibs_board import decode_fibs_board
from backgammon.notation.match_id import decode_match_id
from backgammon.notation.play_text import parse_play_text
from backgammon.notation.position_id import decode_position_id
from backgammon.notation.xgid import decode_xgid

START = Position.initial()

PARSERS: dict[str, Callable[[str], object]] = {
    "Roll.parse": Roll.parse,
    "parse_play_text": parse_play_text,
    "Play.parse": lambda text: Play.parse(text, START, (6, 4)),
    "Position.from_position_id": Position.from_position_id,
    "Position.from_xgid": Position.from_xgid,
    "MatchState.from_match_id": MatchState.from_match_id,
    "decode_position_id": decode_position_id,
    "decode_match_id": decode_match_id,
    "decode_xgid": decode_xgid,
    "decode_fibs_board": decode_fibs_board,
}

# Text near the valid forms reaches deeper into each parser than random characters.
SEEDS = [
    "4HPwATDgc/ABMA",
    "QYkqASAAIAAA",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "board:You:gnubg:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0"
    ":1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0",
    "6-2: 13/7*/5",
    "8/4(2) bar/22 6/off",
]


def _mutate(seed: str, edits: list[tuple[int, str]]) -> str:
    text = seed
    for position, char in edits:
        index = position % (len(text) + 1)
        text = text[:index] + char + text[index + 1 :]
    return text


@pytest.mark.parametrize("name", sorted(PARSERS))
@given(text=st.text(max_size=80))
@settings(max_examples=150, deadline=None)
def test_random_text(name: str, text: str) -> None:
    with contextlib.suppress(BackgammonError):
        PARSERS[name](text)


@pytest.mark.parametrize("name", sorted(PARSERS))
@given(
    seed=st.sampled_from(SEEDS),
    edits=st.lists(st.tuples(st.integers(0, 200), st.characters()), max_size=4),
)
@settings(max_examples=200, deadline=None)
def test_near_miss_text(name: str, seed: str, edits: list[tuple[int, str]]) -> None:
    with contextlib.suppress(BackgammonError):
        PARSERS[name](_mutate(seed, edits))


@pytest.mark.parametrize("name", sorted(PARSERS))
@given(data=st.binary(max_size=60))
@settings(max_examples=100, deadline=None)
def test_random_bytes_as_text(name: str, data: bytes) -> None:
    with contextlib.suppress(BackgammonError):
        PARSERS[name](data.decode("latin-1"))
