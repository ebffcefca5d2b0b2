"""Load on one server process: many matches played over WebSockets by simulated people.

    .venv/bin/python benchmarks/server_load.py --matches 1000 --seconds 60
    .venv/bin/python benchmarks/server_load.py --flat-out --steps 10 50 200 --seconds 60
    .venv/bin/python benchmarks/server_load.py --database postgresql://USER@HOST/DB ...

Starts one ``backgammon serve`` subprocess (SQLite in a temporary folder, or
``--database URL``; no bots, no rate limit to speak of), registers two accounts per
match over HTTP (Argon2id makes each registration cost 50-100 ms of CPU, so they run in
parallel, ``--register-concurrency`` at a time, and are timed apart from the run;
``--guests`` uses guest accounts instead and skips the hashing), and hands the pairs to
``--client-processes`` processes. Each runs one asyncio loop with a
:class:`~backgammon.server.client.ServerClient` (its own WebSocket) per player: the
first player of a pair creates a match (``--length`` points, no clock), the second
joins, both subscribe. Then every player acts whenever a state from the server says it
is its turn, after thinking ``--think LOW HIGH`` seconds (uniform; 1-3 s, a person's
pace, by default): it rolls, or doubles now and then (``--double-rate``), always takes,
and plays a random legal play. A finished match is replaced at once by a new one
between the same two players, so the number of matches in play stays N.

What it measures, for the actions sent during the ``--seconds`` window that follows a
``--warm-up``:

- **actions/s**: player actions acknowledged (the server also logs its own entries:
  automatic rolls, forced moves, new games; ``entries/s`` is its committed log entries,
  read from ``/metrics``);
- **latency**: from sending an action to the arrival, on the acting player's own
  socket, of the first state whose ``seq`` reaches the ``seq`` in the action's ack (the
  state that contains the action); p50, p90, p99 and max. ``ack`` latency is shown too;
- **errors**: ``error`` messages answering actions, by code (with a few samples);
  none is expected, since every action is legal and acts on the latest state;
- **lost**: acknowledged actions whose state never arrived (within ``--ack-timeout``),
  final states (each player's, after the run) whose ``seq`` is below the highest seq
  acknowledged in that match, and matches whose state fetched over HTTP after the run
  is behind an ack; **unanswered**: actions with neither ack nor error in
  ``--ack-timeout``; **disconnects**: sockets the server closed (with the close code:
  1009 means the server dropped a client whose queue overflowed);
- **server CPU**: the server process's user+system time over the window (from
  ``/proc/PID/stat``) as a percentage of one core, and its resident memory;
  **client CPU**: the same for the client processes, summed; **machine CPU**: every
  CPU's busy time (``/proc/stat``), and what neither the server nor the clients used
  ("other processes": anything else running, and the PostgreSQL server with
  ``--database``), so a run disturbed by other work shows it;
- **healthz**: the time ``GET /healthz`` takes, polled every second during the window,
  a rough view of the server's event-loop delay.

How to read it. At a person's pace the offered load is fixed (about one decision per
two seconds per match, roughly 1.3 actions per turn), so actions/s should be
N / (mean think + latency) / ~1 and latency should stay near the idle figure; a p99 that
grows with N, or actions/s below the offered load, is where the server stops keeping
up. ``--flat-out`` sets the think time to zero and steps N up (``--steps``): actions/s
then climbs until the server process (or the machine) is saturated, and the highest
figure is what one server process sustains on this machine; latency there is mostly
queueing. The clients and the server share the machine's CPUs (the report prints how
many and how much the clients took), so on a small machine flat-out figures are a
lower bound for a server given the whole machine. Compare runs made on the same
machine in the same session, never absolute figures across machines.

The script reports what it sees and does not retry: a server error, a lost action or a
server crash shows up in the figures (and the server's stderr is kept: its errors are
printed after the table, the whole log is left at the path shown with ``--keep``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing as mp
import os
import random
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import WebSocketException

from backgammon.server.client import ClientError, ServerClient

PASSWORD = "load-benchmark-password"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
SETUP_ERRORS = (
    ClientError,
    httpx.HTTPError,
    ConnectionError,
    TimeoutError,
    RuntimeError,
    OSError,
    WebSocketException,
)
"""What creating, joining and subscribing may raise: counted, the pair stops."""


# -- the server ----------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (``/proc/PID/stat`` fields 14-15)."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def _machine_cpu_seconds() -> float:
    """CPU seconds every CPU of the machine has spent busy (``/proc/stat``)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS


def _memory_mib(pid: int) -> tuple[float, float]:
    """Resident and peak resident memory of ``pid`` in MiB."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            key, amount = line.split(":", 1)
            values[key] = int(amount.split()[0]) / 1024
    return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)


class Server:
    """One ``backgammon serve`` subprocess with its log."""

    def __init__(
        self, folder: Path, database: str | None, log_level: str, extra: tuple[str, ...] = ()
    ) -> None:
        self.folder = folder
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / "server.log"
        self.log_start = self.log.stat().st_size if self.log.exists() else 0
        command = [
            sys.executable, "-m", "backgammon", "serve", "--no-build-hypergammon",
            "--port", str(self.port),
            "--data", str(folder),
            "--bot-processes", "0",
            "--no-warm-up",
            "--no-bots",
            "--rate-limit", "1000",
            "--signups-per-hour", "1000000",  # every account comes from loopback
            "--websockets-per-address", "1000000",
            "--open-matches-per-address", "1000000",
            "--log-level", log_level,
        ]  # fmt: skip
        if database:
            command += ["--database", database]
        command += extra
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)

    @property
    def pid(self) -> int:
        """The server's process id."""
        return self.process.pid

    def wait_ready(self, timeout: float = 180.0) -> float:
        """Wait for ``/healthz`` to answer 200; returns the seconds it took.

        Raises:
            RuntimeError: if the server exits or is not ready in time.
        """
        began = time.perf_counter()
        while time.perf_counter() - began < timeout:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the server exited ({self.process.returncode}):\n{self.log_tail()}"
                )
            try:
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return time.perf_counter() - began
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the server was not ready in {timeout:.0f} s:\n{self.log_tail()}")

    def metrics(self) -> dict[str, float]:
        """The server's ``/metrics`` counters (empty if it does not answer)."""
        try:
            text = httpx.get(self.url + "/metrics", timeout=10).text
        except httpx.HTTPError:
            return {}
        values = {}
        for line in text.splitlines():
            if line and not line.startswith("#"):
                name, _, value = line.rpartition(" ")
                values[name] = float(value)
        return values

    def stop(self) -> int | None:
        """Stop the server (SIGINT, then SIGKILL after 20 s); returns its exit code,
        or None if it had already died before being asked (see :attr:`crashed`)."""
        self.crashed = self.process.poll()
        if self.crashed is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def _log_text(self) -> str:
        """What this server wrote to its log (the folder may hold earlier runs')."""
        try:
            with self.log.open("rb") as log:
                log.seek(self.log_start)
                return log.read().decode(errors="replace")
        except OSError:
            return ""

    def log_tail(self, lines: int = 40) -> str:
        """The last lines of the server's log."""
        return "\n".join(self._log_text().splitlines()[-lines:])

    def log_problems(self, limit: int = 30) -> tuple[int, list[str]]:
        """How many log lines look like problems (errors, warnings, tracebacks), and
        the first ``limit`` of them."""
        text = self._log_text()
        markers = ('"level":"ERROR"', '"level":"WARNING"', "Traceback", "ERROR:", "WARNING:")
        found = [line for line in text.splitlines() if any(m in line for m in markers)]
        return len(found), found[:limit]


# -- accounts --------------------------------------------------------------------------


async def _make_accounts(
    url: str, count: int, concurrency: int, guests: bool
) -> tuple[list[dict[str, Any]], list[str]]:
    """Register (or open as guests) ``count`` accounts, ``concurrency`` at a time;
    returns their ``{"token", "user"}`` and any failures."""
    prefix = "l" + secrets.token_hex(3)
    gate = asyncio.Semaphore(concurrency)
    failures: list[str] = []

    async def one(index: int) -> dict[str, Any] | None:
        async with gate, ServerClient(url, timeout=120) as client:
            try:
                if guests:
                    session = await client.guest()
                else:
                    session = await client.register(f"{prefix}_{index}", PASSWORD)
            except (ClientError, httpx.HTTPError) as error:
                failures.append(f"{type(error).__name__}: {error}")
                return None
            return {"token": session["token"], "user": session["user"]}

    made = await asyncio.gather(*(one(i) for i in range(count)))
    return [account for account in made if account is not None], failures


def _accounts(url: str, needed: int, args: argparse.Namespace) -> dict[str, Any]:
    """``needed`` accounts: those saved in ``--data``'s ``accounts.json`` by an earlier
    run on the same database (their tokens live 30 days), and new ones for the rest;
    returns them with the counts and the time the new ones took."""
    cache = args.data / "accounts.json" if args.data else None
    kind = "guest" if args.guests else "registered"
    saved: list[dict[str, Any]] = []
    if cache is not None and cache.exists():
        stored = json.loads(cache.read_text())
        if stored["database"] == (args.database or "") and stored["kind"] == kind:
            saved = stored["accounts"]
    missing = max(0, needed - len(saved))
    began = time.perf_counter()
    made, failures = asyncio.run(
        _make_accounts(url, missing, args.register_concurrency, args.guests)
    )
    seconds = time.perf_counter() - began
    if cache is not None and made:
        stored = {"database": args.database or "", "kind": kind, "accounts": saved + made}
        cache.write_text(json.dumps(stored))
    return {
        "accounts": (saved + made)[:needed],
        "reused": min(len(saved), needed),
        "made": len(made),
        "seconds": seconds,
        "failures": failures[:8],
    }


# -- the client processes ----------------------------------------------------------------


@dataclass
class Config:
    """What every client process needs to know (picklable)."""

    url: str
    length: int
    think: tuple[float, float]
    double_rate: float
    warm_up: float
    seconds: float
    ack_timeout: float
    setup_concurrency: int
    seed: int
    leave_at_end: bool


@dataclass
class Tally:
    """One client process's counts and samples."""

    latencies: list[float] = field(default_factory=list)
    ack_latencies: list[float] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    actions_warm_up: int = 0
    actions_after: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    socket_errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    lost_state: int = 0
    lost_final: int = 0
    lost_server: int = 0
    lost_samples: list[str] = field(default_factory=list)
    unanswered: int = 0
    disconnects: Counter[str] = field(default_factory=Counter)
    http_failures: Counter[str] = field(default_factory=Counter)
    http_samples: list[str] = field(default_factory=list)
    oddities: list[str] = field(default_factory=list)
    matches_finished: int = 0
    matches_replaced: int = 0
    replace_seconds: list[float] = field(default_factory=list)
    pairs_stopped: int = 0
    pairs_playing: int = 0

    def sample(self, where: list[str], text: str, limit: int = 8) -> None:
        """Keep ``text`` if fewer than ``limit`` samples are kept."""
        if len(where) < limit:
            where.append(text[:400])


def _state_reaching(match_id: str, seq: int) -> Callable[[dict[str, Any]], bool]:
    """A predicate for the state messages of ``match_id`` whose ``seq`` is at least ``seq``."""

    def accept(message: dict[str, Any]) -> bool:
        return (
            message["type"] == "state"
            and message["match"] == match_id
            and int(message["state"]["seq"]) >= seq
        )

    return accept


class Pair:
    """Two players (one client each) and the match they are playing."""

    def __init__(self, clients: tuple[ServerClient, ServerClient], seed: int) -> None:
        self.clients = clients
        self.match_id = ""
        self.max_acked: dict[str, int] = {}
        self.rng = random.Random(seed)
        self.dead = False


class Driver:
    """One client process's players: setup, play, and the final checks."""

    def __init__(self, config: Config, accounts: list[dict[str, Any]]) -> None:
        self.config = config
        self.accounts = accounts
        self.tally = Tally()
        self.pairs: list[Pair] = []
        self.stopping = False
        self.window = (0.0, 0.0)

    # -- setup ---------------------------------------------------------------------

    def _client(self, account: dict[str, Any]) -> ServerClient:
        client = ServerClient(self.config.url, timeout=120)
        client.token, client.user = account["token"], account["user"]
        return client

    async def _new_match(self, pair: Pair) -> None:
        """Seat 0 creates a match, seat 1 joins, both subscribe (the old one is left)."""
        first, second = pair.clients
        old = pair.match_id
        created = await first.create_match(length=self.config.length, clock=None)
        match_id = created["id"]
        await second.join(match_id)
        for client in pair.clients:
            if old:
                await client.send({"type": "unsubscribe", "match": old})
            answer = await client.subscribe(match_id)
            if answer["type"] == "error":
                raise RuntimeError(f"subscribe {match_id}: {answer}")
        pair.match_id = match_id

    async def setup(self) -> float:
        """Connect every player and start every pair's first match; returns seconds."""
        began = time.perf_counter()
        gate = asyncio.Semaphore(self.config.setup_concurrency)

        # Every client first: making one (its httpx client) takes tens of milliseconds
        # of CPU, which would otherwise hold the loop while other clients' WebSocket
        # handshakes wait for their answers (and time out after 10 s).
        for index in range(len(self.accounts) // 2):
            clients = (
                self._client(self.accounts[2 * index]),
                self._client(self.accounts[2 * index + 1]),
            )
            self.pairs.append(Pair(clients, self.config.seed + index))

        async def one(pair: Pair) -> None:
            async with gate:
                try:
                    for client in pair.clients:
                        await client.connect()
                    await self._new_match(pair)
                except SETUP_ERRORS as error:
                    pair.dead = True
                    self.tally.http_failures[f"setup {type(error).__name__}"] += 1
                    self.tally.sample(self.tally.http_samples, f"setup: {error!r}")

        await asyncio.gather(*(one(pair) for pair in self.pairs))
        return time.perf_counter() - began

    # -- play ----------------------------------------------------------------------

    def _choose(self, pair: Pair, state: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        game = state["game"]
        if game is None:
            return None
        pending = game["pending"]
        if pending is not None:
            return ("take", {}) if pending["kind"] == "double" else None
        if game["dice"] is None:
            if game["can_double"] and pair.rng.random() < self.config.double_rate:
                return "double", {}
            return "roll", {}
        plays = game["legal_plays"]
        if not plays:
            return None
        return "play", {"move": pair.rng.choice(plays)}

    async def _act(
        self, pair: Pair, seat: int, match_id: str, kind: str, fields: dict[str, Any], seq: int
    ) -> None:
        """Send one action and measure it (see the module docstring)."""
        client, tally = pair.clients[seat], self.tally
        mark = len(client.messages)
        sent = time.perf_counter()
        try:
            answer = await client.act(match_id, kind, **fields)
        except TimeoutError:
            tally.unanswered += 1
            tally.sample(tally.lost_samples, f"unanswered {kind} in {match_id} at seq {seq}")
            return
        if answer["type"] == "error":
            code = answer.get("code", "?")
            tally.errors[code] += 1
            tally.sample(
                tally.error_samples,
                f"{kind} {fields.get('move', '')!r} in {match_id} at seq {seq}: "
                f"{code}: {answer.get('message')}",
            )
            return
        acked = int(answer["seq"])
        pair.max_acked[match_id] = max(pair.max_acked.get(match_id, 0), acked)
        try:
            state = await client.wait_for(
                lambda m: (
                    m["type"] == "state" and m["match"] == match_id and m["state"]["seq"] >= acked
                ),
                timeout=self.config.ack_timeout,
                since=mark,
            )
        except TimeoutError:
            tally.lost_state += 1
            tally.sample(
                tally.lost_samples, f"ack of {kind} in {match_id} (seq {acked}) but no state"
            )
            return
        start, end = self.window
        if sent < start:
            tally.actions_warm_up += 1
        elif sent >= end:
            tally.actions_after += 1
        else:
            tally.latencies.append(state["_received"] - sent)
            tally.ack_latencies.append(answer["_received"] - sent)
            tally.kinds[kind] += 1

    async def _play_seat(self, pair: Pair, seat: int, match_id: str) -> bool:
        """Act for ``seat`` until the match ends (True) or the run stops (False)."""
        client = pair.clients[seat]
        last = -1
        low, high = self.config.think
        while not self.stopping:
            state = client.states[match_id]
            if state["result"] is not None:
                return True
            if state["waiting_for"] == seat and state["seq"] != last:
                last = state["seq"]
                if high > 0:
                    await asyncio.sleep(pair.rng.uniform(low, high))
                    if self.stopping:
                        return False
                choice = self._choose(pair, state)
                if choice is None:
                    self.tally.sample(
                        self.tally.oddities, f"no action for seat {seat} in state {state}"
                    )
                    continue
                await self._act(pair, seat, match_id, choice[0], choice[1], state["seq"])
                continue
            seen = state["seq"]
            mark = len(client.messages)
            try:
                await client.wait_for(
                    _state_reaching(match_id, seen + 1),
                    timeout=1.0,
                    since=mark,
                )
            except TimeoutError:
                continue
        return False

    async def _run_pair(self, pair: Pair) -> None:
        while not self.stopping and not pair.dead:
            match_id = pair.match_id
            finished = await asyncio.gather(
                self._play_seat(pair, 0, match_id),
                self._play_seat(pair, 1, match_id),
                return_exceptions=True,
            )
            failures = [f for f in finished if isinstance(f, BaseException)]
            if failures:
                codes = [str(c.closed_with) for c in pair.clients if c.closed_with is not None]
                self.tally.disconnects[",".join(codes) or "none"] += 1
                self.tally.sample(self.tally.oddities, f"pair stopped: {failures[0]!r}")
                self.tally.pairs_stopped += 1
                pair.dead = True
                return
            if not all(finished):
                return
            self.tally.matches_finished += 1
            began = time.perf_counter()
            try:
                await self._new_match(pair)
            except SETUP_ERRORS as error:
                self.tally.http_failures[f"new match {type(error).__name__}"] += 1
                self.tally.sample(self.tally.http_samples, f"new match: {error!r}")
                self.tally.pairs_stopped += 1
                pair.dead = True
                return
            self.tally.matches_replaced += 1
            self.tally.replace_seconds.append(time.perf_counter() - began)

    async def play(self, start_at: float) -> None:
        """Play from ``start_at`` (wall clock) through the warm-up and the window."""
        offset = time.perf_counter() - time.time()
        begin = start_at + offset
        window_start = begin + self.config.warm_up
        self.window = (window_start, window_start + self.config.seconds)
        await asyncio.sleep(max(0.0, begin - time.perf_counter()))
        tasks = [asyncio.create_task(self._run_pair(p)) for p in self.pairs if not p.dead]
        self.tally.pairs_playing = len(tasks)
        await asyncio.sleep(max(0.0, self.window[1] - time.perf_counter()))
        self.stopping = True
        # In-flight actions finish (or time out) before the checks.
        await asyncio.wait(tasks, timeout=self.config.ack_timeout + 5)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- checks --------------------------------------------------------------------

    async def check(self) -> None:
        """Every player's last state and the server's state reach every ack."""
        tally = self.tally
        gate = asyncio.Semaphore(self.config.setup_concurrency)

        async def one(pair: Pair) -> None:
            for match_id, acked in pair.max_acked.items():
                for client in pair.clients:
                    if client.closed_with is not None:
                        continue  # counted as a disconnect; no more states could come
                    state = client.states.get(match_id)
                    if state is None or state["seq"] < acked:
                        tally.lost_final += 1
                        tally.sample(
                            tally.lost_samples,
                            f"{client.user and client.user['name']}'s last state of "
                            f"{match_id} is seq {state and state['seq']}, below the acked {acked}",
                        )
                async with gate:
                    try:
                        state = await pair.clients[0].request("GET", f"/api/matches/{match_id}")
                    except (ClientError, httpx.HTTPError) as error:
                        tally.http_failures[f"final GET {type(error).__name__}"] += 1
                        tally.sample(tally.http_samples, f"final GET {match_id}: {error!r}")
                        continue
                if state.get("seq", -1) < acked:
                    tally.lost_server += 1
                    tally.sample(
                        tally.lost_samples,
                        f"server's state of {match_id} is seq {state.get('seq')}, "
                        f"below the acked {acked}",
                    )

        await asyncio.sleep(1.0)  # states published just before the end arrive
        for pair in self.pairs:
            for client in pair.clients:
                for message in client.messages:
                    if message["type"] == "error":
                        tally.socket_errors[message.get("code", "?")] += 1
                        if message.get("ref") is None:
                            tally.sample(tally.error_samples, f"error without ref: {message}")
        await asyncio.gather(*(one(pair) for pair in self.pairs))

    async def leave(self) -> None:
        """End every unfinished match (its first player leaves), so that a server
        started later on the same database has no matches of this run to resume."""
        gate = asyncio.Semaphore(self.config.setup_concurrency)

        async def one(pair: Pair) -> None:
            state = pair.clients[0].states.get(pair.match_id)
            if pair.clients[0].closed_with is not None or state is None:
                return
            if state["result"] is None:
                async with gate:
                    with contextlib.suppress(TimeoutError, ConnectionError):
                        await pair.clients[0].act(pair.match_id, "leave")

        await asyncio.gather(*(one(pair) for pair in self.pairs))

    async def close(self) -> None:
        """Close every client."""
        clients = [client for pair in self.pairs for client in pair.clients]
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)


def _process_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _client_main(
    config: Config, accounts: list[dict[str, Any]], queue: Any, go: Any, start_at: Any
) -> None:
    driver = Driver(config, accounts)
    setup_seconds = await driver.setup()
    queue.put(("ready", os.getpid(), setup_seconds))
    while not go.is_set():
        await asyncio.sleep(0.02)
    start = start_at.value
    window_start = start + config.warm_up
    cpu_task = asyncio.create_task(_cpu_over(window_start, window_start + config.seconds))
    # No cyclic collection in the clients while they play: a client's pause (tens of
    # milliseconds with a thousand sockets) would be counted as the server's latency.
    # The few minutes' garbage is collected after the window.
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        await driver.play(start)
    finally:
        gc.enable()
    cpu = await cpu_task
    await driver.check()
    if config.leave_at_end:
        await driver.leave()
    await driver.close()
    tally = driver.tally.__dict__ | {"client_cpu_seconds": cpu}
    queue.put(("result", os.getpid(), tally))


async def _cpu_over(start: float, end: float) -> float:
    """This process's CPU seconds between two wall-clock times."""
    await asyncio.sleep(max(0.0, start - time.time()))
    before = _process_cpu()
    await asyncio.sleep(max(0.0, end - time.time()))
    return _process_cpu() - before


def client_process(
    config: Config, accounts: list[dict[str, Any]], queue: Any, go: Any, start_at: Any
) -> None:
    """A client process's entry point (runs its own event loop)."""
    try:
        asyncio.run(_client_main(config, accounts, queue, go, start_at))
    except BaseException as error:  # reported, not swallowed
        import traceback

        queue.put(("failed", os.getpid(), "".join(traceback.format_exception(error))))


# -- one run -----------------------------------------------------------------------------


def _percentile(values: list[float], fraction: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _histogram_quantile(
    before: dict[str, float], after: dict[str, float], name: str, fraction: float
) -> float | None:
    """The upper bound (seconds) of the ``/metrics`` histogram bucket that holds the
    ``fraction`` quantile of the observations made between two readings."""
    prefix = name + '_bucket{le="'
    bounds = []
    for key, value in after.items():
        if key.startswith(prefix):
            bound = key[len(prefix) : -2]
            bounds.append(
                (float("inf") if bound == "+Inf" else float(bound), value - before.get(key, 0))
            )
    bounds.sort()
    if not bounds or bounds[-1][1] <= 0:
        return None
    target = fraction * bounds[-1][1]
    return next(bound for bound, count in bounds if count >= target)


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{1000 * value:.1f}"


def run_once(args: argparse.Namespace, matches: int, think: tuple[float, float]) -> dict[str, Any]:
    """Start a server, play ``matches`` matches through a window, stop it; returns
    the figures."""
    if args.data:
        folder = args.data
        folder.mkdir(parents=True, exist_ok=True)
    else:
        folder = Path(tempfile.mkdtemp(prefix="server-load-"))
    server = Server(folder, args.database, args.server_log_level)
    figures: dict[str, Any] = {
        "matches": matches,
        "think": list(think),
        "database": "postgresql" if args.database else "sqlite",
        "client_processes": args.client_processes,
        "cpus": os.cpu_count(),
        "server_log": str(server.log),
    }
    processes: list[Any] = []
    try:
        figures["server_start_seconds"] = server.wait_ready()
        made = _accounts(server.url, 2 * matches, args)
        accounts = made["accounts"]
        figures["accounts"] = len(accounts)
        figures["accounts_reused"] = made["reused"]
        figures["accounts_made"] = made["made"]
        figures["account_seconds"] = made["seconds"]
        figures["account_failures"] = made["failures"]
        figures["account_kind"] = "guest" if args.guests else "registered (Argon2id)"
        if len(accounts) % 2:
            accounts.pop()

        config = Config(
            url=server.url,
            length=args.length,
            think=think,
            double_rate=args.double_rate,
            warm_up=args.warm_up,
            seconds=args.seconds,
            ack_timeout=args.ack_timeout,
            setup_concurrency=args.setup_concurrency,
            seed=args.seed,
            leave_at_end=args.data is not None,
        )
        context = mp.get_context("spawn")
        queue = context.Queue()
        go = context.Event()
        start_at = context.Value("d", 0.0)
        shards: list[list[dict[str, Any]]] = [[] for _ in range(args.client_processes)]
        for index in range(len(accounts) // 2):
            shards[index % args.client_processes] += accounts[2 * index : 2 * index + 2]
        setup_began = time.perf_counter()
        for number, shard in enumerate(shards):
            config_n = Config(**{**config.__dict__, "seed": args.seed + 100_000 * number})
            process = context.Process(
                target=client_process, args=(config_n, shard, queue, go, start_at), daemon=True
            )
            process.start()
            processes.append(process)
        ready = 0
        while ready < len(processes):
            kind, pid, payload = queue.get(timeout=args.setup_timeout)
            if kind == "failed":
                raise RuntimeError(f"client process {pid} failed:\n{payload}")
            ready += 1
        figures["setup_seconds"] = time.perf_counter() - setup_began

        start = time.time() + 0.5
        start_at.value = start
        go.set()
        window_start = start + args.warm_up
        time.sleep(max(0.0, window_start - time.time()))
        cpu_before, metrics_before = _cpu_seconds(server.pid), server.metrics()
        machine_before, load_before = _machine_cpu_seconds(), os.getloadavg()[0]
        health: list[float] = []
        health_failures = 0
        window_end = window_start + args.seconds
        with httpx.Client(base_url=server.url, timeout=10) as http:
            while time.time() < window_end - 1.0:
                began = time.perf_counter()
                try:
                    http.get("/healthz")
                    health.append(time.perf_counter() - began)
                except httpx.HTTPError:
                    health_failures += 1
                time.sleep(max(0.0, 1.0 - (time.perf_counter() - began)))
        time.sleep(max(0.0, window_end - time.time()))
        machine_after, load_after = _machine_cpu_seconds(), os.getloadavg()[0]
        alive = server.process.poll() is None
        cpu_after = _cpu_seconds(server.pid) if alive else cpu_before
        metrics_after = server.metrics() if alive else {}
        rss, peak = _memory_mib(server.pid) if alive else (0.0, 0.0)

        tallies: list[dict[str, Any]] = []
        deadline = time.time() + args.ack_timeout + 120 + 2 * matches / 100
        while len(tallies) < len(processes):
            kind, pid, payload = queue.get(timeout=max(1.0, deadline - time.time()))
            if kind == "failed":
                raise RuntimeError(f"client process {pid} failed:\n{payload}")
            if kind == "result":
                tallies.append(payload)
        for process in processes:
            process.join(30)

        figures.update(_combine(tallies, args.seconds))
        entries = metrics_after.get("backgammon_actions_total", 0) - metrics_before.get(
            "backgammon_actions_total", 0
        )
        commits = metrics_after.get("backgammon_commit_seconds_count", 0) - metrics_before.get(
            "backgammon_commit_seconds_count", 0
        )
        commit_time = metrics_after.get("backgammon_commit_seconds_sum", 0) - metrics_before.get(
            "backgammon_commit_seconds_sum", 0
        )
        figures.update(
            server_alive_after_window=alive,
            server_entries_per_second=entries / args.seconds if metrics_after else None,
            server_commit_mean_ms=1000 * commit_time / commits if commits else None,
            server_action_p99_bound=_histogram_quantile(
                metrics_before, metrics_after, "backgammon_action_seconds", 0.99
            ),
            server_commit_p99_bound=_histogram_quantile(
                metrics_before, metrics_after, "backgammon_commit_seconds", 0.99
            ),
            server_refused=metrics_after.get("backgammon_refused_total", 0)
            - metrics_before.get("backgammon_refused_total", 0),
            server_connections=metrics_after.get("backgammon_connections"),
            server_cpu_percent=100 * (cpu_after - cpu_before) / args.seconds,
            machine_cpu_percent=100 * (machine_after - machine_before) / args.seconds,
            load_average=[load_before, load_after],
            server_rss_mib=rss,
            server_peak_rss_mib=peak,
            healthz_p50_ms=_percentile(health, 0.5),
            healthz_max_ms=max(health) if health else None,
            healthz_failures=health_failures,
        )
        for key in ("healthz_p50_ms", "healthz_max_ms"):
            if figures[key] is not None:
                figures[key] *= 1000
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
        exit_code = server.stop()
        figures["server_died_during_run"] = server.crashed is not None
        figures["server_exit_code"] = exit_code
        figures["server_log_problems"], figures["server_log_samples"] = server.log_problems()
        if server.crashed is not None:
            figures["server_log_tail"] = server.log_tail()
        if not args.keep and not args.data:
            shutil.rmtree(folder, ignore_errors=True)
            figures["server_log"] = None
    return figures


def _combine(tallies: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    """The client processes' tallies as one run's figures."""
    latencies = [x for t in tallies for x in t["latencies"]]
    acks = [x for t in tallies for x in t["ack_latencies"]]
    kinds: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    socket_errors: Counter[str] = Counter()
    disconnects: Counter[str] = Counter()
    http: Counter[str] = Counter()
    for tally in tallies:
        kinds.update(tally["kinds"])
        errors.update(tally["errors"])
        socket_errors.update(tally["socket_errors"])
        disconnects.update(tally["disconnects"])
        http.update(tally["http_failures"])
    replace = [x for t in tallies for x in t["replace_seconds"]]

    def total(key: str) -> int:
        return sum(int(t[key]) for t in tallies)

    def samples(key: str) -> list[str]:
        return [s for t in tallies for s in t[key]][:12]

    return {
        "actions": len(latencies),
        "actions_per_second": len(latencies) / seconds,
        "kinds": dict(kinds),
        "latency_p50_ms": _to_ms(_percentile(latencies, 0.5)),
        "latency_p90_ms": _to_ms(_percentile(latencies, 0.9)),
        "latency_p99_ms": _to_ms(_percentile(latencies, 0.99)),
        "latency_max_ms": _to_ms(max(latencies) if latencies else None),
        "latency_mean_ms": _to_ms(statistics.fmean(latencies) if latencies else None),
        "ack_p50_ms": _to_ms(_percentile(acks, 0.5)),
        "ack_p99_ms": _to_ms(_percentile(acks, 0.99)),
        "errors": sum(errors.values()),
        "errors_by_code": dict(errors),
        "error_messages_whole_run": dict(socket_errors),
        "error_samples": samples("error_samples"),
        "lost": total("lost_state") + total("lost_final") + total("lost_server"),
        "lost_no_state": total("lost_state"),
        "lost_final_state_behind": total("lost_final"),
        "lost_server_behind": total("lost_server"),
        "lost_samples": samples("lost_samples"),
        "unanswered": total("unanswered"),
        "disconnects": dict(disconnects),
        "http_failures": dict(http),
        "http_samples": samples("http_samples"),
        "oddities": samples("oddities"),
        "matches_finished": total("matches_finished"),
        "matches_replaced": total("matches_replaced"),
        "replace_p50_ms": _to_ms(_percentile(replace, 0.5)),
        "pairs_stopped": total("pairs_stopped"),
        "matches_playing": total("pairs_playing"),
        "client_cpu_percent": 100 * sum(t["client_cpu_seconds"] for t in tallies) / seconds,
    }


def _to_ms(seconds: float | None) -> float | None:
    return None if seconds is None else 1000 * seconds


# -- the report --------------------------------------------------------------------------


def _print_run(figures: dict[str, Any], args: argparse.Namespace) -> None:
    think = figures["think"]
    pace = "flat out (think 0)" if think[1] == 0 else f"think {think[0]:g}-{think[1]:g} s"
    print(
        f"\n== {figures['matches']} matches, {pace}, {figures['database']}, "
        f"{figures['client_processes']} client processes =="
    )
    rows: list[tuple[str, str]] = [
        ("server ready", f"{figures.get('server_start_seconds', 0):.1f} s"),
    ]
    if "account_seconds" in figures:
        count, seconds = figures["accounts_made"], figures["account_seconds"]
        rate = f"{count / seconds:.1f}/s, " if count else ""
        rows.append(
            (
                "accounts",
                f"{count} {figures['account_kind']} in {seconds:.1f} s "
                f"({rate}{args.register_concurrency} at a time)"
                + (f"; {figures['accounts_reused']} reused" if figures["accounts_reused"] else "")
                + (
                    f", {len(figures['account_failures'])}+ failed"
                    if figures["account_failures"]
                    else ""
                ),
            )
        )
    if "setup_seconds" in figures:
        playing = figures.get("matches_playing")
        rows.append(
            (
                "connect+create+join",
                f"{figures['setup_seconds']:.1f} s"
                + ("" if playing is None else f"; {playing} of {figures['matches']} in play"),
            )
        )
    if "actions" in figures:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(figures["kinds"].items()))
        rows += [
            (
                "actions",
                f"{figures['actions']} in {args.seconds:g} s = "
                f"{figures['actions_per_second']:.1f}/s ({kinds})",
            ),
            (
                "server log entries",
                f"{_num(figures['server_entries_per_second'])}/s "
                f"(commit mean {_num(figures['server_commit_mean_ms'])} ms)",
            ),
            (
                "server's own p99",
                f"action receipt to publication <= {_ms(figures['server_action_p99_bound'])} ms, "
                f"commit <= {_ms(figures['server_commit_p99_bound'])} ms (histogram buckets)",
            ),
            (
                "latency to state",
                f"p50 {_num(figures['latency_p50_ms'])}  p90 {_num(figures['latency_p90_ms'])}  "
                f"p99 {_num(figures['latency_p99_ms'])}  max {_num(figures['latency_max_ms'])} ms",
            ),
            (
                "latency to ack",
                f"p50 {_num(figures['ack_p50_ms'])}  p99 {_num(figures['ack_p99_ms'])} ms",
            ),
            (
                "errors",
                f"{figures['errors']} answering actions in the window "
                f"{figures['errors_by_code'] or ''}; error messages in the whole run: "
                f"{sum(figures['error_messages_whole_run'].values())} "
                f"{figures['error_messages_whole_run'] or ''}",
            ),
            (
                "lost",
                f"{figures['lost']} (no state after ack {figures['lost_no_state']}, "
                f"final state behind {figures['lost_final_state_behind']}, "
                f"server behind {figures['lost_server_behind']})",
            ),
            ("unanswered", str(figures["unanswered"])),
            ("disconnects", str(figures["disconnects"] or 0)),
            ("HTTP failures", str(figures["http_failures"] or 0)),
            (
                "matches finished",
                f"{figures['matches_finished']} (replaced {figures['matches_replaced']}, "
                f"new match p50 {_num(figures['replace_p50_ms'])} ms)",
            ),
            (
                "server CPU",
                f"{figures['server_cpu_percent']:.0f}% of one core; "
                f"RSS {figures['server_rss_mib']:.0f} MiB "
                f"(peak {figures['server_peak_rss_mib']:.0f})",
            ),
            (
                "client CPU",
                f"{figures['client_cpu_percent']:.0f}% of one core "
                f"(clients and server share {figures['cpus']} CPUs)",
            ),
            (
                "machine CPU",
                f"{figures['machine_cpu_percent']:.0f}% of one core busy of "
                f"{100 * figures['cpus']}%; other processes "
                f"{_others(figures):.0f}%; load average "
                f"{figures['load_average'][0]:.1f} -> {figures['load_average'][1]:.1f}",
            ),
            (
                "healthz",
                f"p50 {_num(figures['healthz_p50_ms'])}  max {_num(figures['healthz_max_ms'])} ms"
                + (
                    f", {figures['healthz_failures']} failed" if figures["healthz_failures"] else ""
                ),
            ),
        ]
    rows.append(
        (
            "server",
            ("DIED during the run" if figures["server_died_during_run"] else "ran to the end")
            + f", exit code {figures['server_exit_code']}, "
            f"{figures['server_log_problems']} error/warning lines in its log",
        )
    )
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    for key in ("error_samples", "lost_samples", "http_samples", "oddities", "account_failures"):
        if figures.get(key):
            print(f"  {key.replace('_', ' ')}:")
            for line in figures[key]:
                print(f"    {line}")
    if figures["server_log_samples"]:
        print("  server log (first problem lines):")
        for line in figures["server_log_samples"][:15]:
            print(f"    {line[:300]}")
    if figures.get("server_log_tail"):
        print("  server log tail:")
        print("    " + figures["server_log_tail"].replace("\n", "\n    "))
    if figures.get("server_log"):
        print(f"  server log: {figures['server_log']}")


def _others(figures: dict[str, Any]) -> float:
    """CPU the machine spent on neither the server nor the clients (% of one core)."""
    return float(
        figures["machine_cpu_percent"]
        - figures["server_cpu_percent"]
        - figures["client_cpu_percent"]
    )


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _print_summary(runs: list[dict[str, Any]]) -> None:
    print(
        "\n  playing  think      actions/s  entries/s  p50 ms  p99 ms  errors  lost  "
        "server CPU  client CPU  others"
    )
    for figures in runs:
        if "actions" not in figures:
            print(f"  {figures['matches']:>7}  (no figures: the run failed)")
            continue
        think = figures["think"]
        print(
            f"  {figures.get('matches_playing', figures['matches']):>7}"
            f"  {think[0]:g}-{think[1]:g} s".ljust(20)
            + f"{figures['actions_per_second']:>10.1f}"
            f" {_num(figures['server_entries_per_second']):>10}"
            f"  {_num(figures['latency_p50_ms']):>6}  {_num(figures['latency_p99_ms']):>6}"
            f"  {figures['errors']:>6}  {figures['lost']:>4}"
            f"  {figures['server_cpu_percent']:>9.0f}%  {figures['client_cpu_percent']:>9.0f}%"
            f"  {_others(figures):>5.0f}%"
        )


def main() -> None:
    """Parse the options, run, print, and write the JSON."""
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--matches", type=int, default=1000, help="matches in play at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window")
    parser.add_argument("--warm-up", type=float, default=10.0, help="seconds before the window")
    parser.add_argument(
        "--think", type=float, nargs=2, default=(1.0, 3.0), metavar=("LOW", "HIGH"),
        help="a player's thinking time, uniform (seconds)",
    )  # fmt: skip
    parser.add_argument(
        "--flat-out", action="store_true",
        help="think 0, and run once for each of --steps match counts",
    )  # fmt: skip
    parser.add_argument("--steps", type=int, nargs="+", default=[10, 50, 200])
    parser.add_argument("--length", type=int, default=5, help="match length (points)")
    parser.add_argument("--double-rate", type=float, default=0.02)
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--database", help="postgresql://... (default: SQLite in a temp dir)")
    parser.add_argument("--guests", action="store_true", help="guest accounts: no Argon2id")
    parser.add_argument("--register-concurrency", type=int, default=8)
    parser.add_argument("--setup-concurrency", type=int, default=32)
    parser.add_argument("--setup-timeout", type=float, default=600.0)
    parser.add_argument("--ack-timeout", type=float, default=30.0)
    parser.add_argument("--server-log-level", default="warning")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the server's folder and log")
    parser.add_argument(
        "--data", type=Path,
        help="a lasting server folder: its accounts (accounts.json) are reused by later runs "
        "on the same database, and each run's matches are left at its end",
    )  # fmt: skip
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()

    cpus = os.cpu_count()
    print(
        f"server_load: one server process, {args.client_processes} client processes; "
        f"clients and server share this machine's {cpus} CPUs"
    )
    plan = (
        [(n, (0.0, 0.0)) for n in args.steps]
        if args.flat_out
        else [(args.matches, (args.think[0], args.think[1]))]
    )
    runs = []
    for matches, think in plan:
        try:
            figures = run_once(args, matches, think)
        except (RuntimeError, OSError, EOFError, TimeoutError) as error:
            print(f"\n== {matches} matches: the run failed: {error}")
            figures = {"matches": matches, "think": list(think), "failure": str(error)}
            runs.append(figures)
            continue
        except Exception as error:  # queue.Empty and the like: say what and go on
            print(f"\n== {matches} matches: the run failed: {type(error).__name__}: {error}")
            figures = {"matches": matches, "think": list(think), "failure": repr(error)}
            runs.append(figures)
            continue
        runs.append(figures)
        _print_run(figures, args)
    _print_summary(runs)
    if args.json:
        args.json.write_text(json.dumps({"argv": sys.argv[1:], "runs": runs}, indent=1) + "\n")
        print(f"\nfigures written to {args.json}")


if __name__ == "__main__":
    main()
