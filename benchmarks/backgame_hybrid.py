"""Back-game networks on trial: the shipped networks with another file's in back games only.

    python benchmarks/backgame_hybrid.py BACKGAME_WEIGHTS [--deals 10000]
        [--seeds 1000000 2000000] [--processes 2]
    python benchmarks/backgame_hybrid.py BACKGAME_WEIGHTS --agreement [analysis_agreement options]

An experiment for a separate back-game evaluator (``docs/training.md``, the seventh try):
the hybrid evaluates every position with the shipped networks, except contact and
crashed positions that :func:`backgammon.training.searched_games.backgame_starts` picks
out (a side with two or more checkers back, trailing by 50 pips or more), which
BACKGAME_WEIGHTS evaluates. Without ``--agreement`` it plays the hybrid against the
shipped networks at 0-ply as ``head_to_head.py`` does (cubeless duplicate money games,
dice seeds 1,000,000 apart); with it, it runs ``analysis_agreement.py`` (the remaining
arguments are its own) with the hybrid in place of the engine.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from analysis_agreement import main as agreement_main
from backgammon.engine import Engine
from backgammon.engine.evaluator import PositionClass, classify_boards
from backgammon.engine.players import EnginePlayer
from backgammon.engine.strength import duplicate_match
from backgammon.training.searched_games import backgame_starts
from head_to_head import print_runs

_CONTACT_CLASSES = (int(PositionClass.CONTACT), int(PositionClass.CRASHED))


class BackgameHybridEngine(Engine):
    """An :class:`Engine` whose contact and crashed back games are evaluated by other
    networks (``backgame_weights``); everything else as ``Engine(weights)`` would."""

    def __init__(self, weights: Any = None, *, backgame_weights: str, **options: Any) -> None:
        """Open both sets of networks."""
        super().__init__(weights, **options)
        self._backgames = Engine(backgame_weights, **options)

    def evaluate_boards(self, boards: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """As :meth:`Engine.evaluate_boards`, back games from the other networks."""
        probs = super().evaluate_boards(boards)
        array = np.asarray(boards, dtype=np.uint8)
        if array.shape[0] == 0:
            return probs
        rows = backgame_starts(array) & np.isin(classify_boards(array), _CONTACT_CLASSES)
        if rows.any():
            probs[rows] = self._backgames.evaluate_boards(array[rows])
        return probs


def run(backgame_weights: str, deals: int, seed: int) -> tuple[float, float]:
    """The hybrid's points per game and standard error against the shipped networks."""
    hybrid = EnginePlayer(BackgameHybridEngine(backgame_weights=backgame_weights))
    return duplicate_match(hybrid, EnginePlayer(Engine()), deals, seed)


def _agreement(backgame_weights: str, rest: list[str]) -> None:
    """``analysis_agreement.py`` (options ``rest``) with the hybrid as its engine."""
    agreement_main(
        rest, lambda weights: BackgameHybridEngine(weights, backgame_weights=backgame_weights)
    )


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("backgame_weights", help="weights file (networks.npz) for back games")
    parser.add_argument("--agreement", action="store_true", help="run analysis_agreement.py")
    parser.add_argument("--deals", type=int, default=10_000, help="deals per seed (2 games each)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1_000_000, 2_000_000])
    parser.add_argument("--processes", type=int, default=2, help="seeds run in parallel")
    args, rest = parser.parse_known_args()
    if not Path(args.backgame_weights).is_file():
        parser.error(f"no weights file {args.backgame_weights!r}")
    if args.agreement:
        _agreement(args.backgame_weights, rest)
        return
    if rest:
        parser.error(f"unrecognised arguments: {' '.join(rest)}")
    if args.deals < 2:
        parser.error(f"--deals must be at least 2, got {args.deals}")
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.processes)) as workers:
        futures = [
            workers.submit(run, args.backgame_weights, args.deals, seed) for seed in args.seeds
        ]
        results = [future.result() for future in futures]
    label = f"shipped networks with {args.backgame_weights} in back games, against the shipped"
    print_runs(f"{label} networks at 0-ply", args.seeds, args.deals, results, began)


if __name__ == "__main__":
    main()
