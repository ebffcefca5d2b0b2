"""The race: both sides' pip counts after a play, who leads and by how much.

Only hits change the race between two plays of one roll (every play of a roll moves
the same number of pips, unless one cannot use all the dice), so this theme separates
plays that hit from plays that do not.
"""

from __future__ import annotations

from dataclasses import dataclass

from backgammon.rules.position import Position

__all__ = ["Race", "race_of"]


@dataclass(frozen=True, slots=True)
class Race:
    """Pip counts after a play (a checker on the bar counts 25).

    Attributes:
        player: the mover's pip count.
        opponent: the opponent's.
    """

    player: int
    opponent: int

    @property
    def lead(self) -> int:
        """The mover's lead in pips (negative when it trails)."""
        return self.opponent - self.player

    @property
    def leader(self) -> str:
        """``"player"``, ``"opponent"`` or ``"even"``."""
        return "player" if self.lead > 0 else "opponent" if self.lead < 0 else "even"

    def as_json(self) -> dict[str, object]:
        """The JSON form: ``player``, ``opponent``, ``lead``, ``leader``."""
        return {
            "player": self.player,
            "opponent": self.opponent,
            "lead": self.lead,
            "leader": self.leader,
        }


def race_of(after: Position) -> Race:
    """The race in ``after`` (the position a play left, seen from the mover)."""
    player, opponent = after.pip_counts()
    return Race(player, opponent)
