"""Tests for backgammon.server.turn_plays: a roll's plays worked out once, their
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
from backgammon.server.live_match import LiveMatch
from backgammon.server.protocol import ActionBody, MatchSettings
from backgammon.server.turn_plays import PlayTexts, TurnPlays
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
        for play, notation, steps in zip(plays, turn.notations, turn.steps, strict=True):
            assert notation == play.notation()
            assert steps == tuple((step.source, step.destination) for step in play.steps)
            assert turn.written(notation, game) == play
            seen += 1
    assert seen > 300
    assert 0 < len(texts) < seen  # the same steps came up more than once


def test_texts_forget_everything_at_their_limit() -> None:
    texts = PlayTexts(limit=5)
    for game in random_games("standard", 40, seed=3):
        for play in game.legal_plays():
            assert texts.of(play)[0] == play.notation()
            assert len(texts) <= 5


def test_the_turn_follows_the_game() -> None:
    first, second = random_games("standard", 2, seed=11)
    turn = TurnPlays.of(first)
    assert TurnPlays.of(first, turn) is turn  # same position, same dice
    assert first.dice is not None
    same_dice = Game(position=second.position, turn=0, dice=first.dice)
    again = TurnPlays.of(same_dice, turn)
    assert again is not turn and again.position == second.position
    assert list(again.notations) == [play.notation() for play in same_dice.legal_plays()]
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
