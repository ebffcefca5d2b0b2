"""Legal plays under any variant's movement from compiled code, one entry point.

:func:`~backgammon.rules.play.legal_plays` picks the move generator of a variant in
Python. Compiled loops that play many variants (self-play training, the engine's
lookahead) need the same choice inside Numba: :func:`movement_code` packs a variant's
movement into a small ``int64`` vector once, and :func:`variant_plays` generates the
plays of a board and roll under it, packed as
:func:`~backgammon.rules.movegen.generate_plays_packed` packs them.

The vector's fields (indices :data:`KIND` .. :data:`PINNING`; callers may append
their own after :data:`MOVEMENT_FIELDS`):

* ``KIND``: 0 the hitting kernel (:func:`~backgammon.rules.movegen.generate_plays_options`),
  1 the kernel of games without hitting
  (:func:`~backgammon.rules.blocking_movegen.generate_blocking_plays`), 2 the kernel of
  three-dice throws (:func:`~backgammon.rules.three_dice_movegen.generate_three_dice_plays`,
  tabula; its options read from ``OPTIONS``, its plays from :func:`variant_throw_plays`);
* ``OPTIONS``: the hitting kernel's packed options (``Variant.movement``);
* ``TOPOLOGY``, ``HEAD``, ``PRIME``, ``PINNING``: the blocking kernel's arguments.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from backgammon.rules.blocking_movegen import (
    CROSSWISE,
    MIRROR,
    SAME_WAY,
    generate_blocking_plays,
)
from backgammon.rules.movegen import (
    ENTER_ANYTIME_OPTION,
    EXACT_BEAROFF_OPTION,
    SAME_DIRECTION_OPTION,
    generate_plays_options,
)
from backgammon.rules.three_dice_movegen import generate_three_dice_plays
from backgammon.rules.variant import Variant

__all__ = [
    "HEAD",
    "KIND",
    "MOVEMENT_FIELDS",
    "OPTIONS",
    "PINNING",
    "PRIME",
    "THREE_DICE",
    "TOPOLOGY",
    "movement_code",
    "variant_plays",
    "variant_throw_plays",
]

KIND = 0
OPTIONS = 1
TOPOLOGY = 2
HEAD = 3
PRIME = 4
PINNING = 5
MOVEMENT_FIELDS = 6
"""How many fields :func:`movement_code` fills."""
THREE_DICE = 2
"""The ``KIND`` of a variant that throws three dice (tabula)."""

_TOPOLOGIES = {"mirror": MIRROR, "same-way": SAME_WAY, "crosswise": CROSSWISE}


def movement_code(variant: Variant, size: int = MOVEMENT_FIELDS) -> npt.NDArray[np.int64]:
    """``variant``'s movement packed for :func:`variant_plays`, in a zeroed vector of
    ``size`` (at least :data:`MOVEMENT_FIELDS`) so callers can append fields. A
    three-dice variant (tabula) gets the ``KIND`` :data:`THREE_DICE`: its throws are
    played by :func:`variant_throw_plays`.
    """
    if size < MOVEMENT_FIELDS:
        raise ValueError(f"a movement code needs {MOVEMENT_FIELDS} fields, got {size}")
    code = np.zeros(size, dtype=np.int64)
    if variant.dice == 3:
        code[KIND] = THREE_DICE
    else:
        code[KIND] = 1 if variant.blocking or variant.pinning else 0
    code[OPTIONS] = variant.movement
    code[TOPOLOGY] = _TOPOLOGIES[variant.topology]
    code[HEAD] = variant.head_rule
    code[PRIME] = variant.prime_rule
    code[PINNING] = variant.pinning
    return code


@njit(cache=True)
def variant_plays(
    board: npt.NDArray[np.uint8], die1: int, die2: int, code: npt.NDArray[np.int64]
) -> npt.NDArray[np.uint8]:
    """Every legal play of ``die1``-``die2`` from ``board`` under the movement
    ``code`` (see :func:`movement_code`), packed one per row; no rows when no checker
    can move. Two-dice codes only: a three-dice code (:data:`THREE_DICE`) is played
    by :func:`variant_throw_plays`."""
    if code[KIND] == 1:
        return generate_blocking_plays(
            board,
            die1,
            die2,
            code[TOPOLOGY],
            code[HEAD] != 0,
            code[PRIME] != 0,
            code[PINNING] != 0,
        )
    return generate_plays_options(board, die1, die2, code[OPTIONS])


@njit(cache=True)
def variant_throw_plays(
    board: npt.NDArray[np.uint8], die1: int, die2: int, die3: int, code: npt.NDArray[np.int64]
) -> npt.NDArray[np.uint8]:
    """Every legal play of a throw from ``board`` under the movement ``code``: the
    three dice ``die1``-``die2``-``die3`` for a three-dice code (:data:`THREE_DICE`,
    tabula), else the two dice ``die1``-``die2`` (``die3`` ignored), packed one per
    row as :func:`variant_plays` packs them."""
    if code[KIND] != THREE_DICE:
        return variant_plays(board, die1, die2, code)
    options = code[OPTIONS]
    return generate_three_dice_plays(
        board,
        die1,
        die2,
        die3,
        (options & ENTER_ANYTIME_OPTION) == 0,
        (options & SAME_DIRECTION_OPTION) != 0,
        (options & EXACT_BEAROFF_OPTION) != 0,
    )
