"""What a new tournament's settings may not be, beyond each field's own bounds
(:class:`~backgammon.server.tournaments.model.CreateTournament`): the checks that
read several fields together."""

from __future__ import annotations

from backgammon.server.service import ServiceError
from backgammon.server.tournaments.model import CreateTournament

__all__ = ["MAX_DOUBLE_ELIMINATION", "MIN_RATED_RESERVE_PER_POINT", "check_format_settings"]

MAX_DOUBLE_ELIMINATION = 32
"""The most players of a double elimination (a format for small fields)."""

MIN_RATED_RESERVE_PER_POINT = 30
"""The least reserve per point of a rated tournament's clock, in seconds: a player a
moment away from the board does not lose a rated match on the clock."""


def check_format_settings(body: CreateTournament) -> None:
    """Refuse settings the format cannot have, and a rated event's clock under
    :data:`MIN_RATED_RESERVE_PER_POINT` (``bad_request``)."""
    reserve = body.clock.reserve_per_point_seconds
    if body.rated and reserve < MIN_RATED_RESERVE_PER_POINT:
        raise ServiceError(
            "bad_request",
            f"clock: a rated tournament gives at least {MIN_RATED_RESERVE_PER_POINT} s "
            f"of reserve per point (got {reserve}); or make it unrated",
            422,
        )
    if body.rounds is not None and body.rounds > body.max_players:
        raise ServiceError("bad_request", "rounds: more rounds than players", 422)
    if (body.consolation or body.last_chance) and body.format != "knockout":
        raise ServiceError(
            "bad_request", "consolation, last_chance: side events of a knockout only", 422
        )
    if body.last_chance and not body.consolation:
        raise ServiceError("bad_request", "last_chance: a last chance follows a consolation", 422)
    if body.format == "double-elim" and body.max_players > MAX_DOUBLE_ELIMINATION:
        raise ServiceError(
            "bad_request",
            f"max_players: a double elimination takes at most {MAX_DOUBLE_ELIMINATION}",
            422,
        )
