"""Corpus labelling throughput: positions an hour on one core, races and contact.

    python benchmarks/corpus_throughput.py [--corpus corpus] [--positions 20] [--seed 1]

Draws ``--positions`` races (kinds R, B) and as many contact positions (C, X) at
random from the corpus's queue and labels them in this process with the corpus's
settings (:class:`backgammon.training.corpus.CorpusSettings`: races to the end, contact
truncated after 7 plies), and the same contact positions rolled out to the end (as
chunks queued since 2026-11-29 ask), after a warm-up; prints seconds a position,
positions an hour and the mean standard error of the equity for each. Run it on an
otherwise idle core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace

from backgammon.engine import Engine
from backgammon.training.corpus import Corpus, CorpusSettings, QueuedPosition
from backgammon.training.corpus.labeller import label_chunk


def main() -> None:
    """Time the two kinds."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default="corpus")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    corpus = Corpus(args.corpus)
    queued = [e for name in corpus.chunk_names() for e in corpus.read_chunk(name).positions]
    rng = random.Random(args.seed)
    engine, settings = Engine(), CorpusSettings()
    to_the_end = replace(settings, contact=replace(settings.contact, truncation=None))
    label_chunk(engine.evaluate_boards, tuple(queued[:1]), settings, 0)
    samples = {
        kinds: rng.sample([e for e in queued if e.kind in kinds], args.positions)
        for kinds in (("R", "B"), ("C", "X"))
    }
    rows = (
        ("race", ("R", "B"), settings),
        ("contact", ("C", "X"), settings),
        ("contact to the end", ("C", "X"), to_the_end),
    )
    for name, kinds, chosen_settings in rows:
        chosen: list[QueuedPosition] = samples[kinds]
        began = time.perf_counter()
        labels = label_chunk(engine.evaluate_boards, tuple(chosen), chosen_settings, args.seed)
        seconds = (time.perf_counter() - began) / len(chosen)
        error = statistics.mean(label.standard_error for label in labels)
        print(
            f"{name:<18} {seconds:.2f} s a position, {3600 / seconds:,.0f} an hour on one core, "
            f"mean standard error {error:.4f} ({len(chosen)} positions)",
            flush=True,
        )


if __name__ == "__main__":
    main()
