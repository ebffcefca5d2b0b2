"""Knock-out (single elimination) with seeding by rating, byes, and the side events
that live tournaments run for early losers.

The field is seeded by rating and placed in a bracket of the next power of two by the
standard seeding order (seed 1 meets seed 16 in a 16-bracket, and seeds 1 and 2 can
only meet in the final). The empty places are byes, and they fall to the top seeds.
The winners of neighbouring matches meet in the next round.

Side events: the **consolation** is a knock-out of the main event's first-round losers
(players who had a bye did not lose, so they are not in it); the **last chance** is a
knock-out of the consolation's first-round losers.

>>> from backgammon.tournaments.records import Entrant
>>> event = Knockout([Entrant(f"p{i}", 2000 - i) for i in range(1, 6)])
>>> [pairing.players for pairing in event.next_round().pairings]
[('p1', None), ('p4', 'p5'), ('p2', None), ('p3', None)]
"""

from __future__ import annotations

from backgammon.tournaments.records import Entrant, Pairing, Round, Standing
from backgammon.tournaments.tournament import RoundHistory

__all__ = ["Knockout", "bracket_order", "consolation", "last_chance"]


def bracket_order(size: int) -> list[int]:
    """The seeds (1-based) in bracket order for a bracket of ``size`` places (a power
    of two): neighbours ``2k`` and ``2k + 1`` meet in round 1, and the two best seeds
    of each half can meet only in that half's last match.

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]

    Raises:
        ValueError: if ``size`` is not a power of two.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket has a power-of-two size, got {size}")
    order = [1]
    while len(order) < size:
        places = 2 * len(order)
        order = [seed for top in order for seed in (top, places + 1 - top)]
    return order


class Knockout(RoundHistory):
    """A single-elimination event: the history of its rounds, its pairings and its
    standings.

    The standings put the champion first, then each player by the round they reached
    (later is better), ties by seed. ``points`` counts matches won, a bye counting as a
    win; the tie-breaks are ``round_reached`` and ``seed`` (1 = top seed).
    """

    format_name = "knockout"

    @property
    def total_rounds(self) -> int:
        """How many rounds the event has: ``ceil(log2(players))``."""
        return (len(self._entrants) - 1).bit_length()

    @property
    def champion(self) -> str | None:
        """The winner, once the final is recorded."""
        if len(self._rounds) < self.total_rounds:
            return None
        return self._rounds[-1].pairings[0].winner

    def _first_round(self) -> Round:
        size = 1 << self.total_rounds
        names = [entrant.name for entrant in self._entrants]
        slots = [names[seed - 1] if seed <= len(names) else None for seed in bracket_order(size)]
        pairings = []
        for top, bottom in zip(slots[::2], slots[1::2], strict=True):
            if top is None or bottom is None:
                pairings.append(Pairing.bye(top if top is not None else str(bottom)))
            else:
                pairings.append(Pairing((top, bottom)))
        return Round(1, tuple(pairings))

    def next_round(self) -> Round | None:
        """The next round's pairings, or ``None`` once the final is recorded."""
        if not self._rounds:
            return self._first_round()
        winners = [str(pairing.winner) for pairing in self._rounds[-1].pairings]
        if len(winners) == 1:
            return None
        pairings = tuple(Pairing((a, b)) for a, b in zip(winners[::2], winners[1::2], strict=True))
        return Round(len(self._rounds) + 1, pairings)

    def first_round_losers(self) -> tuple[Entrant, ...]:
        """The players who lost a match in round 1, in seeding order."""
        if not self._rounds:
            return ()
        losers = {pairing.loser for pairing in self._rounds[0].pairings}
        return tuple(entrant for entrant in self._entrants if entrant.name in losers)

    def standings(self) -> list[Standing]:
        """Champion first, then by the round reached (later first), ties by seed."""
        reached = {entrant.name: 1 for entrant in self._entrants}
        wins = dict.fromkeys(reached, 0)
        for played in self._rounds:
            for pairing in played.pairings:
                for name in pairing.players:
                    if name is not None:
                        reached[name] = played.number
                if pairing.winner is not None:
                    wins[pairing.winner] += 1
        seeds = {entrant.name: index for index, entrant in enumerate(self._entrants, 1)}
        order = sorted(seeds, key=lambda name: (-wins[name], -reached[name], seeds[name]))
        return [
            Standing(name, wins[name], {"round_reached": reached[name], "seed": seeds[name]})
            for name in order
        ]


def consolation(main: Knockout, seed: int = 0) -> Knockout:
    """The consolation event: a knock-out of the main event's first-round losers.

    Raises:
        ValueError: if round 1 is not recorded yet or had fewer than 2 losers.
    """
    losers = main.first_round_losers()
    if len(losers) < 2:
        raise ValueError(
            f"a consolation needs 2 first-round losers, the main event has {len(losers)}"
        )
    return Knockout(losers, seed)


def last_chance(consolation_event: Knockout, seed: int = 0) -> Knockout:
    """The last chance event: a knock-out of the consolation's first-round losers.

    Raises:
        ValueError: if the consolation's round 1 is not recorded or had fewer than 2
            losers.
    """
    losers = consolation_event.first_round_losers()
    if len(losers) < 2:
        raise ValueError(
            f"a last chance needs 2 first-round losers of the consolation, it has {len(losers)}"
        )
    return Knockout(losers, seed)
