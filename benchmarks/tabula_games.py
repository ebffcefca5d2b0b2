"""Play seeded random games of tabula through ``Game`` and check that each ends with a
winner, with every checker accounted for after every turn.

    python benchmarks/tabula_games.py --games 20000 --seed 0

Prints one JSON line: games, wins by seat, turns per game (mean, max), seconds. Exits
non-zero on the first game that breaks a rule (the message names its seed).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from backgammon import Game, Play, SeededDice, variants

TABULA = variants.find("tabula")


def play_one(seed: int, max_turns: int = 5000) -> tuple[int, int]:
    """One random game from ``seed``; returns (winner, turns played).

    Raises:
        AssertionError: if the game breaks a rule or does not end.
    """
    game = Game(TABULA)
    dice = SeededDice(seed)
    rng = random.Random(seed)
    turns = 0
    while not game.is_over():
        if turns > max_turns:
            raise AssertionError(f"game {seed} did not end in {max_turns} turns")
        if game.dice is None:
            game.roll_dice(dice)
            continue
        plays = game.legal_plays()
        game.push_unchecked(
            plays[rng.randrange(len(plays))] if plays else Play.no_move(game.position)
        )
        turns += 1
        position = game.position
        assert position.player_checkers() == position.opponent_checkers() == 15, seed
    outcome = game.outcome
    assert outcome is not None and outcome.winner in (0, 1) and outcome.points == 1, seed
    return outcome.winner, turns


def main() -> None:
    """Play the games and print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    wins = [0, 0]
    lengths = []
    for seed in range(args.seed, args.seed + args.games):
        winner, turns = play_one(seed)
        wins[winner] += 1
        lengths.append(turns)
    summary = {
        "games": args.games,
        "wins": wins,
        "turns_mean": round(sum(lengths) / len(lengths), 1),
        "turns_max": max(lengths),
        "seconds": round(time.perf_counter() - start, 1),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
