"""Legal-play generation: the Numba kernel behind :meth:`Position.legal_plays`.

Boards here are ``uint8`` arrays of 52 slots, the layout of :class:`Position`:
slots ``0..25`` are the side on roll (0 = borne off, 1..24 = its points, 25 = bar),
slots ``26..51`` the opponent in its own numbering (so the player's point ``p`` is the
opponent's slot ``26 + 25 - p``).

The kernel enumerates every way to play the dice by depth-first search, keeps the
sequences that use the most dice (and, when only one die of a non-double can be used,
the larger one if it can be played), and merges sequences with the same resulting
position. Each play is returned as its resulting board (still seen from the mover) and
its steps ``(source, die, hit)``. For doubles, a step never starts above the previous
step's source: any set of moves can be played in that order, so no result is lost.

These functions take and return arrays; :mod:`backgammon.rules.play` wraps them in
value objects.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

__all__ = [
    "BOARD_SLOTS",
    "MAX_STEPS",
    "STEP_FIELDS",
    "apply_steps",
    "count_plays_batch",
    "generate_plays",
]

BOARD_SLOTS = 52
OPP = 26
BAR = 25
OFF = 0
MAX_STEPS = 4
STEP_FIELDS = 3  # source, die, hit
_INITIAL_CAPACITY = 64

Board = npt.NDArray[np.uint8]


@njit(cache=True, inline="always")
def _all_home(board: Board) -> bool:
    for slot in range(7, 26):
        if board[slot] != 0:
            return False
    return True


@njit(cache=True, inline="always")
def _can_move(board: Board, source: int, die: int) -> bool:
    if board[source] == 0:
        return False
    if source != BAR and board[BAR] != 0:
        return False
    dest = source - die
    if dest >= 1:
        return bool(board[OPP + 25 - dest] < 2)
    if not _all_home(board):
        return False
    if dest == 0:
        return True
    for higher in range(source + 1, 7):
        if board[higher] != 0:
            return False
    return True


@njit(cache=True, inline="always")
def _apply(board: Board, out: Board, source: int, die: int) -> int:
    """Copy ``board`` into ``out`` with one checker moved; return 1 if it hit."""
    for slot in range(BOARD_SLOTS):
        out[slot] = board[slot]
    out[source] -= 1
    dest = source - die
    if dest <= 0:
        out[OFF] += 1
        return 0
    out[dest] += 1
    opp_slot = OPP + 25 - dest
    if out[opp_slot] == 1:
        out[opp_slot] = 0
        out[OPP + BAR] += 1
        return 1
    return 0


@njit(cache=True, inline="always")
def _hash(board: Board) -> np.uint64:
    value = np.uint64(1469598103934665603)
    for slot in range(BOARD_SLOTS):
        value = (value ^ np.uint64(board[slot])) * np.uint64(1099511628211)
    return value


@njit(cache=True)
def _search(
    start: Board,
    dice: npt.NDArray[np.int64],
    n_dice: int,
    doubles: bool,
    results: Board,
    steps: Board,
    counts: Board,
    hashes: npt.NDArray[np.uint64],
    state: npt.NDArray[np.int64],
) -> tuple[Board, Board, Board, npt.NDArray[np.uint64]]:
    """Depth-first search over one ordering of the dice.

    ``state`` holds ``[number of results, most dice used so far]`` and is updated in
    place; the (possibly grown) result arrays are returned.
    """
    boards = np.empty((MAX_STEPS + 1, BOARD_SLOTS), dtype=np.uint8)
    cursor = np.empty(MAX_STEPS + 1, dtype=np.int64)
    moved = np.zeros(MAX_STEPS + 1, dtype=np.bool_)
    path = np.zeros(MAX_STEPS * STEP_FIELDS, dtype=np.uint8)
    for slot in range(BOARD_SLOTS):
        boards[0, slot] = start[slot]
    depth = 0
    cursor[0] = BAR
    moved[0] = False
    while depth >= 0:
        board = boards[depth]
        die = dice[depth]
        source = cursor[depth]
        found = False
        while source >= 1:
            if _can_move(board, source, die):
                found = True
                break
            if board[BAR] != 0:
                source = 0
                break
            source -= 1
        leaf_depth = -1
        if found:
            cursor[depth] = source - 1
            moved[depth] = True
            hit = _apply(board, boards[depth + 1], source, die)
            base = depth * STEP_FIELDS
            path[base] = source
            path[base + 1] = die
            path[base + 2] = hit
            if depth + 1 == n_dice:
                leaf_depth = depth + 1
            else:
                depth += 1
                cursor[depth] = source if doubles else BAR
                moved[depth] = False
        else:
            if not moved[depth]:
                leaf_depth = depth
            depth -= 1
        if leaf_depth < 0 or leaf_depth < state[1]:
            continue
        leaf = boards[leaf_depth]
        if leaf_depth > state[1]:
            state[0] = 0
            state[1] = leaf_depth
        key = _hash(leaf)
        duplicate = False
        for index in range(state[0]):
            if hashes[index] == key:
                same = True
                for slot in range(BOARD_SLOTS):
                    if results[index, slot] != leaf[slot]:
                        same = False
                        break
                if same:
                    duplicate = True
                    break
        if duplicate:
            continue
        n = state[0]
        if n == results.shape[0]:
            grown = np.empty((2 * n, BOARD_SLOTS), dtype=np.uint8)
            grown[:n] = results
            results = grown
            grown_steps = np.zeros((2 * n, MAX_STEPS * STEP_FIELDS), dtype=np.uint8)
            grown_steps[:n] = steps
            steps = grown_steps
            grown_counts = np.empty(2 * n, dtype=np.uint8)
            grown_counts[:n] = counts
            counts = grown_counts
            grown_hashes = np.empty(2 * n, dtype=np.uint64)
            grown_hashes[:n] = hashes
            hashes = grown_hashes
        for slot in range(BOARD_SLOTS):
            results[n, slot] = leaf[slot]
        for field in range(MAX_STEPS * STEP_FIELDS):
            steps[n, field] = path[field] if field < leaf_depth * STEP_FIELDS else 0
        counts[n] = leaf_depth
        hashes[n] = key
        state[0] = n + 1
    return results, steps, counts, hashes


@njit(cache=True)
def generate_plays(board: Board, die1: int, die2: int) -> tuple[Board, Board, Board]:
    """Every legal play of ``die1``-``die2`` from ``board``.

    Returns ``(results, steps, counts)``: ``results[i]`` is the 52-slot board after play
    ``i`` (seen from the mover, not flipped), ``steps[i]`` holds ``counts[i]`` steps as
    ``(source, die, hit)`` triples. No rows at all means no checker can move.
    """
    high = max(die1, die2)
    low = min(die1, die2)
    results = np.empty((_INITIAL_CAPACITY, BOARD_SLOTS), dtype=np.uint8)
    steps = np.zeros((_INITIAL_CAPACITY, MAX_STEPS * STEP_FIELDS), dtype=np.uint8)
    counts = np.empty(_INITIAL_CAPACITY, dtype=np.uint8)
    hashes = np.empty(_INITIAL_CAPACITY, dtype=np.uint64)
    state = np.zeros(2, dtype=np.int64)
    dice = np.empty(MAX_STEPS, dtype=np.int64)
    if high == low:
        dice[:] = high
        results, steps, counts, hashes = _search(
            board, dice, 4, True, results, steps, counts, hashes, state
        )
    else:
        dice[0] = high
        dice[1] = low
        results, steps, counts, hashes = _search(
            board, dice, 2, False, results, steps, counts, hashes, state
        )
        dice[0] = low
        dice[1] = high
        results, steps, counts, hashes = _search(
            board, dice, 2, False, results, steps, counts, hashes, state
        )
    n = state[0]
    if state[1] == 0:
        n = 0
    elif state[1] == 1 and high != low:
        has_high = False
        for index in range(n):
            if steps[index, 1] == high:
                has_high = True
                break
        if has_high:
            kept = 0
            for index in range(n):
                if steps[index, 1] == high:
                    if kept != index:
                        results[kept] = results[index]
                        steps[kept] = steps[index]
                        counts[kept] = counts[index]
                    kept += 1
            n = kept
    return results[:n], steps[:n], counts[:n]


@njit(cache=True)
def count_plays_batch(boards: Board, rolls: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """For each board (rows of ``boards``) and each roll (rows of ``rolls``, two dice),
    generate the plays and return how many there are, as an array ``[boards, rolls]``.

    This is the batch entry point an engine uses (one call for many positions).
    """
    out = np.empty((boards.shape[0], rolls.shape[0]), dtype=np.int64)
    for row in range(boards.shape[0]):
        for roll in range(rolls.shape[0]):
            results, _, _ = generate_plays(boards[row], rolls[roll, 0], rolls[roll, 1])
            out[row, roll] = results.shape[0]
    return out


@njit(cache=True)
def apply_steps(board: Board, steps: npt.NDArray[np.int64]) -> Board:
    """Apply ``(source, die)`` rows to a copy of ``board`` without checking legality.

    The unchecked fast path for self-play and search: the caller guarantees legality.
    """
    current = board.copy()
    scratch = np.empty(BOARD_SLOTS, dtype=np.uint8)
    for index in range(steps.shape[0]):
        _apply(current, scratch, steps[index, 0], steps[index, 1])
        current[:] = scratch
    return current
