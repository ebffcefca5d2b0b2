"""What a player's errors have in common, in the explanations' terms (issue 56): their
checker plays grouped by **plan** (the mover's plan before the play,
:func:`~backgammon.analysis.explain.plans_of`) with the equity lost per 100 decisions,
and their errors grouped by **theme** (:data:`~backgammon.analysis.explain.THEME_IDS`:
every theme in the best play's favour, and the one that leads each explanation, the
heaviest, with the equity those errors lost), said in a sentence: "You lose most in
holding games: 4.1 equity per 100 decisions; your costliest theme is leaving shots
(0.412 lost in 5 errors)."
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from backgammon.analysis.explain import PLAN_NAMES, THEME_IDS, Explanation, plans_of
from backgammon.analysis.explain.errors import explain_error
from backgammon.analysis.results import CheckerAnalysis, Decision, MatchAnalysis

__all__ = [
    "PLAN_GAMES",
    "THEME_LESSONS",
    "Lessons",
    "PlanLine",
    "ThemeLine",
    "lessons_json",
    "lessons_of",
]

THEME_LESSONS = {
    "shots": "leaving shots",
    "points": "making and keeping points",
    "builders": "builders for the points that matter",
    "escape": "escaping the back checkers",
    "duplication": "the opponent's good rolls",
    "race": "the race",
    "gammons": "gammons won and lost",
}
"""Each theme as a lesson, in the sentence's words."""

PLAN_GAMES = {
    "racing": "racing games",
    "holding": "holding games",
    "priming": "priming games",
    "attacking": "attacking games",
    "back-game": "back games",
}
"""Each plan as the sentence says it."""

MIN_DECISIONS = 5
"""A plan is named where the player lost most only with this many decisions in it (when
any plan has that many)."""


@dataclass(frozen=True, slots=True)
class PlanLine:
    """The player's counted checker plays made in one plan: how many, how many marked,
    the equity lost."""

    plan: str
    decisions: int
    errors: int
    equity_loss: float

    @property
    def per_100(self) -> float:
        """Equity lost per 100 decisions (0 without decisions)."""
        return 100.0 * self.equity_loss / self.decisions if self.decisions else 0.0


@dataclass(frozen=True, slots=True)
class ThemeLine:
    """The player's errors by theme: in how many the theme favours the best play, how
    many it leads (the heaviest such theme), and what those it leads lost."""

    theme: str
    errors: int
    led: int
    equity_loss: float


@dataclass(frozen=True, slots=True)
class Lessons:
    """The player's checker plays by plan (in :data:`PLAN_NAMES` order), their errors by
    theme (in :data:`THEME_IDS` order), the errors no theme explains, and the sentence."""

    plans: tuple[PlanLine, ...]
    themes: tuple[ThemeLine, ...]
    unexplained: int
    text: str


@dataclass(slots=True)
class _Count:
    """Added up while the lessons are built: decisions (or errors), the marked ones (or
    those led), and the equity lost."""

    count: int = 0
    marked: int = 0
    loss: float = 0.0


def _lead(explanation: Explanation) -> str | None:
    """The heaviest theme in the best play's favour."""
    found = [theme for theme in explanation.themes if theme.favours == "best"]
    return max(found, key=lambda theme: theme.weight).id if found else None


def _add_error(themes: dict[str, _Count], decision: CheckerAnalysis, checkers: int) -> bool:
    """Count a marked play's themes in the best play's favour, and its loss to the one
    that leads; ``False`` where no theme explains it."""
    explanation = explain_error(decision, checkers)
    if not isinstance(explanation, Explanation):
        return False
    lead = _lead(explanation)
    if lead is None:
        return False
    for theme in explanation.themes:
        themes[theme.id].count += theme.favours == "best"
    themes[lead].marked += 1
    themes[lead].loss += decision.equity_loss
    return True


def lessons_of(decisions: Iterable[tuple[Decision, MatchAnalysis]]) -> Lessons:
    """The lessons of a player's counted decisions, each with its match's analysis
    (cube decisions are left out: they have no play to explain by plan or theme)."""
    plans = {plan: _Count() for plan in PLAN_NAMES}
    themes = {theme: _Count() for theme in THEME_IDS}
    unexplained = 0
    for decision, analysis in decisions:
        if not isinstance(decision, CheckerAnalysis):
            continue
        plan = plans[plans_of(analysis.position(decision))[0]]
        plan.count += 1
        plan.loss += decision.equity_loss
        if decision.mark is not None:
            plan.marked += 1
            unexplained += not _add_error(themes, decision, analysis.checkers)
    plan_lines = tuple(PlanLine(p, c.count, c.marked, c.loss) for p, c in plans.items())
    theme_lines = tuple(ThemeLine(t, c.count, c.marked, c.loss) for t, c in themes.items())
    return Lessons(plan_lines, theme_lines, unexplained, _sentence(plan_lines, theme_lines))


def _sentence(plans: tuple[PlanLine, ...], themes: tuple[ThemeLine, ...]) -> str:
    """'You lose most in holding games: 4.1 equity per 100 decisions; your costliest
    theme is leaving shots (0.412 lost in 5 errors).'"""
    played = [line for line in plans if line.decisions]
    if not played:
        return "No checker play to learn from."
    enough = [line for line in played if line.decisions >= MIN_DECISIONS] or played
    worst = max(enough, key=lambda line: line.per_100)
    text = (
        f"You lose most in {PLAN_GAMES[worst.plan]}: {worst.per_100:.1f} equity per 100 "
        f"decisions ({worst.decisions} decisions)"
    )
    costly = max(themes, key=lambda line: line.equity_loss)
    if costly.led:
        errors = "error" if costly.led == 1 else "errors"
        text += (
            f"; your costliest theme is {THEME_LESSONS[costly.theme]} "
            f"({costly.equity_loss:.3f} lost in {costly.led} {errors})"
        )
    return text + "."


def lessons_json(lessons: Lessons) -> dict[str, Any]:
    """``{"by_plan": [{"plan", "decisions", "errors", "equity_loss", "per_100"}],
    "by_theme": [{"theme", "lesson", "errors", "led", "equity_loss"}], "unexplained",
    "text"}``."""
    return {
        "by_plan": [
            {
                "plan": line.plan,
                "decisions": line.decisions,
                "errors": line.errors,
                "equity_loss": round(line.equity_loss, 6),
                "per_100": round(line.per_100, 4),
            }
            for line in lessons.plans
        ],
        "by_theme": [
            {
                "theme": line.theme,
                "lesson": THEME_LESSONS[line.theme],
                "errors": line.errors,
                "led": line.led,
                "equity_loss": round(line.equity_loss, 6),
            }
            for line in lessons.themes
        ],
        "unexplained": lessons.unexplained,
        "text": lessons.text,
    }
