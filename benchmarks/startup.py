"""How long the command line takes to answer at all: whole processes, warm cache, medians.

Each command runs as its own process (as a user types it), several times after one run that is
not counted (it fills the kernel cache, the bytecode cache and the operating system's file
cache); the table shows the median wall time of each, beside `python -c pass` (the interpreter's
own start-up) and the goal: `--help` at most 0.15 s, a small solve at most 0.4 s. The processor
time of each run (user and system, median) says how much work starting takes even on a busy
machine, where the wall time says little. Python's bytecode cache is on for these runs, as it is
for an installed package, even where PYTHONDONTWRITEBYTECODE turns it off.

    python benchmarks/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

#: (what, arguments of `boardpuzzles` or None for `python -c pass`, goal in seconds or None)
CASES: list[tuple[str, list[str] | None, float | None]] = [
    ("python -c pass", None, None),
    ("boardpuzzles --help", ["--help"], 0.15),
    ("boardpuzzles queens --help", ["queens", "--help"], 0.15),
    ("queens count 6", ["queens", "count", "6"], 0.4),
    ("hyperqueen solve 7 --limit 1", ["hyperqueen", "solve", "7", "--limit", "1"], 0.4),
    ("goishi solve goishi/6/7/vsten1tvo", ["goishi", "solve", "goishi/6/7/vsten1tvo"], 0.4),
]


def command(arguments: list[str] | None) -> list[str]:
    if arguments is None:
        return [sys.executable, "-c", "pass"]
    installed = shutil.which("boardpuzzles", path=os.path.dirname(sys.executable))
    if installed:
        return [installed, *arguments]
    return [sys.executable, "-m", "boardpuzzles", *arguments]


#: The environment of the runs: a user's, with the bytecode cache on.
ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def seconds(argv: list[str]) -> tuple[float, float]:
    """The wall time of one run, and its processor time (user and system): on a busy machine the
    second still says how much work starting took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENVIRONMENT, check=False)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="counted runs of each command (default 7)")
    options = parser.parse_args()
    print(f"{'command':<36} {'median':>8} {'min':>8} {'cpu':>8} {'goal':>8}")
    for name, arguments, goal in CASES:
        argv = command(arguments)
        seconds(argv)  # not counted: fills the caches
        runs = [seconds(argv) for _ in range(options.runs)]
        times = [wall for wall, _ in runs]
        median = statistics.median(times)
        cpu = statistics.median(processor for _, processor in runs)
        verdict = "" if goal is None else ("  met" if median <= goal else "  NOT met")
        goal_text = "" if goal is None else f"{goal:.2f} s"
        print(f"{name:<36} {median:>6.3f} s {min(times):>6.3f} s {cpu:>6.3f} s {goal_text:>8}{verdict}", flush=True)


if __name__ == "__main__":
    main()
