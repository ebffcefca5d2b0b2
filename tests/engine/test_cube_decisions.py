"""Money cube decisions from cubeless probabilities (Janowski's model)."""

from __future__ import annotations

import pytest

from backgammon.engine.cube import (
    CubeAction,
    CubeOwner,
    match_cube_decision,
    match_cubeful_mwc,
    money_cube_decision,
    money_cubeful_equity,
    money_cubeful_value,
    race_cube_efficiency,
)
from backgammon.engine.met import kazaross_xg2


def plain(p: float) -> tuple[float, float, float, float, float]:
    """Probabilities without gammons."""
    return (p, 0.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("p", "action", "take"),
    [
        (0.45, CubeAction.NO_DOUBLE, True),
        (0.55, CubeAction.DOUBLE_TAKE, True),
        (0.70, CubeAction.DOUBLE_TAKE, True),
        (0.80, CubeAction.DOUBLE_PASS, False),
    ],
)
def test_last_roll_dead_cube(p: float, action: CubeAction, take: bool) -> None:
    # On the last roll the cube is dead: double with any edge, take up to 75%.
    decision = money_cube_decision(plain(p), efficiency=0.0)
    assert decision.action is action
    assert decision.take is take
    assert decision.no_double == pytest.approx(2 * p - 1)
    assert decision.double_take == pytest.approx(2 * (2 * p - 1))


def test_dead_cube_take_point_is_25_percent() -> None:
    assert money_cube_decision(plain(0.749), efficiency=0.0).take
    assert not money_cube_decision(plain(0.751), efficiency=0.0).take


def test_live_cube_take_point_is_20_percent_and_no_early_double() -> None:
    # Perfectly live cube without gammons: TP = 20%, CP = 80%; doubling before the
    # cash point gains nothing.
    assert money_cube_decision(plain(0.79), efficiency=1.0).take
    assert not money_cube_decision(plain(0.81), efficiency=1.0).take
    early = money_cube_decision(plain(0.75), efficiency=1.0)
    assert early.no_double > early.double_take
    assert early.action is CubeAction.NO_DOUBLE
    at_cash = money_cube_decision(plain(0.8), efficiency=1.0)
    assert at_cash.no_double == pytest.approx(at_cash.double_take) == pytest.approx(1.0)
    assert money_cubeful_equity(plain(0.5), efficiency=1.0) == pytest.approx(0.0)
    assert money_cubeful_equity(plain(0.2), CubeOwner.OPPONENT, 1.0) == pytest.approx(-1.0)
    assert money_cubeful_equity(plain(0.8), CubeOwner.PLAYER, 1.0) == pytest.approx(1.0)


def test_realistic_efficiency_doubling_window() -> None:
    # With x = 0.68 the classic window: no double at 60%, double/take near 70%,
    # double/pass beyond the take point (about 78.5% here).
    assert money_cube_decision(plain(0.60)).action is CubeAction.NO_DOUBLE
    assert money_cube_decision(plain(0.72)).action is CubeAction.DOUBLE_TAKE
    assert money_cube_decision(plain(0.82)).action is CubeAction.DOUBLE_PASS


def test_too_good_with_gammons() -> None:
    # Very likely to win, often a gammon: playing on beats cashing.
    decision = money_cube_decision((0.95, 0.6, 0.05, 0.0, 0.0))
    assert decision.action is CubeAction.TOO_GOOD
    assert not decision.take
    assert decision.no_double > 1.0


def test_owned_cube_and_refusals() -> None:
    decision = money_cube_decision(plain(0.72), CubeOwner.PLAYER)
    assert decision.no_double > money_cube_decision(plain(0.72)).no_double
    with pytest.raises(ValueError, match="owns the cube"):
        money_cube_decision(plain(0.9), CubeOwner.OPPONENT)


def test_beaver_when_the_double_is_a_big_mistake() -> None:
    decision = money_cube_decision(plain(0.35), beavers=True)
    assert decision.beaver
    assert decision.action is CubeAction.NO_DOUBLE_BEAVER
    assert not money_cube_decision(plain(0.35)).beaver


def test_jacoby_makes_gammons_worthless_with_a_centred_cube() -> None:
    gammonish = (0.7, 0.3, 0.0, 0.0, 0.0)
    with_jacoby = money_cubeful_equity(gammonish, efficiency=0.0, jacoby=True)
    assert with_jacoby == pytest.approx(0.4)
    assert money_cubeful_equity(gammonish, efficiency=0.0) == pytest.approx(0.7)


def test_race_efficiency() -> None:
    assert race_cube_efficiency(20) == 0.6
    assert race_cube_efficiency(80) == pytest.approx(0.65)
    assert race_cube_efficiency(200) == 0.7


def test_match_decisions_at_known_scores() -> None:
    from backgammon.engine.cube import match_cube_decision
    from backgammon.engine.met import kazaross_xg2

    met = kazaross_xg2()
    # 2-away, 2-away: the next double ends the match, so double with any edge; the
    # take point is 1 - MWC(1-away, 2-away Crawford) = 32.3%.
    assert match_cube_decision(plain(0.55), met, (2, 2)).action is CubeAction.DOUBLE_TAKE
    assert match_cube_decision(plain(0.66), met, (2, 2)).take
    assert not match_cube_decision(plain(0.70), met, (2, 2)).take
    # Long matches behave like money.
    assert match_cube_decision(plain(0.55), met, (25, 25)).action is CubeAction.NO_DOUBLE
    assert match_cube_decision(plain(0.72), met, (25, 25)).action is CubeAction.DOUBLE_TAKE
    assert match_cube_decision(plain(0.85), met, (25, 25)).action is CubeAction.DOUBLE_PASS
    # "Double, pass" is +1 in equity at the current cube.
    assert match_cube_decision(plain(0.85), met, (7, 5)).double_pass == pytest.approx(1.0)
    with pytest.raises(ValueError, match="Crawford"):
        match_cube_decision(plain(0.6), met, (1, 3), crawford=True)


def test_live_take_points_follow_the_cube_levels() -> None:
    from backgammon.engine.cube import live_take_point
    from backgammon.engine.met import kazaross_xg2

    met = kazaross_xg2()
    # Long even scores: close to money's 20% live against 25% dead.
    assert live_take_point(met, 25, 25, 1) == pytest.approx(0.2, abs=0.02)
    assert met.take_point(25, 25, 1) > live_take_point(met, 25, 25, 1)
    # When a win at the doubled cube gives the taker the match, owning the cube is
    # worth nothing to it: the live take point is the table's dead one.
    assert live_take_point(met, 2, 2, 1) == pytest.approx(met.take_point(2, 2, 1))
    assert live_take_point(met, 2, 5, 1) == pytest.approx(met.take_point(2, 5, 1))
    assert live_take_point(met, 5, 2, 1) < met.take_point(5, 2, 1)
    # Otherwise it is the dead one times the taker's own cash point one level up.
    cash = 1 - live_take_point(met, 7, 9, 2)
    assert live_take_point(met, 9, 7, 1) == pytest.approx(met.take_point(9, 7, 1) * cash)


def test_gammons_raise_the_take_point_and_hold_the_cube() -> None:
    from backgammon.engine.cube import live_take_point, match_cube_decision
    from backgammon.engine.met import kazaross_xg2

    met = kazaross_xg2()
    plain_take = live_take_point(met, 9, 9, 1)
    # The doubler's gammons (a share of the taker's losses) make taking worse.
    assert live_take_point(met, 9, 9, 1, (0.0, 0.3)) > plain_take
    # The taker's own gammon chances make taking better.
    assert live_take_point(met, 9, 9, 1, (0.3, 0.0)) < plain_take
    # From GNU Backgammon's analysis in tests/data/reference/formats/match03_5pt_analysed.sgf
    # (game 2, move 29): 3-away against 5-away, centred cube, a gammonish position where
    # its answer is "no double" (play on for the gammon that wins the match at 2 cubes).
    gammonish = (0.623, 0.433, 0.073, 0.033, 0.0)
    decision = match_cube_decision(gammonish, met, (3, 5))
    assert decision.action is CubeAction.NO_DOUBLE


def test_the_value_before_rolling_takes_the_right_cube_action() -> None:
    # Below the window: no double, the value is "no double".
    low = plain(0.55)
    assert money_cubeful_value(low) == pytest.approx(money_cube_decision(low).no_double)
    # A pass: the side on roll cashes +1; "too good" plays on for the gammons.
    assert money_cubeful_value(plain(0.9)) == pytest.approx(1.0)
    gammonish = (0.9, 0.6, 0.0, 0.0, 0.0)
    too_good = money_cube_decision(gammonish)
    assert too_good.action is CubeAction.TOO_GOOD
    assert too_good.no_double > 1.0
    assert money_cubeful_value(gammonish) == pytest.approx(too_good.no_double)
    # Without access to the cube, or with no cube at all, no double is possible.
    assert money_cubeful_value(plain(0.9), CubeOwner.OPPONENT) == pytest.approx(
        money_cubeful_equity(plain(0.9), CubeOwner.OPPONENT)
    )
    assert money_cubeful_value(gammonish, cube_alive=False) == pytest.approx(0.8 + 0.6)


def test_match_value_before_rolling() -> None:
    met = kazaross_xg2()
    probabilities = (0.6, 0.15, 0.0, 0.1, 0.0)
    # The Crawford game (nobody may double): the dead-cube value, outcomes weighed by
    # the table.
    dead = match_cubeful_mwc(probabilities, met, (1, 3), cube_alive=False)
    expected = (
        0.45 * met.after_game(1, 3, 1)
        + 0.15 * met.after_game(1, 3, 2)
        + 0.3 * met.after_game(1, 3, -1)
        + 0.1 * met.after_game(1, 3, -2)
    )
    assert dead == pytest.approx(expected)
    # A pass is worth the cash; without access, the "no double" value.
    strong = (0.85, 0.1, 0.0, 0.0, 0.0)
    decision = match_cube_decision(strong, met, (5, 5))
    assert decision.action is CubeAction.DOUBLE_PASS
    assert match_cubeful_mwc(strong, met, (5, 5)) == pytest.approx(met.after_game(5, 5, 1))
    owned = match_cubeful_mwc(strong, met, (5, 5), cube=2, owner=CubeOwner.OPPONENT)
    assert owned < met.after_game(5, 5, 2)
    # Money-like scores give the same ordering as money: more wins, more value.
    assert match_cubeful_mwc(plain(0.5), met, (7, 7)) < match_cubeful_mwc(plain(0.6), met, (7, 7))


@pytest.mark.parametrize(
    ("no_double", "double_take", "double_pass", "beavers", "action"),
    [
        (0.30, 0.10, 1.0, False, CubeAction.NO_DOUBLE),
        (0.30, -0.10, 1.0, True, CubeAction.NO_DOUBLE_BEAVER),
        (0.50, 0.70, 1.0, False, CubeAction.DOUBLE_TAKE),
        (0.50, 1.20, 1.0, False, CubeAction.DOUBLE_PASS),
        (1.10, 1.30, 1.0, False, CubeAction.TOO_GOOD),
        (1.10, 0.90, 1.0, False, CubeAction.TOO_GOOD_TAKE),
        (0.70, 0.70, 1.0, False, CubeAction.OPTIONAL_DOUBLE_TAKE),
        (1.00, 1.20, 1.0, False, CubeAction.OPTIONAL_DOUBLE_PASS),
        (-0.50, -0.20, 1.0, True, CubeAction.DOUBLE_BEAVER),
    ],
)
def test_every_cube_action_is_named(
    no_double: float, double_take: float, double_pass: float, beavers: bool, action: CubeAction
) -> None:
    """GNU Backgammon's and XG's action set: too good (take or pass) apart, optional
    doubles (doubling changes nothing), beavers."""
    from backgammon.engine.cube import classify_cube_decision

    decision = classify_cube_decision(no_double, double_take, double_pass, beavers=beavers)
    assert decision.action is action
    assert decision.should_double == action.value.startswith(("double", "optional"))
    assert decision.take == (double_take <= double_pass)
