"""The plain data every tournament format shares: entrants, pairings, rounds, standings.

Each value is a frozen dataclass with an exact JSON pair (``to_json`` / ``from_json``):
``from_json(x.to_json()) == x``, and ``to_json`` gives only lists, dicts, strings,
numbers and ``None``.

>>> Pairing(("alice", None), "alice").to_json()
{'players': ['alice', None], 'winner': 'alice'}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Entrant", "Pairing", "Round", "Standing", "check_entrants"]


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in a tournament: a unique name and the rating that seeds them."""

    name: str
    rating: float = 1500.0

    def to_json(self) -> dict[str, Any]:
        """``{"name", "rating"}``."""
        return {"name": self.name, "rating": self.rating}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entrant:
        """The entrant :meth:`to_json` wrote."""
        return cls(str(data["name"]), float(data["rating"]))


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two players paired for one match, or one player and ``None`` for a bye.

    Attributes:
        players: the two names; the second is ``None`` for a bye.
        winner: the winner's name once the match is over (a bye's player at once),
            ``None`` while it is unplayed.
    """

    players: tuple[str, str | None]
    winner: str | None = None

    def __post_init__(self) -> None:
        first, second = self.players
        if first == second:
            raise ValueError(f"a player cannot be paired with themself: {first!r}")
        if self.winner is not None and self.winner not in self.players:
            raise ValueError(f"the winner {self.winner!r} is not one of {self.players!r}")

    @classmethod
    def bye(cls, name: str) -> Pairing:
        """A bye for ``name``: a won round without a match."""
        return cls((name, None), name)

    @property
    def is_bye(self) -> bool:
        """True for a bye."""
        return self.players[1] is None

    @property
    def loser(self) -> str | None:
        """The loser's name once played (``None`` for a bye or an unplayed match)."""
        if self.winner is None or self.is_bye:
            return None
        first, second = self.players
        return second if self.winner == first else first

    def opponent_of(self, name: str) -> str | None:
        """The other player of the pairing (``None`` for a bye)."""
        first, second = self.players
        return second if name == first else first

    def won_by(self, winner: str) -> Pairing:
        """This pairing with its result.

        Raises:
            ValueError: if ``winner`` is not one of its players.
        """
        return Pairing(self.players, winner)

    def to_json(self) -> dict[str, Any]:
        """``{"players": [A, B], "winner": W}`` (``B`` ``None`` for a bye)."""
        return {"players": list(self.players), "winner": self.winner}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pairing:
        """The pairing :meth:`to_json` wrote."""
        first, second = data["players"]
        return cls((first, second), data["winner"])


@dataclass(frozen=True, slots=True)
class Round:
    """One round of a tournament: its 1-based number and its pairings."""

    number: int
    pairings: tuple[Pairing, ...] = field(default=())

    @property
    def is_complete(self) -> bool:
        """True once every pairing has a winner."""
        return all(pairing.winner is not None for pairing in self.pairings)

    @property
    def players(self) -> tuple[str, ...]:
        """Every player in the round (byes included), in pairing order."""
        return tuple(
            name for pairing in self.pairings for name in pairing.players if name is not None
        )

    def to_json(self) -> dict[str, Any]:
        """``{"number", "pairings": [...]}``."""
        return {"number": self.number, "pairings": [p.to_json() for p in self.pairings]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Round:
        """The round :meth:`to_json` wrote."""
        return cls(int(data["number"]), tuple(Pairing.from_json(p) for p in data["pairings"]))


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's place in the standings: points and the tie-breaks that order ties."""

    name: str
    points: float
    tiebreaks: dict[str, float] = field(default_factory=dict, hash=False)

    def to_json(self) -> dict[str, Any]:
        """``{"name", "points", "tiebreaks": {...}}``."""
        return {"name": self.name, "points": self.points, "tiebreaks": dict(self.tiebreaks)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Standing:
        """The standing :meth:`to_json` wrote."""
        return cls(str(data["name"]), data["points"], dict(data["tiebreaks"]))


def check_entrants(entrants: tuple[Entrant, ...], minimum: int = 2) -> None:
    """Refuse a field that is too small or has a name twice.

    Raises:
        ValueError: naming the problem.
    """
    if len(entrants) < minimum:
        raise ValueError(f"a tournament needs at least {minimum} players, got {len(entrants)}")
    seen: set[str] = set()
    for entrant in entrants:
        if not entrant.name:
            raise ValueError("a player's name is empty")
        if entrant.name in seen:
            raise ValueError(f"the player {entrant.name!r} is entered twice")
        seen.add(entrant.name)
