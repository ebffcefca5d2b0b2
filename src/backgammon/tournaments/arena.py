"""An arena, lichess style: a fixed time; players are paired as they come back to the
lobby, and score by wins with a bonus for streaks.

Scoring (as lichess arenas): a win scores 2 points and a loss 0; after two wins in a
row a player is *on fire*, and every further win scores double (4) until the next loss.

>>> arena_points([True, True, True, False, True])
10

Pairing: whoever is waiting in the lobby is ranked by arena points (then seed) and
paired with the neighbour in that ranking, avoiding the opponent of a player's last
game where the lobby allows; a player left alone waits for the next call. The arena
itself has no clock: its caller says the time (seconds since the start) and when
matches end; no pairing is made once the duration is over, and the matches already
going count when they end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from backgammon.tournaments.records import Entrant, Pairing, Standing, check_entrants
from backgammon.tournaments.seeding import seeded

__all__ = ["Arena", "ArenaGame", "arena_points"]

WIN_POINTS = 2
STREAK_TO_FIRE = 2


def arena_points(results: Sequence[bool]) -> int:
    """The arena points of a player's results in order (``True`` for a win)."""
    total = 0
    streak = 0
    for won in results:
        if won:
            total += WIN_POINTS * (2 if streak >= STREAK_TO_FIRE else 1)
            streak += 1
        else:
            streak = 0
    return total


@dataclass(frozen=True, slots=True)
class ArenaGame:
    """One finished arena match: its pairing (with the winner) and when it started and
    ended (seconds since the arena's start)."""

    pairing: Pairing
    started: float
    ended: float

    def to_json(self) -> dict[str, Any]:
        """``{"pairing": {...}, "started", "ended"}``."""
        return {"pairing": self.pairing.to_json(), "started": self.started, "ended": self.ended}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ArenaGame:
        """The game :meth:`to_json` wrote."""
        return cls(Pairing.from_json(data["pairing"]), float(data["started"]), float(data["ended"]))


class Arena:
    """An arena of a fixed ``duration`` (seconds): pairings as players return, results
    as matches end, standings by arena points."""

    format_name = "arena"

    def __init__(self, entrants: Iterable[Entrant], duration: float, seed: int = 0) -> None:
        """Seed the field by rating (ties drawn from ``seed``).

        Raises:
            ValueError: for fewer than 2 players, a name twice, or a duration <= 0.
        """
        field = tuple(entrants)
        check_entrants(field)
        if duration <= 0:
            raise ValueError(f"an arena lasts a time > 0 seconds, got {duration}")
        self.duration = duration
        self.seed = seed
        self._entrants = seeded(field, seed)
        self._games: list[ArenaGame] = []
        self._playing: dict[frozenset[str], float] = {}

    @property
    def entrants(self) -> tuple[Entrant, ...]:
        """The field in seeding order."""
        return self._entrants

    @property
    def games(self) -> tuple[ArenaGame, ...]:
        """Every finished match, in the order the results came in."""
        return tuple(self._games)

    def is_over(self, now: float) -> bool:
        """True once the arena's time is up."""
        return now >= self.duration

    def playing(self) -> set[str]:
        """The players in a match now."""
        return {name for pair in self._playing for name in pair}

    def results_of(self, name: str) -> list[bool]:
        """A player's results in order (``True`` for a win)."""
        return [game.pairing.winner == name for game in self._games if name in game.pairing.players]

    def _last_opponent(self, name: str) -> str | None:
        for game in reversed(self._games):
            if name in game.pairing.players:
                return game.pairing.opponent_of(name)
        return None

    def pair(self, waiting: Iterable[str], now: float) -> list[Pairing]:
        """Pair the players waiting in the lobby at time ``now`` (none after the end);
        the new matches count as started.

        Raises:
            ValueError: for an unknown player or one who is in a match.
        """
        lobby = list(dict.fromkeys(waiting))
        known = {entrant.name for entrant in self._entrants}
        busy = self.playing()
        for name in lobby:
            if name not in known:
                raise ValueError(f"{name!r} is not in this arena")
            if name in busy:
                raise ValueError(f"{name!r} is in a match and cannot be paired")
        if self.is_over(now):
            return []
        seeds = {entrant.name: index for index, entrant in enumerate(self._entrants)}
        lobby.sort(key=lambda name: (-arena_points(self.results_of(name)), seeds[name]))
        pairings = []
        while len(lobby) >= 2:
            first = lobby.pop(0)
            last = self._last_opponent(first)
            partner = next((name for name in lobby if name != last), lobby[0])
            lobby.remove(partner)
            pairings.append(Pairing((first, partner)))
            self._playing[frozenset((first, partner))] = now
        return pairings

    def finish(self, result: Pairing, now: float) -> ArenaGame:
        """Record the end of a match the arena paired, with its winner, at ``now``.

        Raises:
            ValueError: for a match not in play or a result without a winner.
        """
        first, second = result.players
        key = frozenset((first, str(second)))
        if key not in self._playing:
            raise ValueError(f"no match {result.players} is in play")
        if result.winner is None:
            raise ValueError(f"the result of {result.players} has no winner")
        game = ArenaGame(result, self._playing.pop(key), now)
        self._games.append(game)
        return game

    def standings(self) -> list[Standing]:
        """By arena points, then games won, then seed; the tie-breaks are ``wins``,
        ``games``, ``best_streak`` and ``seed``."""
        table = []
        for index, entrant in enumerate(self._entrants, 1):
            results = self.results_of(entrant.name)
            best = streak = 0
            for won in results:
                streak = streak + 1 if won else 0
                best = max(best, streak)
            tiebreaks: dict[str, float] = {
                "wins": sum(results),
                "games": len(results),
                "best_streak": best,
                "seed": index,
            }
            table.append(Standing(entrant.name, arena_points(results), tiebreaks))
        return sorted(table, key=lambda s: (-s.points, -s.tiebreaks["wins"], s.tiebreaks["seed"]))

    def to_json(self) -> dict[str, Any]:
        """``{"format": "arena", "seed", "duration", "entrants", "games", "playing"}``."""
        return {
            "format": self.format_name,
            "seed": self.seed,
            "duration": self.duration,
            "entrants": [entrant.to_json() for entrant in self._entrants],
            "games": [game.to_json() for game in self._games],
            "playing": [
                {"players": sorted(pair), "started": started}
                for pair, started in self._playing.items()
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Arena:
        """The arena :meth:`to_json` wrote.

        Raises:
            ValueError: if the data is not an arena.
        """
        if data.get("format") != cls.format_name:
            raise ValueError(f"not a {cls.format_name} record: format {data.get('format')!r}")
        entrants = [Entrant.from_json(entry) for entry in data["entrants"]]
        arena = cls(entrants, float(data["duration"]), int(data["seed"]))
        arena._games = [ArenaGame.from_json(game) for game in data["games"]]
        arena._playing = {
            frozenset(entry["players"]): float(entry["started"]) for entry in data["playing"]
        }
        return arena
