"""Acey-deucey (American and European forms).

All 15 checkers start off the board and enter in the opponent's home board, as from
the bar; a player may move checkers already on the board while others still wait to
enter, and a hit checker likewise waits on the bar. Rolling 1-2 (acey-deucey) the player
plays the 1 and the 2, then chooses any double and plays it, then rolls again. Sources:
https://www.itavli.com/rules-of-acey-deucey/; the seed documents (issue 4).

Choices we made (see docs/variants.md): hit checkers need not re-enter first (they join
the waiting checkers); the winner of the opening throw rolls again for its first turn.
The American form also gives another roll after every double (``doubles_roll_again``);
the European form's complementary doubles and exact bear-off are not modelled yet.
"""

from backgammon.rules.variant import Variant

ACEY_DEUCEY = Variant(
    "acey-deucey",
    ((25, 15),),
    enter_anytime=True,
    acey_deucey=True,
    doubles_roll_again=True,
    opening_reroll=True,
    description=("All checkers start off the board; after 1-2 any double, and doubles roll again."),
    aliases=("aceydeucey", "acey-deucey-american"),
)
ACEY_DEUCEY_PLAIN = Variant(
    "acey-deucey-1-2",
    ((25, 15),),
    enter_anytime=True,
    acey_deucey=True,
    opening_reroll=True,
    description="Acey-deucey with the 1-2 rule but no extra roll after ordinary doubles.",
)

VARIANTS = (ACEY_DEUCEY, ACEY_DEUCEY_PLAIN)
