"""What the tournament service runs and is asked: the round-by-round formats it runs
(the library's, by the server's names) and the knock-out's side events, the request
bodies (``POST /api/tournaments`` and its bots), and the settings stored with an
event and read back as the library's :class:`~backgammon.tournaments.EventSettings`.

:mod:`backgammon.server.tournaments.service` exports the request bodies and limits too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from backgammon.server.tournaments import store
from backgammon.tournaments import (
    Clock,
    DoubleElimination,
    EventSettings,
    Knockout,
    RoundRobin,
    Swiss,
    consolation,
    last_chance,
)
from backgammon.tournaments.tournament import RoundHistory

__all__ = [
    "FORMATS",
    "MAX_PLAYERS",
    "SIDE_EVENTS",
    "CreateTournament",
    "EnterBot",
    "TournamentClock",
]

MAX_PLAYERS = 256
"""The most players one tournament takes."""


FORMATS: dict[str, type[RoundHistory]] = {
    "knockout": Knockout,
    "swiss": Swiss,
    "round-robin": RoundRobin,
    "double-elim": DoubleElimination,
}
"""The round-by-round formats the server runs, by the server's format name (the
arena, paired as players come back rather than by rounds, is
:mod:`~backgammon.server.tournaments.arena`'s)."""

SIDE_EVENTS: dict[str, Callable[[Knockout, int], Knockout]] = {
    "consolation": consolation,
    "last-chance": last_chance,
}
"""The knock-out's side events, each a knock-out of an event's first-round losers:
the consolation (of the main event's) and the last chance (of the consolation's)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TournamentClock(_Strict):
    """The ABT/US clock of every match: a delay per move, a reserve per point."""

    delay_seconds: int = Field(default=12, ge=0, le=600)
    reserve_per_point_seconds: int = Field(default=120, ge=1, le=3600)


class CreateTournament(_Strict):
    """``POST /api/tournaments``: a new event, open for registration."""

    name: str = Field(min_length=1, max_length=80)
    format: Literal["knockout", "swiss", "round-robin", "double-elim", "arena"]
    rounds: int | None = Field(default=None, ge=1, le=20, description="swiss, round-robin")
    consolation: bool = Field(default=False, description="knockout: a consolation event")
    last_chance: bool = Field(default=False, description="knockout: a last chance event")
    duration_seconds: int = Field(default=3600, ge=10, le=86_400, description="arena: its time")
    max_players: int = Field(default=16, ge=2, le=MAX_PLAYERS)
    early_length: int = Field(default=5, ge=1, le=25)
    semi_final_length: int = Field(default=7, ge=1, le=25)
    final_length: int = Field(default=9, ge=1, le=25)
    clock: TournamentClock = Field(default_factory=TournamentClock)
    rated: bool = True
    start_when_full: bool = Field(
        default=False, description="start as soon as max_players have registered"
    )
    starts_at: float | None = Field(
        default=None,
        ge=0,
        allow_inf_nan=False,  # JSON's 1e400 is infinity; PostgreSQL would store it
        description="Unix time to start, within a year from now",
    )


class EnterBot(_Strict):
    """``POST /api/tournaments/ID/bots``: the organiser enters one of the server's bots."""

    level: str = Field(min_length=1, max_length=16)


def _event_settings(settings: dict[str, Any]) -> EventSettings:
    clock = settings["clock"]
    return EventSettings(
        settings["early_length"],
        settings["semi_final_length"],
        settings["final_length"],
        Clock(clock["delay_seconds"], clock["reserve_per_point_seconds"]),
    )


def _stored_settings(body: CreateTournament) -> dict[str, Any]:
    """The settings stored with a new tournament; ``side_events`` lists the side
    events still to come, in order (each opened from the previous one's losers)."""
    settings = body.model_dump(exclude={"name", "format", "starts_at"})
    settings["side_events"] = [
        kind
        for kind, wanted in (("consolation", body.consolation), ("last-chance", body.last_chance))
        if wanted
    ]
    return settings


def _load_event(row: store.TournamentRow) -> RoundHistory:
    assert row.state is not None
    return FORMATS[row.format].from_json(row.state)
