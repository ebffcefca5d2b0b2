"""Seeded random games of every variant through the validated Game API, with the
rules' invariants checked after every turn.

    python benchmarks/variant_games.py --games 20000 [--variant NAME]

For each variant: every game must end by that variant's rules (no turn cap but a
safety limit that counts as a failure); after every play each side keeps its checkers,
no point holds both sides (unless one is pinned, in Plakoto), pins are consistent,
the Egyptian limit holds; gammons/backgammons only where the
variant scores them. Prints the endings per variant and games/s.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from backgammon import ChooseDouble, Explode, Game, SeededDice, WinKind, variants
from backgammon.rules.variant import Variant

SAFETY_TURNS = 50_000


def check(game: Game, variant: Variant) -> str | None:
    """The first broken invariant after a play, or ``None``."""
    position = game.position
    if position.player_checkers() != variant.checkers:
        return "the side on roll's checker count changed"
    if position.opponent_checkers() != variant.checkers:
        return "the opponent's checker count changed"
    problems = position.problems(variant)  # shared points, pins, point limit
    return "; ".join(problems) if problems else None


def run(variant: Variant, games: int, seed: int) -> tuple[Counter[str], list[str], float]:
    """Play the games; return ending counts, failures and the seconds taken."""
    endings: Counter[str] = Counter()
    failures: list[str] = []
    began = time.perf_counter()
    for index in range(games):
        game = Game(variant)
        dice = SeededDice(seed + index)
        rng = random.Random(seed + index)
        for _ in range(SAFETY_TURNS):
            if game.is_over():
                break
            if game.pending is not None and game.pending.kind == "choose-double":
                game.push(ChooseDouble(rng.randint(1, 6)))
                continue
            if game.dice is None:
                if variant.atomic and game.explode_refusal() is None and rng.random() < 0.05:
                    game.push(Explode())
                else:
                    game.roll_dice(dice)
                continue
            plays = game.legal_plays()
            game.push(plays[rng.randrange(len(plays))]) if plays else game.play("Ø")
            problem = check(game, variant)
            if problem:
                failures.append(f"game {index}: {problem}")
                break
        outcome = game.outcome
        if outcome is None:
            failures.append(f"game {index} did not end")
            continue
        if not variant.backgammons and outcome.kind is WinKind.BACKGAMMON:
            failures.append(f"game {index}: a backgammon in {variant.name}")
        endings[f"{outcome.ending.value}/{outcome.kind.name.lower()}"] += 1
    return endings, failures, time.perf_counter() - began


def main() -> None:
    """Run every variant (or one) and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default=None)
    args = parser.parse_args()
    chosen = [variants.find(args.variant)] if args.variant else variants.all_variants()
    for variant in chosen:
        endings, failures, seconds = run(variant, args.games, args.seed)
        rate = args.games / seconds if seconds else 0.0
        summary = ", ".join(f"{name} {count}" for name, count in sorted(endings.items()))
        status = "all invariants held" if not failures else f"{len(failures)} FAILURES"
        print(f"{variant.name:14} {args.games} games, {rate:,.0f}/s, {status}: {summary}")
        for failure in failures[:5]:
            print(f"    {failure}")


if __name__ == "__main__":
    main()
