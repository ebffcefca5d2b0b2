"""The errors of real matches, one per match length (3, 5 and 7 points), analysed at
0-ply and explained: each explanation names at least one theme whose difference
between the two plays is real, recounted here independently of the themes' code."""

from __future__ import annotations

from functools import cache

import pytest

from backgammon.analysis import AnalysisSettings, CheckerAnalysis, analyze_match
from backgammon.analysis.explain import THRESHOLDS, Explanation, explain_decision
from backgammon.formats import read_match
from backgammon.rules.play import Play
from backgammon.rules.position import Position
from tests.analysis.explain.helpers import DICE, brute_force_hits

MATCHES = {
    3: "tests/data/reference/formats/match02_3pt.mat",
    5: "tests/data/reference/formats/match03_5pt.mat",
    7: "tests/data/xg/gammonview/3WNK_g1Z-PLsh_HyvQ5j4a.mat",
}


@cache
def _errors(length: int) -> tuple[CheckerAnalysis, ...]:
    record = read_match(MATCHES[length])
    assert record.info.length == length
    analysis = analyze_match(record, settings=AnalysisSettings(ply=0))
    return tuple(
        decision
        for game in analysis.games
        for decision in game.decisions
        if isinstance(decision, CheckerAnalysis) and decision.mark is not None
    )


def _results(decision: CheckerAnalysis) -> tuple[Position, Position]:
    start = Position.from_position_id(decision.position_id)
    played = Play.parse(decision.play, start, decision.roll).position
    return played, Play.parse(decision.best.play, start, decision.roll).position


def _pips(side: tuple[int, ...]) -> int:
    return sum(point * count for point, count in enumerate(side) if point)


def _escapes(position: Position, past: int) -> int:
    """Rolls of 36 that bring a checker of the side on roll from ``past`` or above
    (the bar too) below it, by the legal plays."""
    behind = sum(position.player[past:])
    return sum(
        any(sum(play.position.player[past:]) < behind for play in position.legal_plays(dice))
        for dice in DICE
    )


def _recounted(theme: str, explanation: Explanation, decision: CheckerAnalysis) -> bool:
    """Whether the theme's difference is real by an independent recount (and its
    measures agree with the recount)."""
    played, best = _results(decision)
    measured = explanation.theme(theme)
    assert measured is not None
    if theme == "shots":
        counts = [brute_force_hits(after)[0] for after in (played, best)]
        assert [measured.played.hitting_rolls, measured.best.hitting_rolls] == counts
        return abs(counts[0] - counts[1]) >= THRESHOLDS["shots"]
    if theme == "points":
        made = [
            {point for point in range(1, 25) if after.player[point] >= 2}
            for after in (played, best)
        ]
        return made[0] != made[1]
    if theme == "race":
        leads = [_pips(after.opponent) - _pips(after.player) for after in (played, best)]
        assert [measured.played.lead, measured.best.lead] == leads
        return abs(leads[0] - leads[1]) >= THRESHOLDS["race"]
    if theme == "gammons":
        first, second = decision.played.probabilities, decision.best.probabilities
        return max(abs(first[1] - second[1]), abs(first[3] - second[3])) >= THRESHOLDS["gammons"]
    if theme == "escape":
        counts = []
        for after, side in ((played, measured.played), (best, measured.best)):
            mover = _escapes(after, side.player.past) if side.player.back_checkers else 0
            them = _escapes(after.flip(), side.opponent.past) if side.opponent.back_checkers else 0
            assert (side.player.rolls, side.opponent.rolls) == (mover, them)
            counts.append((mover, them))
        return any(abs(a - b) >= THRESHOLDS["escape"] for a, b in zip(*counts, strict=True))
    return False


@pytest.mark.parametrize("length", sorted(MATCHES))
def test_each_error_names_a_real_theme(length: int) -> None:
    errors = _errors(length)
    assert errors, f"the {length}-point match has errors to explain"
    for decision in errors:
        explanation = explain_decision(decision)
        assert explanation.best == decision.best.play and explanation.played == decision.play
        assert explanation.text.startswith(f"{decision.best.play} is better than {decision.play}")
        real = [
            theme.id for theme in explanation.themes if _recounted(theme.id, explanation, decision)
        ]
        assert real, (decision.position_id, decision.roll, explanation.text)
        assert all(theme.says for theme in explanation.themes)


def test_cube_decisions_are_explained() -> None:
    from backgammon.analysis import CubeAnalysis
    from backgammon.analysis.explain import explain_cube

    record = read_match(MATCHES[5])
    analysis = analyze_match(record, settings=AnalysisSettings(ply=0))
    cubes = [
        decision
        for game in analysis.games
        for decision in game.decisions
        if isinstance(decision, CubeAnalysis) and decision.action == "double"
    ]
    assert cubes
    for decision in cubes:
        explanation = explain_cube(decision)
        assert explanation.action == decision.cube_action
        assert "three-to-one" in explanation.text  # both take-point sentences say it
        data = explanation.as_json()
        assert [theme["id"] for theme in data["themes"]] == ["chances", "gammons", "take-point"]  # type: ignore[index, union-attr]
