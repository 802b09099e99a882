"""Goishi Hiroi: figures and ratios (not part of the test run).

    python benchmarks/goishi_speed.py

1. Every published instance (23 full ones and the 200 Zen Solitaire levels, from
   tests/data/goishi/published_instances.md) solved and proven unique; total time.
2. The seed article's algorithm ported plainly (tests/reference.py: sentinel board, every stone
   as the start, depth-first, first solution, no memo) on the same puzzles: ratio.
3. 19x19 boards with 50-60 stones (random legal walks, so they have a solution): time to find the
   first order and the "not unique" verdict (count --max 2). Random walks are almost never unique,
   so the verdict comes as soon as a second order is found: this is not the time to prove
   uniqueness. That is timed on the largest published instance (proven unique: the whole
   search space must be exhausted).
4. Generation of unique puzzles: 10x10 with 20 stones, 15x15 with 40 stones (seeds 0-4).
Times are medians of in-process runs with the kernels compiled; the machine may be shared.
"""

from __future__ import annotations

import random
import re
import sys
import time
from pathlib import Path

from _timing import timed

from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import goishi as gh

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.reference import goishi_seed_first  # noqa: E402

TEXT = (ROOT / "tests" / "data" / "goishi" / "published_instances.md").read_text(encoding="utf-8")


def published() -> list[gh.Puzzle]:
    boards = [block.split() for block in re.findall(r"Board:\n```\n(.*?)```", TEXT, flags=re.S)]
    boards += [rows.split("/") for rows in re.findall(r"^\d{3} \| \S+ \| +\d+ \| ([.O/]+) \|", TEXT, flags=re.M)]
    return [gh.Puzzle.from_rows(b) for b in boards]


def main() -> None:
    puzzles = published()
    gh.count_at_most(puzzles[0], 2)  # compile
    seconds, _ = timed(lambda: [gh.first_two(p) for p in puzzles], 3)
    assert all(gh.first_two(p)[1] is None for p in puzzles)
    print(f"published instances: {len(puzzles)} solved and proven unique in {seconds:.3f} s (goal: under 2 s)")
    seed_seconds, done = 0.0, 0
    started = time.perf_counter()
    for p in puzzles:
        stones = {p.coords(c) for c in p.stones}
        try:
            goishi_seed_first(p.rows, p.cols, stones, give_up=20)
            done += 1
        except TimeoutError:
            print(f"  seed method gave up after 20 s on a {p.describe()}")
    seed_seconds = time.perf_counter() - started
    first_seconds, _ = timed(lambda: [gh.solve(p) for p in puzzles], 3)
    print(
        f"seed method (first solution only, plain Python): {seed_seconds:.2f} s for {done} puzzles; "
        f"ours, first solution: {first_seconds:.3f} s (x{seed_seconds / first_seconds:.0f}); "
        f"ours, solved and proven unique: x{seed_seconds / seconds:.0f}"
    )

    rng = random.Random(2024)
    for stones in (50, 55, 60):
        walk = None
        while walk is None:
            walk = gh.generator._random_walk(19, 19, stones, rng, [])
        p = gh.Puzzle(19, 19, tuple(walk))
        solve_s, _ = timed(lambda: gh.solve(p), 3)
        decide_s, n = timed(lambda: gh.count_at_most(p, 2), 3)
        print(
            f"19x19, {stones} stones (a random walk): first order {solve_s * 1000:.1f} ms; "
            f"not-unique verdict (count --max 2 = {n}) in {decide_s * 1000:.1f} ms"
        )
    largest = max(puzzles, key=lambda p: (p.size, p.rows * p.cols))
    prove_s, n = timed(lambda: gh.count_at_most(largest, 2), 3)
    assert n == 1
    print(
        f"largest published instance ({largest.describe()}): proven unique (count --max 2 = 1) "
        f"in {prove_s * 1000:.1f} ms"
    )

    for rows, cols, stones in ((10, 10, 20), (15, 15, 40)):
        times, failures = [], 0
        for seed in range(5):
            started = time.perf_counter()
            try:
                gh.generate(rows, cols, stones, seed=seed, limits=Limits(30))
                times.append(time.perf_counter() - started)
            except gh.GenerationTimeout:
                failures += 1
        shown = ", ".join(f"{t:.2f}" for t in times) or "none"
        print(
            f"generate {rows}x{cols} with {stones} stones: {len(times)}/5 seeds in [{shown}] s"
            + (f"; {failures} gave up at 30 s" if failures else "")
        )


if __name__ == "__main__":
    main()
