"""The arena: streak scoring and pairing from the lobby."""

from __future__ import annotations

import pytest

from backgammon.tournaments import Arena, Pairing, arena_points
from tests.tournaments.conftest import field


@pytest.mark.parametrize(
    ("results", "points"),
    [
        ([], 0),
        ([True], 2),
        ([True, True], 4),
        ([True, True, True], 8),  # 2 + 2, then on fire: 4
        ([True, True, True, True, False, True], 12 + 0 + 2),
        ([False, True, False, True, True, True, True], 2 + 2 + 2 + 4 + 4),
    ],
)
def test_points_per_win_double_while_on_a_streak(results: list[bool], points: int) -> None:
    assert arena_points(results) == points


def test_a_hand_worked_arena() -> None:
    arena = Arena(field(4), duration=600)
    first = arena.pair(["p01", "p02", "p03", "p04"], now=0)
    assert [p.players for p in first] == [("p01", "p02"), ("p03", "p04")]
    arena.finish(Pairing(("p01", "p02"), "p01"), now=100)
    arena.finish(Pairing(("p03", "p04"), "p03"), now=120)
    # p01 and p03 on 2 points come back first; p01's last opponent was p02.
    second = arena.pair(["p01", "p03", "p02", "p04"], now=130)
    assert [p.players for p in second] == [("p01", "p03"), ("p02", "p04")]
    arena.finish(Pairing(("p01", "p03"), "p01"), now=200)
    arena.finish(Pairing(("p02", "p04"), "p04"), now=210)
    # p01 (W, W) is on fire: its third win scores 4.
    third = arena.pair(["p01", "p02"], now=220)
    assert [p.players for p in third] == [("p01", "p02")]
    arena.finish(Pairing(("p01", "p02"), "p01"), now=300)
    table = {s.name: s for s in arena.standings()}
    assert table["p01"].points == 8 and table["p01"].tiebreaks["best_streak"] == 3
    assert table["p03"].points == 2 and table["p04"].points == 2 and table["p02"].points == 0
    assert [s.name for s in arena.standings()] == ["p01", "p03", "p04", "p02"]
    assert arena.pair(["p01", "p02"], now=600) == []  # time is up


def test_the_last_opponent_is_avoided_only_while_the_lobby_allows() -> None:
    arena = Arena(field(2), duration=60)
    arena.pair(["p01", "p02"], now=0)
    arena.finish(Pairing(("p01", "p02"), "p02"), now=10)
    assert [p.players for p in arena.pair(["p01", "p02"], now=11)] == [("p02", "p01")]


def test_bad_calls_are_refused_and_change_nothing() -> None:
    arena = Arena(field(3), duration=60)
    arena.pair(["p01", "p02"], now=0)
    with pytest.raises(ValueError, match="'p02' is in a match"):
        arena.pair(["p02", "p03"], now=1)
    with pytest.raises(ValueError, match="'zed' is not in this arena"):
        arena.pair(["zed", "p03"], now=1)
    with pytest.raises(ValueError, match="no match"):
        arena.finish(Pairing(("p01", "p03"), "p01"), now=2)
    with pytest.raises(ValueError, match="has no winner"):
        arena.finish(Pairing(("p01", "p02")), now=2)
    assert arena.playing() == {"p01", "p02"} and arena.games == ()
    with pytest.raises(ValueError, match="a time > 0"):
        Arena(field(3), duration=0)
