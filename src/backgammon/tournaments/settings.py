"""Settings per round as real events set them.

Tournament directors lengthen the matches as the field narrows (5 points in the early
rounds, 7 for the semi-finals, 9 for the final is a common schedule), always play with
the Crawford rule, never with Jacoby or beavers (money-play rules), and time the matches
by the ABT/US rule: a delay per move (the clock does not run for the first seconds of a
move) plus a reserve per match point.

>>> event = EventSettings()
>>> event.for_round(3, 3).match_length, event.for_round(2, 3).match_length
(9, 7)
>>> event.clock.reserve_seconds(7)
840
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from backgammon.rules.cube import CubeRules

__all__ = ["Clock", "EventSettings", "RoundSettings"]


@dataclass(frozen=True, slots=True)
class Clock:
    """The ABT/US clock rule: a delay per move plus a reserve per match point.

    Attributes:
        delay_seconds: seconds each move may take before the reserve starts to run.
        reserve_per_point_seconds: seconds of reserve per point of the match length.
    """

    delay_seconds: int = 12
    reserve_per_point_seconds: int = 120

    def __post_init__(self) -> None:
        if self.delay_seconds < 0 or self.reserve_per_point_seconds <= 0:
            raise ValueError(
                "a clock needs a delay >= 0 and a reserve per point > 0, got "
                f"{self.delay_seconds} and {self.reserve_per_point_seconds}"
            )

    def reserve_seconds(self, match_length: int, score: int = 0) -> int:
        """A player's reserve for a match of ``match_length`` points, less a share per
        point the player has already scored (for a match started or resumed at a
        score): ``reserve_per_point * (length - score)``.

        Raises:
            ValueError: for a length < 1 or a score outside ``0..length - 1``.
        """
        if match_length < 1 or not 0 <= score < match_length:
            raise ValueError(f"no reserve for a score of {score} in a {match_length}-point match")
        return self.reserve_per_point_seconds * (match_length - score)

    def to_json(self) -> dict[str, Any]:
        """``{"delay_seconds", "reserve_per_point_seconds"}``."""
        return {
            "delay_seconds": self.delay_seconds,
            "reserve_per_point_seconds": self.reserve_per_point_seconds,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Clock:
        """The clock :meth:`to_json` wrote."""
        return cls(int(data["delay_seconds"]), int(data["reserve_per_point_seconds"]))


@dataclass(frozen=True, slots=True)
class RoundSettings:
    """How one round's matches are played: length, clock, and the cube rules that
    tournaments fix (Crawford on, Jacoby and beavers off)."""

    match_length: int
    clock: Clock = field(default_factory=Clock)

    @property
    def cube_rules(self) -> CubeRules:
        """The cube rules of every tournament match: Crawford on, Jacoby and beavers off."""
        return CubeRules(crawford=True, jacoby=False, beavers=False)

    def to_json(self) -> dict[str, Any]:
        """``{"match_length", "crawford", "jacoby", "beavers", "clock": {...}}``."""
        return {
            "match_length": self.match_length,
            "crawford": True,
            "jacoby": False,
            "beavers": False,
            "clock": self.clock.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoundSettings:
        """The settings :meth:`to_json` wrote."""
        return cls(int(data["match_length"]), Clock.from_json(data["clock"]))


@dataclass(frozen=True, slots=True)
class EventSettings:
    """An event's schedule of match lengths and its clock.

    Attributes:
        early_length: the match length of every round before the semi-finals (and of
            every round of a Swiss, round robin or arena).
        semi_final_length: the length of an elimination event's semi-finals.
        final_length: the length of an elimination event's final.
        clock: the clock of every match.
    """

    early_length: int = 5
    semi_final_length: int = 7
    final_length: int = 9
    clock: Clock = field(default_factory=Clock)

    def __post_init__(self) -> None:
        lengths = (self.early_length, self.semi_final_length, self.final_length)
        if min(lengths) < 1:
            raise ValueError(f"match lengths are >= 1 point, got {lengths}")

    def for_round(self, number: int, total: int, *, elimination: bool = True) -> RoundSettings:
        """The settings of round ``number`` (1-based) of ``total``; only an elimination
        event (knock-out) lengthens its semi-finals and final.

        Raises:
            ValueError: for a round outside ``1..total``.
        """
        if not 1 <= number <= total:
            raise ValueError(f"round {number} is not one of rounds 1 to {total}")
        length = self.early_length
        if elimination and number == total:
            length = self.final_length
        elif elimination and number == total - 1:
            length = self.semi_final_length
        return RoundSettings(length, self.clock)

    def to_json(self) -> dict[str, Any]:
        """The schedule and the clock as JSON-ready data."""
        return {
            "early_length": self.early_length,
            "semi_final_length": self.semi_final_length,
            "final_length": self.final_length,
            "clock": self.clock.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EventSettings:
        """The settings :meth:`to_json` wrote."""
        return cls(
            int(data["early_length"]),
            int(data["semi_final_length"]),
            int(data["final_length"]),
            Clock.from_json(data["clock"]),
        )
