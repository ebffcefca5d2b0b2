"""Tabula: the engine's network against the heuristic player, in parallel processes.

    python benchmarks/tabula_strength.py --games 2000 --seed 1000000 [--weights FILE]
        [--processes 2] [--opponent heuristic|heuristic-same-way|pipcount|random ...]
        [--ship]

Cubeless tabula games through ``Game`` (three dice a throw, single games: a win is
one point), 0-ply, duplicate dice with seats swapped
(:func:`backgammon.engine.strength.duplicate_match`: deal ``i`` uses
``SeededDice(seed + i)`` twice), the deals split between ``--processes`` workers.
Prints the points per game of the network (``--weights``, else the network shipped
for tabula) against each opponent with its standard error over deals. A network
ships when it beats the first opponent named (the heuristic player by default) by
more than two standard errors: ``--ship`` then writes ``--weights`` into the package
as ``src/backgammon/engine/data/tabula.weights.npz`` with the figures in its
metadata (``Engine(variant=tabula)`` and the server's bots then play with it).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from backgammon.engine.baseline import HeuristicPlayer, PipCountPlayer, Player, RandomPlayer
from backgammon.engine.evaluator import Engine, variant_weights_name
from backgammon.engine.network import Networks
from backgammon.engine.players import EnginePlayer
from backgammon.engine.strength import play_game
from backgammon.variants.tabula import TABULA

DATA = Path(__file__).resolve().parents[1] / "src" / "backgammon" / "engine" / "data"


def _opponent(name: str) -> Player:
    if name == "heuristic-same-way":
        return HeuristicPlayer(follow_direction=True)
    if name == "pipcount":
        return PipCountPlayer()
    if name == "random":
        return RandomPlayer(0)
    return HeuristicPlayer()


def _deal_means(weights: str | None, opponent: str, seeds: range) -> list[float]:
    """The network's mean points over each duplicate deal of ``seeds`` (both seats)."""
    engine = Engine(weights, variant=TABULA) if weights else Engine(variant=TABULA)
    network, other = EnginePlayer(engine), _opponent(opponent)
    means = []
    for seed in seeds:
        as_first = play_game(network, other, seed, TABULA)
        as_second = -play_game(other, network, seed, TABULA)
        means.append((as_first + as_second) / 2)
    return means


def measure(
    weights: str | None, games: int, seed: int, processes: int, opponent: str
) -> tuple[float, float]:
    """Points per game of the network against ``opponent`` over ``games`` games
    (``games // 2`` duplicate deals), and its standard error."""
    deals = max(2, games // 2)
    parts = [range(seed + start, seed + deals, processes) for start in range(processes)]
    with ProcessPoolExecutor(processes) as pool:
        chunks = pool.map(_deal_means, [weights] * processes, [opponent] * processes, parts)
        means = [mean for chunk in chunks for mean in chunk]
    average = sum(means) / len(means)
    variance = sum((x - average) ** 2 for x in means) / (len(means) - 1)
    return average, math.sqrt(variance / len(means))


def ship(weights: str, figures: dict[str, object]) -> Path:
    """Write ``weights`` into the package as tabula's networks, stamped with
    ``figures``; return the path."""
    networks = Networks.load(weights)
    metadata = dataclasses.replace(
        networks.metadata, variant=TABULA.name, trained=True, strength=figures
    )
    target = DATA / variant_weights_name(TABULA)
    networks.replace(metadata=metadata).save(target)
    return target


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games (two per deal)")
    parser.add_argument("--seed", type=int, default=1_000_000, help="dice seed of the first deal")
    parser.add_argument("--weights", default=None, help="weights file (default: shipped)")
    parser.add_argument("--processes", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--opponent",
        action="append",
        choices=("heuristic", "heuristic-same-way", "pipcount", "random"),
        help="heuristic (the default): the generic heuristic player (the yardstick of "
        "docs/variants.md, reading the board as the standard one); heuristic-same-way: the "
        "same, reading threats the way tabula's checkers move; pipcount: the pip-count "
        "racer. Repeat for several; the first decides --ship",
    )
    parser.add_argument(
        "--ship", action="store_true", help="write --weights into the package if it wins"
    )
    args = parser.parse_args()
    opponents = args.opponent or ["heuristic"]
    if args.ship and args.weights is None:
        parser.error("--ship needs --weights")
    figures: dict[str, object] = {}
    for opponent in opponents:
        began = time.perf_counter()
        ppg, error = measure(args.weights, args.games, args.seed, args.processes, opponent)
        figures[f"vs_{opponent}"] = {
            "ppg": round(ppg, 4),
            "se": round(error, 4),
            "games": args.games,
        }
        verdict = (
            "ahead by more than two standard errors" if ppg > 2 * error else "not clearly ahead"
        )
        print(
            f"tabula: network {args.weights or 'shipped'} vs {opponent}: "
            f"{ppg:+.3f} ± {error:.3f} points per game ({args.games} games, seed {args.seed}, "
            f"{time.perf_counter() - began:.0f} s): {verdict}",
            flush=True,
        )
    first = figures[f"vs_{opponents[0]}"]
    assert isinstance(first, dict)
    if args.ship and first["ppg"] > 2 * first["se"]:
        figures["settings"] = (
            f"cubeless single games, 0-ply, duplicate dice, seats swapped, seed {args.seed}"
        )
        figures["command"] = (
            f"python benchmarks/tabula_strength.py --weights FILE --games {args.games} "
            f"--seed {args.seed} " + " ".join(f"--opponent {name}" for name in opponents)
        )
        print(f"shipped: written to {ship(args.weights, figures)}")
    elif args.ship:
        print(f"not shipped: not clearly ahead of {opponents[0]}")


if __name__ == "__main__":
    main()
