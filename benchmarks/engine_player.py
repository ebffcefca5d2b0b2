"""Our engine as a player for ``../shared/gnubg/play_vs_gnubg.py`` (its JSON-lines
protocol): ``python benchmarks/engine_player.py [--weights FILE] [--ply N]``.

Cubeless only (the harness's default); each move request is answered with the
Position ID of our best play's result, which the harness matches against GNU
Backgammon's own list of legal plays.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from backgammon import Position
from backgammon.engine import Engine


def position_of(explicit: dict[str, Any]) -> Position:
    """Our position from the harness's explicit form (side on roll first)."""
    sides = []
    for key in ("on_roll", "opponent"):
        side = explicit[key]
        sides.append([side["off"], *side["points"], side["bar"]])
    return Position(sides[0], sides[1])


def main() -> None:
    """Answer the harness's requests until it says bye."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", default=None, help="a weights file (default: shipped)")
    parser.add_argument("--ply", type=int, default=0)
    args = parser.parse_args()
    engine = Engine(args.weights)
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        reply: dict[str, Any] = {}
        if kind == "hello":
            reply = {"name": f"backgammon {args.ply}-ply"}
        elif kind == "move":
            position = position_of(message["position"])
            play = engine.best_play(position, tuple(message["dice"]), ply=args.ply)
            reply = {"result_id": play.position.position_id}
        elif kind == "double?":
            reply = {"action": "roll"}
        elif kind == "take?":
            reply = {"action": "take"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        if kind == "bye":
            break


if __name__ == "__main__":
    main()
