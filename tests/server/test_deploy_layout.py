"""The deployment of docs/deploy/compose.yaml, without Docker (issue 53, item 5): its
two server processes, started with the compose file's own ``serve`` options, on one
PostgreSQL database, behind Debian's nginx running the compose file's own
``nginx.conf`` (only the upstreams' and the listener's addresses changed to this
machine's loopback ports). People reach the site through nginx only: they sign up,
open WebSockets (nginx hands them to either process), see each other in the lobby and
play a match to its end, each move crossing from one process to the other.
"""

from __future__ import annotations

import asyncio
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from backgammon.server.client import ServerClient

from .conftest import POSTGRESQL, ServerProcess, _free_port, new_postgresql_database
from .players import Policy, play_seat

pytestmark = [pytest.mark.slow, pytest.mark.postgresql]

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PASSWORD = "a long enough password"


def compose_serve_options(compose: str, origin: str) -> list[str]:
    """The compose file's ``backgammon serve`` options for this machine: its origin
    becomes ``origin`` and its trusted proxy nginx's loopback address; the host, port
    and database are the test's (ServerProcess names them)."""
    found = re.search(r"command: >\n((?:[ ]{6}.*\n)+)", compose)
    assert found, "compose.yaml: no server command"
    words = shlex.split(found.group(1))
    assert words[:2] == ["backgammon", "serve"], words
    options = dict(zip(words[2::2], words[3::2], strict=True))
    assert set(options) == {"--host", "--port", "--origin", "--database", "--forwarded-allow-ips"}
    return ["--origin", origin, "--forwarded-allow-ips", "127.0.0.1"]


def nginx_config(site: str, upstreams: list[int], port: int, prefix: Path) -> str:
    """A whole nginx configuration around the compose file's ``nginx.conf``, its
    servers and listener moved to loopback ports, its files under ``prefix``."""
    servers = re.findall(r"server server-\d:8080;", site)
    assert len(servers) == len(upstreams), servers
    for line, upstream in zip(servers, upstreams, strict=True):
        site = site.replace(line, f"server 127.0.0.1:{upstream};")
    assert "listen 8080;" in site
    site = site.replace("listen 8080;", f"listen 127.0.0.1:{port};")
    temp = " ".join(
        f"{kind}_temp_path {prefix / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"worker_processes 1; pid {prefix / 'nginx.pid'}; error_log {prefix / 'error.log'};\n"
        f"events {{}}\nhttp {{ access_log off; {temp}\n{site}\n}}\n"
    )


@pytest.fixture
def deployed(tmp_path: Path) -> Iterator[tuple[str, list[ServerProcess]]]:
    """The layout started: nginx's address and the two server processes."""
    if not POSTGRESQL:
        pytest.skip("no PostgreSQL server (set BACKGAMMON_TEST_POSTGRESQL; .ci/run does)")
    if not Path(NGINX).exists():
        pytest.skip("no nginx (apt-get install nginx; .ci/run does)")
    port = _free_port()
    address = f"http://127.0.0.1:{port}"
    options = compose_serve_options((DEPLOY / "compose.yaml").read_text(), address)
    database = new_postgresql_database()
    servers = [
        ServerProcess(tmp_path / f"server-{n}", database, "--no-warm-up", "--no-bots", *options)
        for n in (1, 2)
    ]
    for server in servers:
        server.data.mkdir()
        server.start()
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    config = prefix / "nginx.conf"
    site = (DEPLOY / "nginx.conf").read_text()
    config.write_text(nginx_config(site, [s.port for s in servers], port, prefix))
    balancer = subprocess.Popen([NGINX, "-p", str(prefix), "-c", str(config), "-g", "daemon off;"])
    try:
        _wait_ready(address, balancer, prefix)
        yield address, servers
    finally:
        balancer.terminate()
        balancer.wait(10)
        for server in servers:
            server.stop()


def _wait_ready(address: str, balancer: subprocess.Popen[bytes], prefix: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if balancer.poll() is not None:
            raise RuntimeError(f"nginx exited: {(prefix / 'error.log').read_text()[-2000:]}")
        try:
            if httpx.get(f"{address}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError("nginx did not answer")


def _connections(server: ServerProcess) -> int:
    """WebSocket connections the process holds (its /metrics, read from loopback)."""
    text = httpx.get(f"{server.url}/metrics", timeout=5).text
    found = re.search(r"^backgammon_connections (\d+)", text, re.MULTILINE)
    assert found, text[:500]
    return int(found.group(1))


def test_people_play_through_nginx_across_both_processes(
    deployed: tuple[str, list[ServerProcess]],
) -> None:
    address, servers = deployed

    async def scenario() -> None:
        people = [ServerClient(address) for _ in range(4)]
        for number, person in enumerate(people):
            await person.register(f"player{number}", PASSWORD)
        for person in people:  # one after the other: nginx's round robin alternates
            await person.connect(origin=address)
        held = [_connections(server) for server in servers]
        assert held == [2, 2], held  # each process holds two of the four
        alice, bob = people[:2]
        await alice.subscribe("lobby")
        created = await alice.create_match(opponent="player1", length=1, clock=None)
        match_id = str(created["id"])
        await bob.join(match_id)
        await alice.subscribe(match_id)
        await bob.subscribe(match_id)
        final, other = await asyncio.gather(
            play_seat(alice, match_id, 0, Policy(seed=3, double_first=False)),
            play_seat(bob, match_id, 1, Policy(seed=5, double_first=False)),
        )
        assert final["result"] is not None and other["result"] == final["result"]
        for person in people:
            await person.close()

    asyncio.run(scenario())
