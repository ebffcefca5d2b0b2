"""The Caucasian rule: no hit-and-run in one's own home board.

A checker that hits in its own home board may not, in the same turn, go on to a point
of its own ("hide") nor bear off; it may continue to an empty point, and the blot may
be covered by another checker. Hitting and then bearing off is allowed only when no
other play exists. Source: the seed documents (issue 4); the same home-board rule is
part of Tavla (https://en.wikipedia.org/wiki/Tavla).
"""

from backgammon.rules.variant import STANDARD, Variant

CAUCASIAN = STANDARD.with_options(
    name="caucasian",
    caucasian=True,
    description="Standard backgammon without hit-and-run in one's own home board.",
)

VARIANTS: tuple[Variant, ...] = (CAUCASIAN,)
