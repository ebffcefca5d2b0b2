"""Strength measurement: duplicate deals with seats swapped, in any variant."""

from __future__ import annotations

import pytest

from backgammon import variants
from backgammon.engine import HeuristicPlayer, strength
from backgammon.engine.baseline import RandomPlayer
from backgammon.engine.strength import duplicate_match, mean_and_error, play_game


def test_each_deal_is_played_twice_with_the_same_dice_and_seats_swapped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []

    def fake(first: object, second: object, seed: int, variant: object) -> int:
        calls.append((first, second, seed, variant))
        return 2 if first == "a" else -1  # "a" wins 2 in seat 0, "b" wins 1 in seat 0

    monkeypatch.setattr(strength, "play_game", fake)
    tavla = variants.find("tavla")
    mean, error = duplicate_match("a", "b", 3, seed=10, variant=tavla)  # type: ignore[arg-type]
    assert calls == [
        (first, second, seed, tavla)
        for seed in (10, 11, 12)
        for first, second in (("a", "b"), ("b", "a"))
    ]
    # Deal: a in seat 0 wins 2; b in seat 0 loses 1 (a gets +1): mean 1.5 every deal.
    assert (mean, error) == (1.5, 0.0)


def test_the_standard_error_is_taken_over_deals() -> None:
    # Sample variance (1 + 1 + 1 + 1) / 3, over 4 deals: sqrt(1 / 3).
    mean, error = mean_and_error([1.0, -1.0, 1.0, -1.0])
    assert mean == 0.0
    assert error == pytest.approx((1 / 3) ** 0.5)
    with pytest.raises(ValueError, match="at least two deals"):
        mean_and_error([0.5])


def test_a_player_against_itself_scores_exactly_zero() -> None:
    player = HeuristicPlayer()
    assert duplicate_match(player, player, 2, seed=4, variant=variants.find("nackgammon")) == (
        0.0,
        0.0,
    )


@pytest.mark.parametrize("name", ["acey-deucey", "russian", "plakoto", "long-nardy"])
def test_games_of_every_turn_structure_finish(name: str) -> None:
    variant = variants.find(name)
    points = play_game(HeuristicPlayer(), RandomPlayer(1), seed=2, variant=variant)
    assert -3 <= points <= 3
