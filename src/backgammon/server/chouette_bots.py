"""The server's bots at a chouette table: their decisions, computed in the bots'
worker processes (:meth:`~backgammon.server.bots.BotPool.think`), never in the event
loop.

A bot decides one thing at a time from what every player sees: the board seen from
the side on roll, the dice, and the one cube the decision is about (a member's own
cube against the box). The cube decisions are the engine's money decisions (the
chouette is a money game); the plays are the level's.
"""

from __future__ import annotations

from typing import Literal

from backgammon.engine.players import EngineCube, EnginePlayer
from backgammon.rules.cube import CubeRules, CubeState
from backgammon.rules.game import Game
from backgammon.rules.position import Position
from backgammon.server.bots import engine_for

__all__ = ["ChouetteQuestion", "answer"]

ChouetteQuestion = tuple[
    str, Literal["double", "take", "play"], str, int, int, int | None, tuple[int, int] | None, int
]
"""What a worker needs: the bot's level; the question (``double``: should the side
on roll double this cube; ``take``: should the other side take the double of the
side on roll; ``play``: the play of the dice); the board (slots text, seen from the
side on roll); who is on roll (0 the box, 1 the team); the cube's value and owner;
the dice; a seed for the level's noise."""


def answer(question: ChouetteQuestion) -> str:
    """``"yes"``/``"no"`` for a cube question, or the play's notation (run in a
    worker)."""
    level, kind, slots, turn, value, owner, dice, seed = question
    engine = engine_for("standard")
    position = Position.from_slots_text(slots)
    if kind == "play":
        assert dice is not None
        player = EnginePlayer.at_level(engine, level, seed)
        return player.choose(position, dice).notation()
    game = Game(rules=CubeRules(), position=position, turn=turn, cube=CubeState(value, owner))
    cube = EngineCube(engine)
    decided = cube.should_double(game) if kind == "double" else cube.should_take(game)
    return "yes" if decided else "no"
