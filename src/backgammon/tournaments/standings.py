"""Points and tie-breaks of the formats where everyone plays every round (Swiss,
round robin).

A win scores 1 point, a loss 0, and a bye counts as a win. The tie-breaks, each
computed from the players' final points:

- ``buchholz``: the sum of the points of every opponent met (a bye adds nothing);
- ``median_buchholz``: the same without the best and the worst opponent (with at
  least three opponents met);
- ``sonneborn_berger``: the sum of the points of the opponents beaten;
- ``head_to_head``: the points won against the players level on points.

Ties left after the tie-breaks go to the better seed (``seed``, 1 = top).
"""

from __future__ import annotations

from collections.abc import Sequence

from backgammon.tournaments.records import Entrant, Round, Standing

__all__ = ["SWISS_TIEBREAKS", "TIEBREAK_TITLES", "points_of", "ranked"]

SWISS_TIEBREAKS = ("buchholz", "median_buchholz", "sonneborn_berger", "head_to_head")

TIEBREAK_TITLES = {
    "buchholz": "Buchholz",
    "median_buchholz": "Median Buchholz",
    "sonneborn_berger": "Sonneborn-Berger",
    "head_to_head": "Head to head",
    "round_reached": "Round reached",
    "seed": "Seed",
}
"""Each tie-break's name as people write it (the standings' keys are identifiers)."""


def points_of(entrants: Sequence[Entrant], rounds: Sequence[Round]) -> dict[str, int]:
    """Each player's points: wins, a bye counting as a win."""
    points = {entrant.name: 0 for entrant in entrants}
    for played in rounds:
        for pairing in played.pairings:
            if pairing.winner is not None:
                points[pairing.winner] += 1
    return points


def _tiebreaks(
    entrants: Sequence[Entrant], rounds: Sequence[Round], points: dict[str, int]
) -> dict[str, dict[str, float]]:
    opponents: dict[str, list[str]] = {entrant.name: [] for entrant in entrants}
    beaten: dict[str, list[str]] = {entrant.name: [] for entrant in entrants}
    for played in rounds:
        for pairing in played.pairings:
            first, second = pairing.players
            if second is None:
                continue
            opponents[first].append(second)
            opponents[second].append(first)
            loser = pairing.loser
            if pairing.winner is not None and loser is not None:
                beaten[pairing.winner].append(loser)
    table: dict[str, dict[str, float]] = {}
    for entrant in entrants:
        name = entrant.name
        met = sorted(points[other] for other in opponents[name])
        median = met[1:-1] if len(met) >= 3 else met
        level_wins = sum(1 for other in beaten[name] if points[other] == points[name])
        table[name] = {
            "buchholz": sum(met),
            "median_buchholz": sum(median),
            "sonneborn_berger": sum(points[other] for other in beaten[name]),
            "head_to_head": level_wins,
        }
    return table


def ranked(
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    tiebreaks: Sequence[str] = SWISS_TIEBREAKS,
) -> list[Standing]:
    """The standings, best first: points, then ``tiebreaks`` in the order given
    (higher is better), then seed. ``entrants`` are in seeding order.

    Raises:
        ValueError: for a tie-break name not among :data:`SWISS_TIEBREAKS`.
    """
    unknown = [name for name in tiebreaks if name not in SWISS_TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-breaks {unknown}; choose from {list(SWISS_TIEBREAKS)}")
    points = points_of(entrants, rounds)
    table = _tiebreaks(entrants, rounds, points)
    seeds = {entrant.name: index for index, entrant in enumerate(entrants, 1)}

    def key(name: str) -> tuple[float, ...]:
        return (-points[name], *(-table[name][tb] for tb in tiebreaks), seeds[name])

    return [
        Standing(
            name, points[name], {**{tb: table[name][tb] for tb in tiebreaks}, "seed": seeds[name]}
        )
        for name in sorted(seeds, key=key)
    ]
