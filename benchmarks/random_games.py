"""Play many seeded random games through the unchecked fast path and check invariants.

    python benchmarks/random_games.py --games 100000 --seed 1

Every game is played inside compiled code (:func:`backgammon.rules.fastgame.
play_random_games`) with uniformly random legal plays; after every turn the checker
counts, point ownership, pips moved and dice used are checked, and every game must end
by the rules (a side bears off all its checkers). Prints the counts of single wins,
gammons and backgammons, the turn statistics, any broken invariant, and games/s.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from backgammon import Position
from backgammon.rules.fastgame import INVARIANT_NAMES, new_rng_state, play_random_games


def main() -> None:
    """Run the games and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    start = Position.initial().to_array()
    play_random_games(start, 1, new_rng_state(0), 10_000)  # compile
    began = time.perf_counter()
    results = play_random_games(start, args.games, new_rng_state(args.seed), 10_000)
    seconds = time.perf_counter() - began

    broken = results[:, 3]
    unfinished = int(np.sum(results[:, 2] < 0))
    kinds = {
        name: int(np.sum(results[:, 1] == code))
        for code, name in ((1, "single"), (2, "gammon"), (3, "backgammon"))
    }
    turns = results[results[:, 2] > 0, 2]
    print(
        f"games: {args.games} (seed {args.seed}) in {seconds:.1f} s "
        f"= {args.games / seconds:,.0f} games/s"
    )
    print(f"wins by the first side on roll: {int(np.sum(results[:, 0] == 0))}")
    print("endings: " + ", ".join(f"{name} {count}" for name, count in kinds.items()))
    print(f"turns per game: mean {turns.mean():.1f}, min {turns.min()}, max {turns.max()}")
    print(f"games that did not end by the rules: {unfinished}")
    for code in range(1, len(INVARIANT_NAMES)):
        count = int(np.sum(broken == code))
        if count:
            print(f"BROKEN: {INVARIANT_NAMES[code]}: {count} games")
    if not np.any(broken) and unfinished == 0:
        print("every invariant held after every turn, and every game ended by the rules")


if __name__ == "__main__":
    main()
