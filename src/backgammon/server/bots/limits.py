"""How many of the server's bots one organiser may enter in one event (issue 50).

Every bot entered in a tournament plays its matches in the bots' worker processes, and
two bots paired together keep a worker thinking with no person waiting, for as long as
the event runs (an arena runs up to 24 hours). So an event takes at most
:data:`MAX_BOTS_PER_EVENT` bots, of which at most :data:`MAX_EXPENSIVE_BOTS_PER_EVENT`
at a level that searches ahead (world class: a 2-ply search per play); with
:data:`~backgammon.server.tournaments.service.MAX_LIVE_PER_ORGANISER` events an organiser has
40 bots at most, and the bots' scheduler (:mod:`~backgammon.server.bots.queue`) counts
all their decisions as the organiser's.
"""

from __future__ import annotations

from typing import Any

from backgammon.engine.players import LEVELS
from backgammon.server.common import ServiceError
from backgammon.server.db import repository as repo
from backgammon.server.db.repository import User

__all__ = ["MAX_BOTS_PER_EVENT", "MAX_EXPENSIVE_BOTS_PER_EVENT", "check_bot_entry", "expensive"]

MAX_BOTS_PER_EVENT = 8
"""The most bots one tournament takes."""

MAX_EXPENSIVE_BOTS_PER_EVENT = 2
"""The most bots at a level that searches ahead (:func:`expensive`) one tournament takes."""


def expensive(level: str | None) -> bool:
    """Whether a bot at ``level`` searches ahead (each of its plays costs a worker far
    more than a 0-ply bot's); an unknown level counts as expensive."""
    known = LEVELS.get(level or "")
    return known is None or known.ply > 0


async def check_bot_entry(
    connection: Any, entered: list[tuple[int, str, str]], bot: User, where: str
) -> None:
    """Refuse ``bot`` to an event whose entries (``(user id, name, kind)``, as
    :func:`~backgammon.server.tournaments.store.players_of` gives them) hold
    :data:`MAX_BOTS_PER_EVENT` bots, or :data:`MAX_EXPENSIVE_BOTS_PER_EVENT` expensive
    ones when ``bot`` is expensive too. ``where`` names the event in the message.

    Raises:
        ServiceError: ``conflict`` past either bound.
    """
    bots = [user_id for user_id, _, kind in entered if kind == "bot"]
    if len(bots) >= MAX_BOTS_PER_EVENT:
        raise ServiceError(
            "conflict", f"{where} has {len(bots)} bots: at most {MAX_BOTS_PER_EVENT}", 409
        )
    if not expensive(bot.bot_level):
        return
    levels = [await repo.user_by_id(connection, user_id) for user_id in bots]
    costly = sum(1 for user in levels if user is not None and expensive(user.bot_level))
    if costly >= MAX_EXPENSIVE_BOTS_PER_EVENT:
        raise ServiceError(
            "conflict",
            f"{where} has {costly} bots that search ahead, as {bot.bot_level} does: at "
            f"most {MAX_EXPENSIVE_BOTS_PER_EVENT}",
            409,
        )
