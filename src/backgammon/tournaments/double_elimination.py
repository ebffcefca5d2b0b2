"""Double elimination for small fields: a player is out after a second loss.

Each round pairs the unbeaten players among themselves (the winners' side) and the
once-beaten among themselves (the losers' side), by seed, top half against bottom half,
avoiding a rematch where another pairing exists; an odd side gives a bye to its best
seed who has not had one. While one side has a single player and the other several, that
player waits. The last unbeaten player meets the last once-beaten player in the final;
if the once-beaten player wins it, both have lost once and one deciding match follows.
"""

from __future__ import annotations

from collections.abc import Iterable

from backgammon.tournaments.records import Entrant, Pairing, Round, Standing
from backgammon.tournaments.tournament import RoundHistory

__all__ = ["MAX_DOUBLE_ELIMINATION_PLAYERS", "DoubleElimination"]

MAX_DOUBLE_ELIMINATION_PLAYERS = 32


class DoubleElimination(RoundHistory):
    """A double-elimination event for 2 to 32 players.

    Standings: the champion first, then by losses (fewer first), then by the round of
    the last match (later first), ties by seed; ``points`` counts wins (byes included);
    the tie-breaks are ``losses``, ``last_round`` and ``seed``.
    """

    format_name = "double-elimination"

    def __init__(self, entrants: Iterable[Entrant], seed: int = 0) -> None:
        """Seed the field by rating (ties drawn from ``seed``).

        Raises:
            ValueError: for fewer than 2 or more than 32 players, or a name twice.
        """
        field = tuple(entrants)
        if len(field) > MAX_DOUBLE_ELIMINATION_PLAYERS:
            raise ValueError(
                f"double elimination is for small fields of up to "
                f"{MAX_DOUBLE_ELIMINATION_PLAYERS} players, got {len(field)}"
            )
        super().__init__(field, seed)

    def losses(self) -> dict[str, int]:
        """Each player's losses so far."""
        counts = {entrant.name: 0 for entrant in self._entrants}
        for played in self._rounds:
            for pairing in played.pairings:
                if pairing.loser is not None:
                    counts[pairing.loser] += 1
        return counts

    def _met(self) -> set[frozenset[str]]:
        return {
            frozenset((str(p.players[0]), str(p.players[1])))
            for played in self._rounds
            for p in played.pairings
            if not p.is_bye
        }

    def _had_bye(self) -> set[str]:
        return {p.players[0] for played in self._rounds for p in played.pairings if p.is_bye}

    @property
    def champion(self) -> str | None:
        """The winner, once only one player has fewer than two losses."""
        alive = [name for name, lost in self.losses().items() if lost < 2]
        return alive[0] if len(alive) == 1 else None

    def next_round(self) -> Round | None:
        """The next round's pairings, or ``None`` once a champion is left."""
        losses = self.losses()
        unbeaten = [e.name for e in self._entrants if losses[e.name] == 0]
        once_beaten = [e.name for e in self._entrants if losses[e.name] == 1]
        if len(unbeaten) + len(once_beaten) <= 1:
            return None
        pairings: tuple[Pairing, ...]
        if len(unbeaten) == 1 and len(once_beaten) == 1:
            pairings = (Pairing((unbeaten[0], once_beaten[0])),)
        elif not unbeaten and len(once_beaten) == 2:
            pairings = (Pairing((once_beaten[0], once_beaten[1])),)
        else:
            met, had_bye = self._met(), self._had_bye()
            pairings = (*_pair_side(unbeaten, met, had_bye), *_pair_side(once_beaten, met, had_bye))
        return Round(len(self._rounds) + 1, pairings)

    def standings(self) -> list[Standing]:
        """Champion first, then fewer losses, later last match, better seed."""
        losses = self.losses()
        wins = dict.fromkeys(losses, 0)
        last = dict.fromkeys(losses, 0)
        for played in self._rounds:
            for pairing in played.pairings:
                for name in pairing.players:
                    if name is not None:
                        last[name] = played.number
                if pairing.winner is not None:
                    wins[pairing.winner] += 1
        seeds = {entrant.name: index for index, entrant in enumerate(self._entrants, 1)}
        order = sorted(seeds, key=lambda n: (losses[n], -last[n], -wins[n], seeds[n]))
        return [
            Standing(n, wins[n], {"losses": losses[n], "last_round": last[n], "seed": seeds[n]})
            for n in order
        ]


def _pair_side(names: list[str], met: set[frozenset[str]], had_bye: set[str]) -> list[Pairing]:
    """Pair one side (names in seed order): a bye for an odd side, then top half
    against bottom half, swapping partners to avoid a rematch where one can."""
    if len(names) <= 1:
        return []
    players = list(names)
    pairings = []
    if len(players) % 2:
        lucky = next((name for name in players if name not in had_bye), players[0])
        players.remove(lucky)
        pairings.append(Pairing.bye(lucky))
    half = len(players) // 2
    top, bottom = players[:half], players[half:]
    for index, player in enumerate(top):
        choice = next(
            (j for j in range(index, half) if frozenset((player, bottom[j])) not in met), index
        )
        bottom[index], bottom[choice] = bottom[choice], bottom[index]
        pairings.append(Pairing((player, bottom[index])))
    return pairings
