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
from numba import njit

from backgammon.rules.movegen import BOARD_SLOTS, COUNT_COLUMN, PACKED_WIDTH

__all__ = ["generate_three_dice_plays"]

_OPP = 26
_BAR = 25
_OFF = 0

Board = npt.NDArray[np.uint8]

_WEIGHTS = np.random.default_rng(0x7AB01A).integers(
    1, np.iinfo(np.uint64).max, size=BOARD_SLOTS, dtype=np.uint64
)
"""Per-slot weights of the boards' linear hash (a constant: Numba freezes it)."""


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
        return bool(board[_opponent_slot(dest, same_direction)] < 2)
    for slot in range(7, 26):
        if board[slot] != 0:
            return False  # bearing off only once every checker is in the last quarter
    if dest == 0:
        return True
    if exact_bearoff:
        return False
    for slot in range(source + 1, 7):  # noqa: SIM110 - a plain loop compiles best in Numba
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
def _board_key(board: Board) -> np.uint64:
    """The linear hash of a board: the sum of its counts by slot weights."""
    value = np.uint64(0)
    for slot in range(BOARD_SLOTS):
        value += _WEIGHTS[slot] * np.uint64(board[slot])
    return value


@njit(cache=True)
def _key_change(source: int, die: int, hit: int, same_direction: bool) -> np.uint64:
    """What a step adds to the board's hash (its undo subtracts it)."""
    dest = source - die
    change = _WEIGHTS[_OFF if dest <= 0 else dest] - _WEIGHTS[source]
    if hit:
        change += _WEIGHTS[_OPP + _BAR] - _WEIGHTS[_opponent_slot(dest, same_direction)]
    return np.uint64(change)


@njit(cache=True)
def _sources(board: Board, bar_first: bool, out: npt.NDArray[np.int64]) -> int:
    """Fill ``out`` with the points holding the mover's checkers, bar first then
    downwards (only the bar while checkers wait there under ``bar_first``); returns
    how many."""
    count = 0
    for source in range(_BAR, 0, -1):
        if board[source] != 0:
            out[count] = source
            count += 1
            if source == _BAR and bar_first:
                break
    return count


@njit(cache=True)
def _same_board(rows: Board, row: int, board: Board) -> bool:
    for slot in range(BOARD_SLOTS):  # noqa: SIM110 - a plain loop compiles best in Numba
        if rows[row, slot] != board[slot]:
            return False
    return True


@njit(cache=True)
def _record(
    board: Board,
    key: np.uint64,
    path: npt.NDArray[np.int64],
    depth: int,
    rows: Board,
    keys: npt.NDArray[np.uint64],
    table: npt.NDArray[np.int64],
    state: npt.NDArray[np.int64],
) -> bool:
    """Keep the sequence in ``path[:depth]`` if it uses the most dice so far and its
    result is new. ``table`` is an open-addressing set of row numbers + 1 by board
    hash (``keys``). Returns False when ``rows`` is full (the caller retries with
    bigger arrays); nothing is kept then."""
    if depth < state[1]:
        return True
    if depth > state[1]:
        state[0] = 0
        state[1] = depth
        table[:] = 0
    mask = table.shape[0] - 1
    slot = np.int64(key & np.uint64(mask))
    while table[slot] != 0:
        known = table[slot] - 1
        if keys[known] == key and _same_board(rows, known, board):
            return True
        slot = (slot + 1) & mask
    count = state[0]
    if count == rows.shape[0]:
        return False
    for column in range(BOARD_SLOTS):
        rows[count, column] = board[column]
    for column in range(BOARD_SLOTS, COUNT_COLUMN):
        rows[count, column] = 0
    for field in range(3 * depth):
        rows[count, BOARD_SLOTS + field] = path[field]
    rows[count, COUNT_COLUMN] = depth
    keys[count] = key
    table[slot] = count + 1
    state[0] = count + 1
    return True


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
    capacity = 256
    while True:
        rows = np.empty((capacity, PACKED_WIDTH), dtype=np.uint8)
        keys = np.empty(capacity, dtype=np.uint64)
        table = np.zeros(4 * capacity, dtype=np.int64)
        state = np.zeros(2, dtype=np.int64)  # rows kept, dice they use
        if _search(
            work,
            die1,
            die2,
            die3,
            rows,
            keys,
            table,
            state,
            bar_first,
            same_direction,
            exact_bearoff,
        ):
            return rows[: state[0]]
        capacity *= 4


@njit(cache=True)
def _search(
    work: Board,
    die1: int,
    die2: int,
    die3: int,
    rows: Board,
    keys: npt.NDArray[np.uint64],
    table: npt.NDArray[np.int64],
    state: npt.NDArray[np.int64],
    bar_first: bool,
    same_direction: bool,
    exact_bearoff: bool,
) -> bool:
    """Every order of the dice, every checker: :func:`_record` each sequence that
    cannot go on. Returns False if ``rows`` ran out (``work`` is restored)."""
    dice = np.array([die1, die2, die3], dtype=np.int64)
    orders = np.array(
        [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]], dtype=np.int64
    )
    path = np.zeros(9, dtype=np.int64)
    fits = True
    key0 = _board_key(work)
    sources = np.empty((3, 26), dtype=np.int64)
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
        for index1 in range(_sources(work, bar_first, sources[0])):
            first = sources[0, index1]
            if not _can_move(work, first, a, bar_first, same_direction, exact_bearoff):
                continue
            hit1 = _apply(work, first, a, same_direction)
            key1 = key0 + _key_change(first, a, hit1, same_direction)
            path[0], path[1], path[2] = first, a, hit1
            moved2 = False
            for index2 in range(_sources(work, bar_first, sources[1])):
                second = sources[1, index2]
                if not _can_move(work, second, b, bar_first, same_direction, exact_bearoff):
                    continue
                moved2 = True
                hit2 = _apply(work, second, b, same_direction)
                key2 = key1 + _key_change(second, b, hit2, same_direction)
                path[3], path[4], path[5] = second, b, hit2
                moved3 = False
                for index3 in range(_sources(work, bar_first, sources[2])):
                    third = sources[2, index3]
                    if not _can_move(work, third, c, bar_first, same_direction, exact_bearoff):
                        continue
                    moved3 = True
                    hit3 = _apply(work, third, c, same_direction)
                    key3 = key2 + _key_change(third, c, hit3, same_direction)
                    path[6], path[7], path[8] = third, c, hit3
                    fits = fits and _record(work, key3, path, 3, rows, keys, table, state)
                    _undo(work, third, c, hit3, same_direction)
                if not moved3:
                    fits = fits and _record(work, key2, path, 2, rows, keys, table, state)
                _undo(work, second, b, hit2, same_direction)
            if not moved2:
                fits = fits and _record(work, key1, path, 1, rows, keys, table, state)
            _undo(work, first, a, hit1, same_direction)
    return fits
