"""Tabula: the engine's network against the heuristic player, in parallel processes.

    python benchmarks/tabula_strength.py --games 2000 --seed 1000000 [--weights FILE]
        [--processes 2] [--opponent heuristic|heuristic-same-way|pipcount|random]

Cubeless tabula games through ``Game`` (three dice a throw, single games: a win is
one point), 0-ply, duplicate dice with seats swapped
(:func:`backgammon.engine.strength.duplicate_match`: deal ``i`` uses
``SeededDice(seed + i)`` twice), the deals split between ``--processes`` workers.
Prints the points per game of the network (``--weights``, else the network shipped
for tabula) against the opponent with its standard error over deals; a network
ships (``src/backgammon/engine/data/tabula.weights.npz``) when it beats the
heuristic player by more than two standard errors.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor

from backgammon.engine.baseline import HeuristicPlayer, PipCountPlayer, Player, RandomPlayer
from backgammon.engine.evaluator import Engine
from backgammon.engine.players import EnginePlayer
from backgammon.engine.strength import play_game
from backgammon.variants.tabula import TABULA


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


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games (two per deal)")
    parser.add_argument("--seed", type=int, default=1_000_000, help="dice seed of the first deal")
    parser.add_argument("--weights", default=None, help="weights file (default: shipped)")
    parser.add_argument("--processes", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--opponent",
        choices=("heuristic", "heuristic-same-way", "pipcount", "random"),
        default="heuristic",
        help="heuristic: the generic heuristic player (the yardstick of docs/variants.md, "
        "reading the board as the standard one); heuristic-same-way: the same reading "
        "threats the way tabula's checkers move; pipcount: the pip-count racer",
    )
    args = parser.parse_args()
    began = time.perf_counter()
    ppg, error = measure(args.weights, args.games, args.seed, args.processes, args.opponent)
    verdict = "ahead by more than two standard errors" if ppg > 2 * error else "not clearly ahead"
    print(
        f"tabula: network {args.weights or 'shipped'} vs {args.opponent}: "
        f"{ppg:+.3f} ± {error:.3f} points per game ({args.games} games, seed {args.seed}, "
        f"{time.perf_counter() - began:.0f} s): {verdict}"
    )


if __name__ == "__main__":
    main()
