"""Knock-out brackets: seeding, byes, rounds, side events."""

from __future__ import annotations

import pytest

from backgammon.tournaments import (
    Knockout,
    Round,
    bracket_order,
    consolation,
    last_chance,
    play_out,
)
from tests.tournaments.conftest import field, higher_seed_wins, random_winners


@pytest.mark.parametrize("players", range(2, 65))
def test_every_field_size_gets_a_full_bracket_with_byes_to_the_top_seeds(players: int) -> None:
    event = Knockout(field(players), seed=players)
    seeds = {entrant.name: index for index, entrant in enumerate(event.entrants, 1)}
    first = event.next_round()
    assert first is not None
    names = [name for pairing in first.pairings for name in pairing.players if name is not None]
    assert sorted(names) == sorted(seeds)  # everyone appears once in round 1
    rounds = (players - 1).bit_length()
    byes = [pairing.players[0] for pairing in first.pairings if pairing.is_bye]
    assert len(first.pairings) == 2 ** (rounds - 1)
    assert sorted(seeds[name] for name in byes) == list(range(1, 2**rounds - players + 1))
    assert all(pairing.winner == pairing.players[0] for pairing in first.pairings if pairing.is_bye)
    play_out(event, random_winners(players))
    assert len(event.rounds) == event.total_rounds == rounds
    assert [len(r.pairings) for r in event.rounds] == [
        2 ** (rounds - n) for n in range(1, rounds + 1)
    ]
    assert event.next_round() is None
    assert event.champion == event.standings()[0].name
    assert event.standings()[0].points == rounds


def test_bracket_order_keeps_the_top_seeds_apart() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    with pytest.raises(ValueError, match="power-of-two"):
        bracket_order(12)


def test_when_the_better_seed_always_wins_the_semi_finals_are_1_4_and_2_3() -> None:
    event = Knockout(field(13))
    seeds = {entrant.name: index for index, entrant in enumerate(event.entrants, 1)}
    play_out(event, higher_seed_wins(seeds))
    semis = [pairing.players for pairing in event.rounds[-2].pairings]
    assert semis == [("p01", "p04"), ("p02", "p03")]
    assert event.rounds[-1].pairings[0].players == ("p01", "p02")
    assert [s.name for s in event.standings()[:4]] == ["p01", "p02", "p03", "p04"]


def test_seeding_is_by_rating_and_ties_are_drawn_from_the_seed() -> None:
    from backgammon.tournaments import Entrant

    level = [Entrant(f"q{i}", 1500.0) for i in range(8)] + [Entrant("star", 1900.0)]
    orders = {tuple(e.name for e in Knockout(level, seed=s).entrants) for s in range(6)}
    assert all(order[0] == "star" for order in orders)
    assert len(orders) > 1  # the seed draws the order of the equal ratings
    assert Knockout(level, seed=4).entrants == Knockout(level, seed=4).entrants


def test_consolation_takes_the_first_round_losers_and_last_chance_the_consolations() -> None:
    main = Knockout(field(16))
    seeds = {entrant.name: index for index, entrant in enumerate(main.entrants, 1)}
    with pytest.raises(ValueError, match="2 first-round losers"):
        consolation(main)
    play_out(main, higher_seed_wins(seeds))
    side = consolation(main, seed=1)
    assert [e.name for e in side.entrants] == [f"p{i:02d}" for i in range(9, 17)]
    play_out(side, higher_seed_wins(seeds))
    assert side.champion == "p09"
    last = last_chance(side)
    assert [e.name for e in last.entrants] == ["p13", "p14", "p15", "p16"]


def test_a_bye_is_not_a_first_round_loss() -> None:
    main = Knockout(field(5))
    play_out(main, random_winners(3))
    first = main.rounds[0]
    losers = {p.loser for p in first.pairings if p.loser}
    assert {e.name for e in main.first_round_losers()} == losers
    assert len(losers) == 1


def test_a_wrong_result_is_refused_and_changes_nothing() -> None:
    event = Knockout(field(4))
    pending = event.next_round()
    assert pending is not None
    incomplete = Round(1, pending.pairings)
    with pytest.raises(ValueError, match="has no winner"):
        event.record(incomplete)
    swapped = Round(1, tuple(reversed([p.won_by(str(p.players[0])) for p in pending.pairings])))
    with pytest.raises(ValueError, match="pairings are"):
        event.record(swapped)
    with pytest.raises(ValueError, match="next round is round 1"):
        event.record(Round(2, pending.pairings))
    assert event.rounds == ()


def test_a_field_of_one_or_a_name_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 2 players, got 1"):
        Knockout(field(1))
    with pytest.raises(ValueError, match="'p01' is entered twice"):
        Knockout(field(2) + field(1))
