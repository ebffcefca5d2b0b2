"""The worst uploads we know for each match-file reader: time and memory per byte.

    .venv/bin/python benchmarks/upload_worst_inputs.py [--sizes 65536,262144,1000000]
        [--timeout 60] [--only mat]

Feeds every attack of ``tests/formats/upload_attacks.py`` (long lines, deep nesting,
many values, decompression bombs, ...) at each size to the server's upload check
(:func:`backgammon.server.tools.engine_tools.check_upload`: the file read and every action
replayed through the rules, what an anonymous ``POST /api/analysis`` costs before its
quota is taken), each in a fresh process, and prints the CPU seconds, the peak of
Python's allocations (``tracemalloc``) and the answer (the number of actions, or the
first words of the refusal). The growth column is the time at the largest size over
the time at the smallest, divided by the ratio of the sizes: about 1 for a linear
reader, the ratio itself for a quadratic one. A case over ``--timeout`` is reported as
such.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import sys
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.formats.upload_attacks import ATTACKS


def measure(name: str, size: int) -> tuple[int, float, int, str]:
    """``(bytes, CPU seconds, peak bytes, answer)`` of one attack at one size."""
    from backgammon.server.tools.engine_tools import check_upload

    for warm_up in ATTACKS.values():  # import every reader before measuring
        with contextlib.suppress(ValueError):
            check_upload(*warm_up(64))
    data, file_name = ATTACKS[name](size)
    tracemalloc.start()
    start = time.process_time()
    try:
        answer = f"{check_upload(data, file_name)} actions"
    except ValueError as error:
        answer = "refused: " + str(error)[:60]
    seconds = time.process_time() - start
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return len(data), seconds, peak, answer


def _run(name: str, size: int, timeout: float) -> tuple[int, float, int, str] | None:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        future = pool.submit(measure, name, size)
        try:
            return future.result(timeout)
        except FutureTimeout:
            for process in list((pool._processes or {}).values()):
                process.kill()
            return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="65536,262144,1000000")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--only", default="", help="only attacks whose name contains this")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print(f"{'attack':44} {'bytes':>9} {'CPU s':>7} {'peak MB':>8} {'growth':>6}  answer")
    for name in ATTACKS:
        if args.only not in name:
            continue
        times: list[tuple[int, float]] = []
        for size in sizes:
            found = _run(name, size, args.timeout)
            if found is None:
                print(f"{name:44} {size:>9} {'>' + str(args.timeout):>7}")
                break
            length, seconds, peak, answer = found
            times.append((length, seconds))
            growth = ""
            if len(times) > 1 and times[0][1] > 0.001:
                growth = f"{(seconds / times[0][1]) / (length / times[0][0]):.1f}"
            print(f"{name:44} {length:>9} {seconds:>7.2f} {peak / 1e6:>8.1f} {growth:>6}  {answer}")


if __name__ == "__main__":
    main()
