"""The FIBS rating formula, as a pure module: no I/O, no globals, no database.

The server rates a finished match with :func:`rate_match` and stores the two
:class:`Rating` values it returns. The formula is the one FIBS documents under
``help formula`` (http://www.bkgm.com/rgb/rgb.cgi?view+1093):

* ``D`` is the difference of the two ratings and ``n`` the match length.
* The underdog wins an ``n``-point match with ``P_upset = 1 / (10 ** (D * sqrt(n) / 2000) + 1)``.
* The winner gains ``4 * K * sqrt(n) * P`` and the loser loses ``4 * K * sqrt(n) * P``, where
  ``P`` is the chance the loser had of winning (``P_upset`` when the favourite wins,
  ``1 - P_upset`` when the underdog wins) and ``K`` is each player's own experience factor.
* ``K = max(1, 5 - experience / 100)``: a newcomer's rating moves five times as fast, and the
  factor falls to 1 once the player has 400 points of rated matches behind them.
* Everyone starts at 1500 with experience 0; experience is the sum of the lengths of the
  rated matches a player has finished.

Money sessions (unlimited matches) are not rated.

>>> winner, loser = rate_match(Rating(1500.0, 400), Rating(1500.0, 400), 1)
>>> winner, loser
(Rating(rating=1502.0, experience=401), Rating(rating=1498.0, experience=401))
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = [
    "INITIAL_RATING",
    "Rating",
    "experience_factor",
    "rate_match",
    "win_probability",
]

INITIAL_RATING = 1500.0
"""The rating every new FIBS account starts with."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's FIBS rating and experience, as stored between matches.

    ``experience`` is the sum of the lengths of the rated matches the player has finished; it
    sets how fast the rating moves (see :func:`experience_factor`).

    >>> Rating()
    Rating(rating=1500.0, experience=0)
    """

    rating: float = INITIAL_RATING
    experience: int = 0


def _check_length(length: int) -> None:
    if length < 1:
        raise ValueError(
            f"match length {length!r} is not rated: FIBS rates only matches of 1 point or "
            "more (money sessions are unrated)"
        )


def win_probability(rating: float, opponent: float, length: int) -> float:
    """Return the FIBS chance that a player rated ``rating`` wins a ``length``-point match.

    This is FIBS's ``help formula`` estimate, written for either side: with
    ``D = opponent - rating`` the player wins with ``1 / (10 ** (D * sqrt(length) / 2000) + 1)``.
    For the underdog (``D > 0``) this is FIBS's ``P_upset``; for the favourite it is
    ``1 - P_upset``. The two players' chances sum to 1, and a longer match favours the
    favourite more.

    Raises :class:`ValueError` if ``length`` is less than 1.

    >>> win_probability(1500.0, 1500.0, 7)
    0.5
    >>> round(win_probability(1600.0, 1500.0, 1), 4)  # 1 - 1 / (10 ** 0.05 + 1)
    0.5288
    >>> round(win_probability(1500.0, 1600.0, 1), 4)
    0.4712
    """
    _check_length(length)
    difference = opponent - rating
    return 1.0 / (math.pow(10.0, difference * math.sqrt(length) / 2000.0) + 1.0)


def experience_factor(experience: int) -> float:
    """Return FIBS's factor ``K = max(1, 5 - experience / 100)`` for a player's experience.

    The factor multiplies a player's rating change so that newcomers reach their level fast:
    it is 5 at experience 0 and falls to 1 at 400 points of rated matches (FIBS
    ``help formula``; MacFIBS' help writes ``(Ep + N) / 100``, counting the match being rated,
    but this module follows FIBS and uses the experience before the match).

    Raises :class:`ValueError` if ``experience`` is negative.

    >>> experience_factor(0)
    5.0
    >>> experience_factor(250)
    2.5
    >>> experience_factor(400), experience_factor(1000)
    (1.0, 1.0)
    """
    if experience < 0:
        raise ValueError(f"experience {experience!r} is negative: it is a sum of match lengths")
    return max(1.0, 5.0 - experience / 100.0)


def rate_match(winner: Rating, loser: Rating, length: int) -> tuple[Rating, Rating]:
    """Return the new ratings of ``winner`` and ``loser`` after a ``length``-point match.

    Following FIBS ``help formula``: the base change is ``4 * sqrt(length) * P`` with ``P``
    the chance the loser had of winning (see :func:`win_probability`), so beating a stronger
    player pays more than beating a weaker one. The winner gains the base change times their
    own :func:`experience_factor`, the loser loses it times theirs, and both experiences grow
    by ``length``. The total rating is conserved only when both factors are equal.

    Raises :class:`ValueError` if ``length`` is less than 1 (money sessions are not rated).

    >>> rate_match(Rating(1500.0, 0), Rating(1500.0, 500), 1)  # a newcomer moves 5 times as fast
    (Rating(rating=1510.0, experience=1), Rating(rating=1498.0, experience=501))
    >>> rate_match(Rating(), Rating(), 0)
    Traceback (most recent call last):
        ...
    ValueError: match length 0 is not rated: FIBS rates only matches of 1 point or more (money sessions are unrated)
    """  # noqa: E501
    _check_length(length)
    loser_chance = win_probability(loser.rating, winner.rating, length)
    base = 4.0 * math.sqrt(length) * loser_chance
    new_winner = Rating(
        rating=winner.rating + base * experience_factor(winner.experience),
        experience=winner.experience + length,
    )
    new_loser = Rating(
        rating=loser.rating - base * experience_factor(loser.experience),
        experience=loser.experience + length,
    )
    return new_winner, new_loser
