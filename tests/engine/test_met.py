"""Tests for backgammon.engine.met: match equity tables, Kazaross-XG2 and the model."""

from __future__ import annotations

import dataclasses
import json
from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon.engine.met import MatchEquityTable, compute_met, kazaross_xg2

KX = kazaross_xg2()
AWAY = st.integers(min_value=1, max_value=25)


# --- Kazaross-XG2: the published numbers ----------------------------------------------


def test_kazaross_xg2_shape_and_name() -> None:
    assert KX.size == 25
    assert len(KX.pre) == 25 and all(len(row) == 25 for row in KX.pre)
    assert len(KX.post) == 25
    assert KX.name == "Kazaross XG2 25 point MET"
    assert "XG rollouts to 9pts" in KX.description
    assert repr(KX) == "<MatchEquityTable 'Kazaross XG2 25 point MET' 25x25>"


def test_kazaross_xg2_data_file_keeps_the_copyright_notice() -> None:
    path = resources.files("backgammon.engine").joinpath("data/kazaross_xg2.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "Copyright (C) 2011 Neil Kazaross" in data["notice"]
    assert "met/Kazaross-XG2.xml" in data["source"]
    assert data["length"] == 25


def test_kazaross_xg2_entries_quoted_in_anchors() -> None:
    # anchors.md section 8
    assert KX.post[:5] == (0.5, 0.48803, 0.32264, 0.31002, 0.19012)
    assert KX.pre[0][:4] == (0.5, 0.67736, 0.75076, 0.81436)


@pytest.mark.parametrize(
    ("away_self", "away_opponent", "expected"),
    [
        # read from GNU Backgammon's met/Kazaross-XG2.xml
        (1, 25, 0.99905),
        (2, 3, 0.59947),
        (3, 2, 0.40053),
        (4, 5, 0.57732),
        (5, 7, 0.62638),
        (7, 9, 0.60854),
        (9, 10, 0.550196),
        (10, 11, 0.548547),
        (11, 7, 0.299791),
        (13, 12, 0.455932),
        (15, 25, 0.80883),
        (21, 18, 0.39664),
        (25, 1, 0.00095),
        (25, 24, 0.46914),
    ],
)
def test_kazaross_xg2_pre_crawford_entries(
    away_self: int, away_opponent: int, expected: float
) -> None:
    assert KX.mwc(away_self, away_opponent) == expected


def test_kazaross_xg2_post_crawford_entries() -> None:
    assert KX.post[9] == 0.065161
    assert KX.post[10] == 0.042069
    assert KX.post[24] == 0.00123


def test_kazaross_xg2_crawford_identity() -> None:
    # 3-away post-Crawford after the trailer's double plays like 2-away in the Crawford game.
    assert KX.post[2] == pytest.approx(1.0 - KX.pre[0][1], abs=1e-12)


def test_kazaross_xg2_is_cached() -> None:
    assert kazaross_xg2() is KX


# --- invariants, for both tables ----------------------------------------------------


@pytest.fixture(scope="module")
def computed() -> MatchEquityTable:
    return compute_met(11)


def _tables(computed: MatchEquityTable) -> list[tuple[MatchEquityTable, float]]:
    # (table, tolerance of pre[i][j] + pre[j][i] == 1): the published table is rounded.
    return [(KX, 2e-5), (computed, 1e-12)]


def test_symmetry(computed: MatchEquityTable) -> None:
    for table, tolerance in _tables(computed):
        for i in range(table.size):
            assert table.pre[i][i] == 0.5
            for j in range(table.size):
                assert abs(table.pre[i][j] + table.pre[j][i] - 1.0) <= tolerance, (i + 1, j + 1)


def test_monotonicity(computed: MatchEquityTable) -> None:
    for table, _ in _tables(computed):
        n = table.size
        for i in range(1, n + 1):
            for j in range(1, n):
                # further to go for the opponent is better; for oneself, worse
                assert table.mwc(i, j) < table.mwc(i, j + 1), (i, j)
                assert table.mwc(j, i) > table.mwc(j + 1, i), (j, i)
        assert all(a > b for a, b in zip(table.post, table.post[1:], strict=False))
        assert table.post[0] == 0.5


# --- lookups ------------------------------------------------------------------------


@given(AWAY, st.integers(min_value=-5, max_value=0))
def test_mwc_of_a_finished_match(away: int, won: int) -> None:
    assert KX.mwc(won, away) == 1.0
    assert KX.mwc(away, won) == 0.0
    assert KX.mwc(won, away, post_crawford=True) == 1.0
    assert KX.mwc(away, won, crawford=True) == 0.0


def test_mwc_rejects_bad_scores() -> None:
    with pytest.raises(ValueError, match="both players"):
        KX.mwc(0, -1)
    with pytest.raises(ValueError, match="beyond"):
        KX.mwc(26, 3)
    with pytest.raises(ValueError, match="beyond"):
        KX.mwc(3, 26)
    with pytest.raises(ValueError, match="int"):
        KX.mwc(True, 3)


@pytest.mark.parametrize("j", range(2, 26))
def test_crawford_and_post_crawford_lookups(j: int) -> None:
    assert KX.mwc(1, j) == KX.mwc(1, j, crawford=True) == KX.pre[0][j - 1]
    assert KX.mwc(j, 1, crawford=True) == KX.pre[j - 1][0]
    assert KX.mwc(j, 1, post_crawford=True) == KX.post[j - 1]
    assert KX.mwc(1, j, post_crawford=True) == 1.0 - KX.post[j - 1]
    # the Crawford game is worth more to the leader than a post-Crawford game from 3-away on
    if j >= 3:
        assert KX.mwc(1, j, crawford=True) > KX.mwc(1, j, post_crawford=True)


def test_both_one_away() -> None:
    assert KX.mwc(1, 1) == 0.5
    assert KX.mwc(1, 1, post_crawford=True) == 0.5


def test_flags_must_fit_the_score() -> None:
    with pytest.raises(ValueError, match="both"):
        KX.mwc(1, 3, crawford=True, post_crawford=True)
    with pytest.raises(ValueError, match="Crawford game needs"):
        KX.mwc(2, 3, crawford=True)
    with pytest.raises(ValueError, match="Crawford game needs"):
        KX.mwc(1, 1, crawford=True)
    with pytest.raises(ValueError, match="post-Crawford needs"):
        KX.mwc(2, 3, post_crawford=True)


# --- cube helpers -------------------------------------------------------------------


def test_take_points_at_known_scores() -> None:
    # long even match: close to the money game's dead-cube take point of 25%
    assert 0.20 <= KX.take_point(25, 25) <= 0.26
    assert 0.20 <= KX.take_point(15, 15) <= 0.26
    # 2-away, 2-away: dropping leaves 2-away against the Crawford leader
    assert KX.take_point(2, 2) == pytest.approx(1.0 - KX.pre[0][1])
    # post-Crawford leader doubled by a 2-away trailer: dropping gives 1-away, 1-away
    assert KX.take_point(1, 2) == pytest.approx(0.5)
    # the leader takes more lightly than the trailer at a lopsided score
    assert KX.take_point(3, 7) < KX.take_point(7, 3)


def test_take_points_are_chances() -> None:
    for i in range(1, 26):
        for j in range(1, 26):
            for cube in (1, 2, 4):
                assert 0.0 <= KX.take_point(i, j, cube) <= 1.0, (i, j, cube)


def test_take_point_formula() -> None:
    drop = KX.mwc(5, 3)  # the doubler, 4-away, gets 1 point
    lose = KX.mwc(5, 2)
    win = KX.mwc(3, 4)
    assert KX.take_point(5, 4, cube=1) == pytest.approx((drop - lose) / (win - lose))


def test_cube_helpers_reject_bad_input() -> None:
    with pytest.raises(ValueError, match="over"):
        KX.take_point(0, 3)
    with pytest.raises(ValueError, match="cube"):
        KX.equity_to_mwc(0.0, 3, 3, cube=0)
    with pytest.raises(ValueError, match="beyond"):
        KX.mwc_to_equity(0.5, 30, 3)


@given(AWAY, AWAY, st.sampled_from([1, 2, 4, 8]), st.floats(min_value=-3.0, max_value=3.0))
def test_equity_mwc_round_trip(i: int, j: int, cube: int, equity: float) -> None:
    mwc = KX.equity_to_mwc(equity, i, j, cube)
    assert KX.mwc_to_equity(mwc, i, j, cube) == pytest.approx(equity, abs=1e-9)


@given(AWAY, AWAY, st.sampled_from([1, 2, 4]))
def test_equity_mwc_endpoints(i: int, j: int, cube: int) -> None:
    post = i == 1 or j == 1
    win = KX.mwc(i - cube, j, post_crawford=post)
    lose = KX.mwc(i, j - cube, post_crawford=post)
    assert KX.equity_to_mwc(1.0, i, j, cube) == pytest.approx(win)
    assert KX.equity_to_mwc(-1.0, i, j, cube) == pytest.approx(lose)
    assert KX.equity_to_mwc(0.0, i, j, cube) == pytest.approx((win + lose) / 2)
    assert KX.mwc_to_equity(win, i, j, cube) == pytest.approx(1.0)


# --- the table value ----------------------------------------------------------------


def test_table_is_a_frozen_hashable_value() -> None:
    table = MatchEquityTable("t", "two scores", ((0.5, 0.7), (0.3, 0.5)), (0.5, 0.45))
    assert table == MatchEquityTable("t", "two scores", ((0.5, 0.7), (0.3, 0.5)), (0.5, 0.45))
    assert hash(table) == hash(MatchEquityTable("t", "two scores", table.pre, table.post))
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.name = "u"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("pre", "post"),
    [
        ((), ()),
        (((0.5, 0.7), (0.3,)), (0.5, 0.4)),
        (((0.5, 0.7), (0.3, 0.5)), (0.5,)),
        (((0.5, 1.7), (0.3, 0.5)), (0.5, 0.4)),
        (((0.5, 0.7), (0.3, 0.5)), (0.5, -0.1)),
    ],
)
def test_table_rejects_malformed_data(
    pre: tuple[tuple[float, ...], ...], post: tuple[float, ...]
) -> None:
    with pytest.raises(ValueError):
        MatchEquityTable("bad", "", pre, post)


# --- the computed table -------------------------------------------------------------


def test_computed_table_agrees_with_kazaross_xg2_to_11_away(computed: MatchEquityTable) -> None:
    worst = (0.0, "")
    for i in range(1, 12):
        for j in range(1, 12):
            diff = abs(computed.mwc(i, j) - KX.mwc(i, j))
            worst = max(worst, (diff, f"pre {i}-away, {j}-away"))
        diff = abs(computed.post[i - 1] - KX.post[i - 1])
        worst = max(worst, (diff, f"post-Crawford trailer {i}-away"))
    assert worst[0] < 0.02, f"max difference {100 * worst[0]:.3f} points at {worst[1]}"
    # what the defaults actually achieve
    assert worst[0] < 0.005, f"max difference {100 * worst[0]:.3f} points at {worst[1]}"


def test_computed_table_extends_consistently(computed: MatchEquityTable) -> None:
    longer = compute_met(13)
    assert [row[:11] for row in longer.pre[:11]] == list(computed.pre)
    assert longer.post[:11] == computed.post


def test_computed_table_basics() -> None:
    one = compute_met(1)
    assert one.pre == ((0.5,),) and one.post == (0.5,)
    table = compute_met(4, gammon_rate=0.0, post_crawford_gammon_rate=0.0)
    # no gammons: the Crawford game's trailer needs two straight wins
    assert table.mwc(1, 2) == pytest.approx(0.75)
    assert "gammon rate 0.0" in table.description


@pytest.mark.parametrize(
    "kwargs",
    [
        {"length": 0},
        {"resolution": 201},
        {"resolution": 0},
        {"gammon_rate": 1.5},
        {"cube_efficiency": -0.1},
        {"post_crawford_gammon_rate": 2.0},
        {"post_crawford_swing": 0.6},
    ],
)
def test_compute_met_rejects_bad_parameters(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        compute_met(**kwargs)  # type: ignore[arg-type]
