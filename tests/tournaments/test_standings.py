"""Points and tie-breaks against hand-worked examples."""

from __future__ import annotations

import pytest

from backgammon.tournaments import Entrant, Pairing, Round
from backgammon.tournaments.standings import ranked

SIX = [Entrant(name, 2000.0 - index) for index, name in enumerate("ABCDEF")]


def _round(number: int, *matches: tuple[str, str, str]) -> Round:
    return Round(number, tuple(Pairing((a, b), winner) for a, b, winner in matches))


# Three rounds of six players (winner last):
#   R1: A-D A, B-E E, C-F C    R2: A-E A, C-B B, D-F D    R3: A-C C, E-D E, B-F B
# Points: A 2, B 2, C 2, E 2, D 1, F 0.
# Opponents' points: A: D1 E2 C2 -> Buchholz 5, median (drop 1 and 2) 2, beaten D1 E2 -> SB 3
#                    B: E2 C2 F0 -> 4, median 2, beaten C2 F0 -> 2
#                    C: F0 B2 A2 -> 4, median 2, beaten F0 A2 -> 2
#                    E: B2 A2 D1 -> 5, median 2, beaten B2 D1 -> 3
#                    D: A2 F0 E2 -> 4, median 2, beaten F0 -> 0
#                    F: C2 D1 B2 -> 5, median 2, beaten none -> 0
# Head to head among the players on 2 (A, B, C, E): A beat E, B beat C, C beat A,
# E beat B: one each. D and F are alone on their points: 0.
HAND_WORKED = [
    _round(1, ("A", "D", "A"), ("B", "E", "E"), ("C", "F", "C")),
    _round(2, ("A", "E", "A"), ("C", "B", "B"), ("D", "F", "D")),
    _round(3, ("A", "C", "C"), ("E", "D", "E"), ("B", "F", "B")),
]


def test_swiss_tiebreaks_of_a_hand_worked_event() -> None:
    table = {s.name: s for s in ranked(SIX, HAND_WORKED)}
    expected = {
        "A": (2, 5, 2, 3, 1),
        "B": (2, 4, 2, 2, 1),
        "C": (2, 4, 2, 2, 1),
        "D": (1, 4, 2, 0, 0),
        "E": (2, 5, 2, 3, 1),
        "F": (0, 5, 2, 0, 0),
    }
    for name, (points, buchholz, median, sonneborn, head) in expected.items():
        standing = table[name]
        assert standing.points == points, name
        assert standing.tiebreaks["buchholz"] == buchholz, name
        assert standing.tiebreaks["median_buchholz"] == median, name
        assert standing.tiebreaks["sonneborn_berger"] == sonneborn, name
        assert standing.tiebreaks["head_to_head"] == head, name
    # A and E are level on everything but seed; so are B and C.
    assert [s.name for s in ranked(SIX, HAND_WORKED)] == ["A", "E", "B", "C", "D", "F"]


def test_a_bye_counts_as_a_win_and_adds_nothing_to_buchholz() -> None:
    five = [*SIX[:4], Entrant("G", 1000.0)]
    rounds = [
        Round(1, (Pairing.bye("G"), Pairing(("A", "C"), "A"), Pairing(("B", "D"), "D"))),
        Round(2, (Pairing.bye("C"), Pairing(("A", "D"), "A"), Pairing(("G", "B"), "G"))),
    ]
    # Points: A 2, G 2 (a bye is a win), C 1, D 1, B 0.
    # Buchholz: A: C1 + D1 = 2; G: B0 = 0 (its bye adds nothing).
    table = ranked(five, rounds)
    assert [(s.name, s.points) for s in table][:2] == [("A", 2), ("G", 2)]
    assert table[0].tiebreaks["buchholz"] == 2 and table[1].tiebreaks["buchholz"] == 0
    # C (met A: 2) and D (met B 0 and A 2) both have Buchholz 2 and median 2;
    # Sonneborn-Berger: D beat B (0) -> 0, C beat nobody -> 0; head to head: C and D
    # never met; the better seed (C) is ahead.
    assert [s.name for s in table[2:]] == ["C", "D", "B"]


def test_head_to_head_orders_a_round_robin_tie_before_the_seed() -> None:
    four = SIX[:4]
    rounds = [
        _round(1, ("A", "D", "D"), ("B", "C", "B")),
        _round(2, ("D", "C", "C"), ("A", "B", "A")),
        _round(3, ("B", "D", "D"), ("C", "A", "A")),
    ]
    # A 2, D 2, B 1, C 1; D beat A and B beat C.
    table = ranked(four, rounds, ("head_to_head", "sonneborn_berger"))
    assert [s.name for s in table] == ["D", "A", "B", "C"]
    assert table[0].tiebreaks == {"head_to_head": 1, "sonneborn_berger": 3, "seed": 4}


def test_an_unknown_tiebreak_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown tie-breaks \\['coin'\\]"):
        ranked(SIX, HAND_WORKED, ("coin",))
