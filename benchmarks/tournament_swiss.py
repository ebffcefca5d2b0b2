"""A big Swiss of bots on one server, with the lobby and the standings served meanwhile.

    .venv/bin/python benchmarks/tournament_swiss.py [--players 256] [--rounds 7]
        [--people 4] [--level beginner] [--bot-processes 1] [--poll 0.2] [--json OUT]

Starts one ``backgammon serve --no-warm-up`` (SQLite in a temporary folder, loopback,
a free port; ``--database URL`` for PostgreSQL), registers an organiser who creates a
Swiss of ``--players`` with ``--rounds`` rounds of 1-point matches (Crawford, no
Jacoby, the default ABT clock) and enters ``--players - --people`` bots of ``--level``
(0-ply, the fastest levels). ``--people`` players take part over their own
WebSockets (``ServerClient``), as a web or FIBS client would: told of each pairing,
they subscribe to the match and answer at once (roll, take, the first legal play).

While the tournament runs, three pollers ask every ``--poll`` seconds, each waiting
for its answer before the next: ``GET /api/lobby`` (the lobby), ``GET
/api/tournaments?status=running`` (the tournaments list) and ``GET
/api/tournaments/ID`` (the tournament: standings and every round). Reported:

- each poller's answer times (count, p50, p90, p99, max in ms; nearest rank);
- the **game actions** of the people: the time from sending an action over the
  WebSocket to its ``ack`` (the server has committed it by then), in ms;
- the wall time of each round (from its pairings to the last result) and in all;
- checks: every round complete, no rematch, the points adding up to one per match
  (the bots' matches may also end on the clock, which the output counts).

Everything (server, bots' worker processes, clients) shares this machine's CPUs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from backgammon.server.client import ServerClient

PASSWORD = "a long enough password"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def _summary(seconds: list[float]) -> dict[str, Any]:
    if not seconds:
        return {"count": 0}
    ms = [1000 * value for value in seconds]
    return {
        "count": len(ms),
        "p50": round(_percentile(ms, 0.5), 1),
        "p90": round(_percentile(ms, 0.9), 1),
        "p99": round(_percentile(ms, 0.99), 1),
        "max": round(max(ms), 1),
    }


def _start_server(folder: Path, args: argparse.Namespace) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    command = [
        sys.executable, "-m", "backgammon", "serve", "--no-build-hypergammon", "--no-warm-up",
        "--port", str(port), "--data", str(folder), "--rate-limit", "100000",
        "--bot-processes", str(args.bot_processes), "--log-level", "warning",
    ]  # fmt: skip
    if args.database:
        command += ["--database", args.database]
    log = (folder / "server.log").open("ab")
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError((folder / "server.log").read_text()[-3000:])
        try:
            if httpx.get(url + "/healthz", timeout=1.0).status_code == 200:
                return server, url
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError("the server did not get ready")


async def _poll(
    url: str, token: str, path: str, every: float, times: list[float], stop: asyncio.Event
) -> None:
    headers = {"authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=url, timeout=60, headers=headers) as http:
        while not stop.is_set():
            began = time.perf_counter()
            answer = await http.get(path)
            times.append(time.perf_counter() - began)
            answer.raise_for_status()
            await asyncio.sleep(every)


async def _person(client: ServerClient, name: str, times: list[float]) -> None:
    """Play every pairing ``name`` is told of, answering at once; until cancelled."""
    seen = 0
    while True:
        told = await client.wait_for(
            lambda m: m["type"] == "tournament_pairing", timeout=3600, since=seen
        )
        seen = client.messages.index(told) + 1
        match_id = told["match"]
        snapshot = await client.subscribe(match_id)
        seat = snapshot["state"]["players"].index(name)
        last = -1
        while True:
            state = client.states[match_id]
            if state["result"] is not None:
                break
            if state["waiting_for"] == seat and state["seq"] != last:
                last = state["seq"]
                game = state["game"]
                pending = game["pending"]
                fields: dict[str, Any]
                if pending is not None and pending["kind"] == "double":
                    kind, fields = "take", {}
                elif game["dice"] is None:
                    kind, fields = "roll", {}
                else:
                    kind, fields = "play", {"move": game["legal_plays"][0]}
                began = time.perf_counter()
                answer = await client.act(match_id, kind, **fields)
                times.append(time.perf_counter() - began)
                if answer["type"] != "ack":
                    raise RuntimeError(f"{name}: {answer}")
                continue
            await client.wait_for(
                _newer_state(match_id, state["seq"]),
                timeout=600,
                since=max(0, len(client.messages) - 1),
            )


def _newer_state(match_id: str, seq: int) -> Callable[[dict[str, Any]], bool]:
    def newer(message: dict[str, Any]) -> bool:
        return bool(
            message["type"] == "state"
            and message["match"] == match_id
            and message["state"]["seq"] > seq
        )

    return newer


def _checks(view: dict[str, Any], rounds: int) -> dict[str, Any]:
    pairings = [p for r in view["rounds"] for p in r["pairings"]]
    met = [frozenset(p["players"]) for p in pairings if p["players"][1] is not None]
    return {
        "rounds_played": len(view["rounds"]),
        "rounds_wanted": rounds,
        "every_pairing_won": all(p["winner"] in p["players"] for p in pairings),
        "rematches": len(met) - len(set(met)),
        "points": sum(s["points"] for s in view["standings"]),
        "matches_and_byes": len(pairings),
    }


async def _run(url: str, args: argparse.Namespace) -> dict[str, Any]:
    organiser = ServerClient(url, timeout=120)
    await organiser.register("organiser", PASSWORD)
    body = {
        "name": "Big Swiss",
        "format": "swiss",
        "rounds": args.rounds,
        "max_players": args.players,
        "early_length": 1,
        "semi_final_length": 1,
        "final_length": 1,
    }
    tournament_id = (await organiser.request("POST", "/api/tournaments", body))["id"]
    path = f"/api/tournaments/{tournament_id}"
    began = time.perf_counter()
    for _ in range(args.players - args.people):
        await organiser.request("POST", f"{path}/bots", {"level": args.level})
    people = []
    for number in range(args.people):
        client = ServerClient(url, timeout=120)
        await client.register(f"person_{number}", PASSWORD)
        await client.connect()
        await client.request("POST", f"{path}/register")
        people.append(client)
    entering = time.perf_counter() - began

    polls: dict[str, list[float]] = {"lobby": [], "tournaments": [], "tournament": []}
    actions: list[float] = []
    stop = asyncio.Event()
    token = str(organiser.token)
    running = "/api/tournaments?status=running"
    pollers = [
        asyncio.create_task(_poll(url, token, "/api/lobby", args.poll, polls["lobby"], stop)),
        asyncio.create_task(_poll(url, token, running, args.poll, polls["tournaments"], stop)),
        asyncio.create_task(_poll(url, token, path, args.poll, polls["tournament"], stop)),
    ]
    players = [
        asyncio.create_task(_person(client, f"person_{n}", actions))
        for n, client in enumerate(people)
    ]
    started = time.perf_counter()
    await organiser.request("POST", f"{path}/start")
    round_started = {1: 0.0}
    round_ended: dict[int, float] = {}
    while True:
        view = await organiser.request("GET", path)
        now = time.perf_counter() - started
        if view["round_in_play"] is not None and view["round_in_play"] not in round_started:
            round_started[view["round_in_play"]] = now
            round_ended[view["round_in_play"] - 1] = now
        if view["status"] == "finished":
            round_ended[len(view["rounds"])] = now
            break
        for task in players + pollers:
            if task.done() and task.exception() is not None:
                raise RuntimeError("a client failed") from task.exception()
        if now > args.timeout:
            raise TimeoutError(f"not over after {args.timeout} s: round {view['round_in_play']}")
        await asyncio.sleep(0.5)
    total = time.perf_counter() - started
    stop.set()
    await asyncio.gather(*pollers)
    for task in players:
        task.cancel()
    timeouts = 0
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        for pairing in (p for r in view["rounds"] for p in r["pairings"]):
            if pairing["match"] is not None:
                state = (await http.get(f"/api/matches/{pairing['match']}")).json()
                timeouts += state["result"]["reason"] == "timeout"
    for client in [organiser, *people]:
        await client.close()
    return {
        "players": args.players,
        "people": args.people,
        "rounds": args.rounds,
        "level": args.level,
        "entering_seconds": round(entering, 1),
        "total_seconds": round(total, 1),
        "round_seconds": {
            number: round(round_ended[number] - round_started[number], 1)
            for number in sorted(round_ended)
            if number in round_started
        },
        "matches_ended_on_the_clock": timeouts,
        "http_ms": {name: _summary(times) for name, times in polls.items()},
        "action_ms": _summary(actions),
        "checks": _checks(view, args.rounds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--people", type=int, default=4)
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--bot-processes", type=int, default=1)
    parser.add_argument("--poll", type=float, default=0.2, help="seconds between polls")
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument("--database", default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server, url = _start_server(Path(folder), args)
        try:
            figures = asyncio.run(_run(url, args))
        finally:
            server.terminate()
            server.wait(30)
    print(json.dumps(figures, indent=2))
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
