"""Nackgammon (Nack Ballard): standard rules from a start with four back checkers.

Source: http://bkgm.com/variants/Nackgammon.html — 2 on the 24, 2 on the 23, 4 on the
13, 3 on the 8, 4 on the 6.
"""

from backgammon.rules.variant import Variant

NACKGAMMON = Variant(
    "nackgammon",
    ((24, 2), (23, 2), (13, 4), (8, 3), (6, 4)),
    description="Standard rules; two more back checkers (on the 23-point).",
    aliases=("nack",),
)

VARIANTS = (NACKGAMMON,)
