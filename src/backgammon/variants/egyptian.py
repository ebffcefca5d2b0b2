"""The Egyptian rule: at most five checkers on a point.

Source: GNU Backgammon's manual (FAQ "Why am I allowed to place more than 5 checkers
on a point?"; it once supported the rule); https://abak.me/blog/backgammon_egyptian_rule.
Combine it with other rules through ``Variant.with_options(max_per_point=5)``.
"""

from backgammon.rules.variant import STANDARD, Variant

EGYPTIAN = STANDARD.with_options(
    name="egyptian",
    max_per_point=5,
    description="Standard backgammon, but no point may hold more than five checkers.",
)

VARIANTS: tuple[Variant, ...] = (EGYPTIAN,)
