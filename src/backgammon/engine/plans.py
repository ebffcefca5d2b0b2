"""Game plans: a rough sort of positions by what the game is about.

The engine's :class:`~backgammon.engine.evaluator.PositionClass` says which network
serves a position (race, contact, crashed); a *plan* says what kind of contact it is,
so that errors, benchmarks and training positions can be counted by plan (where the
engine loses: races, blitzes, "other contact"). :func:`plan_of` gives the first plan
of :class:`Plan` that either side fits.

>>> plan_of(Position.initial()).label  # both sides hold their 24-point
'deep anchor'
"""

from __future__ import annotations

from enum import Enum

from backgammon.rules.position import Position

__all__ = ["Plan", "has_prime", "plan_of"]


class Plan(Enum):
    """A game plan; the value is its two-letter code (the corpus files use it), the
    :attr:`label` its name in tables.

    * ``RACE``: no contact.
    * ``BACK_GAME``: a side holds two or more points in the other's home board (its
      19-24) and trails the race by 30 pips or more.
    * ``BLITZ``: a side is on the bar against three or more closed home points.
    * ``PRIME``: a side has four or more made points in a row with an enemy checker
      behind them.
    * ``HOLDING``: a side holds an anchor on its 18-21 (the other's 4- to 7-point).
    * ``DEEP_ANCHOR``: a side holds one on its 22-24.
    * ``OTHER_CONTACT``: contact otherwise.
    """

    RACE = "ra"
    BACK_GAME = "bg"
    BLITZ = "bz"
    PRIME = "pr"
    HOLDING = "ho"
    DEEP_ANCHOR = "da"
    OTHER_CONTACT = "oc"

    @property
    def label(self) -> str:
        """The plan's name in tables (``"back game"``)."""
        return self.name.lower().replace("_", " ")


def has_prime(mine: tuple[int, ...], theirs: tuple[int, ...]) -> bool:
    """Whether ``mine`` has four or more made points in a row with one of ``theirs``
    behind them (each side's counts in its own numbering, the bar 25: ``theirs``'s
    point ``25 - p`` is our ``p``)."""
    run = 0
    for point in range(1, 25):
        run = run + 1 if mine[point] >= 2 else 0
        if run >= 4 and any(theirs[25 - below] for below in range(1, point - run + 1)):
            return True
    return False


def plan_of(position: Position) -> Plan:
    """The first :class:`Plan` that either side of ``position`` fits."""
    if not position.has_contact():
        return Plan.RACE
    sides = (position.player, position.opponent)
    pips = position.pip_counts()
    for mine, behind in ((0, pips[0] - pips[1]), (1, pips[1] - pips[0])):
        if sum(sides[mine][point] >= 2 for point in range(19, 25)) >= 2 and behind >= 30:
            return Plan.BACK_GAME
    for mine, theirs in ((0, 1), (1, 0)):
        if sides[mine][25] and sum(sides[theirs][point] >= 2 for point in range(1, 7)) >= 3:
            return Plan.BLITZ
    for mine, theirs in ((0, 1), (1, 0)):
        if has_prime(sides[mine], sides[theirs]):
            return Plan.PRIME
    for first, last, plan in ((18, 21, Plan.HOLDING), (22, 24, Plan.DEEP_ANCHOR)):
        if any(side[point] >= 2 for side in sides for point in range(first, last + 1)):
            return plan
    return Plan.OTHER_CONTACT
