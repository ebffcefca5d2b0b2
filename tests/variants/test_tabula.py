"""Tabula, the Roman three-dice game: Zeno's position (Agathias), entering, hitting,
bearing off, the three-dice rolls and notation, the kernel against a slow path, and
seeded random games."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from backgammon import (
    ALL_THROWS_OF_THREE,
    Game,
    IllegalActionError,
    OpeningRoll,
    Play,
    Position,
    Roll,
    ScriptedDice,
    SeededDice,
    variants,
)
from backgammon.errors import IllegalPlayError, InvalidNotationError
from backgammon.rules.movegen import BOARD_SLOTS
from backgammon.rules.play import legal_plays, parse_play
from backgammon.rules.variant_movegen import KIND, THREE_DICE, movement_code, variant_throw_plays

TABULA = variants.find("tabula")


def track(white: dict[int, int], black: dict[int, int]) -> Position:
    """A position from both sides' checkers by point of the common track (1 = the
    first point entered, 24 = the last before bearing off), White on roll; checkers
    not on the board are borne off."""
    own, opp = [0] * 26, [0] * 26
    for point, count in white.items():
        own[25 - point if point != 25 else 25] += count
    for point, count in black.items():
        opp[25 - point if point != 25 else 25] += count
    own[0] = 15 - sum(own)
    opp[0] = 15 - sum(opp)
    return Position.unchecked(own, opp)


def blots(position: Position) -> list[int]:
    """The mover's single checkers, by point of the track."""
    return sorted(25 - point for point in range(1, 25) if position.player[point] == 1)


# Agathias (Anthologia Palatina IX.482), White (Zeno) on roll: seven on the sixth
# line, one on the ninth, two each on the tenth, the summus (19) and the line after
# it, the last one on the divus (23). Black: two each on the 8th, 11th, 12th,
# Antigonus (14th), 15th, 18th and the fourth from the last (21st), one on the 13th.
# See docs/variants.md for how the lines were read.
ZENO_WHITE = {6: 7, 9: 1, 10: 2, 19: 2, 20: 2, 23: 1}
ZENO_BLACK = {8: 2, 11: 2, 12: 2, 13: 1, 14: 2, 15: 2, 18: 2, 21: 2}


def test_zenos_throw_of_2_5_6_leaves_eight_blots() -> None:
    zeno = track(ZENO_WHITE, ZENO_BLACK)
    assert blots(zeno) == [9, 23]
    plays = legal_plays(zeno, "2-5-6", TABULA)
    # Every legal play (there is one: 10/16, 19/24, 20/22 on the track) leaves eight.
    assert [str(play) for play in plays] == ["15/9 6/1 5/3"]
    assert all(len(blots(play.position)) == 8 for play in plays)
    assert blots(plays[0].position) == [9, 10, 16, 19, 20, 22, 23, 24]
    # The same position with another throw is not a trap: some play keeps blots few.
    other = legal_plays(zeno, "1-3-4", TABULA)
    assert min(len(blots(play.position)) for play in other) < 8


def test_every_checker_enters_from_off_the_board_first() -> None:
    start = Position.initial(TABULA)
    assert start.player_bar == start.opponent_bar == 15
    plays = legal_plays(start, "6-5-2", TABULA)
    assert [str(play) for play in plays] == ["bar/23 bar/20 bar/19"]
    # A point held by the opponent (its two on track point 5) refuses the 5; the
    # other dice still enter, and nothing else may move while checkers wait.
    position = track({25: 12, 1: 2, 10: 1}, {5: 2, 25: 13})
    plays = legal_plays(position, "5-1-2", TABULA)
    assert {str(play) for play in plays} == {"bar/24 bar/23"}
    assert all(play.dice_used == 2 for play in plays)


def test_a_hit_blot_re_enters_before_anything_else_moves() -> None:
    position = track({3: 2, 7: 2}, {5: 1, 9: 2})
    plays = legal_plays(position, "2-6-6", TABULA)
    hitting = [play for play in plays if play.hits]
    assert hitting, "3 + 2 lands on the lone checker on 5"
    after = hitting[0].position.flip()  # Black on roll
    assert after.player_bar == 1
    replies = legal_plays(after, "1-4-6", TABULA)
    assert replies and all(play.steps[0].source == 25 for play in replies)
    # Two opposing checkers close a point: no landing on 9.
    assert all(
        25 - step.destination != 9
        for play in legal_plays(position, "2-2-2", TABULA)
        for step in play.steps
    )


def test_bearing_off_waits_for_all_fifteen_in_the_last_quarter() -> None:
    home = {19: 5, 20: 4, 22: 3, 24: 2}
    waiting = track({**home, 3: 1}, {1: 2})  # 3 + 12 cannot reach the last quarter
    assert not any(
        step.destination == 0
        for play in legal_plays(waiting, "6-5-1", TABULA)
        for step in play.steps
    )
    ready = track({**home, 23: 1}, {1: 2})
    plays = legal_plays(ready, "6-5-1", TABULA)
    assert all(sum(1 for step in play.steps if step.destination == 0) >= 1 for play in plays)
    # A higher number than any checker needs bears off only the rearmost one.
    last = track({23: 1, 24: 1}, {1: 2})
    assert {str(play) for play in legal_plays(last, "6-5-4", TABULA)} == {"2/off 1/off"}


def test_the_most_dice_are_played_and_an_unplayable_die_is_lost() -> None:
    # One checker left, on track point 17; Black holds 22, 23 and 24: after the 1
    # (to 18) the 6 and the 5 are closed, and from 17 too; the two are lost.
    position = track({17: 1}, {22: 2, 23: 2, 24: 2})
    plays = legal_plays(position, "6-5-1", TABULA)
    assert [play.notation(Roll(6, 5, 1)) for play in plays] == ["6-5-1: 8/7 Ø Ø"]


def test_three_dice_rolls_and_their_notation() -> None:
    roll = Roll.parse("2-5-6", dice=3)
    assert roll == Roll(2, 5, 6) and str(roll) == "2-5-6" and roll.moves == (2, 5, 6)
    assert Roll.parse("256", dice=3) == roll and Roll.coerce((2, 5, 6), dice=3) == roll
    assert Roll(4, 4, 4).moves == (4, 4, 4) and not Roll(4, 4, 4).is_double
    assert Roll(2, 6, 5).normalized() == Roll(6, 5, 2)
    assert repr(Roll(3, 1)) == "Roll(first=3, second=1)"
    assert len(ALL_THROWS_OF_THREE) == 56
    assert sum(throw.weight for throw in ALL_THROWS_OF_THREE) == Fraction(1)
    with pytest.raises(InvalidNotationError, match="three dice like '6-5-2'"):
        Roll.parse("2-5-7", dice=3)
    with pytest.raises(InvalidNotationError, match="three dice like '6-5-2'"):
        Roll.parse("2-5", dice=3)
    with pytest.raises(InvalidNotationError, match="two dice like '6-2'"):
        Roll.parse("2-5-6")
    assert Roll.parse("2-5-6", dice=None) == Roll.coerce("2-5-6", dice=None) == roll
    with pytest.raises(ValueError, match="three dice like"):
        Roll.coerce((1, 2, 3, 4), dice=3)
    with pytest.raises(ValueError, match="two dice like"):
        Roll.coerce((1, 2, 3))
    start = Position.initial(TABULA)
    play = parse_play("6-5-2: bar/23 bar/20 bar/19", start, "2-5-6", TABULA)
    assert play.notation("2-5-6") == "6-5-2: bar/23 bar/20 bar/19"
    with pytest.raises(IllegalPlayError, match="written for 6-5-1"):
        parse_play("6-5-1: bar/24 bar/20 bar/19", start, "2-5-6", TABULA)
    with pytest.raises(ValueError, match="expected three dice"):
        legal_plays(start, "6-5", TABULA)
    with pytest.raises(ValueError, match="tabula throws 3"):
        legal_plays(start, Roll(6, 5), TABULA)
    with pytest.raises(ValueError, match="standard throws 2"):
        legal_plays(Position.initial(), Roll(6, 5, 2))


def test_a_game_rolls_three_dice_after_the_opening() -> None:
    game = Game(TABULA)
    game.push(OpeningRoll(5, 2))
    assert game.turn == 0 and game.dice is None  # the starter throws three dice
    with pytest.raises(IllegalActionError, match="tabula throws 3 dice, got 2"):
        game.push(Roll(6, 1))
    assert game.dice is None
    game.roll_dice(ScriptedDice([(6, 1), (4, 3)]))  # two rolls make one throw
    assert game.dice == Roll(6, 1, 4)
    game.play("bar/19 bar/24 bar/21")
    assert game.turn == 1
    game.roll_dice(ScriptedDice(["2-5-6"]))
    assert game.dice == Roll(2, 5, 6)
    standard = Game(position=Position.initial(), turn=0)
    with pytest.raises(IllegalActionError, match="standard throws 2 dice, got 3"):
        standard.push(Roll(6, 1, 2))


def test_the_engine_plays_tabula_at_0_ply_and_refuses_lookahead() -> None:
    from backgammon.engine import Engine
    from backgammon.server.protocol import MatchSettings

    engine = Engine(variant=TABULA)
    start = Position.initial(TABULA)
    throw = Roll(6, 5, 2)
    best = engine.best_play(start, throw)
    assert best in start.legal_plays(throw, TABULA)
    assert engine.best_play(start, (6, 5, 2)) == best
    ranked = engine.rank_plays(start, "6-5-2")
    assert ranked[0].play == best and len(ranked) == len(start.legal_plays(throw, TABULA))
    with pytest.raises(NotImplementedError, match="three dice"):
        engine.best_play(start, throw, ply=1)
    assert MatchSettings(variant="tabula", length=1, clock=None).variant == "tabula"


def test_the_compiled_throw_kernel_gives_the_plays_of_the_rules() -> None:
    """variant_throw_plays (what self-play training calls) against legal_plays, over
    the positions of random games: the same resulting positions for every throw."""
    code = movement_code(TABULA)
    assert code[KIND] == THREE_DICE
    rng = random.Random(4)
    game = Game(TABULA)
    dice = SeededDice(4)
    checked = 0
    while checked < 60 and not game.is_over():
        if game.dice is None:
            game.roll_dice(dice)
            continue
        plays = game.legal_plays()
        board = game.position.to_array().copy()
        throw = game.dice
        assert throw.third is not None
        packed = variant_throw_plays(board, throw.first, throw.second, throw.third, code)
        kernel = {bytes(row[:BOARD_SLOTS]) for row in packed}
        assert kernel == {bytes(play.position.to_array()) for play in plays}
        checked += 1
        game.push(plays[rng.randrange(len(plays))] if plays else Play.no_move(game.position))
    assert checked == 60


def test_a_tiny_tabula_network_trains_and_plays_whole_games(tmp_path: Path) -> None:
    from backgammon.engine import Engine
    from backgammon.engine.players import EnginePlayer
    from backgammon.engine.strength import play_game
    from backgammon.training import Trainer, TrainingSettings

    trainer = Trainer(TrainingSettings(hidden=4, alpha=0.1, seed=2, variant="tabula"))
    results = trainer.train(2)
    # Single games: a winner (0 or 1) and one point each, never stopped.
    assert set(results[:, 1]) == {1} and (results[:, 2] > 0).all()
    trainer.save(tmp_path)
    player = EnginePlayer(Engine(tmp_path / "networks.npz", variant=TABULA))
    # Game.push validates every play: a game to the end means only legal plays.
    assert play_game(player, player, seed=1, variant=TABULA) in (-1, 1)


def test_the_terminal_game_refuses_tabula_and_selfplay_plays_it() -> None:
    from typer.testing import CliRunner

    from backgammon.apps.cli import app

    refused = CliRunner().invoke(app, ["play", "--variant", "tabula"], input="quit\n")
    assert refused.exit_code == 2
    assert "tabula throws 3 dice" in refused.output
    played = CliRunner().invoke(
        app, ["selfplay", "--variant", "tabula", "--games", "3", "--seed", "1", "--json"]
    )
    assert played.exit_code == 0, played.output
    assert '"games": 3' in played.output


def _slow_plays(position: Position, dice: tuple[int, ...]) -> set[bytes]:
    """Every result of the most dice usable, by plain recursion (the reference)."""
    results: dict[int, set[bytes]] = {}

    def walk(own: list[int], opp: list[int], left: tuple[int, ...], used: int) -> None:
        moved = False
        for index, die in enumerate(left):
            for source in range(25, 0, -1):
                if own[source] == 0 or (own[25] and source != 25):
                    continue
                dest = source - die
                if dest >= 1 and opp[dest] >= 2:
                    continue
                if dest <= 0:
                    if any(own[7:26]):
                        continue
                    if dest < 0 and any(own[source + 1 : 7]):
                        continue
                new_own, new_opp = own[:], opp[:]
                new_own[source] -= 1
                if dest <= 0:
                    new_own[0] += 1
                else:
                    new_own[dest] += 1
                    if new_opp[dest] == 1:
                        new_opp[dest] = 0
                        new_opp[25] += 1
                moved = True
                walk(new_own, new_opp, left[:index] + left[index + 1 :], used + 1)
        if not moved:
            results.setdefault(used, set()).add(bytes(own + opp))

    walk(list(position.player), list(position.opponent), dice, 0)
    most = max(results)
    return results[most] if most else set()


def test_the_kernel_matches_a_slow_reference_on_random_positions() -> None:
    rng = random.Random(36)
    checked = 0
    for seed in range(12):
        game = Game(TABULA)
        dice = SeededDice(seed)
        while not game.is_over() and len(game.history) < 400:
            if game.dice is None:
                game.roll_dice(dice)
                continue
            plays = game.legal_plays()
            if len(game.history) % 7 == 0:
                throw = tuple(rng.randint(1, 6) for _ in range(3))
                fast = {play.position._data for play in legal_plays(game.position, throw, TABULA)}
                assert fast == _slow_plays(game.position, throw), (game.position, throw)
                checked += 1
            game.push(plays[rng.randrange(len(plays))] if plays else Play.no_move(game.position))
    assert checked > 200


def test_random_games_each_end_with_a_winner() -> None:
    # 200 games here (about 20 s on a loaded machine); 20,000 were played by hand
    # with benchmarks/tabula_games.py (docs/variants.md).
    wins = [0, 0]
    for seed in range(200):
        game = Game(TABULA)
        dice = SeededDice(seed)
        rng = random.Random(seed)
        for _ in range(5000):
            if game.is_over():
                break
            if game.dice is None:
                game.roll_dice(dice)
                continue
            plays = game.legal_plays()
            chosen = plays[rng.randrange(len(plays))] if plays else Play.no_move(game.position)
            game.push_unchecked(chosen)
        outcome = game.outcome
        assert outcome is not None, f"game {seed} did not end"
        assert outcome.points == 1
        assert outcome.winner in (0, 1)
        wins[outcome.winner] += 1
    assert min(wins) > 70


def test_the_heuristic_can_read_threats_the_way_tabula_moves() -> None:
    """Both sides move the same way: an opposing checker above our blot threatens it,
    one below does not (the two positions differ otherwise only by 60 of the
    opponent's pips, 6.0 in the score; the shot costs 1.7). The generic reading (the
    yardstick's) reads the board as the standard one."""
    from backgammon.engine.baseline import HeuristicPlayer, heuristic_score

    def side(**points: int) -> list[int]:
        slots = [0] * 26
        for point, count in points.items():
            slots[int(point.removeprefix("p"))] = count
        return slots

    mine = side(p2=14, p10=1)
    above = Position.from_slots(mine, side(p12=15))
    below = Position.from_slots(mine, side(p8=15))
    difference = heuristic_score(above, same_direction=True) - heuristic_score(
        below, same_direction=True
    )
    assert difference == pytest.approx(6.0 - 1.7)
    assert heuristic_score(above) != heuristic_score(above, same_direction=True)
    # The player reads the variant's board only when asked to.
    assert not HeuristicPlayer().follow_direction
    assert HeuristicPlayer(follow_direction=True).follow_direction
