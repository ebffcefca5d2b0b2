"""Shots at blots (:mod:`backgammon.analysis.explain.shots`): textbook counts done by
hand, and every count against a brute force over the 36 rolls."""

from __future__ import annotations

from functools import cache

import pytest

from backgammon.analysis import AnalysisSettings, CheckerAnalysis, analyze_match
from backgammon.analysis.explain import count_shots
from backgammon.formats import read_match
from backgammon.rules.play import Play
from backgammon.rules.position import Position
from tests.analysis.explain.helpers import brute_force_hits, position

REFERENCE = "tests/data/reference/formats"


def test_a_blot_six_away_is_hit_by_17_rolls() -> None:
    # The opponent's checker on our 4-point, our blot on 10, nothing between.
    # By hand: the 11 rolls with a 6; 5-1 and 4-2 (2 ways each, either order
    # free) = 4; 3-3 (4-7-10) and 2-2 (4-6-8-10) = 2. 11 + 4 + 2 = 17, all direct.
    shots = count_shots(position({10: 1, 1: 14}, {4: 1, 24: 14}))
    assert shots.hitting_rolls == 17
    assert [(b.point, b.direct, b.indirect) for b in shots.blots] == [(10, 17, 0)]


def test_a_blot_three_away_with_the_points_between_made_is_hit_by_11() -> None:
    # Hitter on our 7, blot on 10, our points 8 and 9 made. Free: the 11 rolls with
    # a 3. Blocked: 2-1 (7-9 or 7-8, both made), 1-1 (7-8 made). So 11, not 14.
    shots = count_shots(position({10: 1, 9: 2, 8: 2, 1: 10}, {7: 1, 24: 14}))
    assert shots.hitting_rolls == 11
    # The same with 8 and 9 open: 11 + 2-1 (2 ways) + 1-1 = 14.
    assert count_shots(position({10: 1, 1: 14}, {7: 1, 24: 14})).hitting_rolls == 14


def test_a_blot_eight_away_has_only_indirect_shots() -> None:
    # Hitter on our 2, blot on 10: 6-2 and 5-3 (2 ways each), 4-4 (2-6-10), 2-2
    # (2-4-6-8-10): 6 rolls, none with one die, so all indirect.
    shots = count_shots(position({10: 1, 1: 14}, {2: 1, 24: 14}))
    assert (shots.blots[0].direct, shots.blots[0].indirect) == (0, 6)
    # With our 6-point made, 4-4 and 2-2 are blocked (both pass the 6): 4 rolls.
    assert count_shots(position({10: 1, 6: 2, 1: 12}, {2: 1, 24: 14})).hitting_rolls == 4


def test_direct_and_indirect_shots_at_one_blot() -> None:
    # Blot on 10; hitters on our 4 (6 away) and on our 1 (9 away), our 7 and 8 open.
    # Direct, from 4: the 17 rolls of the first test. From 1 the 9-pip rolls are 6-3,
    # 5-4 and 3-3 (1-4-7-10); 6-3 and 3-3 also hit from 4, so only 5-4 (2 ways) is
    # indirect. So 17 direct and 2 indirect.
    shots = count_shots(position({10: 1, 13: 14}, {4: 1, 1: 1, 24: 13}))
    assert (shots.blots[0].direct, shots.blots[0].indirect) == (17, 2)


def test_entering_from_the_bar() -> None:
    # One opponent checker on the bar, our blot on 3 (it enters on our 1..6 with the
    # die's number). By hand: the 11 rolls with a 3; 2-1 (enter on 2 or 1, move on to
    # 3); 1-1 (enter on 1, then 2, 3). 11 + 2 + 1 = 14.
    assert count_shots(position({3: 1, 13: 14}, {24: 14}, opponent_bar=1)).hitting_rolls == 14
    # Two on the bar: both dice of a non-double enter, so only the 11 3s hit; 1-1
    # enters both with two 1s and moves one on 1-2-3 with the other two: 12.
    assert count_shots(position({3: 1, 13: 14}, {24: 13}, opponent_bar=2)).hitting_rolls == 12


def test_no_blot_no_shot() -> None:
    shots = count_shots(Position.initial())
    assert shots.blots == () and shots.hitting_rolls == 0


@cache
def _match_positions() -> tuple[Position, ...]:
    """Every position a checker play left in the reference 5-point match."""
    analysis = analyze_match(
        read_match(f"{REFERENCE}/match03_5pt.mat"), settings=AnalysisSettings(ply=0)
    )
    found = []
    for game in analysis.games:
        for decision in game.decisions:
            if isinstance(decision, CheckerAnalysis) and decision.play != "Ø":
                start = Position.from_position_id(decision.position_id)
                found.append(Play.parse(decision.play, start, decision.roll).position)
    return tuple(found)


@pytest.mark.parametrize("part", range(4))
def test_shots_agree_with_a_brute_force_count(part: int) -> None:
    positions = _match_positions()[part::4]
    assert len(positions) > 30
    for after in positions:
        shots = count_shots(after)
        hitting, per_blot = brute_force_hits(after)
        assert shots.hitting_rolls == hitting, after.position_id
        assert {blot.point: blot.shots for blot in shots.blots} == per_blot, after.position_id
