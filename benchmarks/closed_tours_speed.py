"""Closed knight's tours: the row sweep that meets in the middle against the earlier one-word
frontier sweep, with the frontier states by row; and the slow path of 6 x n boards.

    python benchmarks/closed_tours_speed.py                  # small boards, both counters, 3 rounds
    python benchmarks/closed_tours_speed.py --full           # and 7x8 (minutes)
    python benchmarks/closed_tours_speed.py --six            # `knights-tour count 6x12 --closed --undirected`

The two counters run alternately and the medians are compared (the machine may be loaded: the
CPU seconds of the process are printed too). ``--six`` runs the command as a whole process (the
start-up and the loading of the compiled kernels included) and compares its median wall time
with the goal of 5 s on two cores; ``knights-tour estimate 8 --closed`` estimates 8x8.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import knights_tour as kt

PUBLISHED = {(5, 8): 44_202, (6, 6): 9_862, (6, 7): 1_067_638, (6, 8): 55_488_142, (7, 8): 34_524_432_316}


def one_word_sweep(rows: int, cols: int) -> int:
    from boardpuzzles._kernels.knights_tour import count_cycles

    narrow, wide = sorted((rows, cols))
    moves, n_moves = kt.knight_moves(wide, narrow)
    start = np.array([[0, 1]], np.int64)
    _, total, status = count_cycles(moves, n_moves, narrow, 10**9, start, 0, rows * cols, 0, np.zeros(1, np.int64))
    assert status == 0
    return int(total)


def halves(rows: int, cols: int) -> int:
    kt._SWEEPS.clear()
    return kt.count_closed(rows, cols, Limits(jobs=1))


def clocked(fn, *args):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn(*args)
    return time.perf_counter() - wall, time.process_time() - cpu, value


def compare(boards: list[tuple[int, int]], rounds: int) -> None:
    print(f"closed tours (cycles): one-word sweep vs halves, medians of {rounds} alternating rounds")
    for rows, cols in boards:
        old: list[tuple[float, float]] = []
        new: list[tuple[float, float]] = []
        values = set()
        for _ in range(rounds):
            w, c, v = clocked(one_word_sweep, rows, cols)
            old.append((w, c))
            values.add(v)
            w, c, v = clocked(halves, rows, cols)
            new.append((w, c))
            values.add(v)
        ok = values == {PUBLISHED[rows, cols]}
        mo, mn = statistics.median(w for w, _ in old), statistics.median(w for w, _ in new)
        co, cn = statistics.median(c for _, c in old), statistics.median(c for _, c in new)
        print(
            f"  {rows}x{cols}: {PUBLISHED[rows, cols]:>15,} {'ok' if ok else 'MISMATCH ' + str(values)}  "
            f"one-word {mo:7.2f} s ({co:6.2f} CPU)  halves {mn:7.2f} s ({cn:6.2f} CPU)  x{mo / mn:.1f} wall"
        )
        for r in kt.closed_sweep_report(rows, cols):
            print(
                f"      row {r.row}: {r.states:>11,} states at its end, peak {r.peak:>11,}, "
                f"table {r.table_bytes / 2**20:8.1f} MiB, {r.seconds:6.2f} s"
            )


#: The slow path of 6 x n boards: goal in seconds of wall time for the whole command, on two cores.
SIX_BY_TWELVE = ["knights-tour", "count", "6x12", "--closed", "--undirected", "-q"]
SIX_GOAL_SECONDS = 5.0


def six_by_twelve(rounds: int) -> None:
    """The whole command, ``rounds`` times: its median wall and CPU seconds against the goal."""
    command = [sys.executable, "-m", "boardpuzzles", *SIX_BY_TWELVE]
    subprocess.run(command, check=True, capture_output=True)  # compiles, once
    walls: list[float] = []
    cpus: list[float] = []
    for _ in range(rounds):
        began = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%U %S", *command], check=True, capture_output=True, text=True)
        walls.append(time.perf_counter() - began)
        user, system = done.stderr.split()[-2:]
        cpus.append(float(user) + float(system))
        assert done.stdout.strip() == "964730606632516", done.stdout  # OEIS A175881
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    verdict = "met" if wall <= SIX_GOAL_SECONDS else "NOT met"
    print(
        f"boardpuzzles {' '.join(SIX_BY_TWELVE[:-1])}: median {wall:.2f} s wall, {cpu:.2f} s CPU "
        f"({rounds} runs); goal {SIX_GOAL_SECONDS:g} s: {verdict}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--full", action="store_true", help="also 7x8 (minutes)")
    parser.add_argument("--six", action="store_true", help="only the slow path of 6x12")
    args = parser.parse_args()
    if args.six:
        six_by_twelve(args.rounds)
        return
    boards = [(5, 8), (6, 6), (6, 7), (6, 8)] + ([(7, 8)] if args.full else [])
    compare(boards, args.rounds)


if __name__ == "__main__":
    main()
