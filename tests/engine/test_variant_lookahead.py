"""Lookahead in the variants: the search generates each variant's own plays, values
games ended by Plakoto's mother rule exactly, and refuses the variants whose turns it
does not follow."""

from __future__ import annotations

import random

import numpy as np
import pytest

from backgammon import variants
from backgammon.engine import Engine
from backgammon.engine.evaluator import lookahead_supported, mother_rule_results
from backgammon.rules.dice import ALL_ROLLS
from backgammon.rules.position import Position
from backgammon.rules.variant import Variant

SEARCHED = ("long-nardy", "plakoto", "tavla", "egyptian", "caucasian")
NOT_SEARCHED = ("russian", "acey-deucey", "acey-deucey-european", "first-hit", "atomic")


def _walk(variant: Variant, seed: int, plies: int) -> Position:
    """A position reached by random legal plays from the variant's start."""
    rng = random.Random(seed)
    position = Position.initial(variant)
    for _ in range(plies):
        plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)), variant)
        position = (plays[rng.randrange(len(plays))].position if plays else position).flip()
    return position


def _one_ply_by_hand(engine: Engine, position: Position) -> float:
    """The side on roll's cubeless equity: for each of the 21 rolls, the best play by
    the 0-ply equity of its result (the opponent's, negated), averaged."""
    total = 0.0
    for roll in ALL_ROLLS:
        plays = position.legal_plays((roll.high, roll.low), engine.variant)
        if plays:
            results = engine.evaluate_many([play.position.flip() for play in plays])
            best = max(-result.equity for result in results)
        else:
            best = -engine.evaluate(position.flip()).equity
        total += roll.weight * best
    return total


@pytest.mark.parametrize("name", SEARCHED)
def test_one_ply_is_the_average_over_rolls_of_the_variants_best_play(name: str) -> None:
    variant = variants.find(name)
    assert lookahead_supported(variant)
    engine = Engine(variant=variant)
    for seed in range(3):
        position = _walk(variant, seed, 10 + 7 * seed)
        searched = engine.evaluate_at(position, 1).equity
        assert searched == pytest.approx(_one_ply_by_hand(engine, position), abs=1e-5)
    position = _walk(variant, 9, 12)
    roll = next(r for r in ALL_ROLLS if len(position.legal_plays((r.high, r.low), variant)) > 1)
    deeper = engine.best_play(position, (roll.high, roll.low), ply=2)
    assert deeper in position.legal_plays((roll.high, roll.low), variant)


@pytest.mark.parametrize("name", NOT_SEARCHED)
def test_variants_whose_turns_the_search_cannot_follow_say_so(name: str) -> None:
    variant = variants.find(name)
    assert not lookahead_supported(variant)
    engine = Engine(variant=variant)
    position = Position.initial(variant)
    assert engine.best_play(position, (6, 4), ply=0) is not None
    with pytest.raises(NotImplementedError, match=f"does not follow {variant.name}'s turns"):
        engine.best_play(position, (6, 4), ply=1)


def _slots(counts: dict[int, int | str]) -> str:
    symbols = ["0"] * 26
    for slot, count in counts.items():
        symbols[slot] = count if isinstance(count, str) else "0123456789abcdef"[count]
    return "".join(symbols)


def test_pinning_the_mother_is_valued_as_the_double_win_it_is() -> None:
    plakoto = variants.find("plakoto")
    engine = Engine(variant=plakoto)
    # Our checker on our 4-point can land on the opponent's lone mother (our 1-point).
    position = Position.from_slots_text(
        f"slots:{_slots({0: 3, 6: 10, 4: 1, 13: 1})}/{_slots({24: 1, 6: 10, 8: 4})}"
    )
    for ply in (0, 1):
        best = engine.rank_plays(position, (3, 1), ply=ply)[0]
        assert best.play.hits  # the pin
        assert best.evaluation.equity == pytest.approx(2.0)
        assert best.evaluation.win == 1.0 and best.evaluation.win_gammon == 1.0


def test_the_mother_rule_results_follow_the_exception_and_the_draw() -> None:
    def board(mine: dict[int, int | str], theirs: dict[int, int | str]) -> np.ndarray:
        position = Position.from_slots_text(f"slots:{_slots(mine)}/{_slots(theirs)}")
        return np.frombuffer(position._data, dtype=np.uint8)

    lost = board({24: "*", 6: 14}, {1: 1, 6: 14})  # our mother pinned, theirs home
    spared = board({24: "*", 6: 14}, {1: 1, 24: 1, 6: 13})  # the pinner's own 24 occupied
    won = board({1: 1, 6: 14}, {24: "*", 6: 14})
    drawn = board({1: 1, 24: "*", 6: 13}, {1: 1, 24: "*", 6: 13})
    ended, values = mother_rule_results(np.stack([lost, spared, won, drawn]))
    assert ended.tolist() == [True, False, True, True]
    assert values[0].tolist() == [0.0, 0.0, 0.0, 1.0, 0.0]
    assert values[2].tolist() == [1.0, 1.0, 0.0, 0.0, 0.0]
    assert values[3].tolist() == [0.5, 0.0, 0.0, 0.0, 0.0]
    prison_ended, _ = mother_rule_results(spared[None, :], prison=True)
    assert prison_ended.tolist() == [True]
