"""Standard backgammon (the rules core)."""

from backgammon.rules.variant import STANDARD

VARIANTS = (STANDARD,)
