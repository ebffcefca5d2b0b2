"""The unchecked fast path: whole games played inside compiled code.

Self-play and mass testing need games without Python objects per move. These Numba
functions work on the 52-slot boards of :mod:`backgammon.rules.movegen` and take
their randomness from an explicit xorshift state array that the caller owns (no
global RNG). :func:`play_random_games` plays games with uniformly random legal plays
and checks the rules' invariants after every turn.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from backgammon.rules.movegen import BOARD_SLOTS, STEP_FIELDS, generate_plays

__all__ = [
    "GAME_FIELDS",
    "INVARIANT_NAMES",
    "new_rng_state",
    "play_random_games",
    "random_below",
    "random_die",
]

OPP = 26
GAME_FIELDS = ("winner", "kind", "turns", "broken_invariant")
"""Columns of :func:`play_random_games`' result."""

INVARIANT_NAMES = (
    "none",
    "checker count changed",
    "a point holds checkers of both sides",
    "pips removed differ from the dice played",
    "the game went on after a side bore off",
    "more dice played than rolled",
)
"""What ``broken_invariant`` codes mean (0 = every invariant held)."""


def new_rng_state(seed: int) -> npt.NDArray[np.uint64]:
    """A fresh xorshift64* state for ``seed`` (never zero)."""
    mixed = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (1 << 64)
    return np.array([mixed or 1], dtype=np.uint64)


@njit(cache=True)
def _next_random(state: npt.NDArray[np.uint64]) -> np.uint64:
    value = state[0]
    value ^= value >> np.uint64(12)
    value ^= value << np.uint64(25)
    value ^= value >> np.uint64(27)
    state[0] = value
    product: np.uint64 = value * np.uint64(2685821657736338717)
    return product


@njit(cache=True)
def random_below(state: npt.NDArray[np.uint64], bound: int) -> int:
    """A uniform integer in ``0..bound-1`` from the xorshift ``state``."""
    limit = np.uint64(0xFFFFFFFFFFFFFFFF) - np.uint64(0xFFFFFFFFFFFFFFFF) % np.uint64(bound)
    while True:
        value = _next_random(state)
        if value < limit:
            return np.int64(value % np.uint64(bound))


@njit(cache=True)
def random_die(state: npt.NDArray[np.uint64]) -> int:
    """One die, 1..6."""
    return random_below(state, 6) + 1


@njit(cache=True)
def _pips(board: npt.NDArray[np.uint8], base: int) -> int:
    total = 0
    for slot in range(1, 26):
        total += slot * np.int64(board[base + slot])
    return total


@njit(cache=True)
def _check(
    before: npt.NDArray[np.uint8],
    after: npt.NDArray[np.uint8],
    steps: npt.NDArray[np.uint8],
    count: int,
    n_dice: int,
    checkers: int,
) -> int:
    """0 if the turn kept every invariant, else the code of the first broken one."""
    own = 0
    other = 0
    for slot in range(26):
        own += np.int64(after[slot])
        other += np.int64(after[OPP + slot])
    if own != checkers or other != checkers:
        return 1
    for point in range(1, 25):
        if after[point] != 0 and after[OPP + 25 - point] != 0:
            return 2
    if count > n_dice:
        return 5
    expected = 0
    for index in range(count):
        source = np.int64(steps[index * STEP_FIELDS])
        die = np.int64(steps[index * STEP_FIELDS + 1])
        expected += min(source, die)
    if _pips(before, 0) - _pips(after, 0) != expected:
        return 3
    return 0


@njit(cache=True)
def play_random_games(
    start: npt.NDArray[np.uint8], games: int, state: npt.NDArray[np.uint64], max_turns: int
) -> npt.NDArray[np.int64]:
    """Play ``games`` games from ``start`` with random legal plays.

    The opening player is decided as in a real game (one die each, ties re-rolled)
    and plays both opening dice. Returns one row per game with the columns of
    :data:`GAME_FIELDS`: the winner (0 = the side on roll in ``start``, 1 = the other),
    the kind of win (1 single, 2 gammon, 3 backgammon), the number of turns, and the
    first broken invariant (see :data:`INVARIANT_NAMES`). ``max_turns`` only guards
    against a bug: a game still running after it is reported with ``turns = -1``.
    """
    out = np.zeros((games, 4), dtype=np.int64)
    checkers = 0
    for slot in range(26):
        checkers += np.int64(start[slot])
    board = np.empty(BOARD_SLOTS, dtype=np.uint8)
    for game in range(games):
        board[:] = start
        die0 = random_die(state)
        die1 = random_die(state)
        while die0 == die1:
            die0 = random_die(state)
            die1 = random_die(state)
        on_roll = 0 if die0 > die1 else 1
        if on_roll == 1:
            board[:] = np.concatenate((start[OPP:], start[:OPP]))
        first_turn = True
        turns = 0
        finished = False
        while turns < max_turns:
            if first_turn:
                d1, d2 = die0, die1
                first_turn = False
            else:
                d1 = random_die(state)
                d2 = random_die(state)
            n_dice = 4 if d1 == d2 else 2
            results, steps, counts = generate_plays(board, d1, d2)
            turns += 1
            if results.shape[0] > 0:
                pick = random_below(state, results.shape[0])
                broken = _check(board, results[pick], steps[pick], counts[pick], n_dice, checkers)
                if broken != 0:
                    out[game, 3] = broken
                    break
                board[:] = results[pick]
            if board[0] == checkers:
                kind = 1
                if board[OPP] == 0:
                    kind = 2
                    for slot in range(19, 26):
                        if board[OPP + slot] != 0:
                            kind = 3
                out[game, 0] = on_roll
                out[game, 1] = kind
                finished = True
                break
            if board[OPP] == checkers:
                out[game, 3] = 4
                break
            flipped = np.concatenate((board[OPP:], board[:OPP]))
            board[:] = flipped
            on_roll = 1 - on_roll
        out[game, 2] = turns if finished else -1
    return out
