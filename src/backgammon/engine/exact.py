"""The exact evaluators an :class:`~backgammon.engine.evaluator.Engine` plugs in: a
bear-off evaluator for the ``BEAROFF`` class (:class:`BearoffEvaluator`; by default
the bear-off databases of :mod:`backgammon.engine.bearoff`) and a solved variant's
evaluator in place of the networks (:class:`ExactEvaluator`; by default the
hypergammon databases of :mod:`backgammon.engine.hypergammon`), each opened on first
use, and :class:`EvaluationSource`, which says whether an engine's values are exact.

:mod:`backgammon.engine.evaluator` exports the public names too; the underscored ones
are the engine's own, not an interface.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from backgammon.engine.network import OUTPUTS
from backgammon.rules.position import Position
from backgammon.rules.variant import Variant

__all__ = [
    "BearoffEvaluator",
    "EvaluationSource",
    "ExactEvaluator",
    "PositionwiseBearoff",
    "evaluation_source",
    "exact_database_ready",
]

Boards = npt.NDArray[np.uint8]


@runtime_checkable
class BearoffEvaluator(Protocol):
    """An exact evaluator for some bear-off positions (a bearoff database), plugged
    into :class:`~backgammon.engine.evaluator.Engine` for the ``BEAROFF`` class.

    Both methods take 52-slot boards (``uint8[n, 52]``, side on roll first) of
    ``BEAROFF`` positions. An evaluator may also offer ``solved(boards)``, marking the
    boards it values exactly (a solved database): lookahead search leaves them as
    they are.
    """

    def covers(self, boards: Boards) -> npt.NDArray[np.bool_]:
        """Which boards it can evaluate (``bool[n]``)."""
        ...

    def evaluate_boards(self, boards: Boards) -> npt.NDArray[np.floating[Any]]:
        """The five probabilities (``float[n, 5]``) of covered boards for the side on
        roll, before it rolls, cubeless (as a network's outputs)."""
        ...


@runtime_checkable
class ExactEvaluator(Protocol):
    """An evaluator that values every position of a variant exactly (a solved game,
    such as :class:`~backgammon.engine.hypergammon.HypergammonDatabase`), plugged into
    :class:`~backgammon.engine.evaluator.Engine` in place of the networks."""

    def evaluate_boards(self, boards: Boards) -> npt.NDArray[np.floating[Any]]:
        """The five probabilities (``float[n, 5]``) of 52-slot boards for the side on
        roll, before it rolls, cubeless."""
        ...

    def cube_equity_rows(self, boards: Boards) -> npt.NDArray[np.float64]:
        """Exact money cubeful equities per unit of cube (``float[n, 3]``: no double
        with a centred cube, no double with its own cube, the opponent owning it; no
        Jacoby rule, no beavers), NaN where unknown (the
        :data:`~backgammon.engine.cubeful.ExactCubeEquities` form)."""
        ...


class _DefaultHypergammon:
    """The solved hypergammon database of a checker count, opened (or built into the
    cache folder) on first use."""

    def __init__(self, checkers: int) -> None:
        self.checkers = checkers
        self._database: ExactEvaluator | None = None

    def open(self) -> ExactEvaluator:
        """The database (loaded, or built, the first time)."""
        if self._database is None:
            from backgammon.engine.hypergammon import HypergammonDatabase

            self._database = HypergammonDatabase.open(self.checkers)
        return self._database

    def evaluate_boards(self, boards: Boards) -> npt.NDArray[np.floating[Any]]:
        """The database's exact probabilities."""
        return self.open().evaluate_boards(boards)

    def cube_equity_rows(self, boards: Boards) -> npt.NDArray[np.float64]:
        """The database's exact money cubeful equities."""
        return self.open().cube_equity_rows(boards)


@dataclass(frozen=True, slots=True)
class EvaluationSource:
    """Where an engine's values come from, for every front end to say so: ``exact``
    when a solved database gives them (hypergammon), else the networks' estimate;
    ``note`` (``None`` when there is nothing to add) says, for an estimate of a
    variant whose exact values exist but are not built here, that it is an estimate
    and how to get the exact ones.

    >>> EvaluationSource(exact=True).label
    'exact'
    """

    exact: bool
    """Whether the values are exact (a solved database), not the networks'."""
    note: str | None = None
    """What a user should know about the values (an estimate that could be exact)."""

    @property
    def label(self) -> str:
        """``"exact"`` or ``"estimate"``."""
        return "exact" if self.exact else "estimate"

    def as_json(self) -> dict[str, Any]:
        """The source as JSON: ``{"exact": ..., "label": ..., "note": ...}``."""
        return {"exact": self.exact, "label": self.label, "note": self.note}


def evaluation_source(variant: Variant, exact: ExactEvaluator | None) -> EvaluationSource:
    """The :class:`EvaluationSource` of an engine for ``variant`` whose solved
    evaluator is ``exact`` (``None``: the networks)."""
    if exact is not None:
        return EvaluationSource(exact=True)
    if variant.checkers > 3:
        return EvaluationSource(exact=False)
    from backgammon.engine.hypergammon import BUILD_COMMAND, solves

    if not solves(variant):
        return EvaluationSource(exact=False)
    command = BUILD_COMMAND.format(checkers=variant.checkers)
    return EvaluationSource(
        exact=False,
        note=(
            f"estimate from the neural network: the exact {variant.checkers}-checker "
            f"hypergammon database is not built here; for exact values run `{command}`"
        ),
    )


def exact_database_ready(variant: Variant) -> bool:
    """Whether the default solved database of ``variant`` can be used now (built, or
    built on first use in seconds); ``False`` for a variant that is not solved."""
    return _default_exact(variant) is not None


def _default_exact(variant: Variant) -> ExactEvaluator | None:
    """The solved database of ``variant``, if any: 1 and 2 checkers always (built on
    first use in seconds), 3 checkers once built (about 9 min on 2 cores: see docs/variants.md)."""
    if variant.checkers > 3:
        return None
    from backgammon.engine.hypergammon import BUILT_ON_FIRST_USE, available, solves

    if not solves(variant):
        return None
    if variant.checkers not in BUILT_ON_FIRST_USE and not available(variant.checkers):
        return None
    return _DefaultHypergammon(variant.checkers)


class _PositionBearoff(Protocol):
    def classify(self, position: Position) -> object | None: ...

    def evaluate(self, position: Position) -> tuple[float, float, float, float, float]: ...


class PositionwiseBearoff:
    """A :class:`BearoffEvaluator` over any database with per-position ``classify``
    (``None`` where it does not apply) and ``evaluate`` (five probabilities) methods,
    such as :class:`backgammon.engine.bearoff.BearoffDatabase`. Simple, not fast: it
    builds a :class:`Position` per board.
    """

    def __init__(self, database: _PositionBearoff) -> None:
        """Wrap ``database``."""
        self.database = database

    def covers(self, boards: Boards) -> npt.NDArray[np.bool_]:
        """Which boards the database classifies as its own."""
        classify = self.database.classify
        return np.array(
            [classify(Position.from_array(board)) is not None for board in boards], dtype=bool
        )

    def evaluate_boards(self, boards: Boards) -> npt.NDArray[np.float64]:
        """The database's probabilities of each board."""
        evaluate = self.database.evaluate
        rows = [evaluate(Position.from_array(board)) for board in boards]
        probs: npt.NDArray[np.float64] = np.array(rows, dtype=np.float64).reshape(-1, OUTPUTS)
        return probs


@runtime_checkable
class _SolvedBearoff(Protocol):
    def solved(self, boards: Boards) -> npt.NDArray[np.bool_]: ...


class _DefaultBearoff:
    """The default bearoff databases, opened (or built) on first use."""

    def __init__(self) -> None:
        self._database: BearoffEvaluator | None = None

    def _open(self) -> BearoffEvaluator:
        if self._database is None:
            from backgammon.engine.bearoff import BearoffDatabase

            self._database = BearoffDatabase.open()
        return self._database

    def covers(self, boards: Boards) -> npt.NDArray[np.bool_]:
        """Which boards the databases evaluate."""
        return self._open().covers(boards)

    def evaluate_boards(self, boards: Boards) -> npt.NDArray[np.floating[Any]]:
        """The databases' exact (or one-sided) probabilities."""
        return self._open().evaluate_boards(boards)

    def solved(self, boards: Boards) -> npt.NDArray[np.bool_]:
        """Which boards the two-sided database values exactly (a rule on the
        boards: the databases are not opened for it, so a search that meets no
        bear-off position never loads, or builds, them)."""
        from backgammon.engine.bearoff import BearoffDatabase

        return BearoffDatabase.solved(boards)
