"""Invariants over random chouette sessions: money is conserved, every listed action
is accepted, every other action is refused without a change, and ``pop`` restores
every earlier state exactly."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon.errors import IllegalActionError
from backgammon.rules.chouette import TEAM, Chouette, ChouetteAction, CubeDouble, CubeDrop, CubeTake

from .sessions import random_session, random_step, state

STEPS = 160


def stray_actions(table: Chouette) -> list[ChouetteAction]:
    """Every cube action anybody could name now, legal or not."""
    cubes = (TEAM, *table.players)
    return [
        kind(player, member)
        for kind in (CubeDouble, CubeTake, CubeDrop)
        for player in table.players
        for member in cubes
    ]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_sessions_conserve_money_and_pop_restores_every_state(seed: int) -> None:
    table = random_session(seed, 0)
    choice = random.Random(seed)
    states = [state(table)]
    for _ in range(STEPS):
        legal = set(table.legal_actions())
        stray = choice.choice(stray_actions(table))
        if stray not in legal:
            before = state(table)
            try:
                table.push(stray)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"{stray} was accepted but not listed as legal")
            assert state(table) == before
        random_step(table, choice)
        assert sum(table.scores.values()) == 0
        assert sum(table.money(name) for name in table.players) == 0
        states.append(state(table))
    for expected in reversed(states[:-1]):
        table.pop()
        assert state(table) == expected
    assert table.history == ()


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_sessions_of_several_games_rotate_and_settle_every_cube(seed: int) -> None:
    table = random_session(seed, 600)
    for result in table.results:
        assert {cube.member for cube in result.cubes} == set(result.lineup[1:])
        assert sum(result.points().values()) == 0
    lineups = [result.lineup for result in table.results] + [table.lineup]
    for result, following in zip(table.results, lineups[1:], strict=True):
        assert sorted(following) == sorted(result.lineup)
        assert following[0] == (result.lineup[1] if result.captain_won else result.lineup[0])
        assert following[-1] == (result.lineup[0] if result.captain_won else result.lineup[1])
