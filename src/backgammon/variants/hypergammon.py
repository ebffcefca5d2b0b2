"""Hypergammon: three checkers each on the 24, 23 and 22 points; also the 1- and
2-checker forms GNU Backgammon knows.

Source: https://en.wikipedia.org/wiki/Hypergammon; GNU Backgammon's variants
(gnubg-src ``eval.c``, ``anChequers``).
"""

from backgammon.rules.variant import Variant

HYPERGAMMON = Variant(
    "hypergammon",
    ((24, 1), (23, 1), (22, 1)),
    description="Three checkers each, on the 24, 23 and 22 points.",
    aliases=("hypergammon-3", "hyper", "hyper-3"),
)
HYPERGAMMON_1 = Variant(
    "hypergammon-1",
    ((24, 1),),
    description="One checker each, on the 24-point.",
    aliases=("hyper-1",),
)
HYPERGAMMON_2 = Variant(
    "hypergammon-2",
    ((24, 1), (23, 1)),
    description="Two checkers each, on the 24 and 23 points.",
    aliases=("hyper-2",),
)

VARIANTS = (HYPERGAMMON, HYPERGAMMON_1, HYPERGAMMON_2)
