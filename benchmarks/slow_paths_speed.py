"""Paths that once were slow, as a user types them: whole processes, warm kernel cache, medians.

    python benchmarks/slow_paths_speed.py [--runs N] [--n N]

- ``kings count 9 --kings 6``: the transfer count (it listed all 77,784,658 placements before);
  goal: at most 2 s.
- ``hyperqueen solve N --unique`` against ``hyperqueen count N --unique`` (N = 19: 354 classes):
  the listing spreads the count's orbit search over each orbit's classes; goal: at most 1.5
  times the count. Its output goes to /dev/null.

Each command runs once uncounted (it fills the kernel cache), then ``--runs`` times; the two
HyperQueen commands take turns, and the ratio is that of their medians. CPU seconds (user +
system, of the process) are printed beside the wall time: on a loaded machine they are the
steadier figure.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time


def command(*words: str) -> list[str]:
    return [sys.executable, "-m", "boardpuzzles", *words]


def run(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def medians(times: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(w for w, _ in times), statistics.median(c for _, c in times)


def verdict(value: float, goal: float) -> str:
    return "met" if value <= goal else "NOT met"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="counted runs of each command (default 5)")
    parser.add_argument("--n", type=int, default=19, help="the HyperQueen board (default 19)")
    options = parser.parse_args()

    kings = command("kings", "count", "9", "--kings", "6")
    run(kings)
    wall, cpu = medians([run(kings) for _ in range(options.runs)])
    print(f"kings count 9 --kings 6             {wall:7.2f} s ({cpu:6.2f} CPU)   goal 2 s: {verdict(wall, 2.0)}")

    n = str(options.n)
    solve, count = command("hyperqueen", "solve", n, "--unique"), command("hyperqueen", "count", n, "--unique")
    run(solve), run(count)
    solves, counts = [], []
    for _ in range(options.runs):
        solves.append(run(solve))
        counts.append(run(count))
    (solve_wall, solve_cpu), (count_wall, count_cpu) = medians(solves), medians(counts)
    ratio = solve_wall / count_wall
    print(f"hyperqueen solve {n} --unique       {solve_wall:7.2f} s ({solve_cpu:6.2f} CPU)")
    print(f"hyperqueen count {n} --unique       {count_wall:7.2f} s ({count_cpu:6.2f} CPU)")
    print(
        f"  solve / count                     {ratio:7.2f}   ({solve_cpu / count_cpu:.2f} CPU)   "
        f"goal 1.5: {verdict(ratio, 1.5)}"
    )


if __name__ == "__main__":
    main()
