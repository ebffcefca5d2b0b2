"""Copy a trained weights file into the package as the default, recording its measured
strength in the metadata.

    python benchmarks/ship_weights.py CHECKPOINT/networks.npz --gnubg-ppg -0.25 --gnubg-se 0.03 \\
        --baseline-ppg 1.25 --baseline-se 0.03 --games 2000

The figures come from ``benchmarks/strength.py`` run on the same file.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from backgammon.engine.network import Networks

TARGET = (
    Path(__file__).resolve().parents[1]
    / "src"
    / "backgammon"
    / "engine"
    / "data"
    / "default.weights.npz"
)


def main() -> None:
    """Stamp and copy."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("weights")
    parser.add_argument("--gnubg-ppg", type=float, required=True)
    parser.add_argument("--gnubg-se", type=float, required=True)
    parser.add_argument("--baseline-ppg", type=float, required=True)
    parser.add_argument("--baseline-se", type=float, required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument(
        "--baseline-games", type=int, default=None, help="if not --games (the gnubg games)"
    )
    args = parser.parse_args()
    networks = Networks.load(args.weights)
    strength = {
        "vs_gnubg_0ply": {
            "ppg": args.gnubg_ppg,
            "se": args.gnubg_se,
            "games": args.games,
            "settings": "cubeless money, duplicate dice, our 0-ply vs gnubg 0-ply",
        },
        "vs_pip_count_baseline": {
            "ppg": args.baseline_ppg,
            "se": args.baseline_se,
            "games": args.games if args.baseline_games is None else args.baseline_games,
        },
        "command": "python benchmarks/strength.py --games N --weights FILE",
    }
    metadata = dataclasses.replace(networks.metadata, strength=strength, trained=True)
    networks.replace(metadata=metadata).save(TARGET)
    print(f"wrote {TARGET} ({TARGET.stat().st_size:,} bytes): {metadata.training_games} games")


if __name__ == "__main__":
    main()
