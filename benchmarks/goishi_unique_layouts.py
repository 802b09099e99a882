"""Goishi Hiroi: layouts of the n x n board with exactly one pick-up order (docs/records.md).

    python benchmarks/goishi_unique_layouts.py [--up-to N] [--estimate M] [--samples S] [--jobs J]

Counts the layouts for n = 1..N as `boardpuzzles goishi layouts` does (one layout of each class
of the 8 symmetries searched), printing the totals, the classes and the counts by number of
stones, with the time taken. Then it estimates the M x M count: S random runs of 2^14
consecutive masks, each timed with the class kernel and with the kernel that searches every
layout, scaled to all 2^(M*M) masks (the work is far from even: low masks are mostly the least
of their class, high ones almost never). The machine may be shared: quote the times with its load.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from boardpuzzles.limits import Limits
from boardpuzzles.parallel import default_jobs
from boardpuzzles.puzzles import goishi as gh

RUN = 1 << 14


def _seconds(kernel, n: int, lo: int, table: np.ndarray) -> float:
    by_size = np.zeros(n * n + 1, dtype=np.int64)
    classes = np.zeros(n * n + 1, dtype=np.int64)
    started = time.process_time()
    kernel(n, lo, lo + RUN, table, gh.STONE_BITS, by_size, classes, np.zeros(1, dtype=np.int64))
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--up-to", type=int, default=5)
    parser.add_argument("--estimate", type=int, default=6)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    if args.estimate < 4:
        parser.error("--estimate must be at least 4 (a run is 2^14 masks)")
    for n in range(1, args.up_to + 1):
        limits = Limits(jobs=args.jobs or default_jobs())
        started = time.perf_counter()
        found = gh.unique_layout_counts(n, limits)
        seconds = time.perf_counter() - started
        limits.close()
        sizes = ", ".join(
            f"{k}: {t} ({c})" for k, (t, c) in enumerate(zip(found.by_size, found.classes_by_size, strict=True)) if t
        )
        print(f"n = {n}: {found.total} layouts, {found.classes} up to symmetry, in {seconds:.1f} s of wall time")
        print(f"        by stones, total (classes): {sizes}")
    m = args.estimate
    kernels = gh.load_kernels()
    every, one_a_class = gh.square_images(m), gh.image_bytes(m)
    _seconds(kernels.unique_layouts, m, 0, every)  # compile
    _seconds(kernels.unique_layout_classes, m, 0, one_a_class)
    rng = random.Random(1)
    spent = {"every layout": 0.0, "one a class": 0.0}
    for _ in range(args.samples):
        lo = rng.randrange((1 << (m * m)) // RUN) * RUN
        spent["every layout"] += _seconds(kernels.unique_layouts, m, lo, every)
        spent["one a class"] += _seconds(kernels.unique_layout_classes, m, lo, one_a_class)
    scale = (1 << (m * m)) / (args.samples * RUN) / 3600
    for name, seconds in spent.items():
        print(f"n = {m}, {name}: about {seconds * scale:.1f} core-hours for all 2^{m * m} masks (CPU time)")
    print(f"ratio: {spent['every layout'] / spent['one a class']:.1f}x ({args.samples} runs of {RUN} masks)")


if __name__ == "__main__":
    main()
