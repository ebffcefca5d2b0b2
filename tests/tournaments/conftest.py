"""Shared helpers of the tournament tests."""

from __future__ import annotations

import random
from collections.abc import Callable

from backgammon.tournaments import Entrant, Pairing, Round


def field(count: int) -> list[Entrant]:
    """``count`` players ``p01, p02, ...`` rated in that order (p01 the top seed)."""
    return [Entrant(f"p{index:02d}", 2000.0 - index) for index in range(1, count + 1)]


def random_winners(seed: int) -> Callable[[Round, Pairing], str]:
    """Winners at even odds, reproducibly from ``seed``."""
    draw = random.Random(seed)
    return lambda _round, pairing: str(pairing.players[draw.randrange(2)])


def higher_seed_wins(seeds: dict[str, int]) -> Callable[[Round, Pairing], str]:
    """The better seed (lower number in ``seeds``) wins every match."""
    return lambda _round, pairing: min((p for p in pairing.players if p), key=seeds.__getitem__)
