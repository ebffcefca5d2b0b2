"""Tavla (Turkish backgammon).

Standard board and start; the winner of the opening throw rolls again for its first
turn; no hit-and-run in one's own home board (the Caucasian rule); a win is 1 point, a
gammon (mars) 2; no backgammons and no doubling cube. Sources:
https://en.wikipedia.org/wiki/Tavla; http://backgammon-game.eu/game_tavla_takhteh.html.
"""

from backgammon.rules.variant import STANDARD, Variant

TAVLA = STANDARD.with_options(
    name="tavla",
    caucasian=True,
    backgammons=False,
    cube=False,
    opening_reroll=True,
    description="Turkish backgammon: no cube, no backgammons, no hit-and-run at home.",
    aliases=("turkish",),
)

VARIANTS: tuple[Variant, ...] = (TAVLA,)
