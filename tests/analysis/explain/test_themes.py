"""Each theme's measure against counts done by hand on textbook positions, the plan
names, the whole explanation and the cube's take point."""

from __future__ import annotations

import pytest

from backgammon.analysis.explain import PLAN_NAMES, THEME_IDS, explain_play, plans_of
from backgammon.analysis.explain.builders import builders_of
from backgammon.analysis.explain.cube import take_point
from backgammon.analysis.explain.duplication import duplication_of
from backgammon.analysis.explain.escape import escape_of
from backgammon.analysis.explain.gammons import gammons_of
from backgammon.analysis.explain.points import points_of
from backgammon.analysis.explain.race import race_of
from backgammon.rules.play import Play
from backgammon.rules.position import Position
from tests.analysis.explain.helpers import position

START = Position.initial()
FLAT = (0.5, 0.1, 0.0, 0.1, 0.0)


def after(text: str, roll: tuple[int, int], start: Position = START) -> Position:
    return Play.parse(text, start, roll).position


def test_points_made_and_broken() -> None:
    # 3-1 opening, 8/5 6/5: makes the 5-point; home points 6 and 5; the anchor on 24
    # stays; the longest run of made points is 5-6 (2).
    points = points_of(START, after("8/5 6/5", (3, 1)))
    assert points.made == (5,) and points.broken == ()
    assert (points.home_points, points.five_point, points.bar_point) == (2, True, False)
    assert points.anchors == (24,) and points.prime == 2
    # 6-1 opening, 13/7 8/7: the bar point, a 3-point prime 6-7-8.
    points = points_of(START, after("13/7 8/7", (6, 1)))
    assert points.made == (7,) and points.bar_point and points.prime == 3
    # 6-4 24/14: gives up the anchor on 24.
    assert points_of(START, after("24/14", (6, 4))).broken == (24,)


def test_builders_in_range() -> None:
    # Opening 2-1, 13/11 6/5: the 5-point slotted. Spares within 6 pips above the
    # open 5-point: 11 (blot, 1), 8 (3 checkers: 1 spare), 6 (4 left: 2 spares) = 4,
    # plus 13 (4 left, 2 spares) is 8 above 5 but within 6 of the 7-point.
    builders = builders_of(after("13/11 6/5", (2, 1)))
    five = builders.target(5)
    assert five is not None and five.slotted and five.builders == 4
    # Covering the slot by hand (from 6, 8, 11 or 13): the 11 rolls with a 1 (6/5);
    # with a 3 and no 1, 9 (8/5); with a 6 and no 1 or 3, 6-6, 6-5, 6-4, 6-2: 7
    # (11/5); of the rest (2s, 4s, 5s only): 4-2 (11/7/5: 2), 2-2 (11/9/7/5: 1), 4-4
    # (13/9/5: 1); 5-5, 5-2, 5-4 reach 5 from no checker. 11 + 9 + 7 + 4 = 31.
    assert five.rolls == 31
    # Distinct spares within 6 above an open key point: 13 (2), 11 (1), 8 (1), 6
    # (2), and the slot on 5 itself (1), a builder for the 4-point: 7.
    assert builders.builders == 7


def test_race() -> None:
    # 167 each at the start; 6-4 24/14 moves 10 pips: 157 to 167, a 10-pip lead.
    race = race_of(after("24/14", (6, 4)))
    assert (race.player, race.opponent, race.lead, race.leader) == (157, 167, 10, "player")


def test_escape_numbers() -> None:
    # Our last checker on 24 behind the opponent's made 8-point (our 17) and its
    # 6-point (our 19); nothing else. It escapes by reaching 16 or lower: 8 pips or
    # more, with 19 (the 5 away) blocked and 17 blocked. By hand, non-doubles summing
    # to 8+ with an open first landing (24-a, 24-b not in 19, 17): 6-2 (18 or 22,
    # open), 6-3, 6-4, 6-5, 6-6 (18, 12), 5-3 (21), 5-4 (20), 4-4 (20, 16), 3-3 (21,
    # 18, 15), 2-2? 24-22-20-18-16: yes. 6-2, 6-3, 6-4, 6-5, 5-3, 5-4: 12; 6-6, 4-4,
    # 3-3, 2-2: 4; 5-5 (19 blocked) no. 16 rolls.
    side = position({24: 1, 6: 14}, {19: 3, 17: 3, 1: 9})
    assert escape_of(side).player.rolls == 16
    assert escape_of(side).player.past == 17


def test_duplication() -> None:
    # Our blot on 10 with the opponent's checker on our 4 (17 direct rolls), its
    # other checkers home. The checker on our 4 escapes (past the opponent's bar
    # point, our 7) with every roll: 3 pips or more, over our open 5, 6, 7: 36. No
    # key point can be made (its home points are all made, and the one checker
    # outside cannot land on our 18 with any roll's landings: 6-6 10, 16, 22; 4-4
    # 8, 12, 16, 20; ...). The 17 hits all escape too: overlap 17, good rolls 36.
    mine = position({10: 1, 1: 14}, {4: 1, 24: 2, 23: 2, 22: 2, 21: 2, 20: 2, 19: 4})
    counted = duplication_of(mine)
    assert (counted.hit, counted.escape, counted.point) == (17, 36, 0)
    assert (counted.overlap, counted.good_rolls) == (17, 36)


def test_gammons_from_the_evaluation() -> None:
    gammons = gammons_of((0.6, 0.2, 0.01, 0.1, 0.005))
    assert gammons.win_gammon == 0.2 and gammons.lose_gammon == 0.1
    assert gammons.equity == pytest.approx(0.305)


def test_take_point() -> None:
    # No gammons: three-to-one, 25%. The doubler winning gammons as a third of its
    # games won (gd = 0.2/0.6 = 1/3): (0.5 + 1/3) / (2 + 1/3) = 0.357.
    assert take_point((0.75, 0.0, 0.0, 0.0, 0.0)) == pytest.approx(0.25)
    assert take_point((0.6, 0.2, 0.0, 0.0, 0.0)) == pytest.approx(5 / 14)


def test_plans() -> None:
    assert plans_of(START) == ("holding", "holding")
    race = position({6: 5, 5: 5}, {20: 5, 19: 5})
    assert plans_of(race) == ("racing", "racing")
    # Our 5-point prime (6..10) with an enemy checker behind it on our 2 (one home
    # point only: not an attack).
    primed = position({6: 2, 7: 2, 8: 2, 9: 2, 10: 2, 13: 5}, {2: 1, 24: 2, 12: 12})
    assert plans_of(primed)[0] == "priming"
    # The opponent on the bar against our 4 home points: we attack.
    blitz = position({1: 2, 2: 2, 4: 2, 6: 3, 8: 2, 13: 4}, {24: 2, 12: 12}, opponent_bar=1)
    assert plans_of(blitz)[0] == "attacking"
    # Two anchors deep in the opponent's board, far behind: a back game.
    back = position({24: 2, 22: 2, 13: 5, 8: 2, 6: 4}, {23: 3, 21: 3, 20: 3, 19: 3, 18: 2, 17: 1})
    assert plans_of(back)[0] == "back-game"
    assert set(plans_of(back)) <= set(PLAN_NAMES)


def test_explanation_of_the_split_against_the_5_point() -> None:
    explanation = explain_play(START, (3, 1), "24/21 6/5", "8/5 6/5", probabilities=(FLAT, FLAT))
    ids = [theme.id for theme in explanation.themes]
    assert ids == [theme for theme in THEME_IDS if theme in ids]
    shots, points = explanation.theme("shots"), explanation.theme("points")
    assert shots is not None and points is not None
    assert shots.played.hitting_rolls == 36 and shots.best.hitting_rolls == 0
    assert points.best.made == (5,) and shots.favours == "best"
    assert explanation.text.startswith("8/5 6/5 is better than 24/21 6/5.")
    assert "makes the 5-point" in explanation.text
    data = explanation.as_json()
    assert set(data["plans"]) >= {"before", "after"}  # type: ignore[arg-type]
    assert data["plans"]["before"] == {"player": "holding", "opponent": "holding"}  # type: ignore[index]


def test_the_same_play_has_no_theme() -> None:
    explanation = explain_play(START, (3, 1), "8/5 6/5", "8/5 6/5", probabilities=(FLAT, FLAT))
    assert explanation.themes == () and "is the best play" in explanation.text


def test_a_sentence_starting_with_notation_keeps_it_as_written() -> None:
    from backgammon.analysis.explain.text import _capital

    assert _capital("bar/23 6/5 wins a gammon 3% of the time.") == (
        "bar/23 6/5 wins a gammon 3% of the time."
    )
    assert _capital("both plays keep your holding game.") == "Both plays keep your holding game."


def test_the_builders_sentence_says_spares_apart_from_the_rolls_that_cover() -> None:
    from backgammon.analysis.explain.text import say_builders

    slot = builders_of(after("13/11 6/5", (2, 1)))  # the 5-point slotted (above)
    split = builders_of(after("24/21 6/5", (3, 1)))
    said = say_builders("13/11 6/5", slot, "24/21 6/5", split)
    assert said.startswith(
        "13/11 6/5 leaves a lone checker on the 5-point, with 7 spare builders within 6 pips "
        "(31 rolls of 36 would make the 5-point)"
    ), said
