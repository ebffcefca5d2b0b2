"""Server processes forked from one that has already imported the server.

A ``python -m backgammon serve`` spends most of its start importing (numpy, Numba's
kernels, SQLAlchemy, FastAPI: about 1.5 s of 2 on an idle core of the test machine),
and the suite starts some 250 servers. So the tests' servers come from a *fork
server*, as :mod:`multiprocessing`'s ``forkserver`` start method does for its
workers: one helper process (this file run as a script) imports what ``serve``
imports, then forks a child for each server asked of it. Each child is a real,
separate server process: its own pid (``kill -9`` reaches it alone), its own log,
the arguments, working folder and environment of the test that asked, and it runs
the command line's own entry point as ``python -m backgammon`` would.

The helper is single-threaded (a fork from a process with threads may copy a held
lock), reaps its children on ``SIGCHLD`` and reports each exit status back, so
:class:`ForkedProcess` answers ``poll`` and ``wait`` as :class:`subprocess.Popen`
does. ``BACKGAMMON_TEST_SERVER_FORKS=0`` starts every server as a fresh
subprocess instead.

The protocol, JSON lines: a request on the helper's stdin ``{"argv", "log",
"cwd", "env"}`` is answered ``{"pid": N}`` (or ``{"error": TEXT}``) on its stdout;
an exit is told as ``{"exit": PID, "code": C}`` (``-N`` for a signal, as ``Popen``).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

USE_FORKS = os.environ.get("BACKGAMMON_TEST_SERVER_FORKS", "1") != "0"


class ForkedProcess:
    """A forked server as the tests use a :class:`subprocess.Popen`: ``pid``,
    ``returncode``, ``poll``, ``wait``, ``send_signal``, ``terminate``, ``kill``."""

    def __init__(self, pid: int, forks: ServerForks) -> None:
        self.pid = pid
        self._forks = forks

    @property
    def returncode(self) -> int | None:
        return self._forks.exit_code(self.pid)

    def poll(self) -> int | None:
        """The exit code, or None while it runs."""
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the exit (``subprocess.TimeoutExpired`` after ``timeout`` s)."""
        return self._forks.wait(self.pid, timeout)

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class ServerForks:
    """This test process's fork server (started on first use) and the exits it told."""

    def __init__(self) -> None:
        self._helper: subprocess.Popen[bytes] | None = None
        self._asking = threading.Lock()
        self._told = threading.Condition()
        self._replies: list[dict[str, Any]] = []
        self._exits: dict[int, int] = {}
        self._gone = False

    def start(self, argv: list[str], log: Path) -> ForkedProcess:
        """Fork a ``python -m backgammon ARGV`` writing to ``log``."""
        request = {"argv": argv, "log": str(log), "cwd": os.getcwd(), "env": dict(os.environ)}
        with self._asking:
            helper = self._started()
            assert helper.stdin is not None
            helper.stdin.write(json.dumps(request).encode() + b"\n")
            helper.stdin.flush()
            with self._told:
                self._told.wait_for(lambda: self._replies or self._gone, timeout=60)
                if not self._replies:
                    raise RuntimeError("the fork server did not answer")
                reply = self._replies.pop(0)
        if "pid" not in reply:
            raise RuntimeError(f"the fork server could not start a server: {reply}")
        return ForkedProcess(int(reply["pid"]), self)

    def exit_code(self, pid: int) -> int | None:
        with self._told:
            if pid in self._exits:
                return self._exits[pid]
            if self._gone and not _alive(pid):
                return -signal.SIGKILL  # its helper went first; its status is lost
            return None

    def wait(self, pid: int, timeout: float | None) -> int:
        with self._told:
            if not self._told.wait_for(lambda: self.exit_code(pid) is not None, timeout):
                raise subprocess.TimeoutExpired(f"server {pid}", timeout or 0)
            code = self.exit_code(pid)
            assert code is not None
            return code

    def _started(self) -> subprocess.Popen[bytes]:
        if self._helper is None:
            self._helper = subprocess.Popen(
                [sys.executable, __file__],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
            threading.Thread(target=self._listen, daemon=True).start()
        return self._helper

    def _listen(self) -> None:
        assert self._helper is not None and self._helper.stdout is not None
        for line in self._helper.stdout:
            message = json.loads(line)
            with self._told:
                if "exit" in message:
                    self._exits[int(message["exit"])] = int(message["code"])
                else:
                    self._replies.append(message)
                self._told.notify_all()
        with self._told:
            self._gone = True
            self._told.notify_all()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


FORKS = ServerForks()


# -- the helper ----------------------------------------------------------------------


def _serve_child(request: dict[str, Any]) -> None:
    """In the forked child: become ``python -m backgammon ARGV``; never returns."""
    import atexit
    import logging
    import runpy
    import traceback

    code = 1
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.chdir(request["cwd"])
        sys.path[0] = os.getcwd()  # as `python -m` has it (the helper's own is tests/server)
        os.environ.clear()
        os.environ.update(request["env"])
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(null)
        os.close(log)
        sys.argv = ["backgammon", *request["argv"]]
        try:
            runpy.run_module("backgammon", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        try:
            atexit._run_exitfuncs()
            logging.shutdown()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _tell(message: dict[str, Any]) -> None:
    os.write(1, json.dumps(message).encode() + b"\n")


def _reap() -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _tell({"exit": pid, "code": os.waitstatus_to_exitcode(status)})


def _helper() -> None:
    """The fork server's loop: import, then fork a server per request."""
    import importlib
    import selectors

    # What `serve` imports, paid once here.
    for module in ("uvicorn", "backgammon.apps.cli", "backgammon.server.app"):
        importlib.import_module(module)

    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False)
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # (the wake-up byte is what counts)
    selector = selectors.DefaultSelector()
    selector.register(0, selectors.EVENT_READ, "request")
    selector.register(wake_read, selectors.EVENT_READ, "child")
    pending = b""
    while True:
        for key, _ in selector.select():
            if key.data == "child":
                while True:
                    try:
                        if not os.read(wake_read, 4096):
                            break
                    except BlockingIOError:
                        break
                _reap()
                continue
            chunk = os.read(0, 65536)
            if not chunk:  # the tests are gone
                return
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                request = json.loads(line)
                try:
                    pid = os.fork()
                except OSError as error:
                    _tell({"error": str(error)})
                    continue
                if pid == 0:
                    selector.close()
                    os.close(wake_read)
                    os.close(wake_write)
                    _serve_child(request)
                _tell({"pid": pid})


if __name__ == "__main__":
    _helper()
