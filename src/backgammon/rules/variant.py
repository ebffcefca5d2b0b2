"""Variants: the rule constants that differ between forms of backgammon.

A :class:`Variant` says how many checkers each side has and where they start. Every
rule constant comes from here, never from a literal in the code that uses it. More
variants and rule options (Egyptian, Caucasian, acey-deucey, ...) plug in here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = ["HYPERGAMMON", "NACKGAMMON", "STANDARD", "Variant", "get_variant", "variant_names"]


@dataclass(frozen=True, slots=True)
class Variant:
    """The rule constants of one form of the game.

    Attributes:
        name: the registry name, e.g. ``"standard"``.
        start: the starting layout of each side, as ``(point, checkers)`` pairs in that
            side's own numbering (24 = the opponent's 1-point).
        gammons: whether gammons and backgammons score extra.
    """

    name: str
    start: tuple[tuple[int, int], ...]
    gammons: bool = True

    @property
    def checkers(self) -> int:
        """The number of checkers each side plays with."""
        return sum(count for _, count in self.start)

    def start_counts(self) -> tuple[int, ...]:
        """One side's 26 slots at the start: index 0 off, 1..24 points, 25 bar."""
        slots = [0] * 26
        for point, count in self.start:
            slots[point] += count
        return tuple(slots)


STANDARD = Variant("standard", ((24, 2), (13, 5), (8, 3), (6, 5)))
NACKGAMMON = Variant("nackgammon", ((24, 2), (23, 2), (13, 4), (8, 3), (6, 4)))
HYPERGAMMON = Variant("hypergammon", ((24, 1), (23, 1), (22, 1)))

_REGISTRY: Mapping[str, Variant] = MappingProxyType(
    {variant.name: variant for variant in (STANDARD, NACKGAMMON, HYPERGAMMON)}
)


def variant_names() -> tuple[str, ...]:
    """The names of every registered variant."""
    return tuple(_REGISTRY)


def get_variant(name: str) -> Variant:
    """Return the variant registered under ``name``.

    Raises:
        KeyError: if no variant has that name (the message lists the known ones).
    """
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown variant {name!r}; known: {', '.join(_REGISTRY)}") from None
