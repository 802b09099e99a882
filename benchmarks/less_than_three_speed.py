"""Less Than Three and no-three-in-line: figures and ratios (not part of the test run).

    python benchmarks/less_than_three_speed.py          # about a minute
    python benchmarks/less_than_three_speed.py --full   # adds n = 12 on all cores (about 45 s more)
    python benchmarks/less_than_three_speed.py --find 20 24 28 30 --seeds 5   # find only


For each count: the median wall time in this process (kernels compiled), the ratio to the seed
article's method ported plainly (rows of stones checked line by line against every placed stone;
measured here where it finishes), and the ratio to the times quoted for a tight C row-by-row
bitmask counter on this kind of machine (the speed to beat; quoted, not measured here: >1 means
faster).
"""

from __future__ import annotations

import argparse
import itertools
import statistics

from _timing import timed

from boardpuzzles.limits import Limits
from boardpuzzles.parallel import default_jobs
from boardpuzzles.puzzles import less_than_three as lt3
from boardpuzzles.puzzles.less_than_three import orbit_find as less_than_three_find

C_QUOTED = {10: 5.0, 11: 52.0, 12: 600.0}  # one colour, seconds on one core (quoted, not measured)


def seed_method_count(n: int, colours: int) -> int:
    """The seed's approach: row by row, two stones of each colour per row, each new stone checked
    against every pair of same-coloured stones already placed (collinearity by cross product)."""
    stones: list[list[tuple[int, int]]] = [[] for _ in range(colours)]

    def collinear(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) == (b[1] - a[1]) * (c[0] - a[0])

    def ok(colour, p):
        placed = stones[colour]
        return not any(collinear(a, b, p) for a, b in itertools.combinations(placed, 2))

    def fill(row: int, colour: int, taken: set[int]) -> int:
        if row == n:
            return 1
        if colour == colours:
            return fill(row + 1, 0, set())
        total = 0
        for pair in itertools.combinations([c for c in range(n) if c not in taken], 2):
            a, b = (row, pair[0]), (row, pair[1])
            if ok(colour, a):
                stones[colour].append(a)
                if ok(colour, b):
                    stones[colour].append(b)
                    total += fill(row, colour + 1, taken | set(pair))
                    stones[colour].pop()
                stones[colour].pop()
        return total

    return fill(0, 0, set())


def find_figures(sizes: list[int], seeds: int, time_limit: float, jobs: int) -> None:
    """For each size: how many seeds find a board within the limit, and the median time of those."""
    less_than_three_find.find(lt3.Rules(8, 1), Limits(5))  # compile first
    print(f"{'find, one colour':<20}{'jobs':>5}{'found':>10}{'median s':>10}{'slowest s':>11}  symmetries")
    for n in sizes:
        results = [
            less_than_three_find.find(lt3.Rules(n, 1), Limits(time_limit, jobs=jobs), seed=seed)
            for seed in range(seeds)
        ]
        found = [r for r in results if r.board is not None]
        for r in found:
            assert lt3.violations(lt3.Problem(lt3.Rules(n, 1)), r.board) == []
        times = sorted(r.seconds for r in found)
        median = f"{statistics.median(times):.2f}" if times else "-"
        slowest = f"{times[-1]:.2f}" if times else "-"
        kinds = ", ".join(sorted({r.symmetry for r in found}))
        print(f"{f'{n}x{n}':<20}{jobs:>5}{f'{len(found)}/{seeds}':>10}{median:>10}{slowest:>11}  {kinds}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="also count n = 12 on all cores")
    parser.add_argument("--find", type=int, nargs="+", metavar="N", help="only time find on these sizes")
    parser.add_argument("--seeds", type=int, default=5, help="seeds per size for --find")
    parser.add_argument("--time-limit", type=float, default=60, help="seconds per find")
    args = parser.parse_args()
    jobs = default_jobs()
    if args.find:
        find_figures(args.find, args.seeds, args.time_limit, jobs)
        return
    lt3.count(lt3.Problem(lt3.Rules(5, 1)))  # compile first
    print(f"{'count':<34}{'jobs':>5}{'answer':>8}{'seconds':>10}{'vs seed method':>16}{'vs quoted C':>13}")
    rows = [
        (lt3.SEED, 1, 5),
        (lt3.Rules(8, 1), 1, 5),
        (lt3.Rules(9, 1), 1, 3),
        (lt3.Rules(10, 1), 1, 3),
        (lt3.Rules(11, 1), 1, 1),
        (lt3.Rules(11, 1), jobs, 1),
    ]
    if args.full:
        rows.append((lt3.Rules(12, 1), jobs, 1))
    for rules, j, repeat in rows:
        seconds, value = timed(lambda: lt3.count(lt3.Problem(rules), Limits(jobs=j)), repeat)
        vs_seed = ""
        if rules.size <= 8:
            seed_seconds, seed_value = timed(lambda: seed_method_count(rules.size, rules.colours), 1)
            assert seed_value == value, (rules, seed_value, value)
            vs_seed = f"{seed_seconds / seconds:,.0f}x"
        quoted = C_QUOTED.get(rules.size) if rules.colours == 1 and j == 1 else None
        per_core = f"{quoted / seconds:.1f}x" if quoted else ""
        label = f"{rules.colours} colour(s), {rules.size}x{rules.size}"
        print(f"{label:<34}{j:>5}{value:>8,}{seconds:>10.3f}{vs_seed:>16}{per_core:>13}", flush=True)


if __name__ == "__main__":
    main()
