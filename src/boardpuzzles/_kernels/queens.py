"""Queen-placement kernels on n x n boards, bounded or torus, one 64-bit word per line family.

A placement is a column per row (``cols[r]``). Masks hold one bit per column; ``n <= 62`` keeps
every shift inside a signed 64-bit word. The plain-Python twins live in ``tests/reference.py``.

Every search reads the stop flag (``flag[0] != 0``, see :mod:`boardpuzzles.limits`) every
``CHECK_EVERY`` steps and returns ``STOPPED`` (-1) in place of its counts when it is set.
"""

from __future__ import annotations

import numpy as np

from boardpuzzles._kernels import CHECK_MASK, STOPPED, jit
from boardpuzzles._kernels.bits import lowest_bit_index, popcount

MAX_N = 62


@jit
def _rotl(x, k, n):
    """Rotate the n-bit word x left by k (0 <= k < n) without leaving 62 bits."""
    if k == 0:
        return x
    return ((x & ((1 << (n - k)) - 1)) << k) | (x >> (n - k))


@jit
def _rotr(x, k, n):
    if k == 0:
        return x
    return _rotl(x, n - k, n)


@jit
def _prefix_state(n, torus, prefix):
    """Masks (cols, left diagonals, right diagonals) relative to row len(prefix); ok=False if the
    prefix attacks itself or leaves the board."""
    full = (1 << n) - 1
    cols = 0
    left = 0  # columns attacked in the current row along down-right diagonals
    right = 0  # ... along down-left diagonals
    for r in range(prefix.shape[0]):
        c = prefix[r]
        if c < 0 or c >= n:
            return cols, left, right, False
        bit = 1 << c
        if (cols | left | right) & bit:
            return cols, left, right, False
        cols |= bit
        if torus:
            left = _rotl(left | bit, 1, n)
            right = _rotr(right | bit, 1, n)
        else:
            left = ((left | bit) << 1) & full
            right = (right | bit) >> 1
    return cols, left, right, True


@jit
def row_order_search(n, torus, prefix, out, stop_after, flag):
    """Count the completions of ``prefix`` in row order, columns left to right (so solutions come
    in lexicographic order), writing the first ``out.shape[0]`` of them into ``out``.

    Stops once ``stop_after`` solutions are found (``stop_after < 0``: never). Returns the number
    found (``STOPPED`` when the stop flag was set). Rows ``len(prefix)..n-1`` are filled; with an
    empty prefix, every placement counts.
    """
    full = (1 << n) - 1
    k = prefix.shape[0]
    cols, left, right, ok = _prefix_state(n, torus, prefix)
    if not ok:
        return 0
    cap = out.shape[0]
    placed = np.empty(n, dtype=np.int64)
    for r in range(k):
        placed[r] = prefix[r]
    if k == n:
        for r in range(n):
            if cap > 0:
                out[0, r] = placed[r]
        return 1
    # Explicit stack: per row, the masks on entry and the candidates still to try.
    st_cols = np.empty(n + 1, dtype=np.int64)
    st_left = np.empty(n + 1, dtype=np.int64)
    st_right = np.empty(n + 1, dtype=np.int64)
    st_cand = np.empty(n + 1, dtype=np.int64)
    row = k
    st_cols[row], st_left[row], st_right[row] = cols, left, right
    st_cand[row] = full & ~(cols | left | right)
    found = 0
    steps = 0
    while row >= k:
        steps += 1
        if (steps & CHECK_MASK) == 0 and flag[0] != 0:
            return STOPPED
        cand = st_cand[row]
        if cand == 0:
            row -= 1
            continue
        bit = cand & -cand
        st_cand[row] = cand ^ bit
        placed[row] = lowest_bit_index(bit)
        c2 = st_cols[row] | bit
        if torus:
            l2 = _rotl(st_left[row] | bit, 1, n)
            r2 = _rotr(st_right[row] | bit, 1, n)
        else:
            l2 = ((st_left[row] | bit) << 1) & full
            r2 = (st_right[row] | bit) >> 1
        if row == n - 1:
            if found < cap:
                for r in range(n):
                    out[found, r] = placed[r]
            found += 1
            if stop_after >= 0 and found >= stop_after:
                return found
            continue
        avail = full & ~(c2 | l2 | r2)
        if avail == 0:
            continue
        row += 1
        st_cols[row], st_left[row], st_right[row], st_cand[row] = c2, l2, r2, avail
    return found


@jit
def classic_count(n, prefix, flag):
    """Count the classic placements whose first rows hold ``prefix`` (the counting twin of
    ``row_order_search``, with the current masks kept in locals and the last row popcounted)."""
    full = (1 << n) - 1
    k = prefix.shape[0]
    cols, left, right, ok = _prefix_state(n, False, prefix)
    if not ok:
        return 0
    if k == n:
        return 1
    avail = full & ~(cols | left | right)
    if k == n - 1:
        return popcount(avail)
    st_cols = np.empty(n, dtype=np.int64)
    st_left = np.empty(n, dtype=np.int64)
    st_right = np.empty(n, dtype=np.int64)
    st_avail = np.empty(n, dtype=np.int64)
    sp = 0
    row = k
    total = 0
    steps = 0
    while True:
        steps += 1
        if (steps & CHECK_MASK) == 0 and flag[0] != 0:
            return STOPPED
        if avail == 0:
            if sp == 0:
                return total
            sp -= 1
            row -= 1
            cols, left, right, avail = st_cols[sp], st_left[sp], st_right[sp], st_avail[sp]
            continue
        bit = avail & -avail
        avail ^= bit
        c2 = cols | bit
        l2 = ((left | bit) << 1) & full
        r2 = (right | bit) >> 1
        next_avail = full & ~(c2 | l2 | r2)
        if row == n - 2:
            total += popcount(next_avail)
        elif next_avail:
            st_cols[sp], st_left[sp], st_right[sp], st_avail[sp] = cols, left, right, avail
            sp += 1
            row += 1
            cols, left, right, avail = c2, l2, r2, next_avail


STABILISER_UNIT = 105  # 8/N for N in 1..8 is a whole multiple of 1/105 (840 = lcm(1..8))


@jit
def _stabiliser_multiplicity(n, placed):
    """N: how many of the 8 offsets a, -a, b, -b, c, -c, d, -d equal a, where a and b are the
    columns of the queens in rows 1 and n-1, and c and d the rows of those in columns 1 and n-1."""
    a = placed[1]
    b = placed[n - 1]
    c = -1
    d = -1
    for r in range(n):
        if placed[r] == 1:
            c = r
        elif placed[r] == n - 1:
            d = r
    hits = 1 if 2 * a == n else 0  # -a equals a only on even boards
    for v in (b, c, d):
        if v == a:
            hits += 1
        if n - v == a:
            hits += 1
    return 1 + hits


@jit
def torus_search(n, prefix, attack, maps, stabiliser, flag):
    """Search the torus placements whose rows 0..len(prefix)-1 hold ``prefix``.

    Keeps, per free row, the columns still open there, and always branches on the free row with
    the fewest (a row with none ends the branch at once). Returns ``(placements, classes)``;
    ``classes`` counts the placements that are their own least image under ``maps`` (see
    ``is_least_image``) and is only computed when ``maps`` has rows; both are ``STOPPED`` when the
    stop flag was set. ``attack[d, c]``: the columns a queen in column c attacks d rows below.

    With ``stabiliser`` (prefix = (0, a, ...)): the 8 rotations and reflections that keep the
    queen on (0, 0) send the row-1 offset a to one of a, -a, b, -b, c, -c, d, -d (see
    ``_stabiliser_multiplicity``). Only placements where a is the least of these are searched
    (b, c, d confined to [a, n - a]: plain mask restrictions), each weighted 8 / N, so every
    orbit adds exactly its size. ``placements`` is then that weighted sum in units of
    1 / STABILISER_UNIT.
    """
    full = (1 << n) - 1
    k = prefix.shape[0]
    track = maps.shape[0] > 0
    weigh = stabiliser and n >= 5 and k >= 2
    placed = np.zeros(n, dtype=np.int64)
    candidate = np.empty(n, dtype=np.int64)
    open_cols = np.empty((n + 1, n), dtype=np.int64)  # per depth, per row
    for r in range(n):
        open_cols[0, r] = full
    if weigh:
        # Confine b, c, d to [a, n - a] before the prefix is placed, so the prefix obeys it too.
        a = prefix[1]
        if prefix[0] != 0 or a < 2 or 2 * a > n:
            return 0, 0
        inside = 0  # the columns a..n-a
        for col in range(a, n - a + 1):
            inside |= 1 << col
        open_cols[0, n - 1] &= inside
        edge = (1 << 1) | (1 << (n - 1))
        for r in range(n):
            if r < a or r > n - a:
                open_cols[0, r] &= ~edge
    for r in range(k):
        c = prefix[r]
        if c < 0 or c >= n or not (open_cols[0, r] >> c) & 1:
            return 0, 0
        placed[r] = c
        for r2 in range(r + 1, n):
            open_cols[0, r2] &= ~attack[r2 - r, c]
    if k == n:
        if weigh:
            return 8 * STABILISER_UNIT // _stabiliser_multiplicity(n, placed), 0
        classes = 1 if track and is_least_image(placed, maps, True, candidate) else 0
        return 1, classes
    free_rows = full & ~((1 << k) - 1)
    st_row = np.empty(n + 1, dtype=np.int64)
    st_cand = np.empty(n + 1, dtype=np.int64)
    st_free = np.empty(n + 1, dtype=np.int64)
    # Choose the first row to branch on.
    best, best_count = -1, n + 1
    for r in range(k, n):
        cnt = popcount(open_cols[0, r])
        if cnt == 0:
            return 0, 0
        if cnt < best_count:
            best, best_count = r, cnt
    sp = 0
    st_row[0], st_cand[0], st_free[0] = best, open_cols[0, best], free_rows
    placements = 0
    classes = 0
    steps = 0
    while sp >= 0:
        steps += 1
        if (steps & CHECK_MASK) == 0 and flag[0] != 0:
            return STOPPED, STOPPED
        cand = st_cand[sp]
        if cand == 0:
            sp -= 1
            continue
        bit = cand & -cand
        st_cand[sp] = cand ^ bit
        r = st_row[sp]
        c = lowest_bit_index(bit)
        placed[r] = c
        free2 = st_free[sp] & ~(1 << r)
        if free2 == 0:
            if weigh:
                placements += 8 * STABILISER_UNIT // _stabiliser_multiplicity(n, placed)
                continue
            placements += 1
            if track and is_least_image(placed, maps, True, candidate):
                classes += 1
            continue
        # Narrow every other free row and find the tightest.
        best, best_count = -1, n + 1
        rows = free2
        while rows:
            r2 = lowest_bit_index(rows)
            rows &= rows - 1
            d = r2 - r
            if d < 0:
                d += n
            left = open_cols[sp, r2] & ~attack[d, c]
            cnt = popcount(left)
            if cnt == 0:
                best = -1
                break
            open_cols[sp + 1, r2] = left
            if cnt < best_count:
                best, best_count = r2, cnt
        if best < 0:
            continue
        if free2 == (1 << best) and not track and not weigh:
            placements += best_count  # the last free row: each open cell completes a placement
            continue
        sp += 1
        st_row[sp], st_cand[sp], st_free[sp] = best, open_cols[sp, best], free2
    return placements, classes


@jit
def is_least_image(perm, maps, torus, candidate):
    """True when no image of ``perm`` under ``maps`` (and, on a torus, the shifts that bring one
    of its queens to cell (0, 0)) is lexicographically smaller than ``perm``.

    ``maps`` rows are ``a, b, c, d, tr, tc``: (r, q) -> (a r + b q + tr, c r + d q + tc)."""
    n = perm.shape[0]
    shifts = n if torus else 1
    for m in range(maps.shape[0]):
        a, b, c, d, tr, tc = maps[m, 0], maps[m, 1], maps[m, 2], maps[m, 3], maps[m, 4], maps[m, 5]
        for s in range(shifts):
            if torus:
                # Shift so that the image of row s's queen lands on (0, 0).
                r0 = (a * s + b * perm[s]) % n
                q0 = (c * s + d * perm[s]) % n
            else:
                r0 = -tr
                q0 = -tc
            for r in range(n):
                nr = a * r + b * perm[r] - r0
                nq = c * r + d * perm[r] - q0
                if torus:
                    nr %= n
                    nq %= n
                candidate[nr] = nq
            for r in range(n):
                if candidate[r] != perm[r]:
                    if candidate[r] < perm[r]:
                        return False
                    break
    return True


@jit
def count_least_images(n, torus, prefix, maps, flag):
    """Among the completions of ``prefix`` (row order), count those that are the least image of
    themselves under the symmetry ``maps``: one per class met. Returns (placements, classes), or
    ``STOPPED`` twice when the stop flag was set."""
    chunk = 4096
    out = np.empty((chunk, n), dtype=np.int64)
    candidate = np.empty(n, dtype=np.int64)
    placements = 0
    classes = 0
    # Walk the completions chunk by chunk, extending the prefix by one row when a chunk overflows.
    stack = [prefix.copy()]
    while len(stack) > 0:
        p = stack.pop()
        found = row_order_search(n, torus, p, out, chunk + 1, flag)
        if found == STOPPED:
            return STOPPED, STOPPED
        if found > chunk:
            for c in range(n - 1, -1, -1):
                q = np.empty(p.shape[0] + 1, dtype=np.int64)
                q[: p.shape[0]] = p
                q[p.shape[0]] = c
                stack.append(q)
            continue
        placements += found
        for i in range(found):
            if is_least_image(out[i], maps, torus, candidate):
                classes += 1
    return placements, classes
