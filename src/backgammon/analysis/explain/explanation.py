"""Explain a checker play: the plans of both sides and the themes that separate the
play made from another (usually the best), with a few plain sentences.

>>> from backgammon.rules.position import Position
>>> explanation = explain_play(Position.initial(), "3-1", "24/21 6/5", "8/5 6/5")
>>> [theme.id for theme in explanation.themes][:2]
['shots', 'points']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from backgammon.analysis.explain.plans import plans_of
from backgammon.analysis.explain.text import whole_text
from backgammon.analysis.explain.themes import THEME_IDS, Result, Theme, compare
from backgammon.rules.dice import Roll, RollLike
from backgammon.rules.play import Play
from backgammon.rules.position import Position

if TYPE_CHECKING:
    from backgammon.analysis.results import CheckerAnalysis
    from backgammon.engine.evaluator import Engine

__all__ = ["Explanation", "Plans", "explain_decision", "explain_play"]

Probabilities = tuple[float, float, float, float, float]


@dataclass(frozen=True, slots=True)
class Plans:
    """The plans (:data:`~backgammon.analysis.explain.plans.PLAN_NAMES`) of the mover
    and the opponent, each as ``(player, opponent)``: before the play, after the play
    made, after the best play."""

    before: tuple[str, str]
    after: tuple[str, str]
    after_best: tuple[str, str]

    def as_json(self) -> dict[str, object]:
        """``{"before": {"player", "opponent"}, "after": {...}, "after_best": {...}}``."""
        return {
            name: {"player": pair[0], "opponent": pair[1]}
            for name, pair in (
                ("before", self.before),
                ("after", self.after),
                ("after_best", self.after_best),
            )
        }


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why one play is better than another.

    Attributes:
        position: the position before the play, from the mover.
        roll: the dice.
        played: the play made (notation); ``best`` the play it is compared with.
        plans: both sides' plans before and after.
        themes: the themes that separate the plays, in
            :data:`~backgammon.analysis.explain.themes.THEME_IDS` order.
        text: a few sentences saying it.
        equity_loss: what the play made cost, where known.
    """

    position: Position
    roll: Roll
    played: str
    best: str
    plans: Plans
    themes: tuple[Theme, ...]
    text: str
    equity_loss: float | None = None

    def theme(self, theme_id: str) -> Theme | None:
        """The theme ``theme_id`` if it separates the plays."""
        return next((theme for theme in self.themes if theme.id == theme_id), None)

    def as_json(self) -> dict[str, object]:
        """The stable JSON form: ``position_id``, ``roll``, ``played``, ``best``,
        ``equity_loss``, ``plans``, ``themes`` (each ``id``, ``played``, ``best``,
        ``says``) and ``text``."""
        loss = None if self.equity_loss is None else round(self.equity_loss, 4)
        return {
            "position_id": self.position.position_id,
            "roll": str(self.roll),
            "played": self.played,
            "best": self.best,
            "equity_loss": loss,
            "plans": self.plans.as_json(),
            "themes": [theme.as_json() for theme in self.themes],
            "text": self.text,
        }


def _play(position: Position, roll: Roll, play: Play | str) -> Play:
    return play if isinstance(play, Play) else Play.parse(play, position, roll)


def _probabilities(engine: Engine, after: Position) -> Probabilities:
    return engine.evaluate(after.flip()).flip().probabilities


def explain_play(
    position: Position,
    roll: RollLike | str,
    played: Play | str,
    best: Play | str | None = None,
    *,
    engine: Engine | None = None,
    probabilities: tuple[Probabilities, Probabilities] | None = None,
    equity_loss: float | None = None,
    themes: Sequence[str] = THEME_IDS,
) -> Explanation:
    """Explain ``played`` against ``best`` (the engine's best play at 0-ply when
    ``None``) for ``roll`` in ``position`` (seen from the mover).

    ``probabilities`` are the mover's five cubeless probabilities after each play
    (played, best), for the ``gammons`` theme; without them ``engine`` (the default
    networks when ``None``) evaluates both results at 0-ply. ``equity_loss``: what
    ``played`` gives up against ``best`` (negative when ``best``, a play the caller
    chose, is the worse: the text then says ``played`` is the better).

    Raises:
        InvalidNotationError, IllegalPlayError, AmbiguousPlayError: if a play is not
            one legal play of ``roll`` here.
        ValueError: if ``roll`` is not two dice of 1..6.
    """
    dice = Roll.parse(roll) if isinstance(roll, str) else Roll.coerce(roll)
    mine = _play(position, dice, played)
    if best is None or probabilities is None:
        if engine is None:
            from backgammon.engine.evaluator import Engine

            engine = Engine()
        best = engine.best_play(position, dice) if best is None else best
    other = _play(position, dice, best)
    if probabilities is None:
        assert engine is not None
        probabilities = (
            _probabilities(engine, mine.position),
            _probabilities(engine, other.position),
        )
    return _explain(position, dice, mine, other, probabilities, equity_loss, themes)


def _explain(
    position: Position,
    dice: Roll,
    mine: Play,
    other: Play,
    probabilities: tuple[Probabilities, Probabilities],
    equity_loss: float | None,
    themes: Sequence[str],
) -> Explanation:
    played_result = Result(str(mine), position, mine.position, probabilities[0])
    best_result = Result(str(other), position, other.position, probabilities[1])
    found = () if mine == other else tuple(compare(played_result, best_result, themes))
    plans = Plans(plans_of(position), plans_of(mine.position), plans_of(other.position))
    cost = "" if equity_loss is None else f" by {abs(equity_loss):.3f}"
    played_better = equity_loss is not None and equity_loss < 0
    text = whole_text(str(mine), str(other), plans, found, cost, played_better)
    return Explanation(position, dice, str(mine), str(other), plans, found, text, equity_loss)


def explain_decision(decision: CheckerAnalysis, themes: Sequence[str] = THEME_IDS) -> Explanation:
    """Explain an analysed checker play against the analysis's best play, with the
    analysis's probabilities and equity loss (no engine call).

    Raises:
        IllegalPlayError: if the decision's plays do not fit its position and roll.
    """
    position = Position.from_position_id(decision.position_id)
    probabilities = (decision.played.probabilities, decision.best.probabilities)
    return explain_play(
        position,
        decision.roll,
        decision.play,
        decision.best.play,
        probabilities=probabilities,
        equity_loss=decision.equity_loss,
        themes=themes,
    )
