"""Load on the FIBS front end: registered players logging in with passwords and playing
whole matches at a person's pace over raw sockets, as FIBS client programs do.

    .venv/bin/python benchmarks/fibs_load.py --levels 50 200 500 1000 --hold 60
    .venv/bin/python benchmarks/fibs_load.py --crash 100

Starts one ``backgammon serve --fibs-port`` subprocess (SQLite in a temporary folder;
``--server-loop asyncio|uvloop`` is its ``--loop``, uvloop where installed by default),
and creates two registered accounts per match directly in its database (every account
has a password and its Argon2id hash, made once with the server's own parameters: each
login still costs the server one full verification). Client processes
(``--client-processes``) each run one asyncio loop with one TCP connection per player,
spread over loopback addresses (127.0.x.y, ``--per-address`` players each, as players
come from many machines). A player:

- waits for the ``login: `` prompt and sends ``login fibs_load 1008 NAME PASSWORD``;
  it counts as logged in at the CLIP ``6`` line that ends the who list;
- the first of a pair invites the second (``invite NAME 3``) once both are logged in, the
  second joins on the invitation; at the end of a match the first invites again;
- whenever it may act, it thinks ``--think LOW HIGH`` seconds and then acts on the
  latest ``board:`` line: rolls (or doubles, ``--double-rate``), plays a random legal
  play (typed as FIBS steps, ``move 13-7 8-7``), accepts doubles and resignations, and
  types ``join`` where the server asks whether to play the next game.

Ramp (``--levels``): each level adds pairs to reach that many matches in play, all of
the new players connecting at once, and then holds ``--hold`` seconds. Per level:

- **login**: seconds from the level's start until each new player saw its ``6`` line
  (p50, max) and how many were logged in within ``--login-limit`` seconds (120);
- **latency**: from sending an action to the line that answers it (p50, p99, max; and
  each command's count and p99): the next ``board:`` line, except for a double (FIBS
  answers ``You double. ...``) and an accepted double or resignation (``You accept
  ...``: the next board waits for the opponent's roll, which until 2026-11-27 was
  counted in, a second or more of the opponent's thinking in 1-2% of the actions);
- **errors**: ``**`` lines that are not one of FIBS's ordinary notices, and sockets
  closed by the server;
- **stalled**: players in a match who have received nothing for ``--stall`` seconds
  (their match is stuck: at a person's pace something happens every few seconds).

Crash (``--crash N``): N matches are played for ``--hold`` seconds, the server is killed
with SIGKILL and started again on the same database and ports; players reconnect (every
0.5-1.5 s) and log in, their running match is loaded, and they play it to its end.
Reported: seconds until every player is back, matches finished, and **lost**: plays
whose ``board:`` line the player had received before the kill (acknowledged) that are
not in the match's stored log afterwards (read from the SQLite file).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing as mp
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Coroutine
from dataclasses import dataclass, field
from multiprocessing.connection import Connection as Pipe
from pathlib import Path
from typing import Any

from backgammon.notation.fibs_board import decode_fibs_board, fibs_board_to_sides
from backgammon.rules.position import Position
from server_load import Server, _cpu_seconds, _free_port, _histogram_quantile, _ms

PASSWORD = "fibs-load-password"
NOTICES = (
    "** You invited",
    "** Player",
    "** You are now playing",
    "** You're now",
    "** You won't",
    "** You will",
)
"""``**`` lines that are notices, not errors."""


# -- one player ------------------------------------------------------------------------


@dataclass
class Stats:
    """What a client process saw since the last report."""

    latencies: list[float] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    """The command of each latency (its first word)."""
    logins: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)
    closed: int = 0
    retries: int = 0
    finished: int = 0
    actions: int = 0

    def error(self, kind: str, sample: str) -> None:
        """Count an error of ``kind`` and keep a few samples."""
        self.errors[kind] += 1
        if len(self.samples) < 10:
            self.samples.append(sample[:160])


class Player:
    """One FIBS client: a TCP connection, the latest board, and a turn loop."""

    def __init__(self, name: str, partner: str, inviter: bool, address: str, run: Run) -> None:
        self.name, self.partner, self.inviter = name, partner, inviter
        self.address = address
        self.run = run
        self.writer: asyncio.StreamWriter | None = None
        self.logged_in = asyncio.Event()
        self.login_began = 0.0
        self.board: Any = None
        self.board_text = ""
        self.offered = False  # a double or a resignation waits for our answer
        self.next_game = False  # the server asks whether to play the next game
        self.roll_prompt = False  # the server asks us to roll or double
        self.refused = False  # the last login was refused for now (busy, throttled)
        self.sent_at: float | None = None
        # The line that answers the command sent last (None: a board line): FIBS
        # answers a double with "You double. ..." and no board.
        self.ack_prefix: str | None = None
        self.sent_play: str | None = None
        self.sent_command = ""
        self.acting = False
        self.in_match = False
        self.last_line = time.monotonic()
        self.acknowledged: list[str] = []  # results (slots text) of plays the server showed
        self.matches_done = 0
        self.stop_after_match = False
        self.done = asyncio.Event()
        self.recent: deque[str] = deque(maxlen=8)

    async def session(self) -> None:
        """Connect (again after the server went away) until the run ends."""
        while not self.run.stopping:
            self.login_began = time.monotonic()
            # A command sent before the connection went away is never answered:
            # forget it (and the prompts), or the player waits for ever. Forget the
            # board too: a turn decided on it while connecting again (a think still
            # asleep) would send a stale move, and the board that the login shows
            # would be taken for its answer (a play counted as acknowledged, never made).
            self.sent_at = self.ack_prefix = self.sent_play = None
            self.offered = self.next_game = self.roll_prompt = False
            self.board = None
            try:
                reader, self.writer = await asyncio.open_connection(
                    "127.0.0.1", self.run.port, local_addr=(self.address, 0), limit=1 << 20
                )
                await self._read(reader)
            except (ConnectionError, OSError):
                pass
            if self.run.stopping or self.done.is_set():
                return
            self.logged_in.clear()
            self.run.stats.closed += 1
            await asyncio.sleep(random.uniform(0.5, 1.5))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        buffer = b""
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                return
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            self.last_line = time.monotonic()
            tracing = self.name in self.run.trace
            for raw in lines:
                if raw[:2] in _LOBBY_LINES and not tracing:
                    continue  # who lists and logins/logouts: N² of them, nothing to act on
                line = raw.decode("utf-8", "replace").rstrip("\r").removeprefix("> ")
                self.recent.append(line)
                if tracing:
                    print(f"{time.monotonic():.3f} {self.name} < {line}", flush=True)
                await self._line(line)
            if buffer.endswith(b"login: ") and not self.logged_in.is_set():
                buffer = b""
                if self.refused:  # busy or throttled: try again a few seconds later
                    self.refused = False
                    await asyncio.sleep(random.uniform(2.0, 5.0))
                await self.send(f"login fibs_load 1008 {self.name} {PASSWORD}")

    async def send(self, text: str) -> None:
        """Send one command line."""
        if self.name in self.run.trace:
            print(f"{time.monotonic():.3f} {self.name} > {text}", flush=True)
        if self.writer is not None:
            self.writer.write(text.encode() + b"\r\n")
            await self.writer.drain()

    async def _line(self, line: str) -> None:
        stats = self.run.stats
        if self.ack_prefix is not None and line.startswith(self.ack_prefix):
            self._acknowledge()
        if line == "6" and not self.logged_in.is_set():
            self.logged_in.set()
            stats.logins.append(time.monotonic() - self.login_began)
            if self.inviter:
                self.run.spawn(self._invite())
        elif line.startswith("board:"):
            self._board(line)
        elif not self.logged_in.is_set() and "try again" in line:
            self.refused = True
            stats.retries += 1
        elif line.startswith("** ") and not line.startswith(NOTICES):
            stats.error("server ** line", f"{self.name}: {line}")
        elif " wants to play " in line and line.startswith(self.partner):
            await self.send(f"join {self.partner}")
        elif "Type 'accept' or 'reject'" in line:
            self.offered = True
        elif line.startswith("It's your turn. Please roll or double"):
            self.roll_prompt = True
        elif "Type 'join' if you want to play the next game" in line:
            self.next_game = True
        elif (
            " point match" in line
            and " win" in line
            and line.rstrip(" .").endswith(tuple("0123456789"))
        ):
            self._match_over(line)
        else:
            return
        self._maybe_act()

    def _board(self, line: str) -> None:
        try:
            self.board = decode_fibs_board(line)
        except ValueError as error:
            self.run.stats.error("bad board line", f"{self.name}: {error}: {line}")
            return
        self.board_text = line
        self.in_match = True
        if self.ack_prefix is None:
            self._acknowledge()

    def _acknowledge(self) -> None:
        """The server answered the command sent last: its latency is counted."""
        if self.sent_at is not None:
            self.run.stats.latencies.append(time.monotonic() - self.sent_at)
            self.run.stats.commands.append(self.sent_command)
            self.sent_at = None
            self.ack_prefix = None
            if self.sent_play is not None:
                self.acknowledged.append(self.sent_play)
                self.sent_play = None

    def _match_over(self, line: str) -> None:
        if self.name not in line and not line.startswith("You") and self.partner not in line:
            return
        self.in_match = False
        self.matches_done += 1
        self.run.stats.finished += self.inviter
        if self.stop_after_match:
            self.done.set()
        elif self.inviter:
            self.run.spawn(self._invite(delay=random.uniform(0.5, 2.0)))

    async def _invite(self, delay: float = 0.0) -> None:
        await asyncio.sleep(delay)
        partner = self.run.players[self.partner]
        await partner.logged_in.wait()
        if not self.in_match and not self.done.is_set():
            await self.send(f"invite {self.partner} {self.run.length}")

    def _maybe_act(self) -> None:
        if not self.acting and self.sent_at is None and self.board is not None:
            self.acting = True
            self.run.spawn(self._act())

    async def _act(self) -> None:
        try:
            await asyncio.sleep(random.uniform(*self.run.think))
            command = self._decide()
            if command is not None:
                self.sent_at = time.monotonic()
                self.sent_command = command.split()[0]
                self.run.stats.actions += 1
                await self.send(command)
        except (ConnectionError, OSError):
            self.sent_at = None
        finally:
            self.acting = False

    def _decide(self) -> str | None:
        """The command the latest state calls for (None: not our move)."""
        if self.offered:
            self.offered = False
            # FIBS answers a take or an accepted resignation with "You accept ...",
            # not a board: the next board waits for the opponent's roll.
            self.ack_prefix = "You accept"
            return "accept"
        if self.next_game:
            self.next_game = False
            return "join"
        board = self.board
        if board is None or board.turn != board.colour:
            return None
        if board.player_dice == (0, 0):
            if not self.roll_prompt:
                return None  # the server rolls for a player who may not double
            self.roll_prompt = False
            if board.player_may_double and random.random() < self.run.double_rate:
                self.ack_prefix = "You double."
                return "double"
            return "roll"
        if board.can_move == 0:
            return None
        return self._move(board)

    def _move(self, board: Any) -> str | None:
        player, opponent = fibs_board_to_sides(board.board, board.colour, board.direction)
        position = Position(
            [board.player_off, *player[:24], player[24]],
            [board.opponent_off, *opponent[:24], opponent[24]],
        )
        plays = position.legal_plays(tuple(board.player_dice))
        if not plays or plays[0].is_no_move():
            return None
        play = random.choice(plays)
        self.sent_play = play.position.slots_text
        return "move " + " ".join(f"{_point(s.source)}-{_point(s.destination)}" for s in play.steps)


_LOBBY_LINES = (b"5 ", b"7 ", b"8 ")
"""CLIP's who-info, login and logout lines: a client of a busy server reads N² of
them; the scripted players skip them unread (a real client runs on its own machine)."""


def _point(point: int) -> str:
    """A point as FIBS clients type it (``bar``, ``off``)."""
    return "bar" if point == 25 else "off" if point == 0 else str(point)


# -- a client process --------------------------------------------------------------------


class Run:
    """The players of one client process and what they share."""

    player_class: type[Player] = Player
    """What plays each name (a benchmark may count more)."""

    def __init__(self, port: int, options: dict[str, Any]) -> None:
        self.port = port
        self.think: tuple[float, float] = tuple(options["think"])  # type: ignore[assignment]
        self.length: int = options["length"]
        self.double_rate: float = options["double_rate"]
        self.trace: list[str] = (options["trace"] or "").split(",")
        self.stats = Stats()
        self.players: dict[str, Player] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.background: set[asyncio.Task[None]] = set()
        self.stopping = False

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` aside (kept referenced until it ends)."""
        task = asyncio.ensure_future(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def add(self, pairs: list[tuple[str, str, str]]) -> None:
        """Start a player for both names of each pair (with its loopback address)."""
        for first, second, address in pairs:
            for name, partner, inviter in ((first, second, True), (second, first, False)):
                player = self.player_class(name, partner, inviter, address, self)
                self.players[name] = player
                self.tasks.append(asyncio.ensure_future(player.session()))

    def report(self, stall: float) -> dict[str, Any]:
        """The statistics since the last report, and the players' state now."""
        now = time.monotonic()
        stats, self.stats = self.stats, Stats()
        players = self.players.values()
        return {
            "latencies": stats.latencies,
            "commands": stats.commands,
            "logins": stats.logins,
            "errors": dict(stats.errors),
            "samples": stats.samples,
            "closed": stats.closed,
            "retries": stats.retries,
            "finished": stats.finished,
            "actions": stats.actions,
            "logged_in": sum(p.logged_in.is_set() for p in players),
            "stalled": [
                f"{p.name}: last lines {list(p.recent)}"
                for p in players
                if p.in_match and now - p.last_line > stall
            ],
            "done": sum(p.done.is_set() for p in players),
            "waiting": [
                f"{p.name}: connected {p.writer is not None}, last lines {list(p.recent)}"
                for p in players
                if not p.logged_in.is_set()
            ][:3],
        }


async def _client_main(pipe: Pipe, port: int, options: dict[str, Any]) -> None:
    run = Run(port, options)
    loop = asyncio.get_running_loop()
    while True:
        command, argument = await loop.run_in_executor(None, pipe.recv)
        if command == "add":
            run.add(argument)
            pipe.send(None)
        elif command == "report":
            pipe.send(run.report(argument))
        elif command == "hold":
            # No cyclic collection in the clients while a level holds: a client's
            # pause (tens of milliseconds with a thousand sockets) would be counted
            # as the server's latency. The garbage is collected after the hold.
            if argument:
                gc.collect()
                gc.freeze()
                gc.disable()
            else:
                gc.enable()
                gc.unfreeze()
            pipe.send(None)
        elif command == "finish":  # play the running matches to their end, then stop
            for player in run.players.values():
                player.stop_after_match = True
                if not player.in_match:
                    player.done.set()
            pipe.send(None)
        elif command == "acknowledged":
            pipe.send({p.name: p.acknowledged for p in run.players.values()})
        elif command == "stop":
            run.stopping = True
            for task in run.tasks:
                task.cancel()
            pipe.send(None)
            return


def _client_process(pipe: Pipe, port: int, options: dict[str, Any]) -> None:
    asyncio.run(_client_main(pipe, port, options))


class Clients:
    """The client processes, driven over pipes."""

    def __init__(self, count: int, port: int, options: dict[str, Any]) -> None:
        context = mp.get_context("spawn")
        self.pipes: list[Pipe] = []
        self.processes = []
        for _ in range(count):
            mine, theirs = context.Pipe()
            process = context.Process(target=_client_process, args=(theirs, port, options))
            process.start()
            self.pipes.append(mine)
            self.processes.append(process)

    def call(self, command: str, arguments: list[Any] | None = None) -> list[Any]:
        """Send ``command`` to every process (with its own argument) and collect the answers."""
        arguments = arguments if arguments is not None else [None] * len(self.pipes)
        for pipe, argument in zip(self.pipes, arguments, strict=True):
            pipe.send((command, argument))
        return [pipe.recv() for pipe in self.pipes]

    def report(self, stall: float) -> dict[str, Any]:
        """Every process's report, merged."""
        merged: dict[str, Any] = {"errors": Counter(), "stalled": []}
        for part in self.call("report", [stall] * len(self.pipes)):
            for key, value in part.items():
                if key == "errors":
                    merged["errors"].update(value)
                elif isinstance(value, list):
                    merged.setdefault(key, []).extend(value)
                else:
                    merged[key] = merged.get(key, 0) + value
        return merged

    def cpu_seconds(self) -> float:
        """CPU seconds of the client processes."""
        return sum(_cpu_seconds(process.pid) for process in self.processes)

    def stop(self) -> None:
        """End the client processes."""
        with contextlib.suppress(Exception):
            self.call("stop")
        for process in self.processes:
            process.join(10)


# -- accounts ----------------------------------------------------------------------------


def _make_accounts(database: Path, names: list[str]) -> None:
    """Insert ``names`` as registered accounts with :data:`PASSWORD` into the server's
    SQLite database (one Argon2id hash, made with the server's own parameters)."""
    from backgammon.server.accounts.passwords import hash_password

    hashed = hash_password(PASSWORD)
    with sqlite3.connect(database, timeout=60) as connection:
        connection.executemany(
            "INSERT INTO users (name, password_hash, kind, is_admin, muted, banned, created_at)"
            " VALUES (?, ?, 'human', 0, 0, 0, ?)",
            [(name, hashed, time.time()) for name in names],
        )


def _pairs(start: int, stop: int, per_address: int) -> list[tuple[str, str, str]]:
    """Pairs ``start`` to ``stop``: two names and the loopback address they connect from."""
    pairs = []
    for index in range(start, stop):
        address = index * 2 // per_address
        pairs.append((f"fl{index}a", f"fl{index}b", f"127.1.{address // 250}.{address % 250 + 1}"))
    return pairs


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# -- the two runs ------------------------------------------------------------------------


def _start_server(folder: Path, port: int, fibs_port: int, loop: str = "auto") -> Server:
    server = Server.__new__(Server)
    server.folder, server.port = folder, port
    server.url = f"http://127.0.0.1:{port}"
    server.log = folder / "server.log"
    server.log_start = server.log.stat().st_size if server.log.exists() else 0
    command = [
        sys.executable, "-m", "backgammon", "serve", "--no-build-hypergammon",
        "--port", str(port),
        "--fibs-port", str(fibs_port),
        "--data", str(folder),
        "--bot-processes", "0",
        "--no-warm-up",
        "--no-bots",
        "--log-level", "warning",
        "--loop", loop,
    ]  # fmt: skip
    with server.log.open("ab") as log:
        server.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    server.wait_ready()
    return server


def _level_line(level: int, began: float, report: dict[str, Any], new: int, cpu: float) -> str:
    logins = report.get("logins", [])
    latencies = report.get("latencies", [])
    errors = sum(report["errors"].values())
    return (
        f"{level:6d} matches | logins {len(logins):5d}/{new:5d} "
        f"p50 {_percentile(logins, 0.5):6.2f} s max {max(logins, default=float('nan')):6.2f} s | "
        f"actions {len(latencies):6d} p50 {1000 * _percentile(latencies, 0.5):6.1f} ms "
        f"p99 {1000 * _percentile(latencies, 0.99):6.1f} ms "
        f"max {1000 * max(latencies, default=float('nan')):7.1f} ms | "
        f"errors {errors} closed {report.get('closed', 0)} "
        f"login retries {report.get('retries', 0)} "
        f"stalled {len(report['stalled'])} | server CPU {cpu:5.1f}%"
    )


def _commands_line(report: dict[str, Any]) -> str:
    """Each command's count and p99 (from the command to the line that answers it)."""
    by_command: dict[str, list[float]] = {}
    commands, latencies = report.get("commands", []), report.get("latencies", [])
    for command, latency in zip(commands, latencies, strict=True):
        by_command.setdefault(command, []).append(latency)
    parts = [
        f"{command} {len(values)} p99 {1000 * _percentile(values, 0.99):.1f} ms"
        for command, values in sorted(by_command.items())
    ]
    return "by command: " + ", ".join(parts)


def _collector_line(before: dict[str, float], after: dict[str, float], seconds: float) -> str:
    """The garbage collector's passes between two ``/metrics`` readings."""

    def grew(key: str) -> float:
        return after.get(key, 0.0) - before.get(key, 0.0)

    parts = []
    paused = 0.0
    for generation in range(3):
        name, label = "backgammon_gc_pause_seconds", f'generation="{generation}"'
        count = grew(f"{name}_count{{{label}}}")
        total = grew(f"{name}_sum{{{label}}}")
        paused += total
        mean = 1000 * total / count if count else 0.0
        parts.append(f"{count:.0f} of generation {generation} (mean {mean:.1f} ms)")
    return (
        f"garbage collector: {', '.join(parts)}; {paused:.2f} s paused "
        f"({100 * paused / seconds:.1f}% of the hold)"
    )


def ramp(options: argparse.Namespace, folder: Path) -> int:
    """The ramp of ``--levels``; returns 0 if every level held."""
    port, fibs_port = _free_port(), _free_port()
    server = _start_server(folder, port, fibs_port, options.server_loop)
    _make_accounts(folder / "backgammon.sqlite3", [])
    clients = Clients(options.client_processes, fibs_port, vars(options))
    failures = 0
    try:
        have = 0
        for level in options.levels:
            pairs = _pairs(have, level, options.per_address)
            _make_accounts(folder / "backgammon.sqlite3", [name for p in pairs for name in p[:2]])
            parts = [pairs[i :: options.client_processes] for i in range(options.client_processes)]
            began = time.monotonic()
            cpu_began = _cpu_seconds(server.pid)
            clients.call("add", parts)
            new = 2 * len(pairs)
            logins: list[float] = []
            merged: dict[str, Any] = {"errors": Counter(), "stalled": [], "latencies": []}
            while time.monotonic() - began < options.login_limit:
                time.sleep(2)
                part = clients.report(options.stall)
                logins += part.get("logins", [])
                merged["errors"].update(part["errors"])
                merged["closed"] = merged.get("closed", 0) + part.get("closed", 0)
                merged["retries"] = merged.get("retries", 0) + part.get("retries", 0)
                merged.setdefault("samples", []).extend(part.get("samples", []))
                if len(logins) >= new:
                    break
            clients.report(options.stall)  # the hold starts now
            clients.call("hold", [True] * options.client_processes)
            hold_began, metrics_began = time.monotonic(), server.metrics()
            clients_began = clients.cpu_seconds()
            time.sleep(options.hold)
            part = clients.report(options.stall)
            clients.call("hold", [False] * options.client_processes)
            metrics_ended = server.metrics()
            own_p99 = _histogram_quantile(
                metrics_began, metrics_ended, "backgammon_action_seconds", 0.99
            )
            cpu = 100 * (_cpu_seconds(server.pid) - cpu_began) / (time.monotonic() - began)
            merged["errors"].update(part["errors"])
            merged["closed"] = merged.get("closed", 0) + part.get("closed", 0)
            report = {**part, "logins": logins, "errors": merged["errors"]}
            report["closed"] = merged["closed"]
            report["retries"] = merged.get("retries", 0) + part.get("retries", 0)
            print(_level_line(level, hold_began, report, new, cpu), flush=True)
            clients_cpu = 100 * (clients.cpu_seconds() - clients_began) / options.hold
            print(
                f"    the server's own action p99 in the hold: at most {_ms(own_p99)} ms; "
                f"the client processes' CPU in the hold: {clients_cpu:.1f}%"
            )
            print("    " + _collector_line(metrics_began, metrics_ended, options.hold))
            print("    " + _commands_line(part))
            for sample in (merged.get("samples", []) + part.get("samples", []))[:6]:
                print("   ", sample)
            for waiting in part.get("waiting", [])[:3]:
                print("    not logged in:", waiting)
            for stalled in report["stalled"][:4]:
                print("    stalled:", stalled)
            p99 = _percentile(part.get("latencies", []), 0.99)
            held = (
                len(logins) >= new
                and max(logins, default=0) <= options.login_limit
                and not report["stalled"]
                and not sum(report["errors"].values())
                and not report["closed"]
                and p99 < 0.1
            )
            failures += not held
            have = level
    finally:
        clients.stop()
        server.stop()
    return 1 if failures else 0


def crash(options: argparse.Namespace, folder: Path) -> int:
    """Kill the server with matches in play; returns 0 if nothing was lost."""
    port, fibs_port = _free_port(), _free_port()
    database = folder / "backgammon.sqlite3"
    server = _start_server(folder, port, fibs_port, options.server_loop)
    pairs = _pairs(0, options.crash, options.per_address)
    _make_accounts(database, [name for p in pairs for name in p[:2]])
    clients = Clients(options.client_processes, fibs_port, vars(options))
    try:
        parts = [pairs[i :: options.client_processes] for i in range(options.client_processes)]
        clients.call("add", parts)
        time.sleep(options.hold)
        before = clients.report(options.stall)
        acknowledged = {}
        for part in clients.call("acknowledged"):
            acknowledged.update(part)
        server.process.send_signal(signal.SIGKILL)
        server.process.wait()
        killed = time.monotonic()
        print(
            f"killed with {options.crash} matches in play after {options.hold:.0f} s "
            f"({len(before['latencies'])} actions, {before['finished']} matches finished)"
        )
        server = _start_server(folder, port, fibs_port, options.server_loop)
        print(f"restarted in {time.monotonic() - killed:.1f} s")
        clients.call("finish")
        back: list[float] = []
        everyone = 2 * options.crash
        all_back = float("nan")
        while time.monotonic() - killed < options.crash_limit:
            time.sleep(1)
            report = clients.report(options.stall)
            back += report.get("logins", [])
            if len(back) >= everyone and all_back != all_back:
                all_back = time.monotonic() - killed
            if report["done"] == everyone:
                break
        print(
            f"players back: {len(back)}/{everyone}, all {all_back:.1f} s after the kill; "
            f"players whose match ended: {report['done']}/{everyone} "
            f"({time.monotonic() - killed:.0f} s after the kill)"
        )
        for stalled in report["stalled"][:4]:
            print("    stalled:", stalled)
        lost = _lost(database, acknowledged)
        print(
            f"acknowledged plays before the kill: {sum(map(len, acknowledged.values()))}, "
            f"lost: {len(lost)}"
        )
        for sample in lost[:5]:
            print("   ", sample)
        return 0 if not lost and report["done"] == everyone and len(back) >= everyone else 1
    finally:
        clients.stop()
        server.stop()


def _lost(database: Path, acknowledged: dict[str, list[str]]) -> list[str]:
    """Acknowledged plays whose result is not among the stored plays of that player."""
    stored: dict[str, set[str]] = {}
    with sqlite3.connect(database) as connection:
        names = dict(connection.execute("SELECT id, name FROM users"))
        seats = {
            match: (names.get(p0), names.get(p1))
            for match, p0, p1 in connection.execute("SELECT id, player0, player1 FROM matches")
        }
        for match, text in connection.execute("SELECT match_id, entry FROM match_actions"):
            entry = json.loads(text)
            if entry.get("kind") != "play" or "result" not in entry:
                continue
            seat = entry.get("by", entry.get("player"))
            if seat is None:
                continue
            stored.setdefault(seats[match][seat] or "", set()).add(entry["result"])
    return [
        f"{name}: {result}"
        for name, results in acknowledged.items()
        for result in results
        if result not in stored.get(name, set())
    ]


def main() -> int:
    """Run the benchmark the options ask for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[50, 200, 500, 1000])
    parser.add_argument("--hold", type=float, default=60.0)
    parser.add_argument("--crash", type=int, default=0, help="matches in play at the kill")
    parser.add_argument("--crash-limit", type=float, default=600.0)
    parser.add_argument("--think", type=float, nargs=2, default=[1.0, 3.0])
    parser.add_argument("--length", type=int, default=3)
    parser.add_argument("--double-rate", type=float, default=0.05)
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--per-address", type=int, default=10)
    parser.add_argument("--login-limit", type=float, default=120.0)
    parser.add_argument("--stall", type=float, default=20.0)
    parser.add_argument("--trace", help="print every line one player sends and receives")
    parser.add_argument("--keep", action="store_true", help="keep the server's folder")
    parser.add_argument(
        "--server-loop", default="auto", choices=("auto", "asyncio", "uvloop"),
        help="the server's event loop (serve --loop)",
    )  # fmt: skip
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="fibs-load-"))
    try:
        return crash(options, folder) if options.crash else ramp(options, folder)
    finally:
        if options.keep:
            print(f"server folder: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
