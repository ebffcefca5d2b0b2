"""Tests for backgammon.rules.match_state: MatchState and its Match ID."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon.errors import InvalidIdError
from backgammon.rules import match_state
from backgammon.rules.match_state import GameState, MatchState, Resignation
from tests.reference import format_positions, text_match_ids

MAX15 = (1 << 15) - 1
POSITIONS = format_positions()
TEXT_MATCH_IDS = text_match_ids()


@st.composite
def match_states(draw: st.DrawFn) -> MatchState:
    """Any valid MatchState."""
    match_length = draw(st.sampled_from([0, 1, 3, 5, 7, 25]) | st.integers(0, MAX15))
    game_state = draw(st.sampled_from(GameState))
    if game_state is GameState.PLAYING and match_length > 0:
        scores = st.integers(0, match_length - 1)
    else:
        scores = st.integers(0, MAX15)
    return MatchState(
        match_length=match_length,
        score=(draw(scores), draw(scores)),
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.sampled_from([None, 0, 1])),
        player_on_roll=draw(st.integers(0, 1)),
        turn=draw(st.integers(0, 1)),
        crawford=draw(st.booleans()) if match_length else False,
        game_state=game_state,
        double_offered=draw(st.booleans()),
        resignation=draw(st.sampled_from(Resignation)),
        dice=draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6))),
        jacoby=draw(st.booleans()),
    )


# --- construction -------------------------------------------------------------------


def test_initial_money() -> None:
    state = MatchState.initial()
    assert state == MatchState()
    assert state.match_length == 0
    assert state.is_money
    assert state.score == (0, 0)
    assert (state.cube_value, state.cube_owner) == (1, None)
    assert state.game_state is GameState.PLAYING
    assert state.resignation is Resignation.NONE
    assert state.dice is None
    assert not (state.crawford or state.double_offered or state.jacoby)


def test_initial_match() -> None:
    state = MatchState.initial(7)
    assert state.match_length == 7
    assert not state.is_money
    assert MatchState.from_match_id(state.match_id) == state


def test_initial_rejects_a_negative_length() -> None:
    with pytest.raises(ValueError, match="match_length"):
        MatchState.initial(-1)


def test_manual_worked_example() -> None:
    state = MatchState.from_match_id("QYkqASAAIAAA")
    assert state == MatchState(
        match_length=9,
        score=(2, 4),
        cube_value=2,
        cube_owner=0,
        player_on_roll=1,
        turn=1,
        dice=(5, 2),
        jacoby=True,  # the manual's ID predates GNU Backgammon's "Jacoby off" bit
    )
    assert state.match_id == "QYkqASAAIAAA"
    assert dataclasses.replace(state, jacoby=False).match_id == "QYkqASAAIAAE"


def test_enums_are_coerced() -> None:
    state = MatchState(game_state=2, resignation=3)  # type: ignore[arg-type]
    assert state.game_state is GameState.OVER
    assert state.resignation is Resignation.BACKGAMMON


def test_dice_order_is_kept() -> None:
    high, low = MatchState(dice=(5, 2)), MatchState(dice=(2, 5))
    assert high != low
    assert high.match_id != low.match_id
    assert MatchState.from_match_id(low.match_id) == low


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"match_length": -1}, "match_length"),
        ({"match_length": MAX15 + 1}, "match_length"),
        ({"match_length": 5.0}, "match_length"),
        ({"score": (0,)}, "score"),
        ({"score": [0, 0]}, "score"),
        ({"score": (-1, 0)}, "score"),
        ({"score": (0, MAX15 + 1)}, "score"),
        ({"cube_value": 0}, "cube_value"),
        ({"cube_value": 3}, "power of two"),
        ({"cube_value": 1 << 16}, "cube_value"),
        ({"cube_owner": 2}, "cube_owner"),
        ({"cube_owner": -1}, "cube_owner"),
        ({"player_on_roll": 2}, "player_on_roll"),
        ({"turn": -1}, "turn"),
        ({"crawford": 1}, "crawford"),
        ({"double_offered": None}, "double_offered"),
        ({"jacoby": "yes"}, "jacoby"),
        ({"game_state": 5}, "game_state"),
        ({"resignation": 4}, "resignation"),
        ({"dice": (0, 0)}, "die"),
        ({"dice": (7, 1)}, "die"),
        ({"dice": (1, 2, 3)}, "dice"),
        ({"crawford": True}, "Crawford"),
        ({"match_length": 5, "score": (5, 0)}, "already ends"),
        ({"match_length": 5, "score": (0, 7)}, "already ends"),
    ],
)
def test_bad_arguments_raise_value_error(changes: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem) as info:
        MatchState(**changes)
    assert not isinstance(info.value, InvalidIdError)


@pytest.mark.parametrize("game_state", [GameState.NONE, GameState.OVER, GameState.DROPPED])
def test_finished_games_may_reach_the_match_length(game_state: GameState) -> None:
    state = MatchState(match_length=5, score=(6, 3), game_state=game_state)
    assert MatchState.from_match_id(state.match_id) == state


# --- value semantics ----------------------------------------------------------------


def test_frozen_hashable_slotted() -> None:
    state = MatchState.initial(5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.cube_value = 2  # type: ignore[misc]
    assert not hasattr(state, "__dict__")
    assert hash(state) == hash(MatchState.initial(5))
    assert len({state, MatchState.initial(5), MatchState.initial(7)}) == 2


def test_repr_is_canonical_and_pastes_back() -> None:
    state = MatchState.from_match_id("QQm3AEAAEAAE")
    assert repr(state) == "MatchState.from_match_id('QQm3AEAAEAAE')"
    assert eval(repr(state), {"MatchState": MatchState}) == state


# --- Match IDs ----------------------------------------------------------------------


@pytest.mark.parametrize("entry", POSITIONS, ids=[entry["name"] for entry in POSITIONS])
def test_reference_positions(entry: dict[str, Any]) -> None:
    """GNU Backgammon's player 1 is on roll in every entry; ``state`` lists only changes."""
    text = entry["match_id"]
    state = MatchState.from_match_id(text)
    assert state.match_id == text
    described = entry["state"]
    on_roll_score, opponent_score = described.get("score", (0, 0))
    assert state.score == (opponent_score, on_roll_score)
    assert state.match_length == described.get("match_length", 0)
    assert state.cube_value == described.get("cube", 1)
    assert state.cube_owner == {None: None, 1: 1, -1: 0}[described.get("owner_rel")]
    assert state.dice == (tuple(described["dice"]) if "dice" in described else None)
    assert state.crawford == described.get("crawford", False)
    assert state.double_offered == described.get("doubled", False)
    assert state.player_on_roll == 1
    assert state.turn == (0 if state.double_offered else 1)
    assert state.game_state is GameState.PLAYING


def test_every_match_id_in_the_reference_text_exports_round_trips() -> None:
    assert TEXT_MATCH_IDS
    for text in TEXT_MATCH_IDS:
        assert MatchState.from_match_id(text).match_id == text


@pytest.mark.parametrize(
    "text", ["", "QYkqASAAIAA", "QYkqASAAIAA!", "QYkqASAAIABA", "4HPwATDgc/ABMA"]
)
def test_from_match_id_rejects_malformed_ids(text: str) -> None:
    with pytest.raises(InvalidIdError) as info:
        MatchState.from_match_id(text)
    assert repr(text) in str(info.value)


@given(match_states())
def test_round_trip_through_the_match_id(state: MatchState) -> None:
    text = state.match_id
    assert len(text) == 12
    assert MatchState.from_match_id(text) == state


@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"))
def test_arbitrary_text_gives_only_invalid_id_error(text: str) -> None:
    try:
        state = MatchState.from_match_id(text)
    except InvalidIdError:
        return
    assert state.match_id == text


def test_module_imports_only_errors_and_the_match_id_codec() -> None:
    assert match_state.__file__ is not None
    tree = ast.parse(Path(match_state.__file__).read_text())
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
    assert {name for name in imported if name.startswith("backgammon")} == {
        "backgammon.errors",
        "backgammon.notation.match_id",
    }
