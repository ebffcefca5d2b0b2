"""The suite's fork server (tests/server/server_forks.py): a forked server is the
command line run in a process of its own, with the test's folder and environment,
its output in its log, and its exit told as ``subprocess.Popen`` tells one."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from .conftest import ServerProcess
from .server_forks import FORKS

pytestmark = pytest.mark.slow  # (servers and the command line in processes)


def test_a_forked_command_writes_its_log_and_its_exit_code(tmp_path: Path) -> None:
    helped = FORKS.start(["--help"], tmp_path / "help.log")
    assert helped.wait(60) == 0
    assert "serve" in (tmp_path / "help.log").read_text()
    refused = FORKS.start(["no-such-command"], tmp_path / "refused.log")
    assert refused.wait(60) == 2 and refused.poll() == 2
    assert "No such command" in (tmp_path / "refused.log").read_text()
    assert helped.pid != refused.pid != os.getpid()


def test_a_forked_server_is_a_process_of_its_own_that_dies_alone(tmp_path: Path) -> None:
    first, second = (ServerProcess(tmp_path / name, "", "--no-warm-up") for name in "ab")
    for server in (first, second):
        server.data.mkdir()
        server.start()
    assert first.process is not None and second.process is not None
    first.kill()
    assert first.process.poll() == -signal.SIGKILL
    assert second.process.poll() is None  # the other server and the fork server live on
    with pytest.raises(subprocess.TimeoutExpired):
        second.process.wait(0.2)
    second.stop()
    assert second.process.poll() in (0, -signal.SIGTERM)
