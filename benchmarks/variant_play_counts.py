"""Write (or check) the play-count table of every variant: for fixed positions and all
21 rolls (tabula: the 56 throws of three dice), how many distinct legal plays there
are ("perft" depth 1).

    python benchmarks/variant_play_counts.py            # check against the table
    python benchmarks/variant_play_counts.py --write    # regenerate tests/data/...

The positions are each variant's start and two positions reached by seeded random
play. The table is checked in and compared by ``tests/variants/test_variants.py``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from backgammon import (
    ALL_ROLLS,
    ALL_THROWS_OF_THREE,
    ChooseDouble,
    Game,
    Position,
    SeededDice,
    variants,
)
from backgammon.engine.baseline import RandomPlayer

TABLE = Path(__file__).resolve().parents[1] / "tests" / "data" / "variant_play_counts.json"


def sample_positions(name: str) -> list[Position]:
    """The variant's start and the positions after 6 and 14 random turns (seed 7)."""
    variant = variants.find(name)
    game = Game(variant)
    dice = SeededDice(7)
    player = RandomPlayer(7)
    positions = [game.position]
    turns = 0
    while not game.is_over() and len(positions) < 3:
        if game.pending is not None and game.pending.kind == "choose-double":
            game.push(ChooseDouble(6))
            continue
        if game.dice is None:
            game.roll_dice(dice)
            continue
        assert game.turn is not None
        game.push(player.choose(game.position, game.dice, variant))
        turns += 1
        if turns in (6, 14) and not game.is_over():
            positions.append(game.position)
    return positions


def table() -> dict[str, Any]:
    """The play counts of every variant's sample positions for all 21 rolls."""
    out: dict[str, Any] = {}
    for name in variants.names():
        variant = variants.find(name)
        out[name] = [
            {
                "position": position.slots_text,
                "counts": {
                    str(roll): len(position.legal_plays(roll, variant))
                    for roll in (ALL_ROLLS if variant.dice == 2 else ALL_THROWS_OF_THREE)
                },
            }
            for position in sample_positions(name)
        ]
    return out


def main() -> None:
    """Write or check the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="regenerate the table")
    args = parser.parse_args()
    current = table()
    if args.write:
        TABLE.write_text(json.dumps(current, indent=1, sort_keys=True) + "\n")
        print(f"wrote {TABLE}")
        return
    stored = json.loads(TABLE.read_text())
    print("table matches" if stored == current else "TABLE DIFFERS")


if __name__ == "__main__":
    main()
