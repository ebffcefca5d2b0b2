"""The server's background build of 3-checker hypergammon's database (the real build
takes minutes: a stand-in command plays its part) and the bots' engines switching
from the labelled estimate to the database once its file appears."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from backgammon.server.bots.pool import engine_for
from backgammon.server.tools.hypergammon_build import BackgroundBuild


def test_the_build_runs_in_the_background_and_the_bots_switch_to_exact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BACKGAMMON_CACHE_DIR", str(tmp_path))
    target = tmp_path / "hypergammon-3.npz"
    release = tmp_path / "release"
    # Waits (without blocking the event loop) until told, then writes the file.
    script = (
        "import pathlib, time\n"
        f"while not pathlib.Path({str(release)!r}).exists(): time.sleep(0.02)\n"
        f"pathlib.Path({str(target)!r}).write_bytes(b'')\n"
    )
    said: list[str] = []
    estimate = engine_for("hypergammon").source
    assert not estimate.exact and "--checkers 3" in (estimate.note or "")

    async def scenario() -> None:
        build = BackgroundBuild(said.append, [sys.executable, "-c", script])
        assert await build.start()
        assert build.running
        assert not await build.start()  # one build at a time
        # The event loop is free while it runs.
        await asyncio.sleep(0.05)
        assert build.running and not target.exists()
        release.write_bytes(b"")
        for _ in range(500):
            if not build.running:
                break
            await asyncio.sleep(0.02)
        await build.stop()

    asyncio.run(scenario())
    assert target.exists()
    assert "estimate" in said[0] and said[-1] == "hypergammon-3: exact database ready"
    assert engine_for("hypergammon").source.exact


def test_no_build_when_the_database_is_there_and_a_stop_ends_a_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BACKGAMMON_CACHE_DIR", str(tmp_path))
    said: list[str] = []
    forever = [sys.executable, "-c", "import time; time.sleep(60)"]

    async def scenario() -> None:
        build = BackgroundBuild(said.append, forever)
        assert await build.start()
        await build.stop()  # the server stops: the build is ended, not waited for
        assert not build.running
        (tmp_path / "hypergammon-3.npz").write_bytes(b"")
        assert not await BackgroundBuild(said.append, forever).start()

    asyncio.run(asyncio.wait_for(scenario(), 30))
    assert "hypergammon-3: exact database ready" not in said


@pytest.mark.slow  # a server process
def test_the_build_ends_with_a_server_killed_with_sigkill(tmp_path: Path) -> None:
    """A server killed with SIGKILL cannot stop its build: the build ends by itself."""
    import os
    import signal
    import subprocess
    import time

    pid_file = tmp_path / "build.pid"
    parent = (
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-m', 'backgammon.engine.hypergammon',"
        " 'build', '--checkers', '3', '--quiet', '--exit-with-parent',"
        f" '--dir', {str(tmp_path)!r}])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(120)\n"
    )
    server = subprocess.Popen([sys.executable, "-c", parent])
    try:
        deadline = time.monotonic() + 30
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        child = int(pid_file.read_text())
        time.sleep(4.0)  # past its imports: the kernel's request is in place
    finally:
        server.kill()
        server.wait()

    def alive() -> bool:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return False
        with open(f"/proc/{child}/stat") as stat:  # a zombie waiting for init counts as gone
            return stat.read().split(") ")[1][0] != "Z"

    deadline = time.monotonic() + 15
    while alive() and time.monotonic() < deadline:
        time.sleep(0.1)
    left = alive()
    if left:
        os.kill(child, signal.SIGKILL)
    assert not left, "the build outlived its server"
