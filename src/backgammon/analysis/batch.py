"""Many matches at once: a folder of match files or an OGXM stream (``.ogxms``) read
match by match (:func:`read_matches`), and the summary of their analyses per match and
per player (:func:`batch_summary`), as ``backgammon analyze FOLDER`` prints it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from backgammon.analysis.annotate import MatchAnalysis
from backgammon.analysis.summary import summarize
from backgammon.errors import MatchFileError
from backgammon.formats import read_match
from backgammon.formats.record import MatchRecord

__all__ = [
    "MATCH_SUFFIXES",
    "MatchLine",
    "PlayerTotal",
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
