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
  (:func:`~backgammon.rules.blocking_movegen.generate_blocking_plays`);
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
from backgammon.rules.movegen import generate_plays_options
from backgammon.rules.variant import Variant

__all__ = [
    "HEAD",
    "KIND",
    "MOVEMENT_FIELDS",
    "OPTIONS",
    "PINNING",
    "PRIME",
    "TOPOLOGY",
    "movement_code",
    "variant_plays",
]

KIND = 0
OPTIONS = 1
TOPOLOGY = 2
HEAD = 3
PRIME = 4
PINNING = 5
MOVEMENT_FIELDS = 6
"""How many fields :func:`movement_code` fills."""

_TOPOLOGIES = {"mirror": MIRROR, "same-way": SAME_WAY, "crosswise": CROSSWISE}


def movement_code(variant: Variant, size: int = MOVEMENT_FIELDS) -> npt.NDArray[np.int64]:
    """``variant``'s movement packed for :func:`variant_plays`, in a zeroed vector of
    ``size`` (at least :data:`MOVEMENT_FIELDS`) so callers can append fields.

    Raises:
        ValueError: for a variant that does not throw two dice (tabula).
    """
    if size < MOVEMENT_FIELDS:
        raise ValueError(f"a movement code needs {MOVEMENT_FIELDS} fields, got {size}")
    if variant.dice != 2:
        raise ValueError(
            f"{variant.name} throws {variant.dice} dice; the compiled loops (self-play "
            "training, the engine's lookahead) play two-dice games only"
        )
    code = np.zeros(size, dtype=np.int64)
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
    can move."""
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
