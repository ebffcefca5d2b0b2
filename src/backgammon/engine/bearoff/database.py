"""Both bear-off databases together (:class:`BearoffDatabase`): which positions they
evaluate, and their probabilities and cube equities for the engine."""

from __future__ import annotations

import os

import numpy as np
import numpy.typing as npt

from backgammon.engine.bearoff.indexing import (
    ONE_SIDED_CHECKERS,
    TWO_SIDED_CHECKERS,
    BearoffClass,
    ProgressCallback,
    _index,
)
from backgammon.engine.bearoff.kernels import _covered_rows, _evaluate_bearoff_rows
from backgammon.engine.bearoff.one_sided import OneSidedDatabase
from backgammon.engine.bearoff.two_sided import BearoffCubeEquities, TwoSidedDatabase
from backgammon.errors import InvalidPositionError
from backgammon.rules.position import Position

__all__ = ["BearoffDatabase"]


def _home_points(side: tuple[int, ...]) -> tuple[int, ...] | None:
    """Points 1..6 of a side's 26 slots, if it has no checker elsewhere; else None."""
    if any(side[7:]):
        return None
    return side[1:7]


class BearoffDatabase:
    """Both bear-off databases together: the evaluator for positions where both sides
    have all their checkers on their home points.

    Open it with :meth:`open` (loading, or building once, the cached files).
    """

    __slots__ = ("one_sided", "two_sided")

    one_sided: OneSidedDatabase
    two_sided: TwoSidedDatabase

    def __init__(self, one_sided: OneSidedDatabase, two_sided: TwoSidedDatabase) -> None:
        """Combine a one-sided and a two-sided database."""
        self.one_sided = one_sided
        self.two_sided = two_sided

    @classmethod
    def open(
        cls,
        directory: str | os.PathLike[str] | None = None,
        *,
        build: bool = True,
        progress: ProgressCallback | None = None,
    ) -> BearoffDatabase:
        """Load both databases from ``directory`` (:func:`default_database_directory`
        if ``None``), building and saving a missing one first if ``build`` is true.

        Raises:
            EngineError: if a file is missing or unreadable and ``build`` is false.
            OSError: if a built database cannot be written.
        """
        return cls(
            OneSidedDatabase.open(directory, build=build, progress=progress),
            TwoSidedDatabase.open(directory, build=build, progress=progress),
        )

    def classify(self, position: Position) -> BearoffClass | None:
        """Which database evaluates ``position``: ``"bearoff2"`` if both sides have at
        most 6 checkers, all on their home points (the two-sided database);
        ``"bearoff1"`` if both have all their checkers (at most 15) on their home
        points (the one-sided database); ``None`` otherwise, also when the game is
        over. The names are GNU Backgammon's position classes.
        """
        mine = _home_points(position.player)
        theirs = _home_points(position.opponent)
        if mine is None or theirs is None:
            return None
        on_mine, on_theirs = sum(mine), sum(theirs)
        if not on_mine or not on_theirs:
            return None
        if on_mine <= TWO_SIDED_CHECKERS and on_theirs <= TWO_SIDED_CHECKERS:
            return "bearoff2"
        if on_mine <= ONE_SIDED_CHECKERS and on_theirs <= ONE_SIDED_CHECKERS:
            return "bearoff1"
        return None

    def covers(self, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
        """Which 52-slot boards (rows) the databases evaluate: both sides with
        checkers left, all on their home points, at most 15 each (the
        :class:`~backgammon.engine.evaluator.BearoffEvaluator` protocol)."""
        array = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 52)
        result: npt.NDArray[np.bool_] = _covered_rows(array)
        return result

    @staticmethod
    def solved(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
        """Which 52-slot boards (rows) the two-sided database values exactly: both
        sides with 1 to 6 checkers, all on their home points, and at least one borne
        off (so no gammon is possible). A lookahead search of them cannot change
        their value. It reads no table, so it can be asked of the class before the
        databases are opened (or built)."""
        array = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 52)
        mine = array[:, 1:7].astype(np.int64).sum(axis=1)
        theirs = array[:, 27:33].astype(np.int64).sum(axis=1)
        result: npt.NDArray[np.bool_] = (
            _covered_rows(array)
            & (mine <= TWO_SIDED_CHECKERS)
            & (theirs <= TWO_SIDED_CHECKERS)
            & (array[:, 0] > 0)
            & (array[:, 26] > 0)
        )
        return result

    def cube_equity_rows(self, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
        """Exact cubeful money equities of 52-slot boards for their side on roll, per
        unit of cube, as ``float64[n, 3]``: no double with a centred cube, no double
        with its own cube, and the opponent owning the cube (see
        :class:`BearoffCubeEquities`); rows that :meth:`solved` does not cover are NaN.
        """
        array = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 52)
        out = np.full((array.shape[0], 3), np.nan)
        two = self.two_sided
        for row in np.flatnonzero(self.solved(array)):
            mine = _index(tuple(int(v) for v in array[row, 1:7]))
            theirs = _index(tuple(int(v) for v in array[row, 27:33]))
            out[row] = (
                two._nd_centred[mine, theirs],
                two._nd_owned[mine, theirs],
                two._opponent_owns[mine, theirs],
            )
        return out

    def evaluate_boards(self, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
        """:meth:`evaluate` for many 52-slot boards, all covered (see :meth:`covers`).

        Raises:
            InvalidPositionError: if a board is not a bear-off position.
        """
        array = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 52)
        out = np.empty((array.shape[0], 5))
        bad = _evaluate_bearoff_rows(
            array,
            self.one_sided._distributions,
            self.one_sided._gammon,
            self.two_sided._win,
            out,
        )
        if bad >= 0:
            raise InvalidPositionError(
                f"board row {bad} is not a bear-off position: both sides need checkers "
                f"left, all on their home points, at most {ONE_SIDED_CHECKERS} each"
            )
        return out

    def evaluate(self, position: Position) -> tuple[float, float, float, float, float]:
        """Cubeless outcome chances for the side on roll of a bear-off position:
        ``(win, win gammon, win backgammon, lose gammon, lose backgammon)``, gammons
        including backgammons.

        The win chance is exact from the two-sided database for ``"bearoff2"``
        positions and from the two independent one-sided distributions for
        ``"bearoff1"`` (see :meth:`classify`). A side that has borne off no checker can
        lose a gammon; its chance comes from the one-sided gammon-saving distribution
        (the package docstring), capped by the chance of losing. Backgammons are impossible.

        Raises:
            InvalidPositionError: if :meth:`classify` gives ``None``.
        """
        kind = self.classify(position)
        if kind is None:
            raise InvalidPositionError(
                f"{position!r} is not a bear-off position: both sides need checkers "
                f"left, all on their home points, at most {ONE_SIDED_CHECKERS} each"
            )
        mine = position.player[1:7]
        theirs = position.opponent[1:7]
        outcomes = self.one_sided._outcomes(
            _index(mine),
            _index(theirs),
            position.opponent_off == 0,
            position.player_off == 0,
        )
        if kind == "bearoff1":
            return outcomes
        win = self.two_sided.win_probability(mine, theirs)
        _, win_gammon, _, lose_gammon, _ = outcomes
        return (win, min(win_gammon, win), 0.0, min(lose_gammon, 1.0 - win), 0.0)

    def cube_equities(self, position: Position) -> BearoffCubeEquities | None:
        """Exact cubeful money equities of a ``"bearoff2"`` position for the side on
        roll (see :class:`BearoffCubeEquities`); ``None`` for any other position."""
        if self.classify(position) != "bearoff2":
            return None
        return self.two_sided.cube_equities(position.player[1:7], position.opponent[1:7])

    def __repr__(self) -> str:
        return f"<BearoffDatabase {self.one_sided!r} {self.two_sided!r}>"
