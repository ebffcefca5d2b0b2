"""Tests for backgammon.rules.game: Game's push/pop, the opening roll, the end of a game,
and the invariants of many random games (slow path and the Numba fast path)."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from backgammon.errors import IllegalActionError, IllegalPlayError
from backgammon.rules.dice import Roll, ScriptedDice, SeededDice
from backgammon.rules.fastgame import GAME_FIELDS, new_rng_state, play_random_games
from backgammon.rules.game import Game, OpeningRoll, Outcome, WinKind, outcome_of
from backgammon.rules.play import Play, Step
from backgammon.rules.position import Position

RANDOM_GAMES = 2_000
SAFETY_TURNS = 10_000


def side(points: dict[int, int], *, bar: int = 0, total: int = 15) -> list[int]:
    """26 slots from ``{point: checkers}``; the rest of ``total`` is borne off."""
    slots = [0] * 26
    for point, count in points.items():
        slots[point] = count
    slots[25] = bar
    slots[0] = total - sum(slots[1:])
    return slots


def asymmetric_start() -> Position:
    """The standard start, except that the opponent has moved 6/5."""
    return Position(side({24: 2, 13: 5, 8: 3, 6: 5}), side({24: 2, 13: 5, 8: 3, 6: 4, 5: 1}))


def closed_out() -> Position:
    """The side on roll has a checker on the bar against a closed board."""
    return Position(
        side({6: 10, 8: 4}, bar=1),
        side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3}),
    )


def state(game: Game) -> tuple[Any, ...]:
    """Everything observable about a game."""
    return (game.position, game.turn, game.dice, game.history, game.outcome, game.is_over())


def started_game() -> Game:
    """Player 0 opens with 3-1."""
    game = Game()
    game.roll_dice(ScriptedDice(["3-1"]))
    return game


# -- the opening roll --------------------------------------------------------------------


def test_a_fresh_game() -> None:
    game = Game()
    assert game.position == Position.initial()
    assert game.turn is None
    assert game.dice is None
    assert game.outcome is None
    assert not game.is_over()
    assert game.history == ()
    with pytest.raises(IllegalActionError):
        game.legal_plays()


def test_ties_are_thrown_again_then_player_one_starts_flipped() -> None:
    start = asymmetric_start()
    game = Game(position=start)
    dice = ScriptedDice(["3-3", "5-5", "2-5"])
    for _ in range(2):
        tie = game.roll_dice(dice)
        assert isinstance(tie, OpeningRoll)
        assert tie.is_tie
        assert tie.starter is None
        assert tie.roll is None
        assert game.turn is None
        assert game.dice is None
        assert game.position == start
    opening = game.roll_dice(dice)
    assert opening == OpeningRoll(2, 5)
    assert opening.starter == 1
    assert game.turn == 1
    assert game.dice == Roll(5, 2)  # the starter's own die first
    assert game.position == start.flip()
    assert game.position_for(1) == start.flip()
    assert game.position_for(0) == start
    assert game.history == (OpeningRoll(3, 3), OpeningRoll(5, 5), OpeningRoll(2, 5))


def test_player_zero_starts_unflipped_and_plays_both_dice() -> None:
    start = asymmetric_start()
    game = Game(position=start)
    game.roll_dice(ScriptedDice(["6-1"]))
    assert game.turn == 0
    assert game.dice == Roll(6, 1)
    assert game.position == start
    plays = game.legal_plays()
    assert plays
    assert all(play.dice_used == 2 for play in plays)
    assert {step.die for play in plays for step in play.steps} == {6, 1}
    played = game.play("13/7 8/7")
    assert played.dice_used == 2
    assert game.turn == 1
    assert game.dice is None
    assert game.position == played.position.flip()
    assert game.position_for(0) == played.position


def test_the_higher_die_starts_and_its_roll_is_both_dice() -> None:
    for die0 in range(1, 7):
        for die1 in range(1, 7):
            opening = OpeningRoll(die0, die1)
            if die0 == die1:
                assert opening.starter is None
                continue
            starter = 0 if die0 > die1 else 1
            assert opening.starter == starter
            own, other = (die0, die1) if starter == 0 else (die1, die0)
            assert opening.roll == Roll(own, other)


@pytest.mark.parametrize("bad", [0, 7, True, 2.0])
def test_opening_roll_refuses_bad_dice(bad: object) -> None:
    with pytest.raises(ValueError):
        OpeningRoll(bad, 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        OpeningRoll(3, bad)  # type: ignore[arg-type]


def test_constructor_checks_its_arguments() -> None:
    with pytest.raises(ValueError):
        Game(turn=2)
    with pytest.raises(ValueError):
        Game(dice=(3, 1))
    with pytest.raises(ValueError):
        Game(position=Position(side({6: 14}, total=14), side({6: 15})))
    game = Game(position=asymmetric_start(), turn=1, dice=(4, 2))
    assert game.dice == Roll(4, 2)
    assert game.position_for(1) == asymmetric_start()
    assert game.position_for(0) == asymmetric_start().flip()


# -- illegal actions change nothing -------------------------------------------------------


def _refused(game: Game, action: object, error: type[Exception]) -> None:
    before = state(game)
    with pytest.raises(error):
        game.push(action)  # type: ignore[arg-type]
    assert state(game) == before


def test_illegal_actions_before_the_opening_roll() -> None:
    game = Game()
    some_play = Position.initial().legal_plays((3, 1))[0]
    _refused(game, Roll(3, 1), IllegalActionError)
    _refused(game, some_play, IllegalActionError)
    _refused(game, "8/5 6/5", IllegalActionError)
    _refused(game, None, IllegalActionError)
    with pytest.raises(IndexError):
        game.pop()


def test_illegal_actions_with_the_dice_rolled() -> None:
    game = started_game()
    wrong_roll = Position.initial().legal_plays((6, 5))[0]  # 24/13, not a 3-1 play
    _refused(game, OpeningRoll(4, 2), IllegalActionError)
    _refused(game, Roll(6, 6), IllegalActionError)
    _refused(game, wrong_roll, IllegalPlayError)
    _refused(game, Play.no_move(game.position), IllegalPlayError)
    _refused(game, Play([Step(8, 3), Step(6, 1)], asymmetric_start()), IllegalPlayError)
    _refused(game, 42, IllegalActionError)
    before = state(game)
    with pytest.raises(IllegalActionError):
        game.roll_dice(ScriptedDice(["2-2"]))
    with pytest.raises(IllegalPlayError):
        game.play("24/1")
    with pytest.raises(IllegalPlayError):
        game.play("Ø")
    assert state(game) == before
    # The undo stack is intact: pop still takes back the opening roll.
    assert game.pop() == OpeningRoll(3, 1)
    assert state(game) == state(Game())


def test_illegal_actions_between_turns() -> None:
    game = started_game()
    game.play("8/5 6/5")
    assert game.dice is None
    some_play = game.position.legal_plays((3, 1))[0]
    _refused(game, some_play, IllegalActionError)
    _refused(game, OpeningRoll(5, 1), IllegalActionError)
    before = state(game)
    with pytest.raises(IllegalActionError):
        game.play("13/10 24/23")
    assert state(game) == before


# -- turns with no move ---------------------------------------------------------------------


def test_no_move_against_a_closed_board() -> None:
    position = closed_out()
    for roll in [Roll(a, b) for a in range(1, 7) for b in range(1, 7)]:
        assert position.legal_plays(roll) == []
    game = Game(position=position, turn=0, dice=(6, 5))
    assert game.legal_plays() == []
    # A real play is refused, as text and as a Play.
    before = state(game)
    with pytest.raises(IllegalPlayError, match="no checker can move"):
        game.play("bar/20")
    with pytest.raises(IllegalPlayError):
        game.push(Play([Step(25, 5)], Position.initial()))
    with pytest.raises(IllegalPlayError):
        game.push(Play.no_move(Position.initial()))  # "no move" must keep the position
    assert state(game) == before
    # "Ø" is the play.
    no_move = Play.parse("Ø", position, (6, 5))
    assert no_move == Play.no_move(position)
    assert no_move.is_no_move()
    assert no_move.dice_used == 0
    game.push(no_move)
    assert game.turn == 1
    assert game.dice is None
    assert game.position == position.flip()
    assert game.history == (no_move,)
    game.pop()
    assert game.play("Ø") == no_move


def test_no_move_is_refused_when_a_play_exists() -> None:
    with pytest.raises(IllegalPlayError):
        Play.parse("Ø", Position.initial(), (3, 1))
    game = started_game()
    _refused(game, Play.no_move(game.position), IllegalPlayError)


# -- the end of a game --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loser", "cube", "kind"),
    [
        (side({6: 10}), 1, WinKind.SINGLE),  # 5 off
        (side({6: 14}), 1, WinKind.SINGLE),  # 1 off, even with the rest at home
        (side({6: 8, 12: 7}), 2, WinKind.GAMMON),
        (side({6: 14, 18: 1}), 1, WinKind.GAMMON),  # their 18 is our 7: outside our home
        (side({6: 14, 19: 1}), 1, WinKind.BACKGAMMON),  # their 19 is our 6
        (side({6: 14, 24: 1}), 4, WinKind.BACKGAMMON),  # their 24 is our 1
        (side({6: 14}, bar=1), 2, WinKind.BACKGAMMON),
    ],
)
@pytest.mark.parametrize("turn", [0, 1])
def test_bearing_off_the_last_checker_ends_the_game(
    loser: list[int], cube: int, kind: WinKind, turn: int
) -> None:
    winner = side({3: 1})
    position = Position(winner, loser)
    game = Game(position=position, turn=turn, dice=(6, 5), cube=cube)
    plays = game.legal_plays()
    assert len(plays) == 1
    assert plays[0].dice_used == 1
    before = state(game)
    game.play("3/off")
    outcome = game.outcome
    assert outcome == Outcome(turn, kind, cube)
    assert outcome.points == int(kind) * cube
    assert game.is_over()
    assert game.dice is None
    assert game.position_for(turn).player_off == 15
    assert outcome_of(game.position_for(turn)) == kind
    # Nothing more can be pushed, and nothing changes trying.
    for action in (Roll(3, 1), OpeningRoll(3, 1), plays[0], Play.no_move(game.position)):
        _refused(game, action, IllegalActionError)
    with pytest.raises(IllegalActionError):
        game.roll_dice(ScriptedDice(["3-1"]))
    # Pop takes the winning play back.
    assert game.pop() == plays[0]
    assert state(game) == before


def test_outcome_points() -> None:
    assert Outcome(0, WinKind.SINGLE).points == 1
    assert Outcome(1, WinKind.GAMMON, 4).points == 8
    assert Outcome(0, WinKind.BACKGAMMON, 8).points == 24
    assert outcome_of(Position.initial()) is None


# -- history and pop -----------------------------------------------------------------------


def _seeded_game(seed: int) -> Iterator[Game]:
    """Play a random game, yielding the game after every action."""
    game = Game()
    dice = SeededDice(seed)
    choose = random.Random(seed)
    for _ in range(SAFETY_TURNS):
        if game.is_over():
            return
        if game.dice is None:
            game.roll_dice(dice)
            yield game
            continue
        plays = game.legal_plays()
        game.push(choose.choice(plays) if plays else Play.no_move(game.position))
        yield game
    raise AssertionError(f"game {seed} did not end within {SAFETY_TURNS} actions")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pop_restores_every_state_exactly(seed: int) -> None:
    states = [state(Game())]
    pushed = []
    for game in _seeded_game(seed):
        states.append(state(game))
        pushed.append(game.history[-1])
    assert game.is_over()
    assert game.history == tuple(pushed)
    while game.history:
        states.pop()
        assert game.pop() == pushed.pop()
        assert state(game) == states[-1]
    assert state(game) == state(Game())
    assert (game.position, game.turn, game.dice, game.history) == (
        Position.initial(),
        None,
        None,
        (),
    )
    with pytest.raises(IndexError):
        game.pop()


def test_pop_then_push_replays_the_same_game() -> None:
    *_, game = _seeded_game(7)
    history = game.history
    end = state(game)
    for _ in range(len(history) // 2):
        game.pop()
    for action in history[len(game.history) :]:
        game.push(action)
    assert state(game) == end


# -- 2,000 random games through the validated API ----------------------------------------


def _apply_step(player: list[int], opponent: list[int], source: int, die: int) -> bool | None:
    """Move one checker by the rules, in place; None if illegal, else whether it hit."""
    if player[source] == 0 or (source != 25 and player[25]):
        return None
    destination = source - die
    if destination >= 1:
        if opponent[25 - destination] >= 2:
            return None
        player[source] -= 1
        player[destination] += 1
        if opponent[25 - destination] == 1:
            opponent[25 - destination] = 0
            opponent[25] += 1
            return True
        return False
    if any(player[7:26]):
        return None
    if destination < 0 and any(player[source + 1 : 7]):
        return None
    player[source] -= 1
    player[0] += 1
    return False


def _pips(slots: tuple[int, ...] | list[int]) -> int:
    return sum(point * slots[point] for point in range(1, 26))


def _most_dice(player: list[int], opponent: list[int], dice: tuple[int, ...]) -> int:
    """The most of ``dice`` (in this order) that can be played, by brute force."""
    if not dice:
        return 0
    best = 0
    sources = [25] if player[25] else [point for point in range(24, 0, -1) if player[point]]
    for source in sources:
        mine, theirs = list(player), list(opponent)
        if _apply_step(mine, theirs, source, dice[0]) is not None:
            best = max(best, 1 + _most_dice(mine, theirs, dice[1:]))
            if best == len(dice):
                break
    return best


def _check_turn(start: Position, roll: Roll, plays: list[Play], play: Play) -> None:
    steps = play.steps
    available = len(roll.moves)
    assert len(steps) <= available
    # The steps replay by the rules to the play's position, hits included.
    player, opponent = list(start.player), list(start.opponent)
    for step in steps:
        assert step.die in roll.moves
        hit = _apply_step(player, opponent, step.source, step.die)
        assert hit is not None, (start, roll, str(play))
        assert hit == step.hit
    assert (tuple(player), tuple(opponent)) == (play.position.player, play.position.opponent)
    assert not Counter(step.die for step in steps) - Counter(roll.moves)
    # Pips removed equal the dice used (a bear-off counts only the checker's distance).
    removed = _pips(start.player) - _pips(player)
    assert removed == sum(min(step.source, step.die) for step in steps) == play.pips()
    # No way to play more dice; with one die of two playable, the higher one if it can.
    if len(steps) < available:
        assert max((other.dice_used for other in plays), default=0) == len(steps)
        orders = [roll.moves] if roll.is_double else [roll.moves, roll.moves[::-1]]
        most = max(_most_dice(list(start.player), list(start.opponent), dice) for dice in orders)
        assert len(steps) == most, (start, roll, str(play))
        if most == 1 and not roll.is_double:
            high_playable = _most_dice(list(start.player), list(start.opponent), (roll.high,))
            assert steps[0].die == (roll.high if high_playable else roll.low)


def _check_position(position: Position) -> None:
    player, opponent = position.player, position.opponent
    assert sum(player) == sum(opponent) == 15
    assert not any(player[point] and opponent[25 - point] for point in range(1, 25))


def _check_outcome(game: Game, mover: int) -> None:
    outcome = game.outcome
    assert outcome is not None
    assert outcome.winner == mover
    final = game.position_for(mover)
    assert final.player_off == 15
    assert final.opponent_off < 15
    if final.opponent_off > 0:
        expected = WinKind.SINGLE
    elif final.opponent_bar or any(final.at(point) < 0 for point in range(1, 7)):
        expected = WinKind.BACKGAMMON
    else:
        expected = WinKind.GAMMON
    assert outcome.kind == expected
    assert outcome.points == int(expected)


def _random_game(seed: int, tally: Counter[str]) -> None:
    game = Game()
    dice = SeededDice(seed)
    choose = random.Random(seed)
    actions: list[object] = []
    for _ in range(SAFETY_TURNS):
        if game.dice is None:
            actions.append(game.roll_dice(dice))
            if game.turn is None:
                continue
        start, roll, mover = game.position, game.dice, game.turn
        assert roll is not None and mover is not None
        plays = game.legal_plays()
        play = choose.choice(plays) if plays else Play.no_move(start)
        game.push(play)
        actions.append(play)
        _check_turn(start, roll, plays, play)
        tally["turns"] += 1
        tally["no move"] += not plays
        tally["part of the dice"] += 0 < play.dice_used < len(roll.moves)
        _check_position(game.position)
        if game.is_over():
            _check_outcome(game, mover)
            assert game.history == tuple(actions)
            tally[game.outcome.kind.name] += 1  # type: ignore[union-attr]
            tally[f"won by {mover}"] += 1
            return
        assert game.turn == 1 - mover
        assert game.position == play.position.flip()
    raise AssertionError(f"game {seed} did not end within {SAFETY_TURNS} turns")


def test_random_games_keep_the_invariants() -> None:
    tally: Counter[str] = Counter()
    began = time.perf_counter()
    for seed in range(RANDOM_GAMES):
        _random_game(seed, tally)
    elapsed = time.perf_counter() - began
    assert sum(tally[kind.name] for kind in WinKind) == RANDOM_GAMES
    # The seeds reach every kind of ending and the rarer kinds of turn.
    for key in ("SINGLE", "GAMMON", "BACKGAMMON", "won by 0", "won by 1", "no move"):
        assert tally[key] > 0, (key, tally)
    assert tally["part of the dice"] > 0, tally
    print(f"{RANDOM_GAMES} games, {tally['turns']} turns in {elapsed:.1f} s: {dict(tally)}")


# -- the Numba fast path ---------------------------------------------------------------


def test_fast_random_games_finish_with_every_invariant() -> None:
    start = Position.initial().to_array()
    results = play_random_games(start, 300, new_rng_state(11), 10_000)
    assert results.shape == (300, len(GAME_FIELDS))
    winner, kind, turns, broken = results.T
    assert (turns > 0).all()
    assert (broken == 0).all()
    assert set(winner.tolist()) == {0, 1}
    assert set(kind.tolist()) <= {1, 2, 3}
    assert 1 in kind
    again = play_random_games(start, 300, new_rng_state(11), 10_000)
    assert np.array_equal(results, again)
    other = play_random_games(start, 300, new_rng_state(12), 10_000)
    assert not np.array_equal(results, other)
    assert np.array_equal(start, Position.initial().to_array())
