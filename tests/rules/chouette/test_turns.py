"""Every chouette action refused out of turn, by the wrong seat or by a stranger, with
a clear error and no change of state."""

from __future__ import annotations

import pytest

from backgammon.errors import IllegalActionError, IllegalPlayError
from backgammon.rules.chouette import (
    TEAM,
    BoardAction,
    Chouette,
    ChouetteAction,
    ChouetteRules,
    CubeDouble,
    CubeDrop,
    CubeTake,
)
from backgammon.rules.dice import Roll
from backgammon.rules.game import OpeningRoll
from backgammon.rules.play import Play

from .sessions import state, throw


def refused(table: Chouette, action: ChouetteAction, words: str) -> None:
    """Assert that ``action`` is refused with a message containing ``words`` and that
    nothing changed."""
    before = state(table)
    with pytest.raises(IllegalActionError, match=words):
        table.push(action)
    assert state(table) == before


def team_on_roll() -> Chouette:
    """Ann box; Bob captain; Cy, Di. Ann has played her opening; the team is on roll."""
    table = Chouette(["Ann", "Bob", "Cy", "Di"])
    throw(table, "Ann", "3-1")
    table.play("Ann", "8/5 6/5")
    return table


def test_before_the_opening_throw() -> None:
    table = Chouette(["Ann", "Bob", "Cy"])
    refused(table, BoardAction("Cy", OpeningRoll(3, 1)), "Cy may not throw: the opening")
    refused(table, BoardAction("Ann", Roll(3, 1)), "starts with the opening throw")
    refused(table, CubeDouble("Bob", "Bob"), "the game has not started")
    refused(table, CubeDouble("Ann", "Cy"), "the game has not started")
    refused(table, BoardAction("Zed", OpeningRoll(3, 1)), "'Zed' is not at this chouette")


def test_the_wrong_seat_on_the_teams_turn() -> None:
    table = team_on_roll()
    refused(table, BoardAction("Ann", Roll(6, 4)), "Ann may not move: Bob is on roll")
    refused(table, BoardAction("Cy", Roll(6, 4)), "Cy may not move: Bob is on roll")
    refused(table, CubeDouble("Ann", "Bob"), "Bob \\(the team\\) is on roll")
    refused(table, CubeDouble("Cy", "Bob"), "only Bob doubles it")
    refused(table, CubeDouble("Cy", TEAM), "every member has a cube of their own")
    refused(table, CubeDouble("Cy", "Ann"), "'Ann' is not on the team")
    refused(table, CubeDouble("Zed", "Zed"), "'Zed' is not at this chouette")
    refused(table, CubeTake("Ann", "Cy"), "no double of it waits for an answer")


def test_answers_by_the_wrong_seat_and_rolls_while_doubles_wait() -> None:
    table = team_on_roll()
    table.push(CubeDouble("Cy", "Cy"))
    refused(table, CubeTake("Cy", "Cy"), "Cy may not take Cy's cube: Ann answers")
    refused(table, CubeDrop("Bob", "Cy"), "Bob may not drop Cy's cube: Ann answers")
    refused(table, CubeDouble("Cy", "Cy"), "already doubled")
    refused(table, BoardAction("Bob", Roll(6, 4)), "a double waits for an answer")
    table.push(CubeTake("Ann", "Cy"))
    refused(table, CubeDouble("Cy", "Cy"), "the other side owns it")
    throw(table, "Bob", "6-4")
    refused(table, CubeDouble("Di", "Di"), "already rolled")
    refused(table, BoardAction("Cy", Play.no_move(table.position)), "Cy may not move")
    with pytest.raises(IllegalPlayError):  # the board refuses it, changing nothing
        before = state(table)
        table.push(BoardAction("Bob", Play.no_move(table.position)))
    assert state(table) == before
    table.play("Bob", "24/18 13/9")
    table.push(CubeDouble("Ann", "Bob"))
    refused(table, CubeTake("Ann", "Bob"), "Ann may not take Bob's cube: Bob answers")
    refused(table, CubeTake("Cy", "Bob"), "Bob answers")
    refused(table, CubeDouble("Ann", "Bob"), "already doubled")
    table.push(CubeTake("Bob", "Bob"))
    refused(table, CubeDouble("Ann", "Bob"), "the other side owns it")  # Bob's, at 2


def test_a_dropped_player_can_no_longer_act() -> None:
    table = team_on_roll()
    throw(table, "Bob", "6-4")
    table.play("Bob", "24/18 13/9")
    table.push(CubeDouble("Ann", "Bob"))
    table.push(CubeDrop("Bob", "Bob"))
    refused(table, CubeDouble("Ann", "Bob"), "Bob is out of this game")
    throw(table, "Ann", "2-1")
    table.play("Ann", "13/11 6/5")
    refused(table, BoardAction("Bob", Roll(3, 3)), "Bob may not move: Cy is on roll")
    refused(table, CubeDouble("Bob", "Bob"), "Bob is out of this game")
    with pytest.raises(IllegalActionError, match="Bob may not move: Cy is on roll"):
        table.roll_dice("Bob", NoDice())


def test_the_one_team_cube_form_refuses_members_cubes() -> None:
    table = Chouette(["Ann", "Bob", "Cy"], ChouetteRules(team_cube=True))
    throw(table, "Ann", "3-1")
    table.play("Ann", "8/5 6/5")
    refused(table, CubeDouble("Cy", "Cy"), "the team shares one cube")
    refused(table, CubeDouble("Cy", TEAM), "only Bob doubles it")
    table.push(CubeDouble("Bob", TEAM))
    refused(table, CubeTake("Bob", TEAM), "Ann answers")
    refused(table, CubeTake("Ann", "Bob"), "no double of it waits")


def test_deciders_are_whoever_may_act() -> None:
    table = Chouette(["Ann", "Bob", "Cy", "Di"])
    assert table.deciders() == ("Ann", "Bob")  # the opening throw
    throw(table, "Ann", "3-1")
    assert table.deciders() == ("Ann",)  # Ann plays her opening roll
    table.play("Ann", "8/5 6/5")
    assert table.deciders() == ("Bob", "Cy", "Di")  # Bob throws; each may double first
    table.push(CubeDouble("Cy", "Cy"))
    assert table.deciders() == ("Ann", "Bob", "Di")  # Ann answers; the others may double
    table.push(CubeTake("Ann", "Cy"))
    table.push(CubeDouble("Di", "Di"))
    table.push(CubeDrop("Ann", "Di"))
    assert table.deciders() == ("Bob",)  # Cy's cube is Cy's no more; Di is out


def test_pop_of_nothing_and_strange_actions() -> None:
    table = Chouette(["Ann", "Bob", "Cy"])
    with pytest.raises(IndexError):
        table.pop()
    refused(table, "double", "not a chouette action")  # type: ignore[arg-type]
    refused(table, BoardAction("Ann", "3-1"), "not a throw or a play")  # type: ignore[arg-type]
    refused(table, CubeDouble(["Ann"], "Bob"), "not at this chouette")  # type: ignore[arg-type]
    throw(table, "Ann", "3-1")
    table.play("Ann", "8/5 6/5")
    refused(table, CubeDouble("Bob", ["Bob"]), "not on the team")  # type: ignore[arg-type]
    refused(table, CubeTake("Ann", ["Bob"]), "no double of it")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'Zed' is not at this chouette"):
        table.money("Zed")
    with pytest.raises(ValueError, match="'Ann' is not on this game's team"):
        table.cube("Ann")


class NoDice:
    """Dice that must not be thrown."""

    def roll(self) -> Roll:
        raise AssertionError("a refused throw must not roll the dice")


def test_a_double_past_the_cube_limit_is_refused() -> None:
    table = Chouette(["Ann", "Bob", "Cy"], ChouetteRules(max_cube=2))
    throw(table, "Ann", "3-1")
    table.play("Ann", "8/5 6/5")
    table.push(CubeDouble("Bob", "Bob"))
    table.push(CubeTake("Ann", "Bob"))  # Bob's cube: 2, the box's: at the limit
    throw(table, "Bob", "6-4")
    table.play("Bob", "24/14")
    refused(table, CubeDouble("Ann", "Bob"), "at 2, and the table's cube limit is 2")
    assert CubeDouble("Ann", "Cy") in table.legal_actions()  # Cy's cube is at 1
    assert CubeDouble("Ann", "Bob") not in table.legal_actions()


@pytest.mark.parametrize("limit", [0, 1, 3, 48, -4, True, 2.0])
def test_a_cube_limit_is_a_power_of_two_of_at_least_2(limit: object) -> None:
    with pytest.raises(ValueError, match="power of two of at least 2"):
        ChouetteRules(max_cube=limit)  # type: ignore[arg-type]
