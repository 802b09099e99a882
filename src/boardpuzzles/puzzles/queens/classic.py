"""The plan of a classic count: its subtasks (the border starts, or prefixes of the first rows
under the left-right mirror) and the Burnside plan of its classes under the 8 symmetries."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from boardpuzzles._lazy import numpy as np
from boardpuzzles.parallel import Subtask
from boardpuzzles.puzzles.queens.rules import Placement

#: The largest n of the kernel's border search (``_kernels.queens.BORDER_MAX_N``), copied here
#: so that planning a count does not load numba (a test checks that the two agree).
BORDER_MAX_N = 22
#: The border starts of the classic count are shared out over this many subtasks (at most).
BORDER_SUBTASKS = 256


def _open_columns(n: int, prefix: Placement, torus: bool) -> list[int]:
    """Columns of row len(prefix) that no queen of the prefix attacks (plain arithmetic)."""
    row = len(prefix)
    open_cols = []
    for c in range(n):
        ok = True
        for r, q in enumerate(prefix):
            dr, dc = row - r, c - q
            if torus:
                ok = dc % n != 0 and (dc - dr) % n != 0 and (dc + dr) % n != 0
            else:
                ok = dc != 0 and abs(dc) != dr
            if not ok:
                break
        if ok:
            open_cols.append(c)
    return open_cols


def _split(n: int, tasks: Sequence[tuple[Placement, int]], depth: int, torus: bool) -> list[Subtask]:
    """Extend each prefix row by row up to ``depth`` rows; dead prefixes are dropped."""
    for _ in range(depth):
        grown = []
        for prefix, weight in tasks:
            if len(prefix) >= min(depth, n):
                grown.append((prefix, weight))
            else:
                grown.extend(((*prefix, c), weight) for c in _open_columns(n, prefix, torus))
        tasks = grown
    return [Subtask(prefix, weight) for prefix, weight in tasks]


def classic_subtasks(n: int) -> list[Subtask]:
    """Subtasks whose weighted counts add up to the classic placements: the border searches
    (:func:`border_starts`), or from n = 23 on the left-right mirror (row 0 in the left half of
    the columns, weight 2; for odd n, the middle column with row 1 in the left half, weight 2)."""
    if n <= BORDER_MAX_N:
        starts = border_starts(n)
        chunk = max(1, -(-len(starts) // BORDER_SUBTASKS))
        return [Subtask(("border", n, tuple(starts[i : i + chunk]))) for i in range(0, len(starts), chunk)]
    base: list[tuple[Placement, int]] = []
    for c in range(n):
        mirror = n - 1 - c
        if c < mirror:
            base.append(((c,), 2))
        elif c == mirror:  # the middle column of an odd board
            base += [((c, c2), 2) for c2 in _open_columns(n, (c,), False) if c2 < n - 1 - c2]
    return [Subtask(("board", n, s.spec), s.weight) for s in _split(n, base, 3, False)]


def classic_class_subtasks(n: int) -> list[Subtask]:
    """Burnside's lemma: the classes under the 8 symmetries of the square are the average number
    of placements that each symmetry fixes. The identity fixes them all (the plain count), the
    two quarter turns fix the same ones, and the half turn fixes its own (small searches). No
    reflection fixes a placement of n >= 2 queens: a mirror through a middle line would need
    every queen on that line, and one through a diagonal pairs (r, c) with (c, r), two cells of
    one anti-diagonal, so its queens would all stand on the diagonal itself, where only one fits.
    In units of 1/8."""
    plain = classic_subtasks(n)
    return [*plain, Subtask(("turn", n, True), 2), Subtask(("turn", n, False), 1), Subtask(("mirror", n), 4)]


def _border_clashes(n: int, queens: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """For arrays of border starts given as their four queens (row, column): which break the
    corner rule (a queen in a corner is the border queen of both its lines) or attack each
    other (two queens on one cell are one corner queen)."""
    m = n - 1
    (_, t), (_, b), (lft, _), (rgt, _) = queens
    bad: np.ndarray = (
        ((t == 0) != (lft == 0)) | ((t == m) != (rgt == 0)) | ((b == 0) != (lft == m)) | ((b == m) != (rgt == m))
    )
    for i, (r1, c1) in enumerate(queens):
        for r2, c2 in queens[:i]:
            same = (r1 == r2) & (c1 == c2)
            bad |= ~same & ((r1 == r2) | (c1 == c2) | (r1 - c1 == r2 - c2) | (r1 + c1 == r2 + c2))
    return bad


def _popcounts(x: np.ndarray) -> np.ndarray:
    """The set bits of each non-negative int64 (SWAR: numpy 1.26 has no popcount)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


def border_branching(n: int, t: np.ndarray, b: np.ndarray, lft: np.ndarray, rgt: np.ndarray) -> np.ndarray:
    """For arrays of border starts: the product of the open cells (given the four border queens
    alone) over the first ``n // 2`` rows that the top-down search fills, a guess at the size of
    its tree: the fewer choices near its root, the smaller it is."""
    m = n - 1
    window = ((1 << n) - 1) << m  # column c at bit c + m: every line below lands in 64 bits
    product = np.ones(t.shape, dtype=np.int64)
    taken = np.zeros(t.shape, dtype=np.int64)  # how many rows were multiplied in so far
    for row in range(1, m):
        use = (row != lft) & (row != rgt) & (taken < n // 2)
        hit = np.full(t.shape, (1 << m) | (1 << (2 * m)), dtype=np.int64)  # columns 0 and n-1
        for c in (t, t + row, t - row, b, b - m + row, b + m - row, row - lft, lft - row, m - rgt + row, rgt + m - row):
            hit |= np.left_shift(1, c + m)
        product = np.where(use, product * (n - _popcounts(hit & window)), product)
        taken += use
    return product


@functools.cache
def border_starts(n: int) -> list[tuple[int, int, int, int, int]]:
    """One start (t, b, l, r, weight) per class of border queens under the 8 symmetries: the
    queens of row 0 (column t), row n-1 (column b), column 0 (row l) and column n-1 (row r).
    Every placement has exactly one such set; a symmetry maps the placements of one start onto
    those of its image, so each class is searched once and weighted by its size (8, 4 or 2).
    Of the 8 images, the one searched is the one whose search branches least near its root
    (:func:`border_branching`; a third fewer steps than the images whose side queens sit
    lowest, the choice before), ties to the least; the starts are sorted.

    All n^4 candidates at once, with numpy: a quarter turn sends (t, b, l, r) to
    (n-1-l, n-1-r, b, t), the left-right mirror to (n-1-t, n-1-b, r, l)."""
    m = n - 1
    t, b, lft, rgt = (x.ravel() for x in np.meshgrid(*(np.arange(n, dtype=np.int64),) * 4, indexing="ij"))
    ok = ~_border_clashes(
        n, [(np.zeros_like(t), t), (np.full_like(b, m), b), (lft, np.zeros_like(lft)), (rgt, np.full_like(rgt, m))]
    )
    t, b, lft, rgt = t[ok], b[ok], lft[ok], rgt[ok]
    images = []
    for mirrored in (False, True):
        image = (m - t, m - b, rgt, lft) if mirrored else (t, b, lft, rgt)
        for _ in range(4):
            images.append(image)
            it, ib, il, ir = image
            image = (m - il, m - ir, ib, it)
    codes = np.stack([((it * n + ib) * n + il) * n + ir for it, ib, il, ir in images])
    first = codes[0] == codes.min(axis=0)  # one start per class: its lexicographically least image
    codes = codes[:, first]
    ordered = np.sort(codes, axis=0)
    weights = 1 + np.count_nonzero(np.diff(ordered, axis=0), axis=0)
    digits = [codes // n**3, codes // n**2 % n, codes // n % n, codes % n]
    branching = border_branching(n, *(d.ravel() for d in digits)).reshape(codes.shape)
    choice = np.lexsort((codes, branching), axis=0)[0]
    best = codes[choice, np.arange(codes.shape[1])]
    starts = [
        (int(code // n**3), int(code // n**2 % n), int(code // n % n), int(code % n), int(weight))
        for code, weight in zip(best.tolist(), weights.tolist(), strict=True)
    ]
    return sorted(starts)
