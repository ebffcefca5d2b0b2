"""Tournament formats: pure, seeded, I/O-free pairings, results and standings.

- :class:`Knockout` (seeding by rating, byes to a power of two) with the
  :func:`consolation` and :func:`last_chance` side events, and
  :class:`DoubleElimination` for small fields;
- :class:`Swiss` (pairing by score, no rematch while avoidable, byes, tie-breaks);
- :class:`RoundRobin` (Berger tables);
- :class:`Arena` (lichess style: fixed time, pairing from the lobby, streak bonuses);
- :class:`EventSettings` / :class:`RoundSettings`: match length by round, Crawford on,
  Jacoby and beavers off, the ABT/US clock.

Every format is a mutable history (``next_round`` / ``record`` / ``standings``) that
writes itself as JSON and reads back (``to_json`` / ``from_json``); a format's
pairings depend only on its entrants, the results recorded and its seed. The server
stores and schedules tournaments; this package only knows their rules.

>>> from backgammon.tournaments import Entrant, Swiss, play_out
>>> event = Swiss([Entrant(f"p{i}", 2000 - i) for i in range(1, 9)], rounds=3)
>>> play_out(event, lambda round_, pairing: pairing.players[0])
>>> event.standings()[0].name, event.standings()[0].points
('p1', 3)
"""

from __future__ import annotations

from backgammon.tournaments.arena import Arena, ArenaGame, arena_points
from backgammon.tournaments.double_elimination import DoubleElimination
from backgammon.tournaments.knockout import Knockout, bracket_order, consolation, last_chance
from backgammon.tournaments.records import Entrant, Pairing, Round, Standing
from backgammon.tournaments.round_robin import RoundRobin, berger_tables
from backgammon.tournaments.settings import Clock, EventSettings, RoundSettings
from backgammon.tournaments.swiss import Swiss, max_swiss_rounds
from backgammon.tournaments.tournament import Tournament, play_out

__all__ = [
    "Arena",
    "ArenaGame",
    "Clock",
    "DoubleElimination",
    "Entrant",
    "EventSettings",
    "Knockout",
    "Pairing",
    "Round",
    "RoundRobin",
    "RoundSettings",
    "Standing",
    "Swiss",
    "Tournament",
    "arena_points",
    "berger_tables",
    "bracket_order",
    "consolation",
    "last_chance",
    "max_swiss_rounds",
    "play_out",
]
