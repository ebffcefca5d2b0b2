"""What a finished chouette game leaves: each cube's result and the points it moved."""

from __future__ import annotations

from dataclasses import dataclass

from backgammon.rules.cube import CubeState
from backgammon.rules.game import WinKind

__all__ = ["CubeResult", "GameResult"]


@dataclass(frozen=True, slots=True)
class CubeResult:
    """How one member's cube against the box ended.

    Attributes:
        member: the team member whose cube it is.
        cube: the cube when it was settled (its value before a dropped double).
        winner: the box or the member.
        kind: single, gammon or backgammon (single for a drop, and under the Jacoby
            rule on a cube never turned).
        dropped: the cube ended on a dropped double rather than on the board.
    """

    member: str
    cube: CubeState
    winner: str
    kind: WinKind
    dropped: bool

    @property
    def points(self) -> int:
        """The points the loser pays the winner: the kind's multiplier times the cube."""
        return int(self.kind) * self.cube.value


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game of a chouette.

    Attributes:
        number: the game's number in the session, from 1.
        lineup: the lineup it was played in (box, captain, the rest of the team).
        cubes: each member's cube result, in the order they were settled.
        captain_won: whether the captain who began the game won their own cube (this
            decides the rotation).
    """

    number: int
    lineup: tuple[str, ...]
    cubes: tuple[CubeResult, ...]
    captain_won: bool

    @property
    def box(self) -> str:
        """The player in the box for this game."""
        return self.lineup[0]

    def points(self) -> dict[str, int]:
        """Points won (+) or lost (-) by each player in this game; they sum to zero."""
        totals = dict.fromkeys(self.lineup, 0)
        for result in self.cubes:
            loser = self.box if result.winner == result.member else result.member
            totals[result.winner] += result.points
            totals[loser] -= result.points
        return totals
