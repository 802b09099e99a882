"""Torus queens: the orbit search against the stabiliser search it replaced (not part of the tests).

    python benchmarks/queens_torus_orbits.py                  # n = 13, 17, 19 (a minute or two)
    python benchmarks/queens_torus_orbits.py --sizes 23       # about two minutes per repeat
    python benchmarks/queens_torus_orbits.py --estimate 25 --sample 60 --seed 1

Both methods run here on one core, one subtask after the other, kernels compiled first, and
alternately (stabiliser, orbit, stabiliser, orbit, ...): the times are medians of the repeats,
in CPU seconds of this process (on a shared machine the wall clock can run several times
longer; the CPU seconds are what two free cores would share).

* stabiliser search (before): a queen on (0, 0) and the 8 symmetries that keep it there; row 1's
  queen at offset a <= n/2, each placement weighted 8/N (``torus_search``).
* orbit search (now): one least image per orbit of the largest torus group (order
  8 n^2 phi(n) ... for odd n), weighted by the orbit's size (``torus_orbit_search``); the same
  search counts the classes under the three groups.

Nodes are the kernels' step counts (one per queen tried). ``--estimate N`` times a random sample of
the orbit search's subtasks of size N (CPU seconds each) and scales the sample's mean time and
nodes up to all of them (with a rough 95% interval from the sample's spread): an estimate, not a
measurement.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import numpy as np

from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import queens


def orbit_spec_queens(spec: tuple) -> list[tuple[int, int]]:
    _, n, _, a, c2, c3, last = spec
    return [(0, 0), (1, a), (2, c2), (3, c3), (n - 1, last)]


def orbit_search(n: int) -> tuple[list[int], int]:
    """The orbit search on one core: (placements and the three class counts, nodes)."""
    totals = [0, 0, 0, 0]
    nodes = 0
    flag = Limits().flag
    for subtask in queens.torus_orbit_subtasks(n):
        out, steps = queens.torus_orbit_run(n, orbit_spec_queens(subtask.spec), flag)
        totals = [t + int(x) for t, x in zip(totals, out, strict=True)]
        nodes += steps
    return totals, nodes


def stabiliser_search(n: int) -> tuple[int, int]:
    """The search before (one core): (placements, nodes)."""
    from boardpuzzles._kernels import queens_torus as kernels

    attack = queens.torus_attack_table(n)
    flag = Limits().flag
    total = nodes = 0
    for a in range(2, n // 2 + 1):
        found, steps = kernels.torus_search(n, np.array([0, a], dtype=np.int64), attack, True, flag)
        total += n * int(found)
        nodes += int(steps)
    return total // kernels.STABILISER_UNIT, nodes


def compare(sizes: list[int], repeat: int) -> None:
    print(
        f"{'n':>3} {'T(n)':>14} {'nodes before':>15} {'nodes now':>13} {'ratio':>7} "
        f"{'cpu s bef.':>11} {'cpu s now':>10} {'ratio':>7} {'Mnodes/s now':>13}"
    )
    for n in sizes:
        before_times, now_times = [], []
        for _ in range(repeat):
            started = time.process_time()
            before, before_nodes = stabiliser_search(n)
            before_times.append(time.process_time() - started)
            started = time.process_time()
            now, now_nodes = orbit_search(n)
            now_times.append(time.process_time() - started)
        assert before == now[0], (n, before, now)
        b, w = statistics.median(before_times), statistics.median(now_times)
        print(
            f"{n:>3} {now[0]:>14,} {before_nodes:>15,} {now_nodes:>13,} {before_nodes / now_nodes:>7.1f} "
            f"{b:>11.2f} {w:>10.2f} {b / w:>7.2f} {now_nodes / w / 1e6:>13.1f}",
            flush=True,
        )
        print(f"    classes: torus {now[1]:,}, multipliers {now[2]:,}, full {now[3] if n % 2 else '-'}", flush=True)


def estimate(n: int, sample: int, seed: int, cap: float) -> None:
    """Time a random sample of the orbit search's subtasks for n and scale it up."""
    subtasks = queens.torus_orbit_subtasks(n)
    chosen = random.Random(seed).sample(subtasks, min(sample, len(subtasks)))
    times, nodes, capped = [], [], 0
    for i, subtask in enumerate(chosen):
        limits = Limits(time_limit=cap)
        started = time.process_time()
        result: list[tuple[np.ndarray, int]] = []
        limits.run(
            lambda s=subtask, lim=limits: result.append(queens.torus_orbit_run(n, orbit_spec_queens(s.spec), lim.flag))
        )
        seconds = time.process_time() - started
        steps = result[0][1] if result else -1
        if steps < 0:
            capped += 1
            print(f"  subtask {i}: over the {cap} s cap; the estimate below is a lower bound", flush=True)
        times.append(seconds)
        nodes.append(max(steps, 0))
    count = len(subtasks)
    mean_t, mean_n = statistics.mean(times), statistics.mean(nodes)
    half = 1.96 * statistics.stdev(times) / math.sqrt(len(times)) * count if len(times) > 1 else float("nan")
    print(f"n = {n}: {count} subtasks, {len(times)} timed (seed {seed})")
    done = [t for t, x in zip(times, nodes, strict=True) if x > 0]
    rate = sum(nodes) / sum(done) / 1e6 if done else float("nan")
    lower = " (a lower bound: capped subtasks count 0)" if capped else ""
    print(f"  nodes: about {mean_n * count:,.0f}{lower}; {rate:.1f} M nodes per CPU s in the finished ones")
    print(
        f"  one core: about {mean_t * count:,.0f} CPU s (95%: +- {half:,.0f} s); "
        f"2 cores: about {mean_t * count / 2 / 60:,.1f} min (estimate, not a run)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=[13, 17, 19])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--estimate", type=int, help="estimate the orbit search for this n instead")
    parser.add_argument("--sample", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=float, default=120.0, help="seconds at most per sampled subtask")
    args = parser.parse_args()
    stabiliser_search(7), orbit_search(7)  # compile first
    if args.estimate:
        estimate(args.estimate, args.sample, args.seed, args.cap)
    else:
        compare(args.sizes, args.repeat)


if __name__ == "__main__":
    main()
