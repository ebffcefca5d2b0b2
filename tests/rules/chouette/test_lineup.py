"""The chouette's lineup: who may sit, and the rotation after each game."""

from __future__ import annotations

from decimal import Decimal

import pytest

from backgammon.rules.chouette import Chouette, ChouetteRules, rotate, validate_lineup


def test_a_winning_box_keeps_the_box_and_the_losing_captain_goes_to_the_back() -> None:
    assert rotate(("A", "B", "C", "D", "E"), captain_won=False) == ("A", "C", "D", "E", "B")


def test_a_winning_captain_takes_the_box_and_the_old_box_goes_to_the_back() -> None:
    assert rotate(("A", "B", "C", "D", "E"), captain_won=True) == ("B", "C", "D", "E", "A")


def test_three_players_rotate_through_every_seat() -> None:
    lineup: tuple[str, ...] = ("A", "B", "C")
    seen = {lineup}
    for _ in range(2):
        lineup = rotate(lineup, captain_won=True)
        seen.add(lineup)
    assert {seats[0] for seats in seen} == {"A", "B", "C"}


@pytest.mark.parametrize(
    ("players", "words"),
    [
        (["A", "B"], "at least 3 players"),
        (["A", "B", "A"], "repeated: A"),
        (["A", "B", "C D"], "without spaces"),
        (["A", "B", ""], "non-empty"),
        (["A", "B", "x,y"], "without spaces"),
        (["A", "B", "Result"], "word of the session record"),
        (["A", "B", 3], "non-empty text"),
    ],
)
def test_bad_lineups_are_refused(players: list[str], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        validate_lineup(players)
    with pytest.raises(ValueError, match=words):
        Chouette(players)


@pytest.mark.parametrize("stake", [Decimal(-1), Decimal("NaN"), 0.5, True])
def test_bad_stakes_are_refused(stake: object) -> None:
    with pytest.raises(ValueError, match="stake"):
        ChouetteRules(stake=stake)  # type: ignore[arg-type]


def test_an_integer_stake_becomes_a_decimal() -> None:
    assert ChouetteRules(stake=2).stake == Decimal(2)  # type: ignore[arg-type]
