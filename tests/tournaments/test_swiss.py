"""Swiss pairing: score groups, no rematch while avoidable, byes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from backgammon.tournaments import Round, Swiss, max_swiss_rounds, play_out
from tests.tournaments.conftest import field, higher_seed_wins, random_winners


def _met_before(rounds: tuple[Round, ...]) -> set[frozenset[str]]:
    return {frozenset(map(str, p.players)) for r in rounds for p in r.pairings if not p.is_bye}


def _rematches(played: Round, met: set[frozenset[str]]) -> int:
    return sum(1 for p in played.pairings if not p.is_bye and frozenset(map(str, p.players)) in met)


def _perfect_pairings(players: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for index, partner in enumerate(rest):
        for others in _perfect_pairings(rest[:index] + rest[index + 1 :]):
            yield [(first, partner), *others]


def _fewest_rematches(players: list[str], rounds: tuple[Round, ...]) -> int:
    """Brute force: the fewest rematches any pairing of the next round can have, the
    bye going to a player who has not had one."""
    met = _met_before(rounds)
    had_bye = {p.players[0] for r in rounds for p in r.pairings if p.is_bye}
    byes: list[str | None] = [None]
    if len(players) % 2:
        byes = [name for name in players if name not in had_bye] or list(players)
    best = len(players)
    for bye in byes:
        rest = [name for name in players if name != bye]
        for pairing in _perfect_pairings(rest):
            best = min(best, sum(1 for a, b in pairing if frozenset((a, b)) in met))
    return best


def _play_checking_each_round(event: Swiss, seed: int, brute_force: bool) -> None:
    decide = random_winners(seed)
    names = [entrant.name for entrant in event.entrants]
    while (pending := event.next_round()) is not None:
        assert sorted(pending.players) == sorted(names)  # everyone once a round
        met = _met_before(event.rounds)
        had_bye = {p.players[0] for r in event.rounds for p in r.pairings if p.is_bye}
        byes = [p.players[0] for p in pending.pairings if p.is_bye]
        assert len(byes) == len(names) % 2
        if byes and len(had_bye) < len(names):
            assert byes[0] not in had_bye
        # Dirac: while everyone has met fewer than half the others, a pairing
        # without a rematch always exists.
        if len(event.rounds) < (len(names) - len(byes)) // 2:
            assert _rematches(pending, met) == 0
        if brute_force:
            assert _rematches(pending, met) == _fewest_rematches(names, event.rounds)
        results = tuple(p if p.is_bye else p.won_by(decide(pending, p)) for p in pending.pairings)
        event.record(Round(pending.number, results))


@pytest.mark.parametrize("players", range(5, 41))
def test_as_many_rounds_as_fit_without_an_avoidable_rematch(players: int) -> None:
    event = Swiss(field(players), rounds=max_swiss_rounds(players), seed=players)
    _play_checking_each_round(event, players, brute_force=False)
    assert len(event.rounds) == max_swiss_rounds(players)


@pytest.mark.parametrize(("players", "seed"), [(p, s) for p in range(5, 11) for s in range(3)])
def test_rematches_are_the_fewest_a_brute_force_search_finds(players: int, seed: int) -> None:
    event = Swiss(field(players), rounds=max_swiss_rounds(players), seed=seed)
    _play_checking_each_round(event, seed * 31 + players, brute_force=True)


def test_round_one_is_top_half_against_bottom_half_and_round_two_pairs_by_score() -> None:
    event = Swiss(field(8), rounds=3)
    seeds = {entrant.name: index for index, entrant in enumerate(event.entrants, 1)}
    first = event.next_round()
    assert first is not None
    assert [p.players for p in first.pairings] == [
        ("p01", "p05"),
        ("p02", "p06"),
        ("p03", "p07"),
        ("p04", "p08"),
    ]
    event.record(Round(1, tuple(p.won_by(str(p.players[0])) for p in first.pairings)))
    second = event.next_round()
    assert second is not None
    assert [p.players for p in second.pairings] == [
        ("p01", "p03"),
        ("p02", "p04"),
        ("p05", "p07"),
        ("p06", "p08"),
    ]
    play_out(event, higher_seed_wins(seeds))
    assert event.standings()[0].name == "p01"
    assert event.standings()[0].points == 3


def test_an_odd_field_gives_the_bye_to_the_lowest_ranked_player_without_one() -> None:
    event = Swiss(field(5), rounds=5)
    seeds = {entrant.name: index for index, entrant in enumerate(event.entrants, 1)}
    byes = []
    while (pending := event.next_round()) is not None:
        byes.append(pending.pairings[0].players[0])
        assert pending.pairings[0].is_bye
        results = tuple(
            p if p.is_bye else p.won_by(higher_seed_wins(seeds)(pending, p))
            for p in pending.pairings
        )
        event.record(Round(pending.number, results))
    assert byes[0] == "p05"  # round 1: everyone on 0, the lowest seed
    assert sorted(byes) == ["p01", "p02", "p03", "p04", "p05"]  # one bye each
    assert _rematches_total(event.rounds) == 0


def _rematches_total(rounds: tuple[Round, ...]) -> int:
    seen: set[frozenset[str]] = set()
    count = 0
    for r in rounds:
        for p in r.pairings:
            if not p.is_bye:
                key = frozenset(map(str, p.players))
                count += key in seen
                seen.add(key)
    return count


def test_pairings_are_reproducible_from_the_seed() -> None:
    def run(seed: int) -> list[list[tuple[str, str | None]]]:
        event = Swiss(field(12), rounds=5, seed=seed)
        play_out(event, random_winners(seed))
        return [[p.players for p in r.pairings] for r in event.rounds]

    assert run(7) == run(7)
    assert run(7) != run(8)


@pytest.mark.parametrize(("players", "rounds"), [(6, 6), (6, 0), (7, 8)])
def test_too_many_or_no_rounds_are_refused(players: int, rounds: int) -> None:
    with pytest.raises(ValueError, match=f"a Swiss of {players} players has 1 to"):
        Swiss(field(players), rounds=rounds)
