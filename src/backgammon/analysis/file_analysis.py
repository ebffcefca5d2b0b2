"""Analyses and match files: the analysis a file brought with it (eXtreme Gammon's,
from an ``.xg`` file), matched to our decisions so reports can show both
(``backgammon analyze match.xg --json out.json`` writes XG's beside ours); and ours,
in the form an OGXM file carries (``backgammon analyze match.mat --ogxm out.ogxm``).
"""

from __future__ import annotations

from typing import Any

from backgammon.analysis.annotate import CheckerAnalysis, Decision, MatchAnalysis
from backgammon.formats.ogxm import OgxmAnalysis, OgxmPlyAnalysis
from backgammon.formats.record import MatchRecord
from backgammon.formats.xg_analysis import XG_KEY, XgCheckerAnalysis, XgCubeAnalysis
from backgammon.rules.play import Play

__all__ = ["file_analysis", "ogxm_analysis", "with_file_analysis"]


def file_analysis(
    record: MatchRecord, decision: Decision
) -> XgCheckerAnalysis | XgCubeAnalysis | None:
    """The file's own analysis of ``decision`` (a decision of ``record``'s analysis),
    or ``None`` where the file has none.

    A checker play's is on its entry; a cube decision's is on the double (or on the
    roll, for "no double"), found by looking back from the decision's entry to the
    previous play.
    """
    games = [game for game in record.games if game.number == decision.game]
    if not games or not 0 <= decision.entry < len(games[0].entries):
        return None
    entries = games[0].entries
    if isinstance(decision, CheckerAnalysis):
        found = entries[decision.entry].annotations.get(XG_KEY)
        return found if isinstance(found, XgCheckerAnalysis) else None
    for index in range(decision.entry, -1, -1):
        found = entries[index].annotations.get(XG_KEY)
        if isinstance(found, XgCubeAnalysis):
            return found
        if index < decision.entry and isinstance(entries[index].action, Play):
            break
    return None


def with_file_analysis(
    data: dict[str, Any], analysis: MatchAnalysis, record: MatchRecord
) -> dict[str, Any]:
    """``data`` (from :func:`~backgammon.analysis.summary.analysis_to_json`) with a
    ``file_analysis`` key on each decision: the file's analysis as JSON (see
    :mod:`backgammon.formats.xg_analysis`), or ``null``."""
    for item, decision in zip(data["decisions"], analysis.decisions, strict=True):
        found = file_analysis(record, decision)
        item["file_analysis"] = None if found is None else found.to_json()
    return data


def ogxm_analysis(analysis: MatchAnalysis) -> OgxmAnalysis:
    """Our analysis of a match's checker plays as an OGXM file's analysis, under our
    engine's name and version (write it with
    :func:`~backgammon.formats.ogxm.write_ogxm`)."""
    from backgammon import __version__

    plays = {}
    for decision in analysis.decisions:
        if isinstance(decision, CheckerAnalysis) and decision.options:
            alternatives = tuple((option.steps, option.equity) for option in decision.options)
            played = next(
                (i for i, option in enumerate(decision.options) if option.play == decision.play),
                None,
            )
            plays[(decision.game, decision.entry)] = OgxmPlyAnalysis(alternatives, played)
    return OgxmAnalysis("backgammon", __version__, analysis.settings.ply, plays)
