"""Server-side bots: the engine at named levels, thinking in worker processes.

A bot's decision (double, take, resign answers, the acey-deucey double, its play) is
computed by :func:`decide` in a process pool, never in the event loop, so a 2-ply
bot thinking delays nobody else. The worker rebuilds the game from its actions (the
bot sees exactly what a player sees: never the dice seed) and returns the action as
a protocol :class:`~backgammon.server.protocol.ActionBody` dictionary.

The same pool runs the server's other searches (:meth:`BotPool.run`): the position
tool and the analysis of uploaded match files (:mod:`backgammon.server.engine_tools`).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable, MutableMapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from backgammon.engine.evaluator import lookahead_supported
from backgammon.engine.players import LEVELS, EngineCube, EnginePlayer
from backgammon.rules.cube import CubeRules, CubeState, MatchContext
from backgammon.rules.game import Action, Game
from backgammon.variants import find

if TYPE_CHECKING:
    from multiprocessing.managers import SyncManager

    from backgammon.engine.evaluator import Engine

__all__ = ["BotPool", "BotRequest", "decide", "engine_for"]

_T = TypeVar("_T")

BotRequest = tuple[str, str, CubeRules, MatchContext, list[Action], int]
"""What a worker needs: level, variant name, cube rules, match context, the game's
actions so far, and a seed for the level's noise."""


@cache
def engine_for(variant_name: str) -> Engine:
    """One engine per variant per worker process, opened on first use."""
    from backgammon.engine.evaluator import Engine

    return Engine(variant=find(variant_name))


def decide(request: BotRequest) -> dict[str, Any]:
    """The bot's next action in the game described by ``request`` (run in a worker)."""
    level, variant_name, rules, context, actions, seed = request
    variant = find(variant_name)
    game = Game(variant, rules=rules, context=context, cube=CubeState(1))
    for action in actions:
        game.push_unchecked(action)
    engine = engine_for(variant_name)
    chosen = LEVELS[level]
    ply = chosen.ply if lookahead_supported(variant) else 0
    cube = EngineCube(engine, ply=min(ply, 1))
    pending = game.pending
    if pending is not None and pending.kind == "choose-double":
        number = EnginePlayer(engine, 0).choose_double(game)
        return {"kind": "choose_double", "number": number}
    if pending is not None and pending.kind == "double":
        return {"kind": "take" if cube.should_take(game) else "drop"}
    if pending is not None and pending.kind == "resign":
        accept = cube.accepts_resignation(game, int(pending.level))
        return {"kind": "accept" if accept else "reject"}
    if game.dice is None:
        if pending is None and game.can_double() and cube.should_double(game):
            return {"kind": "double"}
        return {"kind": "roll"}
    player = EnginePlayer(engine, ply, chosen.noise, seed)
    play = player.choose(game.position, game.dice, variant, game.continuation)
    return {"kind": "play", "move": play.notation()}


def _warm_worker() -> None:
    """Open the standard engine in a fresh worker (loads the compiled kernels)."""
    engine_for("standard")


class BotPool:
    """Runs bot decisions off the event loop: in ``processes`` worker processes, or
    in a thread when ``processes`` is 0 (for small deployments and tests)."""

    def __init__(self, processes: int = 1) -> None:
        self._executor: Executor
        self._processes = processes
        self._manager: SyncManager | None = None
        if processes > 0:
            self._executor = ProcessPoolExecutor(
                processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm_worker,
            )
        else:
            self._executor = ThreadPoolExecutor(1, thread_name_prefix="bot")

    def start(self) -> None:
        """Start the workers now (they open the engine), not at the first decision."""
        if isinstance(self._executor, ProcessPoolExecutor):
            for _ in range(self._processes):
                self._executor.submit(engine_for, "standard")

    async def decide(self, request: BotRequest) -> dict[str, Any]:
        """The bot's action for ``request``, computed in the pool."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, decide, request)

    async def run(self, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(*args)`` computed in the pool (``fn`` and its arguments must pickle:
        a module-level function such as :func:`position_report`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn, *args)

    def shared_mapping(self) -> MutableMapping[Any, Any]:
        """A mapping the workers can write and the server read (progress of long
        jobs): a plain dict for a thread, a manager's dict for processes."""
        if isinstance(self._executor, ThreadPoolExecutor):
            return {}
        if self._manager is None:
            self._manager = multiprocessing.get_context("spawn").Manager()
        mapping: MutableMapping[Any, Any] = self._manager.dict()
        return mapping

    def close(self) -> None:
        """Stop the workers (pending decisions are cancelled)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
        if self._manager is not None:
            self._manager.shutdown()
