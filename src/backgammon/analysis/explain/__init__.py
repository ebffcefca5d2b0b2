"""Analysis that teaches: why one play is better than another, in the game's own terms.

:func:`explain_play` takes a position, a roll and two plays (usually the one played and
the best) and gives an :class:`Explanation`: both sides' plans before and after
(:mod:`.plans`: ``racing``, ``holding``, ``priming``, ``attacking``, ``back-game``), the
themes that separate the two plays, each measured on both results (:mod:`.themes`,
ids in :data:`THEME_IDS`), and a few plain sentences (:mod:`.text`).
:func:`explain_decision` explains an analysed error of
:func:`backgammon.analysis.analyze_match`; :func:`explain_cube` a cube decision (the
take point, the doubling window, the market, three-to-one); :func:`explain_error` either
for a marked error, and :func:`brief_json` its short form (wherever an error is shown).

One concept per module: :mod:`.shots` (blots and shots over the 36 rolls),
:mod:`.points` (points made and broken), :mod:`.builders`, :mod:`.race`,
:mod:`.duplication`, :mod:`.escape`, :mod:`.gammons`, :mod:`.cube`; :mod:`.rolls` the
36 rolls they count over.
"""

from backgammon.analysis.explain.cube import CubeExplanation, explain_cube
from backgammon.analysis.explain.errors import brief_json, explain_error
from backgammon.analysis.explain.explanation import (
    Explanation,
    Plans,
    explain_decision,
    explain_play,
)
from backgammon.analysis.explain.plans import ENGINE_PLANS, PLAN_NAMES, plans_of, side_plan
from backgammon.analysis.explain.shots import BlotShots, Shots, count_shots
from backgammon.analysis.explain.themes import THEME_IDS, THRESHOLDS, Theme

__all__ = [
    "ENGINE_PLANS",
    "PLAN_NAMES",
    "THEME_IDS",
    "THRESHOLDS",
    "BlotShots",
    "CubeExplanation",
    "Explanation",
    "Plans",
    "Shots",
    "Theme",
    "brief_json",
    "count_shots",
    "explain_cube",
    "explain_decision",
    "explain_error",
    "explain_play",
    "plans_of",
    "side_plan",
]
