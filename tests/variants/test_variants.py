"""Every variant: the registry, each distinctive rule on hand-built positions, the
play-count table, and seeded random games with invariants."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from backgammon import (
    ALL_ROLLS,
    ALL_THROWS_OF_THREE,
    ChooseDouble,
    Double,
    Ending,
    Explode,
    Game,
    IllegalActionError,
    OpeningRoll,
    Play,
    Position,
    Roll,
    SeededDice,
    WinKind,
    variants,
)
from backgammon.apps.cli import app
from backgammon.engine import Engine
from backgammon.rules.game import explode
from backgammon.rules.variant import STANDARD

TABLE = Path(__file__).resolve().parents[1] / "data" / "variant_play_counts.json"
STANDARD_TOPOLOGY = (
    "acey-deucey",
    "acey-deucey-1-2",
    "acey-deucey-european",
    "standard",
    "nackgammon",
    "hypergammon",
    "hypergammon-1",
    "hypergammon-2",
    "egyptian",
    "caucasian",
    "first-hit",
    "atomic",
    "tavla",
    "russian",
)
OTHER_BOARDS = ("long-nardy", "plakoto", "plakoto-prison")
THREE_DICE = ("tabula",)  # tests/variants/test_tabula.py
EVERY_VARIANT = STANDARD_TOPOLOGY + OTHER_BOARDS + THREE_DICE


def side(points: dict[int, int], *, bar: int = 0, total: int = 15) -> list[int]:
    slots = [0] * 26
    for point, count in points.items():
        slots[point] = count
    slots[25] = bar
    slots[0] = total - sum(slots[1:])
    return slots


def plays_of(position: Position, roll: tuple[int, int], name: str) -> set[str]:
    return {str(play) for play in position.legal_plays(roll, variants.find(name))}


def test_the_registry_holds_exactly_the_tested_variants() -> None:
    assert sorted(variants.names()) == sorted(EVERY_VARIANT)


@pytest.mark.parametrize("name", EVERY_VARIANT)
def test_registry_finds_every_variant(name: str) -> None:
    variant = variants.find(name)
    assert variant.name == name
    assert variants.find(name.upper().replace("-", " ")) is variant
    assert name in variants.names()


def test_registry_aliases_and_errors() -> None:
    assert variants.find("backgammon") is STANDARD
    assert variants.find("turkish").name == "tavla"
    assert variants.find("hyper_3").name == "hypergammon"
    with pytest.raises(KeyError, match="known: acey-deucey"):
        variants.find("chess")


def test_start_layouts() -> None:
    assert variants.find("nackgammon").start_counts()[23] == 2
    assert [variants.find(f"hypergammon-{n}").checkers for n in (1, 2)] == [1, 2]
    assert variants.find("hypergammon").checkers == 3
    for name in STANDARD_TOPOLOGY:
        variant = variants.find(name)
        start = Position.initial(variant)
        assert start.problems(variant) == []
        # Standard-topology variants keep Position ID and XGID support.
        again = Position.from_position_id(start.position_id, checkers=variant.checkers)
        assert again == start
        assert Position.from_xgid(start.xgid, checkers=variant.checkers) == start
    for name in OTHER_BOARDS:
        variant = variants.find(name)
        start = Position.initial(variant)
        assert start.problems(variant) == []
        # Other boards use our slots text, which round-trips.
        assert Position.from_slots_text(start.slots_text) == start


def test_egyptian_rule_limits_points_to_five() -> None:
    # Five checkers on our 5-point, one on the 8 and one on the 6.
    position = Position(side({5: 5, 8: 1, 6: 1}), side({24: 2}))
    assert plays_of(position, (3, 1), "standard") == {
        "5/4 5/2",
        "6/2",
        "6/3 5/4",
        "8/4",
        "8/5 6/5",
        "8/7 5/2",
        "8/7 6/3",
    }
    assert plays_of(position, (3, 1), "egyptian") == {
        "5/4 5/2",
        "6/2",
        "6/3 5/4",
        "8/4",
        "8/7 5/2",
        "8/7 6/3",
    }
    # Entering from the bar onto a full point is refused too.
    crowded = Position(side({5: 5, 20: 5, 6: 4}, bar=1), side({24: 2}))
    assert any(play.startswith("bar/20") for play in plays_of(crowded, (5, 1), "standard"))
    assert all("bar/20" not in play for play in plays_of(crowded, (5, 1), "egyptian"))


def test_caucasian_forbids_hit_and_hide_at_home() -> None:
    # Checkers on our 8 and 4, an opposing blot on our 5, everything else borne off.
    position = Position(side({8: 1, 4: 1}), side({20: 1, 1: 14}))
    assert plays_of(position, (3, 1), "standard") == {
        "8/5*/4",
        "8/5* 4/3",
        "8/4",
        "8/7 4/1",
    }
    assert plays_of(position, (3, 1), "caucasian") == {"8/5* 4/3", "8/4", "8/7 4/1"}
    assert plays_of(position, (3, 1), "tavla") == {"8/5* 4/3", "8/4", "8/7 4/1"}


def test_caucasian_hitter_may_go_on_to_an_empty_point() -> None:
    # A blot on our 6 is hit from our 8; our 4-point is made, the 5 is empty.
    position = Position(side({8: 1, 4: 2}), side({19: 1, 1: 14}))
    assert plays_of(position, (2, 1), "caucasian") == {
        "4/1",
        "4/3 4/2",
        "8/5",
        "8/6* 4/3",
        "8/6*/5",
        "8/7 4/2",
    }
    # With 2-2 the hitter may not go on to our own 4-point while it is held, nor bear
    # off ("8/6*/off" is out). It may step to the 4 once both checkers there have left:
    # 4/2(2) then 6/4 gives the same position that "8/6*/2 4/2" names.
    assert plays_of(position, (2, 2), "standard") == {
        "8/6* 4/off 4/2",
        "8/6*/2 4/2",
        "8/6*/off",
    }
    assert plays_of(position, (2, 2), "caucasian") == {"8/6* 4/off 4/2", "8/6*/2 4/2"}


def test_caucasian_hit_and_bear_off_only_when_nothing_else() -> None:
    # Our last checker on the 3, an opposing blot on our 1: with 2-1 it may bear off
    # without hitting, so hitting on the way off is not allowed.
    position = Position(side({3: 1}), side({24: 1, 1: 14}))
    assert plays_of(position, (2, 1), "standard") == {"3/1*/off", "3/off"}
    assert plays_of(position, (2, 1), "caucasian") == {"3/off"}
    # With 2-2 every play hits on the 1; the hitter may not go on to bear off, so it
    # stops there (the rest of the roll is lost), as the rule puts hiding before using
    # all the dice. Only when no play at all is left does hit-and-bear-off come back.
    assert plays_of(position, (2, 2), "standard") == {"3/1*/off"}
    assert plays_of(position, (2, 2), "caucasian") == {"3/1*"}


def test_first_hit_wins() -> None:
    position = Position(side({8: 1, 13: 14}), side({20: 1, 1: 14}))
    game = Game(variants.find("first-hit"), position=position, turn=1, dice=(3, 1))
    game.play("8/5*/4")
    assert game.outcome is not None
    assert game.outcome.ending is Ending.FIRST_HIT
    assert game.outcome.winner == 1 and game.outcome.points == 1
    # The same play in standard backgammon goes on.
    standard = Game(position=position, turn=1, dice=(3, 1))
    standard.play("8/5*/4")
    assert standard.outcome is None and standard.turn == 0


def test_atomic_bomb() -> None:
    variant = variants.find("atomic")
    position = Position(side({13: 4, 8: 1, 6: 9, 5: 1}), side({13: 4, 8: 1, 6: 10}))
    exploded = explode(position)
    assert exploded.player_bar == 2 and exploded.player[8] == 0 and exploded.player[5] == 0
    assert exploded.opponent_bar == 1 and exploded.opponent[8] == 0
    game = Game(variant, position=position, turn=0)
    game.push(Explode())
    assert game.position == exploded and game.bomb == 1
    game.roll_dice(SeededDice(1))
    with pytest.raises(IllegalActionError, match="before rolling"):
        game.push(Explode())
    game.pop()
    game.pop()
    assert game.bomb is None and game.position == position
    # After player 0 explodes, only player 1 may explode the bomb next.
    game.push(Explode())
    for roll in (Roll(6, 6), Roll(1, 1)):
        game.push(roll)
        plays = game.legal_plays()
        game.push(plays[0] if plays else Play.no_move(game.position))
    assert game.turn == 0
    assert game.explode_refusal() == "player 1 holds the bomb"
    standard = Game(position=position, turn=0)
    with pytest.raises(IllegalActionError, match="no bomb"):
        standard.push(Explode())


def test_tavla_rerolls_the_opening_has_no_cube_and_no_backgammons() -> None:
    tavla = variants.find("tavla")
    game = Game(tavla)
    game.push(OpeningRoll(5, 2))
    assert game.turn == 0 and game.dice is None  # the winner rolls again
    with pytest.raises(IllegalActionError, match="without the cube"):
        game.push(Double())
    game.push(Roll(6, 6))
    assert game.dice == Roll(6, 6)
    # A win with the loser still in the winner's home board counts as a gammon.
    position = Position(side({1: 1}), side({22: 15}))
    end = Game(tavla, position=position, turn=0, dice=(2, 1))
    end.play("1/off")
    assert end.outcome is not None and end.outcome.kind is WinKind.GAMMON
    standard = Game(position=position, turn=0, dice=(2, 1))
    standard.play("1/off")
    assert standard.outcome is not None and standard.outcome.kind is WinKind.BACKGAMMON


def test_play_count_table() -> None:
    stored = json.loads(TABLE.read_text())
    assert sorted(stored) == sorted(variants.names())
    for name, entries in stored.items():
        variant = variants.find(name)
        assert entries
        for entry in entries:
            position = Position.from_slots_text(entry["position"])
            rolls = ALL_ROLLS if variant.dice == 2 else ALL_THROWS_OF_THREE
            counts = {str(roll): len(position.legal_plays(roll, variant)) for roll in rolls}
            assert counts == entry["counts"], (name, entry["position"])


def _check_invariants(game: Game, checkers: int) -> None:
    position = game.position
    variant = game.variant
    # Checker conservation, no point shared against the rules, pins consistent, the
    # point limit (all in Position.problems, itself tested on hand-built positions).
    assert position.player_checkers() == checkers
    assert position.opponent_checkers() == checkers
    assert position.problems(variant) == []


@pytest.mark.parametrize("name", EVERY_VARIANT)
def test_seeded_random_games_end_by_the_rules(name: str) -> None:
    variant = variants.find(name)
    # Tabula's games are long (about 145 turns) and its throws have many plays:
    # fewer here; tests/variants/test_tabula.py plays more, unchecked. Many more
    # games of each variant: benchmarks/variant_games.py --games 20000.
    games = 250 if variant.dice == 2 else 60
    rng = random.Random(name)
    for seed in range(games):
        game = Game(variant)
        dice = SeededDice(seed)
        states = []
        for _ in range(20_000):
            if game.is_over():
                break
            if game.pending is not None and game.pending.kind == "choose-double":
                game.push(ChooseDouble(rng.randint(1, 6)))
                continue
            if game.dice is None:
                if variant.atomic and game.explode_refusal() is None and rng.random() < 0.05:
                    game.push(Explode())
                else:
                    game.roll_dice(dice)
                continue
            plays = game.legal_plays()
            if plays:
                game.push(plays[rng.randrange(len(plays))])
            else:
                game.play("Ø")
            _check_invariants(game, variant.checkers)
            if seed < 3:
                states.append((len(game.history), game.position, game.turn, game.outcome))
        assert game.is_over(), f"{name} game {seed} did not end"
        outcome = game.outcome
        assert outcome is not None
        if variant.first_hit:
            assert outcome.kind is WinKind.SINGLE
        if not variant.backgammons:
            assert outcome.kind is not WinKind.BACKGAMMON
        if seed < 3:  # pop restores every state
            for length, position, turn, result in reversed(states):
                while len(game.history) > length:
                    game.pop()
                assert (game.position, game.turn, game.outcome) == (position, turn, result)


def test_selfplay_command_prints_json() -> None:
    result = CliRunner().invoke(
        app, ["selfplay", "--variant", "hypergammon", "--games", "20", "--seed", "3", "--json"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["games"] == 20
    total = sum(sum(side.values()) for side in summary["results"].values())
    assert total == 20
    again = CliRunner().invoke(
        app, ["selfplay", "--variant", "hypergammon", "--games", "20", "--seed", "3", "--json"]
    )
    assert json.loads(again.output) == summary
    bad = CliRunner().invoke(app, ["selfplay", "--variant", "chess"])
    assert bad.exit_code != 0


def test_play_command_takes_a_variant() -> None:
    result = CliRunner().invoke(
        app, ["play", "--variant", "nackgammon", "--seed", "2"], input="\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "BAR" in result.output


@pytest.mark.parametrize("name", (*OTHER_BOARDS, "russian", "acey-deucey"))
def test_play_command_plays_other_boards_against_the_engine(name: str) -> None:
    moved = False
    for seed in range(1, 5):
        result = CliRunner().invoke(
            app, ["play", "--variant", name, "--seed", str(seed)], input="\n" * 3 + "quit\n"
        )
        assert result.exit_code == 0, result.output
        moved = moved or "Computer rolls" in result.output
    assert moved


def test_acey_deucey_entering_and_the_one_two() -> None:
    variant = variants.find("acey-deucey")
    start = Position.initial(variant)
    assert start.player_bar == 15 and start.opponent_bar == 15
    assert plays_of(start, (6, 4), "acey-deucey") == {"bar/21 bar/19", "bar/15"}
    # Waiting checkers need not enter first: a checker on the board may move instead.
    position = Position(side({19: 1}, bar=14), side({}, bar=15))
    assert "19/13" in plays_of(position, (4, 2), "acey-deucey")
    assert "19/13" not in plays_of(position, (4, 2), "standard")
    # 1-2: play it, choose a double, play that, then roll again.
    game = Game(variant)
    game.push(OpeningRoll(5, 2))
    assert game.dice is None  # the opening winner rolls again
    game.push(Roll(2, 1))
    game.play("bar/23 bar/24")
    assert game.turn == 0 and game.pending is not None
    with pytest.raises(IllegalActionError):
        game.push(Roll(6, 5))
    game.push(ChooseDouble(4))
    assert game.dice == Roll(4, 4)
    game.play("bar/21(4)")
    assert game.turn == 0 and game.dice is None  # rolls again
    game.push(Roll(6, 6))
    game.play(str(game.legal_plays()[0]))
    assert game.turn == 0  # a double rolls again (American)
    game.push(Roll(5, 3))
    game.play(str(game.legal_plays()[0]))
    assert game.turn == 1
    for _ in range(5):
        game.pop()
    assert game.turn == 0 and game.dice == Roll(4, 4)
    with pytest.raises(IllegalActionError, match="acey-deucey"):
        Game().push(ChooseDouble(3))


def test_acey_deucey_european_complements_and_exact_bear_off() -> None:
    european = variants.find("acey-deucey-european")
    home = Position(side({2: 1, 1: 2}, total=15), side({}, bar=15))
    # Exact numbers only: the 6 cannot bear off the checker on the 2-point.
    assert plays_of(home, (6, 5), "acey-deucey") == {"2/off 1/off"}
    assert plays_of(home, (6, 5), "acey-deucey-european") == set()
    assert plays_of(home, (2, 1), "acey-deucey-european") == {"2/off 1/off"}
    # A rolled double played out is followed by its complement, then the turn passes.
    start = Position(side({}, bar=15), side({}, bar=15))
    game = Game(european, position=start, turn=0, dice=(3, 3))
    game.play(str(game.legal_plays()[0]))
    assert game.turn == 0 and game.dice == Roll(4, 4)
    game.play(str(game.legal_plays()[0]))
    assert game.turn == 1 and game.dice is None
    # The double chosen after a 1-2 gets no complement: the player rolls again.
    game = Game(european, position=start, turn=0, dice=(2, 1))
    game.play("bar/23 bar/24")
    game.push(ChooseDouble(5))
    game.play(str(game.legal_plays()[0]))
    assert game.turn == 0 and game.dice is None
    game.pop()
    assert game.dice == Roll(5, 5)


def test_russian_backgammon() -> None:
    variant = variants.find("russian")
    start = Position.initial(variant)
    # Every checker must enter before any other move.
    assert plays_of(start, (6, 4), "russian") == {"bar/21 bar/19"}
    # Both sides share the board the same way round: the opponent's point p is ours.
    blocked = Position.unchecked(side({20: 1}, bar=14), side({19: 2}, bar=13))
    assert blocked.problems(variant) == []
    # Entering with the 6 (on our 19-point) is blocked; the 6 is lost.
    assert plays_of(blocked, (6, 1), "russian") == {"bar/24"}
    hit = Position.unchecked(side({}, bar=15), side({20: 1}, bar=14))
    assert plays_of(hit, (5, 1), "russian") == {"bar/24 bar/20*"}
    shared = Position.unchecked(side({20: 1}), side({20: 1}))
    assert shared.problems(variant) == ["points [20] hold checkers of both sides"]
    # A double played out is followed by its complement, then another roll.
    entered = Position.unchecked(side({20: 5, 18: 5, 15: 5}), side({}, bar=15))
    game = Game(variant, position=entered, turn=0, dice=(2, 2))
    game.play(str(game.legal_plays()[0]))
    assert game.turn == 0 and game.dice == Roll(5, 5)
    game.play(str(game.legal_plays()[0]))
    assert game.turn == 0 and game.dice is None
    game.push(Roll(3, 1))
    game.play(str(game.legal_plays()[0]))
    assert game.turn == 1
    game.pop()
    game.pop()
    game.pop()
    assert game.dice == Roll(5, 5)


def test_problems_find_shared_points_and_crowding_on_every_board() -> None:
    clash = Position.unchecked(side({6: 15}), side({19: 15}))  # our 6 is their 19
    assert clash.problems(STANDARD) == ["points [6] hold checkers of both sides"]
    egyptian = variants.find("egyptian")
    crowded = Position.unchecked(side({6: 15}), side({6: 15}))
    assert crowded.problems(egyptian) == ["points [6, 19] hold more than 5 checkers"]


def test_play_continues_says_which_plays_leave_the_mover_to_play_on() -> None:
    american = variants.find("acey-deucey")
    game = Game(american, position=Position.initial(american), turn=0, dice=(2, 1))
    assert game.continuation is not None
    assert all(game.play_continues(play) for play in game.legal_plays())  # a double to name
    game = Game(american, position=Position.initial(american), turn=0, dice=(5, 3))
    assert not any(game.play_continues(play) for play in game.legal_plays())
    game = Game(american, position=Position.initial(american), turn=0, dice=(4, 4))
    assert all(game.play_continues(play) for play in game.legal_plays())  # rolls again
    # Russian: a double played out after every checker has entered brings its complement.
    russian = variants.find("russian")
    entered = Position(side({6: 5, 8: 5, 12: 5}, total=15), side({}, bar=15))
    game = Game(russian, position=entered, turn=0, dice=(3, 3))
    assert all(game.play_continues(play) for play in game.legal_plays())
    # The play that bears off the last checker ends the game, so nothing follows it.
    last = Position(side({2: 1}, total=15), side({6: 15}, total=15))
    game = Game(american, position=last, turn=0, dice=(2, 2))
    assert [game.play_continues(play) for play in game.legal_plays()] == [False]
    assert Game().continuation is None


def test_the_engine_values_a_play_after_which_the_mover_plays_on_as_its_own_roll() -> None:
    american = variants.find("acey-deucey")
    engine = Engine(variant=american)
    game = Game(american, position=Position.initial(american), turn=0, dice=(4, 4))
    ranked = engine.rank_plays(game.position, game.dice, continues=game.continuation)
    for item in ranked:
        own_roll = engine.evaluate(item.play.position)  # still the mover to roll
        assert item.evaluation.equity == pytest.approx(own_roll.equity, abs=1e-6)
    assert engine.best_play(game.position, game.dice, continues=game.continuation) == (
        ranked[0].play
    )
    with pytest.raises(ValueError, match="0-ply only"):
        Engine().rank_plays(Position.initial(), (3, 1), ply=1, continues=lambda play: False)


def test_the_engine_names_the_double_whose_best_play_is_worth_most_to_it() -> None:
    from backgammon.engine.players import EnginePlayer

    american = variants.find("acey-deucey")
    engine = Engine(variant=american)
    game = Game(american, position=Position.initial(american), turn=0, dice=(2, 1))
    game.play("bar/23 bar/24")
    assert game.pending is not None and game.pending.kind == "choose-double"
    # The player rolls again after the double's play: each result is its own to roll.
    best = {
        number: max(
            engine.evaluate(play.position).equity
            for play in game.position.legal_plays((number, number), american)
        )
        for number in range(1, 7)
    }
    assert EnginePlayer(engine).choose_double(game) == max(best, key=best.__getitem__)
