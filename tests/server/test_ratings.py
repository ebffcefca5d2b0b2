"""Tests of the FIBS rating formula (FIBS ``help formula``), with figures worked by hand."""

from __future__ import annotations

import math

import pytest

from backgammon.server.social.ratings import (
    INITIAL_RATING,
    Rating,
    experience_factor,
    rate_match,
    win_probability,
)

VETERAN = 400  # experience at which K = max(1, 5 - 400/100) = 1


def test_new_players_start_at_1500_with_no_experience() -> None:
    assert INITIAL_RATING == 1500.0
    assert Rating() == Rating(rating=1500.0, experience=0)


def test_rating_is_frozen_and_hashable() -> None:
    rating = Rating(1600.0, 20)
    with pytest.raises(AttributeError):
        rating.rating = 1700.0  # type: ignore[misc]
    assert hash(rating) == hash(Rating(1600.0, 20))


def test_equal_veterans_one_point_match() -> None:
    # D = 0, so P = 1 / (10**0 + 1) = 1/2; change = 4 * sqrt(1) * 1/2 * K(=1) = 2.0.
    winner, loser = rate_match(Rating(1500.0, VETERAN), Rating(1500.0, VETERAN), 1)
    assert winner == Rating(1502.0, VETERAN + 1)
    assert loser == Rating(1498.0, VETERAN + 1)


def test_newcomer_gains_five_times_as_much() -> None:
    # The newcomer's K = max(1, 5 - 0/100) = 5: gain = 4 * 1 * 1/2 * 5 = 10.0.
    # The veteran's K = 1: loss = 4 * 1 * 1/2 * 1 = 2.0.
    winner, loser = rate_match(Rating(1500.0, 0), Rating(1500.0, VETERAN), 1)
    assert winner == Rating(1510.0, 1)
    assert loser == Rating(1498.0, VETERAN + 1)


def test_newcomer_loses_five_times_as_much() -> None:
    winner, loser = rate_match(Rating(1500.0, VETERAN), Rating(1500.0, 0), 1)
    assert winner.rating == 1502.0
    assert loser.rating == 1490.0


@pytest.mark.parametrize(
    ("experience", "factor"),
    [(0, 5.0), (1, 4.99), (100, 4.0), (250, 2.5), (399, 1.01), (400, 1.0), (5000, 1.0)],
)
def test_experience_factor(experience: int, factor: float) -> None:
    # K = max(1, 5 - experience / 100).
    assert experience_factor(experience) == pytest.approx(factor)


def test_negative_experience_is_rejected() -> None:
    with pytest.raises(ValueError, match="negative"):
        experience_factor(-1)


def test_worked_upset_in_a_25_point_match() -> None:
    # 1900 against 1500: D = 400, n = 25, so D * sqrt(n) / 2000 = 400 * 5 / 2000 = 1 and
    # P_upset = 1 / (10**1 + 1) = 1/11.
    assert win_probability(1500.0, 1900.0, 25) == pytest.approx(1 / 11)
    assert win_probability(1900.0, 1500.0, 25) == pytest.approx(10 / 11)
    # Favourite wins: both move by 4 * sqrt(25) * 1/11 = 20/11 ~ 1.818.
    fav, dog = rate_match(Rating(1900.0, VETERAN), Rating(1500.0, VETERAN), 25)
    assert fav.rating == pytest.approx(1900.0 + 20 / 11)
    assert dog.rating == pytest.approx(1500.0 - 20 / 11)
    # Underdog wins: both move by 4 * 5 * 10/11 = 200/11 ~ 18.18, ten times as much.
    dog, fav = rate_match(Rating(1500.0, VETERAN), Rating(1900.0, VETERAN), 25)
    assert dog.rating == pytest.approx(1500.0 + 200 / 11)
    assert fav.rating == pytest.approx(1900.0 - 200 / 11)
    assert dog.experience == fav.experience == VETERAN + 25


def test_worked_one_point_match_100_apart() -> None:
    # D = 100, n = 1: 10**(100 / 2000) = 10**0.05 ~ 1.12202, P_upset = 1 / 2.12202 ~ 0.47125.
    p_upset = 1 / (10**0.05 + 1)
    assert p_upset == pytest.approx(0.47125, abs=1e-5)
    assert win_probability(1500.0, 1600.0, 1) == pytest.approx(p_upset)
    # Favourite wins: +4 * 0.47125 ~ 1.885. Underdog wins: +4 * (1 - 0.47125) ~ 2.115.
    fav, _ = rate_match(Rating(1600.0, VETERAN), Rating(1500.0, VETERAN), 1)
    dog, _ = rate_match(Rating(1500.0, VETERAN), Rating(1600.0, VETERAN), 1)
    assert fav.rating - 1600.0 == pytest.approx(1.885, abs=1e-3)
    assert dog.rating - 1500.0 == pytest.approx(2.115, abs=1e-3)


def test_favourite_gains_less_than_underdog_would() -> None:
    for length in (1, 3, 7, 11):
        fav, _ = rate_match(Rating(1700.0, VETERAN), Rating(1500.0, VETERAN), length)
        dog, _ = rate_match(Rating(1500.0, VETERAN), Rating(1700.0, VETERAN), length)
        assert 0 < fav.rating - 1700.0 < dog.rating - 1500.0


@pytest.mark.parametrize(
    ("rating", "opponent", "length"),
    [(1500.0, 1500.0, 1), (1620.5, 1433.0, 5), (1200.0, 2100.0, 17), (1800.0, 1790.0, 64)],
)
def test_both_win_probabilities_sum_to_one(rating: float, opponent: float, length: int) -> None:
    total = win_probability(rating, opponent, length) + win_probability(opponent, rating, length)
    assert total == pytest.approx(1.0)


def test_longer_matches_favour_the_favourite_more() -> None:
    chances = [win_probability(1600.0, 1500.0, n) for n in (1, 3, 5, 7, 11, 25)]
    assert chances == sorted(chances)
    assert len(set(chances)) == len(chances)
    assert all(0.5 < p < 1.0 for p in chances)


def test_equal_ratings_are_even_at_any_length() -> None:
    for length in (1, 2, 9, 21):
        assert win_probability(1700.0, 1700.0, length) == 0.5


@pytest.mark.parametrize(
    ("winner", "loser", "length"),
    [
        (Rating(1500.0, 0), Rating(1500.0, 0), 1),  # both K = 5
        (Rating(1650.0, 120), Rating(1480.0, 120), 7),  # both K = 3.8
        (Rating(1300.0, 900), Rating(1850.0, 400), 13),  # both K = 1
    ],
)
def test_total_rating_conserved_with_equal_factors(
    winner: Rating, loser: Rating, length: int
) -> None:
    new_winner, new_loser = rate_match(winner, loser, length)
    assert new_winner.rating + new_loser.rating == pytest.approx(winner.rating + loser.rating)


def test_change_scales_with_sqrt_length_for_equal_players() -> None:
    # D = 0 so P = 1/2 at every length: change = 4 * sqrt(n) * 1/2 = 2 * sqrt(n).
    for length in (1, 4, 9, 16):
        winner, _ = rate_match(Rating(1500.0, VETERAN), Rating(1500.0, VETERAN), length)
        assert winner.rating - 1500.0 == pytest.approx(2 * math.sqrt(length))


@pytest.mark.parametrize("length", [0, -1, -7])
def test_unrated_lengths_are_rejected(length: int) -> None:
    with pytest.raises(ValueError, match="not rated"):
        rate_match(Rating(), Rating(), length)
    with pytest.raises(ValueError, match="not rated"):
        win_probability(1500.0, 1500.0, length)
