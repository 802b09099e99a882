"""Closed knight's tours: the row sweep that meets in the middle against the earlier one-word
frontier sweep, with the frontier states by row; and an estimate of 8x8 from a sample.

    python benchmarks/closed_tours_speed.py                  # small boards, both counters, 3 rounds
    python benchmarks/closed_tours_speed.py --full           # and 7x8 (minutes)
    python benchmarks/closed_tours_speed.py --estimate 20000 # 8x8: sweep the halves, time a sample of the join

The two counters run alternately and the medians are compared (the machine may be loaded: the
CPU seconds of the process are printed too). The estimate sweeps the top half of 8x8 (rows 0-2,
about a minute of CPU), builds the bottom table, times ``join_tops`` on a random sample of top
states and scales it to the whole layer: the CPU time of the join, which ``--jobs`` divides.
"""

from __future__ import annotations

import argparse
import resource
import statistics
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


def estimate(sample: int) -> None:
    from boardpuzzles._kernels import closed_tours as ct

    print("8x8: the halves (rows 0-2 swept, mirror images merged), then a sample of the join")
    wall, cpu, (top, bottom, report) = clocked(kt._frontier_layers, 8, 8, 3, 3, Limits())
    for r in report:
        print(
            f"  row {r.row}: {r.states:>11,} states at its end, peak {r.peak:>11,}, "
            f"table {r.table_bytes / 2**20:8.1f} MiB, {r.seconds:6.1f} s"
        )
    print(f"  sweep: {wall:.0f} s wall, {cpu:.0f} s CPU")
    width, slots = 8, 17
    offsets, masks, _ = ct.code_layout(slots)
    powers = np.array([3**z for z in range(16)], np.int64)
    edges = np.array([(c, width + c + d) for c in range(width) for d in (-2, 2) if 0 <= c + d < width], np.int64)
    wall, cpu = time.perf_counter(), time.process_time()
    keys, partners, weights = ct.bottom_table(bottom, width, slots, offsets, masks, powers)
    order = np.argsort(keys, kind="stable")
    starts = ct.class_starts(keys[order], 3**16)
    partners, weights = partners[order], weights[order]
    print(
        f"  bottom table: {len(keys):,} states (mirror images spelt out), "
        f"{time.perf_counter() - wall:.0f} s wall, {time.process_time() - cpu:.0f} s CPU"
    )
    picked = top[np.sort(np.random.default_rng(1).choice(len(top), sample, replace=False))]
    flag = np.zeros(1, np.int64)
    ct.join_tops(picked, 0, 2, width, slots, offsets, masks, powers, edges, starts, partners, weights, flag)
    wall, cpu = time.perf_counter(), time.process_time()
    ct.join_tops(picked, 0, len(picked), width, slots, offsets, masks, powers, edges, starts, partners, weights, flag)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    hours = cpu / sample * len(top) / 3600
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(
        f"  join of {sample:,} of {len(top):,} top states: {wall:.1f} s wall, {cpu:.1f} s CPU "
        f"-> the whole join: {hours:.2f} core-hours ({hours / 2 * 60:.0f} min on 2 idle cores); "
        f"peak memory so far {peak:.1f} GiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--full", action="store_true", help="also 7x8 (minutes)")
    parser.add_argument("--estimate", type=int, metavar="SAMPLE", help="estimate 8x8 from SAMPLE top states")
    args = parser.parse_args()
    if args.estimate:
        estimate(args.estimate)
        return
    boards = [(5, 8), (6, 6), (6, 7), (6, 8)] + ([(7, 8)] if args.full else [])
    compare(boards, args.rounds)


if __name__ == "__main__":
    main()
