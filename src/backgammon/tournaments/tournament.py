"""What every tournament format offers, and a loop that plays one out.

A format is a mutable history, like :class:`~backgammon.rules.game.Game`: it offers the
next round's pairings (:meth:`Tournament.next_round`), takes that round back with its
winners (:meth:`Tournament.record`), and says the standings at any time. It is pure:
no clock, no I/O, and every draw comes from the seed it was made with.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Protocol, Self

from backgammon.tournaments.records import Entrant, Pairing, Round, Standing, check_entrants
from backgammon.tournaments.seeding import seeded

__all__ = ["RoundHistory", "Tournament", "check_results", "play_out"]


class Tournament(Protocol):
    """A tournament format: pairings round by round, results in, standings out."""

    @property
    def entrants(self) -> tuple[Entrant, ...]:
        """The field, in seeding order (best first)."""
        ...

    @property
    def rounds(self) -> tuple[Round, ...]:
        """Every round recorded so far, with its results."""
        ...

    def next_round(self) -> Round | None:
        """The next round's pairings (byes already won, other winners ``None``), or
        ``None`` once the tournament is over. Asking twice gives the same round."""
        ...

    def record(self, played: Round) -> None:
        """Record the round :meth:`next_round` gave, with every winner filled in.

        Raises:
            ValueError: if it is not that round or a winner is missing.
        """
        ...

    def standings(self) -> list[Standing]:
        """The standings now, best first."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The whole tournament as JSON-ready data (read back by the format's
        ``from_json``)."""
        ...


def check_results(expected: Round | None, played: Round) -> None:
    """Check that ``played`` is the round ``expected`` with every winner filled in.

    Raises:
        ValueError: naming the difference.
    """
    if expected is None:
        raise ValueError("the tournament is over: there is no round to record")
    if played.number != expected.number:
        raise ValueError(f"the next round is round {expected.number}, not {played.number}")
    wanted = [pairing.players for pairing in expected.pairings]
    given = [pairing.players for pairing in played.pairings]
    if given != wanted:
        raise ValueError(f"round {played.number}'s pairings are {wanted}, not {given}")
    for pairing in played.pairings:
        if pairing.winner is None:
            raise ValueError(f"the match {pairing.players} in round {played.number} has no winner")
        if pairing.is_bye and pairing.winner != pairing.players[0]:
            raise ValueError(f"a bye is won by its player: {pairing.players}")


class RoundHistory:
    """What the round-by-round formats share: the seeded field, the rounds recorded,
    recording a round, and the JSON record. A subclass says how to pair
    (:meth:`next_round`) and rank (:meth:`standings`)."""

    format_name: ClassVar[str] = ""

    def __init__(self, entrants: Iterable[Entrant], seed: int = 0) -> None:
        """Seed the field by rating (ties drawn from ``seed``).

        Raises:
            ValueError: for fewer than 2 players or a name entered twice.
        """
        field = tuple(entrants)
        check_entrants(field)
        self.seed = seed
        self._entrants = seeded(field, seed)
        self._rounds: list[Round] = []

    @property
    def entrants(self) -> tuple[Entrant, ...]:
        """The field in seeding order."""
        return self._entrants

    @property
    def rounds(self) -> tuple[Round, ...]:
        """The rounds recorded so far."""
        return tuple(self._rounds)

    def next_round(self) -> Round | None:
        """The next round's pairings, or ``None`` once the event is over."""
        raise NotImplementedError

    def standings(self) -> list[Standing]:
        """The standings now, best first."""
        raise NotImplementedError

    def record(self, played: Round) -> None:
        """Record the round :meth:`next_round` gave, with its winners.

        Raises:
            ValueError: if it is not that round or a winner is missing.
        """
        check_results(self.next_round(), played)
        self._rounds.append(played)

    def _json_settings(self) -> dict[str, Any]:
        """The format's own settings in its JSON record (none by default)."""
        return {}

    @classmethod
    def _from_settings(cls, entrants: list[Entrant], seed: int, data: dict[str, Any]) -> Self:
        """A new event of this format from its JSON record's settings."""
        return cls(entrants, seed)

    def to_json(self) -> dict[str, Any]:
        """``{"format", "seed", ...settings, "entrants", "rounds"}``."""
        return {
            "format": self.format_name,
            "seed": self.seed,
            **self._json_settings(),
            "entrants": [entrant.to_json() for entrant in self._entrants],
            "rounds": [played.to_json() for played in self._rounds],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """The event :meth:`to_json` wrote, every round checked again as it is recorded.

        Raises:
            ValueError: if the data is another format's or a round does not follow.
        """
        if data.get("format") != cls.format_name:
            raise ValueError(f"not a {cls.format_name} record: format {data.get('format')!r}")
        entrants = [Entrant.from_json(entry) for entry in data["entrants"]]
        event = cls._from_settings(entrants, int(data["seed"]), data)
        for played in data["rounds"]:
            event.record(Round.from_json(played))
        return event


def play_out(tournament: Tournament, winner_of: Callable[[Round, Pairing], str]) -> None:
    """Play every remaining round, asking ``winner_of(round, pairing)`` for the winner
    of each match (byes are won without asking)."""
    while (pending := tournament.next_round()) is not None:
        results = tuple(
            pairing if pairing.is_bye else pairing.won_by(winner_of(pending, pairing))
            for pairing in pending.pairings
        )
        tournament.record(Round(pending.number, results))
