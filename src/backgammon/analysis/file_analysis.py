"""Analyses and match files: the analysis a file brought with it (eXtreme Gammon's,
from an ``.xg`` file), matched to our decisions so reports can show both
(``backgammon analyze match.xg --json out.json`` writes XG's beside ours); and ours,
in the form an OGXM file carries (``backgammon analyze match.mat --ogxm out.ogxm``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from backgammon.analysis.annotate import CheckerAnalysis, CubeAnalysis, Decision, MatchAnalysis
from backgammon.errors import BackgammonError
from backgammon.formats.ogxm import (
    OGXM_KEY,
    OgxmAnalysis,
    OgxmCheckerRead,
    OgxmCubeRead,
    OgxmPlyAnalysis,
)
from backgammon.formats.record import MatchRecord
from backgammon.formats.xg_analysis import XG_KEY, XgCheckerAnalysis, XgCubeAnalysis
from backgammon.rules.dice import Roll
from backgammon.rules.play import Play, parse_play
from backgammon.rules.position import Position

__all__ = ["FileAnalysis", "file_analysis", "ogxm_analysis", "with_file_analysis"]


FileAnalysis = XgCheckerAnalysis | XgCubeAnalysis | OgxmCheckerRead | OgxmCubeRead
"""The analysis a file brought of one decision: eXtreme Gammon's, or an OGXM file's."""

_CHECKER = (XgCheckerAnalysis, OgxmCheckerRead)
_CUBE = (XgCubeAnalysis, OgxmCubeRead)


def _annotation(annotations: dict[str, Any], kinds: tuple[type, ...]) -> Any:
    for key in (XG_KEY, OGXM_KEY):
        found = annotations.get(key)
        if isinstance(found, kinds):
            return found
    return None


def file_analysis(record: MatchRecord, decision: Decision) -> FileAnalysis | None:
    """The file's own analysis of ``decision`` (a decision of ``record``'s analysis),
    or ``None`` where the file has none: eXtreme Gammon's (from an ``.xg`` file), or
    an OGXM file's (its plays' notation made our canonical one).

    A checker play's is on its entry; a cube decision's is on the double (or on the
    roll, for "no double"), found by looking back from the decision's entry to the
    previous play.
    """
    games = [game for game in record.games if game.number == decision.game]
    if not games or not 0 <= decision.entry < len(games[0].entries):
        return None
    entries = games[0].entries
    if isinstance(decision, CheckerAnalysis):
        found = _annotation(entries[decision.entry].annotations, _CHECKER)
        if isinstance(found, OgxmCheckerRead):
            return _canonical(found, decision, record)
        return found  # type: ignore[no-any-return]
    for index in range(decision.entry, -1, -1):
        found = _annotation(entries[index].annotations, _CUBE)
        if found is not None:
            return found  # type: ignore[no-any-return]
        if index < decision.entry and isinstance(entries[index].action, Play):
            break
    return None


def _canonical(
    found: OgxmCheckerRead, decision: CheckerAnalysis, record: MatchRecord
) -> OgxmCheckerRead:
    """``found`` with each play's notation the canonical one of the legal play it
    names (as ours are written), a play no legal one fits left as the file wrote it."""
    variant = record.info.variant
    position = Position.from_position_id(decision.position_id, checkers=variant.checkers)
    options = []
    for notation, equity in found.options:
        try:
            play = parse_play(notation, position, Roll(*decision.roll), variant)
        except BackgammonError:
            options.append((notation, equity))
        else:
            options.append((str(play), equity))
    return replace(found, options=tuple(options))


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
    """Our analysis of a match's checker plays and of the cube decisions before them
    (the doubler's equities of no double, double/take and double/pass, for each
    "no double": the OGXM codec keeps no analysis on a double's ply) as an OGXM
    file's analysis,
    under our engine's name and version (write it with
    :func:`~backgammon.formats.ogxm.write_ogxm`)."""
    from backgammon import __version__

    plays = {}
    cubes: dict[tuple[int, int], tuple[float, float, float]] = {}
    for decision in analysis.decisions:
        if isinstance(decision, CheckerAnalysis) and decision.options:
            alternatives = tuple((option.steps, option.equity) for option in decision.options)
            played = next(
                (i for i, option in enumerate(decision.options) if option.play == decision.play),
                None,
            )
            plays[(decision.game, decision.entry)] = OgxmPlyAnalysis(alternatives, played)
        elif isinstance(decision, CubeAnalysis) and decision.action == "no double":
            # Keyed by the roll (the decision's entry is the play after it). The OGXM
            # codec keeps a cube analysis only on a move's ply: a double's is left out.
            equities = (decision.no_double, decision.double_take, decision.double_pass)
            cubes[(decision.game, decision.entry - 1)] = equities
    return OgxmAnalysis("backgammon", __version__, analysis.settings.ply, plays, cubes)
