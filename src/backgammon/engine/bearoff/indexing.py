"""Bear-off positions and their indices: the databases' sizes and file names,
:func:`bearoff_index` and :func:`bearoff_points` (the ranking described in
:mod:`backgammon.engine.bearoff`), and the folder the databases are cached in."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from backgammon.errors import InvalidPositionError

__all__ = [
    "MAX_ROLLS",
    "ONE_SIDED_CHECKERS",
    "ONE_SIDED_FILE",
    "ONE_SIDED_POSITIONS",
    "POINTS",
    "TWO_SIDED_CHECKERS",
    "TWO_SIDED_FILE",
    "TWO_SIDED_POSITIONS",
    "BearoffClass",
    "ProgressCallback",
    "bearoff_index",
    "bearoff_points",
    "default_database_directory",
]

POINTS = 6
"""Home points covered by both databases."""
ONE_SIDED_CHECKERS = 15
"""Most checkers of a position in the one-sided database."""
TWO_SIDED_CHECKERS = 6
"""Most checkers of each side in the two-sided database."""
ONE_SIDED_POSITIONS = math.comb(ONE_SIDED_CHECKERS + POINTS, POINTS)
"""Positions of the one-sided database: 54,264."""
TWO_SIDED_POSITIONS = math.comb(TWO_SIDED_CHECKERS + POINTS, POINTS)
"""Positions per side of the two-sided database: 924 (indices ``0 .. 923``)."""
MAX_ROLLS = 32
"""Bins of a roll-count distribution: bin ``n`` is the chance of needing ``n`` rolls."""

ONE_SIDED_FILE = "bearoff1-15x6.npz"
"""File name of the one-sided database in its folder."""
TWO_SIDED_FILE = "bearoff2-6x6.npz"
"""File name of the two-sided database in its folder."""
_FORMAT = 1

BearoffClass: TypeAlias = Literal["bearoff1", "bearoff2"]
"""The database that evaluates a position (see :meth:`BearoffDatabase.classify`)."""

ProgressCallback: TypeAlias = Callable[[str, int, int], None]
"""Called as ``progress(stage, done, total)`` while building; ``stage`` is
``"one-sided"`` or ``"two-sided"``, and ``done`` counts up to ``total``."""

FloatArray: TypeAlias = npt.NDArray[np.float64]
Float32Array: TypeAlias = npt.NDArray[np.float32]
IntArray: TypeAlias = npt.NDArray[np.int64]


def _binomials() -> IntArray:
    table = np.zeros((32, 8), dtype=np.int64)
    for n in range(32):
        for k in range(8):
            table[n, k] = math.comb(n, k)
    table.setflags(write=False)
    return table


_BINOM = _binomials()
"""``_BINOM[n, k] = C(n, k)``; a read-only constant that the kernels compile in."""


# --- ranking ---------------------------------------------------------------------------


def default_database_directory() -> Path:
    """The folder where the databases are cached by default.

    ``$BACKGAMMON_CACHE_DIR`` if set; else ``$XDG_CACHE_HOME/backgammon``; else
    ``~/.cache/backgammon``.
    """
    explicit = os.environ.get("BACKGAMMON_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "backgammon"


def _checked_points(points: Sequence[int] | npt.ArrayLike, limit: int) -> tuple[int, ...]:
    """Six non-negative counts with at most ``limit`` checkers, or InvalidPositionError."""
    try:
        values = tuple(np.asarray(points).reshape(-1).tolist())
    except (TypeError, ValueError):
        raise InvalidPositionError(
            f"a bear-off position is 6 checker counts (1- to 6-point), got {points!r}"
        ) from None
    if len(values) != POINTS or not all(
        isinstance(value, int) and not isinstance(value, bool) and value >= 0 for value in values
    ):
        raise InvalidPositionError(
            f"a bear-off position is 6 non-negative checker counts (1- to 6-point), got {points!r}"
        )
    if sum(values) > limit:
        raise InvalidPositionError(
            f"bear-off position {list(values)} has {sum(values)} checkers, "
            f"this database holds at most {limit}"
        )
    return values


def _index(values: Sequence[int]) -> int:
    total = sum(values)
    index = math.comb(total + POINTS - 1, POINTS)
    partial = -1
    for k in range(1, POINTS):
        partial += values[k - 1] + 1
        index += math.comb(partial, k)
    return index


def bearoff_index(points: Sequence[int] | npt.ArrayLike) -> int:
    """The index of a bear-off position (6 counts, 1- to 6-point) in the databases.

    The combinatorial ranking described in the package docstring: positions of fewer
    checkers first, so indices below 924 are the positions of at most 6 checkers.

    >>> bearoff_index([0, 0, 0, 0, 0, 0]), bearoff_index([0, 0, 0, 0, 0, 1])
    (0, 1)
    >>> bearoff_index([15, 0, 0, 0, 0, 0])
    54263

    Raises:
        InvalidPositionError: if ``points`` is not 6 non-negative counts summing to at
            most 15.
    """
    return _index(_checked_points(points, ONE_SIDED_CHECKERS))


def bearoff_points(index: int) -> tuple[int, ...]:
    """The position of a database index: the inverse of :func:`bearoff_index`.

    >>> bearoff_points(54263)
    (15, 0, 0, 0, 0, 0)

    Raises:
        ValueError: if ``index`` is not in ``0 .. 54263``.
    """
    if isinstance(index, bool) or not isinstance(index, int | np.integer):
        raise ValueError(f"a bear-off index is an int in 0..54263, got {index!r}")
    index = int(index)
    if not 0 <= index < ONE_SIDED_POSITIONS:
        raise ValueError(f"bear-off index {index} is not in 0..{ONE_SIDED_POSITIONS - 1}")
    total = 0
    while math.comb(total + POINTS, POINTS) <= index:
        total += 1
    rest = index - math.comb(total + POINTS - 1, POINTS)
    partials = [0] * POINTS
    for k in range(POINTS - 1, 0, -1):
        value = k - 1
        while math.comb(value + 1, k) <= rest:
            value += 1
        partials[k - 1] = value
        rest -= math.comb(value, k)
    counts = []
    previous = -1
    for k in range(1, POINTS):
        counts.append(partials[k - 1] - previous - 1)
        previous = partials[k - 1]
    counts.append(total - sum(counts))
    return tuple(counts)
