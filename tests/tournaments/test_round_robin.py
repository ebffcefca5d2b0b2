"""Round robin by Berger tables."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from backgammon.tournaments import RoundRobin, berger_tables, play_out
from tests.tournaments.conftest import field, random_winners


@pytest.mark.parametrize("players", range(2, 21))
def test_each_pair_meets_once_and_an_odd_field_has_one_bye_each(players: int) -> None:
    event = RoundRobin(field(players), seed=players)
    play_out(event, random_winners(players))
    names = [entrant.name for entrant in event.entrants]
    assert len(event.rounds) == (players if players % 2 else players - 1)
    meetings = Counter(
        frozenset(map(str, p.players)) for r in event.rounds for p in r.pairings if not p.is_bye
    )
    assert set(meetings) == {frozenset(pair) for pair in combinations(names, 2)}
    assert set(meetings.values()) == {1}
    for played in event.rounds:
        assert sorted(played.players) == sorted(names)
    byes = Counter(p.players[0] for r in event.rounds for p in r.pairings if p.is_bye)
    assert byes == (Counter(names) if players % 2 else Counter())
    assert sum(s.points for s in event.standings()) == sum(len(r.pairings) for r in event.rounds)


def test_berger_tables_for_six_players_match_the_published_table() -> None:
    # FIDE Handbook C.05 Annex 1, Berger table for 5 or 6 players.
    rounds = berger_tables(["1", "2", "3", "4", "5", "6"])
    published = [
        "1-6 2-5 3-4",
        "6-4 5-3 1-2",
        "2-6 3-1 4-5",
        "6-5 1-4 2-3",
        "3-6 4-2 5-1",
    ]
    assert [" ".join("-".join(map(str, p.players)) for p in r) for r in rounds] == published


def test_a_round_robin_may_stop_early_but_not_run_long() -> None:
    event = RoundRobin(field(6), rounds=2)
    play_out(event, random_winners(1))
    assert len(event.rounds) == 2
    with pytest.raises(ValueError, match="a round robin of 6 players has 1 to 5 rounds, not 6"):
        RoundRobin(field(6), rounds=6)
