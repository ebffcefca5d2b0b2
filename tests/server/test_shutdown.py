"""A server stopped the way a service manager stops it (SIGTERM) leaves nothing
behind: no worker process, no "leaked semaphore objects" warning (issue 33)."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads the process table from /proc"
)


@pytest.fixture
def backend() -> str:
    """Shutting down does not depend on the database: SQLite is enough."""
    return "sqlite"


def _children(pid: int) -> set[int]:
    """The processes ``pid`` started, and theirs (from /proc)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if Path(f"/proc/{pid}").exists()}


def test_sigterm_stops_every_worker_and_leaks_no_semaphore(server_factory: Any) -> None:
    """Before the fix the pool was shut down without waiting, and uvicorn ends the
    process by re-raising SIGTERM (no exit handlers): the bots' worker outlived the
    server, and the resource tracker reported the pool's queues' semaphores leaked."""
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    # A rollout running when the server stops: the tools' worker busy, the manager up.
    started = httpx.post(
        f"{server.url}/api/rollout", json={"position": xgid, "trials": 1296, "ply": 1}, timeout=120
    )
    assert started.status_code == 202, started.text
    assert server.process is not None
    children = _children(server.process.pid)
    assert len(children) >= 3  # the resource tracker, the bots' and the tools' workers
    server.stop()
    deadline = time.monotonic() + 30
    while _alive(children) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = _alive(children)
    for pid in left:  # do not leave them running when the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes outlived the server: {sorted(left)}"
    log = server.log.read_text()
    assert "leaked semaphore" not in log, log[-2000:]
    assert "Traceback" not in log, log[-3000:]


def test_workers_end_with_a_server_killed_with_sigkill(server_factory: Any) -> None:
    """A server killed with SIGKILL cannot stop its workers; before the fix its bots'
    and tools' workers and the progress manager lived on (orphans holding an engine's
    memory each, piling up over restarts). Now each ends within seconds."""
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    started = httpx.post(
        f"{server.url}/api/rollout", json={"position": xgid, "trials": 1296, "ply": 1}, timeout=120
    )
    assert started.status_code == 202, started.text
    assert server.process is not None
    children = _children(server.process.pid)
    assert len(children) >= 3
    server.process.kill()
    server.process.wait()
    deadline = time.monotonic() + 30
    while _alive(children) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = _alive(children)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes outlived the killed server: {sorted(left)}"
