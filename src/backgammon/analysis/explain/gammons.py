"""Gammon chances won or lost: the engine's cubeless evaluation of a play's result
from the mover's side (gammons include backgammons)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Gammons", "gammons_of"]


@dataclass(frozen=True, slots=True)
class Gammons:
    """The mover's chances after a play.

    Attributes:
        win: the chance to win the game.
        win_gammon: to win a gammon or backgammon.
        lose_gammon: to lose one.
        equity: the cubeless money equity of these chances.
    """

    win: float
    win_gammon: float
    lose_gammon: float
    equity: float

    def as_json(self) -> dict[str, object]:
        """The JSON form, rounded to 4 decimals."""
        return {
            "win": round(self.win, 4),
            "win_gammon": round(self.win_gammon, 4),
            "lose_gammon": round(self.lose_gammon, 4),
            "equity": round(self.equity, 4),
        }


def gammons_of(probabilities: Sequence[float]) -> Gammons:
    """The :class:`Gammons` of five probabilities in GNU Backgammon's order (win,
    win gammon, win backgammon, lose gammon, lose backgammon), the mover's."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = probabilities
    equity = 2 * win - 1 + win_gammon - lose_gammon + win_backgammon - lose_backgammon
    return Gammons(win, win_gammon, lose_gammon, equity)
