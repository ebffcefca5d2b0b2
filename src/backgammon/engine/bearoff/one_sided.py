"""The one-sided bear-off database (:class:`OneSidedDatabase`): roll-count and
gammon-saving distributions of every position of up to 15 checkers (see
:mod:`backgammon.engine.bearoff` for the method)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from backgammon.engine.bearoff.indexing import (
    _FORMAT,
    MAX_ROLLS,
    ONE_SIDED_CHECKERS,
    ONE_SIDED_FILE,
    ONE_SIDED_POSITIONS,
    POINTS,
    Float32Array,
    FloatArray,
    ProgressCallback,
    _checked_points,
    _index,
    default_database_directory,
)
from backgammon.engine.bearoff.kernels import _one_sided_batch
from backgammon.engine.bearoff.storage import (
    _load,
    _open_or_build,
    _position_tables,
    _readonly,
    _report,
    _roll_arrays,
    _save,
)
from backgammon.errors import EngineError, InvalidPositionError

__all__ = ["OneSidedDatabase"]


class OneSidedDatabase:
    """Exact roll-count distributions of every position of up to 15 checkers on the six
    home points (54,264 positions), and the gammon-saving (first checker off)
    distributions; see :mod:`backgammon.engine.bearoff` for the method.

    Build it with :meth:`build` or load it with :meth:`open`. Positions are given as 6
    counts (1- to 6-point).
    """

    __slots__ = ("_distributions", "_gammon", "_gammon_mean", "_mean")

    def __init__(
        self,
        distributions: Float32Array,
        mean: FloatArray,
        gammon: Float32Array,
        gammon_mean: FloatArray,
    ) -> None:
        """Wrap arrays indexed by :func:`bearoff_index`: ``distributions`` and
        ``gammon`` of shape ``(54264, 32)``, ``mean`` and ``gammon_mean`` of 54,264.

        Raises:
            EngineError: if the shapes are wrong.
        """
        shape = (ONE_SIDED_POSITIONS, MAX_ROLLS)
        if (
            distributions.shape != shape
            or gammon.shape != shape
            or mean.shape != shape[:1]
            or gammon_mean.shape != shape[:1]
        ):
            raise EngineError("one-sided bear-off arrays have the wrong shapes")
        self._distributions = distributions
        self._mean = mean
        self._gammon = gammon
        self._gammon_mean = gammon_mean

    @classmethod
    def build(cls, progress: ProgressCallback | None = None) -> OneSidedDatabase:
        """Compute the database in memory (a few seconds), reporting to ``progress``."""
        die1, die2, weight = _roll_arrays()
        codes, pips, checkers = _position_tables(ONE_SIDED_CHECKERS)
        size = codes.shape[0]
        dist = np.zeros((size, MAX_ROLLS), dtype=np.float64)
        gammon = np.zeros((size, MAX_ROLLS), dtype=np.float64)
        mean = np.zeros(size, dtype=np.float64)
        gammon_mean = np.zeros(size, dtype=np.float64)
        dist[0, 0] = 1.0
        gammon[0, 0] = 1.0
        order = np.argsort(pips, kind="stable")
        bounds = np.searchsorted(pips[order], np.arange(int(pips.max()) + 2))
        levels = len(bounds) - 1
        for level in range(1, levels):
            batch = order[bounds[level] : bounds[level + 1]]
            _one_sided_batch(
                batch, codes, checkers, die1, die2, weight, dist, mean, gammon, gammon_mean
            )
            _report(progress, "one-sided", level, levels - 1)
        arrays = (dist.astype(np.float32), mean, gammon.astype(np.float32), gammon_mean)
        for array in arrays:
            _readonly(array)
        return cls(*arrays)

    @classmethod
    def open(
        cls,
        directory: str | os.PathLike[str] | None = None,
        *,
        build: bool = True,
        progress: ProgressCallback | None = None,
    ) -> OneSidedDatabase:
        """Load the database from ``directory`` (:func:`default_database_directory` if
        ``None``); if it is missing or unreadable and ``build`` is true, build it and
        save it there first.

        Raises:
            EngineError: if the file is missing or unreadable and ``build`` is false.
            OSError: if a built database cannot be written.
        """
        path = Path(directory or default_database_directory()) / ONE_SIDED_FILE
        return _open_or_build(path, cls._from_file, lambda: cls.build(progress), build)

    @classmethod
    def _from_file(cls, path: Path) -> OneSidedDatabase:
        if not path.exists():
            raise EngineError(
                f"no one-sided bear-off database at {str(path)!r}; build it with: "
                f"python -m backgammon.engine.bearoff build"
            )
        arrays = _load(path, "one-sided")
        try:
            values = (
                arrays["distributions"].astype(np.float32, copy=False),
                arrays["mean"].astype(np.float64, copy=False),
                arrays["gammon"].astype(np.float32, copy=False),
                arrays["gammon_mean"].astype(np.float64, copy=False),
            )
        except KeyError as exc:
            raise EngineError(f"{str(path)!r} lacks the array {exc}") from None
        for array in values:
            _readonly(array)
        return cls(*values)

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write the database into ``directory`` as ``bearoff1-15x6.npz``; returns the
        file's path."""
        path = Path(directory) / ONE_SIDED_FILE
        _save(
            path,
            {
                "kind": np.array("one-sided"),
                "format": np.array(_FORMAT),
                "distributions": self._distributions,
                "mean": self._mean,
                "gammon": self._gammon,
                "gammon_mean": self._gammon_mean,
            },
        )
        return path

    def rolls_distribution(self, points: Sequence[int] | npt.ArrayLike) -> FloatArray:
        """The chances of needing exactly ``n`` rolls to bear off every checker, for
        ``n = 0 .. 31`` (a fresh float64 array), playing to minimise the mean.

        >>> # two checkers on the 2-point: a 1 with another number fails, 10 rolls in 36
        >>> db = OneSidedDatabase.build()
        >>> [round(36 * p) for p in db.rolls_distribution([0, 2, 0, 0, 0, 0])[:3]]
        [0, 26, 10]

        Raises:
            InvalidPositionError: if ``points`` is not a position of the database.
        """
        index = _index(_checked_points(points, ONE_SIDED_CHECKERS))
        return np.asarray(self._distributions[index], dtype=np.float64)

    def expected_rolls(self, points: Sequence[int] | npt.ArrayLike) -> float:
        """The mean number of rolls to bear off every checker (minimised).

        Raises:
            InvalidPositionError: if ``points`` is not a position of the database.
        """
        return float(self._mean[_index(_checked_points(points, ONE_SIDED_CHECKERS))])

    def gammon_distribution(self, points: Sequence[int] | npt.ArrayLike) -> FloatArray:
        """The chances of needing exactly ``n`` rolls until at least one checker of the
        position is off (``n = 0 .. 31``), playing to minimise that number's mean. Bin 0
        holds only for the empty position.

        Raises:
            InvalidPositionError: if ``points`` is not a position of the database.
        """
        index = _index(_checked_points(points, ONE_SIDED_CHECKERS))
        return np.asarray(self._gammon[index], dtype=np.float64)

    def expected_gammon_rolls(self, points: Sequence[int] | npt.ArrayLike) -> float:
        """The mean number of rolls until the first checker is off (minimised).

        Raises:
            InvalidPositionError: if ``points`` is not a position of the database.
        """
        return float(self._gammon_mean[_index(_checked_points(points, ONE_SIDED_CHECKERS))])

    def win_probability(
        self,
        player: Sequence[int] | npt.ArrayLike,
        opponent: Sequence[int] | npt.ArrayLike,
    ) -> float:
        """Cubeless chance that the side on roll (``player``) wins the race, from the
        two independent distributions: ``sum_n P(n) * Q(>= n)``.

        Raises:
            InvalidPositionError: if a side is not a position of the database, or both
                are empty.
        """
        return self.probabilities(player, opponent, checkers=None)[0]

    def probabilities(
        self,
        player: Sequence[int] | npt.ArrayLike,
        opponent: Sequence[int] | npt.ArrayLike,
        *,
        checkers: int | None = ONE_SIDED_CHECKERS,
    ) -> tuple[float, float, float, float, float]:
        """The five cubeless outcome chances for the side on roll (``player``):
        ``(win, win gammon, win backgammon, lose gammon, lose backgammon)``, gammons
        included in wins and backgammons in gammons.

        A side can be gammoned when it has ``checkers`` checkers on its points (it has
        borne off none); ``checkers=None`` leaves gammons out. Gammon chances come from
        the gammon-saving distributions (the package docstring); backgammons are 0.

        Raises:
            InvalidPositionError: if a side is not a position of the database, or both
                are empty.
        """
        mine = _checked_points(player, ONE_SIDED_CHECKERS)
        theirs = _checked_points(opponent, ONE_SIDED_CHECKERS)
        if not any(mine) and not any(theirs):
            raise InvalidPositionError("both sides have borne off every checker")
        return self._outcomes(
            _index(mine),
            _index(theirs),
            checkers is not None and sum(theirs) == checkers,
            checkers is not None and sum(mine) == checkers,
        )

    def _outcomes(
        self, player: int, opponent: int, gammon_opponent: bool, gammon_player: bool
    ) -> tuple[float, float, float, float, float]:
        mine = self._distributions[player].astype(np.float64)
        theirs = self._distributions[opponent].astype(np.float64)
        theirs_at_least = np.cumsum(theirs[::-1])[::-1]
        win = min(1.0, float(mine @ theirs_at_least))
        win_gammon = lose_gammon = 0.0
        if gammon_opponent:
            first_off = self._gammon[opponent].astype(np.float64)
            at_least = np.cumsum(first_off[::-1])[::-1]
            win_gammon = min(win, float(mine @ at_least))
        if gammon_player:
            first_off = self._gammon[player].astype(np.float64)
            beyond = np.append(np.cumsum(first_off[::-1])[::-1][1:], 0.0)
            lose_gammon = min(1.0 - win, float(theirs @ beyond))
        return (win, win_gammon, 0.0, lose_gammon, 0.0)

    def __repr__(self) -> str:
        return f"<OneSidedDatabase {ONE_SIDED_CHECKERS}x{POINTS}: {ONE_SIDED_POSITIONS} positions>"
