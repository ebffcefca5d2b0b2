"""Legal-play generation for games without hitting (long nardy, Plakoto), as a Numba
kernel.

Boards are the 52-slot arrays of :mod:`backgammon.rules.movegen`, and plays come back
packed in the same rows (resulting board, then ``(source, die, hit)`` steps, then the
number of steps), so :class:`~backgammon.rules.play.Play` wraps them unchanged.

Rules this kernel knows, each switched by an argument:

* *topology*: where the opponent's points lie in the player's numbering — ``0`` the
  usual mirror (the opponent's point ``25 - p``), ``1`` the same way round (point
  ``p``), ``2`` crosswise (long nardy: the opponent starts diagonally across and moves
  the same way round, so the player's point ``p`` is the opponent's
  ``(p + 11) % 24 + 1``);
* *blocking* (long nardy): a point holding any opposing checker is closed; nothing is
  ever hit;
* *pinning* (Plakoto): a checker landing on a lone opposing checker pins it: the pinned
  checker stays, marked by :data:`PINNED` (``0x80``) added to its side's count on that
  point, and may not move until every checker on top of it has left; a point is closed
  to a side when the opponent has two or more checkers there or sits on top of one of
  that side's own checkers. Pinning is recorded in the step as a hit;
* *head rule*: at most one checker may leave the 24-point (the head) in a turn, two on
  the side's first turn (all its checkers still on the head) when the roll is 6-6,
  4-4 or 3-3;
* *prime rule*: a play may not leave six consecutive points (along the opponent's
  way round) held by the player unless an opposing checker is already past them.

A play is any sequence of single-die moves whose resulting position the rules allow;
the legal plays are those that use the most dice, and when only one die of a
non-double can be used, the larger one if some play uses it. Sequences with the same
result are merged.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from backgammon.rules.movegen import (
    BOARD_SLOTS,
    COUNT_COLUMN,
    PACKED_WIDTH,
    STEP_FIELDS,
)

__all__ = [
    "CROSSWISE",
    "MIRROR",
    "PINNED",
    "SAME_WAY",
    "generate_blocking_plays",
    "opponent_slot",
]

PINNED = 0x80
"""Added to a side's count on a point where its (single) checker is pinned."""
MIRROR = 0
SAME_WAY = 1
CROSSWISE = 2
_OPP = 26
_HEAD = 24
_CAPACITY = 256

Board = npt.NDArray[np.uint8]


@njit(cache=True)
def opponent_slot(point: int, topology: int) -> int:
    """The board slot of the opponent's checkers on the player's ``point`` (1..24)."""
    if topology == MIRROR:
        return _OPP + 25 - point
    if topology == SAME_WAY:
        return _OPP + point
    return _OPP + (point + 11) % 24 + 1


@njit(cache=True)
def _illegal_prime(board: Board, topology: int) -> bool:
    """Six consecutive points held by the player along the opponent's way round,
    with no opposing checker past them."""
    # The player's point under the opponent's point r is the inverse of opponent_slot;
    # every topology here is its own inverse.
    run = 0
    for r in range(24, 0, -1):
        mine = opponent_slot(r, topology) - _OPP  # the player's point under opp's r
        if board[mine] != 0:
            run += 1
        else:
            run = 0
        if run >= 6:
            ahead = False
            for s in range(1, r):
                if board[_OPP + s] != 0:
                    ahead = True
                    break
            if not ahead:
                return True
    return False


@njit(cache=True)
def _grow(array: Board, rows: int) -> Board:
    bigger = np.zeros((rows, array.shape[1]), dtype=array.dtype)
    # Element by element: an array assigned to a slice costs Numba about a second
    # more to compile (its shape-mismatch error message), for no speed.
    for row in range(array.shape[0]):
        for column in range(array.shape[1]):
            bigger[row, column] = array[row, column]
    return bigger


@njit(cache=True)
def generate_blocking_plays(
    board: Board,
    die1: int,
    die2: int,
    topology: int,
    head_rule: bool,
    prime_rule: bool,
    pinning: bool = False,
) -> Board:
    """Every legal play of ``die1``-``die2`` from ``board`` under blocking movement
    (or pinning, with ``pinning``), packed one per row as
    :func:`~backgammon.rules.movegen.generate_plays_packed` does (no rows: no checker
    can move). ``board`` is unchanged."""
    high = max(die1, die2)
    low = min(die1, die2)
    doubles = high == low
    n_dice = 4 if doubles else 2
    checkers = 0
    for slot in range(26):
        checkers += board[slot]
    head_limit = 1
    if doubles and board[_HEAD] == checkers and (high == 6 or high == 4 or high == 3):
        head_limit = 2
    # Nodes to expand: board + path + depth + head departures + order + lowest source.
    width = PACKED_WIDTH + 3
    stack = np.zeros((_CAPACITY, width), dtype=np.uint8)
    found = np.zeros((_CAPACITY, PACKED_WIDTH), dtype=np.uint8)
    n_found = 0
    top = 0
    orders = 1 if doubles else 2
    for order in range(orders):
        for slot in range(BOARD_SLOTS):
            stack[top, slot] = board[slot]
        stack[top, PACKED_WIDTH + 1] = order
        stack[top, PACKED_WIDTH + 2] = 25
        top += 1
    while top > 0:
        top -= 1
        node = stack[top].copy()
        depth = np.int64(node[COUNT_COLUMN])
        # Every node is a candidate play (the root: no move).
        if n_found == found.shape[0]:
            found = _grow(found, 2 * found.shape[0])
        for column in range(PACKED_WIDTH):
            found[n_found, column] = node[column]
        n_found += 1
        if depth == n_dice:
            continue
        order = node[PACKED_WIDTH + 1]
        die = high if doubles or (depth == 0) == (order == 0) else low
        heads = node[PACKED_WIDTH]
        all_home = True
        for slot in range(7, 26):
            if node[slot] != 0:
                all_home = False
                break
        highest = 0
        for slot in range(6, 0, -1):
            if node[slot] != 0:
                highest = slot
                break
        first_source = np.int64(node[PACKED_WIDTH + 2]) if doubles else 24
        for source in range(min(first_source, 24), 0, -1):
            if node[source] == 0 or node[source] & PINNED:
                continue
            if head_rule and source == _HEAD and heads >= head_limit:
                continue
            dest = source - die
            pin = False
            if dest >= 1:
                theirs = node[opponent_slot(dest, topology)]
                if theirs != 0:
                    if not pinning or (theirs >= 2 and theirs != PINNED + 1):
                        continue
                    if theirs == 1:
                        if node[dest] != 0:
                            continue  # they sit on top of our pinned checker
                        pin = True
            elif not all_home or (dest < 0 and source != highest):
                continue
            if top == stack.shape[0]:
                stack = _grow(stack, 2 * stack.shape[0])
            child = stack[top]
            for column in range(width):
                child[column] = node[column]
            child[source] -= 1
            if pinning and child[source] == 0:
                under = opponent_slot(source, topology)
                if child[under] == PINNED + 1:
                    child[under] = 1  # the last checker on top left: released
            if dest >= 1:
                child[dest] += 1
                if pin:
                    child[opponent_slot(dest, topology)] = PINNED + 1
            else:
                child[0] += 1
            base = BOARD_SLOTS + depth * STEP_FIELDS
            child[base] = source
            child[base + 1] = die
            child[base + 2] = 1 if pin else 0
            child[COUNT_COLUMN] = depth + 1
            if head_rule and source == _HEAD:
                child[PACKED_WIDTH] = heads + 1
            child[PACKED_WIDTH + 2] = source
            top += 1
    # Keep the allowed results that use the most dice, one per resulting board.
    allowed = np.ones(n_found, dtype=np.bool_)
    most = 0
    for k in range(n_found):
        if prime_rule and _illegal_prime(found[k], topology):
            allowed[k] = False
        elif found[k, COUNT_COLUMN] > most:
            most = found[k, COUNT_COLUMN]
    if most == 0:
        return np.zeros((0, PACKED_WIDTH), dtype=np.uint8)
    larger_only = False
    if most == 1 and not doubles:
        for k in range(n_found):
            if allowed[k] and found[k, COUNT_COLUMN] == 1 and found[k, BOARD_SLOTS + 1] == high:
                larger_only = True
                break
    keys = np.zeros(n_found, dtype=np.uint64)
    kept = np.zeros(n_found, dtype=np.int64)
    n_kept = 0
    for k in range(n_found):
        if not allowed[k] or found[k, COUNT_COLUMN] != most:
            continue
        if larger_only and found[k, BOARD_SLOTS + 1] != high:
            continue
        key = np.uint64(1469598103934665603)
        for slot in range(BOARD_SLOTS):
            key = (key ^ np.uint64(found[k, slot])) * np.uint64(1099511628211)
        duplicate = False
        for j in range(n_kept):
            if keys[j] == key:
                same = True
                for slot in range(BOARD_SLOTS):
                    if found[kept[j], slot] != found[k, slot]:
                        same = False
                        break
                if same:
                    duplicate = True
                    break
        if not duplicate:
            keys[n_kept] = key
            kept[n_kept] = k
            n_kept += 1
    out = np.empty((n_kept, PACKED_WIDTH), dtype=np.uint8)
    for j in range(n_kept):
        for column in range(PACKED_WIDTH):  # steps past the count are zero, as in nodes
            out[j, column] = found[kept[j], column]
    return out
