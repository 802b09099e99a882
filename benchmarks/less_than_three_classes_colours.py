"""Less Than Three: class counts against plain counts, and many colours through the
one-colour solutions against the stone-by-stone search and a C program (not part of the tests).

    python benchmarks/less_than_three_classes_colours.py           # a few minutes on a quiet machine
    python benchmarks/less_than_three_classes_colours.py --full    # adds 11x11 classes, 8x8 and 10x10 two colours

Every figure is the median of ``--repeat`` runs in this process (kernels compiled first), the
variants of a row run alternately; one job (``--jobs`` to change). Three tables:

1. ``count`` against ``count --unique`` (and ``--swap-colours``): the classes add each walked
   board's stabiliser to the symmetry-weighted search (Burnside, board by board); the goal is a
   ratio of at most 1.5. "before" is the route this replaced: the unreduced search with the
   least-image test at every leaf (run only where it finishes in reasonable time).
2. Two or more colours with the most stones: the tuple route (list the one-colour solutions, count
   pairwise disjoint tuples) against the stone-by-stone search that counted them before.
3. The tuple route against ``lt3_tuples.c`` (beside this file, compiled here with ``cc -O2``): the
   same method in plain C without symmetry, run as a subprocess (its own listing time included).
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from typing import Any

from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import less_than_three as lt3
from boardpuzzles.puzzles.less_than_three import counting as lt3_counting
from boardpuzzles.puzzles.less_than_three import search as lt3_search


def alternate(variants: list[Callable[[], Any]], repeat: int) -> list[tuple[float, Any]]:
    """(median seconds, last value) of each variant, the variants run in turn ``repeat`` times."""
    times: list[list[float]] = [[] for _ in variants]
    values: list[Any] = [None] * len(variants)
    for _ in range(repeat):
        for i, fn in enumerate(variants):
            started = time.perf_counter()
            values[i] = fn()
            times[i].append(time.perf_counter() - started)
    return [(statistics.median(t), v) for t, v in zip(times, values, strict=True)]


def counter(fn: Callable[[lt3.Problem, Limits], int], problem: lt3.Problem, jobs: int) -> Callable[[], int]:
    """``fn(problem, Limits(jobs=jobs))`` to call later."""
    return lambda: fn(problem, Limits(jobs=jobs))


def least_image_classes(rules: lt3.Rules, swap: bool, jobs: int) -> int:
    """Classes the way ``count --unique`` counted them before: every board of the unreduced
    search, each tested for being its own least image."""
    limits = Limits(jobs=jobs)
    first = lt3_search._first_rows(rules, limits)
    return sum(lt3_search._run(rules, p, rules.size, limits, symmetric=True, swap_colours=swap)[1] for p in first)


def classes_table(full: bool, repeat: int, jobs: int) -> None:
    print(
        f"{'classes vs plain, one job' if jobs == 1 else f'classes vs plain, {jobs} jobs':<30}"
        f"{'plain s':>9}{'classes s':>11}{'ratio':>7}{'classes':>9}{'before s':>10}{'before/now':>11}"
    )
    rows: list[tuple[lt3.Rules, bool, bool]] = [
        (lt3.Rules(8, 1), False, True),
        (lt3.Rules(9, 1), False, True),
        (lt3.Rules(10, 1), False, False),
        (lt3.Rules(5, 2, 2, 9), False, True),
        (lt3.Rules(5, 2, 2, 9), True, True),
    ]
    if full:
        rows.append((lt3.Rules(11, 1), False, False))
    for rules, swap, before in rows:
        plain = lt3.Problem(rules)
        classes = lt3.Problem(rules, True, swap)
        (t_plain, _), (t_classes, value) = alternate(
            [counter(lt3.count, plain, jobs), counter(lt3.count, classes, jobs)], repeat
        )
        old = ""
        if before:
            t_old, old_value = alternate([functools.partial(least_image_classes, rules, swap, jobs)], 1)[0]
            assert old_value == value, (rules, old_value, value)
            old = f"{t_old:>10.2f}{t_old / t_classes:>10.1f}x"
        label = f"{rules.size}x{rules.size}, {rules.colours} col, {rules.per_colour} st{', swap' if swap else ''}"
        print(f"{label:<30}{t_plain:>9.2f}{t_classes:>11.2f}{t_classes / t_plain:>6.2f}x{value:>9,}{old}", flush=True)


def tuples_table(full: bool, repeat: int, jobs: int) -> None:
    print(f"\n{'tuple route vs stone by stone':<30}{'tuples s':>9}{'search s':>10}{'speed-up':>10}{'answer':>9}")
    rows = [(lt3.Rules(6, 2), False), (lt3.Rules(6, 2), True), (lt3.Rules(7, 2), False), (lt3.Rules(7, 2), True)]
    if full:
        rows += [(lt3.Rules(8, 2), False)]
    for rules, unique in rows:
        problem = lt3.Problem(rules, unique)
        (t_new, new), (t_old, old) = alternate(
            [counter(lt3.count, problem, jobs), counter(lt3_counting._count_by_search, problem, jobs)],
            repeat if rules.size < 8 else 1,
        )
        assert new == old, (rules, unique, new, old)
        label = f"{rules.size}x{rules.size}, {rules.colours} colours{', classes' if unique else ''}"
        print(f"{label:<30}{t_new:>9.3f}{t_old:>10.2f}{t_old / t_new:>9.0f}x{new:>9,}", flush=True)


def c_table(full: bool, repeat: int, jobs: int) -> None:
    cc = shutil.which("cc")
    if cc is None:
        print("\n(no cc: the C comparison is skipped)")
        return
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lt3_tuples.c")
    with tempfile.TemporaryDirectory() as folder:
        binary = os.path.join(folder, "lt3_tuples")
        subprocess.run([cc, "-O2", "-o", binary, source], check=True)

        def run_c(n: int, colours: int) -> int:
            out = subprocess.run([binary, str(n), str(colours)], check=True, capture_output=True, text=True).stdout
            return int(out.split()[1])

        print(f"\n{'tuple route vs C (lt3_tuples.c)':<30}{'numba s':>9}{'C s':>9}{'C/numba':>9}{'answer':>9}")
        rows = [(8, 2), (8, 3), (8, 4), (9, 2)]
        if full:
            rows.append((10, 2))
        for n, colours in rows:
            problem = lt3.Problem(lt3.Rules(n, colours))
            (t_numba, ours), (t_c, theirs) = alternate(
                [counter(lt3.count, problem, jobs), functools.partial(run_c, n, colours)],
                repeat if n < 10 else 1,
            )
            assert ours == theirs, (n, colours, ours, theirs)
            label = f"{n}x{n}, {colours} colours"
            print(f"{label:<30}{t_numba:>9.3f}{t_c:>9.3f}{t_c / t_numba:>8.1f}x{ours:>9,}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="add 11x11 classes, 8x8 and 10x10 two colours")
    parser.add_argument("--repeat", type=int, default=3, help="runs per variant (median)")
    parser.add_argument("--jobs", type=int, default=1, help="workers for every count")
    args = parser.parse_args()
    for rules in [lt3.Rules(5, 1), lt3.Rules(4, 2)]:  # compile first
        for unique, swap in [(False, False), (True, False), (True, True)][: 2 if rules.colours == 1 else 3]:
            lt3.count(lt3.Problem(rules, unique, swap))
            lt3_counting._count_by_search(lt3.Problem(rules, unique, swap), Limits())
    classes_table(args.full, args.repeat, args.jobs)
    tuples_table(args.full, args.repeat, args.jobs)
    c_table(args.full, args.repeat, args.jobs)


if __name__ == "__main__":
    main()
