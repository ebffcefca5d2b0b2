"""Tests for backgammon.server.matches.turn_plays: a roll's plays worked out once, their
texts remembered by their steps.

The remembered texts must be exactly what the rules write for each play, over random
positions of several variants; the turn's plays must follow the game (a new roll, a
new position) and never be stale; and a live match must still take a play written
in any order the rules accept, not only the canonical text it sent.
"""

from __future__ import annotations

import random

import pytest

from backgammon.rules.dice import Roll
from backgammon.rules.game import Game
from backgammon.rules.play import legal_plays
from backgammon.rules.position import Position
from backgammon.server.matches.live import ActionRefusedError, LiveMatch
from backgammon.server.matches.turn_plays import PlayTexts, TurnPlays
from backgammon.server.protocol import ActionBody, MatchSettings
from backgammon.variants import find


def random_games(variant_name: str, turns: int, seed: int) -> list[Game]:
    """Games at random points of random games of a variant, each with dice to play."""
    variant = find(variant_name)
    rng = random.Random(seed)
    found: list[Game] = []
    while len(found) < turns:
        position = Position.initial(variant)
        while len(found) < turns:
            dice = Roll(*(rng.randint(1, 6) for _ in range(variant.dice)))
            found.append(Game(variant, position=position, turn=0, dice=dice))
            plays = legal_plays(position, dice, variant)
            after = rng.choice(list(plays)).position if plays else position
            if after.is_game_over():
                break
            position = after.flip()
    return found


@pytest.mark.parametrize("variant", ["standard", "nackgammon", "hypergammon", "tabula"])
def test_remembered_texts_are_the_rules_own(variant: str) -> None:
    texts = PlayTexts()
    seen = 0
    for game in random_games(variant, 150, seed=len(variant)):
        turn = TurnPlays.of(game, texts=texts)
        plays = game.legal_plays()
        assert len(turn) == len(plays)
        notations, all_steps = turn.notations(game), turn.steps(game)
        for play, notation, steps in zip(plays, notations, all_steps, strict=True):
            assert notation == play.notation()
            assert steps == tuple((step.source, step.destination) for step in play.steps)
            assert turn.written(notation, game) == play
            if (
                all_steps.count(steps) == 1
                and sum(sorted(other) == sorted(steps) for other in all_steps) == 1
            ):
                assert turn.with_steps(reversed(steps), game) == play
            seen += 1
    assert seen > 300
    assert 0 < len(texts) < seen  # the same steps came up more than once


def test_texts_keep_at_most_their_limit_and_what_is_in_use() -> None:
    texts = PlayTexts(limit=6)
    games = random_games("standard", 40, seed=3)
    kept = games[0].legal_plays()[0]
    for game in games:
        for play in game.legal_plays():
            assert texts.of(play)[0] == play.notation()
            assert len(texts) <= 6
            texts.of(kept)
            assert kept.step_bytes in texts._newer or kept.step_bytes in texts._older


def test_the_turn_follows_the_game() -> None:
    first, second = random_games("standard", 2, seed=11)
    turn = TurnPlays.of(first)
    assert TurnPlays.of(first, turn) is turn  # same position, same dice
    assert first.dice is not None
    same_dice = Game(position=second.position, turn=0, dice=first.dice)
    again = TurnPlays.of(same_dice, turn)
    assert again is not turn and again.position == second.position
    assert list(again.notations(same_dice)) == [play.notation() for play in same_dice.legal_plays()]
    other_dice = Roll(*(7 - die for die in first.dice.dice))
    third = TurnPlays.of(Game(position=first.position, turn=0, dice=other_dice), turn)
    assert third is not turn and third.dice == other_dice


def test_a_live_match_takes_a_play_in_any_written_order() -> None:
    live = LiveMatch("m1", MatchSettings(length=3, clock=None), ("a", "b"), bytes(32))
    live.start(0)
    for _ in range(40):
        seat = live.waiting_for
        state = live.state(1)["game"]
        if state["dice"] is None:
            live.act(seat, ActionBody(kind="roll"), 1)
            continue
        canonical = state["legal_plays"][0]
        moves = canonical.split()
        written = " ".join(reversed(moves)) if len(moves) > 1 else canonical
        entries = live.act(seat, ActionBody(kind="play", move=written), 1)
        assert entries[0]["move"] == canonical
    assert live.seq > 40


def test_a_live_match_takes_a_play_by_its_steps_in_any_order() -> None:
    live = LiveMatch("m1", MatchSettings(length=3, clock=None), ("a", "b"), bytes(32))
    live.start(0)
    played = 0
    while played < 30:
        seat = live.waiting_for
        state = live.state(1)["game"]
        if state["dice"] is None:
            live.act(seat, ActionBody(kind="roll"), 1)
            continue
        index = len(state["legal_plays"]) // 2
        steps = [list(pair) for pair in reversed(state["legal_steps"][index])]
        entries = live.act(seat, ActionBody(kind="play", steps=steps), 1)
        # The play whose steps these are, unless another play makes the same ones.
        same = [s for s in state["legal_steps"] if sorted(s) == sorted(state["legal_steps"][index])]
        if len(same) == 1:
            assert entries[0]["move"] == state["legal_plays"][index]
        played += 1


def test_a_play_must_name_its_move_or_its_steps_not_both() -> None:
    live = LiveMatch("m1", MatchSettings(length=3, clock=None), ("a", "b"), bytes(32))
    live.start(0)
    seat = live.waiting_for
    if live.state(1)["game"]["dice"] is None:
        live.act(seat, ActionBody(kind="roll"), 1)
        seat = live.waiting_for
    before = live.seq
    state = live.state(1)["game"]
    both = ActionBody(kind="play", move=state["legal_plays"][0], steps=state["legal_steps"][0])
    with pytest.raises(ActionRefusedError, match="one of them, not both"):
        live.act(seat, both, 1)
    with pytest.raises(ActionRefusedError, match="not enough of your checkers on point 3"):
        live.act(seat, ActionBody(kind="play", steps=[[3, 2], [2, 1], [24, 23], [6, 5]]), 1)
    assert live.seq == before


def test_a_state_without_legal_plays_still_says_how_many_dice_move() -> None:
    live = LiveMatch("m1", MatchSettings(length=3, clock=None), ("a", "b"), bytes(32))
    live.start(0)
    if live.state(1)["game"]["dice"] is None:
        live.act(live.waiting_for, ActionBody(kind="roll"), 1)
    full, bare = live.state(1)["game"], live.state(1, legal_plays=False)["game"]
    assert bare["legal_plays"] is None and bare["legal_steps"] is None
    assert bare["to_move"] == full["to_move"] == 2
