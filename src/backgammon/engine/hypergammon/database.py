"""The hypergammon database: its file, opening it (building it when missing) and
looking positions up.

**Files.** :func:`~backgammon.engine.hypergammon.build.build_database` solves one
checker count and writes ``hypergammon-N.npz`` (arrays ``probabilities`` ``(P, 5)``,
``centred_no_double``, ``owned_no_double`` and ``opponent_owns`` ``(P,)``; float64 for
1 and 2 checkers, float32 for 3) into
:func:`~backgammon.engine.bearoff.default_database_directory`;
``python -m backgammon.engine.hypergammon build --checkers N`` and
``backgammon build-hypergammon --checkers N`` do the same from the command line.
:meth:`HypergammonDatabase.open` loads a file, building it first if missing. The engine
builds the 1- and 2-checker files on first use (CPU time here: 0.2 s and about 10 s, 16
and 28 sweeps); the 3-checker one (every core, about 9 min on 2) only by the command or the
server's background build (see docs/variants.md for the figures and the checks).
"""

from __future__ import annotations

import os
import uuid
import zipfile
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from backgammon.engine.bearoff import default_database_directory
from backgammon.engine.hypergammon.indexing import (
    FloatArray,
    IntArray,
    _check_checkers,
    pair_count,
    side_count,
)
from backgammon.engine.hypergammon.kernels import _board_pairs
from backgammon.engine.hypergammon.solver import (
    TOLERANCE,
    SolveProgress,
    _solve,
    default_tolerance,
)
from backgammon.errors import EngineError, InvalidPositionError
from backgammon.rules.position import Position

__all__ = [
    "BUILD_COMMAND",
    "BUILT_ON_FIRST_USE",
    "HypergammonCubeEquities",
    "HypergammonDatabase",
    "available",
    "database_file",
]

BUILT_ON_FIRST_USE = (1, 2)
"""The checker counts whose databases the engine builds when it first needs them
(seconds); the 3-checker one (about 9 min on 2 cores) is built only by the command or the server."""
_FORMAT = 1

BUILD_COMMAND = "backgammon build-hypergammon --checkers {checkers}"
"""The command that builds a database (formatted with the checker count)."""


def database_file(checkers: int) -> str:
    """The file name of the database of ``checkers`` checkers: ``hypergammon-N.npz``."""
    return f"hypergammon-{_check_checkers(checkers)}.npz"


def available(checkers: int, directory: str | os.PathLike[str] | None = None) -> bool:
    """Whether the database of ``checkers`` checkers is in ``directory`` (the cache
    folder by default)."""
    folder = Path(directory or default_database_directory())
    return (folder / database_file(checkers)).exists()


class HypergammonCubeEquities(NamedTuple):
    """Exact cubeful money equities of a hypergammon position, for the side on roll
    before it rolls, per unit of the current cube (no Jacoby rule, no beavers).

    ``centred``, ``owned`` and ``opponent_owns`` are the equities with optimal play and
    cube action by both sides, for the three cube positions; ``centred_no_double`` and
    ``owned_no_double`` if the side on roll does not double now, ``double_take`` if it
    doubles and is taken. A double that is passed is worth exactly 1.
    """

    centred: float
    owned: float
    opponent_owns: float
    centred_no_double: float
    owned_no_double: float
    double_take: float


class HypergammonDatabase:
    """Exact cubeless chances and money cubeful equities of every position of
    hypergammon with ``checkers`` checkers a side (see :mod:`backgammon.engine.hypergammon`).

    Build it with :meth:`build` or load it (building it once) with :meth:`open`.
    """

    __slots__ = (
        "_centred_no_double",
        "_opponent_owns",
        "_owned_no_double",
        "_probabilities",
        "checkers",
        "sweeps",
        "tolerance",
    )

    checkers: int
    """Checkers per side."""
    sweeps: int
    """How many sweeps the iteration took (0 when unknown)."""
    tolerance: float
    """The tolerance the iteration ran to."""

    def __init__(
        self,
        checkers: int,
        probabilities: npt.NDArray[np.floating[Any]],
        centred_no_double: npt.NDArray[np.floating[Any]],
        owned_no_double: npt.NDArray[np.floating[Any]],
        opponent_owns: npt.NDArray[np.floating[Any]],
        *,
        sweeps: int = 0,
        tolerance: float = TOLERANCE,
    ) -> None:
        """Wrap arrays indexed by :func:`pair_index`: ``probabilities`` ``(P, 5)`` and
        the three cube arrays ``(P,)``.

        Raises:
            EngineError: if the shapes are wrong.
        """
        pairs = pair_count(_check_checkers(checkers))
        if probabilities.shape != (pairs, 5) or any(
            array.shape != (pairs,) for array in (centred_no_double, owned_no_double, opponent_owns)
        ):
            raise EngineError(f"hypergammon-{checkers} arrays have the wrong shapes")
        self.checkers = checkers
        self._probabilities = probabilities
        self._centred_no_double = centred_no_double
        self._owned_no_double = owned_no_double
        self._opponent_owns = opponent_owns
        self.sweeps = sweeps
        self.tolerance = tolerance
        for array in (probabilities, centred_no_double, owned_no_double, opponent_owns):
            array.setflags(write=False)

    @classmethod
    def build(
        cls,
        checkers: int,
        tolerance: float | None = None,
        progress: SolveProgress | None = None,
        state: str | os.PathLike[str] | None = None,
        threads: int | None = None,
    ) -> HypergammonDatabase:
        """Solve ``checkers``-checker hypergammon in memory (float64) to ``tolerance``
        (:func:`default_tolerance` if ``None``) on ``threads`` threads (if ``None``,
        every core for 3 checkers, one for 1 and 2); with ``state``, saving the
        iteration there every two minutes and resuming from it if present.

        Raises:
            ValueError: for a checker count other than 1, 2 or 3.
            EngineError: if the iteration does not converge.
        """
        limit = default_tolerance(checkers) if tolerance is None else tolerance
        solution = _solve(
            checkers,
            limit,
            progress=progress,
            state=None if state is None else Path(state),
            threads=threads,
        )
        return cls(
            checkers,
            solution.probabilities,
            solution.centred_no_double,
            solution.owned_no_double,
            solution.opponent_owns,
            sweeps=solution.sweeps,
            tolerance=limit,
        )

    @classmethod
    def open(
        cls,
        checkers: int,
        directory: str | os.PathLike[str] | None = None,
        *,
        build: bool = True,
        progress: SolveProgress | None = None,
    ) -> HypergammonDatabase:
        """Load the database of ``checkers`` checkers from ``directory``
        (:func:`~backgammon.engine.bearoff.default_database_directory` if ``None``);
        if it is missing or unreadable and ``build`` is true, solve it and save it
        there first (2 checkers: seconds; 3 checkers: see docs/variants.md).

        Raises:
            ValueError: for a checker count other than 1, 2 or 3.
            EngineError: if the file is missing or unreadable and ``build`` is false.
            OSError: if a built database cannot be written.
        """
        path = Path(directory or default_database_directory()) / database_file(checkers)
        if path.exists() or not build:
            try:
                return cls._from_file(path, checkers)
            except EngineError:
                if not build:
                    raise
        database = cls.build(checkers, progress=progress)
        database.save(path.parent)
        return database

    @classmethod
    def _from_file(cls, path: Path, checkers: int) -> HypergammonDatabase:
        command = BUILD_COMMAND.format(checkers=checkers)
        if not path.exists():
            raise EngineError(f"no hypergammon database at {str(path)!r}; build it with: {command}")
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise EngineError(f"cannot read hypergammon database {str(path)!r}: {exc}") from None
        if (
            str(arrays.get("kind", "")) != "hypergammon"
            or int(arrays.get("format", -1)) != _FORMAT
            or int(arrays.get("checkers", -1)) != checkers
        ):
            raise EngineError(
                f"{str(path)!r} is not a format-{_FORMAT} {checkers}-checker hypergammon "
                f"database; rebuild it with: {command}"
            )
        try:
            return cls(
                checkers,
                arrays["probabilities"],
                arrays["centred_no_double"],
                arrays["owned_no_double"],
                arrays["opponent_owns"],
                sweeps=int(arrays["sweeps"]),
                tolerance=float(arrays["tolerance"]),
            )
        except KeyError as exc:
            raise EngineError(f"{str(path)!r} lacks the array {exc}") from None

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write the database into ``directory`` as ``hypergammon-N.npz`` (compressed,
        atomically; float64 for 1 and 2 checkers, float32 for 3); returns the file's
        path."""
        path = Path(directory) / database_file(self.checkers)
        dtype = np.float64 if self.checkers <= 2 else np.float32
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp")
        arrays = {
            "kind": np.array("hypergammon"),
            "format": np.array(_FORMAT),
            "checkers": np.array(self.checkers),
            "sweeps": np.array(self.sweeps),
            "tolerance": np.array(self.tolerance),
            "probabilities": self._probabilities.astype(dtype),
            "centred_no_double": self._centred_no_double.astype(dtype),
            "owned_no_double": self._owned_no_double.astype(dtype),
            "opponent_owns": self._opponent_owns.astype(dtype),
        }
        try:
            with open(temporary, "wb") as stream:
                np.savez_compressed(stream, **arrays)  # type: ignore[arg-type]
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        return path

    # -- lookups ----------------------------------------------------------------------

    def pairs(self, boards: npt.ArrayLike) -> IntArray:
        """The pair indices of 52-slot boards (rows).

        Raises:
            InvalidPositionError: if a board does not have this many checkers a side.
        """
        array = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 52)
        out = np.empty(array.shape[0], dtype=np.int64)
        bad = _board_pairs(array, self.checkers, side_count(self.checkers), out)
        if bad >= 0:
            raise InvalidPositionError(
                f"board row {bad} is not a {self.checkers}-checker hypergammon position"
            )
        return out

    def evaluate_boards(self, boards: npt.ArrayLike) -> FloatArray:
        """The five cubeless chances ``float64[n, 5]`` of 52-slot boards, each for its
        side on roll before it rolls (exact results for finished games).

        Raises:
            InvalidPositionError: if a board is not a position of this database.
        """
        pairs = self.pairs(boards)
        values = np.asarray(self._probabilities[pairs], dtype=np.float64)
        if np.isnan(values).any():
            row = int(np.flatnonzero(np.isnan(values[:, 0]))[0])
            raise InvalidPositionError(f"board row {row} has both sides on one point")
        return values

    def evaluate(self, position: Position) -> tuple[float, float, float, float, float]:
        """The five cubeless chances of ``position`` for the side on roll:
        ``(win, win gammon, win backgammon, lose gammon, lose backgammon)``.

        Raises:
            InvalidPositionError: if it is not a position of this database.
        """
        row = self.evaluate_boards(position.to_array())[0]
        return (float(row[0]), float(row[1]), float(row[2]), float(row[3]), float(row[4]))

    def cube_equity_rows(self, boards: npt.ArrayLike) -> FloatArray:
        """Exact money cubeful equities of 52-slot boards for their side on roll, per
        unit of cube, as ``float64[n, 3]``: no double with a centred cube, no double
        with its own cube, and the opponent owning the cube (see
        :class:`HypergammonCubeEquities`); NaN for finished games (the
        :data:`~backgammon.engine.cubeful.ExactCubeEquities` form).

        Raises:
            InvalidPositionError: if a board is not a position of this database.
        """
        pairs = self.pairs(boards)
        out = np.stack(
            [
                np.asarray(self._centred_no_double[pairs], dtype=np.float64),
                np.asarray(self._owned_no_double[pairs], dtype=np.float64),
                np.asarray(self._opponent_owns[pairs], dtype=np.float64),
            ],
            axis=1,
        )
        size = side_count(self.checkers)
        out[(pairs // size == 0) | (pairs % size == 0)] = np.nan
        return out

    def cube_equities(self, position: Position) -> HypergammonCubeEquities:
        """Exact money cubeful equities of ``position`` (see
        :class:`HypergammonCubeEquities`); a finished game's result for all.

        Raises:
            InvalidPositionError: if it is not a position of this database.
        """
        self.evaluate_boards(position.to_array())
        pair = int(self.pairs(position.to_array())[0])
        centred = float(self._centred_no_double[pair])
        owned = float(self._owned_no_double[pair])
        opponent_owns = float(self._opponent_owns[pair])
        double_take = 2.0 * opponent_owns
        size = side_count(self.checkers)
        over = pair // size == 0 or pair % size == 0
        doubled = centred if over else min(double_take, 1.0)
        return HypergammonCubeEquities(
            centred=max(centred, doubled),
            owned=max(owned, doubled),
            opponent_owns=opponent_owns,
            centred_no_double=centred,
            owned_no_double=owned,
            double_take=double_take,
        )

    def __repr__(self) -> str:
        return (
            f"<HypergammonDatabase {self.checkers} checkers: {pair_count(self.checkers):,} pairs>"
        )
