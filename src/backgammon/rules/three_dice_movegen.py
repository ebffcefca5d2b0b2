"""Legal plays of a throw of three dice (tabula), from a Numba kernel.

Tabula throws three dice; each die moves one checker once, and equal numbers are
not doubled. The kernel tries every order of the three dice (the distinct ones) and
every checker for each, keeps the sequences that use the most dice ("a player must
use the whole of his throw if this is possible ... any part of a throw which is
unplayable is lost": no rule prefers one die to another when not all can be used),
and merges sequences with the same resulting position. Boards and the packed rows
it returns have the layout of :mod:`backgammon.rules.movegen` (52 slots; steps as
``(source, die, hit)``; the count of steps at ``COUNT_COLUMN``), so
:func:`~backgammon.rules.play.legal_plays` wraps them as it wraps two-dice plays.

The two-dice kernels are untouched: a variant reaches this module only when its
``dice`` is 3.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.typed import Dict

from backgammon.rules.movegen import BOARD_SLOTS, COUNT_COLUMN, PACKED_WIDTH

__all__ = ["generate_three_dice_plays"]

_OPP = 26
_BAR = 25
_OFF = 0

Board = npt.NDArray[np.uint8]


@njit(cache=True)
def _opponent_slot(point: int, same_direction: bool) -> int:
    """The opponent's slot for our point ``point``."""
    if same_direction:
        return _OPP + point
    return _OPP + 25 - point


@njit(cache=True)
def _can_move(
    board: Board,
    source: int,
    die: int,
    bar_first: bool,
    same_direction: bool,
    exact_bearoff: bool,
) -> bool:
    """Whether a checker of the side on roll may move from ``source`` by ``die``."""
    if board[source] == 0:
        return False
    if bar_first and board[_BAR] != 0 and source != _BAR:
        return False
    dest = source - die
    if dest >= 1:
        return board[_opponent_slot(dest, same_direction)] < 2
    for slot in range(7, 26):
        if board[slot] != 0:
            return False  # bearing off only once every checker is in the last quarter
    if dest == 0:
        return True
    if exact_bearoff:
        return False
    for slot in range(source + 1, 7):
        if board[slot] != 0:
            return False  # a higher number bears off only the rearmost checker
    return True


@njit(cache=True)
def _apply(board: Board, source: int, die: int, same_direction: bool) -> int:
    """Move one checker in place; returns 1 if it hit a blot, else 0."""
    board[source] -= 1
    dest = source - die
    if dest <= 0:
        board[_OFF] += 1
        return 0
    board[dest] += 1
    opp_slot = _opponent_slot(dest, same_direction)
    if board[opp_slot] == 1:
        board[opp_slot] = 0
        board[_OPP + _BAR] += 1
        return 1
    return 0


@njit(cache=True)
def _undo(board: Board, source: int, die: int, hit: int, same_direction: bool) -> None:
    """Take back :func:`_apply`."""
    board[source] += 1
    dest = source - die
    if dest <= 0:
        board[_OFF] -= 1
        return
    board[dest] -= 1
    if hit:
        board[_opponent_slot(dest, same_direction)] = 1
        board[_OPP + _BAR] -= 1


@njit(cache=True)
def _board_key(board: Board) -> np.int64:
    value = np.uint64(1469598103934665603)
    for slot in range(BOARD_SLOTS):
        value = (value ^ np.uint64(board[slot])) * np.uint64(1099511628211)
    return np.int64(value & np.uint64(0x7FFFFFFFFFFFFFFF))


@njit(cache=True)
def _record(
    board: Board,
    path: npt.NDArray[np.int64],
    depth: int,
    rows: Board,
    state: npt.NDArray[np.int64],
    index: Dict,  # type: ignore[type-arg]
) -> Board:
    """Keep the sequence in ``path[:depth]`` if it uses the most dice so far and its
    result is new; returns ``rows`` (a bigger copy when it was full)."""
    if depth < state[1]:
        return rows
    if depth > state[1]:
        state[0] = 0
        state[1] = depth
        index.clear()
    key = _board_key(board)
    if key in index:
        known = index[key]
        same = True
        for slot in range(BOARD_SLOTS):
            if rows[known, slot] != board[slot]:
                same = False
                break
        if same:
            return rows
        for other in range(state[0]):  # a hash collision: look through every row
            same = True
            for slot in range(BOARD_SLOTS):
                if rows[other, slot] != board[slot]:
                    same = False
                    break
            if same:
                return rows
    count = state[0]
    if count == rows.shape[0]:
        bigger = np.zeros((2 * count, PACKED_WIDTH), dtype=np.uint8)
        bigger[:count] = rows
        rows = bigger
    for slot in range(BOARD_SLOTS):
        rows[count, slot] = board[slot]
    for column in range(BOARD_SLOTS, COUNT_COLUMN):
        rows[count, column] = 0
    for field in range(3 * depth):
        rows[count, BOARD_SLOTS + field] = path[field]
    rows[count, COUNT_COLUMN] = depth
    index[key] = count
    state[0] = count + 1
    return rows


@njit(cache=True)
def generate_three_dice_plays(
    board: Board,
    die1: int,
    die2: int,
    die3: int,
    bar_first: bool,
    same_direction: bool,
    exact_bearoff: bool,
) -> Board:
    """Every legal play of the throw ``die1``-``die2``-``die3`` from ``board``,
    packed one per row as :func:`~backgammon.rules.movegen.generate_plays_packed`
    packs them (at most three steps). No rows means no checker can move.

    With ``bar_first`` checkers off the board (slot 25) enter before any other
    checker moves; with ``same_direction`` both sides move the same way round (the
    opponent's point ``q`` is our ``q``, as in tabula); with ``exact_bearoff`` a
    checker bears off only with the exact number. ``board`` is unchanged.
    """
    work = board.copy()
    dice = np.array([die1, die2, die3], dtype=np.int64)
    orders = np.array(
        [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]], dtype=np.int64
    )
    rows = np.zeros((64, PACKED_WIDTH), dtype=np.uint8)
    state = np.zeros(2, dtype=np.int64)  # rows kept, dice they use
    index = Dict.empty(key_type=types.int64, value_type=types.int64)
    path = np.zeros(9, dtype=np.int64)
    for order in range(6):
        a = dice[orders[order, 0]]
        b = dice[orders[order, 1]]
        c = dice[orders[order, 2]]
        repeated = False
        for earlier in range(order):
            if (
                dice[orders[earlier, 0]] == a
                and dice[orders[earlier, 1]] == b
                and dice[orders[earlier, 2]] == c
            ):
                repeated = True
        if repeated:
            continue
        for first in range(_BAR, 0, -1):
            if not _can_move(work, first, a, bar_first, same_direction, exact_bearoff):
                continue
            hit1 = _apply(work, first, a, same_direction)
            path[0], path[1], path[2] = first, a, hit1
            moved2 = False
            for second in range(_BAR, 0, -1):
                if not _can_move(work, second, b, bar_first, same_direction, exact_bearoff):
                    continue
                moved2 = True
                hit2 = _apply(work, second, b, same_direction)
                path[3], path[4], path[5] = second, b, hit2
                moved3 = False
                for third in range(_BAR, 0, -1):
                    if not _can_move(work, third, c, bar_first, same_direction, exact_bearoff):
                        continue
                    moved3 = True
                    hit3 = _apply(work, third, c, same_direction)
                    path[6], path[7], path[8] = third, c, hit3
                    rows = _record(work, path, 3, rows, state, index)
                    _undo(work, third, c, hit3, same_direction)
                if not moved3:
                    rows = _record(work, path, 2, rows, state, index)
                _undo(work, second, b, hit2, same_direction)
            if not moved2:
                rows = _record(work, path, 1, rows, state, index)
            _undo(work, first, a, hit1, same_direction)
    return rows[: state[0]]
