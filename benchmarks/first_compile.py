"""What the first run of a command costs in compiling: each command with an empty numba cache of
its own, then again with that cache filled; the difference of their CPU times is the compiling
(what it takes on a free core; wall times grow with the machine's load). docs/getting-started.md
quotes these figures.

    python benchmarks/first_compile.py [--warmup]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

#: The commands of the table in docs/getting-started.md (the Goishi puzzle as its URL, so that no
#: file is needed).
COMMANDS = [
    ["queens", "count", "8"],
    ["hyperqueen", "count", "7"],
    ["goishi", "solve", "goishi/6/7/vsten1tvo"],
    ["dominoes", "count", "8"],
    ["kings", "count", "8"],
    ["baikago", "solve", "3"],
    ["knights-tour", "find", "8", "--closed"],
    ["knights-tour", "solve", "8", "--limit", "1"],
    ["queens", "count", "12"],
    ["hyperqueen", "count", "13"],
    ["less-than-three", "count"],
]


def boardpuzzles() -> list[str]:
    installed = shutil.which("boardpuzzles", path=os.path.dirname(sys.executable))
    return [installed] if installed else [sys.executable, "-m", "boardpuzzles"]


def timed(arguments: list[str], cache: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``boardpuzzles ARGUMENTS`` with ``cache``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [*boardpuzzles(), *arguments],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "NUMBA_CACHE_DIR": cache},
        check=False,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"boardpuzzles {' '.join(arguments)} exited {done.returncode}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warmup", action="store_true", help="also time `boardpuzzles warmup` from an empty cache")
    options = parser.parse_args()
    print(f"{'command':<40} {'first CPU':>10} {'cached CPU':>11} {'compiling':>10} {'first wall':>11}")
    for arguments in COMMANDS:
        with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
            first_cpu, first_wall = timed(arguments, cache)
            cached_cpu, _ = timed(arguments, cache)
        compiling = max(0.0, first_cpu - cached_cpu)
        print(
            f"{' '.join(arguments):<40} {first_cpu:>9.1f}s {cached_cpu:>10.1f}s {compiling:>9.1f}s {first_wall:>10.1f}s"
        )
    if options.warmup:
        with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
            cpu, wall = timed(["warmup"], cache)
        print(f"{'warmup (every kernel)':<40} {cpu:>9.1f}s {'':>11} {cpu:>9.1f}s {wall:>10.1f}s")


if __name__ == "__main__":
    main()
