"""Tournaments of bots for ``backgammon tournament simulate``: the field, the format,
and each match's winner, drawn from the seed or played out by the bots."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from backgammon.apps.selfplay import play_one
from backgammon.engine.baseline import HeuristicPlayer, Player
from backgammon.rules.match import Match
from backgammon.tournaments import Entrant, Knockout, Pairing, Round, RoundRobin, Swiss
from backgammon.tournaments.settings import RoundSettings
from backgammon.tournaments.tournament import Tournament

__all__ = [
    "FORMATS",
    "BotMatches",
    "bot_field",
    "make_tournament",
    "match_count",
    "random_winners",
    "simulation_json",
]

FORMATS = ("swiss", "knockout", "round-robin")
BOT_LEVELS = (("expert", 1900.0), ("advanced", 1800.0), ("intermediate", 1700.0))
"""The engine levels the field's bots play at, in turn, with the rating that seeds them."""


def bot_field(players: int) -> tuple[Entrant, ...]:
    """``players`` bots named ``bot01``, ``bot02``, ...; bot ``i`` plays at level
    ``BOT_LEVELS[(i - 1) % 3]`` and is rated accordingly."""
    return tuple(
        Entrant(f"bot{index:02d}", BOT_LEVELS[(index - 1) % len(BOT_LEVELS)][1])
        for index in range(1, players + 1)
    )


def make_tournament(
    kind: str, entrants: tuple[Entrant, ...], rounds: int | None, seed: int
) -> Tournament:
    """A tournament of ``kind`` (one of :data:`FORMATS`).

    Raises:
        ValueError: for an unknown format, too few players, or a number of rounds the
            format cannot play (a knock-out has exactly ``ceil(log2(players))``).
    """
    if kind not in FORMATS:
        raise ValueError(f"unknown format {kind!r}; choose {', '.join(FORMATS)}")
    if len(entrants) < 2:
        raise ValueError(f"a tournament needs at least 2 players, got {len(entrants)}")
    if kind == "swiss":
        return Swiss(entrants, rounds, seed)
    if kind == "round-robin":
        return RoundRobin(entrants, rounds, seed)
    knockout = Knockout(entrants, seed)
    if rounds is not None and rounds != knockout.total_rounds:
        raise ValueError(
            f"a knock-out of {len(entrants)} players has exactly {knockout.total_rounds} "
            f"rounds, not {rounds}"
        )
    return knockout


def match_count(tournament: Tournament) -> int:
    """How many matches (byes not counted) the whole tournament will play."""
    players = len(tournament.entrants)
    if isinstance(tournament, Knockout):
        return players - 1
    total = tournament.total_rounds if isinstance(tournament, Swiss | RoundRobin) else 0
    return total * (players // 2)


def random_winners(seed: int) -> Callable[[Round, Pairing], str]:
    """Winners drawn at even odds from ``seed``, one draw per match in order."""
    draw = random.Random(seed)

    def winner_of(_round: Round, pairing: Pairing) -> str:
        return str(pairing.players[draw.randrange(2)])

    return winner_of


class BotMatches:
    """Plays each tournament match out between bots: ``length``-point matches
    (Crawford on, as every tournament match), the dice seeded per match. The bots
    play the checkers and never double."""

    def __init__(
        self,
        players: dict[str, Player],
        length: int,
        seed: int,
        on_match: Callable[[], None] = lambda: None,
    ) -> None:
        if length < 1:
            raise ValueError(f"a match is at least 1 point long, got {length}")
        self.players = players
        self.length = length
        self.seed = seed
        self.on_match = on_match
        self._played = 0

    def __call__(self, played: Round, pairing: Pairing) -> str:
        """Play the match of ``pairing`` and return its winner's name."""
        first, second = str(pairing.players[0]), str(pairing.players[1])
        rules = RoundSettings(self.length).cube_rules
        match = Match(self.length, rules=rules, players=(first, second))
        self._played += 1
        match_seed = self.seed * 1_000_003 + self._played * 1_009
        sides = (self.players[first], self.players[second])
        while not match.is_over():
            game = match.new_game()
            play_one(game, sides, match_seed + len(match.games))
        self.on_match()
        return (first, second)[match.winner or 0]


def engine_players(entrants: tuple[Entrant, ...], seed: int) -> dict[str, Player]:
    """Each bot as an engine player at the level its rating stands for."""
    from backgammon.engine.evaluator import Engine
    from backgammon.engine.players import EnginePlayer

    engine = Engine()
    noise = {rating: level for level, rating in BOT_LEVELS}
    return {
        entrant.name: EnginePlayer.at_level(engine, noise[entrant.rating], seed + index)
        for index, entrant in enumerate(entrants)
    }


def heuristic_players(entrants: tuple[Entrant, ...]) -> dict[str, Player]:
    """Each bot as the hand-written heuristic player (no engine needed)."""
    return {entrant.name: HeuristicPlayer() for entrant in entrants}


def simulation_json(kind: str, seed: int, tournament: Tournament) -> dict[str, Any]:
    """The contract's JSON: ``rounds`` as lists of ``{"players": [A, B], "winner": W}``
    (``B`` ``None`` for a bye) and the final ``standings``."""
    return {
        "format": kind,
        "seed": seed,
        "players": len(tournament.entrants),
        "rounds": [[p.to_json() for p in played.pairings] for played in tournament.rounds],
        "standings": [standing.to_json() for standing in tournament.standings()],
    }
