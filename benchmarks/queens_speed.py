"""Queens on the torus and the classic board: figures and ratios (not part of the test run).

    python benchmarks/queens_speed.py          # about a minute
    python benchmarks/queens_speed.py --full   # adds hyperqueen 23 (tens of seconds more)

Prints, for each count: the median wall time of repeated runs in this process (kernels already
compiled), the ratio to the seed article's algorithm ported plainly (measured here, where it
finishes), and the ratio to the times quoted for a single-threaded C bitboard counter on this
kind of machine (the speed to beat; quoted, not measured here: >1 means we are faster).
"""

from __future__ import annotations

import argparse

from _timing import timed

from boardpuzzles.limits import Limits
from boardpuzzles.parallel import default_jobs
from boardpuzzles.puzzles import queens
from boardpuzzles.puzzles.queens import Problem

# Seconds for a tight single-threaded C counter on the same kind of machine (quoted, not measured).
C_QUOTED = {("hyperqueen", 17): 0.01, ("hyperqueen", 19): 0.1, ("hyperqueen", 23): 60.0, ("queens", 15): 0.75}


def seed_algorithm_count(n: int, torus: bool) -> int:
    """The seed article's solver, ported plainly: row by row, each cell tested against every
    queen placed so far (no bitmasks, no symmetry)."""
    placed: list[int] = []

    def free(row: int, col: int) -> bool:
        for r, c in enumerate(placed):
            dr, dc = row - r, col - c
            if torus:
                if dc % n == 0 or (dc - dr) % n == 0 or (dc + dr) % n == 0:
                    return False
            elif dc == 0 or abs(dc) == dr:
                return False
        return True

    def extend(row: int) -> int:
        if row == n:
            return 1
        total = 0
        for col in range(n):
            if free(row, col):
                placed.append(col)
                total += extend(row + 1)
                placed.pop()
        return total

    return extend(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="also time hyperqueen 23")
    args = parser.parse_args()
    jobs = default_jobs()
    queens.count(Problem(7, True)), queens.count(Problem(8)), queens.count(Problem(7, True, "torus"))  # compile first

    print(f"{'count':<26}{'jobs':>5}{'answer':>14}{'seconds':>10}{'vs seed alg.':>14}{'vs quoted C':>13}")
    rows = [
        ("hyperqueen", 13, 1, 9),
        ("hyperqueen", 17, 1, 5),
        ("hyperqueen", 19, 1, 5),
        ("hyperqueen", 19, jobs, 5),
        ("queens", 12, 1, 5),
        ("queens", 15, 1, 3),
        ("queens", 15, jobs, 3),
        ("queens", 16, jobs, 1),
    ]
    if args.full:
        rows += [("hyperqueen", 23, jobs, 1)]
    seed_times = {}
    for puzzle, n, j, repeat in rows:
        problem = Problem(n, torus=puzzle == "hyperqueen")
        seconds, value = timed(lambda: queens.count(problem, Limits(jobs=j)), repeat)
        vs_seed = ""
        if n <= 13 and (puzzle, n) not in seed_times:
            seed_times[(puzzle, n)], seed_value = timed(lambda: seed_algorithm_count(n, puzzle == "hyperqueen"), 1)
            assert seed_value == value, (puzzle, n, seed_value, value)
        if (puzzle, n) in seed_times:
            vs_seed = f"{seed_times[(puzzle, n)] / seconds:,.0f}x"
        quoted = C_QUOTED.get((puzzle, n))
        vs_c = f"{quoted / seconds:.2f}x" if quoted else ""
        print(f"{puzzle + ' count ' + str(n):<26}{j:>5}{value:>14,}{seconds:>10.3f}{vs_seed:>14}{vs_c:>13}", flush=True)

    print()
    seconds, value = timed(lambda: queens.count(Problem(19, True, "torus")), 1)
    print(f"hyperqueen count 19 --unique (A053994: 354): {value} in {seconds:.2f}s, jobs=1")
    seconds, value = timed(lambda: queens.count(Problem(19, True, "multipliers")), 1)
    print(f"hyperqueen count 19 --unique --group multipliers (A062166: 46): {value} in {seconds:.2f}s, jobs=1")


if __name__ == "__main__":
    main()
