"""Knight's tours: how fast we count, sweep and find, against quoted figures of a C program.

The C figures (a tight bitmask backtracker with the same pruning: 6x6 from a corner 0.3 s, all
36 starts 3.9 s, one core of this kind of machine) are quoted, not measured here.
"Raw" runs our kernel on every start with no symmetry, so it does the C program's work; the
ratio > 1 means we are faster. The seed's own algorithm (plain backtracking, no pruning) is
measured in Python on 5x5, and Graphillion (a ZDD library a Python user might pick instead) is
measured where it is installed (`pip install graphillion`).

    python benchmarks/knights_tour_speed.py          # about half a minute
    python benchmarks/knights_tour_speed.py --full   # adds 6x8 closed tours and Graphillion on 6x6
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from _timing import timed

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/reference.py: the seed's algorithm

from boardpuzzles._kernels.knights_tour import path_search  # noqa: E402
from boardpuzzles.limits import Limits  # noqa: E402
from boardpuzzles.parallel import default_jobs  # noqa: E402
from boardpuzzles.puzzles import knights_tour as kt  # noqa: E402

C_CORNER_6, C_ALL_6 = 0.3, 3.9


def raw(n: int, starts: range) -> int:
    reach = kt.reach_masks(n, n)
    nothing = np.empty((0, n * n), np.int32)
    flag = np.zeros(1, np.int64)
    return sum(int(path_search(reach, np.array([s], np.int32), -1, nothing, -1, flag)) for s in starts)


def graphillion_corner(n: int) -> int | None:
    try:
        from graphillion import GraphSet
    except ImportError:
        return None
    moves, n_moves = kt.knight_moves(n, n)
    GraphSet.set_universe([(int(v), int(x)) for v in range(n * n) for x in moves[v, : n_moves[v]] if v < x])
    return sum(len(GraphSet.paths(0, end, is_hamilton=True)) for end in range(1, n * n))


def main() -> None:
    full = "--full" in sys.argv
    jobs = default_jobs()
    raw(5, range(1))  # compile outside the timings
    kt.count_closed(5, 6)
    kt.find(8, 8, closed=True)

    print("open tours, counted by the exact-pruning bitboard search")
    t, value = timed(lambda: raw(6, range(1)), 3)
    print(f"  6x6 from a corner, raw:          {value:>10,}  {t:7.3f} s   vs C {C_CORNER_6} s: x{C_CORNER_6 / t:.2f}")
    t, value = timed(lambda: kt.count(kt.Problem(6, 6, start=0)), 3)
    print(f"  6x6 from a corner, count():      {value:>10,}  {t:7.3f} s   (mirror halves the work)")
    t, value = timed(lambda: raw(6, range(36)), 1)
    print(f"  6x6 all 36 starts, raw, 1 core:  {value:>10,}  {t:7.3f} s   vs C {C_ALL_6} s: x{C_ALL_6 / t:.2f}")
    t1, value = timed(lambda: kt.count(kt.Problem(6, 6), Limits(jobs=1)), 3)
    print(f"  6x6 all starts, count(), 1 job:  {value:>10,}  {t1:7.3f} s   (6 classes of starts)")
    tj, value = timed(lambda: kt.count(kt.Problem(6, 6), Limits(jobs=jobs)), 3)
    print(f"  6x6 all starts, {jobs} jobs:          {value:>10,}  {tj:7.3f} s   x{t1 / tj:.2f} over 1 job")

    from tests.reference import knight_tours

    t_seed, seed_value = timed(lambda: len(knight_tours(5, 5, 0)), 1)
    t_ours, value = timed(lambda: kt.count(kt.Problem(5, 5, start=0)), 5)
    print(
        f"  5x5 from a corner: seed algorithm in Python {t_seed:.2f} s, ours {t_ours * 1000:.1f} ms: "
        f"x{t_seed / t_ours:,.0f}" + ("" if value == seed_value else "  MISMATCH")
    )
    t_g, g_value = timed(lambda: graphillion_corner(5), 1)
    if g_value is None:
        print("  Graphillion: not installed (pip install graphillion to compare)")
    else:
        print(
            f"  5x5 from a corner: Graphillion {t_g:.2f} s, ours {t_ours * 1000:.1f} ms: x{t_g / t_ours:,.0f}"
            + ("" if g_value == value else "  MISMATCH")
        )
        if full:
            t_g, g_value = timed(lambda: graphillion_corner(6), 1)
            t_ours, value = timed(lambda: kt.count(kt.Problem(6, 6, start=0)), 3)
            print(f"  6x6 from a corner: Graphillion {t_g:.1f} s, ours {t_ours:.2f} s: x{t_g / t_ours:,.0f}")

    print("closed tours, counted by the frontier dynamic program (goal: 6x6 under 1 s)")
    boards = [(6, 6, 9862), (5, 8, 44202)] + ([(6, 8, 55488142)] if full else [])
    for rows, cols, published in boards:
        kt._SWEEPS.clear()  # the sweep, not its cached answer
        t, value = timed(lambda: kt.count_closed(rows, cols), 1)
        print(f"  {rows}x{cols}: {value:>12,} cycles  {t:7.3f} s" + ("" if value == published else "  MISMATCH"))

    print("find one tour (Warnsdorff + Posa rotations; goal: 1000x1000 in seconds)")
    for n, closed in ((100, False), (100, True), (1000, False), (1000, True)):
        started = time.perf_counter()
        result = kt.find(n, n, closed=closed)
        seconds = time.perf_counter() - started
        ok = result.tour is not None and len(set(result.tour)) == n * n
        print(
            f"  {n}x{n} {'closed' if closed else 'open  '}: {seconds:6.2f} s  "
            f"{'found' if ok else 'NOT FOUND'} ({result.method})"
        )


if __name__ == "__main__":
    main()
