"""The line of players at a chouette and its rotation after each game.

A lineup is the players in order: the box first, then the captain, then the rest of
the team in the order they will captain.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["rotate", "validate_lineup"]

MIN_PLAYERS = 3
RESERVED_NAMES = frozenset({"Result", "Score"})
"""Words that start the session record's own lines, so no player may be called so."""


def validate_lineup(players: Sequence[str]) -> tuple[str, ...]:
    """Check a chouette's players and return them as a tuple (box first).

    Names are non-empty, without spaces, commas, colons or parentheses, not one of
    :data:`RESERVED_NAMES` (they are written in the session record), and distinct.

    Raises:
        ValueError: for fewer than three players, a repeated name or a bad name.
    """
    lineup = tuple(players)
    if len(lineup) < MIN_PLAYERS:
        raise ValueError(f"a chouette needs at least {MIN_PLAYERS} players, got {len(lineup)}")
    for name in lineup:
        if not isinstance(name, str) or not name or any(c in name for c in " \t\r\n,:()"):
            raise ValueError(
                f"a player's name is non-empty text without spaces, ',', ':' or "
                f"parentheses, got {name!r}"
            )
        if name in RESERVED_NAMES:
            raise ValueError(f"{name!r} is a word of the session record, not a player's name")
    repeated = sorted({name for name in lineup if lineup.count(name) > 1})
    if repeated:
        raise ValueError(f"each player sits once; repeated: {', '.join(repeated)}")
    return lineup


def rotate(lineup: tuple[str, ...], captain_won: bool) -> tuple[str, ...]:
    """The lineup for the next game.

    The game's result between the box and the captain who began it decides: if the
    box won, it keeps the box and the captain goes to the back of the line; if the
    captain won, the captain takes the box and the old box goes to the back of the
    line. Either way the next member in line becomes captain.

    >>> rotate(("Ann", "Bob", "Cy", "Di"), captain_won=False)
    ('Ann', 'Cy', 'Di', 'Bob')
    >>> rotate(("Ann", "Bob", "Cy", "Di"), captain_won=True)
    ('Bob', 'Cy', 'Di', 'Ann')
    """
    box, captain, *rest = lineup
    if captain_won:
        return (captain, *rest, box)
    return (box, *rest, captain)
