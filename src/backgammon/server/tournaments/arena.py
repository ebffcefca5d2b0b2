"""An arena on the server (lichess style): for a fixed time, players are paired as
they come back from their matches, and score by wins with streak bonuses.

The rules are the library's :class:`~backgammon.tournaments.Arena`; this module keeps
its stored state (the library's JSON record, the start time, every pairing made in
order and which of them are still being played) and brings it up to date in one
transaction: the matches that ended are recorded, the players back in the lobby are
paired and their matches stored, and the arena ends once its time is up and its last
match is over. The ``n``-th pairing is played by the match linked as round ``n``,
pairing 0, so a restart finds every match again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from backgammon.server.db import repository as repo
from backgammon.server.db.repository import User
from backgammon.server.protocol import MatchSettings
from backgammon.server.service import GameService
from backgammon.server.tournaments import store
from backgammon.tournaments import Arena, Entrant, Pairing

__all__ = ["ArenaState", "advance_arena", "new_arena_state"]


@dataclass(slots=True)
class ArenaState:
    """A running arena as stored: the library's arena, its start (Unix time), every
    pairing made (in order) and the numbers (1-based) of those still in play."""

    arena: Arena
    started_at: float
    paired: list[tuple[str, str]]
    open: list[int]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ArenaState:
        """The state :meth:`to_json` wrote."""
        return cls(
            Arena.from_json(data["arena"]),
            float(data["started_at"]),
            [(str(a), str(b)) for a, b in data["paired"]],
            [int(number) for number in data["open"]],
        )

    def to_json(self) -> dict[str, Any]:
        """``{"format": "arena", "arena", "started_at", "paired", "open"}``."""
        return {
            "format": "arena",
            "arena": self.arena.to_json(),
            "started_at": self.started_at,
            "paired": [list(pair) for pair in self.paired],
            "open": list(self.open),
        }

    @staticmethod
    def ends_at_of(data: dict[str, Any]) -> float:
        """When the arena stored as ``data`` (:meth:`to_json`) ends, without reading
        its games."""
        return float(data["started_at"]) + float(data["arena"]["duration"])

    @property
    def ends_at(self) -> float:
        """When no more pairings are made (Unix time)."""
        return self.started_at + self.arena.duration

    def is_finished(self, now: float) -> bool:
        """True once the time is up (``now``: Unix time) and no match is in play."""
        return now >= self.ends_at and not self.open

    def games(self, links: dict[tuple[int, int], tuple[str, str, int | None]]) -> list[Any]:
        """Every pairing made, in order, as ``{"players", "winner", "match"}``."""
        shown = []
        for number, (first, second) in enumerate(self.paired, 1):
            link = links.get((number, 0))
            winner = None
            if link is not None and link[1] == "finished" and number not in self.open:
                winner = (first, second)[link[2] or 0]
            shown.append(
                {
                    "players": [first, second],
                    "winner": winner,
                    "match": None if link is None else link[0],
                }
            )
        return shown


async def _account(connection: Any, user_id: int) -> User:
    user = await repo.user_by_id(connection, user_id)
    assert user is not None
    return user


def new_arena_state(entrants: list[Entrant], seconds: int, seed: int, now: float) -> ArenaState:
    """A new arena lasting ``seconds`` from ``now`` (nobody paired yet).

    Raises:
        ValueError: as :class:`~backgammon.tournaments.Arena`.
    """
    return ArenaState(Arena(entrants, float(seconds), seed), now, [], [])


async def advance_arena(
    games: GameService,
    connection: Any,
    row: store.TournamentRow,
    settings: MatchSettings,
    ids: dict[str, int],
) -> tuple[ArenaState, list[tuple[int, Pairing]]]:
    """Bring a running arena up to date inside ``connection``'s transaction: record
    the matches that ended, pair the players in the lobby (storing and linking their
    matches; ``ids``: the players' user ids by name). Returns the new state (the caller stores
    it) and the pairings in play whose matches may need starting, by number."""
    assert row.state is not None
    state = ArenaState.from_json(row.state)
    now = games.clock.now() - state.started_at
    links = await store.match_links(connection, row.id)
    for number in list(state.open):
        link = links.get((number, 0))
        if link is None or link[1] != "finished":
            continue
        first, second = state.paired[number - 1]
        winner = (first, second)[link[2] or 0]
        state.arena.finish(Pairing((first, second), winner), now)
        state.open.remove(number)
    gone = set(row.settings.get("withdrawn", ())) | state.arena.playing()
    waiting = [e.name for e in state.arena.entrants if e.name not in gone]
    for pairing in state.arena.pair(waiting, now):
        first, maybe_second = pairing.players
        assert maybe_second is not None
        second = maybe_second
        match_id = await games.seat_match(
            connection,
            (await _account(connection, ids[first]), await _account(connection, ids[second])),
            settings,
            rated=bool(row.settings["rated"]),
            owner=row.organiser,  # its bots' work counts as the organiser's
        )
        state.paired.append((first, second))
        number = len(state.paired)
        state.open.append(number)
        await store.link_match(connection, row.id, number, 0, match_id)
    in_play = [(number, Pairing(state.paired[number - 1])) for number in state.open]
    return state, in_play
