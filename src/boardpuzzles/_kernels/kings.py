"""The kings' counting kernel: a transfer count over row masks, one row at a time.

A row mask has no two kings side by side (on a torus, not on the first and last column either);
two rows one above the other are compatible when no king of one touches a king of the other
(same column or one column apart, wrapping on a torus). The count keeps, for each row mask and
each number of kings so far, the ways to fill the rows so far that end in that mask, and moves
them down one row at a time along the compatible pairs (:func:`followers`).

Counts are kept modulo ``modulus`` (below 2^62, so the sum of two counts fits an int64); the
caller joins several moduli by the Chinese remainder theorem when a count may pass 2^61. Twin:
``tests/test_kings.py`` (the same transfer in plain Python with exact integers, rows as sets of
columns, and a brute force over sets of cells).
"""

from __future__ import annotations

import numpy as np

from boardpuzzles._kernels import STOPPED, jit, moduli

__all__ = ["STOPPED", "count_kings", "followers", "moduli", "touches"]


@jit
def touches(a, b, cols, torus):
    """True when a king of row mask ``a`` touches a king of row mask ``b`` in the next row."""
    full = (1 << cols) - 1
    spread = b | (b << 1) | (b >> 1)
    if torus and cols > 1:
        spread |= ((b & 1) << (cols - 1)) | (b >> (cols - 1))
    return (a & spread & full) != 0


@jit
def followers(masks, cols, torus):
    """``(starts, targets)``: the rows that may follow row ``masks[a]`` are the masks of indices
    ``targets[starts[a]:starts[a + 1]]``. They are the submasks of the columns it leaves free that
    are row masks themselves (a table of 2^cols entries names them), so the work is about the
    number of compatible pairs, not its square."""
    full = (1 << cols) - 1
    index = np.full(1 << cols, -1, dtype=np.int64)
    for i in range(masks.shape[0]):
        index[masks[i]] = i
    starts = np.zeros(masks.shape[0] + 1, dtype=np.int64)
    targets = np.empty(0, dtype=np.int64)
    for filling in range(2):  # count, then fill
        found = 0
        for a in range(masks.shape[0]):
            starts[a] = found
            m = masks[a]
            spread = m | (m << 1) | (m >> 1)
            if torus and cols > 1:
                spread |= ((m & 1) << (cols - 1)) | (m >> (cols - 1))
            free = full & ~spread
            sub = free
            while True:
                if index[sub] >= 0:
                    if filling:
                        targets[found] = index[sub]
                    found += 1
                if sub == 0:
                    break
                sub = (sub - 1) & free
        starts[masks.shape[0]] = found
        if not filling:
            targets = np.empty(found, dtype=np.int64)
    return starts, targets


@jit
def count_kings(sizes, starts, targets, rows, kings, first, closing, modulus, flag):
    """The ways, modulo ``modulus``, to fill ``rows`` rows with ``kings`` kings, no two touching:
    row masks of ``sizes[i]`` kings, row ``b`` may follow row ``a`` when ``b`` is one of
    ``targets[starts[a]:starts[a + 1]]``. ``first``: the first row's mask (a torus), or -1 for any
    first row; the last row must be one with ``closing[b]`` set. ``STOPPED`` when the stop flag
    was set (it is read before each row's transfer from one mask)."""
    count = sizes.shape[0]
    most = 0
    for i in range(count):
        most = max(most, sizes[i])
    ways = np.zeros((count, kings + 1), dtype=np.int64)
    after = np.zeros((count, kings + 1), dtype=np.int64)
    for a in range(count):
        if (first < 0 or a == first) and sizes[a] <= kings:
            ways[a, sizes[a]] = 1
    for row in range(1, rows):
        # Kings in the ``row`` rows so far: two rows one above the other hold at most ``most``
        # (their kings' columns make a row mask), so at most ceil(row / 2) * most, and enough
        # that the rows left can hold the rest.
        low = max(0, kings - (rows - row + 1) // 2 * most)
        high = min(kings, (row + 1) // 2 * most)
        after[:, :] = 0
        for a in range(count):
            if flag[0] != 0:
                return STOPPED
            least = high + 1  # the numbers of kings this row ends with so far, least to most
            for k in range(low, high + 1):
                if ways[a, k] != 0:
                    least = k
                    break
            if least > high:
                continue
            last = least
            for k in range(high, least, -1):
                if ways[a, k] != 0:
                    last = k
                    break
            for j in range(starts[a], starts[a + 1]):
                b = targets[j]
                s = sizes[b]
                for k in range(least, min(last, kings - s) + 1):
                    v = ways[a, k]
                    if v != 0:
                        total = after[b, k + s] + v
                        after[b, k + s] = total - modulus if total >= modulus else total
        ways, after = after, ways
    found = 0
    for b in range(count):
        if closing[b]:
            found += ways[b, kings]
            if found >= modulus:
                found -= modulus
    return found
