"""Building 3-checker hypergammon's exact database in the background at the server's
first start.

The build (:func:`backgammon.engine.hypergammon.build_database`, on every core: about
9 min on 2 cores, with about 6 GB of memory) runs in a child process at a lower CPU
priority, so it blocks neither the event loop nor the bots; the file appears
atomically in the cache folder when it is done. Until then the engines use the networks, and say so
(:attr:`backgammon.engine.evaluator.Engine.source`); the bots' engines switch to
the database at their first decision after it appears
(:func:`backgammon.server.bots.pool.engine_for`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Callable, Sequence

__all__ = ["BUILD_NICENESS", "BackgroundBuild"]

_log = logging.getLogger(__name__)

BUILD_NICENESS = 10
"""How much lower the build's CPU priority is than the server's."""


class BackgroundBuild:
    """The 3-checker hypergammon database built by a child process, started by
    :meth:`start` when the file is missing and stopped (its progress kept for the
    next start) by :meth:`stop`. ``command`` replaces the build's command line
    (tests)."""

    def __init__(self, say: Callable[[str], None], command: Sequence[str] | None = None) -> None:
        self._say = say
        self._command = (
            list(command)
            if command is not None
            else [
                sys.executable,
                "-m",
                "backgammon.engine.hypergammon",
                "build",
                "--checkers",
                "3",
                "--quiet",
                "--niceness",
                str(BUILD_NICENESS),
                "--exit-with-parent",
            ]
        )
        self._process: asyncio.subprocess.Process | None = None
        self._waiter: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        """Whether the build is under way."""
        return self._process is not None and self._process.returncode is None

    async def start(self) -> bool:
        """Start the build if the database is missing; whether one was started."""
        from backgammon.engine.hypergammon import available

        if available(3) or self.running:
            return False
        self._process = await asyncio.create_subprocess_exec(
            *self._command,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        self._say(
            "hypergammon-3: building its exact database in the background; "
            "until it is ready its values are the network's estimates"
        )
        self._waiter = asyncio.create_task(self._wait(self._process))
        return True

    async def _wait(self, process: asyncio.subprocess.Process) -> None:
        """Report how the build ended."""
        _, errors = await process.communicate()
        if process.returncode == 0:
            self._say("hypergammon-3: exact database ready")
        elif process.returncode is not None and process.returncode > 0:
            text = errors.decode(errors="replace").strip()[-500:]
            _log.error("hypergammon-3 database build failed (%s): %s", process.returncode, text)

    async def stop(self) -> None:
        """Stop a build under way (its state file lets the next start resume it)."""
        process = self._process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
        if self._waiter is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._waiter
        self._waiter = None
