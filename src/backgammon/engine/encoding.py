"""Network inputs: what the evaluator's neural networks see of a position.

Boards here are the 52-slot ``uint8`` arrays of :mod:`backgammon.rules.movegen`: slots
``0..25`` the side on roll (0 = borne off, 1..24 = its points, 25 = its bar), slots
``26..51`` the opponent in its own numbering (the player's point ``p`` is the opponent's
point ``25 - p``). Every input is computed for each side *in its own numbering*, the side
on roll first, so encoding ``position.flip()`` gives the same vector with its two halves
swapped. ``checkers`` (``N`` below) is the variant's number of checkers per side; it
scales the count-like inputs so that a variant with fewer checkers keeps inputs in the
same range.

Two encodings, one Numba kernel each, both with a batch form
(``boards[n, 52] -> float32[n, inputs]``):

**Contact encoding** ``contact-v1`` (:data:`CONTACT_INPUTS` = 242 inputs), used by the
contact and crashed networks. For each side (121 inputs, side on roll first):

* *Board* (100 inputs): four units per slot for points 1..24, then the bar, in order.
  A point holding ``n`` checkers of that side gives ``n=0 -> (0,0,0,0)``,
  ``1 -> (1,0,0,0)``, ``2 -> (0,1,0,0)``, ``3 -> (0,0,1,0)``, ``n>=4 -> (0,0,1,(n-3)/2)``:
  a blot, a made point and a spare are different things to a player, so they get
  different units. The bar is coded cumulatively, ``n>=1 -> u0=1``, ``n>=2 -> u1=1``,
  ``n>=3 -> u2=1``, ``n>=4 -> u3=(n-3)/2``. (The classic Tesauro / GNU Backgammon
  scheme.)
* *Features* (21 inputs, :data:`CONTACT_FEATURE_NAMES`), all cheap to compute:

  0. ``pips``: the side's pip count (bar = 25) / ``12 N`` (0.93 at the start).
  1. ``off_1``, 2. ``off_2``, 3. ``off_3``: checkers borne off as a thermometer in
     thirds of ``N``: ``clip(off - k N/3, 0, N/3) / (N/3)`` for ``k = 0, 1, 2``.
  4. ``back``: the point of the side's rearmost checker / 25 (the bar = 1; 0 when
     none is left).
  5. ``back_checkers``: checkers on points 19..24 and the bar (in or behind the
     opponent's home board) / ``N``.
  6. ``outfield``: checkers on points 7..18 / ``N``.
  7. ``home_checkers``: checkers on points 1..6 / ``N``.
  8. ``home_points``: points 1..6 made (two or more checkers) / 6.
  9. ``prime``: the longest run of consecutive made points / 6, at most 1.
  10. ``anchors``: made points among 19..24 (anchors in the opponent's home board),
      ``min(count, 2) / 2``.
  11. ``forward_anchor``: the most advanced made point ``p`` among 18..24 (the
      opponent's bar point and home board) as ``(25 - p) / 7``; 0 when none.
  12. ``blots``: single checkers on points 1..24 / 5.
  13. ``hit_chance``: the share of the 36 rolls with which the opponent can hit at
      least one of the side's blots, counting direct and combination shots whose
      intermediate landing points are open. Approximation: when the opponent has a
      checker on the bar only that checker attacks (it may hit as it enters or go on
      with the other dice); with two or more on the bar only direct hits from the bar
      count. Moves that are illegal for other reasons (e.g. the larger-die rule) are
      not checked.
  14. ``pip_loss``: for those rolls, the pips the side would lose to the worst hit
      (``25 - p`` for a blot on point ``p``), averaged over all 36 rolls, / 25.
  15. ``escape``: the share of the 36 rolls with which the rearmost checker can pass
      every point the opponent holds within 12 pips in front of it (by one die, or by
      a combination whose intermediate landing points are open); 1 when nothing
      blocks it.
  16. ``containment``: how well the side's own points hold the opponent back:
      ``1 - m / 36`` where ``m`` is the least number of escaping rolls, in the sense of
      ``escape``, over an opponent checker placed on each of the side's points 1..10.
  17. ``dance``: with checkers on the bar, the chance that one checker fails to enter,
      ``(closed / 6) ** 2`` where ``closed`` counts the points made in the opponent's
      home board; 0 with none on the bar.
  18. ``crossovers``: the quadrant crossings still needed to bring every checker
      home (points 7..12 count 1 per checker, 13..18 count 2, 19..24 count 3, the bar
      4) / ``3 N``.
  19. ``outside_pips``: the pips of the checkers outside the home board beyond the
      6-point (``p - 6`` each, the bar 19) / ``12 N``: the play left before the home
      board has to break.
  20. ``all_home``: 1 when every checker still in play is on points 1..6, else 0.

**Plakoto's contact encoding** ``plakoto-v1`` (also 242 inputs), for networks
trained on Plakoto: ``contact-v1`` of the board without pin marks, except that each
side's four bar units (always empty in Plakoto, where nothing is ever hit) carry that
side's pinned checkers: u0 = 1 when one or more are pinned, u1 = how many / 3 (at most
1), u2 = 1 when its *mother* (a checker on its own 24-point) is pinned, u3 = the points
they are pinned on, summed / 72 (at most 1: checkers pinned far from home cost most).

**Long nardy's contact encoding** ``nardy-v1`` (242 inputs): ``contact-v1`` (its
features that look at the opponent assume the usual board and are rough here), with
each side's bar units (always empty in long nardy) carrying what the rules make of
the position: u0 = the side's longest run of consecutive held points / 6 (a single
checker holds a point), u1 = its longest such run on the points still in front of the
opponent's rearmost checker / 6 (the block that restrains it; six in a row are
allowed only once an opposing checker is past them), u2 = 1 while every checker is
still on the head (the first turn's doubles may take two off), u3 = checkers on the
head / N (one may leave it per turn).

:func:`family_encoding` says which contact encoding a variant's own networks use.

**Race encoding** ``race-v1`` (:data:`RACE_INPUTS` = 208 inputs), used by the race
network (no contact, so no bar and no hits). For each side (104 inputs):

* *Board* (96 inputs): the same four units per point for points 1..24 (no bar).
* *Features* (8 inputs, :data:`RACE_FEATURE_NAMES`):

  0. ``off_1``, 1. ``off_2``, 2. ``off_3``: as in the contact encoding.
  3. ``pips``: the pip count / ``8 N``.
  4. ``crossovers``: as in the contact encoding.
  5. ``outside``: checkers not yet home (points 7..24) / ``N``.
  6. ``deep``: checkers on points 1..3 / ``N`` (pips that bearing off will waste).
  7. ``gaps``: empty points of the home board below its highest occupied point / 5.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from backgammon.rules.blocking_movegen import PINNED
from backgammon.rules.variant import Variant

__all__ = [
    "CONTACT_ENCODING",
    "CONTACT_FAMILY",
    "CONTACT_FEATURE_NAMES",
    "CONTACT_INPUTS",
    "CONTACT_INPUT_NAMES",
    "CONTACT_SIDE_INPUTS",
    "ENCODINGS",
    "NARDY_ENCODING",
    "PLAKOTO_ENCODING",
    "RACE_ENCODING",
    "RACE_FEATURE_NAMES",
    "RACE_INPUTS",
    "RACE_INPUT_NAMES",
    "RACE_SIDE_INPUTS",
    "encode_batch",
    "encode_contact_family_into",
    "encode_contact_into",
    "encode_race_batch",
    "encode_race_into",
    "escape_rolls",
    "family_encoding",
]

Board = npt.NDArray[np.uint8]
Inputs = npt.NDArray[np.float32]

SLOTS = 26
BAR = 25
UNITS = 4

CONTACT_ENCODING = "contact-v1"
"""The name of the contact encoding, as recorded in weights files."""
RACE_ENCODING = "race-v1"
"""The name of the race encoding, as recorded in weights files."""
PLAKOTO_ENCODING = "plakoto-v1"
"""The contact encoding of Plakoto's own networks: pins in the bar units."""
NARDY_ENCODING = "nardy-v1"
"""The contact encoding of long nardy's own networks: blocks and the head in the bar
units."""
CONTACT_FAMILY: dict[str, int] = {CONTACT_ENCODING: 0, PLAKOTO_ENCODING: 1, NARDY_ENCODING: 2}
"""The encodings a contact or crashed network may use, with the code
:func:`encode_contact_family_into` takes."""

CONTACT_FEATURE_NAMES: tuple[str, ...] = (
    "pips",
    "off_1",
    "off_2",
    "off_3",
    "back",
    "back_checkers",
    "outfield",
    "home_checkers",
    "home_points",
    "prime",
    "anchors",
    "forward_anchor",
    "blots",
    "hit_chance",
    "pip_loss",
    "escape",
    "containment",
    "dance",
    "crossovers",
    "outside_pips",
    "all_home",
)
"""The hand-made contact features of one side, in input order (see the module doc)."""

RACE_FEATURE_NAMES: tuple[str, ...] = (
    "off_1",
    "off_2",
    "off_3",
    "pips",
    "crossovers",
    "outside",
    "deep",
    "gaps",
)
"""The hand-made race features of one side, in input order (see the module doc)."""

_CONTACT_BOARD = 25 * UNITS
_RACE_BOARD = 24 * UNITS
CONTACT_SIDE_INPUTS = _CONTACT_BOARD + len(CONTACT_FEATURE_NAMES)
"""Contact inputs per side (121)."""
RACE_SIDE_INPUTS = _RACE_BOARD + len(RACE_FEATURE_NAMES)
"""Race inputs per side (104)."""
CONTACT_INPUTS = 2 * CONTACT_SIDE_INPUTS
"""Size of the contact encoding (242)."""
RACE_INPUTS = 2 * RACE_SIDE_INPUTS
"""Size of the race encoding (208)."""


def _input_names(points: int, features: tuple[str, ...]) -> tuple[str, ...]:
    names: list[str] = []
    for side in ("player", "opponent"):
        for slot in range(1, points + 1):
            label = "bar" if slot == BAR else f"p{slot}"
            names.extend(f"{side}.{label}.u{unit}" for unit in range(UNITS))
        names.extend(f"{side}.{feature}" for feature in features)
    return tuple(names)


CONTACT_INPUT_NAMES = _input_names(25, CONTACT_FEATURE_NAMES)
"""A name for each of the :data:`CONTACT_INPUTS` inputs, e.g. ``"player.p6.u1"``."""
RACE_INPUT_NAMES = _input_names(24, RACE_FEATURE_NAMES)
"""A name for each of the :data:`RACE_INPUTS` inputs, e.g. ``"opponent.pips"``."""

# The 21 distinct rolls (higher die first) and how many of the 36 throws give each.
_ROLLS = np.array([(high, low) for high in range(1, 7) for low in range(1, high + 1)])
_ROLL_WEIGHTS = np.array([1 if high == low else 2 for high, low in _ROLLS], dtype=np.int64)
_ROLL_HIGH = np.ascontiguousarray(_ROLLS[:, 0], dtype=np.int64)
_ROLL_LOW = np.ascontiguousarray(_ROLLS[:, 1], dtype=np.int64)
_POINTS_MASK = np.int64((1 << 25) - 2)  # bits 1..24


def _bit_of_power_mod_37() -> npt.NDArray[np.int64]:
    table = np.zeros(37, dtype=np.int64)
    for bit in range(36):
        table[(1 << bit) % 37] = bit
    table.setflags(write=False)
    return table


_BIT_OF_POWER_MOD_37 = _bit_of_power_mod_37()
"""``k`` at index ``2**k % 37`` (distinct for ``k < 36``): the lowest set bit of a mask
``m`` is ``_BIT_OF_POWER_MOD_37[(m & -m) % 37]``."""


@njit(cache=True)
def _reach(start: np.int64, open_points: np.int64, high: int, low: int, steps: int) -> np.int64:
    """Bit set of the points reachable from the bits of ``start`` with one roll.

    Points increase with each move. A move may land anywhere (the caller keeps only the
    landing points it cares about), but a checker continues only from open points.
    ``steps`` caps the moves of one checker (1: single dice only).
    """
    if high == low:
        reached = np.int64(0)
        current = start
        for _ in range(min(steps, 4)):
            current = (current << high) & _POINTS_MASK
            reached |= current
            current &= open_points
        return reached
    first_high = (start << high) & _POINTS_MASK
    first_low = (start << low) & _POINTS_MASK
    reached = first_high | first_low
    if steps > 1:
        reached |= ((first_high & open_points) << low) | ((first_low & open_points) << high)
    return reached & _POINTS_MASK


def _escape_table() -> npt.NDArray[np.int64]:
    """:func:`escape_rolls` of every 12-bit mask, computed with NumPy at import (the
    Python source of :func:`_reach` works on arrays of masks as it is: no kernel to
    compile before the module can be imported)."""
    masks = np.arange(4096, dtype=np.int64)
    last = np.zeros(4096, dtype=np.int64)  # the farthest blocked distance
    for distance in range(1, 13):
        last = np.where((masks >> (distance - 1)) & 1, distance, last)
    open_points = ~(masks << 1) & _POINTS_MASK  # bit k = distance k
    table = np.zeros(4096, dtype=np.int64)
    reach: Callable[..., Any] = _reach.py_func  # the Python function, on arrays
    for high, low, weight in zip(_ROLL_HIGH, _ROLL_LOW, _ROLL_WEIGHTS, strict=True):
        reached = reach(np.int64(1), open_points, high, low, 4) & open_points
        table += np.where(reached >> (last + 1) != 0, weight, 0)
    table[0] = 36
    table.setflags(write=False)
    return table


_ESCAPES = _escape_table()


def escape_rolls(blocked_distances: int) -> int:
    """How many of the 36 rolls carry a checker past every blocked point in front of it.

    ``blocked_distances`` is a bit set: bit ``k - 1`` means the point ``k`` pips ahead
    (``k = 1..12``) is held by the opponent. A roll escapes when one die, or a
    combination whose intermediate landing points are open, takes the checker to an
    open point beyond the farthest blocked one.

    >>> escape_rolls(0), escape_rolls(0b111111)
    (36, 0)

    Raises:
        ValueError: if the bit set is outside ``0..4095``.
    """
    if not 0 <= blocked_distances < 4096:
        raise ValueError(f"blocked_distances is a 12-bit set, got {blocked_distances}")
    return int(_ESCAPES[blocked_distances])


@njit(cache=True)
def _point_units(count: np.int64, out: Inputs, at: int) -> None:
    if count == 1:
        out[at] = 1.0
    elif count == 2:
        out[at + 1] = 1.0
    elif count >= 3:
        out[at + 2] = 1.0
        if count > 3:
            out[at + 3] = (count - 3) * 0.5


@njit(cache=True)
def _bar_units(count: np.int64, out: Inputs, at: int) -> None:
    if count >= 1:
        out[at] = 1.0
    if count >= 2:
        out[at + 1] = 1.0
    if count >= 3:
        out[at + 2] = 1.0
    if count > 3:
        out[at + 3] = (count - 3) * 0.5


@njit(cache=True)
def _off_thermometer(off: np.int64, checkers: int, out: Inputs, at: int) -> None:
    third = checkers / 3.0
    for k in range(3):
        value = (off - k * third) / third
        out[at + k] = min(max(value, 0.0), 1.0)


@njit(cache=True)
def _contact_side(board: Board, own: int, opp: int, checkers: int, out: Inputs, at: int) -> None:
    """Write one side's 121 contact inputs at ``out[at:]``; ``own``/``opp`` are the slot
    offsets (0 or 26) of the side and of its opponent. ``out`` must be zeroed."""
    n = float(checkers)
    pips = np.int64(0)
    back = 0
    back_checkers = np.int64(0)
    outfield = np.int64(0)
    home = np.int64(0)
    home_points = 0
    blots = 0
    crossovers = np.int64(0)
    outside_pips = np.int64(0)
    made = np.int64(0)  # own made points, own numbering
    blot_bits = np.int64(0)
    for point in range(1, 25):
        count = np.int64(board[own + point])
        _point_units(count, out, at + (point - 1) * UNITS)
        if count == 0:
            continue
        back = point
        pips += count * point
        if count >= 2:
            made |= np.int64(1) << point
            if point <= 6:
                home_points += 1
        else:
            blots += 1
            blot_bits |= np.int64(1) << point
        if point <= 6:
            home += count
        elif point <= 18:
            outfield += count
            crossovers += count * ((point - 1) // 6)
            outside_pips += count * (point - 6)
        else:
            back_checkers += count
            crossovers += count * 3
            outside_pips += count * (point - 6)
    on_bar = np.int64(board[own + BAR])
    _bar_units(on_bar, out, at + 24 * UNITS)
    if on_bar:
        back = BAR
        pips += on_bar * BAR
        back_checkers += on_bar
        crossovers += on_bar * 4
        outside_pips += on_bar * (BAR - 6)

    # The opponent's checkers and made points in this side's numbering.
    theirs_made = np.int64(0)  # opponent made points, this side's numbering
    theirs_made_reversed = np.int64(0)  # the same, bit 25 - p for point p
    attackers = np.int64(0)
    their_home_closed = 0
    for point in range(1, 25):
        count = board[opp + 25 - point]
        if count:
            attackers |= np.int64(1) << point
            if count >= 2:
                theirs_made |= np.int64(1) << point
                theirs_made_reversed |= np.int64(1) << (25 - point)
                if point >= 19:
                    their_home_closed += 1
    their_bar = np.int64(board[opp + BAR])

    f = at + _CONTACT_BOARD
    out[f + 0] = pips / (12.0 * n)
    _off_thermometer(np.int64(board[own]), checkers, out, f + 1)
    out[f + 4] = back / 25.0
    out[f + 5] = back_checkers / n
    out[f + 6] = outfield / n
    out[f + 7] = home / n
    out[f + 8] = home_points / 6.0
    run = 0
    best = 0
    for point in range(1, 25):
        if (made >> point) & 1:
            run += 1
            best = max(best, run)
        else:
            run = 0
    out[f + 9] = min(best, 6) / 6.0
    anchors = 0
    forward = 0
    for point in range(24, 17, -1):
        if (made >> point) & 1:
            if point >= 19:
                anchors += 1
            forward = point
    out[f + 10] = min(anchors, 2) / 2.0
    out[f + 11] = (25 - forward) / 7.0 if forward else 0.0
    out[f + 12] = blots / 5.0

    # Shots at this side's blots (the opponent moves up this side's numbering).
    if blot_bits:
        open_points = ~made & _POINTS_MASK
        steps = 4
        if their_bar:
            attackers = np.int64(1)  # the bar is this side's point 0
            if their_bar >= 2:
                steps = 1
        hitting = 0
        loss = 0
        for roll in range(_ROLL_HIGH.shape[0]):
            hits = _reach(attackers, open_points, _ROLL_HIGH[roll], _ROLL_LOW[roll], steps)
            hits &= blot_bits
            if hits:
                weight = _ROLL_WEIGHTS[roll]
                hitting += weight
                lowest = _BIT_OF_POWER_MOD_37[(hits & -hits) % 37]
                loss += weight * (25 - lowest)
        out[f + 13] = hitting / 36.0
        out[f + 14] = loss / (36.0 * 25.0)

    # Escape of the rearmost checker past the opponent's points.
    # The blocked-distance mask of a checker on point p moving down past blockers B
    # (bit q = point q held) is bits p - 1 .. p - 12 of B, reversed: with R the
    # blockers reversed (bit 25 - q for point q), it is (R >> (26 - p)) & 0xFFF.
    if back:
        out[f + 15] = _ESCAPES[(theirs_made_reversed >> (26 - back)) & 0xFFF] / 36.0
    else:
        out[f + 15] = 1.0
    # Containment: the opponent checker worst placed against this side's points. In the
    # opponent's numbering this side's point p is 25 - p, and it moves down from there;
    # those blockers reversed are this side's made points.
    least = 36
    for their_point in range(15, 25):
        least = min(least, _ESCAPES[(made >> (26 - their_point)) & 0xFFF])
    out[f + 16] = 1.0 - least / 36.0
    if on_bar:
        out[f + 17] = (their_home_closed / 6.0) ** 2
    out[f + 18] = crossovers / (3.0 * n)
    out[f + 19] = outside_pips / (12.0 * n)
    out[f + 20] = 1.0 if back <= 6 else 0.0


@njit(cache=True)
def _race_side(board: Board, own: int, checkers: int, out: Inputs, at: int) -> None:
    """Write one side's 104 race inputs at ``out[at:]`` (``out`` must be zeroed)."""
    n = float(checkers)
    pips = np.int64(0)
    crossovers = np.int64(0)
    outside = np.int64(0)
    deep = np.int64(0)
    highest_home = 0
    for point in range(1, 25):
        count = np.int64(board[own + point])
        _point_units(count, out, at + (point - 1) * UNITS)
        if count == 0:
            continue
        pips += count * point
        if point <= 6:
            highest_home = point
            if point <= 3:
                deep += count
        else:
            outside += count
            crossovers += count * min((point - 1) // 6, 3)
    gaps = 0
    for point in range(1, highest_home):
        if board[own + point] == 0:
            gaps += 1
    f = at + _RACE_BOARD
    _off_thermometer(np.int64(board[own]), checkers, out, f)
    out[f + 3] = pips / (8.0 * n)
    out[f + 4] = crossovers / (3.0 * n)
    out[f + 5] = outside / n
    out[f + 6] = deep / n
    out[f + 7] = gaps / 5.0


@njit(cache=True)
def encode_contact_into(board: Board, checkers: int, out: Inputs) -> None:
    """Write the contact encoding of one 52-slot ``board`` into ``out`` (length
    :data:`CONTACT_INPUTS`, overwritten)."""
    out[:] = 0.0
    # One call site: constant arguments at two would make Numba compile the side's
    # encoding twice, once for each set of literal values.
    for side in range(2):
        own = side * SLOTS
        _contact_side(board, own, SLOTS - own, checkers, out, side * CONTACT_SIDE_INPUTS)


@njit(cache=True)
def encode_race_into(board: Board, checkers: int, out: Inputs) -> None:
    """Write the race encoding of one 52-slot ``board`` into ``out`` (length
    :data:`RACE_INPUTS`, overwritten)."""
    out[:] = 0.0
    for side in range(2):  # one call site (see encode_contact_into)
        _race_side(board, side * SLOTS, checkers, out, side * RACE_SIDE_INPUTS)


@njit(cache=True)
def encode_contact_family_into(board: Board, family: int, checkers: int, out: Inputs) -> None:
    """Write a contact-family encoding of one 52-slot ``board`` into ``out``: ``family``
    0 is ``contact-v1``, 1 ``plakoto-v1`` (``board`` with its pin marks), 2
    ``nardy-v1`` (see :data:`CONTACT_FAMILY`)."""
    if family == 0:
        encode_contact_into(board, checkers, out)
        return
    if family == 2:
        encode_contact_into(board, checkers, out)
        for side in range(2):
            _nardy_units(
                board,
                side * SLOTS,
                SLOTS - side * SLOTS,
                checkers,
                out,
                side * CONTACT_SIDE_INPUTS + 24 * UNITS,
            )
        return
    plain = np.empty(2 * SLOTS, dtype=np.uint8)
    for slot in range(2 * SLOTS):
        plain[slot] = board[slot] & 0x7F
    encode_contact_into(plain, checkers, out)
    for side in range(2):
        own = side * SLOTS
        at = side * CONTACT_SIDE_INPUTS + 24 * UNITS
        pinned = 0
        points = 0
        for point in range(1, 25):
            if board[own + point] & PINNED:
                pinned += 1
                points += point
        out[at] = 1.0 if pinned else 0.0
        out[at + 1] = min(pinned, 3) / 3.0
        out[at + 2] = 1.0 if board[own + 24] & PINNED else 0.0
        out[at + 3] = min(points, 72) / 72.0


@njit(cache=True)
def _nardy_units(board: Board, own: int, opp: int, checkers: int, out: Inputs, at: int) -> None:
    """One side's four long-nardy units (see ``nardy-v1`` in the module doc)."""
    longest = 0
    run = 0
    for point in range(1, 25):
        if board[own + point]:
            run += 1
            longest = max(longest, run)
        else:
            run = 0
    # The opponent's rearmost checker, in its own numbering; the points in front of
    # it, in its order, are its q - 1 .. 1, our (q + 11) % 24 + 1.
    rearmost = 0
    for point in range(24, 0, -1):
        if board[opp + point]:
            rearmost = point
            break
    ahead = 0
    run = 0
    for their in range(rearmost - 1, 0, -1):
        if board[own + (their + 11) % 24 + 1]:
            run += 1
            ahead = max(ahead, run)
        else:
            run = 0
    head = np.int64(board[own + 24])
    out[at] = min(longest, 6) / 6.0
    out[at + 1] = min(ahead, 6) / 6.0
    out[at + 2] = 1.0 if head == checkers else 0.0
    out[at + 3] = head / float(checkers)


def family_encoding(variant: Variant) -> str:
    """The contact encoding a network trained for ``variant`` uses: ``plakoto-v1``
    for games with pinning, ``nardy-v1`` for long nardy's crosswise board,
    ``contact-v1`` otherwise."""
    if variant.pinning:
        return PLAKOTO_ENCODING
    if variant.crosswise:
        return NARDY_ENCODING
    return CONTACT_ENCODING


@njit(cache=True)
def _encode_contact_rows(boards: Board, checkers: int, out: Inputs) -> Inputs:
    for row in range(boards.shape[0]):
        encode_contact_into(boards[row], checkers, out[row])
    return out


@njit(cache=True)
def _encode_race_rows(boards: Board, checkers: int, out: Inputs) -> Inputs:
    for row in range(boards.shape[0]):
        encode_race_into(boards[row], checkers, out[row])
    return out


def _as_boards(boards: npt.ArrayLike) -> Board:
    array = np.ascontiguousarray(boards, dtype=np.uint8)
    if not array.flags.writeable:
        array = array.copy()  # one array type for the kernels: no extra compilation
    if array.ndim == 1:
        array = array.reshape(1, -1)
    if array.ndim != 2 or array.shape[1] != 2 * SLOTS:
        raise ValueError(f"boards must have shape (n, 52), got {np.shape(boards)}")
    return array


def encode_batch(boards: npt.ArrayLike, checkers: int = 15) -> Inputs:
    """The contact encoding of many boards: ``uint8[n, 52] -> float32[n, 242]``.

    A single board of shape ``(52,)`` gives one row.

    >>> from backgammon import Position
    >>> encode_batch(Position.initial().to_array()).shape
    (1, 242)

    Raises:
        ValueError: if ``boards`` is not ``(n, 52)``.
    """
    array = _as_boards(boards)
    out = np.empty((array.shape[0], CONTACT_INPUTS), dtype=np.float32)
    return _encode_contact_rows(array, checkers, out)


def encode_race_batch(boards: npt.ArrayLike, checkers: int = 15) -> Inputs:
    """The race encoding of many boards: ``uint8[n, 52] -> float32[n, 208]``.

    Raises:
        ValueError: if ``boards`` is not ``(n, 52)``.
    """
    array = _as_boards(boards)
    out = np.empty((array.shape[0], RACE_INPUTS), dtype=np.float32)
    return _encode_race_rows(array, checkers, out)


ENCODINGS: dict[str, int] = {
    CONTACT_ENCODING: CONTACT_INPUTS,
    RACE_ENCODING: RACE_INPUTS,
    PLAKOTO_ENCODING: CONTACT_INPUTS,
    NARDY_ENCODING: CONTACT_INPUTS,
}
"""Every encoding by name, with its number of inputs."""
