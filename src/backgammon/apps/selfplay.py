"""Seeded self-play of any variant between simple players, summarised as JSON-ready
data (``backgammon selfplay``)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from backgammon.engine.baseline import HeuristicPlayer, Player, RandomPlayer
from backgammon.rules.dice import SeededDice
from backgammon.rules.game import ChooseDouble, Ending, Explode, Game, Outcome, WinKind
from backgammon.rules.variant import Variant

__all__ = ["play_games"]

_MAX_TURNS = 100_000


def _result_name(outcome: Outcome) -> str:
    if outcome.ending is Ending.BORNE_OFF:
        return outcome.kind.name.lower()
    if outcome.ending is Ending.FIRST_HIT:
        return "first_hit"
    return outcome.ending.name.lower()


def play_one(game: Game, players: tuple[Player, Player], seed: int) -> Outcome:
    """Play ``game`` to its end with ``players``, dice and choices seeded by ``seed``.

    Raises:
        RuntimeError: if the game runs past a very large number of turns (a bug).
    """
    dice = SeededDice(seed)
    choice = random.Random(seed)
    for _ in range(_MAX_TURNS):
        outcome = game.outcome
        if outcome is not None:
            return outcome
        if game.pending is not None and game.pending.kind == "choose-double":
            game.push(ChooseDouble(choice.randint(1, 6)))
            continue
        if game.turn is None or game.dice is None:
            bomb_ready = game.variant.atomic and game.explode_refusal() is None
            if bomb_ready and choice.random() < 0.05:
                game.push(Explode())
                continue
            game.roll_dice(dice)
            continue
        game.push(
            players[game.turn].choose(game.position, game.dice, game.variant, game.continuation)
        )
    raise RuntimeError(f"a {game.variant.name} game did not end in {_MAX_TURNS} turns")


def play_games(variant: Variant, games: int, seed: int, player: str = "random") -> dict[str, Any]:
    """Play ``games`` seeded games of ``variant`` and count the results per side.

    Args:
        variant: the variant to play.
        games: how many games.
        seed: the first game's seed (game ``i`` uses ``seed + i``).
        player: ``"random"`` or ``"heuristic"`` for both sides.

    Returns:
        ``{"variant", "games", "seed", "player", "results": {"player0": {...},
        "player1": {...}}, "points": [p0, p1], "turns": mean}`` where each side's
        results count its wins by kind (``single``, ``gammon``, ``backgammon``, and
        the variant's other endings such as ``first_hit`` or ``mother_pinned``), and
        ``"draws"`` counts drawn games (Plakoto).
    """
    results = [Counter[str](), Counter[str]()]
    points = [0, 0]
    draws = 0
    turns = 0
    for index in range(games):
        game_seed = seed + index
        if player == "heuristic":
            players: tuple[Player, Player] = (HeuristicPlayer(), HeuristicPlayer())
        else:
            players = (RandomPlayer(game_seed), RandomPlayer(game_seed + 1_000_003))
        game = Game(variant)
        outcome = play_one(game, players, game_seed)
        if outcome.is_draw:
            draws += 1
        else:
            results[outcome.winner][_result_name(outcome)] += 1
        points[outcome.winner] += outcome.points
        turns += sum(game.turns_played)
    kinds = [kind.name.lower() for kind in WinKind]
    return {
        "variant": variant.name,
        "games": games,
        "seed": seed,
        "player": player,
        "results": {
            f"player{side}": {kind: results[side].get(kind, 0) for kind in kinds}
            | dict(results[side])
            for side in (0, 1)
        },
        "draws": draws,
        "points": points,
        "turns": turns / games if games else 0.0,
    }
