"""What one password check costs: argon2-cffi's default Argon2id parameters against
the server's (``backgammon.server.accounts.passwords``), in wall time and CPU time per verify.

    .venv/bin/python benchmarks/password_hashing.py --repeat 50

Verifies the same password ``--repeat`` times with each set of parameters, one at a
time in this thread, and prints the median and 90th percentile of each (CPU time
counts every thread of the process, so lanes run in parallel show up there).
"""

from __future__ import annotations

import argparse
import statistics
import time

from argon2 import PasswordHasher

from backgammon.server.accounts.passwords import (
    ARGON2_MEMORY_KIB,
    ARGON2_PARALLELISM,
    ARGON2_TIME_COST,
)

PASSWORD = "correct horse battery staple"


def _measure(hasher: PasswordHasher, repeat: int) -> tuple[list[float], list[float]]:
    hashed = hasher.hash(PASSWORD)
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        hasher.verify(hashed, PASSWORD)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    default = PasswordHasher()
    ours = PasswordHasher(
        time_cost=ARGON2_TIME_COST, memory_cost=ARGON2_MEMORY_KIB, parallelism=ARGON2_PARALLELISM
    )
    for label, hasher in (("argon2-cffi default", default), ("server", ours)):
        walls, cpus = _measure(hasher, args.repeat)
        deciles = statistics.quantiles(walls, n=10)
        print(
            f"{label:20} m={hasher.memory_cost} KiB t={hasher.time_cost} p={hasher.parallelism}: "
            f"wall median {statistics.median(walls) * 1000:.1f} ms, "
            f"p90 {deciles[-1] * 1000:.1f} ms; "
            f"CPU median {statistics.median(cpus) * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
