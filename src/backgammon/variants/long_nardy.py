"""Long nardy (длинные нарды), the Russian and Caucasian race game without hitting.

Each side starts with all fifteen checkers on its 24-point, the *head*; the two heads
lie diagonally across the board from each other and both sides move the same way round
(counter-clockwise), each bearing off from the quadrant diagonally across from its
head. Nothing is hit: a single checker holds a point and the opponent may not land
there. Only one checker may leave the head per turn, except on a side's first turn
with 6-6, 4-4 or 3-3, when two may (one alone could not be played on). A side may not
build six points in a row in front of the opponent unless an opposing checker is
already past them. A win is one point, a *mars* (the loser has borne off nothing)
two. Sources: https://en.wikipedia.org/wiki/Long_Nardy and
http://www.bkgm.com/variants/Nardy.html.

Choices we made (docs/variants.md): no *koks* (some clubs score three when the loser
still has a checker on its head, or in the winner's home quadrant); no doubling cube;
the opening is thrown with one die each and the winner then rolls both dice (as in
Tavla); the six-point rule is judged on the position after the whole play, and a
borne-off opposing checker does not count as "past" the block.
"""

from backgammon.rules.variant import Variant

LONG_NARDY = Variant(
    "long-nardy",
    ((24, 15),),
    crosswise=True,
    blocking=True,
    head_rule=True,
    prime_rule=True,
    backgammons=False,
    cube=False,
    opening_reroll=True,
    description="Fifteen on the head, no hitting, one checker off the head per turn.",
    aliases=("nardy", "long-nardi", "narde"),
)

VARIANTS = (LONG_NARDY,)
