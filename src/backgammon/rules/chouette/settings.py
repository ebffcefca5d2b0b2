"""The options a chouette is played under."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

__all__ = ["ChouetteRules"]


@dataclass(frozen=True, slots=True)
class ChouetteRules:
    """How a chouette is played.

    Attributes:
        team_cube: the older form with one cube for the whole team: only the captain
            doubles the box, for every member still in, and the box takes or drops
            them all at once; when the box doubles, each member still takes or drops
            their own stake. Off (the default): each member has a cube of their own.
        consulting: whether team members may consult the captain on checker plays. The
            captain's play is final either way; the flag is recorded for the table
            (and the session record) and changes no rule of the library.
        jacoby: a gammon or backgammon counts single on a cube that was never turned.
        stake: money per point (any non-negative amount, e.g. ``Decimal("0.50")``).
        max_cube: the highest value a cube may reach (a power of two, at least 2), or
            ``None`` for no limit: a double that would pass it is refused.

    Raises:
        ValueError: for a negative or non-finite stake, or a limit that is not a
            power of two of at least 2.
    """

    team_cube: bool = False
    consulting: bool = True
    jacoby: bool = False
    stake: Decimal = Decimal(1)
    max_cube: int | None = None

    def __post_init__(self) -> None:
        stake = self.stake
        if isinstance(stake, bool) or not isinstance(stake, int | Decimal):
            raise ValueError(f"the stake is a Decimal amount per point, got {stake!r}")
        stake = Decimal(stake)
        if not stake.is_finite() or stake < 0:
            raise ValueError(f"the stake per point is a finite amount >= 0, got {stake}")
        object.__setattr__(self, "stake", stake)
        limit = self.max_cube
        if limit is not None and (
            isinstance(limit, bool)
            or not isinstance(limit, int)
            or limit < 2
            or limit & (limit - 1)
        ):
            raise ValueError(f"the cube limit is a power of two of at least 2, got {limit!r}")
