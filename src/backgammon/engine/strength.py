"""Measuring strength: cubeless money games between two players, duplicate dice with
seats swapped, points per game with a standard error, in any variant.

Each deal ``i`` is played twice with the same dice (``SeededDice(seed + i)``): once with
player A in seat 0, once with A in seat 1. The per-deal mean of A's points removes most
of the luck of the dice; the standard error is taken over deals.

Games follow their variant's whole turn structure through
:class:`~backgammon.rules.game.Game`: rolls again after doubles, the complement of a
double, the opening winner's own roll. After an acey-deucey 1-2 the mover names the
largest double it can play (both seats alike, as the server's bots do). A Plakoto draw
scores 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from backgammon.engine.baseline import HeuristicPlayer, Player
from backgammon.engine.network import Networks
from backgammon.engine.players import EnginePlayer
from backgammon.rules.dice import SeededDice
from backgammon.rules.game import ChooseDouble, Game
from backgammon.rules.variant import STANDARD, Variant

__all__ = [
    "deal_points",
    "duplicate_match",
    "largest_playable_double",
    "match_against_baseline",
    "mean_and_error",
    "play_game",
]

_SAFETY_TURNS = 20_000


def largest_playable_double(game: Game) -> int:
    """The largest double the side on roll can play (1 when none can move): the
    choice after an acey-deucey 1-2 made for both seats alike."""
    for number in range(6, 0, -1):
        if game.position.legal_plays((number, number), game.variant):
            return number
    return 1


def play_game(first: Player, second: Player, seed: int, variant: Variant = STANDARD) -> int:
    """One cubeless game of ``variant`` with ``SeededDice(seed)``, ``first`` in seat 0;
    its points for seat 0 (negative if lost, 0 for a draw).

    Raises:
        RuntimeError: if the game does not end within a safety limit of turns.
    """
    game = Game(variant)
    dice = SeededDice(seed)
    seats = (first, second)
    for _ in range(_SAFETY_TURNS):
        if game.is_over():
            break
        pending = game.pending
        if pending is not None and pending.kind == "choose-double":
            seat = seats[pending.by]
            number = (
                seat.choose_double(game)
                if isinstance(seat, EnginePlayer)
                else largest_playable_double(game)
            )
            game.push(ChooseDouble(number))
            continue
        if game.dice is None:
            game.roll_dice(dice)
            continue
        assert game.turn is not None
        game.push(seats[game.turn].choose(game.position, game.dice, variant, game.continuation))
    outcome = game.outcome
    if outcome is None:
        raise RuntimeError(f"a {variant.name} game (seed {seed}) did not end")
    return outcome.points if outcome.winner == 0 else -outcome.points


def deal_points(a: Player, b: Player, seed: int, variant: Variant = STANDARD) -> float:
    """``a``'s mean points over one duplicate deal against ``b``: the game with
    ``SeededDice(seed)`` and ``a`` in seat 0, and the same dice with the seats swapped."""
    return (play_game(a, b, seed, variant) - play_game(b, a, seed, variant)) / 2


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean of per-deal ``values`` and its standard error (over deals).

    Raises:
        ValueError: for fewer than two values.
    """
    if len(values) < 2:
        raise ValueError(f"at least two deals are needed for an error estimate, got {len(values)}")
    mean = sum(values) / len(values)
    variance = sum((x - mean) ** 2 for x in values) / (len(values) - 1)
    return mean, math.sqrt(variance / len(values))


def duplicate_match(
    a: Player, b: Player, deals: int, seed: int = 0, variant: Variant = STANDARD
) -> tuple[float, float]:
    """``a``'s points per game against ``b`` over ``deals`` duplicate deals (2 games
    each, :func:`deal_points`) of ``variant``, and the standard error of that figure.

    Raises:
        ValueError: for fewer than two deals.
    """
    if deals < 2:
        raise ValueError(f"at least two deals are needed for an error estimate, got {deals}")
    return mean_and_error([deal_points(a, b, seed + deal, variant) for deal in range(deals)])


def match_against_baseline(
    networks: Networks, games: int, seed: int = 0, variant: Variant = STANDARD
) -> tuple[float, float]:
    """The networks' 0-ply points per game against the heuristic baseline over about
    ``games`` games (duplicate deals) of ``variant``, with its standard error."""
    from backgammon.engine.evaluator import Engine
    from backgammon.engine.players import EnginePlayer

    engine = Engine(networks, variant=variant)
    return duplicate_match(
        EnginePlayer(engine), HeuristicPlayer(), max(2, games // 2), seed, variant
    )
