"""``backgammon label --corpus DIR``: the labelling corpus's queue modes (run the
labeller, ``--status``, ``--fill N``), called from the ``label`` command
(:mod:`backgammon.apps.cli.rollouts`)."""

from __future__ import annotations

import os
import random
import socket
import time
from dataclasses import dataclass
from pathlib import Path

import typer

from backgammon.errors import BackgammonError

__all__ = ["CorpusRun", "fill_corpus", "run_corpus", "show_status"]


@dataclass(frozen=True, slots=True)
class CorpusRun:
    """How to run the labeller: processes or a Ray address, a time limit, which end
    of the queue first, how many chunks at most, whether to lower its priority, and
    the weights file (``None``: the shipped networks)."""

    cpus: int = 1
    ray: str | None = None
    minutes: float | None = None
    reverse: bool = False
    chunks: int | None = None
    nice: bool = True
    weights: str | None = None


def _fail(error: Exception) -> typer.Exit:
    typer.echo(f"error: {error}", err=True)
    return typer.Exit(2)


def show_status(folder: Path) -> None:
    """Print the corpus's size by plan and kind (files only)."""
    from backgammon.training.corpus import Corpus, corpus_status
    from backgammon.training.corpus.status import status_lines

    try:
        status = corpus_status(Corpus(folder))
    except (OSError, ValueError) as error:
        raise _fail(error) from None
    for line in status_lines(status):
        typer.echo(line)


def fill_corpus(
    folder: Path, count: int, seed: int, chunk_size: int, contact_truncation: int | None
) -> None:
    """Queue ``count`` new positions from self-play (see
    :mod:`backgammon.training.corpus.fill`) in chunks of ``chunk_size``, whose
    contact positions are to be rolled out to the end (``contact_truncation`` None)
    or truncated after that many plies."""
    from backgammon import __version__
    from backgammon.engine import Engine
    from backgammon.training.corpus import Corpus
    from backgammon.training.corpus.fill import FillSettings, sample_positions

    if contact_truncation is not None and contact_truncation < 1:
        raise _fail(ValueError(f"--truncate must be >= 1 plies, got {contact_truncation}"))
    corpus = Corpus(folder)
    try:
        known = {
            entry.position_id
            for name in corpus.chunk_names()
            for entry in corpus.read_chunk(name).positions
        }
        began = time.perf_counter()
        positions = sample_positions(Engine(), count, random.Random(seed), known, FillSettings())
        header = {
            "source": "backgammon label --fill",
            "seed": seed,
            "version": __version__,
            "contact_truncation": contact_truncation,
        }
        names = corpus.add_chunks(positions, chunk_size, header | {"host": socket.gethostname()})
    except (OSError, ValueError) as error:
        raise _fail(error) from None
    typer.echo(
        f"queued {len(positions):,} positions in {len(names)} chunks "
        f"({names[0] if names else '-'} ...) in {time.perf_counter() - began:.0f} s"
    )


def run_corpus(folder: Path, run: CorpusRun) -> None:
    """Label the corpus's pending chunks, one shard at a time, until none is left
    (chunks queued meanwhile too), or ``run.minutes`` have passed, or ``run.chunks``
    are done; at the lowest priority unless told otherwise."""
    from backgammon.engine import Engine
    from backgammon.engine.workers import open_runner
    from backgammon.training.corpus import Corpus, run_queue
    from backgammon.training.corpus.labeller import (
        LabellerBusyError,
        ShardDone,
        labeller_lock,
        network_identity,
    )

    if run.nice and hasattr(os, "nice"):
        os.nice(19)
    corpus = Corpus(folder)
    began = time.perf_counter()
    written: list[ShardDone] = []

    def report(done: ShardDone) -> None:
        written.append(done)
        rate = 3600 * done.positions / done.seconds if done.seconds else 0.0
        typer.echo(
            f"{time.strftime('%H:%M:%S')} shard {done.name}: {done.positions} positions "
            f"({done.races} races) in {done.seconds:.0f} s, {rate:,.0f} positions/hour/core; "
            f"{len(corpus.pending())} chunks pending"
        )

    try:
        engine = Engine(run.weights)
        with labeller_lock(corpus), open_runner(run.ray, run.cpus) as runner:
            while True:
                typer.echo(f"labelling {len(corpus.pending())} pending chunks of {folder}")
                summary = run_queue(
                    corpus,
                    engine.evaluate_boards,
                    network_identity(engine.networks),
                    runner,
                    minutes=run.minutes,
                    reverse=run.reverse,
                    limit=run.chunks,
                    on_shard=report,
                )
                once = run.minutes is not None or run.chunks is not None
                if once or not summary.shards or not corpus.pending():
                    break  # else chunks were queued meanwhile: label them too
    except LabellerBusyError as busy:
        typer.echo(f"{busy}: nothing to do")
        return
    except (OSError, ValueError, BackgammonError) as error:
        raise _fail(error) from None
    positions = sum(done.positions for done in written)
    trials = sum(done.trials for done in written)
    typer.echo(
        f"done: {len(written)} shards, {positions:,} positions, "
        f"{trials:,} trials in {time.perf_counter() - began:.0f} s"
    )
