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
    "COUNT_COLUMN",
    "ENTER_ANYTIME_OPTION",
    "EXACT_BEAROFF_OPTION",
    "MAX_STEPS",
    "PACKED_WIDTH",
    "SAME_DIRECTION_OPTION",
    "STEP_FIELDS",
    "apply_steps",
    "count_plays_batch",
    "generate_plays",
    "generate_plays_options",
    "generate_plays_packed",
    "generate_plays_with",
    "movement_options",
]

BOARD_SLOTS = 52
OPP = 26
BAR = 25
OFF = 0
MAX_STEPS = 4
STEP_FIELDS = 3  # source, die, hit
COUNT_COLUMN = BOARD_SLOTS + MAX_STEPS * STEP_FIELDS
PACKED_WIDTH = COUNT_COLUMN + 1
_INITIAL_CAPACITY = 128
_CAUCASIAN = 1 << 8
_ENTER_ANYTIME = 1 << 9
_SAME_DIRECTION = 1 << 10
_EXACT_BEAROFF = 1 << 11
ENTER_ANYTIME_OPTION = _ENTER_ANYTIME
"""The bit of :func:`movement_options` set when checkers may move with others waiting."""
SAME_DIRECTION_OPTION = _SAME_DIRECTION
"""The bit of :func:`movement_options` set when both sides move the same way round."""
EXACT_BEAROFF_OPTION = _EXACT_BEAROFF
"""The bit of :func:`movement_options` set when bearing off needs the exact number."""

Board = npt.NDArray[np.uint8]


def _zobrist_table() -> npt.NDArray[np.uint64]:
    table = np.random.default_rng(0x5EEDBACC).integers(
        0, np.iinfo(np.uint64).max, size=(BOARD_SLOTS, 32), dtype=np.uint64
    )
    table.setflags(write=False)
    return table


_ZOBRIST = _zobrist_table()
"""Random 64-bit keys per (slot, count % 32), fixed by a seed: a board's hash is the XOR
of its keys. Equal hashes are confirmed by comparing boards, so a collision costs time,
never a wrong result."""


@njit(cache=True)
def _key(slot: int, count: int) -> np.uint64:
    key: np.uint64 = _ZOBRIST[slot, count & 31]
    return key


@njit(cache=True)
def _full_hash(board: Board) -> np.uint64:
    value = np.uint64(0)
    for slot in range(BOARD_SLOTS):
        value ^= _key(slot, board[slot])
    return value


@njit(cache=True)
def _change(board: Board, slot: int, delta: int, value: np.uint64) -> np.uint64:
    old = np.int64(board[slot])
    board[slot] = old + delta
    changed: np.uint64 = value ^ _key(slot, old) ^ _key(slot, old + delta)
    return changed


@njit(cache=True)
def _move(board: Board, source: int, die: int, value: np.uint64) -> tuple[int, np.uint64]:
    """Move one checker in place; return whether it hit and the updated hash."""
    value = _change(board, source, -1, value)
    dest = source - die
    if dest <= 0:
        return 0, _change(board, OFF, 1, value)
    value = _change(board, dest, 1, value)
    opp_slot = OPP + 25 - dest
    if board[opp_slot] == 1:
        value = _change(board, opp_slot, -1, value)
        value = _change(board, OPP + BAR, 1, value)
        return 1, value
    return 0, value


@njit(cache=True)
def _search(
    board: Board,
    dice: npt.NDArray[np.int64],
    n_dice: int,
    orders: int,
    doubles: bool,
    packed: Board,
    hashes: npt.NDArray[np.uint64],
    table: npt.NDArray[np.int32],
    state: npt.NDArray[np.int64],
    limit: int,
    caucasian: bool,
    ordered: bool,
    bar_first: bool,
    same_direction: bool,
    exact_bearoff: bool,
    standard: bool,
) -> bool:
    """Depth-first search over ``orders`` orderings of the dice (2 for a non-double:
    ``dice`` as given, then its first two swapped; ``dice`` is left swapped).

    Under the ``standard`` rules the second ordering of a non-double does not take a
    second step by another checker than the one just moved, from a board with nothing
    on the bar, and not bearing off: playing the two steps the other way round is
    legal too, so the first ordering has found that result.

    ``limit`` is the most checkers a point may hold (the Egyptian rule; 255 for none).
    With ``caucasian``, a checker that hits in its home board may go on in the same
    turn only to empty points, and may not bear off.

    Checkers move in place on ``board``, which is restored on return. ``state`` holds
    ``[number of results, most dice used so far]`` and is updated in place; results
    are deduplicated through the open-addressing ``table`` of row numbers + 1. Returns
    True if ``packed`` ran out of rows (the caller retries with bigger arrays); arrays
    are never reassigned here, which keeps Numba's reference counting out of the loop.
    """
    # Per-depth state, in few arrays (allocations are a large part of a short search).
    depth_ints = np.zeros((2, MAX_STEPS + 1), dtype=np.int64)
    cursor = depth_ints[0]
    hitters = depth_ints[1]  # home points holding a hitter, as bits
    depth_flags = np.zeros((2, MAX_STEPS + 1), dtype=np.bool_)
    moved = depth_flags[0]
    applied = depth_flags[1]
    saved = np.empty(MAX_STEPS + 1, dtype=np.uint64)
    path = np.zeros(MAX_STEPS * STEP_FIELDS, dtype=np.uint8)
    # The opponent's slot for our point q: OPP + 25 - q normally; OPP + q when both
    # sides move the same way round the board (Russian backgammon).
    mirror_base = OPP if same_direction else OPP + 25
    mirror_sign = 1 if same_direction else -1
    value = _full_hash(board)
    # Transposition table for the search in every order (see below).
    seen_capacity = 2048 if doubles and not ordered else 1
    seen_slot = np.zeros(seen_capacity, dtype=np.int32)
    seen_board = np.empty((seen_capacity * 3 // 4, BOARD_SLOTS), dtype=np.uint8)
    seen_key = np.empty(seen_capacity * 3 // 4, dtype=np.uint64)
    seen_facts = np.empty((2, seen_capacity * 3 // 4), dtype=np.int64)
    seen_depth = seen_facts[0]
    seen_hitters = seen_facts[1]
    seen_count = 0
    start_value = value
    overflow = False
    for order in range(orders):
        if order == 1:
            dice[0], dice[1] = dice[1], dice[0]
        skip_repeats = standard and order == 1
        moved[:] = False
        applied[:] = False
        hitters[:] = 0
        value = start_value
        depth = 0
        cursor[0] = BAR
        while depth >= 0:
            base = depth * STEP_FIELDS
            if applied[depth]:
                # Undo the step this depth made before trying the next source.
                source = np.int64(path[base])
                dest = source - np.int64(path[base + 1])
                board[source] += 1
                if dest <= 0:
                    board[OFF] -= 1
                else:
                    board[dest] -= 1
                    if path[base + 2]:
                        board[mirror_base + mirror_sign * dest] = 1
                        board[OPP + BAR] -= 1
                value = saved[depth]
                applied[depth] = False
            die = dice[depth]
            source = cursor[depth]
            found = False
            mask = hitters[depth]
            if bar_first and board[BAR] != 0:
                # Checkers on the bar enter first (the bar is the only source).
                if source == BAR and board[mirror_base + mirror_sign * (BAR - die)] < 2:
                    if board[BAR - die] < limit:
                        found = True
                    else:
                        state[2] = 1  # refused only by the point limit
            else:
                home_known = False
                all_home = False
                highest = 0
                while source >= 1:
                    if board[source] != 0:
                        dest = source - die
                        if caucasian and (mask >> source) & 1 and board[source] == 1:
                            # A hitter in the home board may only go on to an empty point.
                            if (
                                dest >= 1
                                and board[dest] == 0
                                and board[mirror_base + mirror_sign * dest] == 0
                            ):
                                found = True
                                break
                            state[2] = 1  # the rule refused a move: the order may matter
                        elif dest >= 1:
                            if board[mirror_base + mirror_sign * dest] < 2:
                                if board[dest] < limit:
                                    if (
                                        skip_repeats
                                        and depth == 1
                                        and path[0] != BAR
                                        and source != np.int64(path[0]) - np.int64(path[1])
                                    ):
                                        moved[depth] = True  # found in the other order
                                    else:
                                        found = True
                                        break
                                else:
                                    state[2] = 1  # refused only by the point limit
                        else:
                            if not home_known:
                                home_known = True
                                all_home = True
                                for slot in range(7, 26):
                                    if board[slot] != 0:
                                        all_home = False
                                        break
                                for slot in range(6, 0, -1):
                                    if board[slot] != 0:
                                        highest = slot
                                        break
                            if all_home and (
                                dest == 0 or (source == highest and not exact_bearoff)
                            ):
                                found = True
                                break
                    source -= 1
            leaf_depth = -1
            if found:
                cursor[depth] = source - 1
                moved[depth] = True
                saved[depth] = value
                # Move one checker in place, keeping the Zobrist hash up to date.
                count = np.int64(board[source])
                board[source] = count - 1
                value ^= _ZOBRIST[source, count & 31] ^ _ZOBRIST[source, (count - 1) & 31]
                dest = source - die
                hit = 0
                if dest <= 0:
                    count = np.int64(board[OFF])
                    board[OFF] = count + 1
                    value ^= _ZOBRIST[OFF, count & 31] ^ _ZOBRIST[OFF, (count + 1) & 31]
                else:
                    count = np.int64(board[dest])
                    board[dest] = count + 1
                    value ^= _ZOBRIST[dest, count & 31] ^ _ZOBRIST[dest, (count + 1) & 31]
                    opp_slot = mirror_base + mirror_sign * dest
                    if board[opp_slot] == 1:
                        hit = 1
                        board[opp_slot] = 0
                        value ^= _ZOBRIST[opp_slot, 1] ^ _ZOBRIST[opp_slot, 0]
                        count = np.int64(board[OPP + BAR])
                        board[OPP + BAR] = count + 1
                        value ^= (
                            _ZOBRIST[OPP + BAR, count & 31] ^ _ZOBRIST[OPP + BAR, (count + 1) & 31]
                        )
                applied[depth] = True
                path[base] = source
                path[base + 1] = die
                path[base + 2] = hit
                if depth + 1 == n_dice:
                    leaf_depth = depth + 1
                else:
                    if caucasian:
                        if (mask >> source) & 1 and board[source] == 0:
                            mask &= ~(1 << source)  # the hitter itself moved on
                            if dest >= 1:
                                mask |= 1 << dest
                        if hit and dest <= 6:
                            mask |= 1 << dest
                    # Every order is tried (doubles under a point limit or the Caucasian
                    # rule): a board reached before at the same depth with the same hitters
                    # has had its continuations searched already, so it is not expanded
                    # again (transpositions; boards compared in full, never by hash alone).
                    expand = True
                    if seen_capacity > 1:
                        key = (
                            value
                            ^ (np.uint64(depth + 1) * np.uint64(0x9E3779B97F4A7C15))
                            ^ (np.uint64(mask) * np.uint64(0xC2B2AE3D27D4EB4F))
                        )
                        probe = np.int64(key & np.uint64(seen_capacity - 1))
                        while seen_slot[probe] != 0:
                            entry = seen_slot[probe] - 1
                            if (
                                seen_key[entry] == key
                                and seen_depth[entry] == depth + 1
                                and seen_hitters[entry] == mask
                            ):
                                same = True
                                for column in range(BOARD_SLOTS):
                                    if seen_board[entry, column] != board[column]:
                                        same = False
                                        break
                                if same:
                                    expand = False
                                    break
                            probe = (probe + 1) & (seen_capacity - 1)
                        if expand and seen_count < seen_board.shape[0]:
                            seen_slot[probe] = seen_count + 1
                            seen_key[seen_count] = key
                            seen_depth[seen_count] = depth + 1
                            seen_hitters[seen_count] = mask
                            for column in range(BOARD_SLOTS):  # (see _generate)
                                seen_board[seen_count, column] = board[column]
                            seen_count += 1
                    if expand:
                        depth += 1
                        hitters[depth] = mask
                        # Doubles: a step never starts above the previous one (any set of
                        # moves can be played in that order) -- except under a point limit or
                        # the Caucasian rule, where the order matters and every order is tried.
                        cursor[depth] = source if doubles and ordered else BAR
                        moved[depth] = False
                        applied[depth] = False
            elif not moved[depth]:
                leaf_depth = depth
            if leaf_depth >= 0 and leaf_depth >= state[1]:
                if leaf_depth > state[1]:
                    state[0] = 0
                    state[1] = leaf_depth
                    table[:] = 0
                mask = table.shape[0] - 1
                slot = np.int64(value & np.uint64(mask))
                duplicate = False
                while table[slot] != 0:
                    index = table[slot] - 1
                    if hashes[index] == value:
                        same = True
                        for column in range(BOARD_SLOTS):
                            if packed[index, column] != board[column]:
                                same = False
                                break
                        if same:
                            duplicate = True
                            break
                    slot = (slot + 1) & mask
                if not duplicate:
                    n = state[0]
                    if n == packed.shape[0]:
                        overflow = True
                        break
                    for column in range(BOARD_SLOTS):
                        packed[n, column] = board[column]
                    for field in range(MAX_STEPS * STEP_FIELDS):
                        packed[n, BOARD_SLOTS + field] = (
                            path[field] if field < leaf_depth * STEP_FIELDS else 0
                        )
                    packed[n, COUNT_COLUMN] = leaf_depth
                    hashes[n] = value
                    table[slot] = n + 1
                    state[0] = n + 1
            if not found:
                depth -= 1
        if overflow:
            # Put the board back: undo every step still applied, and stop. (The undo of
            # the search loop written out again: as a shared helper, even inlined,
            # move generation measured about 50% slower.)
            while depth >= 0:
                if applied[depth]:
                    base = depth * STEP_FIELDS
                    source = np.int64(path[base])
                    dest = source - np.int64(path[base + 1])
                    board[source] += 1
                    if dest <= 0:
                        board[OFF] -= 1
                    else:
                        board[dest] -= 1
                        if path[base + 2]:
                            board[mirror_base + mirror_sign * dest] = 1
                            board[OPP + BAR] -= 1
                depth -= 1
            break
    return overflow


@njit(cache=True)
def generate_plays_with(
    board: Board,
    die1: int,
    die2: int,
    limit: int,
    caucasian: bool,
    bar_first: bool = True,
    same_direction: bool = False,
    exact_bearoff: bool = False,
) -> Board:
    """Every legal play under variant options, packed one per row (see
    :func:`generate_plays_packed`).

    ``limit`` is the most checkers a point may hold (255: no limit; 5: the Egyptian
    rule). ``caucasian`` applies the Caucasian home-board rule: a checker that hits in
    its home board may continue that turn only to empty points and may not bear off,
    unless no play at all exists otherwise. Without ``bar_first``, checkers on the bar
    (acey-deucey's waiting checkers) need not enter before others move. With
    ``same_direction`` both sides move the same way round the board (Russian
    backgammon): the opponent's point ``q`` is our point ``q``. With ``exact_bearoff``
    a checker bears off only with the exact number (European acey-deucey).
    """
    packed = _generate(
        board, die1, die2, limit, caucasian, bar_first, same_direction, exact_bearoff
    )
    if caucasian and packed.shape[0] == 0 and _blot_in_home(board):
        # The rule may have refused every play: without it, if anything is possible.
        packed = _generate(
            board, die1, die2, limit, False, bar_first, same_direction, exact_bearoff
        )
    return packed


def movement_options(
    limit: int,
    caucasian: bool,
    bar_first: bool = True,
    same_direction: bool = False,
    exact_bearoff: bool = False,
) -> int:
    """The options of :func:`generate_plays_with` packed in one int for
    :func:`generate_plays_options` (bits 0-7 the point limit, then one bit each)."""
    if not 1 <= limit <= 255:
        raise ValueError(f"the point limit must be 1..255, got {limit}")
    return (
        limit
        | (_CAUCASIAN if caucasian else 0)
        | (0 if bar_first else _ENTER_ANYTIME)
        | (_SAME_DIRECTION if same_direction else 0)
        | (_EXACT_BEAROFF if exact_bearoff else 0)
    )


@njit(cache=True)
def generate_plays_options(board: Board, die1: int, die2: int, options: int) -> Board:
    """:func:`generate_plays_with` with its options packed by :func:`movement_options`
    (four arguments: cheaper to call from Python)."""
    return generate_plays_with(
        board,
        die1,
        die2,
        options & 0xFF,
        (options & _CAUCASIAN) != 0,
        (options & _ENTER_ANYTIME) == 0,
        (options & _SAME_DIRECTION) != 0,
        (options & _EXACT_BEAROFF) != 0,
    )


@njit(cache=True)
def generate_plays_packed(board: Board, die1: int, die2: int) -> Board:
    """Every legal play of ``die1``-``die2`` from ``board``, packed one per row.

    Row layout (:data:`PACKED_WIDTH` bytes): columns ``0..51`` the board after the play
    (seen from the mover, not flipped), then :data:`MAX_STEPS` steps as
    ``(source, die, hit)`` triples (unused ones zero), then at :data:`COUNT_COLUMN` the
    number of steps. No rows at all means no checker can move. ``board`` is unchanged.
    """
    return _generate(board, die1, die2, 255, False, True, False, False)


@njit(cache=True)
def _blot_in_home(board: Board) -> bool:
    """Whether an opposing blot stands in the player's home board (the Caucasian rule
    can bite only then)."""
    for point in range(1, 7):
        if board[OPP + 25 - point] == 1:
            return True
    return False


@njit(cache=True)
def _generate(
    board: Board,
    die1: int,
    die2: int,
    limit: int,
    caucasian: bool,
    bar_first: bool,
    same_direction: bool,
    exact_bearoff: bool,
) -> Board:
    high = max(die1, die2)
    low = min(die1, die2)
    if caucasian:
        # The Caucasian rule only bites after a hit in the home board.
        caucasian = _blot_in_home(board)
    # Doubles are searched with non-increasing sources (far fewer orders); if the point
    # limit refused a landing or the Caucasian rule refused a move, the order can
    # matter, and the search is redone in every order.
    # (A typed bool, not the literal True: Numba would compile ``_search`` once more
    # for the literal while it infers the loop's types.)
    ordered = np.bool_(True)
    # (After the line above: the Caucasian rule counts only where it can bite.)
    standard = (
        limit == 255 and not caucasian and bar_first and not same_direction and not exact_bearoff
    )
    work = board.copy()
    dice = np.empty(MAX_STEPS, dtype=np.int64)
    state = np.zeros(3, dtype=np.int64)
    capacity = _INITIAL_CAPACITY
    while True:
        packed = np.empty((capacity, PACKED_WIDTH), dtype=np.uint8)
        hashes = np.empty(capacity, dtype=np.uint64)
        table = np.zeros(4 * capacity, dtype=np.int32)
        state[:] = 0
        doubles = high == low
        # Doubles: the same die four times; otherwise both orders of the two dice.
        if doubles:
            dice[:] = high
        else:
            dice[0] = high
            dice[1] = low
        overflow = _search(
            work,
            dice,
            4 if doubles else 2,
            1 if doubles else 2,
            doubles,
            packed,
            hashes,
            table,
            state,
            limit,
            caucasian,
            ordered,
            bar_first,
            same_direction,
            exact_bearoff,
            standard,
        )
        if overflow:
            capacity *= 4
        elif high == low and ordered and state[2] != 0:
            ordered = False  # a rule refused a move: every order must be tried
        else:
            break
    n = state[0]
    if state[1] == 0:
        n = 0
    elif state[1] == 1 and high != low:
        first_die = BOARD_SLOTS + 1
        has_high = False
        for index in range(n):
            if packed[index, first_die] == high:
                has_high = True
                break
        if has_high:
            kept = 0
            for index in range(n):
                if packed[index, first_die] == high:
                    if kept != index:
                        # Element by element: an array assigned to a slice costs Numba
                        # over a second more to compile (its shape check's message).
                        for column in range(PACKED_WIDTH):
                            packed[kept, column] = packed[index, column]
                    kept += 1
            n = kept
    return packed[:n]


@njit(cache=True)
def generate_plays(board: Board, die1: int, die2: int) -> tuple[Board, Board, Board]:
    """Every legal play of ``die1``-``die2`` from ``board``, as three arrays.

    Returns ``(results, steps, counts)``: ``results[i]`` is the 52-slot board after play
    ``i`` (seen from the mover, not flipped), ``steps[i]`` holds ``counts[i]`` steps as
    ``(source, die, hit)`` triples. No rows at all means no checker can move.
    """
    packed = generate_plays_packed(board, die1, die2)
    return packed[:, :BOARD_SLOTS], packed[:, BOARD_SLOTS:COUNT_COLUMN], packed[:, COUNT_COLUMN]


@njit(cache=True)
def count_plays_batch(boards: Board, rolls: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """For each board (rows of ``boards``) and each roll (rows of ``rolls``, two dice),
    generate the plays and return how many there are, as an array ``[boards, rolls]``.

    This is the batch entry point an engine uses (one call for many positions).
    """
    out = np.empty((boards.shape[0], rolls.shape[0]), dtype=np.int64)
    for row in range(boards.shape[0]):
        for roll in range(rolls.shape[0]):
            packed = generate_plays_packed(boards[row], rolls[roll, 0], rolls[roll, 1])
            out[row, roll] = packed.shape[0]
    return out


@njit(cache=True)
def apply_steps(board: Board, steps: npt.NDArray[np.int64]) -> Board:
    """Apply ``(source, die)`` rows to a copy of ``board`` without checking legality.

    The unchecked fast path for self-play and search: the caller guarantees legality.
    """
    current = board.copy()
    value = np.uint64(0)
    for index in range(steps.shape[0]):
        _, value = _move(current, np.int64(steps[index, 0]), np.int64(steps[index, 1]), value)
    return current
