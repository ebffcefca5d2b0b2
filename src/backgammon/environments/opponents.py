"""Opponents for the single-agent environment: anything with ``act(table, rng)``.

An :class:`Opponent` answers the decision a :class:`~backgammon.environments.table.Table`
is waiting for with an index into its legal actions. :class:`RandomOpponent` picks
uniformly; :class:`EngineOpponent` plays with the engine at 0-ply and handles the cube
with its cube decisions.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from backgammon.engine.evaluator import Engine
from backgammon.engine.players import EngineCube, EnginePlayer
from backgammon.environments.observation import Phase
from backgammon.environments.table import Table
from backgammon.rules.cube import Double, Drop, Take
from backgammon.rules.game import ChooseDouble
from backgammon.rules.play import Play

__all__ = ["EngineOpponent", "Opponent", "RandomOpponent"]


class Opponent(Protocol):
    """Chooses the action of the player a table is waiting for."""

    def act(self, table: Table, rng: np.random.Generator) -> int:
        """An index into ``table.legal_actions``; ``rng`` is the environment's
        generator (use it for any randomness, so that seeded episodes replay)."""
        ...


class RandomOpponent:
    """Picks one of the legal actions uniformly at random (with the environment's
    generator, so it is seeded with the episode)."""

    def act(self, table: Table, rng: np.random.Generator) -> int:
        """A uniformly random legal index."""
        return int(rng.integers(len(table.legal_actions)))

    def __repr__(self) -> str:
        return "RandomOpponent()"


class EngineOpponent:
    """The engine at 0-ply: its best play, its cube decisions (Janowski for money, the
    match equity table in matches), the double with the best play after an acey-deucey
    1-2; it never explodes the atomic bomb nor beavers."""

    def __init__(self, engine: Engine | None = None) -> None:
        """Use ``engine`` (by default the shipped networks, made for the table's
        variant on first use)."""
        self._engine = engine
        self._cube: EngineCube | None = None

    def _engine_for(self, table: Table) -> Engine:
        if self._engine is None or self._engine.variant != table.variant:
            self._engine = Engine(variant=table.variant)
            self._cube = None
        return self._engine

    def act(self, table: Table, rng: np.random.Generator) -> int:
        """The engine's choice."""
        engine = self._engine_for(table)
        if self._cube is None:
            self._cube = EngineCube(engine)
        legal = table.legal_actions
        game = table.game
        phase = table.phase
        if phase is Phase.PLAY:
            assert game.dice is not None
            if len(legal) == 1:
                return 0
            best = engine.best_play(game.position, game.dice, continues=game.continuation)
            plays = [action for action in legal if isinstance(action, Play)]
            return plays.index(best) if best in plays else 0
        if phase is Phase.PRE_ROLL:
            if Double() in legal and self._cube.should_double(game):
                return legal.index(Double())
            return 0
        if phase is Phase.DOUBLE:
            take = self._cube.should_take(game)
            return legal.index(Take() if take else Drop())
        if phase is Phase.CHOOSE_DOUBLE:
            return legal.index(ChooseDouble(EnginePlayer(engine).choose_double(game)))
        return 0

    def __repr__(self) -> str:
        return "EngineOpponent()"
