"""Tabula: the Roman three-dice game, Zeno's game of AD 480 (Agathias's epigram).

Each side has 15 checkers, all off the board at the start; both enter them in the
same quarter (the first six points of the track, by the numbers thrown) and move them
the same way round the 24 points, to bear them off from the last quarter. A throw is
three dice; each die moves one checker (one checker may take two or all three), equal
numbers are not doubled. A point held by two or more checkers is closed to the
opponent; a single checker landed on is hit and must re-enter, and nothing else moves
while a side has checkers waiting to enter. The whole throw must be used if it can be;
an unplayable part is lost. Bearing off only once all 15 are in the last quarter.

Source: R. C. Bell's reconstruction, "Board and Table Games from Many Civilizations",
as given at https://a4games.company/tabula-rules-route-and-layout/ (the same text as
"Professor Finkel's rules", https://benkalkhoven.nl/Games/Tabula.html); Agathias,
Anthologia Palatina IX.482 (Zeno's position), read as R. G. Austin, "Zeno's game of
τάβλη", JHS 54 (1934). Choices where they disagree: see docs/variants.md.
"""

from backgammon.rules.variant import Variant

TABULA = Variant(
    "tabula",
    ((25, 15),),
    dice=3,
    same_direction=True,
    opening_reroll=True,
    gammons=False,
    backgammons=False,
    cube=False,
    description="The Roman game: three dice, all 15 enter from off the board, one way round.",
    aliases=("zeno", "alea", "tabulae"),
)

VARIANTS = (TABULA,)
