"""The server's bots at a chouette table: their decisions, computed in the bots'
worker processes (:meth:`~backgammon.server.bots.pool.BotPool.think`), never in the event
loop.

:func:`next_bot_action` picks what the bots at a table do next (in the event loop);
the engine's answers come from :func:`answer`, run in a worker. A bot decides one
thing at a time from what every player sees: the board seen from
the side on roll, the dice, and the one cube the decision is about (a member's own
cube against the box). The cube decisions are the engine's money decisions (the
chouette is a money game); the plays are the level's.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from backgammon.engine.players import EngineCube, EnginePlayer
from backgammon.rules.chouette import TEAM, Chouette, CubeDouble
from backgammon.rules.cube import CubeRules, CubeState
from backgammon.rules.game import Game
from backgammon.rules.position import Position
from backgammon.server.bots.pool import engine_for
from backgammon.server.protocol import ChouetteActionBody

__all__ = ["ChouetteQuestion", "Think", "answer", "bot_levels", "next_bot_action"]

ChouetteQuestion = tuple[
    str, Literal["double", "take", "play"], str, int, int, int | None, tuple[int, int] | None, int
]
"""What a worker needs: the bot's level; the question (``double``: should the side
on roll double this cube; ``take``: should the other side take the double of the
side on roll; ``play``: the play of the dice); the board (slots text, seen from the
side on roll); who is on roll (0 the box, 1 the team); the cube's value and owner;
the dice; a seed for the level's noise."""


Think = Callable[[ChouetteQuestion], Awaitable[str]]
"""Where a question is answered (the bots' workers running :func:`answer`)."""


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


def bot_levels(seats: list[dict[str, Any]], levels: tuple[str, ...]) -> dict[str, str]:
    """The seats the bots play, with their level: bots' seats, and the seats of
    people who left (at the server's first level)."""
    played: dict[str, str] = {}
    for seat in seats:
        if seat["bot"] and levels:
            level = seat.get("level")
            played[seat["name"]] = level if level in levels else levels[0]
        elif seat["left"] and levels:
            played[seat["name"]] = levels[0]
    return played


async def next_bot_action(
    chouette: Chouette, bots: dict[str, str], think: Think
) -> tuple[str, ChouetteActionBody, bool] | None:
    """The bots' next action at ``chouette`` (``bots``: the seats they play, with
    their levels): who acts, what, and whether to pause first (a throw while
    people may still double), or None when no bot has anything to do. In order:
    a double a bot must answer, a bot's play, a bot's double, a bot's throw."""
    for offer in chouette.pending:
        answerer = chouette.box if offer.doubler != chouette.box else offer.member
        if answerer in bots:
            take = await _ask(think, chouette, bots[answerer], "take", offer.member)
            body = (
                ChouetteActionBody(kind="take", member=offer.member)
                if take == "yes"
                else ChouetteActionBody(kind="drop", member=offer.member)
            )
            return answerer, body, False
    if chouette.pending:
        return None
    if chouette.dice is not None:
        mover = chouette.on_roll
        if mover not in bots:
            return None
        move = await _ask(think, chouette, bots[mover], "play", None)
        return mover, ChouetteActionBody(kind="play", move=move), False
    for action in chouette.legal_actions():
        if isinstance(action, CubeDouble) and action.player in bots:
            level = bots[action.player]
            if await _ask(think, chouette, level, "double", action.member) == "yes":
                body = ChouetteActionBody(kind="double", member=action.member)
                return action.player, body, False
    roller = chouette.roller()
    if roller is None or roller not in bots:
        return None
    people_may_double = any(
        isinstance(action, CubeDouble) and action.player not in bots
        for action in chouette.legal_actions()
    )
    return roller, ChouetteActionBody(kind="roll"), people_may_double


async def _ask(think: Think, chouette: Chouette, level: str, kind: str, member: str | None) -> str:
    on_roll = chouette.on_roll
    turn = 0 if on_roll in (None, chouette.box) else 1
    cube_of = chouette.members_in[0] if member is TEAM else member
    cube = chouette.cubes[cube_of] if cube_of is not None else None
    dice = chouette.dice
    question: ChouetteQuestion = (
        level,
        "play" if kind == "play" else ("double" if kind == "double" else "take"),
        chouette.position.slots_text,
        turn,
        1 if cube is None else cube.value,
        None if cube is None else cube.owner,
        None if dice is None else (dice.first, dice.second),
        secrets.randbits(31),
    )
    return await think(question)
