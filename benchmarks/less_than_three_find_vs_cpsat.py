"""Less Than Three find against OR-Tools CP-SAT on the same symmetric problem (not part of the tests).

    pip install -e '.[bench]'          # OR-Tools and python-sat, for the benchmarks only
    python benchmarks/less_than_three_find_vs_cpsat.py --sizes 30 36 40 --seeds 3 --budget 120
    python benchmarks/less_than_three_find_vs_cpsat.py --sizes 36 40 --methods ours general
    python benchmarks/less_than_three_find_vs_cpsat.py --sizes 30 36 --methods ours cpsat sat

For each size and seed, both get the same wall-clock budget and the same number of workers
(``--jobs``, default 2), one after the other in this process, and both search the same class:
the orbits of ``less_than_three.symmetry.class_orbits`` (quarter turn on even n; on odd n quarter turn
off the diagonals, one pair on the main diagonal, the anti-diagonal empty). The CP-SAT model is
the usual one (Prellberg, arXiv:2602.07751, 2026: a Boolean per orbit, exactly 2 stones per row
and column, at most 2 on every other line with 3 or more cells of the class), written here with
one constraint per distinct line after the symmetry, the weights counting the cells of each orbit
on the line. Both times include building the tables or the model; numba's compilation is done
before the first timing. Every board either finds passes the checker and the symmetry test.

``--methods sat`` adds the same problem as CNF for CaDiCaL (python-sat, see
``less_than_three_find_sat.py``; ``--jobs`` differently shuffled solver processes).

``--methods general`` adds find's older search (``less_than_three.find`` on every size, without
the orbit search), which checks its boards but may answer in a weaker symmetry class.

Prints one row per run and, per size, the boards found and the median time of each (a run that
fails counts as the budget, so a median at the budget means at least half failed).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import less_than_three as lt3
from boardpuzzles.puzzles.less_than_three import orbit_find as large


def cpsat_model(n: int) -> tuple[object, list[object], list[list[int]]]:
    """(model, one Boolean per orbit, the orbits)."""
    from ortools.sat.python import cp_model

    orbits = large.class_orbits(n)
    orbit_of = {cell: i for i, cells in enumerate(orbits) for cell in cells}
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"o{i}") for i in range(len(orbits))]
    rules = lt3.Rules(n, 1)
    rows = {tuple(range(i * n, i * n + n)) for i in range(n)} | {tuple(range(i, n * n, n)) for i in range(n)}
    seen: set[tuple[tuple[int, int], ...]] = set()

    def weights(cells: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        counted = Counter(orbit_of[c] for c in cells if c >= 0 and c in orbit_of)
        return tuple(sorted(counted.items()))

    for row in rows:
        w = weights(row)
        if w not in seen:
            seen.add(w)
            model.add(sum(k * x[o] for o, k in w) == 2)
    _, line_cells = lt3.line_tables(rules)
    for line in line_cells:
        w = weights(tuple(int(c) for c in line))
        if sum(k for _, k in w) <= 2 or w in seen:
            continue
        seen.add(w)
        model.add(sum(k * x[o] for o, k in w) <= 2)
    return model, x, orbits


def run_cpsat(n: int, seed: int, budget: float, jobs: int) -> tuple[bool, float, str]:
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    model, x, orbits = cpsat_model(n)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.1, budget - (time.perf_counter() - started))
    solver.parameters.num_workers = jobs
    solver.parameters.random_seed = seed
    status = solver.solve(model)
    seconds = time.perf_counter() - started
    if status == cp_model.INFEASIBLE:
        return False, seconds, "infeasible"
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return False, seconds, "unknown"
    cells = [c for i, o in enumerate(orbits) if solver.value(x[i]) for c in o]
    colours = [0] * (n * n)
    for c in cells:
        colours[c] = 1
    board = lt3.to_board(lt3.Rules(n, 1), tuple(colours))
    verify(n, board)
    return True, seconds, "found"


def run_ours(n: int, seed: int, budget: float, jobs: int) -> tuple[bool, float, str]:
    started = time.perf_counter()
    limits = Limits(budget, jobs=jobs)
    try:
        result = large.find(lt3.Rules(n, 1), limits, seed=seed)
    finally:
        limits.close()
    seconds = time.perf_counter() - started
    if result.board is None:
        return False, seconds, "none" if result.complete else "gave up"
    verify(n, result.board)
    return True, seconds, f"found, {result.attempts} attempts"


def run_general(n: int, seed: int, budget: float, jobs: int) -> tuple[bool, float, str]:
    """``less_than_three.find`` without the orbit search of ``less_than_three_find`` (the search
    that find used on every size before): its board is checked, its symmetry is its own."""
    started = time.perf_counter()
    limits = Limits(budget, jobs=jobs)
    try:
        result = lt3.find(lt3.Rules(n, 1), limits, seed=seed)
    finally:
        limits.close()
    seconds = time.perf_counter() - started
    if result.board is None:
        return False, seconds, "none" if result.complete else "gave up"
    if lt3.violations(lt3.Problem(lt3.Rules(n, 1)), result.board):
        raise AssertionError(f"a wrong board on {n}x{n}")
    return True, seconds, f"found, {result.attempts} attempts"


def run_sat(n: int, seed: int, budget: float, jobs: int) -> tuple[bool, float, str]:
    """The CNF of ``less_than_three_find_sat.py`` with CaDiCaL 1.9.5 (its board is checked there)."""
    from less_than_three_find_sat import run_sat as sat

    return sat(n, seed, budget, jobs, "cadical195")


def verify(n: int, board: object) -> None:
    problems = lt3.violations(lt3.Problem(lt3.Rules(n, 1)), board)  # type: ignore[arg-type]
    if problems or not large.has_symmetry(board, large.symmetry_for(n)):  # type: ignore[arg-type]
        raise AssertionError(f"a wrong board on {n}x{n}: {problems[:1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 36, 40])
    parser.add_argument("--seeds", type=int, default=3, help="runs per size (seeds 0, 1, ...)")
    parser.add_argument("--budget", type=float, default=120.0, help="seconds per run, for each method")
    parser.add_argument("--jobs", type=int, default=2, help="threads of find, workers of CP-SAT")
    parser.add_argument(
        "--methods",
        nargs="+",
        choices=("ours", "cpsat", "sat", "general"),
        default=["ours", "cpsat"],
        help="ours: find as it is; cpsat: the model above; sat: the same as CNF for CaDiCaL; "
        "general: find without the orbit search",
    )
    args = parser.parse_args()
    run_ours(22, 0, 60, 1)  # compiles the kernels
    run_general(12, 0, 60, 1)
    every = {"ours": run_ours, "cpsat": run_cpsat, "sat": run_sat, "general": run_general}
    methods = {name: every[name] for name in args.methods}
    print(f"budget {args.budget:g} s per run, {args.jobs} jobs; seconds include building tables or model")
    print(f"{'n':>3} {'seed':>4} " + " ".join(f"{name:>24}" for name in methods))
    for n in args.sizes:
        times: dict[str, list[float]] = {name: [] for name in methods}
        wins: Counter[str] = Counter()
        for seed in range(args.seeds):
            cells = []
            for name, method in methods.items():  # alternating, so that load changes hit both
                found, seconds, what = method(n, seed, args.budget, args.jobs)
                times[name].append(seconds if found else args.budget)
                wins[name] += found
                cells.append(f"{seconds:8.1f}s {what[:14]:>14}")
            print(f"{n:>3} {seed:>4} " + " ".join(f"{c:>24}" for c in cells), flush=True)
        summary = " ".join(
            f"{name}: {wins[name]}/{args.seeds} found, median {statistics.median(times[name]):.1f}s" for name in methods
        )
        print(f"{n:>3}  all {summary}", flush=True)


if __name__ == "__main__":
    main()
