"""Cross-check of the two-colour records (docs/records.md) with plain numpy, not the tuple kernel.

    python benchmarks/less_than_three_pairs_check.py 12 --folder lt3rec

Takes the one-colour solutions of n x n from the store a record run left in ``--folder``
(``less-than-three-one-colour-NxN-k2.db``; without one they are searched again), checks their
number against OEIS A000755 where this file knows it, and then counts, with a matrix product and
explicit canonical forms instead of the numba kernel and Burnside's lemma:

- the ordered pairs of disjoint solutions (two colours, the most stones);
- their classes under the 8 symmetries of the square: the least of the 8 images (g a, g b) of
  each pair, counted once;
- with colours swapped too: the least of the 16 images (g a, g b) and (g b, g a);
- for even n, the partitions of the board into n / 2 solutions, by exact cover in plain Python
  (the first empty cell, tried with every solution that holds it and misses the cells taken).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import less_than_three as lt3

A000755 = {8: 380, 9: 368, 10: 1135, 11: 1120, 12: 4348, 13: 3622, 14: 10568}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("n", type=int)
    parser.add_argument("--folder", default=".", help="where the record run kept its one-colour store")
    args = parser.parse_args()
    n = args.n
    started = time.perf_counter()
    rules = lt3.Rules(n, 1)
    boards = lt3.one_colour_solutions(rules, Limits(jobs=2, checkpoint=os.path.join(args.folder, "check.db")))
    m = len(boards)
    print(f"{n}x{n}: {m:,} one-colour solutions (A000755: {A000755.get(n, '?')})")
    if n in A000755:
        assert m == A000755[n]
    for b in boards:  # each a solution: two per row and column (the lines are the library's check)
        grid = b.reshape(n, n)
        assert (grid.sum(axis=0) == 2).all() and (grid.sum(axis=1) == 2).all()
    as_int = boards.astype(np.int32)
    overlap = as_int @ as_int.T
    a, b = np.nonzero(overlap == 0)  # ordered pairs, a != b (a solution meets itself)
    print(f"ordered disjoint pairs: {len(a):,}")
    index = {row.tobytes(): i for i, row in enumerate(boards)}
    images = []
    for perm in rules.grid.group("dihedral").permutations():
        moved = np.zeros_like(boards)
        moved[:, perm] = boards
        images.append(np.array([index[row.tobytes()] for row in moved], dtype=np.int64))
    width = np.int64(m)
    plain = np.min(np.stack([g[a] * width + g[b] for g in images]), axis=0)
    swapped = np.min(np.stack([*(g[a] * width + g[b] for g in images), *(g[b] * width + g[a] for g in images)]), axis=0)
    print(f"classes: {len(np.unique(plain)):,}; with colours swapped: {len(np.unique(swapped)):,}")
    if n % 2 == 0:
        cells = [frozenset(int(c) for c in np.flatnonzero(row)) for row in boards]
        holding: list[list[frozenset[int]]] = [[s for s in cells if x in s] for x in range(n * n)]

        def partitions(taken: frozenset[int]) -> int:
            if len(taken) == n * n:
                return 1
            first = next(x for x in range(n * n) if x not in taken)
            return sum(partitions(taken | s) for s in holding[first] if not s & taken)

        print(f"partitions into {n // 2} solutions: {partitions(frozenset())}")
    print(f"{time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
