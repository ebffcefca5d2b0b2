"""Which side of a position our play is weak at: cross rollouts against GNU Backgammon.

    .venv/bin/python benchmarks/cross_rollout.py POSITION_ID [POSITION_ID ...]
        [--games 1500] [--seed 5] [--weights FILE] [--ply 0] [--pairings all]
        [--json OUT]

Plays each position out (cubeless money games, the side on roll first, to the end) with
each side played by our engine (at ``--ply``, 0 by default) or by GNU Backgammon (0-ply)
on the same dice, in the four pairings (or only gnubg on roll against ours), and prints
the side on roll's mean win, win-gammon and win-backgammon rates (and its losses'
gammon and backgammon rates) for each, with the standard error of the win rate. Where
our evaluation and gnubg's disagree, this says whose *play* makes the difference: e.g.
in the ace-point game of the reference match (2M0AYGzubCaCAA) the side on roll wins 0.61
with gnubg defending and 0.68-0.69 with ours (docs/analysis.md). GNU Backgammon is a
yardstick here, never a source of training data.

Needs ``/usr/games/gnubg`` and ``../shared/gnubg/gnubg_client.py`` (started headless
through its service, as the other gnubg benchmarks do).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

from backgammon.engine import Engine
from backgammon.rules.game import WinKind, outcome_of
from backgammon.rules.position import Position

HERE = Path(__file__).resolve().parent
GNUBG_DIR = HERE.parent.parent / "shared" / "gnubg"
PLAYERS = ("ours", "gnubg")


def _gnubg_play(service: Any, position: Position, dice: tuple[int, int]) -> Position:
    """GNU Backgammon's 0-ply cubeless choice for ``dice`` (the mover's view after it)."""
    answer = service.call(
        "best",
        dice=list(dice),
        ec={"plies": 0, "cubeful": 0, "noise": 0.0, "deterministic": 1, "prune": 1},
        pid=position.position_id,
    )
    return Position.from_position_id(answer["id"])


def cross_rollout(
    position: Position,
    first: str,
    second: str,
    games: int,
    seed: int,
    engine: Engine,
    service: Any,
    ply: int = 0,
) -> dict[str, Any]:
    """Play ``position`` out ``games`` times, its side on roll played by ``first`` and
    the other by ``second`` (``"ours"`` or ``"gnubg"``; ours searching at ``ply``);
    the dice are the same for every pairing with the same ``seed``."""
    dice = random.Random(seed)
    totals = [0.0] * 5
    for _ in range(games):
        current, side = position, 0
        while True:
            roll = (dice.randint(1, 6), dice.randint(1, 6))
            player = first if side == 0 else second
            if player == "ours":
                after = engine.best_play(current, roll, ply).position
            else:
                after = _gnubg_play(service, current, roll)
            kind = outcome_of(after)
            if kind is not None:
                gammon, backgammon = kind >= WinKind.GAMMON, kind == WinKind.BACKGAMMON
                offset = 0 if side == 0 else 2
                if side == 0:
                    totals[0] += 1
                totals[1 + offset] += gammon
                totals[2 + offset] += backgammon
                break
            current, side = after.flip(), 1 - side
    win = totals[0] / games
    return {
        "position_id": position.position_id,
        "on_roll": first,
        "other": second,
        "games": games,
        "win": win,
        "win_gammon": totals[1] / games,
        "win_backgammon": totals[2] / games,
        "lose_gammon": totals[3] / games,
        "lose_backgammon": totals[4] / games,
        "win_standard_error": math.sqrt(max(win * (1 - win), 1e-12) / games),
    }


def main() -> None:
    """Run the four pairings on each position and print a table (and JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="+", help="GNU Backgammon position IDs")
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--weights", default=None, help="our networks (default: shipped)")
    parser.add_argument("--ply", type=int, default=0, help="our side's search depth")
    parser.add_argument(
        "--pairings",
        choices=("all", "ours-defending"),
        default="all",
        help="ours-defending: only gnubg on roll against our engine",
    )
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    if args.ply < 0:
        parser.error(f"--ply must be >= 0, got {args.ply}")
    try:
        positions = [Position.from_position_id(text) for text in args.positions]
    except ValueError as error:
        parser.error(str(error))
    if not (GNUBG_DIR / "gnubg_client.py").exists() or not Path("/usr/games/gnubg").exists():
        sys.exit("needs GNU Backgammon (apt-get install -y gnubg) and ../shared/gnubg")
    sys.path.insert(0, str(GNUBG_DIR))
    from gnubg_client import GnubgService  # type: ignore[import-not-found]

    engine = Engine(args.weights)
    rows = []
    with GnubgService() as service:
        for position in positions:
            pairings = [(first, second) for first in PLAYERS for second in PLAYERS]
            if args.pairings == "ours-defending":
                pairings = [("gnubg", "ours")]
            for first, second in pairings:
                began = time.perf_counter()
                row = cross_rollout(
                    position, first, second, args.games, args.seed, engine, service, args.ply
                )
                row["seconds"] = time.perf_counter() - began
                rows.append(row)
                print(
                    f"{row['position_id']}  on roll {first:5}  other {second:5}  "
                    f"win {row['win']:.3f} ± {row['win_standard_error']:.3f}  "
                    f"wg {row['win_gammon']:.3f}  wbg {row['win_backgammon']:.3f}  "
                    f"lg {row['lose_gammon']:.3f}  lbg {row['lose_backgammon']:.3f}  "
                    f"({row['games']} games, {row['seconds']:.0f} s)",
                    flush=True,
                )
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
