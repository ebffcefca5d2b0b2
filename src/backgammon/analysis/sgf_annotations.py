"""An analysis written into its match record in GNU Backgammon's SGF analysis syntax
(``A``, ``DA``, ``MR``, ``LU``, ``GW``/``GB``, ``BM``, ``DO``, ``BC``, ``DC``):
:func:`store_annotations`, so that ``write_match(record, "x.sgf")`` keeps it."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from backgammon.analysis.results import CheckerAnalysis, CubeAnalysis, Mark, MatchAnalysis
from backgammon.engine.met import MatchEquityTable
from backgammon.formats.record import MatchRecord

__all__ = ["store_annotations"]

_LUCK_LEVELS = (0.6, 0.3)
"""GNU Backgammon's luck marks: very lucky above +0.6, lucky above +0.3 (and the same
below zero for unlucky)."""

_SGF_ANALYSIS_KEYS = ("A", "DA", "MR", "CR", "LU", "GW", "GB", "BM", "DO", "BC", "DC")
"""The SGF properties of GNU Backgammon's analysis, replaced by :func:`store_annotations`."""


def _letter(point: int, player: int) -> str:
    if point >= 25:
        return "y"
    if point <= 0:
        return "z"
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("x") - point + 1)


def _move_letters(steps: Sequence[tuple[int, int]], player: int) -> str:
    return "".join(_letter(a, player) + _letter(b, player) for a, b in steps)


def _number(value: float, digits: int = 6) -> str:
    return f"{value:.{digits}f}"


def _skill(mark: Mark | None, bad: str, doubtful: str) -> dict[str, list[str]]:
    if mark is Mark.VERY_BAD:
        return {bad: ["2"]}
    if mark is Mark.BAD:
        return {bad: ["1"]}
    if mark is Mark.DOUBTFUL:
        return {doubtful: [""]}
    return {}


def _luck_marks(luck: float, player: int) -> dict[str, list[str]]:
    very, plain = _LUCK_LEVELS
    colours = ("W", "B")
    if luck > plain:
        return {f"G{colours[player]}": ["2" if luck > very else "1"]}
    if luck < -plain:
        return {f"G{colours[1 - player]}": ["2" if luck < -very else "1"]}
    return {}


def _checker_annotations(item: CheckerAnalysis, ply: int, cubeful: bool) -> dict[str, list[str]]:
    values = [str(item.options.index(item.played))]
    for option in item.options:
        numbers = " ".join(_number(p) for p in option.probabilities)
        values.append(
            f"{_move_letters(option.steps, item.player)} E ver 3 {numbers} "
            f"{_number(option.equity)} {ply}{'C' if cubeful else ''} 0 1 0.000000 0"
        )
    result = {"A": values, "MR": [""], "LU": [_number(item.luck, 5)]}
    result.update(_luck_marks(item.luck, item.player))
    if item.counted:
        result.update(_skill(item.mark, "BM", "DO"))
    return result


def store_annotations(record: MatchRecord, analysis: MatchAnalysis) -> None:
    """Write ``analysis`` into ``record``'s entries (``entry.annotations``) in GNU
    Backgammon's SGF analysis syntax, replacing any analysis already there:

    * on a checker play: ``A`` (the index of the play made, then each option as its
      from/to letters and ``E ver 3`` with five probabilities, the equity and the
      evaluation settings, with ``C`` when the equities are cubeful), ``MR[]``, ``LU``
      (luck), ``GW``/``GB`` (lucky rolls), ``BM``/``DO`` (bad or doubtful play), and,
      when the roll was preceded by a cube decision, ``DA`` and ``BC``/``DC``;
    * on a double, take, pass or beaver: ``DA`` and ``BM``/``DO``.

    ``DA`` holds the no-double and double/take evaluations (probabilities, cubeless
    equity, cubeful equity, in match winning chances in a match), as GNU Backgammon
    writes them, so its readers recover our cube decision.
    """
    ply = analysis.settings.ply
    met = analysis.settings.table
    games = {game.number: game for game in analysis.games}
    for game_record in record.games:
        result = games.get(game_record.number)
        if result is None:
            continue
        for entry in game_record.entries:
            for key in _SGF_ANALYSIS_KEYS:
                entry.annotations.pop(key, None)
        score = game_record.score_before
        for item in result.decisions:
            if not 0 <= item.entry < len(game_record.entries):
                continue
            annotations = game_record.entries[item.entry].annotations
            if isinstance(item, CheckerAnalysis):
                annotations.update(_checker_annotations(item, ply, analysis.settings.cubeful))
                continue
            value = _da_value(item, ply, analysis.length, score, met)
            if item.action == "no double":
                annotations["DA"] = [value]
                annotations.update(_skill(item.mark, "BC", "DC"))
            else:
                annotations["DA"] = [value]
                annotations.update(_skill(item.mark, "BM", "DO"))
        for entry in game_record.entries:
            _order(entry.annotations)


def _da_value(
    item: CubeAnalysis, ply: int, length: int, score: tuple[int, int], met: MatchEquityTable
) -> str:
    cubeful = [item.no_double, item.double_take]
    if length:
        me = max(length - score[item.doubler], 0)
        them = max(length - score[1 - item.doubler], 0)
        with contextlib.suppress(ValueError):
            cubeful = [met.equity_to_mwc(value, me, them, item.cube) for value in cubeful]
    probabilities = " ".join(_number(p) for p in item.probabilities)
    rows = [
        f"{probabilities} {_number(item.cubeless_equity)} {_number(value)}" for value in cubeful
    ]
    return f"E ver 3 {ply}C 1 0.000000 0 " + " ".join(rows)


def _order(annotations: dict[str, Any]) -> None:
    """Put the analysis keys in GNU Backgammon's order (DA, A, MR, LU, G?, BM/DO, BC/DC)
    after any other keys."""
    order = ("DA", "A", "MR", "CR", "LU", "GW", "GB", "BM", "DO", "BC", "DC")
    moved = [(key, annotations.pop(key)) for key in order if key in annotations]
    annotations.update(moved)
