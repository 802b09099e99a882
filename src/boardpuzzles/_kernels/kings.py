"""The kings' counting kernel: rows filled one at a time from a table of row masks.

A row mask has no two kings side by side (on a torus, not on the first and last column either);
two rows one above the other are compatible when no king of one touches a king of the other
(same column or one column apart, wrapping on a torus). Twin: ``tests/test_kings.py``'s brute
force over sets of cells.
"""

from __future__ import annotations

import numpy as np

from boardpuzzles._kernels import CHECK_MASK, STOPPED, jit


@jit
def touches(a, b, cols, torus):
    """True when a king of row mask ``a`` touches a king of row mask ``b`` in the next row."""
    full = (1 << cols) - 1
    spread = b | (b << 1) | (b >> 1)
    if torus and cols > 1:
        spread |= ((b & 1) << (cols - 1)) | (b >> (cols - 1))
    return (a & spread & full) != 0


@jit
def count_kings(masks, sizes, rows, cols, torus, kings, prefix, flag):
    """The ways to fill the rows after ``prefix`` (indices into ``masks``, whose kings are
    ``sizes``) so that no two kings touch and the kings add up to ``kings``. ``STOPPED`` when
    the stop flag was set."""
    most = 0
    for i in range(sizes.shape[0]):
        most = max(most, sizes[i])
    chosen = np.empty(rows, dtype=np.int64)
    placed = 0
    for r in range(prefix.shape[0]):
        chosen[r] = prefix[r]
        placed += sizes[prefix[r]]
        if r > 0 and touches(masks[prefix[r]], masks[prefix[r - 1]], cols, torus):
            return 0
    row = prefix.shape[0]
    if row == 0:
        return 0  # the caller splits on the first row
    nxt = np.zeros(rows + 1, dtype=np.int64)  # per row: the next mask index to try
    nxt[row] = 0
    total = 0
    steps = 0
    while row >= prefix.shape[0]:
        steps += 1
        if (steps & CHECK_MASK) == 0 and flag[0] != 0:
            return STOPPED
        if row == rows:
            last = masks[chosen[rows - 1]]
            if placed == kings and not (torus and rows > 1 and touches(masks[chosen[0]], last, cols, torus)):
                total += 1
            row -= 1
            if row >= prefix.shape[0]:
                placed -= sizes[chosen[row]]
            continue
        i = nxt[row]
        if i == masks.shape[0]:
            row -= 1
            if row >= prefix.shape[0]:
                placed -= sizes[chosen[row]]
            continue
        nxt[row] = i + 1
        left = kings - placed - sizes[i]
        if left < 0 or left > (rows - row - 1) * most or touches(masks[i], masks[chosen[row - 1]], cols, torus):
            continue
        chosen[row] = i
        placed += sizes[i]
        row += 1
        nxt[row] = 0
    return total
