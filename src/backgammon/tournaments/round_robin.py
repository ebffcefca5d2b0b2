"""Round robin by Berger tables: every player meets every other player once.

The tables are the circle method: the last player stays put while the others turn one
place round the circle each round; an odd field adds a bye in the last place, so each
player sits out (a bye, counted as a win) exactly once. Seed ``i`` takes place ``i``.

>>> from backgammon.tournaments.records import Entrant
>>> [[p.players for p in r] for r in berger_tables([f"p{i}" for i in range(1, 5)])]
[[('p1', 'p4'), ('p2', 'p3')], [('p4', 'p3'), ('p1', 'p2')], [('p2', 'p4'), ('p3', 'p1')]]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from backgammon.tournaments.records import Entrant, Pairing, Round, Standing
from backgammon.tournaments.standings import ranked
from backgammon.tournaments.tournament import RoundHistory

__all__ = ["RoundRobin", "berger_tables"]

ROUND_ROBIN_TIEBREAKS = ("head_to_head", "sonneborn_berger")


def berger_tables(names: Sequence[str]) -> list[list[Pairing]]:
    """Every round of a round robin of ``names`` (byes for an odd field, won by their
    player), by Berger's tables."""
    places: list[str | None] = list(names)
    if len(places) % 2:
        places.append(None)
    count = len(places)
    fixed = places[-1]
    circle = places[:-1]
    schedule = []
    for number in range(count - 1):
        rotated = (
            circle[(number * (count // 2)) % (count - 1) :]
            + circle[: (number * (count // 2)) % (count - 1)]
        )
        first = (fixed, rotated[0]) if number % 2 else (rotated[0], fixed)
        pairs = [first] + [(rotated[i], rotated[count - 1 - i]) for i in range(1, count // 2)]
        schedule.append([_pairing(a, b) for a, b in pairs])
    return schedule


def _pairing(first: str | None, second: str | None) -> Pairing:
    if first is None:
        return Pairing.bye(str(second))
    if second is None:
        return Pairing.bye(first)
    return Pairing((first, second))


class RoundRobin(RoundHistory):
    """An all-play-all event; standings by points, head to head, Sonneborn-Berger, seed."""

    format_name = "round-robin"

    def __init__(
        self, entrants: Iterable[Entrant], rounds: int | None = None, seed: int = 0
    ) -> None:
        """Seed the field by rating (ties drawn from ``seed``).

        Args:
            entrants: the field.
            rounds: play only the first ``rounds`` rounds of the tables (default all:
                ``players - 1``, or ``players`` for an odd field).
            seed: draws the order of players of equal rating.

        Raises:
            ValueError: for fewer than 2 players, a name twice, or too many rounds.
        """
        field = tuple(entrants)
        super().__init__(field, seed)
        self._schedule = berger_tables([entrant.name for entrant in self._entrants])
        total = len(self._schedule) if rounds is None else rounds
        if not 1 <= total <= len(self._schedule):
            raise ValueError(
                f"a round robin of {len(field)} players has 1 to {len(self._schedule)} "
                f"rounds, not {total}"
            )
        self.total_rounds = total

    def next_round(self) -> Round | None:
        """The next round of the tables, or ``None`` after the last."""
        number = len(self._rounds)
        if number >= self.total_rounds:
            return None
        return Round(number + 1, tuple(self._schedule[number]))

    def _json_settings(self) -> dict[str, Any]:
        return {"total_rounds": self.total_rounds}

    @classmethod
    def _from_settings(cls, entrants: list[Entrant], seed: int, data: dict[str, Any]) -> RoundRobin:
        return cls(entrants, int(data["total_rounds"]), seed)

    def standings(self) -> list[Standing]:
        """Points, then head to head, Sonneborn-Berger, seed."""
        return ranked(self._entrants, self._rounds, ROUND_ROBIN_TIEBREAKS)
