"""Chouette scoring checked by hand: sessions with several cubes, drops, a captain's
drop and rotations, the one-team-cube form, the Jacoby rule, and money per point.

The board's plays after the scripted opening are a seeded random play-out; each test
first asserts how that game ended on the board (who won, single or gammon), then
the points worked out by hand from the cubes."""

from __future__ import annotations

from decimal import Decimal

from backgammon.rules.chouette import (
    TEAM,
    Chouette,
    ChouetteRules,
    CubeDouble,
    CubeDrop,
    CubeResult,
    CubeTake,
)
from backgammon.rules.cube import CubeState
from backgammon.rules.game import WinKind

from .sessions import four_player_session, play_out, throw

BOX_OWNS, MEMBER_OWNS = 0, 1


def test_a_session_of_several_cubes_drops_and_rotations_scores_by_hand() -> None:
    table, scores = four_player_session()
    first, second, third = table.results

    # Game 1 (Ann box; Bob, Cy, Di): Ann drops Cy's cube at 1 (Cy +1, Ann -1); Di drops
    # Ann's double of Di's cube at 1 (Ann +1, Di -1); Bob's cube went 2 (Ann took) then
    # 4 (Bob took). The box won a gammon: Bob pays 2 x 4 = 8.
    assert first.cubes[-1] == CubeResult(
        "Bob", CubeState(4, MEMBER_OWNS), "Ann", WinKind.GAMMON, False
    )
    assert first.points() == {"Ann": -1 + 1 + 8, "Bob": -8, "Cy": +1, "Di": -1}
    assert scores[0] == {"Ann": 8, "Bob": -8, "Cy": 1, "Di": -1}
    # Bob, the losing captain, goes to the back of the line; Ann keeps the box.
    assert second.lineup == ("Ann", "Cy", "Di", "Bob")

    # Game 2 (Ann box; Cy, Di, Bob): Cy drops Ann's double at 1 (Ann +1, Cy -1); Bob
    # takes (2, Bob's). The team won a gammon: Di's cube 1 x 2 = 2, Bob's 2 x 2 = 4.
    assert [(r.member, r.winner, r.kind) for r in second.cubes] == [
        ("Cy", "Ann", WinKind.SINGLE),
        ("Di", "Di", WinKind.GAMMON),
        ("Bob", "Bob", WinKind.GAMMON),
    ]
    assert second.points() == {"Ann": +1 - 2 - 4, "Cy": -1, "Di": +2, "Bob": +4}
    assert scores[1] == {"Ann": 8 - 5, "Bob": -8 + 4, "Cy": 1 - 1, "Di": -1 + 2}
    # The box lost the board but beat the captain (Cy dropped): Ann keeps the box and
    # Cy goes to the back.
    assert second.captain_won is False
    assert third.lineup == ("Ann", "Di", "Bob", "Cy")

    # Game 3 (Ann box; Di, Bob, Cy): Ann drops Di's cube at 1 (Di +1, Ann -1) and takes
    # Bob's (2, the box's). The team won single: Bob 2, Cy 1.
    assert [(r.member, r.cube.value, r.winner, r.kind) for r in third.cubes] == [
        ("Di", 1, "Di", WinKind.SINGLE),
        ("Bob", 2, "Bob", WinKind.SINGLE),
        ("Cy", 1, "Cy", WinKind.SINGLE),
    ]
    assert third.points() == {"Ann": -1 - 2 - 1, "Di": +1, "Bob": +2, "Cy": +1}
    assert scores[2] == {"Ann": 3 - 4, "Bob": -4 + 2, "Cy": 0 + 1, "Di": 1 + 1}
    # Di, the captain, won their cube: Di takes the box and Ann goes to the back.
    assert table.lineup == ("Di", "Bob", "Cy", "Ann")

    # Money at 0.50 a point, and nothing created or lost.
    assert {name: table.money(name) for name in table.players} == {
        "Ann": Decimal("-0.50"),
        "Bob": Decimal("-1.00"),
        "Cy": Decimal("0.50"),
        "Di": Decimal("1.00"),
    }
    assert sum(table.scores.values()) == 0


def test_the_captains_drop_hands_the_checkers_to_the_next_player_still_in() -> None:
    table = Chouette(["Ann", "Bob", "Cy", "Di"])
    throw(table, "Ann", "3-1")
    table.play("Ann", "8/5 6/5")
    throw(table, "Bob", "6-4")
    table.play("Bob", "24/18 13/9")
    table.push(CubeDouble("Ann", "Bob"))
    table.push(CubeDouble("Ann", "Cy"))
    table.push(CubeDrop("Bob", "Bob"))
    table.push(CubeDrop("Cy", "Cy"))
    assert table.holder == "Di"
    assert table.captain == "Bob"  # still the game's captain, for the rotation
    assert table.members_in == ("Di",)
    throw(table, "Ann", "2-1")
    table.play("Ann", "13/11 6/5")
    assert table.on_roll == "Di"
    assert table.roller() == "Di"


def test_the_game_ends_when_every_member_is_out() -> None:
    # Ann box; Bob, Cy. Ann doubles both; both drop: Ann +1 +1. Bob lost: rotation
    # keeps Ann in the box, Bob to the back.
    table = Chouette(["Ann", "Bob", "Cy"])
    throw(table, "Ann", "3-1")
    table.play("Ann", "8/5 6/5")
    throw(table, "Bob", "6-4")
    table.play("Bob", "24/18 13/9")
    table.push(CubeDouble("Ann", "Bob"))
    table.push(CubeDouble("Ann", "Cy"))
    table.push(CubeDrop("Cy", "Cy"))
    table.push(CubeDrop("Bob", "Bob"))
    assert table.scores == {"Ann": 2, "Bob": -1, "Cy": -1}
    assert len(table.results) == 1
    assert table.lineup == ("Ann", "Cy", "Bob")
    assert table.on_roll is None and table.cubes == {"Cy": CubeState(), "Bob": CubeState()}


def test_the_one_team_cube_form() -> None:
    table = Chouette(["Ann", "Bob", "Cy", "Di"], ChouetteRules(team_cube=True))
    throw(table, "Ann", "3-1")
    table.play("Ann", "8/5 6/5")
    table.push(CubeDouble("Bob", TEAM))  # the captain doubles for the whole team
    table.push(CubeTake("Ann", TEAM))  # the box answers once
    assert set(table.cubes.values()) == {CubeState(2, BOX_OWNS)}
    throw(table, "Bob", "6-4")
    table.play("Bob", "24/18 13/9")
    table.push(CubeDouble("Ann", TEAM))  # the box redoubles: each member answers
    assert [offer.member for offer in table.pending] == ["Bob", "Cy", "Di"]
    table.push(CubeDrop("Bob", "Bob"))
    table.push(CubeTake("Cy", "Cy"))
    table.push(CubeTake("Di", "Di"))
    assert table.holder == "Cy"
    assert table.cubes == {
        "Bob": CubeState(2, BOX_OWNS),
        "Cy": CubeState(4, 1),
        "Di": CubeState(4, 1),
    }
    play_out(table, seed=1)
    (result,) = table.results
    # Bob dropped at 2: Ann +2. The box won a gammon: Cy and Di each pay 2 x 4 = 8.
    assert [(r.member, r.winner, r.kind) for r in result.cubes[1:]] == [
        ("Cy", "Ann", WinKind.GAMMON),
        ("Di", "Ann", WinKind.GAMMON),
    ]
    assert table.scores == {"Ann": 2 + 8 + 8, "Bob": -2, "Cy": -8, "Di": -8}
    assert table.lineup == ("Ann", "Cy", "Di", "Bob")


def test_the_jacoby_rule_counts_a_gammon_single_on_a_cube_never_turned() -> None:
    table = Chouette(["Ann", "Bob", "Cy"], ChouetteRules(jacoby=True))
    throw(table, "Ann", "3-1")
    table.play("Ann", "8/5 6/5")
    table.push(CubeDouble("Bob", "Bob"))
    table.push(CubeTake("Ann", "Bob"))
    play_out(table, seed=3)
    (result,) = table.results
    # The box won a gammon: Bob's cube was turned (2): 2 x 2 = 4; Cy's never was: 1.
    assert [(r.member, r.winner, r.kind, r.points) for r in result.cubes] == [
        ("Bob", "Ann", WinKind.GAMMON, 4),
        ("Cy", "Ann", WinKind.SINGLE, 1),
    ]
    assert table.scores == {"Ann": 5, "Bob": -4, "Cy": -1}
