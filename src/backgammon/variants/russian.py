"""Russian backgammon: a true race, both sides moving the same way round the board.

All checkers start off the board; both players enter theirs in the same table (in the
opponent's home board, by the numbers rolled), move them the same way round, and bear
them off from the same table. A side must enter all its checkers before making any
other move. A checker may not land on two or more opposing checkers; a single one is
hit, as in backgammon. A double is played four times, then its complement to seven
four times, then the player rolls again. Source:
http://www.bkgm.com/variants/RussianBackgammon.html (also itavli.com's description).

Choices we made (docs/variants.md): hitting as in backgammon (bkgm.com; some sources
allow landing only on empty points); the complement is played only after all four
numbers of the double were played and once all the side's checkers have entered, and
the extra roll only after the complement was played out (itavli.com); the opening
player plays the opening numbers; no backgammons (the loser's entry table is not in
the winner's home board); the doubling cube as usual.
"""

from backgammon.rules.variant import Variant

RUSSIAN = Variant(
    "russian",
    ((25, 15),),
    same_direction=True,
    complement_doubles=True,
    backgammons=False,
    description="Both sides enter in the same table and race the same way round.",
    aliases=("russian-backgammon",),
)

VARIANTS = (RUSSIAN,)
