"""Queue the positions of games against GNU Backgammon in the labelling corpus.

    python benchmarks/corpus_gnubg.py --games 200 --seed 1 [--corpus corpus]

Our 0-ply engine (one play in eight a random one of its best four) plays GNU
Backgammon 0-ply (its own plays, cubeless, through ``../shared/gnubg``), each first in
turn; the positions are kept by plan as ``backgammon label --corpus corpus --fill``
keeps self-play's (:mod:`backgammon.training.corpus.fill`), source ``gn``, and queued
in new chunks. GNU Backgammon is an opponent only: none of its values is kept, and the
labels are our own rollouts.
"""

from __future__ import annotations

import argparse
import random
import socket
import time
from pathlib import Path

from backgammon import Position, __version__
from backgammon.engine import Engine
from backgammon.training.corpus import Corpus
from backgammon.training.corpus.fill import Chooser, FillSettings, game_positions
from rollout_truth import GNUBG_SCRIPTS, gnubg_chooser, gnubg_service
from rollout_truth import Chooser as IdChooser


def as_player(choose: IdChooser) -> Chooser:
    """GNU Backgammon's choice (a result's Position ID) as the position after it."""

    def play(position: Position, dice: tuple[int, int]) -> Position:
        chosen = choose(position, dice)
        plays = position.legal_plays(dice)
        return next((p.position for p in plays if p.position.position_id == chosen), position)

    return play


def main() -> None:
    """Play the games and queue their positions."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corpus", default="corpus")
    parser.add_argument("--chunk-size", type=int, default=100)
    parser.add_argument("--gnubg-scripts", default=str(GNUBG_SCRIPTS))
    args = parser.parse_args()
    corpus = Corpus(args.corpus)
    known = {e.position_id for n in corpus.chunk_names() for e in corpus.read_chunk(n).positions}
    engine, rng, settings = Engine(), random.Random(args.seed), FillSettings()
    began = time.perf_counter()
    found = []
    with gnubg_service(Path(args.gnubg_scripts)) as service:
        opponent = as_player(gnubg_chooser(service, 0))
        for _ in range(args.games):
            for entry in game_positions(engine, rng, settings, opponent):
                if entry.position_id not in known:
                    known.add(entry.position_id)
                    found.append(entry)
    header = {"source": "benchmarks/corpus_gnubg.py", "seed": args.seed, "version": __version__}
    names = corpus.add_chunks(found, args.chunk_size, header | {"host": socket.gethostname()})
    print(
        f"queued {len(found):,} positions of {args.games} games against GNU Backgammon in "
        f"{len(names)} chunks in {time.perf_counter() - began:.0f} s"
    )


if __name__ == "__main__":
    main()
