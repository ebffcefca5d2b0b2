"""What an evaluation says: :class:`Evaluation`, the five cubeless probabilities of a
position for one side and its money equity, and :class:`PlayEvaluation`, a play with
the evaluation of its result.

:mod:`backgammon.engine.evaluator` exports these names too; the underscored helpers
(building evaluations fast from a network's rows) are the engine's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from backgammon.rules.play import Play

__all__ = ["Evaluation", "PlayEvaluation"]


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Cubeless probabilities of a position for one side (normally the side on roll,
    before it rolls). Gammon probabilities include backgammons.

    >>> e = Evaluation(0.6, 0.2, 0.01, 0.1, 0.005)
    >>> round(e.equity, 3)
    0.305
    >>> e.flip().win
    0.4
    """

    win: float
    """P(win)."""
    win_gammon: float
    """P(win a gammon or backgammon)."""
    win_backgammon: float
    """P(win a backgammon)."""
    lose_gammon: float
    """P(lose a gammon or backgammon)."""
    lose_backgammon: float
    """P(lose a backgammon)."""

    @property
    def lose(self) -> float:
        """P(lose) = 1 - P(win)."""
        return 1.0 - self.win

    @property
    def equity(self) -> float:
        """Cubeless money equity for this side:
        ``2 win - 1 + win_gammon - lose_gammon + win_backgammon - lose_backgammon``."""
        return (
            2.0 * self.win
            - 1.0
            + self.win_gammon
            - self.lose_gammon
            + self.win_backgammon
            - self.lose_backgammon
        )

    @property
    def probabilities(self) -> tuple[float, float, float, float, float]:
        """The five probabilities in GNU Backgammon's order."""
        return (
            self.win,
            self.win_gammon,
            self.win_backgammon,
            self.lose_gammon,
            self.lose_backgammon,
        )

    def flip(self) -> Evaluation:
        """The same evaluation from the other side's point of view."""
        return _evaluation(
            1.0 - self.win,
            self.lose_gammon,
            self.lose_backgammon,
            self.win_gammon,
            self.win_backgammon,
        )

    def __str__(self) -> str:
        return (
            f"win {self.win:.4f} (g {self.win_gammon:.4f}, bg {self.win_backgammon:.4f}) "
            f"lose g {self.lose_gammon:.4f} bg {self.lose_backgammon:.4f} "
            f"equity {self.equity:+.4f}"
        )


_new = object.__new__
_SETTERS = tuple(Evaluation.__dict__[name].__set__ for name in Evaluation.__slots__)
(_SET_W, _SET_WG, _SET_WBG, _SET_LG, _SET_LBG) = _SETTERS


def _evaluation(w: float, wg: float, wbg: float, lg: float, lbg: float) -> Evaluation:
    """Build an Evaluation without the frozen dataclass's per-field ``__setattr__``."""
    evaluation = _new(Evaluation)
    _SET_W(evaluation, w)
    _SET_WG(evaluation, wg)
    _SET_WBG(evaluation, wbg)
    _SET_LG(evaluation, lg)
    _SET_LBG(evaluation, lbg)
    return evaluation


def _evaluations(probs: npt.NDArray[np.floating[Any]]) -> list[Evaluation]:
    return [_evaluation(*row) for row in probs.tolist()]


def _equities(probs: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Cubeless money equities of rows of five probabilities."""
    p = probs
    equity: npt.NDArray[np.float64] = 2.0 * p[:, 0] - 1.0 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]
    return equity


class PlayEvaluation(NamedTuple):
    """A play with the evaluation of its result, from the mover's point of view."""

    play: Play
    evaluation: Evaluation

    @property
    def equity(self) -> float:
        """The mover's cubeless money equity after the play."""
        return self.evaluation.equity
