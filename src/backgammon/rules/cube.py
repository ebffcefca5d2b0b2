"""The doubling cube: its state, the cube and resignation actions, and the options
that govern them (beavers, raccoons, automatic doubles, Jacoby, Crawford, Holland).

Cube and resignation actions are pushed onto a :class:`~backgammon.rules.game.Game`
like rolls and plays. Which of them is legal at a moment depends on the game's
:class:`CubeRules` and its :class:`MatchContext` (money or a match, and whether this is
the Crawford game).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

__all__ = [
    "AcceptResignation",
    "Beaver",
    "CubeAction",
    "CubeRules",
    "CubeState",
    "Double",
    "Drop",
    "MatchContext",
    "Raccoon",
    "RejectResignation",
    "Resign",
    "ResignLevel",
    "ResignationAction",
    "Take",
]


class ResignLevel(IntEnum):
    """What a resigning player gives up; the value multiplies the cube."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class CubeState:
    """The cube's value and who may turn it next.

    Attributes:
        value: 1, 2, 4, ... (no upper limit unless the rules set one).
        owner: 0 or 1 for the player who owns it, ``None`` while it is centred.
    """

    value: int = 1
    owner: int | None = None

    def __post_init__(self) -> None:
        if self.value < 1 or self.value & (self.value - 1):
            raise ValueError(f"a cube value is a power of two, got {self.value!r}")
        if self.owner not in (None, 0, 1):
            raise ValueError(f"the cube owner is 0, 1 or None (centred), got {self.owner!r}")

    @property
    def centred(self) -> bool:
        """True while nobody owns the cube."""
        return self.owner is None

    def available_to(self, player: int) -> bool:
        """Whether ``player`` holds the right to double (centred or owned)."""
        return self.owner is None or self.owner == player


@dataclass(frozen=True, slots=True)
class CubeRules:
    """Options for the cube, scoring and match play.

    Attributes:
        cube: whether the doubling cube is used at all.
        beavers: a doubled player may redouble at once and keep the cube (money only).
        raccoons: the doubler may redouble a beaver at once (needs beavers).
        automatic_doubles: how many ties on the opening throw turn the cube (money
            only; the cube stays centred); 0 turns the rule off.
        jacoby: gammons and backgammons count single while the cube is centred (money).
        max_cube: the highest cube value allowed, or ``None`` for no limit.
        crawford: no doubling in the game after a player first reaches match point
            minus one (matches).
        holland: after the Crawford game, the trailer may not double until each side
            has played two rolls (matches; obsolete but supported).
    """

    cube: bool = True
    beavers: bool = False
    raccoons: bool = False
    automatic_doubles: int = 0
    jacoby: bool = False
    max_cube: int | None = None
    crawford: bool = True
    holland: bool = False

    def __post_init__(self) -> None:
        if self.raccoons and not self.beavers:
            raise ValueError("raccoons need beavers")
        if self.automatic_doubles < 0:
            raise ValueError("automatic_doubles is a count >= 0")
        if self.max_cube is not None and (self.max_cube < 1 or self.max_cube & (self.max_cube - 1)):
            raise ValueError(f"max_cube is a power of two, got {self.max_cube!r}")


@dataclass(frozen=True, slots=True)
class MatchContext:
    """Where a game stands in its match (or that it is a money game).

    Attributes:
        length: the match length in points, 0 for money play.
        score: points of player 0 and player 1 before this game.
        crawford: this is the Crawford game (no doubling).
        post_crawford: the Crawford game has been played.
    """

    length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    post_crawford: bool = False

    @property
    def is_money(self) -> bool:
        """True for money play."""
        return self.length == 0

    def away(self, player: int) -> int:
        """Points ``player`` still needs to win the match (0 for money)."""
        return max(self.length - self.score[player], 0) if self.length else 0

    def cube_covers(self, player: int, value: int) -> bool:
        """Whether a single win at cube ``value`` already wins ``player`` the match,
        so that a double by them could gain them nothing (it could only give the
        opponent the cube at twice the stake): the cube is dead for them. Never in
        money play."""
        return bool(self.length) and value >= self.away(player)


@dataclass(frozen=True, slots=True)
class Double:
    """The player on roll offers to double, before rolling."""


@dataclass(frozen=True, slots=True)
class Take:
    """The doubled player accepts: the cube doubles and passes to them."""


@dataclass(frozen=True, slots=True)
class Drop:
    """The doubled player passes (drops): the doubler wins the cube's current value."""


@dataclass(frozen=True, slots=True)
class Beaver:
    """The doubled player takes and at once redoubles, keeping the cube (money only)."""


@dataclass(frozen=True, slots=True)
class Raccoon:
    """The doubler redoubles a beaver at once; the beaverer keeps the cube."""


@dataclass(frozen=True, slots=True)
class Resign:
    """A player offers to resign at ``level``: the player whose turn it is, or,
    before the opening roll (when nobody is on roll yet), ``player``, either one
    (eXtreme Gammon and online servers record such resignations).

    Attributes:
        level: what the resigning player gives up.
        player: who resigns (0 or 1): needed only before the opening roll;
            ``None`` means the player on roll.
    """

    level: ResignLevel = ResignLevel.SINGLE
    player: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "level", ResignLevel(self.level))
        if self.player not in (None, 0, 1):
            raise ValueError(f"a resigning player is 0 or 1, got {self.player!r}")


@dataclass(frozen=True, slots=True)
class AcceptResignation:
    """The opponent accepts the resignation: the game ends at the offered level."""


@dataclass(frozen=True, slots=True)
class RejectResignation:
    """The opponent rejects the resignation: play goes on."""


CubeAction = Double | Take | Drop | Beaver | Raccoon
ResignationAction = Resign | AcceptResignation | RejectResignation
