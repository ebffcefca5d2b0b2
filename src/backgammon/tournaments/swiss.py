"""Swiss pairing: every player plays every round against a player on the same score.

Each round the players are ranked by points, then by seed. An odd field first gives a
bye (a won round) to the lowest-ranked player who has not had one. Then the top-ranked
player still unpaired takes an opponent in order of preference: the same score group
first, top half against bottom half (in a group of 8, 1 meets 5, 2 meets 6, ...), then
the next groups down. A choice is kept only if the players left can still be paired
with as few rematches as the whole round can have; that check is exact (a maximum
matching, :mod:`backgammon.tournaments.matching`), so no rematch is made while one is
avoidable. Where a rematch is unavoidable, the fewest possible are made.

In backgammon neither seat is favoured (the opening roll decides who starts), so the
pairing does not balance colours as chess Swiss systems do.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from backgammon.tournaments.matching import maximum_matching
from backgammon.tournaments.records import Entrant, Pairing, Round, Standing
from backgammon.tournaments.standings import SWISS_TIEBREAKS, points_of, ranked
from backgammon.tournaments.tournament import RoundHistory

__all__ = ["Swiss", "default_swiss_rounds", "max_swiss_rounds", "pair_swiss_round"]


def max_swiss_rounds(players: int) -> int:
    """The most rounds a field can play without a forced rematch in every pairing: one
    opponent each for an even field (``players - 1``), and ``players`` for an odd one
    (each round one player has the bye)."""
    return players - 1 if players % 2 == 0 else players


def default_swiss_rounds(players: int) -> int:
    """Enough rounds to single out one unbeaten winner: ``ceil(log2(players))``."""
    return max(1, (players - 1).bit_length())


class Swiss(RoundHistory):
    """A Swiss event of a fixed number of rounds.

    Standings: points, then Buchholz, median-Buchholz, Sonneborn-Berger and head to
    head (see :mod:`backgammon.tournaments.standings`), then seed.
    """

    format_name = "swiss"

    def __init__(
        self, entrants: Iterable[Entrant], rounds: int | None = None, seed: int = 0
    ) -> None:
        """Seed the field by rating (ties drawn from ``seed``).

        Args:
            entrants: the field.
            rounds: how many rounds (default ``ceil(log2(players))``).
            seed: draws the order of players of equal rating.

        Raises:
            ValueError: for fewer than 2 players, a name twice, or a number of rounds
                outside ``1..max_swiss_rounds(players)``.
        """
        field = tuple(entrants)
        super().__init__(field, seed)
        total = default_swiss_rounds(len(field)) if rounds is None else rounds
        most = max_swiss_rounds(len(field))
        if not 1 <= total <= most:
            raise ValueError(f"a Swiss of {len(field)} players has 1 to {most} rounds, not {total}")
        self.total_rounds = total

    def next_round(self) -> Round | None:
        """The next round's pairings, or ``None`` after the last round."""
        if len(self._rounds) >= self.total_rounds:
            return None
        pairings = pair_swiss_round(self._entrants, self._rounds)
        return Round(len(self._rounds) + 1, tuple(pairings))

    def _json_settings(self) -> dict[str, Any]:
        return {"total_rounds": self.total_rounds}

    @classmethod
    def _from_settings(cls, entrants: list[Entrant], seed: int, data: dict[str, Any]) -> Swiss:
        return cls(entrants, int(data["total_rounds"]), seed)

    def standings(self) -> list[Standing]:
        """Points, Buchholz, median-Buchholz, Sonneborn-Berger, head to head, seed."""
        return ranked(self._entrants, self._rounds, SWISS_TIEBREAKS)


def pair_swiss_round(entrants: Sequence[Entrant], rounds: Sequence[Round]) -> list[Pairing]:
    """The pairings of the round after ``rounds`` (``entrants`` in seeding order): the
    bye first (odd fields), then the matches, best-ranked first."""
    points = points_of(entrants, rounds)
    seeds = {entrant.name: index for index, entrant in enumerate(entrants)}
    order = sorted(seeds, key=lambda name: (-points[name], seeds[name]))
    met = {
        frozenset((p.players[0], p.players[1]))
        for played in rounds
        for p in played.pairings
        if p.players[1] is not None
    }
    pairings: list[Pairing] = []
    if len(order) % 2:
        had_bye = {p.players[0] for played in rounds for p in played.pairings if p.is_bye}
        lucky = _bye_player(order, met, had_bye)
        order.remove(lucky)
        pairings.append(Pairing.bye(lucky))
    pairings.extend(_pair_players(order, points, met))
    return pairings


def _allowed_graph(players: Sequence[str], met: set[frozenset[str]]) -> list[list[int]]:
    """Who may still meet whom (indices into ``players``): everyone not yet met."""
    count = len(players)
    return [
        [j for j in range(count) if j != i and frozenset((players[i], players[j])) not in met]
        for i in range(count)
    ]


def _matched(mate: Sequence[int]) -> int:
    return sum(1 for partner in mate if partner != -1) // 2


def _bye_player(order: list[str], met: set[frozenset[str]], had_bye: set[str]) -> str:
    """The lowest-ranked player without a bye whose absence leaves the others best
    pairable (everyone, if every player has had a bye)."""
    candidates = [name for name in reversed(order) if name not in had_bye] or order[::-1]
    best, best_size = candidates[0], -1
    for name in candidates:
        rest = [other for other in order if other != name]
        size = _matched(maximum_matching(_allowed_graph(rest, met)))
        if size == len(rest) // 2:
            return name
        if size > best_size:
            best, best_size = name, size
    return best


def _pair_players(
    order: list[str], points: dict[str, int], met: set[frozenset[str]]
) -> list[Pairing]:
    """Pair an even list of players (in ranking order) by preference, each choice kept
    only if the rest can still be paired with the fewest rematches."""
    graph = _allowed_graph(order, met)
    adjacent = [set(neighbours) for neighbours in graph]
    alive = [True] * len(order)
    mate = maximum_matching(graph)
    pairings = []
    while any(alive):
        first = alive.index(True)
        alive[first] = False
        choices = _preferences(first, order, alive, points)
        allowed = [c for c in choices if c in adjacent[first]]
        rematches = [c for c in choices if c not in adjacent[first]]
        chosen, mate = _first_feasible(first, allowed, rematches, graph, adjacent, alive, mate)
        alive[chosen] = False
        pairings.append(Pairing((order[first], order[chosen])))
    return pairings


def _preferences(
    first: int, order: list[str], alive: list[bool], points: dict[str, int]
) -> list[int]:
    """The unpaired players in the order ``first`` would rather meet them: its score
    group's bottom half from the top, then the group's others, then lower groups."""
    own = points[order[first]]
    group = [i for i, live in enumerate(alive) if live and points[order[i]] == own]
    position = {index: place for place, index in enumerate(group)}
    ideal = max(0, (len(group) + 1) // 2 - 1)

    def key(index: int) -> tuple[int, int, int]:
        if index in position:
            place = position[index]
            distance = place - ideal if place >= ideal else len(group) + ideal - place
            return (0, distance, index)
        return (1, own - points[order[index]], index)

    return sorted((i for i, live in enumerate(alive) if live), key=key)


def _first_feasible(
    first: int,
    allowed: list[int],
    rematches: list[int],
    graph: list[list[int]],
    adjacent: list[set[int]],
    alive: list[bool],
    mate: list[int],
) -> tuple[int, list[int]]:
    """The first choice that keeps the most non-rematch pairs possible for the rest,
    trying new opponents before rematches; with the rest's new maximum matching."""
    best = _matched(mate)
    for partner, target in [(p, best - 1) for p in allowed] + [(p, best) for p in rematches]:
        start = _without(mate, first, partner, adjacent)
        alive[partner] = False
        trial = start if _matched(start) == target else maximum_matching(graph, start, alive)
        alive[partner] = True
        if _matched(trial) == target:
            return partner, trial
    raise AssertionError("an even set of players always has a pairing")  # pragma: no cover


def _without(mate: list[int], first: int, partner: int, adjacent: list[set[int]]) -> list[int]:
    """``mate`` with ``first`` and ``partner`` taken out; their former partners, if
    they may meet, are paired together (a quick repair that often keeps it maximum)."""
    start = list(mate)
    freed = []
    for vertex in (first, partner):
        other = start[vertex]
        if other != -1:
            start[other] = -1
            start[vertex] = -1
            if other not in (first, partner):
                freed.append(other)
    if len(freed) == 2 and freed[1] in adjacent[freed[0]]:
        start[freed[0]], start[freed[1]] = freed[1], freed[0]
    return start
