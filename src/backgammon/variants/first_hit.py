"""First hit wins: standard start; the first player to hit a blot wins a single game
(a side that bears off every checker first also wins a single game). No gammons or
backgammons. Source: the seed documents (issue 4).
"""

from backgammon.rules.variant import STANDARD, Variant

FIRST_HIT = STANDARD.with_options(
    name="first-hit",
    first_hit=True,
    gammons=False,
    backgammons=False,
    description="The first player to hit wins (a single game).",
    aliases=("firsthit", "first-hit-wins"),
)

VARIANTS: tuple[Variant, ...] = (FIRST_HIT,)
