"""What every tournament format offers, and a loop that plays one out.

A format is a mutable history, like :class:`~backgammon.rules.game.Game`: it offers the
next round's pairings (:meth:`Tournament.next_round`), takes that round back with its
winners (:meth:`Tournament.record`), and says the standings at any time. It is pure:
no clock, no I/O, and every draw comes from the seed it was made with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from backgammon.tournaments.records import Entrant, Pairing, Round, Standing

__all__ = ["Tournament", "check_results", "play_out"]


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


def play_out(tournament: Tournament, winner_of: Callable[[Round, Pairing], str]) -> None:
    """Play every remaining round, asking ``winner_of(round, pairing)`` for the winner
    of each match (byes are won without asking)."""
    while (pending := tournament.next_round()) is not None:
        results = tuple(
            pairing if pairing.is_bye else pairing.won_by(winner_of(pending, pairing))
            for pairing in pending.pairings
        )
        tournament.record(Round(pending.number, results))
