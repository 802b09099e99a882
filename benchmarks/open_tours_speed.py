"""Open knight's tours from every start: the frontier sweep for paths against the search of every
path (one square of each class of starts, weighted), with the ratio; the boards where
``knights-tour count`` switches between them (``SWEEP_FROM_SQUARES``) come from these figures.

    python benchmarks/open_tours_speed.py           # boards that take seconds, 3 rounds
    python benchmarks/open_tours_speed.py --full    # and 6x7 (minutes), 1 round
    python benchmarks/open_tours_speed.py --sweep 6x8   # the sweep alone, with its peak memory
    python benchmarks/open_tours_speed.py --shards 6x8 --memory 256M   # in memory vs in shards on disk

The two methods run alternately on one core, and the medians of their CPU seconds are printed (the
machine may be loaded: wall seconds are printed too).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import knights_tour as kt
from boardpuzzles.puzzles.knights_tour.open_sweep import count_paths
from boardpuzzles.puzzles.knights_tour.rules import _start_classes

QUICK = [(5, 5), (5, 7), (5, 8), (4, 10), (3, 16), (6, 6)]
FULL = [(5, 9), (6, 7)]


def swept(rows: int, cols: int) -> int:
    return 2 * count_paths(rows, cols, Limits(jobs=1))


def searched(rows: int, cols: int) -> int:
    return sum(
        orbit * kt.count(kt.Problem(rows, cols, start=first), Limits(jobs=1))
        for first, orbit in _start_classes(rows, cols)
    )


def clocked(fn, *args):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn(*args)
    return time.perf_counter() - wall, time.process_time() - cpu, value


def compare(boards: list[tuple[int, int]], rounds: int) -> None:
    print(f"open tours, every start, directed: sweep vs search of every path, medians of {rounds} rounds")
    print(f"{'board':>6} {'tours':>16} {'sweep CPU s':>12} {'search CPU s':>13} {'search/sweep':>13}")
    for rows, cols in boards:
        sweep: list[float] = []
        search: list[float] = []
        values = set()
        for _ in range(rounds):
            _, cpu, value = clocked(swept, rows, cols)
            sweep.append(cpu)
            values.add(value)
            _, cpu, value = clocked(searched, rows, cols)
            search.append(cpu)
            values.add(value)
        assert len(values) == 1, f"{rows}x{cols}: the methods disagree: {values}"
        a, b = statistics.median(sweep), statistics.median(search)
        print(f"{rows}x{cols:<4} {values.pop():>16,} {a:>12.2f} {b:>13.2f} {b / max(a, 1e-3):>13.2f}")


def sweep_alone(board: str) -> None:
    rows, cols = (int(x) for x in board.split("x"))
    wall, cpu, value = clocked(swept, rows, cols)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"{rows}x{cols}: {value:,} directed open tours; {wall:.1f} s wall, {cpu:.1f} s CPU, {peak:.2f} GB peak")


def in_shards(board: str, memory: str, jobs: int) -> None:
    """The whole command in memory and in shards (``--memory``), each as its own process: wall and
    CPU seconds, peak memory, and the most disk its shards took (the folder is watched)."""
    print(
        f"open tours of {board}, --jobs {jobs}: the sweep in memory against the sweep in shards under --memory {memory}"
    )
    print(f"{'':>10} {'tours':>16} {'wall s':>8} {'CPU s':>8} {'peak MB':>8} {'disk MB':>8}")
    for label, extra in (("in memory", []), ("in shards", ["--memory", memory])):
        with tempfile.TemporaryDirectory() as folder:
            command = [sys.executable, "-m", "boardpuzzles", "knights-tour", "count", board, "-q", "-j", str(jobs)]
            began = time.perf_counter()
            process = subprocess.Popen(
                ["/usr/bin/time", "-f", "%U %S %M", *command, *extra],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env={**os.environ, "TMPDIR": folder},
            )
            disk = 0
            while process.poll() is None:
                disk = max(disk, sum(f.stat().st_size for f in Path(folder).rglob("*") if f.is_file()))
                time.sleep(0.5)
            out, err = process.communicate()
            wall = time.perf_counter() - began
            user, system, peak_kb = err.split()[-3:]
            cpu = float(user) + float(system)
            print(
                f"{label:>10} {int(out):>16,} {wall:>8.1f} {cpu:>8.1f} {int(peak_kb) / 1024:>8.0f} {disk / 2**20:>8.0f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="also the boards that take minutes")
    parser.add_argument("--sweep", metavar="RxC", help="time the sweep alone on this board")
    parser.add_argument("--shards", metavar="RxC", help="this board in memory and in shards on disk")
    parser.add_argument("--memory", default="256M", help="the memory bound of --shards (default 256M)")
    parser.add_argument("--jobs", type=int, default=2, help="--jobs of --shards (default 2)")
    args = parser.parse_args()
    if args.shards:
        in_shards(args.shards, args.memory, args.jobs)
        return
    if args.sweep:
        sweep_alone(args.sweep)
        return
    swept(3, 4), searched(3, 4)  # compile both before timing
    compare(QUICK, 3)
    if args.full:
        compare(FULL, 1)


if __name__ == "__main__":
    main()
