"""Hypothesis properties of legal plays on random positions and rolls."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon import Play, Position
from backgammon.rules.movegen import apply_steps
from tests.rules.test_position import positions

rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


@given(positions(), rolls)
@settings(max_examples=300, deadline=None)
def test_every_play_conserves_checkers_and_pips(position: Position, roll: tuple[int, int]) -> None:
    before_player, before_opponent = position.pip_counts()
    dice = 4 if roll[0] == roll[1] else 2
    results = set()
    for play in position.legal_plays(roll):
        result = play.position
        assert result not in results  # one play per resulting position
        results.add(result)
        assert result.player_checkers() == position.player_checkers()
        assert result.opponent_checkers() == position.opponent_checkers()
        assert 1 <= play.dice_used <= dice
        moved = sum(min(step.source, step.die) for step in play.steps)
        assert before_player - result.pip_counts()[0] == moved == play.pips()
        # Hits only ever add pips to the opponent: each hit sends a checker back.
        hit_pips = sum(25 - (25 - point) for point in play.hits)
        assert result.pip_counts()[1] - before_opponent == hit_pips
        assert len(play.hits) == result.opponent_bar - position.opponent_bar


@given(positions(), rolls)
@settings(max_examples=200, deadline=None)
def test_plays_use_as_many_dice_as_possible_and_replay(
    position: Position, roll: tuple[int, int]
) -> None:
    plays = position.legal_plays(roll)
    if not plays:
        return
    used = {play.dice_used for play in plays}
    assert len(used) == 1  # every legal play uses the same, maximal number of dice
    board = position.to_array()
    for play in plays:
        steps = [[step.source, step.die] for step in play.steps]
        replayed = apply_steps(board, np.array(steps, dtype=np.int64).reshape(-1, 2))
        assert Position.from_array(replayed) == play.position
        assert Play.parse(str(play), position, roll) == play
