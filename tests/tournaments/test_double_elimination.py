"""Double elimination for small fields."""

from __future__ import annotations

import pytest

from backgammon.tournaments import DoubleElimination, Pairing, Round, play_out
from tests.tournaments.conftest import field, random_winners


@pytest.mark.parametrize("players", range(2, 17))
def test_everyone_but_the_champion_is_out_after_two_losses(players: int) -> None:
    for seed in range(3):
        event = DoubleElimination(field(players), seed=seed)
        losses: dict[str, int] = {e.name: 0 for e in event.entrants}
        while (pending := event.next_round()) is not None:
            assert all(losses[name] < 2 for name in pending.players)
            assert len(set(pending.players)) == len(pending.players)
            decide = random_winners(seed * 100 + pending.number)
            results = tuple(
                p if p.is_bye else p.won_by(decide(pending, p)) for p in pending.pairings
            )
            for p in results:
                if p.loser:
                    losses[p.loser] += 1
            event.record(Round(pending.number, results))
        champion = event.champion
        assert champion is not None and losses[champion] <= 1
        assert sorted(losses.values()).count(2) == players - 1
        assert event.standings()[0].name == champion
        matches = sum(1 for r in event.rounds for p in r.pairings if not p.is_bye)
        assert matches in (2 * players - 2, 2 * players - 1)


def test_the_final_is_replayed_when_the_once_beaten_player_wins_it() -> None:
    event = DoubleElimination(field(2))
    assert event.next_round() == Round(1, (Pairing(("p01", "p02")),))
    event.record(Round(1, (Pairing(("p01", "p02"), "p01"),)))
    event.record(Round(2, (Pairing(("p01", "p02"), "p02"),)))  # the reset
    decider = event.next_round()
    assert decider == Round(3, (Pairing(("p01", "p02")),))
    event.record(Round(3, (Pairing(("p01", "p02"), "p02"),)))
    assert event.champion == "p02" and event.next_round() is None


def test_large_fields_are_refused() -> None:
    with pytest.raises(ValueError, match="up to 32 players, got 33"):
        DoubleElimination(field(33))
    play_out(DoubleElimination(field(32)), random_winners(5))
