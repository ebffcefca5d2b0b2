"""Variants: the rule constants that differ between forms of backgammon.

A :class:`Variant` says how many checkers each side has, where they start, how wins
score, and which optional movement rules apply. Every rule constant comes from here,
never from a literal in the code that uses it. The named variants live in
:mod:`backgammon.variants` (one module each); :meth:`Variant.with_options` builds custom
ones ("house rules").
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from backgammon.rules.movegen import movement_options

__all__ = ["STANDARD", "Variant"]


@dataclass(frozen=True, slots=True)
class Variant:
    """The rules of one form of the game.

    Attributes:
        name: the registry name, e.g. ``"standard"``.
        start: the starting layout of each side, as ``(point, checkers)`` pairs in that
            side's own numbering (24 = the opponent's 1-point, 25 = the bar: checkers
            still to enter).
        gammons: whether gammons score double (and backgammons, if allowed, triple).
        backgammons: whether backgammons score triple (else they count as gammons).
        cube: whether the doubling cube may be used.
        max_per_point: the most checkers one point may hold (the Egyptian rule: 5), or
            ``None`` for no limit.
        caucasian: the Caucasian home-board rule: a checker that hits in its own home
            board may not go on that turn to a point of its own nor bear off (it may
            continue to empty points); allowed only when no other play exists.
        first_hit: the first player to hit wins the game (a single game).
        atomic: before rolling, the player holding the bomb (at first either player)
            may explode it: every blot of both sides goes to the bar and the bomb
            passes to the opponent.
        opening_reroll: the winner of the opening throw rolls again for its first turn
            instead of playing the opening dice (Tavla).
        enter_anytime: checkers on the bar need not enter before other checkers move
            (acey-deucey, whose checkers all start off the board, waiting on the bar).
        acey_deucey: after playing a 1-2, the player chooses any double, plays it, and
            rolls again.
        doubles_roll_again: after playing a double (as rolled), the player rolls again
            (American acey-deucey).
        same_direction: both sides move the same way round the board, entering in the
            same table and bearing off from the same table (Russian backgammon): the
            opponent's point ``q`` is then our point ``q`` instead of ``25 - q``.
        complement_doubles: after playing all four numbers of a double, the player
            plays the complementary double (the number from 7) and rolls again, once
            all its checkers have entered (Russian backgammon).
        complement_roll_again: after the complement is played out the player rolls
            again (Russian backgammon; not in European acey-deucey).
        exact_bearoff: a checker bears off only with the exact number (European
            acey-deucey).
        crosswise: both sides move the same way round the board from starting points
            diagonally across from each other (long nardy): the opponent's point
            ``(q + 11) % 24 + 1`` is our point ``q``.
        blocking: nothing is ever hit; a single opposing checker closes a point
            (long nardy).
        head_rule: at most one checker may leave the 24-point (the head) per turn;
            two on a side's first turn with 6-6, 4-4 or 3-3 (long nardy).
        prime_rule: a play may not leave six consecutive points held in front of the
            opponent unless an opposing checker is already past them (long nardy).
        dice: how many dice one throw has: 2, or 3 for tabula (each die played
            once, equal dice not doubled; :mod:`backgammon.rules.three_dice_movegen`).
        description: one line for people.
        aliases: other names the registry accepts.
    """

    name: str
    start: tuple[tuple[int, int], ...]
    gammons: bool = True
    backgammons: bool = True
    cube: bool = True
    max_per_point: int | None = None
    caucasian: bool = False
    first_hit: bool = False
    atomic: bool = False
    opening_reroll: bool = False
    enter_anytime: bool = False
    acey_deucey: bool = False
    doubles_roll_again: bool = False
    same_direction: bool = False
    complement_doubles: bool = False
    complement_roll_again: bool = True
    exact_bearoff: bool = False
    crosswise: bool = False
    blocking: bool = False
    head_rule: bool = False
    prime_rule: bool = False
    pinning: bool = False
    mother_rule: bool = False
    prison: bool = False
    dice: int = 2
    description: str = ""
    aliases: tuple[str, ...] = ()
    movement: int = field(init=False, repr=False, compare=False)
    """The hitting kernel's options packed in one int (see
    :func:`~backgammon.rules.movegen.movement_options`); computed, not given."""
    plain_movement: bool = field(init=False, repr=False, compare=False)
    """True when checkers move exactly as in standard backgammon; computed, not given
    (read on every move)."""

    def __post_init__(self) -> None:
        for point, count in self.start:
            if not 1 <= point <= 25 or count < 1:
                raise ValueError(
                    "a start layout holds (point 1..24 or 25 = the bar, count >= 1), "
                    f"got {point, count}"
                )
        if self.max_per_point is not None and self.max_per_point < 1:
            raise ValueError(f"max_per_point must be >= 1, got {self.max_per_point}")
        if self.crosswise and self.same_direction:
            raise ValueError("crosswise and same_direction are different boards; pick one")
        needs_blocking = [
            name for name in ("crosswise", "head_rule", "prime_rule") if getattr(self, name)
        ]
        if needs_blocking and not self.blocking:
            raise ValueError(f"{', '.join(needs_blocking)} need blocking movement (no hitting)")
        if (self.mother_rule or self.prison) and not self.pinning:
            raise ValueError("the mother and prison rules need pinning movement")
        if self.blocking and self.pinning:
            raise ValueError("blocking and pinning are different movements; pick one")
        if self.blocking or self.pinning:
            clashing = [
                name
                for name in ("caucasian", "first_hit", "atomic", "enter_anytime", "acey_deucey")
                if getattr(self, name)
            ]
            if self.max_per_point is not None:
                clashing.append("max_per_point")
            if any(point == 25 for point, _ in self.start):
                clashing.append("a start on the bar")
            if clashing:
                raise ValueError(
                    "blocking or pinning movement (no hitting) does not combine with "
                    + ", ".join(clashing)
                )
        self._check_dice()
        object.__setattr__(
            self,
            "movement",
            movement_options(
                self.point_limit,
                self.caucasian,
                not self.enter_anytime,
                self.same_direction,
                self.exact_bearoff,
            ),
        )
        plain = (
            self.max_per_point is None
            and not self.caucasian
            and not self.enter_anytime
            and not self.same_direction
            and not self.exact_bearoff
            and not self.crosswise
            and not self.blocking
            and not self.head_rule
            and not self.prime_rule
            and not self.pinning
            and self.dice == 2
        )
        object.__setattr__(self, "plain_movement", plain)

    def _check_dice(self) -> None:
        if self.dice not in (2, 3):
            raise ValueError(f"a throw has 2 or 3 dice, got {self.dice!r}")
        if self.dice == 2:
            return
        clashing = [
            name
            for name in (
                "caucasian",
                "first_hit",
                "atomic",
                "acey_deucey",
                "doubles_roll_again",
                "complement_doubles",
                "crosswise",
                "blocking",
                "pinning",
            )
            if getattr(self, name)
        ]
        if self.max_per_point is not None:
            clashing.append("max_per_point")
        if clashing:
            raise ValueError("three dice (tabula) do not combine with " + ", ".join(clashing))

    @property
    def checkers(self) -> int:
        """The number of checkers each side plays with."""
        return sum(count for _, count in self.start)

    @property
    def point_limit(self) -> int:
        """The most checkers a point may hold, 255 when unlimited (for the kernel)."""
        return 255 if self.max_per_point is None else min(self.max_per_point, 255)

    @property
    def topology(self) -> str:
        """Where the opponent's points lie: ``"mirror"`` (the usual board, the
        opponent's point ``25 - q`` is our ``q``), ``"same-way"`` (Russian: its ``q``)
        or ``"crosswise"`` (long nardy: its ``(q + 11) % 24 + 1``)."""
        if self.crosswise:
            return "crosswise"
        if self.same_direction:
            return "same-way"
        return "mirror"

    def opponent_point(self, point: int) -> int:
        """The opponent's number for our point ``point`` (1..24)."""
        if self.crosswise:
            return (point + 11) % 24 + 1
        if self.same_direction:
            return point
        return 25 - point

    def start_counts(self) -> tuple[int, ...]:
        """One side's 26 slots at the start: index 0 off, 1..24 points, 25 bar."""
        slots = [0] * 26
        for point, count in self.start:
            slots[point] += count
        return tuple(slots)

    def with_options(self, **changes: Any) -> Variant:
        """A custom variant: this one with some fields changed (e.g. ``start=...``,
        ``max_per_point=5``, ``caucasian=True``), named ``custom`` unless a name is
        given.

        Raises:
            TypeError: for an unknown option.
            ValueError: for a bad value.
        """
        changes.setdefault("name", "custom")
        changes.setdefault("aliases", ())
        return dataclasses.replace(self, **changes)


STANDARD = Variant(
    "standard",
    ((24, 2), (13, 5), (8, 3), (6, 5)),
    description="Backgammon as played in tournaments: 15 checkers, the doubling cube.",
    aliases=("backgammon", "std"),
)
"""Standard backgammon."""
