#!/usr/bin/env python3
"""Cold start: seconds from a fresh process's start to the engine's first move.

Run by hand, never by the test suite::

    .venv/bin/python benchmarks/cold_start.py [--runs 3] [--processes N] [--json OUT]

Each measurement is a new Python process, timed from just before it is started to the
moment the move is chosen (interpreter start and imports included). *Cold* is a fresh
install's first start: an empty Numba cache (``NUMBA_CACHE_DIR``, a new temporary folder
per run, so the package's own cache is neither read nor written) and no bear-off
databases (``BACKGAMMON_CACHE_DIR``, likewise). *Warm* starts again with what the cold
run left there. The scenarios, from the starting position:

* **expert**: ``Engine()``, then ``EnginePlayer.at_level(engine, "expert").choose``
  (0-ply best play);
* **worldclass**: the same at ``"worldclass"`` (2-ply best play; the process checks
  that the search ran);
* **server**: ``backgammon serve`` on a new database, as the README's first command
  starts it (it warms the engine up and starts a bot process before it reports ready),
  then a guest's 1-point match against ``bot:expert``: seconds to the bot's first play
  (the "imports" column is the server's readiness here);
* **warm_up(ply=2), worldclass**: ``backgammon.engine.warmup.warm_up(2)`` first (what
  the server does before it reports ready: every kernel a bot needs, the bear-off
  databases built, in parallel worker processes when the cache is cold and CPUs are
  free; ``--processes`` caps them, 1 compiles in order in the process), then the 2-ply
  move.

The table shows medians over ``--runs`` runs (cold and warm alternate, scenario by
scenario): seconds to the move and to the imports' end, and CPU seconds (the process
and any workers it waited for), which a busy machine inflates less than the elapsed
time. The issue's goal: a bot's first move within 10 s of a fresh install's first start.
To compare with an older checkout, point ``PYTHONPATH`` at its ``src`` (the child
processes inherit it) and leave out the ``warm_up`` scenario if it has none.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROLL = (6, 4)
"""The first roll: 2-ply search examines several of its plays from the start."""

CHILD = """
import sys, time
scenario, processes = sys.argv[1], (None if sys.argv[2] == "auto" else int(sys.argv[2]))
if scenario == "warm_up":
    from backgammon.engine.warmup import warm_up
import backgammon as bg
from backgammon.engine.evaluator import Engine
from backgammon.engine.players import EnginePlayer
imported = time.monotonic()
level = "expert" if scenario == "expert" else "worldclass"
if scenario == "warm_up":
    warm_up(2, processes=processes)
engine = Engine()
play = EnginePlayer.at_level(engine, level).choose(bg.Position.initial(), {roll})
moved = time.monotonic()
searched = len(engine.cache) > 0
if level == "worldclass" and not searched:
    sys.exit("the 2-ply move searched nothing: pick another roll")
print(imported, moved, play)
"""

SCENARIOS = {
    "expert": "expert (0-ply) first move",
    "worldclass": "worldclass (2-ply) first move",
    "warm_up": "warm_up(ply=2), worldclass move",
    "server": "backgammon serve, a bot's move",
}

SERVER_CLIENT = """
import asyncio, sys, time
from backgammon.server.client import ServerClient

async def main(url):
    client = ServerClient(url)
    await client.guest()
    match = await client.create_match(opponent="bot:expert", length=1, clock=None)
    await client.connect()
    state = (await client.subscribe(match["id"]))["state"]
    if state["waiting_for"] == 0:  # we won the opening throw: move, then wait for the bot
        await client.act(match["id"], "play", move=state["game"]["legal_plays"][0])
    await client.wait_for(
        lambda m: m["type"] == "state"
        and any(e["kind"] == "play" and e["by"] == 1 for e in m["entries"]),
        timeout=300,
    )
    print(time.monotonic())
    await client.close()

asyncio.run(main(sys.argv[1]))
"""


def measure_server(numba_cache: Path, bearoff: Path, data: Path) -> dict[str, float]:
    """Seconds from starting ``backgammon serve`` (warm-up and a bot process
    included) to its readiness and to a bot's first move in a new match."""
    import socket
    import urllib.request

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = dict(os.environ, NUMBA_CACHE_DIR=str(numba_cache), BACKGAMMON_CACHE_DIR=str(bearoff))
    url = f"http://127.0.0.1:{port}"
    cpu = _cpu_of_children()
    began = time.monotonic()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "backgammon",
            "serve",
            "--no-build-hypergammon",
            "--port",
            str(port),
            "--data",
            str(data),
            "--log-level",
            "warning",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while True:
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=1) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                if server.poll() is not None:
                    raise SystemExit("the server exited") from None
                time.sleep(0.05)
        ready = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-c", SERVER_CLIENT, url], capture_output=True, text=True, env=env
        )
        if done.returncode != 0:
            raise SystemExit(f"the client failed:\n{done.stderr}")
        moved = float(done.stdout.split()[0])
    finally:
        server.terminate()
        server.wait(30)
    return {"imports": ready - began, "move": moved - began, "cpu": _cpu_of_children() - cpu}


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(scenario: str, processes: str, numba_cache: Path, bearoff: Path) -> dict[str, float]:
    """Seconds to the imports' end and to the move, and CPU seconds (the process and
    any workers it started), of one fresh process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(numba_cache), BACKGAMMON_CACHE_DIR=str(bearoff))
    code = CHILD.replace("{roll}", repr(ROLL))
    cpu = _cpu_of_children()
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", code, scenario, processes],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{scenario} failed:\n{done.stderr}")
    imported, moved, _ = done.stdout.split(maxsplit=2)
    return {
        "imports": float(imported) - began,
        "move": float(moved) - began,
        "cpu": _cpu_of_children() - cpu,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Measure every scenario cold and warm, ``--runs`` times, and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per scenario (median)")
    parser.add_argument(
        "--processes", default="auto", help="warm_up's worker processes (default: auto)"
    )
    parser.add_argument("--scenarios", nargs="+", choices=list(SCENARIOS), default=list(SCENARIOS))
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args(argv)

    figures: dict[str, dict[str, list[float]]] = {}
    for run in range(1, args.runs + 1):
        for scenario in args.scenarios:
            with tempfile.TemporaryDirectory(prefix="cold-start-") as folder:
                numba_cache, bearoff = Path(folder) / "numba", Path(folder) / "bearoff"
                if scenario == "server":
                    cold = measure_server(numba_cache, bearoff, Path(folder) / "data")
                    warm = measure_server(numba_cache, bearoff, Path(folder) / "data")
                else:
                    cold = measure(scenario, args.processes, numba_cache, bearoff)
                    warm = measure(scenario, args.processes, numba_cache, bearoff)
            entry = figures.setdefault(scenario, {})
            for start, values in (("cold", cold), ("warm", warm)):
                for key, value in values.items():
                    entry.setdefault(f"{start} {key}", []).append(value)
            print(
                f"run {run}: {scenario}: cold {cold['move']:.2f} s ({cold['cpu']:.2f} s CPU), "
                f"warm {warm['move']:.2f} s",
                flush=True,
            )

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print()
    print(
        f"Seconds from process start to the first move, median of {args.runs} runs "
        f"(Python {platform.python_version()}, {cpus} CPUs, load average "
        f"{os.getloadavg()[0]:.1f} at the end; warm_up processes: {args.processes}; "
        f"roll {ROLL[0]}-{ROLL[1]} from the start). CPU: the process and its workers."
    )
    columns = ("cold move", "cold cpu", "cold imports", "warm move", "warm cpu", "warm imports")
    print(f"{'':34}" + "".join(f"{name:>14}" for name in columns))
    for scenario, entry in figures.items():
        medians = [statistics.median(entry[name]) for name in columns]
        print(f"{SCENARIOS[scenario]:34}" + "".join(f"{value:14.2f}" for value in medians))
    if args.json is not None:
        args.json.write_text(json.dumps({"runs": args.runs, "figures": figures}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
