"""The domino tilings' counting kernel: a transfer matrix over column profiles, one cell at a time.

The board is swept column by column, each column top to bottom. The profile is a ``width``-bit
mask: before cell ``j`` of a column is placed, bit ``i < j`` says whether cell ``i`` of the next
column is already covered (by a domino lying across), bit ``i >= j`` whether cell ``i`` of this
column is. A cell already covered clears its bit; an empty one takes a domino lying across (its
bit set: the next column's cell) or standing down (the bit below set, when that cell is free).
The tilings are the ways from the empty profile back to the empty profile after every cell.

Counts are kept modulo ``modulus`` (below 2^62, so the sum of two counts fits an int64; any
number: a sum needs no inverse); the caller joins several pairwise coprime moduli (:func:`moduli`)
by the Chinese remainder theorem. Twin: ``tests/test_dominoes.py``
(the same sweep in plain Python with exact integers, and a brute force over tilings).
"""

from __future__ import annotations

import numpy as np

from boardpuzzles._kernels import STOPPED, jit, moduli

__all__ = ["STOPPED", "count_tilings", "moduli"]


@jit
def _add(ways, state, v, modulus):
    """``ways[state] += v`` modulo ``modulus`` (both terms below it)."""
    total = ways[state] + v
    ways[state] = total - modulus if total >= modulus else total


@jit
def count_tilings(width, length, modulus, flag):
    """The domino tilings of ``width`` x ``length`` cells modulo ``modulus``; ``STOPPED`` when the
    stop flag was set (it is read once per cell)."""
    states = 1 << width
    ways = np.zeros(states, dtype=np.int64)
    after = np.zeros(states, dtype=np.int64)
    ways[0] = 1
    for column in range(length):
        for j in range(width):
            if flag[0] != 0:
                return STOPPED
            after[:] = 0
            bit = 1 << j
            for s in range(states):
                v = ways[s]
                if v == 0:
                    continue
                if s & bit:  # covered from the left: the next column's cell stays free
                    _add(after, s ^ bit, v, modulus)
                    continue
                if column + 1 < length:  # a domino lying across
                    _add(after, s | bit, v, modulus)
                if j + 1 < width and not s & (bit << 1):  # a domino standing down
                    _add(after, s | (bit << 1), v, modulus)
            ways, after = after, ways
    return ways[0]
