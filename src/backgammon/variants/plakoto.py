"""Plakoto, the Greek "pinning" game (one of the three games of Tavli), and its prison
rule.

Each side starts with all fifteen checkers on its 24-point (the opponent's 1-point)
and moves round to its home board as in backgammon. Nothing is hit: a checker that
lands on a lone opposing checker *pins* it; the pinned checker may not move until every
checker on top of it has left, and the pinner holds the point (a lone pinner blocks it
like a made point). A side's last checker on its 24-point is its *mother*: if it is
pinned, that side loses a double game, unless the pinner still has checkers on its own
24-point, in which case play goes on; the pinner wins double once its own last
checker has left home, and if its mother is pinned too the game is a draw. A win is one
point, two if the loser has borne off nothing; there are no backgammons and no cube.
The opening is thrown with one die each and the winner rolls again. Sources:
https://brainking.com/en/GameRules?tp=109 and
https://ludii.games/details.php?keyword=Plakoto.

Choices we made (docs/variants.md): a pinned checker counts as occupying its point
when bearing off (a higher die may bear off a checker from a lower point only when no
checker, pinned or free, lies above it). The seeds' *prison* rule ("a checker caught on
its 24-point loses two games") is the variant ``plakoto-prison``: the mother rule
without the exception, so a pinned mother loses double at once and there are no draws.
"""

from backgammon.rules.variant import Variant

PLAKOTO = Variant(
    "plakoto",
    ((24, 15),),
    pinning=True,
    mother_rule=True,
    backgammons=False,
    cube=False,
    opening_reroll=True,
    description="Greek Tavli: a lone checker is pinned, not hit; a pinned mother loses double.",
    aliases=("tapa", "mahbusa"),
)

PLAKOTO_PRISON = PLAKOTO.with_options(
    name="plakoto-prison",
    prison=True,
    description="Plakoto where a pinned mother loses double at once (the prison rule).",
    aliases=("prison",),
)

VARIANTS = (PLAKOTO, PLAKOTO_PRISON)
