"""The back checkers' escape numbers.

A side's *back checkers* are those still behind the opponent's blockade: on the bar or
on its points from *past* upward, where *past* is the lowest point of its 13..18 that
the opponent has made below its rearmost checker (the opponent's 7- to 12-point), or 19
(leaving the opponent's home board) when there is none. A roll *escapes* when one of its
legal plays brings a back checker below *past*. The measure gives both sides' escape
numbers after a play: the opponent's for the roll it is about to make, the mover's as if
it rolled again (its escape chances next turn, before the opponent's play changes
them).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from backgammon.analysis.explain.rolls import RollSet, rolls_where
from backgammon.rules.position import Position

__all__ = ["Escape", "SideEscape", "escape_of", "escape_rolls"]

HOME_EDGE = 19
"""The mover's lowest point in the opponent's home board."""


@dataclass(frozen=True, slots=True)
class SideEscape:
    """One side's back checkers and the rolls that escape one.

    Attributes:
        back_checkers: checkers behind the blockade (on ``past`` and above, or the bar).
        past: the point (the side's numbering) a back checker must get below.
        rolls: rolls of 36 that escape a back checker.
    """

    back_checkers: int
    past: int
    rolls: int

    def as_json(self) -> dict[str, object]:
        """The JSON form (the attributes by name)."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Escape:
    """Both sides' escape numbers after a play."""

    player: SideEscape
    opponent: SideEscape

    def as_json(self) -> dict[str, object]:
        """The JSON form: ``player`` and ``opponent``."""
        return {"player": self.player.as_json(), "opponent": self.opponent.as_json()}


def _past(position: Position) -> int:
    """The point the side on roll's back checkers must get below."""
    mine, theirs = position.player, position.opponent
    rearmost = max((point for point in range(1, 26) if mine[point]), default=0)
    blocks = [q for q in range(13, HOME_EDGE) if theirs[25 - q] >= 2 and q < rearmost]
    return min([HOME_EDGE, *blocks])


def escape_rolls(position: Position) -> tuple[SideEscape, RollSet]:
    """The back checkers of the side on roll in ``position`` and the rolls that escape
    one of them."""
    past = _past(position)
    behind = sum(position.player[past:26])
    if not behind or not position.has_contact():
        return SideEscape(0, past, 0), RollSet(frozenset())
    rolls = rolls_where(position, lambda play: sum(play.position.player[past:26]) < behind)
    return SideEscape(behind, past, rolls.count), rolls


def escape_of(after: Position) -> Escape:
    """Both sides' escape numbers in ``after`` (the position a play left, from the
    mover)."""
    return Escape(escape_rolls(after)[0], escape_rolls(after.flip())[0])
