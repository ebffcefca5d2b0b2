"""Fixtures for the server tests: real servers in subprocesses, on real databases.

``server_factory`` starts ``python -m backgammon serve`` on a free loopback port with
an empty database of its own: SQLite in a temporary folder, or (for the tests
parametrised with ``postgresql``) a fresh database on the PostgreSQL server named by
``BACKGAMMON_TEST_POSTGRESQL`` (``.ci/run`` installs and starts one).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from .browser import CHROMIUM
from .server_forks import FORKS, USE_FORKS, ForkedProcess

POSTGRESQL = os.environ.get("BACKGAMMON_TEST_POSTGRESQL", "")
"""A PostgreSQL URL whose user may create databases (``postgresql://user@host/db``)."""


def _ephemeral_ports() -> tuple[int, int]:
    """The range the kernel takes clients' ports from (Linux's default if unknown)."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


def _free_port() -> int:
    """A loopback port nobody listens on, for a server to take: below the range of
    clients' ports where there is room (a client's connection, in this process or on
    another parallel worker, cannot take it between this check and the server's bind),
    else any the kernel gives."""
    low, _ = _ephemeral_ports()
    room = low - 10_000
    candidates = [10_000 + secrets.randbelow(room) for _ in range(20)] if room > 1_000 else []
    for port in [*candidates, 0]:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(sock.getsockname()[1])
    raise RuntimeError("no free port")


def new_postgresql_database() -> str:
    """Create an empty database on the test PostgreSQL server; returns its URL."""
    import asyncpg

    name = f"bgtest_{secrets.token_hex(6)}"

    async def create() -> None:
        connection = await asyncpg.connect(POSTGRESQL)
        try:
            await connection.execute(f'CREATE DATABASE "{name}"')
        finally:
            await connection.close()

    asyncio.run(create())
    return POSTGRESQL.rsplit("/", 1)[0] + "/" + name


class ServerProcess:
    """One ``backgammon serve`` subprocess; kill it and start it again on the same
    database and port."""

    def __init__(self, data: Path, database: str, *extra: str) -> None:
        self.data = data
        self.database = database
        self.port = _free_port()
        self.extra = extra
        self.process: subprocess.Popen[bytes] | ForkedProcess | None = None
        self.log = data / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120.0) -> None:
        command = [
            sys.executable,
            "-m",
            "backgammon",
            "serve",
            "--port",
            str(self.port),
            "--data",
            str(self.data),
            "--rate-limit",
            "500",
            "--log-level",
            "warning",
            "--no-build-hypergammon",  # its 3-checker build takes minutes of both cores
            *self.extra,
        ]
        if self.database:
            command += ["--database", self.database]
        if USE_FORKS:
            self.process = FORKS.start(command[3:], self.log)
        else:
            with self.log.open("ab") as log:
                self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not get ready: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flushing."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        """SIGTERM, the graceful way."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The database kind a test runs on."""
    if request.param == "postgresql" and not POSTGRESQL:
        pytest.skip("no PostgreSQL server (set BACKGAMMON_TEST_POSTGRESQL; .ci/run does)")
    return str(request.param)


def _servers(data: Path, database: str) -> Iterator[Callable[..., ServerProcess]]:
    """Yields a maker of started servers on ``database`` (SQLite in ``data`` when
    empty); stops them all afterwards."""
    started: list[ServerProcess] = []

    def make(*extra: str) -> ServerProcess:
        server = ServerProcess(data, database, *extra)
        server.start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def server_factory(tmp_path: Path, backend: str) -> Iterator[Callable[..., ServerProcess]]:
    """Makes started servers on one fresh database (call it more than once for
    several processes on the same PostgreSQL database)."""
    database = new_postgresql_database() if backend == "postgresql" else ""
    yield from _servers(tmp_path, database)


@pytest.fixture(scope="module")
def module_server_factory(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[..., ServerProcess]]:
    """Makes started servers on SQLite that a whole module's tests share, for tests
    that need no fresh database (the engine tools: each test asks its own positions
    and waits for its own jobs); started once, the server's start and its workers'
    first compiled evaluations are paid once a module instead of once a test."""
    yield from _servers(tmp_path_factory.mktemp("server"), "")


@pytest.fixture
def browser() -> Iterator[object]:
    """Debian's headless Chromium, through Playwright (tests mark themselves needs_chromium)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()
