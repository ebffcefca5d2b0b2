"""Equities at the score for the analysis: the mover's cubeless chances made its
normalised equity, cubeless or cubeful, at the match score and cube (:class:`_Stakes`;
the models are described in :mod:`backgammon.analysis.analyzer`), and the bearoff
databases opened on first use, shared by the engine and the exact cube equities
(:class:`_LazyBearoff`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeAlias

import numpy as np
import numpy.typing as npt

from backgammon.engine.cube import (
    CubeOwner,
    cube_efficiency,
    match_cubeful_mwc,
    money_cubeful_value,
)
from backgammon.engine.met import MatchEquityTable
from backgammon.rules.cube import CubeState, MatchContext
from backgammon.rules.position import Position

_FloatArray: TypeAlias = npt.NDArray[np.float64]


class _Stakes:
    """Turns the mover's cubeless outcome probabilities into its normalised equity at
    the current score and cube (see :mod:`backgammon.analysis.analyzer`)."""

    def __init__(
        self,
        context: MatchContext,
        player: int,
        cube: CubeState,
        met: MatchEquityTable,
        *,
        jacoby: bool = False,
        cube_alive: bool = True,
    ) -> None:
        self.single_only = jacoby and context.is_money and cube.centred
        self.jacoby = jacoby
        self.values: _FloatArray | None = None
        self.money = context.is_money
        self.met = met
        self.cube = cube
        self.player = player
        self.cube_alive = cube_alive and not context.crawford
        self.away = (context.away(player), context.away(1 - player))
        me, them = self.away
        if context.is_money or max(me, them) > met.size or min(me, them) < 1:
            return
        value = cube.value
        outcomes = [met.after_game(me, them, k * value) for k in (1, 2, 3, -1, -2, -3)]
        win, lose = outcomes[0], outcomes[3]
        if win > lose:
            self.values = np.array(outcomes, dtype=np.float64)
            self.win = win
            self.lose = lose

    def equities(self, probabilities: _FloatArray) -> _FloatArray:
        """Normalised equities of rows of five probabilities (the mover's)."""
        p = np.asarray(probabilities, dtype=np.float64).reshape(-1, 5)
        if self.values is None:
            if self.single_only:
                result: _FloatArray = 2.0 * p[:, 0] - 1.0
                return result
            return 2.0 * p[:, 0] - 1.0 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]
        outcomes = np.stack(
            (
                p[:, 0] - p[:, 1],
                p[:, 1] - p[:, 2],
                p[:, 2],
                1.0 - p[:, 0] - p[:, 3],
                p[:, 3] - p[:, 4],
                p[:, 4],
            ),
            axis=1,
        )
        mwc = outcomes @ self.values
        equity: _FloatArray = 2.0 * (mwc - self.lose) / (self.win - self.lose) - 1.0
        return equity

    def equity(self, probabilities: Sequence[float]) -> float:
        """The normalised equity of one set of five probabilities."""
        return float(self.equities(np.asarray(probabilities, dtype=np.float64))[0])

    def cubeful_equities(
        self,
        left: Sequence[Position],
        probabilities: _FloatArray,
        exact: Callable[[Position], Any] | None = None,
    ) -> _FloatArray:
        """Normalised cubeful equities of the mover for plays that leave the opponent on
        roll in ``left`` (seen from the opponent) with the mover's cubeless
        ``probabilities`` (rows of five): minus the opponent's cubeful value before its
        roll, with its right cube action (:func:`money_cubeful_value`,
        :func:`match_cubeful_mwc`). In money play ``exact`` (when given) returns the
        exact cubeful equities of a position (the opponent on roll) or ``None``; see
        :class:`~backgammon.engine.bearoff.BearoffCubeEquities`. Scores outside the
        match equity table fall back to cubeless equities."""
        p = np.asarray(probabilities, dtype=np.float64).reshape(-1, 5)
        if not self.money and self.values is None:
            return self.equities(p)
        cube = self.cube
        # Seen from the opponent, who is on roll after the play.
        owner = CubeOwner.seen_by(cube.owner, 1 - self.player)
        me, them = self.away
        result = np.empty(len(p), dtype=np.float64)
        for k, position in enumerate(left):
            row = p[k]
            theirs = (1.0 - row[0], row[3], row[4], row[1], row[2])
            efficiency = cube_efficiency(position)
            if self.money:
                known = exact(position) if exact is not None and self.cube_alive else None
                if known is not None:
                    result[k] = -(
                        known.centred
                        if owner is CubeOwner.CENTRED
                        else known.owned
                        if owner is CubeOwner.PLAYER
                        else known.opponent_owns
                    )
                    continue
                result[k] = -money_cubeful_value(
                    theirs, owner, efficiency, jacoby=self.jacoby, cube_alive=self.cube_alive
                )
                continue
            mwc = 1.0 - match_cubeful_mwc(
                theirs,
                self.met,
                (them, me),
                cube=cube.value,
                owner=owner,
                efficiency=efficiency,
                cube_alive=self.cube_alive,
            )
            result[k] = 2.0 * (mwc - self.lose) / (self.win - self.lose) - 1.0
        return result


# -- the bearoff database, shared with the engine -------------------------------------------


class _CubefulBearoff(Protocol):
    def classify(self, position: Position) -> object | None: ...

    def cube_equities(self, position: Position) -> Any: ...


class _LazyBearoff:
    """The bearoff databases, opened on first use: the engine's bear-off evaluator
    (:class:`~backgammon.engine.evaluator.BearoffEvaluator`) and the source of exact
    cubeful money equities, one copy in memory for both."""

    def __init__(self) -> None:
        self._database: Any = None

    def open(self) -> Any:
        """The :class:`~backgammon.engine.bearoff.BearoffDatabase` (opened or built)."""
        if self._database is None:
            from backgammon.engine.bearoff import BearoffDatabase

            self._database = BearoffDatabase.open()
        return self._database

    def covers(self, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
        """Which boards the databases evaluate."""
        result: npt.NDArray[np.bool_] = self.open().covers(boards)
        return result

    def evaluate_boards(self, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.floating[Any]]:
        """Exact probabilities of covered boards."""
        result: npt.NDArray[np.floating[Any]] = self.open().evaluate_boards(boards)
        return result

    def classify(self, position: Position) -> object | None:
        """The database class of ``position`` (``"bearoff2"``, ``"bearoff1"``, ``None``)."""
        found: object | None = self.open().classify(position)
        return found

    def cube_equities(self, position: Position) -> Any:
        """Exact cubeful money equities of a two-sided bear-off, else ``None``."""
        return self.open().cube_equities(position)
