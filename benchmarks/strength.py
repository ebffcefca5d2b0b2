"""Strength: our engine against GNU Backgammon and against a simple baseline.

    python benchmarks/strength.py --games 2000 [--weights FILE] [--ply 0] [--gnubg-level 0ply]
    python benchmarks/strength.py --games 2000 --no-gnubg       # baseline only

* Against GNU Backgammon: runs ``../shared/gnubg/play_vs_gnubg.py`` (cubeless money
  games, duplicate dice, seats swapped) with ``benchmarks/engine_player.py`` as our
  side, at matched settings (our 0-ply against its 0-ply, our 2-ply against its
  2-ply), and prints its points per game with the standard error.
* Against the pip-count baseline (no GNU Backgammon needed): duplicate deals with
  seats swapped, our engine at the same ply against
  :class:`backgammon.engine.baseline.PipCountPlayer`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from backgammon.engine import Engine
from backgammon.engine.baseline import PipCountPlayer
from backgammon.engine.players import EnginePlayer
from backgammon.engine.strength import duplicate_match

HERE = Path(__file__).resolve().parent
HARNESS = HERE.parent.parent / "shared" / "gnubg" / "play_vs_gnubg.py"
GNUBG_LEVEL = {0: "0ply", 1: "1ply", 2: "2ply"}


def against_gnubg(games: int, ply: int, weights: str | None, seed: int) -> dict[str, object]:
    """Run the harness; return its JSON report (or why it could not run)."""
    if not HARNESS.exists():
        return {"skipped": f"no harness at {HARNESS}"}
    if not Path("/usr/games/gnubg").exists():
        return {"skipped": "GNU Backgammon is not installed (apt-get install -y gnubg)"}
    engine = [sys.executable, str(HERE / "engine_player.py"), "--ply", str(ply)]
    if weights:
        engine += ["--weights", weights]
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        command = [
            sys.executable,
            str(HARNESS),
            "--games",
            str(games),
            "--level",
            GNUBG_LEVEL[ply],
            "--seed",
            str(seed),
            "--report",
            str(report),
            "--",
            *engine,
        ]
        began = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0 or not report.exists():
            return {"failed": done.stderr[-2000:] or done.stdout[-2000:]}
        result: dict[str, object] = json.loads(report.read_text())
        result["seconds"] = round(time.perf_counter() - began, 1)
        return result


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--ply", type=int, default=0, choices=(0, 1, 2))
    parser.add_argument("--weights", default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-gnubg", action="store_true")
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args()
    engine = Engine(args.weights)
    print(f"engine: {engine.networks!r}, {engine.networks.metadata.training_games} games")
    if not args.no_baseline:
        began = time.perf_counter()
        ppg, error = duplicate_match(
            EnginePlayer(engine, args.ply), PipCountPlayer(), args.games // 2, args.seed
        )
        seconds = time.perf_counter() - began
        print(
            f"vs pip-count baseline, {args.games} games ({seconds:.0f} s): "
            f"{ppg:+.3f} ± {error:.3f} points per game"
        )
    if not args.no_gnubg:
        report = against_gnubg(args.games, args.ply, args.weights, args.seed)
        print(f"vs GNU Backgammon {GNUBG_LEVEL[args.ply]}: {json.dumps(report)[:2000]}")


if __name__ == "__main__":
    main()
