"""Measuring strength: cubeless money games between two players, duplicate dice with
seats swapped, points per game with a standard error.

Each deal ``i`` is played twice with the same dice (``SeededDice(seed + i)``): once with
player A in seat 0, once with A in seat 1. The per-deal mean of A's points removes most
of the luck of the dice; the standard error is taken over deals.
"""

from __future__ import annotations

import math

from backgammon.engine.baseline import HeuristicPlayer, Player
from backgammon.engine.network import Networks
from backgammon.rules.dice import SeededDice
from backgammon.rules.game import Game

__all__ = ["duplicate_match", "match_against_baseline"]


def _play(first: Player, second: Player, seed: int) -> int:
    """One cubeless game, ``first`` in seat 0; its points for seat 0 (negative if lost)."""
    game = Game()
    dice = SeededDice(seed)
    seats = (first, second)
    while not game.is_over():
        if game.dice is None:
            game.roll_dice(dice)
            continue
        assert game.turn is not None
        game.push(seats[game.turn].choose(game.position, game.dice))
    outcome = game.outcome
    assert outcome is not None
    return outcome.points if outcome.winner == 0 else -outcome.points


def duplicate_match(a: Player, b: Player, deals: int, seed: int = 0) -> tuple[float, float]:
    """``a``'s points per game against ``b`` over ``deals`` duplicate deals (2 games
    each), and the standard error of that figure.

    Raises:
        ValueError: for fewer than two deals.
    """
    if deals < 2:
        raise ValueError(f"at least two deals are needed for an error estimate, got {deals}")
    means = []
    for deal in range(deals):
        as_first = _play(a, b, seed + deal)
        as_second = -_play(b, a, seed + deal)
        means.append((as_first + as_second) / 2)
    mean = sum(means) / deals
    variance = sum((x - mean) ** 2 for x in means) / (deals - 1)
    return mean, math.sqrt(variance / deals)


def match_against_baseline(networks: Networks, games: int, seed: int = 0) -> tuple[float, float]:
    """The networks' 0-ply points per game against the heuristic baseline over about
    ``games`` games (duplicate deals), with its standard error."""
    from backgammon.engine.evaluator import Engine
    from backgammon.engine.players import EnginePlayer

    engine = Engine(networks)
    return duplicate_match(EnginePlayer(engine), HeuristicPlayer(), max(2, games // 2), seed)
