"""Acey-deucey (American and European forms).

All 15 checkers start off the board and enter in the opponent's home board, as from
the bar; a player may move checkers already on the board while others still wait to
enter, and a hit checker likewise waits on the bar. Rolling 1-2 (acey-deucey) the player
plays the 1 and the 2, then chooses any double and plays it, then rolls again. Sources:
https://www.itavli.com/rules-of-acey-deucey/; the seed documents (issue 4).

Choices we made (see docs/variants.md): hit checkers need not re-enter first (they join
the waiting checkers); the winner of the opening throw rolls again for its first turn.
The American form also gives another roll after every double (``doubles_roll_again``).
The European form (``acey-deucey-european``, after
https://www.itavli.com/rules-of-acey-deucey/) instead follows a rolled double, once
played out, with its complement to seven (3-3 then 4-4), with no extra roll, and bears
off only with exact numbers; the double chosen after a 1-2 gets no complement (our
choice).
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
ACEY_DEUCEY_PLAIN = ACEY_DEUCEY.with_options(
    name="acey-deucey-1-2",
    doubles_roll_again=False,
    description="Acey-deucey with the 1-2 rule but no extra roll after ordinary doubles.",
)
ACEY_DEUCEY_EUROPEAN = ACEY_DEUCEY.with_options(
    name="acey-deucey-european",
    doubles_roll_again=False,
    complement_doubles=True,
    complement_roll_again=False,
    exact_bearoff=True,
    description="Acey-deucey, European: doubles are followed by their complement; exact bear-off.",
    aliases=("acey-deucey-eu",),
)

VARIANTS = (ACEY_DEUCEY, ACEY_DEUCEY_PLAIN, ACEY_DEUCEY_EUROPEAN)
