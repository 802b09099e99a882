"""Goishi Hiroi: layouts of the n x n board with exactly one pick-up order (docs/records.md).

    python benchmarks/goishi_unique_layouts.py [--up-to N] [--estimate M] [--limit S]

Counts every layout for n = 1..N (each of the 2^(n*n) stone sets counted by the kernel with cap 2;
the classes are the layouts that are the least of their 8 images), printing the totals, the
classes and the counts by number of stones, with the time taken. Then it times the kernel on
8 random runs of 2^15 consecutive layouts of the M x M board and prints what all 2^(M*M) would
take on one core at that rate. The machine may be shared: quote the times with their load.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import goishi as gh


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--up-to", type=int, default=4)
    parser.add_argument("--estimate", type=int, default=6)
    parser.add_argument("--limit", type=float, default=1800.0)
    args = parser.parse_args()
    limits = Limits(args.limit)
    for n in range(1, args.up_to + 1):
        started = time.perf_counter()
        found = gh.unique_layout_counts(n, limits)
        seconds = time.perf_counter() - started
        sizes = ", ".join(
            f"{k}: {t} ({c})" for k, (t, c) in enumerate(zip(found.by_size, found.classes_by_size, strict=True)) if t
        )
        print(f"n = {n}: {found.total} layouts, {found.classes} up to symmetry, in {seconds:.1f} s")
        print(f"        by stones, total (classes): {sizes}")
    limits.close()
    m = args.estimate
    kernels = gh.load_kernels()
    images = gh.square_images(m)
    by_size = np.zeros(m * m + 1, dtype=np.int64)
    classes = np.zeros(m * m + 1, dtype=np.int64)
    flag = np.zeros(1, dtype=np.int64)
    kernels.unique_layouts(m, 0, 16, images, gh.STONE_BITS, by_size, classes, flag)  # compile
    rng = random.Random(1)
    seconds, looked = 0.0, 0
    for _ in range(8):
        lo = rng.randrange(1 << (m * m - 16))
        started = time.perf_counter()
        kernels.unique_layouts(m, lo, lo + (1 << 15), images, gh.STONE_BITS, by_size, classes, flag)
        seconds += time.perf_counter() - started
        looked += 1 << 15
    per = seconds / looked
    print(
        f"n = {m}: {per * 1e6:.1f} us a layout on {looked} sampled ({int(by_size.sum())} with one order); "
        f"all 2^{m * m} would take about {per * 2 ** (m * m) / 3600:.0f} core-hours"
    )


if __name__ == "__main__":
    main()
