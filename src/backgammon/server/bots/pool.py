"""Server-side bots: the engine at named levels, thinking in worker processes.

A bot's decision (double, take, resign answers, the acey-deucey double, its play) is
computed by :func:`decide` in a process pool, never in the event loop, so a 2-ply
bot thinking delays nobody else. The worker rebuilds the game from its actions (the
bot sees exactly what a player sees: never the dice seed) and returns the action as
a protocol :class:`~backgammon.server.protocol.ActionBody` dictionary.

The same pool runs the server's other searches, in workers of their own: a bot never
waits behind them, however many are queued. Quick work (:meth:`BotPool.run`: the
position tool, an upload's check) and long jobs (:meth:`BotPool.run_job`: analyses of
match files and rollouts, :mod:`backgammon.server.tools.engine_tools`) have workers apart
too, so that a position never waits behind a ten-minute analysis (issue 50); the long
jobs wait for their workers in a :class:`~backgammon.server.bots.job_queue.JobQueue`, served
fairly between owners.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, MutableMapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import cache
from multiprocessing.managers import SyncManager
from typing import TYPE_CHECKING, Any, TypeVar

from backgammon.engine.evaluator import lookahead_supported
from backgammon.engine.players import LEVELS, EngineCube, EnginePlayer
from backgammon.rules.cube import CubeRules, CubeState, MatchContext
from backgammon.rules.game import Action, Game
from backgammon.server.bots.job_queue import JobQueue
from backgammon.variants import find

if TYPE_CHECKING:
    from backgammon.engine.evaluator import Engine

__all__ = ["BotPool", "BotRequest", "WorkerDiedError", "decide", "engine_for"]

_T = TypeVar("_T")
_log = logging.getLogger(__name__)

BotRequest = tuple[str, str, CubeRules, MatchContext, list[Action], int]
"""What a worker needs: level, variant name, cube rules, match context, the game's
actions so far, and a seed for the level's noise."""


def engine_for(variant_name: str) -> Engine:
    """One engine per variant per worker process, opened on first use; opened again
    once the variant's solved database is ready (the server builds 3-checker
    hypergammon's in the background: until then the networks' estimate is used, and
    logged as such)."""
    from backgammon.engine.evaluator import exact_database_ready

    return _engine(variant_name, exact_database_ready(find(variant_name)))


@cache
def _engine(variant_name: str, exact_ready: bool) -> Engine:
    """The engine of a variant, for whether its solved database was ready."""
    from backgammon.engine.evaluator import Engine

    engine = Engine(variant=find(variant_name))
    note = engine.source.note
    if note:
        _log.warning("bots and tools for %s: %s", variant_name, note)
    return engine


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
        # Never where the cube is dead for the bot (a 1-point match, double match
        # point, a cube that covers its score): the double could only cost it.
        if pending is None and game.double_matters() and cube.should_double(game):
            return {"kind": "double"}
        return {"kind": "roll"}
    player = EnginePlayer(engine, ply, chosen.noise, seed)
    play = player.choose(game.position, game.dice, variant, game.continuation)
    return {"kind": "play", "move": play.notation()}


def _exit_with(parent: int) -> None:
    """End this process once ``parent`` is gone (a server killed with SIGKILL cannot
    stop its workers: they would live on, each holding an engine's memory)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _ignore_interrupts(server: int) -> None:
    """In a worker or the manager: leave Ctrl-C to the server, which stops them (a
    ``KeyboardInterrupt`` in a worker would reach the server as a job's result), and
    end with the server (process ``server``) however it ends, even if it ended while
    this process was still starting (its parent is then another process already)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch = threading.Thread(target=_exit_with, args=(server,), daemon=True)
    watch.start()


def _warm_worker(server: int) -> None:
    """Open the standard engine in a fresh worker (loads the compiled kernels)."""
    _ignore_interrupts(server)
    engine_for("standard")


def _executor(processes: int, name: str) -> Executor:
    """``processes`` spawned worker processes, or one thread when ``processes`` is 0."""
    if processes > 0:
        return ProcessPoolExecutor(
            processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_warm_worker,
            initargs=(os.getpid(),),
        )
    return ThreadPoolExecutor(1, thread_name_prefix=name)


def _stop(executor: Executor) -> None:
    """Stop an executor's workers now and wait until they are gone: a search still
    running is ended (its result would go nowhere), pending ones are cancelled. Waiting
    matters: ``uvicorn`` ends the process by re-raising SIGTERM, with no exit handlers,
    so workers not reaped here outlived the server and their queues' semaphores were
    reported leaked."""
    if isinstance(executor, ProcessPoolExecutor):
        for process in list((executor._processes or {}).values()):
            process.terminate()
    executor.shutdown(wait=True, cancel_futures=True)


class WorkerDiedError(RuntimeError):
    """A worker process died during a job (killed, or out of memory); the pool has
    been started again for the next job."""


class _Workers:
    """``processes`` worker processes (one thread for 0), started again when one dies."""

    def __init__(self, processes: int, name: str, died: str) -> None:
        self.processes = processes
        self.name = name
        self.died = died
        self.executor = _executor(processes, name)

    async def run(self, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(*args)`` in a worker.

        Raises:
            WorkerDiedError: the worker died; the next call gets fresh workers.
        """
        executor = self.executor
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)
        except BrokenProcessPool:
            if self.executor is executor:
                self.executor = _executor(self.processes, self.name)
                executor.shutdown(wait=False, cancel_futures=True)
                _log.error("a %s worker died; its pool is started again", self.name)
            raise WorkerDiedError(self.died) from None

    def stop(self) -> None:
        """Stop the workers and wait for them."""
        _stop(self.executor)


class BotPool:
    """Runs bot decisions off the event loop, in ``processes`` worker processes of
    their own, and the server's other searches in ``tool_processes`` others for quick
    work (:meth:`run`) and ``tool_processes`` more for long jobs (:meth:`run_job`),
    started on first use; with ``processes`` 0, a thread for each (small deployments
    and tests)."""

    def __init__(self, processes: int = 1, tool_processes: int = 1) -> None:
        self._processes = processes
        tools = tool_processes if processes > 0 else 0
        self._bots = _Workers(processes, "bot", "the bots' worker stopped")
        self._tools = _Workers(tools, "tool", "the engine's worker stopped (out of memory?)")
        self._jobs = _Workers(tools, "job", "the engine's worker stopped (out of memory?)")
        self.job_queue = JobQueue(max(1, tools))
        """Where long jobs wait for the long jobs' workers (one each at most)."""
        self._manager: SyncManager | None = None
        self._manager_lock = threading.Lock()  # jobs may ask from several threads at once

    def start(self) -> None:
        """Start the bots' workers now (they open the engine), not at the first
        decision."""
        if isinstance(self._bots.executor, ProcessPoolExecutor):
            for _ in range(self._processes):
                self._bots.executor.submit(engine_for, "standard")

    async def decide(self, request: BotRequest) -> dict[str, Any]:
        """The bot's action for ``request``, computed in the bots' workers (asked
        again once if a worker died under it: a bot's decision is cheap and bounded,
        and its clock runs)."""
        try:
            return await self._bots.run(decide, request)
        except WorkerDiedError:
            return await self._bots.run(decide, request)

    async def think(self, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(*args)`` computed in the bots' workers: a bot decision other than a
        match's (``fn`` and its arguments must pickle, as for :meth:`run`).

        Raises:
            WorkerDiedError: the worker died; the next call gets fresh workers.
        """
        return await self._bots.run(fn, *args)

    async def run(self, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(*args)`` computed in the quick tools' workers, never the bots' nor
        the long jobs' (``fn`` and its arguments must pickle: a module-level function
        such as :func:`~backgammon.server.tools.engine_tools.position_report`). For work of
        a second or so: a long job goes to :meth:`run_job`.

        Raises:
            WorkerDiedError: the worker died (the job is not tried again: it may be
                what killed it); the next call gets fresh workers.
        """
        return await self._tools.run(fn, *args)

    async def run_job(self, owner: str, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(*args)``, a long job of ``owner`` (an analysis, a rollout), computed in
        the long jobs' workers once :attr:`job_queue` gives it its turn (cancelling
        the caller before then drops it).

        Raises:
            WorkerDiedError: the worker died (the job is not tried again); the next
                call gets fresh workers.
        """
        async with self.job_queue.turn(owner):
            return await self._jobs.run(fn, *args)

    def shared_mapping(self) -> MutableMapping[Any, Any]:
        """A mapping the workers can write and the server read (progress of long
        jobs): a plain dict for a thread, a manager's dict for processes."""
        if isinstance(self._jobs.executor, ThreadPoolExecutor):
            return {}
        with self._manager_lock:
            if self._manager is None:
                manager = SyncManager(ctx=multiprocessing.get_context("spawn"))
                manager.start(_ignore_interrupts, (os.getpid(),))
                self._manager = manager
            mapping: MutableMapping[Any, Any] = self._manager.dict()
        return mapping

    def close(self) -> None:
        """Stop the workers and the manager, and wait for them (pending work is
        cancelled, running work ended)."""
        self.job_queue.close()
        for workers in (self._bots, self._tools, self._jobs):
            workers.stop()
        with self._manager_lock:
            if self._manager is not None:
                self._manager.shutdown()
                self._manager = None
