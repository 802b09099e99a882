"""Less Than Three find's symmetric problem as CNF, for a SAT solver (python-sat; not part of the tests).

    pip install -e '.[bench]'          # python-sat (and OR-Tools), for the benchmarks only
    python benchmarks/less_than_three_find_sat.py --sizes 30 36 40 --solvers cadical195 glucose4 --budget 300

The same problem as ``less_than_three_find_vs_cpsat.py``'s CP-SAT model: one Boolean per orbit of
``less_than_three.symmetry.class_orbits`` (quarter turn on even n; on odd n quarter turn off the
diagonals, one pair on the main diagonal, the anti-diagonal empty); every row and column exactly
2 stones, every other line with 3 or more cells of the class at most 2, one constraint per distinct
line after the symmetry (weights: the cells of an orbit on the line, 1 or 2; an orbit with 3 on a
line is ruled out). Encoding: "at most 2" directly (a clause per pair of weight 3 or more and per
triple of single cells) on lines of up to ``DIRECT`` orbits, else a sequential counter (Sinz 2005)
with two outputs per position; "at least 2" on rows by clauses (one over the row, and for each
single-cell orbit one over the others). ``seed`` shuffles the variable numbers, the order of each
line and the order of the clauses (python-sat's solvers take no seed of their own).

Each run is a child process killed at the end of its budget: CaDiCaL and Kissat in python-sat
1.9 ignore ``interrupt()`` and hold the interpreter while they solve. ``--jobs`` children run side
by side with seeds ``seed * jobs + i`` and the first answer wins. Times are wall-clock and include
building the CNF; every board found passes the checker and the symmetry test.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import random
import statistics
import time
from collections import Counter

from boardpuzzles.puzzles import less_than_three as lt3
from boardpuzzles.puzzles.less_than_three import orbit_find as large

#: Lines with up to this many orbits get the direct encoding of "at most 2".
DIRECT = 5

Weights = tuple[tuple[int, int], ...]


def line_weights(n: int) -> tuple[list[list[int]], list[Weights], list[Weights]]:
    """(orbits, rows and columns, other lines): each line as sorted (orbit, cells on the line),
    one per distinct line."""
    orbits = large.class_orbits(n)
    orbit_of = {cell: i for i, cells in enumerate(orbits) for cell in cells}

    def weights(cells: list[int]) -> Weights:
        return tuple(sorted(Counter(orbit_of[c] for c in cells if c in orbit_of).items()))

    rows = {weights(list(range(i * n, i * n + n))) for i in range(n)}
    rows |= {weights(list(range(i, n * n, n))) for i in range(n)}
    _, line_cells = lt3.line_tables(lt3.Rules(n, 1))
    lines = set()
    for line in line_cells:
        w = weights([int(c) for c in line if c >= 0])
        if sum(k for _, k in w) > 2 and w not in rows:
            lines.add(w)
    return orbits, sorted(rows), sorted(lines)


class _Cnf:
    def __init__(self, variables: int) -> None:
        self.variables = variables
        self.clauses: list[list[int]] = []

    def new(self) -> int:
        self.variables += 1
        return self.variables


def _at_most_2(cnf: _Cnf, line: list[tuple[int, int]]) -> None:
    for v, k in line:
        if k >= 3:
            cnf.clauses.append([-v])
    line = [(v, k) for v, k in line if k < 3]
    if sum(k for _, k in line) <= 2:
        return
    if len(line) <= DIRECT:
        cnf.clauses += [[-a, -b] for (a, ka), (b, kb) in itertools.combinations(line, 2) if ka + kb > 2]
        ones = [v for v, k in line if k == 1]
        cnf.clauses += [[-a, -b, -c] for a, b, c in itertools.combinations(ones, 3)]
        return
    one = two = 0  # outputs so far: at least 1, at least 2 (0: cannot be yet)
    for i, (x, k) in enumerate(line):
        if k == 2 and one:
            cnf.clauses.append([-x, -one])
        if k == 1 and two:
            cnf.clauses.append([-x, -two])
        if i == len(line) - 1:
            break
        next_one = cnf.new()
        cnf.clauses.append([-x, next_one])
        if one:
            cnf.clauses.append([-one, next_one])
        next_two = 0
        if k == 2 or one:
            next_two = cnf.new()
            cnf.clauses.append([-x, next_two] if k == 2 else [-x, -one, next_two])
            if two:
                cnf.clauses.append([-two, next_two])
        one, two = next_one, next_two


def _at_least_2(cnf: _Cnf, line: list[tuple[int, int]]) -> None:
    literals = [v for v, _ in line]
    cnf.clauses.append(literals)
    cnf.clauses += [[u for u in literals if u != v] for v, k in line if k == 1]


def cnf_of(n: int, seed: int = 0) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """(clauses, orbits, variable of each orbit)."""
    orbits, rows, lines = line_weights(n)
    rng = random.Random(seed)
    numbers = list(range(1, len(orbits) + 1))
    if seed:
        rng.shuffle(numbers)
    cnf = _Cnf(len(orbits))
    for line in rows + lines:
        renamed = [(numbers[o], k) for o, k in line]
        if seed:
            rng.shuffle(renamed)
        _at_most_2(cnf, renamed)
    for line in rows:
        _at_least_2(cnf, [(numbers[o], k) for o, k in line])
    if seed:
        rng.shuffle(cnf.clauses)
    return cnf.clauses, orbits, numbers


def _child(n: int, seed: int, solver: str, answers: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    from pysat.solvers import Solver

    clauses, orbits, numbers = cnf_of(n, seed)
    with Solver(name=solver, bootstrap_with=clauses) as sat:
        if not sat.solve():
            answers.put((seed, None))
            return
        true = {v for v in sat.get_model() if v > 0}
    answers.put((seed, [c for o, cells in enumerate(orbits) if numbers[o] in true for c in cells]))


def run_sat(n: int, seed: int, budget: float, jobs: int, solver: str = "cadical195") -> tuple[bool, float, str]:
    started = time.perf_counter()
    context = multiprocessing.get_context("spawn")
    answers = context.Queue()
    children = [context.Process(target=_child, args=(n, seed * jobs + i, solver, answers)) for i in range(jobs)]
    for child in children:
        child.start()
    try:
        remaining = budget - (time.perf_counter() - started)
        got_seed, cells = answers.get(timeout=max(0.1, remaining))
    except Exception:  # queue.Empty: out of time
        return False, time.perf_counter() - started, "gave up"
    finally:
        for child in children:
            child.kill()
            child.join()
    seconds = time.perf_counter() - started
    if cells is None:
        return False, seconds, "unsatisfiable"
    colours = [0] * (n * n)
    for c in cells:
        colours[c] = 1
    board = lt3.to_board(lt3.Rules(n, 1), tuple(colours))
    problems = lt3.violations(lt3.Problem(lt3.Rules(n, 1)), board)
    if problems or not large.has_symmetry(board, large.symmetry_for(n)):
        raise AssertionError(f"a wrong board on {n}x{n}: {problems[:1]}")
    return True, seconds, f"found, seed {got_seed}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 36])
    parser.add_argument("--seeds", type=int, default=1, help="runs per size and solver (seeds 0, 1, ...)")
    parser.add_argument("--budget", type=float, default=120.0, help="seconds per run")
    parser.add_argument("--jobs", type=int, default=1, help="solver processes per run, differently shuffled")
    parser.add_argument("--solvers", nargs="+", default=["cadical195"], help="python-sat names: glucose4, kissat404")
    args = parser.parse_args()
    for n in args.sizes:
        clauses, orbits, _ = cnf_of(n)
        variables = max(abs(v) for c in clauses for v in c)
        print(f"n={n}: {len(orbits)} orbits, {variables} variables, {len(clauses)} clauses", flush=True)
        for solver in args.solvers:
            times = []
            for seed in range(args.seeds):
                found, seconds, what = run_sat(n, seed, args.budget, args.jobs, solver)
                times.append(seconds if found else args.budget)
                print(f"{n:>3} {solver:>12} seed {seed}: {seconds:8.1f}s {what}", flush=True)
            print(f"{n:>3} {solver:>12} median {statistics.median(times):.1f}s (a failure counts as the budget)")


if __name__ == "__main__":
    main()
