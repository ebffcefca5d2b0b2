"""Engine-backed players for games: checker play at a level, and cube decisions.

Levels follow GNU Backgammon's predefined settings (anchors: beginner 0-ply with noise
0.060, casual 0.050, intermediate 0.030, advanced 0.015, expert 0-ply, world class
2-ply). Noise is added to each play's equity from a seeded generator, so a game with
the same seed replays the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from backgammon.engine.cube import (
    CubeOwner,
    cube_efficiency,
    match_cube_decision,
    money_cube_decision,
)
from backgammon.engine.evaluator import Engine
from backgammon.engine.met import MatchEquityTable, kazaross_xg2
from backgammon.rules.dice import RollLike
from backgammon.rules.game import Game
from backgammon.rules.play import Play
from backgammon.rules.position import Position
from backgammon.rules.variant import Variant

__all__ = ["LEVELS", "EngineCube", "EnginePlayer", "Level"]


def _rolls_again(play: Play) -> bool:
    """After the double named on a 1-2 the player rolls again (a play that ends the
    game is valued the same from either side)."""
    return True


@dataclass(frozen=True, slots=True)
class Level:
    """A playing strength: lookahead plies and equity noise."""

    name: str
    ply: int
    noise: float


LEVELS = {
    level.name: level
    for level in (
        Level("beginner", 0, 0.060),
        Level("casual", 0, 0.050),
        Level("intermediate", 0, 0.030),
        Level("advanced", 0, 0.015),
        Level("expert", 0, 0.0),
        Level("worldclass", 2, 0.0),
    )
}
"""The named levels, weakest first."""


class EnginePlayer:
    """Chooses plays with the engine at a level (``ply`` lookahead, ``noise``)."""

    def __init__(self, engine: Engine, ply: int = 0, noise: float = 0.0, seed: int = 0) -> None:
        self.engine = engine
        self.ply = ply
        self.noise = noise
        self._random = random.Random(seed)

    @classmethod
    def at_level(cls, engine: Engine, level: str, seed: int = 0) -> EnginePlayer:
        """A player at a named level (see :data:`LEVELS`).

        Raises:
            KeyError: for an unknown level (the message lists them).
        """
        try:
            chosen = LEVELS[level]
        except KeyError:
            raise KeyError(f"unknown level {level!r}; known: {', '.join(LEVELS)}") from None
        return cls(engine, chosen.ply, chosen.noise, seed)

    def choose(
        self,
        position: Position,
        roll: RollLike,
        variant: Variant | None = None,
        continues: Callable[[Play], bool] | None = None,
    ) -> Play:
        """The engine's choice (with this player's noise). With ``continues``, at
        0-ply, the plays after which the mover plays on are valued as such."""
        ply = self.ply
        if continues is not None and ply > 0:
            continues = None  # the lookahead does not follow such turns
        if self.noise <= 0.0:
            return self.engine.best_play(position, roll, ply, continues)
        ranked = self.engine.rank_plays(position, roll, ply, continues)
        noisy = [item.equity + self._random.gauss(0.0, self.noise) for item in ranked]
        return ranked[max(range(len(ranked)), key=noisy.__getitem__)].play

    def choose_double(self, game: Game) -> int:
        """The double to name after an acey-deucey 1-2 (``game`` waits for it): the
        one whose best play leaves the mover, who then rolls again, the best position
        by the engine's 0-ply equity (the lowest on ties); 1 when none can be played."""
        position, variant = game.position, game.variant
        values: dict[int, float] = {}
        for number in range(1, 7):
            if position.legal_plays((number, number), variant):
                ranked = self.engine.rank_plays(position, (number, number), continues=_rolls_again)
                values[number] = ranked[0].equity
        return max(values, key=values.__getitem__) if values else 1


class EngineCube:
    """Cube decisions from the engine's evaluation: Janowski's model for money, the
    match equity table (Kazaross-XG2) in matches."""

    def __init__(self, engine: Engine, met: MatchEquityTable | None = None, ply: int = 0) -> None:
        self.engine = engine
        self.met = kazaross_xg2() if met is None else met
        self.ply = ply

    def _decision(self, game: Game, position: Position, doubler: int) -> tuple[bool, bool]:
        """(should double, should take) for ``doubler`` on roll in ``position``."""
        probabilities = self.engine.evaluate_at(position, self.ply).probabilities
        efficiency = cube_efficiency(position)
        cube = game.cube
        owner = CubeOwner.seen_by(cube.owner, doubler)
        context = game.context
        if context.is_money:
            decision = money_cube_decision(
                probabilities, owner, efficiency, jacoby=game.rules.jacoby
            )
        else:
            away = (context.away(doubler), context.away(1 - doubler))
            decision = match_cube_decision(
                probabilities, self.met, away, cube=cube.value, owner=owner, efficiency=efficiency
            )
        return decision.should_double, decision.take

    def should_double(self, game: Game) -> bool:
        """Whether the side on roll should double now (it must be allowed to)."""
        assert game.turn is not None
        return self._decision(game, game.position, game.turn)[0]

    def should_take(self, game: Game) -> bool:
        """Whether the doubled side should take (the doubler is on roll)."""
        assert game.turn is not None
        return self._decision(game, game.position, game.turn)[1]

    def accepts_resignation(self, game: Game, level: int) -> bool:
        """Whether the side resigned to should accept ``level`` (1-3) times the cube:
        when it is at least what it expects to win cubelessly."""
        assert game.turn is not None
        # The resigner is on roll; evaluate from the other side.
        evaluation = self.engine.evaluate_at(game.position, self.ply).flip()
        expected = (
            evaluation.win
            + evaluation.win_gammon
            + evaluation.win_backgammon
            - (1 - evaluation.win)
            - evaluation.lose_gammon
            - evaluation.lose_backgammon
        )
        return level >= expected
