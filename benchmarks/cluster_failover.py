"""Several server processes behind nginx, one killed under load (issue 53).

    .venv/bin/python benchmarks/cluster_failover.py --database postgresql://USER:PASS@HOST/postgres
    .venv/bin/python benchmarks/cluster_failover.py --database URL --matches 1000 --seconds 120

Creates a fresh database on the PostgreSQL server named by ``--database`` (its user
may create databases), starts ``--processes`` ``backgammon serve`` processes on it
(server_load.py's settings: no bots, loopback limits lifted) behind Debian's nginx
running ``docs/deploy/nginx.conf`` (one upstream line per process), and plays
``--matches`` matches between web players (guests, two WebSockets a match, through
nginx only), each acting at a person's pace (``--think``) on its own turn. At
``--kill-at`` seconds one process is killed with SIGKILL. A player whose socket it
held reconnects through nginx (to a survivor), subscribes again and plays on.

Reported, for the ``--seconds`` of play:

- **latency** (action sent to its ack) of the players never disconnected, p50 and
  p99, before and after the kill;
- **moved players**: how many lost their socket, and for each the time from losing
  it to its next acknowledged action (its own turn may come later: the figure is the
  time until it *plays* again), p50 and max;
- **errors** answering actions, by code (``stale`` is expected around the kill: an
  action sent on a state the player had not seen);
- **lost**: acknowledged actions missing from the database after the run (the
  matches' logs read directly): must be 0.

FIBS players too (``--fibs-matches``, both seats of a match FIBS clients, as
``fibs_load.py`` plays them): each connects to nginx's ``stream`` port
(``docs/deploy/nginx-fibs.conf``, the PROXY protocol on; Debian's
``libnginx-mod-stream``), which spreads them over the processes (each run with
``--fibs-port`` and ``--fibs-proxy-protocol 127.0.0.1``); one whose process is killed
connects again, logs in (its running match is loaded) and plays on. For them: the
latency from a command to the line that answers it, before and after the kill, how
many lost their connection and the time until their next answered command, and
**lost**: plays whose board the player had been shown that are missing from the log.

On a 2-core machine the figures to read are correctness and recovery time, not
throughput: the processes, nginx, PostgreSQL and the clients share the cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).parent))
import contextlib

import fibs_load
from backgammon.server.client import ServerClient
from server_load import Server, _free_port

DEPLOY = Path(__file__).resolve().parents[1] / "docs" / "deploy"


@dataclass
class Tally:
    """What the players saw."""

    before: list[float] = field(default_factory=list)  # ack latencies before the kill
    after: list[float] = field(default_factory=list)
    recovered: list[float] = field(default_factory=list)  # socket lost -> next ack
    moved: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    acked: dict[str, int] = field(default_factory=dict)  # match -> highest seq acked
    killed_at: float | None = None
    fibs_before: list[float] = field(default_factory=list)  # FIBS command -> its answer
    fibs_after: list[float] = field(default_factory=list)
    fibs_recovered: list[float] = field(default_factory=list)  # connection lost -> answer
    fibs_moved: int = 0


STREAM_MODULE = Path("/usr/lib/nginx/modules/ngx_stream_module.so")
"""Debian's nginx stream module (``libnginx-mod-stream``), for FIBS's TCP port."""


def nginx_config(
    upstreams: list[int], port: int, prefix: Path, fibs: tuple[list[int], int] | None = None
) -> str:
    """docs/deploy/nginx.conf with one server line per process, on loopback, and with
    ``fibs`` (the processes' FIBS ports, the balancer's) docs/deploy/nginx-fibs.conf."""
    site = (DEPLOY / "nginx.conf").read_text()
    lines = "\n".join(f"    server 127.0.0.1:{p};" for p in upstreams)
    site = re.sub(r"(?:    server server-\d:8080;\n)+", lines + "\n", site)
    site = site.replace("listen 8080;", f"listen 127.0.0.1:{port};")
    temps = " ".join(
        f"{kind}_temp_path {prefix / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    stream, module = "", ""
    if fibs is not None:
        module = f"load_module {STREAM_MODULE};\n"
        stream = (DEPLOY / "nginx-fibs.conf").read_text()
        lines = "\n".join(f"        server 127.0.0.1:{p};" for p in fibs[0])
        stream = re.sub(r"(?:        server server-\d:4321;\n)+", lines + "\n", stream)
        stream = stream.replace("listen 4321;", f"listen 127.0.0.1:{fibs[1]};")
    return (
        f"{module}worker_processes 1; pid {prefix / 'nginx.pid'}; "
        f"error_log {prefix / 'error.log'};\n"
        f"events {{ worker_connections 8192; }}\nhttp {{ access_log off; {temps}\n{site}\n}}\n"
        f"{stream}"
    )


async def fresh_database(admin: str) -> str:
    """A new, empty database on ``admin``'s server; its URL."""
    name = f"failover_{secrets.token_hex(4)}"
    connection = await asyncpg.connect(admin)
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    return admin.rsplit("/", 1)[0] + "/" + name


def choose(state: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """A person's action: take a double, roll, or a random legal play."""
    game = state["game"]
    if game is None:
        return None
    if game["pending"] is not None:
        return ("take", {}) if game["pending"]["kind"] == "double" else None
    if game["dice"] is None:
        return "roll", {}
    plays = game["legal_plays"]
    return ("play", {"move": rng.choice(plays)}) if plays else None


class Player:
    """One seat of one match, over its own WebSocket through nginx."""

    def __init__(self, url: str, tally: Tally, rng: random.Random) -> None:
        self.url, self.tally, self.rng = url, tally, rng
        self.client = ServerClient(url)
        self.lost_at: float | None = None
        self.ever_moved = False

    async def reconnect(self, match_id: str) -> None:
        """A new socket with the same session, through nginx, subscribed again."""
        token = self.client.token
        while True:
            client = ServerClient(self.url)
            client.token = token
            try:
                await client.connect()
                await client.subscribe(match_id)
            except Exception:
                await client.close()
                await asyncio.sleep(0.2)
                continue
            self.client = client
            return

    async def play(self, match_id: str, seat: int, think: tuple[float, float], stop: float) -> None:
        last = -1
        while time.monotonic() < stop:
            try:
                last = await self._step(match_id, seat, think, last)
            except (ConnectionError, ConnectionClosed):
                if self.lost_at is None:
                    self.lost_at = time.monotonic()
                    if not self.ever_moved:
                        self.ever_moved = True
                        self.tally.moved += 1
                await self.reconnect(match_id)
                last = -1

    async def _step(self, match_id: str, seat: int, think: tuple[float, float], last: int) -> int:
        state = self.client.states.get(match_id)
        if state is None or state["result"] is not None:
            await asyncio.sleep(0.5)
            return last
        if state["waiting_for"] != seat or state["seq"] == last:
            mark = len(self.client.messages)
            with contextlib.suppress(TimeoutError):
                await self.client.wait_for(
                    lambda m: m["type"] == "state" and m["match"] == match_id, 1.0, mark
                )
            return last
        await asyncio.sleep(self.rng.uniform(*think))
        choice = choose(state, self.rng)
        if choice is None:
            return int(state["seq"])
        sent = time.monotonic()
        answer = await self.client.act(match_id, choice[0], expect=state["seq"], **choice[1])
        if answer["type"] == "error":
            code = str(answer.get("code"))
            self.tally.errors[code] = self.tally.errors.get(code, 0) + 1
            return -1
        self._acked(match_id, int(answer["seq"]), sent)
        return int(state["seq"])

    def _acked(self, match_id: str, seq: int, sent: float) -> None:
        tally, now = self.tally, time.monotonic()
        tally.acked[match_id] = max(tally.acked.get(match_id, 0), seq)
        if self.lost_at is not None:
            tally.recovered.append(now - self.lost_at)
            self.lost_at = None
        elif not self.ever_moved:
            killed = tally.killed_at
            (tally.before if killed is None or sent < killed else tally.after).append(now - sent)


async def start_pairs(
    url: str, matches: int, tally: Tally, seed: int
) -> list[tuple[str, Player, Player]]:
    """Guests through nginx, two a match, in matches of 25 points (they last the run)."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(matches):
        first, second = (
            Player(url, tally, random.Random(rng.random())),
            Player(url, tally, random.Random(rng.random())),
        )
        for player in (first, second):
            await player.client.guest()
            await player.client.connect()
        assert second.client.user is not None
        created = await first.client.create_match(
            opponent=str(second.client.user["name"]), length=25, clock=None
        )
        match_id = str(created["id"])
        await second.client.join(match_id)
        for player in (first, second):
            await player.client.subscribe(match_id)
        pairs.append((match_id, first, second))
    return pairs


class FibsSeat(fibs_load.Player):
    """A FIBS player of fibs_load.py that tells the run's tally its latencies apart
    before and after the kill, and when its connection was lost and it was answered
    again."""

    lost_at: float | None = None
    ever_moved = False

    @property
    def tally(self) -> Tally:
        return self.run.tally  # type: ignore[attr-defined, no-any-return]

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            await super()._read(reader)
        finally:
            tally = self.tally
            if not self.run.stopping and tally.killed_at is not None and self.lost_at is None:
                self.lost_at = time.monotonic()
                if not self.ever_moved:
                    self.ever_moved = True
                    tally.fibs_moved += 1

    def _acknowledge(self) -> None:
        if self.sent_at is not None:
            now, tally = time.monotonic(), self.tally
            if self.lost_at is not None:
                tally.fibs_recovered.append(now - self.lost_at)
                self.lost_at = None
            elif not self.ever_moved:
                late = tally.killed_at is not None and self.sent_at >= tally.killed_at
                (tally.fibs_after if late else tally.fibs_before).append(now - self.sent_at)
        super()._acknowledge()


class FibsRun(fibs_load.Run):
    """fibs_load.py's players, as :class:`FibsSeat`, all through nginx's FIBS port."""

    player_class = FibsSeat

    def __init__(self, port: int, think: tuple[float, float], tally: Tally) -> None:
        options = {"think": think, "length": 25, "double_rate": 0.1, "trace": ""}
        super().__init__(port, options)
        self.tally = tally


async def fibs_accounts(url: str, pairs: list[tuple[str, str, str]]) -> None:
    """Register every FIBS player's account (through nginx, as anyone signs up)."""
    for first, second, _address in pairs:
        for name in (first, second):
            client = ServerClient(url)
            await client.register(name, fibs_load.PASSWORD)
            await client.close()


async def fibs_lost(database: str, acknowledged: dict[str, list[str]]) -> int:
    """FIBS players' plays whose board they were shown, missing from their stored plays."""
    connection = await asyncpg.connect(database)
    try:
        rows = await connection.fetch(
            "SELECT a.entry, u.name FROM match_actions a JOIN matches m ON m.id = a.match_id "
            "JOIN users u ON u.id = CASE WHEN (a.entry::json ->> 'by') = '1' "
            "THEN m.player1 ELSE m.player0 END WHERE (a.entry::json ->> 'kind') = 'play'"
        )
    finally:
        await connection.close()
    stored: dict[str, set[str]] = {}
    for entry, name in rows:
        result = json.loads(entry).get("result")
        if result is not None:
            stored.setdefault(name, set()).add(result)
    missing = [
        (name, result)
        for name, results in acknowledged.items()
        for result in results
        if result not in stored.get(name, set())
    ]
    for name, result in missing[:5]:
        print(f"    not stored: {name} {result}")
    return len(missing)


async def lost_actions(database: str, acked: dict[str, int]) -> int:
    """Acknowledged actions missing from the matches' logs."""
    connection = await asyncpg.connect(database)
    try:
        lost = 0
        for match_id, seq in acked.items():  # an ack's seq: the log's length with it
            stored = await connection.fetchval(
                "SELECT count(*) FROM match_actions WHERE match_id = $1", match_id
            )
            lost += max(0, seq - int(stored))
        return lost
    finally:
        await connection.close()


def percentile(values: list[float], fraction: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{1000 * ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]:.0f} ms"


async def run(
    args: argparse.Namespace, url: str, fibs_port: int, servers: list[Server], database: str
) -> Tally:
    tally = Tally()
    pairs = await start_pairs(url, args.matches, tally, args.seed)
    think = (args.think[0], args.think[1])
    fibs = FibsRun(fibs_port, think, tally)
    fibs_pairs = fibs_load._pairs(0, args.fibs_matches, 2)
    await fibs_accounts(url, fibs_pairs)
    fibs.add(fibs_pairs)
    print(
        f"{len(pairs)} web matches started through nginx over {len(servers)} processes, "
        f"{len(fibs_pairs)} FIBS matches through nginx's stream port"
    )
    began = time.monotonic()
    stop = began + args.seconds

    async def kill() -> None:
        await asyncio.sleep(args.kill_at)
        victim = servers[0]
        victim.process.send_signal(signal.SIGKILL)
        tally.killed_at = time.monotonic()
        print(f"killed process {victim.pid} at {tally.killed_at - began:.0f} s")

    await asyncio.gather(
        kill(),
        *(
            player.play(match_id, seat, think, stop)
            for match_id, *two in pairs
            for seat, player in enumerate(two)
        ),
    )
    fibs.stopping = True
    for task in fibs.tasks:
        task.cancel()
    await asyncio.gather(*fibs.tasks, return_exceptions=True)
    print(f"database: {database}")
    print(f"lost (acknowledged, not stored): {await lost_actions(database, tally.acked)}")
    shown = {player.name: player.acknowledged for player in fibs.players.values()}
    print(
        f"FIBS plays shown: {sum(map(len, shown.values()))}, "
        f"lost (shown, not stored): {await fibs_lost(database, shown)}"
    )
    print(f"FIBS errors: {dict(fibs.stats.errors) or 'none'}")
    for sample in fibs.stats.samples:
        print("   ", sample)
    for _, first, second in pairs:
        await first.client.close()
        await second.client.close()
    return tally


def _latencies(label: str, before: list[float], after: list[float]) -> None:
    """The latency line of each side of the kill."""
    for when, values in (("before", before), ("after", after)):
        p50, p99 = percentile(values, 0.5), percentile(values, 0.99)
        print(f"{label} {when} the kill ({len(values)} answers): p50 {p50}, p99 {p99}")


def report(tally: Tally) -> None:
    print(f"acknowledged actions: {len(tally.before) + len(tally.after)} by players never moved")
    _latencies("latency", tally.before, tally.after)
    print(
        f"moved players: {tally.moved}; until they played again: p50 "
        f"{percentile(tally.recovered, 0.5)}, max {percentile(tally.recovered, 1.0)}"
    )
    print(f"errors: {tally.errors or 'none'}")
    _latencies("FIBS latency", tally.fibs_before, tally.fibs_after)
    print(
        f"FIBS players who lost their connection: {tally.fibs_moved}; until answered again: "
        f"p50 {percentile(tally.fibs_recovered, 0.5)}, "
        f"max {percentile(tally.fibs_recovered, 1.0)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--database", required=True, help="a PostgreSQL URL whose user may create databases"
    )
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--fibs-matches", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument("--kill-at", type=float, default=40.0)
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 3.0))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    database = asyncio.run(fresh_database(args.database))
    folder = Path(tempfile.mkdtemp(prefix="failover-"))
    servers, fibs_ports = [], [_free_port() for _ in range(args.processes)]
    for number, fibs_port in enumerate(fibs_ports):
        (folder / str(number)).mkdir()
        fibs = ("--fibs-port", str(fibs_port), "--fibs-proxy-protocol", "127.0.0.1")
        servers.append(Server(folder / str(number), database, "warning", fibs))
    balancer = None
    try:
        for server in servers:
            server.wait_ready()
        port, fibs_port = _free_port(), _free_port()
        config = folder / "nginx.conf"
        upstreams = [s.port for s in servers]
        config.write_text(nginx_config(upstreams, port, folder, (fibs_ports, fibs_port)))
        balancer = subprocess.Popen(
            ["nginx", "-p", str(folder), "-c", str(config), "-g", "daemon off;"]
        )
        time.sleep(1.0)
        url = f"http://127.0.0.1:{port}"
        report(asyncio.run(run(args, url, fibs_port, servers, database)))
    finally:
        if balancer is not None:
            balancer.terminate()
            balancer.wait(10)
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()
