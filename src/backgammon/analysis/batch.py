"""Many matches at once: a folder of match files or an OGXM stream (``.ogxms``) read
match by match (:func:`read_matches`), their games analysed as tasks of a
:class:`~backgammon.engine.workers.TaskRunner` such as a Ray cluster
(:func:`analyze_on`), and the summary of their analyses per match and per player
(:func:`batch_summary`), as ``backgammon analyze FOLDER`` prints it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from backgammon.analysis.annotate import (
    AnalysisJob,
    AnalysisSettings,
    GameAnalysis,
    MatchAnalysis,
    analysis_engine,
    analyze_job_game,
    match_analysis,
)
from backgammon.analysis.summary import summarize
from backgammon.engine.evaluator import Engine
from backgammon.engine.workers import TaskRunner
from backgammon.errors import BackgammonError, MatchFileError
from backgammon.formats import read_match
from backgammon.formats.record import GameRecord, MatchRecord

__all__ = [
    "MATCH_SUFFIXES",
    "MatchLine",
    "PlayerTotal",
    "analyze_on",
    "batch_summary",
    "is_many",
    "read_matches",
]

MATCH_SUFFIXES = (".mat", ".sgf", ".xg", ".ogxm", ".ogxms")
"""The files of a folder that :func:`read_matches` reads (by extension)."""


def is_many(path: str | Path) -> bool:
    """Whether ``path`` names many matches: a folder, or an OGXM stream (``.ogxms``)."""
    return Path(path).is_dir() or Path(path).suffix.lower() == ".ogxms"


def read_matches(path: str | Path) -> Iterator[tuple[str, MatchRecord | MatchFileError]]:
    """Each match of a folder (its files with a :data:`MATCH_SUFFIXES` extension, by
    name; a stream's every match) or of an ``.ogxms`` stream, as ``(label, record)``;
    a file that cannot be read gives its :class:`MatchFileError` in place of the
    record, so that one bad file does not stop the rest.

    Raises:
        MatchFileError: ``path`` is not a folder and its stream cannot be read.
    """
    folder = Path(path)
    if not folder.is_dir():
        yield from _stream(folder)
        return
    for file in sorted(folder.iterdir()):
        if not file.is_file() or file.suffix.lower() not in MATCH_SUFFIXES:
            continue
        if file.suffix.lower() == ".ogxms":
            try:
                yield from _stream(file)
            except MatchFileError as error:
                yield file.name, error
            continue
        try:
            yield file.name, read_match(file)
        except MatchFileError as error:
            yield file.name, error


def _stream(path: Path) -> Iterator[tuple[str, MatchRecord]]:
    from backgammon.formats.ogxm import read_ogxm_stream

    try:
        data = path.read_bytes()
    except OSError as error:
        raise MatchFileError(f"cannot read the file: {error.strerror}", path=str(path)) from None
    for number, record in enumerate(read_ogxm_stream(data, path=str(path)), 1):
        yield f"{path.name}#{number}", record


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One player's figures in one match: ``error_rate`` in mEMG per decision (as
    :class:`~backgammon.analysis.PlayerSummary`), ``luck_rate`` per roll."""

    match: str
    player: str
    decisions: int
    error_rate: float
    luck_rate: float


@dataclass(frozen=True, slots=True)
class PlayerTotal:
    """One player's figures over every match analysed (by name): error rate over all
    their counted decisions, luck per roll over all their rolls."""

    player: str
    matches: int
    decisions: int
    error_rate: float
    luck_rate: float


def batch_summary(
    analyses: list[tuple[str, MatchAnalysis]],
) -> tuple[list[MatchLine], list[PlayerTotal]]:
    """The per-match lines (both players of each match, in order) and the per-player
    totals (by name, the most decisions first) of labelled analyses."""
    lines: list[MatchLine] = []
    totals: dict[str, list[float]] = {}  # matches, decisions, loss, rolls, luck
    for label, analysis in analyses:
        for summary in summarize(analysis):
            lines.append(
                MatchLine(
                    label, summary.name, summary.decisions, summary.error_rate, summary.luck_rate
                )
            )
            rolls = summary.checker_decisions + summary.forced_moves
            total = totals.setdefault(summary.name, [0, 0, 0.0, 0, 0.0])
            for index, value in enumerate(
                (1, summary.decisions, summary.equity_loss, rolls, summary.luck)
            ):
                total[index] += value
    players = [
        PlayerTotal(
            name,
            int(matches),
            int(decisions),
            1000.0 * loss / decisions if decisions else 0.0,
            luck / rolls if rolls else 0.0,
        )
        for name, (matches, decisions, loss, rolls, luck) in totals.items()
    ]
    players.sort(key=lambda total: (-total.decisions, total.player))
    return lines, players


def _game_task(
    jobs: tuple[AnalysisJob, ...], games: tuple[tuple[GameRecord, ...], ...], item: tuple[int, int]
) -> GameAnalysis | str:
    """Game ``item`` = (match, game) of the batch, or why it could not be analysed."""
    match, game = item
    try:
        return analyze_job_game(jobs[match], games[match][game])
    except (BackgammonError, ValueError) as error:
        return f"game {game + 1}: {error}"


def analyze_on(
    runner: TaskRunner,
    records: Sequence[MatchRecord],
    settings: AnalysisSettings,
    weights: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[MatchAnalysis | str]:
    """Analyse every game of ``records`` as one task each on ``runner`` (the matches
    and their engines' networks are sent once), and put each match's analysis
    together: for each record its :class:`MatchAnalysis`, or why it could not be
    analysed. The engine of each variant has the networks of ``weights`` (default:
    the shipped ones, as :func:`~backgammon.analysis.annotate.analyze_match` uses);
    ``progress(done, total)`` counts games.

    Raises:
        BackgammonError, ValueError: ``weights`` cannot be read for a variant.
    """
    engines: dict[str, Engine] = {}

    def engine_of(record: MatchRecord) -> Engine:
        variant = record.info.variant
        if variant.name not in engines:
            engines[variant.name] = (
                analysis_engine(variant) if weights is None else Engine(weights, variant=variant)
            )
        return engines[variant.name]

    chosen = [engine_of(record) for record in records]
    jobs = tuple(
        AnalysisJob.of(engine, settings, record.info)
        for engine, record in zip(chosen, records, strict=True)
    )
    games = tuple(tuple(record.games) for record in records)
    items = [
        (match, game) for match, record in enumerate(records) for game in range(len(record.games))
    ]
    results: dict[tuple[int, int], GameAnalysis | str] = {}
    if progress is not None:
        progress(0, len(items))
    for index, result in runner.map_unordered(partial(_game_task, jobs, games), items):
        results[items[index]] = result
        if progress is not None:
            progress(len(results), len(items))
    analyses: list[MatchAnalysis | str] = []
    for match, record in enumerate(records):
        found = [results[match, game] for game in range(len(record.games))]
        failed = [result for result in found if isinstance(result, str)]
        if failed:
            analyses.append(failed[0])
            continue
        done = [result for result in found if not isinstance(result, str)]
        analyses.append(match_analysis(record, chosen[match].source, settings, done))
    return analyses
