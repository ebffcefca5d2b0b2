"""Game plans: a rough sort of positions by what the game is about.

The engine's :class:`~backgammon.engine.evaluator.PositionClass` says which network
serves a position (race, contact, crashed); a *plan* says what kind of contact it is,
so that errors, benchmarks and training positions can be counted by plan (where the
engine loses: races, blitzes, "other contact"), and so that a plan may have a network
of its own (:attr:`~backgammon.engine.network.Networks.plans`). :func:`plan_of` gives
the first plan of :class:`Plan` that either side fits; :func:`plan_index_of_board` is
the same rule as a Numba kernel over the engine's 52-slot boards, for the evaluator.

>>> plan_of(Position.initial()).label  # both sides hold their 24-point
'deep anchor'
"""

from __future__ import annotations

from enum import Enum

import numpy as np
import numpy.typing as npt
from numba import njit

from backgammon.rules.position import Position

__all__ = ["PLANS", "Plan", "has_prime", "plan_index_of_board", "plan_indexes", "plan_of"]

_SLOTS = 26  # a side's slots in a board: borne off (0), points 1-24, bar (25)
_PIN_MASK = 0x7F  # a stored count without Plakoto's pin mark


class Plan(Enum):
    """A game plan; the value is its two-letter code (the corpus files use it), the
    :attr:`label` its name in tables.

    * ``RACE``: no contact.
    * ``BACK_GAME``: a side holds two or more points in the other's home board (its
      19-24) and trails the race by 30 pips or more.
    * ``BLITZ``: a side is on the bar against three or more closed home points.
    * ``PRIME``: a side has four or more made points in a row with an enemy checker
      behind them.
    * ``HOLDING``: a side holds an anchor on its 18-21 (the other's 4- to 7-point).
    * ``DEEP_ANCHOR``: a side holds one on its 22-24.
    * ``OTHER_CONTACT``: contact otherwise.
    """

    RACE = "ra"
    BACK_GAME = "bg"
    BLITZ = "bz"
    PRIME = "pr"
    HOLDING = "ho"
    DEEP_ANCHOR = "da"
    OTHER_CONTACT = "oc"

    @property
    def label(self) -> str:
        """The plan's name in tables (``"back game"``)."""
        return self.name.lower().replace("_", " ")


def has_prime(mine: tuple[int, ...], theirs: tuple[int, ...]) -> bool:
    """Whether ``mine`` has four or more made points in a row with one of ``theirs``
    behind them (each side's counts in its own numbering, the bar 25: ``theirs``'s
    point ``25 - p`` is our ``p``)."""
    board = np.zeros(2 * _SLOTS, dtype=np.uint8)
    board[:_SLOTS] = mine[:_SLOTS]
    board[_SLOTS:] = theirs[:_SLOTS]
    return bool(_primes(board, 0))


PLANS: tuple[Plan, ...] = tuple(Plan)
"""The plans in order: :func:`plan_index_of_board` answers an index into it."""


@njit(cache=True)
def _count(board: npt.NDArray[np.uint8], side: int, point: int) -> int:
    return int(board[side * _SLOTS + point] & _PIN_MASK)


@njit(cache=True)
def _made_in(board: npt.NDArray[np.uint8], side: int, first: int, last: int) -> int:
    """How many of ``side``'s points ``first``..``last`` it has made (two or more)."""
    made = 0
    for point in range(first, last + 1):
        if _count(board, side, point) >= 2:
            made += 1
    return made


@njit(cache=True)
def _primes(board: npt.NDArray[np.uint8], side: int) -> bool:
    """Whether ``side`` of a board primes the other (the rule :func:`has_prime` states)."""
    run = 0
    for point in range(1, 25):
        run = run + 1 if _count(board, side, point) >= 2 else 0
        if run >= 4:
            for below in range(1, point - run + 1):
                if _count(board, 1 - side, 25 - below):
                    return True
    return False


@njit(cache=True)
def plan_index_of_board(board: npt.NDArray[np.uint8]) -> int:
    """The index in :data:`PLANS` of the plan of one 52-slot board (the side on roll
    first; :func:`plan_of`'s rule, as a Numba kernel callable from other kernels)."""
    back = their_back = pips = their_pips = 0  # scalars: no list to allocate per call
    for point in range(1, _SLOTS):
        count = _count(board, 0, point)
        if count:
            back = point
            pips += point * count
        count = _count(board, 1, point)
        if count:
            their_back = point
            their_pips += point * count
    if back + their_back <= 25:
        return 0  # RACE
    if _made_in(board, 0, 19, 24) >= 2 and pips - their_pips >= 30:
        return 1  # BACK_GAME
    if _made_in(board, 1, 19, 24) >= 2 and their_pips - pips >= 30:
        return 1
    for side in range(2):
        if _count(board, side, 25) and _made_in(board, 1 - side, 1, 6) >= 3:
            return 2  # BLITZ
    for side in range(2):
        if _primes(board, side):
            return 3  # PRIME
    if _made_in(board, 0, 18, 21) or _made_in(board, 1, 18, 21):
        return 4  # HOLDING
    if _made_in(board, 0, 22, 24) or _made_in(board, 1, 22, 24):
        return 5  # DEEP_ANCHOR
    return 6  # OTHER_CONTACT


@njit(cache=True)
def _plan_rows(boards: npt.NDArray[np.uint8], rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int8]:
    out = np.empty(rows.shape[0], dtype=np.int8)
    for k in range(rows.shape[0]):
        out[k] = plan_index_of_board(boards[rows[k]])
    return out


def plan_indexes(
    boards: npt.NDArray[np.uint8], rows: npt.NDArray[np.int64] | None = None
) -> npt.NDArray[np.int8]:
    """The :data:`PLANS` indexes of ``boards[rows]`` (``uint8[n, 52]``, C-ordered;
    every row when ``rows`` is ``None``), as ``int8``."""
    if rows is None:
        rows = np.arange(boards.shape[0], dtype=np.int64)
    return _plan_rows(boards, rows)


def plan_of(position: Position) -> Plan:
    """The first :class:`Plan` that either side of ``position`` fits."""
    board = np.frombuffer(bytearray(position._data), dtype=np.uint8)
    return PLANS[plan_index_of_board(board)]
