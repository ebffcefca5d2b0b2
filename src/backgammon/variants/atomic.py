"""Atomic bomb: standard backgammon plus a bomb.

At the start of a turn, before rolling, the player holding the bomb (at first nobody
holds it, so either may) may explode it: every blot of both sides goes to the bar, and
the bomb passes to the opponent. Source: the seed documents (issue 4).
"""

from backgammon.rules.variant import STANDARD, Variant

ATOMIC = STANDARD.with_options(
    name="atomic",
    atomic=True,
    description="Standard backgammon with a bomb that sends every blot to the bar.",
    aliases=("atomic-bomb",),
)

VARIANTS: tuple[Variant, ...] = (ATOMIC,)
