"""Game plans of each side, in the names players use: ``racing``, ``holding``,
``priming``, ``attacking``, ``back-game``.

The engine's classifier (:func:`backgammon.engine.plans.plan_of`) gives one plan for
the whole position; a side's plan here uses the same tests, applied to that side:

============  ===============================================================
plan          a side is given it when (first that fits, in this order)
============  ===============================================================
racing        there is no contact (the engine's ``RACE``)
back-game     it holds two or more points in the opponent's home board and
              trails by 30 pips or more (``BACK_GAME``)
attacking     the opponent has a checker on the bar or a blot in its home board,
              and it has three or more home points made (``BLITZ``, widened to
              blots in the home board)
priming       it has four or more made points in a row with an enemy checker
              behind them (``PRIME``, :func:`~backgammon.engine.plans.has_prime`)
holding       it holds an anchor on its 18..24 (``HOLDING``, ``DEEP_ANCHOR``)
racing        otherwise, when it leads the race by 8% of its pips or more
              (``OTHER_CONTACT``)
holding       otherwise (it waits for a shot or an anchor)
============  ===============================================================

:data:`ENGINE_PLANS` maps the engine's whole-position plans to these names.

>>> plans_of(Position.initial())
('holding', 'holding')
"""

from __future__ import annotations

from backgammon.engine.plans import Plan, has_prime
from backgammon.rules.position import Position

__all__ = ["ENGINE_PLANS", "PLAN_NAMES", "plans_of", "side_plan"]

PLAN_NAMES = ("racing", "holding", "priming", "attacking", "back-game")
"""Every plan name an explanation uses."""

ENGINE_PLANS: dict[Plan, str | None] = {
    Plan.RACE: "racing",
    Plan.BACK_GAME: "back-game",
    Plan.BLITZ: "attacking",
    Plan.PRIME: "priming",
    Plan.HOLDING: "holding",
    Plan.DEEP_ANCHOR: "holding",
    Plan.OTHER_CONTACT: None,
}
"""The engine's whole-position plan to a plan name (``None``: each side's own)."""

BACK_GAME_TRAIL = 30
ATTACK_POINTS = 3
RACE_LEAD = 0.08


def _attacking(mine: tuple[int, ...], theirs: tuple[int, ...]) -> bool:
    home = sum(1 for point in range(1, 7) if mine[point] >= 2)
    exposed = theirs[25] > 0 or any(theirs[25 - point] == 1 for point in range(1, 7))
    return exposed and home >= ATTACK_POINTS


def side_plan(position: Position, side: int) -> str:
    """The plan of one side of ``position`` (0: the side on roll, 1: the other)."""
    if not position.has_contact():
        return "racing"
    sides = (position.player, position.opponent)
    mine, theirs = sides[side], sides[1 - side]
    pips = position.pip_counts()
    lead = pips[1 - side] - pips[side]
    if sum(mine[point] >= 2 for point in range(19, 25)) >= 2 and -lead >= BACK_GAME_TRAIL:
        return "back-game"
    if _attacking(mine, theirs):
        return "attacking"
    if has_prime(mine, theirs):
        return "priming"
    if any(mine[point] >= 2 for point in range(18, 25)):
        return "holding"
    return "racing" if lead >= RACE_LEAD * pips[side] else "holding"


def plans_of(position: Position) -> tuple[str, str]:
    """The plans of the side on roll and of the other side."""
    return side_plan(position, 0), side_plan(position, 1)
