"""The actions of a chouette: checker actions by the box or the captain, and the cube
actions of each member's own cube.

Every action names the player who takes it, so that a chouette can refuse an action
taken by the wrong seat. A cube action names the cube it acts on by its team member;
in the one-team-cube form (:attr:`ChouetteRules.team_cube`) the team's single cube is
named :data:`TEAM` (``None``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from backgammon.rules.dice import Roll
from backgammon.rules.game import OpeningRoll
from backgammon.rules.play import Play

__all__ = [
    "TEAM",
    "BoardAction",
    "ChouetteAction",
    "CubeDouble",
    "CubeDrop",
    "CubeTake",
    "Offer",
]

TEAM: None = None
"""The name of the team's one cube in the one-team-cube form."""


@dataclass(frozen=True, slots=True)
class BoardAction:
    """A throw or a play on the one board: by the box, or by the player who holds the
    team's checkers (the captain, or whoever took over from a dropped captain).

    Attributes:
        player: who acts.
        action: the opening throw, a roll, or a whole play.
    """

    player: str
    action: OpeningRoll | Roll | Play


@dataclass(frozen=True, slots=True)
class CubeDouble:
    """``player`` turns a cube before rolling.

    Attributes:
        player: the doubler: a team member turning their own cube, or the box turning a
            member's cube.
        member: whose cube is turned; :data:`TEAM` for the team's cube (one-team-cube
            form: the captain doubles for the whole team, or the box doubles the whole
            team and each member answers for their own stake).
    """

    player: str
    member: str | None


@dataclass(frozen=True, slots=True)
class CubeTake:
    """``player`` accepts the double on ``member``'s cube (the cube doubles and passes to
    the taker)."""

    player: str
    member: str | None


@dataclass(frozen=True, slots=True)
class CubeDrop:
    """``player`` refuses the double on ``member``'s cube: the doubler wins that cube's
    value before the double, and the member is out of this game."""

    player: str
    member: str | None


@dataclass(frozen=True, slots=True)
class Offer:
    """A double waiting for an answer.

    Attributes:
        doubler: who doubled (the box or a team member).
        member: whose cube (:data:`TEAM` for a team double by the captain in the
            one-team-cube form, answered once by the box).
    """

    doubler: str
    member: str | None


ChouetteAction: TypeAlias = BoardAction | CubeDouble | CubeTake | CubeDrop
