"""Goishi Hiroi's generator: success rate and median time by size, new methods against ``regrow``.

    python benchmarks/goishi_generator.py [--seeds N] [--limit S] [--sizes 15x40,19x60] [--methods auto,regrow]

For each size (SIDExSTONES: a SIDE x SIDE board with STONES stones) and each seed 0..N-1, the
methods run alternately (auto, regrow, auto, ...) under the same time limit, in-process with the
kernels compiled. Every puzzle made is proven unique by the counter (count == 1) and checked by
the independent checker; a run that gives up at the limit counts as a failure and as the limit
in the median (so a median at the limit means "half or more failed"). The machine may be shared:
quote the figures with their load.
"""

from __future__ import annotations

import argparse
import statistics
import time

from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import goishi as gh

GOALS = {(15, 40): 2.0, (19, 60): 10.0}


def one(side: int, stones: int, seed: int, method: str, limit: float) -> float | None:
    """Seconds to a proven unique puzzle, or None when the method gave up at ``limit``."""
    limits = Limits(limit)
    started = time.perf_counter()
    try:
        made = gh.generate(side, side, stones, seed=seed, limits=limits, method=method)
    except gh.GenerationTimeout:
        return None
    finally:
        limits.close()
    seconds = time.perf_counter() - started
    if gh.count(made.puzzle) != 1 or not gh.check(made.puzzle, made.order):
        raise AssertionError(f"{method} seed {seed}: the puzzle is not unique")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--limit", type=float, default=30.0)
    parser.add_argument("--sizes", default="10x20,15x40,19x60")
    parser.add_argument("--methods", default="auto,grow,regrow", help="the last is the baseline of the ratios")
    args = parser.parse_args()
    methods = args.methods.split(",")
    gh.generate(8, 8, 12, seed=0, method="grow")  # compile the kernels
    gh.generate(8, 8, 12, seed=0, method="regrow")
    print(f"seeds 0..{args.seeds - 1}, limit {args.limit:g} s per puzzle; the machine may be loaded")
    print(f"{'size':>14} {'method':>7} {'unique':>7} {'median s':>9} {'times (s; - = gave up)'}")
    for size in args.sizes.split(","):
        side, stones = (int(x) for x in size.split("x"))
        times: dict[str, list[float | None]] = {m: [] for m in methods}
        for seed in range(args.seeds):
            for method in methods:
                times[method].append(one(side, stones, seed, method, args.limit))
        medians = {}
        for method in methods:
            got = times[method]
            medians[method] = statistics.median(args.limit if t is None else t for t in got)
            shown = " ".join("-" if t is None else f"{t:.1f}" for t in got)
            made = sum(t is not None for t in got)
            label = f"{side}x{side}, {stones}"
            print(f"{label:>14} {method:>7} {made:>3}/{len(got):<3} {medians[method]:>9.2f} {shown}")
        goal = GOALS.get((side, stones))
        base = methods[-1]
        ratios = ", ".join(f"{base}/{m} {medians[base] / medians[m]:.1f}" for m in methods[:-1])
        print(f"{'':>14} median ratios {ratios}" + (f" (goal: under {goal:g} s)" if goal else ""))


if __name__ == "__main__":
    main()
