"""The two-sided bear-off database (:class:`TwoSidedDatabase`): exact cubeless
winning chances and cubeful money equities of every pair of positions of up to 6
checkers (see :mod:`backgammon.engine.bearoff` for the method)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from backgammon.engine.bearoff.indexing import (
    _FORMAT,
    POINTS,
    TWO_SIDED_CHECKERS,
    TWO_SIDED_FILE,
    TWO_SIDED_POSITIONS,
    Float32Array,
    ProgressCallback,
    _checked_points,
    _index,
    default_database_directory,
)
from backgammon.engine.bearoff.kernels import _successor_lists, _two_sided_batch
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

__all__ = ["BearoffCubeEquities", "TwoSidedDatabase"]


class BearoffCubeEquities(NamedTuple):
    """Exact cubeful money equities of a two-sided bear-off position, for the side on
    roll before it rolls, per unit of the current cube (no Jacoby rule, no beavers).

    ``centred``, ``owned`` and ``opponent_owns`` are the equities with optimal cube
    action now and later by both sides, for the three cube positions. The others split
    the side on roll's decision now: ``centred_no_double`` and ``owned_no_double`` if it
    does not double, ``double_take`` if it doubles and is taken (the opponent then owns a
    cube twice as high); a double that is passed is worth exactly 1.
    """

    centred: float
    owned: float
    opponent_owns: float
    centred_no_double: float
    owned_no_double: float
    double_take: float


class TwoSidedDatabase:
    """Exact cubeless winning chances and cubeful money equities of every pair of
    bear-off positions of up to 6 checkers each (924 x 924); see :mod:`backgammon.engine.bearoff`
    for the method.

    Build it with :meth:`build` or load it with :meth:`open`. Positions are given as 6
    counts (1- to 6-point) for the side on roll (``player``) and the ``opponent``.
    """

    __slots__ = ("_nd_centred", "_nd_owned", "_opponent_owns", "_win")

    def __init__(
        self,
        win: Float32Array,
        nd_centred: Float32Array,
        nd_owned: Float32Array,
        opponent_owns: Float32Array,
    ) -> None:
        """Wrap ``(924, 924)`` arrays indexed ``[player, opponent]`` by
        :func:`bearoff_index`: the cubeless win chance, the no-double equities for a
        centred and an owned cube, and the equity when the opponent owns the cube.

        Raises:
            EngineError: if the shapes are wrong.
        """
        shape = (TWO_SIDED_POSITIONS, TWO_SIDED_POSITIONS)
        if any(array.shape != shape for array in (win, nd_centred, nd_owned, opponent_owns)):
            raise EngineError("two-sided bear-off arrays have the wrong shapes")
        self._win = win
        self._nd_centred = nd_centred
        self._nd_owned = nd_owned
        self._opponent_owns = opponent_owns

    @classmethod
    def build(cls, progress: ProgressCallback | None = None) -> TwoSidedDatabase:
        """Compute the database in memory (a few seconds), reporting to ``progress``."""
        die1, die2, weight = _roll_arrays()
        codes, pips, _ = _position_tables(TWO_SIDED_CHECKERS)
        size = codes.shape[0]
        rolls = weight.shape[0]
        start = np.zeros(size * rolls + 1, dtype=np.int64)
        targets = np.zeros(size * rolls * 1296, dtype=np.int64)
        written = _successor_lists(codes, die1, die2, start, targets)
        targets = targets[:written].copy()
        shape = (size, size)
        win = np.zeros(shape)
        nd_centred = np.zeros(shape)
        nd_owned = np.zeros(shape)
        e_centred = np.zeros(shape)
        e_owned = np.zeros(shape)
        e_opponent = np.zeros(shape)
        # Finished games: a side with no checkers has won (it cannot be on roll with
        # its opponent finished too); the pair (0, 0) never occurs and stays 0.
        for array, value in ((win, 1.0), (nd_centred, 1.0), (nd_owned, 1.0)):
            array[0, 1:] = value
        for array in (e_centred, e_owned, e_opponent):
            array[0, 1:] = 1.0
            array[1:, 0] = -1.0
        for array in (nd_centred, nd_owned):
            array[1:, 0] = -1.0
        totals = (pips[:, None] + pips[None, :]).reshape(-1)
        playable = np.ones(shape, dtype=bool)
        playable[0, :] = False
        playable[:, 0] = False
        candidates = np.flatnonzero(playable.reshape(-1))
        order = candidates[np.argsort(totals[candidates], kind="stable")]
        sorted_totals = totals[order]
        top = int(sorted_totals[-1])
        bounds = np.searchsorted(sorted_totals, np.arange(top + 2))
        for level in range(top + 1):
            batch = order[bounds[level] : bounds[level + 1]]
            if batch.shape[0]:
                _two_sided_batch(
                    batch,
                    start,
                    targets,
                    weight,
                    win,
                    nd_centred,
                    nd_owned,
                    e_centred,
                    e_owned,
                    e_opponent,
                )
            _report(progress, "two-sided", level + 1, top + 1)
        stored = tuple(
            table.astype(np.float32) for table in (win, nd_centred, nd_owned, e_opponent)
        )
        for table in stored:
            _readonly(table)
        return cls(*stored)

    @classmethod
    def open(
        cls,
        directory: str | os.PathLike[str] | None = None,
        *,
        build: bool = True,
        progress: ProgressCallback | None = None,
    ) -> TwoSidedDatabase:
        """Load the database from ``directory`` (:func:`default_database_directory` if
        ``None``); if it is missing or unreadable and ``build`` is true, build it and
        save it there first.

        Raises:
            EngineError: if the file is missing or unreadable and ``build`` is false.
            OSError: if a built database cannot be written.
        """
        path = Path(directory or default_database_directory()) / TWO_SIDED_FILE
        return _open_or_build(path, cls._from_file, lambda: cls.build(progress), build)

    @classmethod
    def _from_file(cls, path: Path) -> TwoSidedDatabase:
        if not path.exists():
            raise EngineError(
                f"no two-sided bear-off database at {str(path)!r}; build it with: "
                f"python -m backgammon.engine.bearoff build"
            )
        arrays = _load(path, "two-sided")
        try:
            values = tuple(
                arrays[name].astype(np.float32, copy=False)
                for name in ("win", "centred_no_double", "owned_no_double", "opponent_owns")
            )
        except KeyError as exc:
            raise EngineError(f"{str(path)!r} lacks the array {exc}") from None
        for array in values:
            _readonly(array)
        return cls(*values)

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write the database into ``directory`` as ``bearoff2-6x6.npz``; returns the
        file's path."""
        path = Path(directory) / TWO_SIDED_FILE
        _save(
            path,
            {
                "kind": np.array("two-sided"),
                "format": np.array(_FORMAT),
                "win": self._win,
                "centred_no_double": self._nd_centred,
                "owned_no_double": self._nd_owned,
                "opponent_owns": self._opponent_owns,
            },
        )
        return path

    def _pair(
        self, player: Sequence[int] | npt.ArrayLike, opponent: Sequence[int] | npt.ArrayLike
    ) -> tuple[int, int]:
        mine = _checked_points(player, TWO_SIDED_CHECKERS)
        theirs = _checked_points(opponent, TWO_SIDED_CHECKERS)
        if not any(mine) and not any(theirs):
            raise InvalidPositionError("both sides have borne off every checker")
        return _index(mine), _index(theirs)

    def win_probability(
        self,
        player: Sequence[int] | npt.ArrayLike,
        opponent: Sequence[int] | npt.ArrayLike,
    ) -> float:
        """Exact cubeless chance that the side on roll (``player``) wins, both sides
        playing to maximise their winning chances. A side with no checkers left has
        won.

        Raises:
            InvalidPositionError: if a side has more than 6 checkers or is malformed, or
                both are empty.
        """
        mine, theirs = self._pair(player, opponent)
        return float(self._win[mine, theirs])

    def cube_equities(
        self,
        player: Sequence[int] | npt.ArrayLike,
        opponent: Sequence[int] | npt.ArrayLike,
    ) -> BearoffCubeEquities:
        """Exact cubeful money equities for the side on roll (``player``); see
        :class:`BearoffCubeEquities`.

        Raises:
            InvalidPositionError: if a side has more than 6 checkers or is malformed, or
                both are empty.
        """
        mine, theirs = self._pair(player, opponent)
        centred = float(self._nd_centred[mine, theirs])
        owned = float(self._nd_owned[mine, theirs])
        opponent_owns = float(self._opponent_owns[mine, theirs])
        double_take = 2.0 * opponent_owns
        # A finished game has no cube action.
        doubled = centred if mine == 0 or theirs == 0 else min(double_take, 1.0)
        return BearoffCubeEquities(
            centred=max(centred, doubled),
            owned=max(owned, doubled),
            opponent_owns=opponent_owns,
            centred_no_double=centred,
            owned_no_double=owned,
            double_take=double_take,
        )

    def __repr__(self) -> str:
        return (
            f"<TwoSidedDatabase {TWO_SIDED_CHECKERS}x{POINTS}: "
            f"{TWO_SIDED_POSITIONS}x{TWO_SIDED_POSITIONS} pairs>"
        )
