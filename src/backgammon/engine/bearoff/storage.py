"""What building and storing both bear-off databases shares: the rolls and the
position tables, progress reports, and the files (written atomically, read with
their kind and format checked, built on first use)."""

from __future__ import annotations

import math
import os
import uuid
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from backgammon.engine.bearoff.indexing import (
    _FORMAT,
    POINTS,
    FloatArray,
    IntArray,
    ProgressCallback,
)
from backgammon.engine.bearoff.kernels import _enumerate_positions
from backgammon.errors import EngineError
from backgammon.rules.dice import ALL_ROLLS

# --- building --------------------------------------------------------------------------


def _roll_arrays() -> tuple[IntArray, IntArray, FloatArray]:
    die1 = np.array([roll.high for roll in ALL_ROLLS], dtype=np.int64)
    die2 = np.array([roll.low for roll in ALL_ROLLS], dtype=np.int64)
    weight = np.array([float(roll.weight) for roll in ALL_ROLLS], dtype=np.float64)
    return die1, die2, weight


def _position_tables(most: int) -> tuple[IntArray, IntArray, IntArray]:
    size = math.comb(most + POINTS, POINTS)
    codes = np.zeros(size, dtype=np.int64)
    pips = np.zeros(size, dtype=np.int64)
    checkers = np.zeros(size, dtype=np.int64)
    _enumerate_positions(codes, pips, checkers, most)
    return codes, pips, checkers


def _report(progress: ProgressCallback | None, stage: str, done: int, total: int) -> None:
    if progress is not None:
        progress(stage, done, total)


def _readonly(array: npt.NDArray[np.generic]) -> None:
    array.setflags(write=False)


def _save(path: Path, arrays: dict[str, npt.NDArray[np.generic]]) -> None:
    """Write ``arrays`` to ``path`` atomically (a temporary file, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp")
    try:
        with open(temporary, "wb") as stream:
            np.savez_compressed(stream, **arrays)  # type: ignore[arg-type]
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _load(path: Path, kind: str) -> dict[str, npt.NDArray[np.generic]]:
    """Read a database file, checking its kind and format version."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        raise EngineError(f"cannot read bear-off database {str(path)!r}: {exc}") from None
    if str(arrays.get("kind", "")) != kind or int(arrays.get("format", -1)) != _FORMAT:
        raise EngineError(
            f"{str(path)!r} is not a format-{_FORMAT} {kind} bear-off database; "
            f"rebuild it with: python -m backgammon.engine.bearoff build"
        )
    return arrays


_Database = TypeVar("_Database", bound="_Saveable")


class _Saveable(Protocol):
    def save(self, directory: str | os.PathLike[str]) -> Path: ...


def _open_or_build(
    path: Path,
    load: Callable[[Path], _Database],
    make: Callable[[], _Database],
    build: bool,
) -> _Database:
    """Load the database at ``path``; if it is missing or unreadable and ``build`` is
    true, build it and save it there first.

    Raises:
        EngineError: if it is missing or unreadable and ``build`` is false.
    """
    if path.exists() or not build:
        try:
            return load(path)
        except EngineError:
            if not build:
                raise
    database = make()
    database.save(path.parent)
    return database
