"""Analyse a match: every checker play, every cube decision and the luck of every roll.

:func:`analyze_match` replays each game of a :class:`~backgammon.formats.MatchRecord`
through the rules (a :class:`~backgammon.rules.game.Game` in the game's match context:
length, score before the game, Crawford game or not) and judges each decision with the
engine (:class:`~backgammon.analysis.analyzer.Analyzer`, whose module says how each
checker play, each cube decision and the luck of each roll are valued and marked). The
results are the frozen values of :mod:`backgammon.analysis.results`.

:func:`store_annotations` writes the analysis into the record's entries in GNU
Backgammon's SGF analysis syntax (``A``, ``DA``, ``MR``, ``LU``, ``GW``/``GB``, ``BM``,
``DO``, ``BC``, ``DC``), so ``write_match(record, "x.sgf")`` keeps it.

>>> from backgammon.formats import read_match
>>> record = read_match("tests/data/reference/formats/match01_3pt.sgf")  # doctest: +SKIP
>>> analysis = analyze_match(record)  # doctest: +SKIP
>>> analysis.games[0].decisions[0].kind  # doctest: +SKIP
'checker'
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import TypeAlias

from backgammon.analysis.analyzer import Analyzer
from backgammon.analysis.results import (
    AnalysisSettings,
    CheckerAnalysis,
    CubeAnalysis,
    Decision,
    GameAnalysis,
    Mark,
    MatchAnalysis,
    PlayOption,
    Thresholds,
)
from backgammon.analysis.sgf_annotations import store_annotations
from backgammon.analysis.stakes import _LazyBearoff
from backgammon.engine.evaluator import Engine, EvaluationSource
from backgammon.engine.network import Networks
from backgammon.engine.search import MoveFilter, Pruning
from backgammon.formats.record import GameRecord, MatchInfo, MatchRecord
from backgammon.rules.variant import Variant

__all__ = [
    "AnalysisJob",
    "AnalysisSettings",
    "Analyzer",
    "CheckerAnalysis",
    "CubeAnalysis",
    "Decision",
    "GameAnalysis",
    "Mark",
    "MatchAnalysis",
    "PlayOption",
    "ProgressCallback",
    "Thresholds",
    "analysis_engine",
    "analyze_job_game",
    "analyze_match",
    "match_analysis",
    "store_annotations",
]

ProgressCallback: TypeAlias = Callable[[int, int], None]
"""Called as ``progress(done, total)``, counting the record's actions."""


@dataclass(frozen=True, slots=True)
class AnalysisJob:
    """What a worker process needs to analyse games exactly as the parent's engine
    would: its networks and search settings (pruning, move filters, whether the exact
    bearoff databases are used), the analysis settings and the match."""

    networks: Networks
    variant: Variant
    pruning: Pruning | None
    move_filter: MoveFilter
    inner_filter: MoveFilter | None
    exact_bearoff: bool
    settings: AnalysisSettings
    info: MatchInfo

    @classmethod
    def of(cls, engine: Engine, settings: AnalysisSettings, info: MatchInfo) -> AnalysisJob:
        """The job of analysing ``info``'s games with ``engine``."""
        return cls(
            engine.networks,
            engine.variant,
            engine.pruning,
            engine.move_filter,
            engine.inner_filter,
            engine.bearoff is not None,
            settings,
            info,
        )

    def engine(self) -> Engine:
        """A new engine that searches as the one the job was made from."""
        engine = (
            analysis_engine(self.variant, self.networks)
            if self.exact_bearoff
            else Engine(self.networks, variant=self.variant, bearoff=None)
        )
        engine.pruning = self.pruning
        engine.move_filter = self.move_filter
        engine.inner_filter = self.inner_filter
        return engine


_WORKER: list[Analyzer] = []
"""The analyzer of a worker process (set by :func:`_start_worker`; empty elsewhere)."""


def analysis_engine(variant: Variant, networks: Networks | None = None) -> Engine:
    """The engine :func:`analyze_match` uses by default: ``networks`` (the shipped ones
    for None), with bearoff databases (if the variant uses them) that open on first use
    and also serve the exact cube equities."""
    return Engine(
        networks, variant=variant, bearoff=_LazyBearoff() if variant.plain_movement else None
    )


def _start_worker(job: AnalysisJob) -> None:
    _WORKER.append(Analyzer(job.engine(), job.settings))


def _work(game: GameRecord, info: MatchInfo) -> GameAnalysis:
    return _WORKER[0].analyze_game(game, info)


def analyze_job_game(job: AnalysisJob, game: GameRecord) -> GameAnalysis:
    """One game of ``job``'s match, analysed by a new engine made as the job says: a
    task that runs anywhere the job can be sent (:mod:`backgammon.analysis.batch`
    sends them to a :class:`~backgammon.engine.workers.TaskRunner`)."""
    return Analyzer(job.engine(), job.settings).analyze_game(game, job.info)


def match_analysis(
    record: MatchRecord,
    source: EvaluationSource,
    settings: AnalysisSettings,
    games: Sequence[GameAnalysis],
) -> MatchAnalysis:
    """The analysis of ``record`` from its games' analyses (in the record's order)."""
    info = record.info
    return MatchAnalysis(
        record.players, record.length, settings, tuple(games), info.variant.checkers, source
    )


def analyze_match(
    record: MatchRecord,
    engine: Engine | None = None,
    *,
    settings: AnalysisSettings | None = None,
    processes: int = 1,
    progress: ProgressCallback | None = None,
    store: bool = True,
) -> MatchAnalysis:
    """Analyse every game of ``record`` (see the module doc).

    Args:
        record: the match, as read by :func:`~backgammon.formats.read_match`.
        engine: the engine (default: the shipped networks with the bearoff databases).
        settings: ply, thresholds, ... (default :class:`AnalysisSettings`).
        processes: worker processes, one game at a time each (1: analyse here).
        progress: called as ``progress(done, total)`` in actions analysed.
        store: write the analysis into the record's entries (:func:`store_annotations`).

    Raises:
        ValueError: for ``processes`` < 1.
        IllegalActionError, IllegalPlayError: for a record whose actions the rules
            refuse (only possible for records built by hand).
    """
    if processes < 1:
        raise ValueError(f"processes must be at least 1, got {processes}")
    settings = AnalysisSettings() if settings is None else settings
    info = record.info
    total = sum(len(game.entries) for game in record.games)
    done = 0

    def report(count: int = 1) -> None:
        nonlocal done
        done += count
        if progress is not None:
            progress(done, total)

    if progress is not None:
        progress(0, total)
    games: list[GameAnalysis]
    if engine is None:
        engine = analysis_engine(info.variant)
    if processes == 1 or len(record.games) <= 1:
        analyzer = Analyzer(engine, settings)
        games = [analyzer.analyze_game(game, info, step=report) for game in record.games]
    else:
        job = AnalysisJob.of(engine, settings, info)
        results: dict[int, GameAnalysis] = {}
        workers = min(processes, len(record.games), os.cpu_count() or 1)
        with ProcessPoolExecutor(workers, initializer=_start_worker, initargs=(job,)) as pool:
            futures = {pool.submit(_work, game, info): k for k, game in enumerate(record.games)}
            for future in as_completed(futures):
                k = futures[future]
                results[k] = future.result()
                report(len(record.games[k].entries))
        games = [results[k] for k in range(len(record.games))]
    analysis = match_analysis(record, engine.source, settings, games)
    if store:
        store_annotations(record, analysis)
    return analysis
