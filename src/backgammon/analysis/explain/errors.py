"""The explanation of an analysed error wherever one is shown (the HTML report, the web
review, the archive): :func:`explain_error` picks :func:`explain_decision` or
:func:`explain_cube`, and :func:`brief_json` gives its short form, the text and each
theme's sentence.
"""

from __future__ import annotations

from backgammon.analysis.explain.cube import CubeExplanation, explain_cube
from backgammon.analysis.explain.explanation import Explanation, explain_decision
from backgammon.analysis.results import CheckerAnalysis, Decision
from backgammon.errors import BackgammonError

__all__ = ["THEME_NAMES", "brief_json", "explain_error"]

THEME_NAMES = {
    "shots": "Shots",
    "points": "Points",
    "builders": "Builders",
    "escape": "Escape",
    "duplication": "Duplication",
    "race": "The race",
    "gammons": "Gammons",
    "chances": "Chances",
    "take-point": "Take point",
    "market": "Market",
}
"""Each theme id of plays and cube actions as a list's label names it."""


def explain_error(decision: Decision, checkers: int = 15) -> Explanation | CubeExplanation | None:
    """The explanation of a marked ``decision`` (cube actions without the market, so
    no engine call); ``None`` when it is not marked, or where the standard rules'
    plays do not fit it (another number of checkers than 15, a variant's moves)."""
    if decision.mark is None or checkers != 15:
        return None
    if not isinstance(decision, CheckerAnalysis):
        return explain_cube(decision)
    try:
        return explain_decision(decision)
    except BackgammonError:
        return None


def brief_json(explanation: Explanation | CubeExplanation) -> dict[str, object]:
    """``{"kind": "checker" | "cube", "text", "themes": [{"id", "name", "says"}]}``
    (``name`` from :data:`THEME_NAMES`)."""
    if isinstance(explanation, Explanation):
        kind = "checker"
        themes = [(theme.id, theme.says) for theme in explanation.themes]
    else:
        kind = "cube"
        themes = list(explanation.says)
    return {
        "kind": kind,
        "text": explanation.text,
        "themes": [
            {"id": theme, "name": THEME_NAMES.get(theme, theme), "says": says}
            for theme, says in themes
        ],
    }
