"""Seeding: the order of a field by rating, ties drawn reproducibly from a seed."""

from __future__ import annotations

import random
from collections.abc import Iterable

from backgammon.tournaments.records import Entrant

__all__ = ["seeded"]


def seeded(entrants: Iterable[Entrant], seed: int) -> tuple[Entrant, ...]:
    """The entrants from the highest rating to the lowest; players of equal rating
    are put in an order drawn from ``seed`` (the same seed, the same order, whatever
    the order they come in: a record written in seeded order reads back the same)."""
    shuffled = sorted(entrants, key=lambda entrant: entrant.name)
    random.Random(seed).shuffle(shuffled)
    return tuple(sorted(shuffled, key=lambda entrant: -entrant.rating))
