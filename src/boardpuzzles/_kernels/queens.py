"""Queen-placement kernels on n x n boards, bounded or torus, one 64-bit word per line family:
the row-order search, the classic counts and the least-image test (the torus orbit search is in
:mod:`.queens_torus`).

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


#: The border search keeps every mask at a bit offset of n - 2 in one word (see below): n <= 22.
BORDER_MAX_N = 22


@jit
def _two_rows(a1, a2, sh):
    """The ways to finish the last two free rows, ``sh`` rows apart, with ``a1`` open in the
    first and ``a2`` in the second (given the queens above the first): each queen in the first
    row takes its column and two diagonal cells from the second, so the pairs are
    |A1| |A2| - |A1 & A2| - |(A1 << sh) & A2| - |(A1 >> sh) & A2| (no search)."""
    return popcount(a1) * popcount(a2) - popcount(a1 & a2) - popcount((a1 << sh) & a2) - popcount((a1 >> sh) & a2)


@jit
def _last_three(avail, cols, ld, rd, s1, s2, window):
    """The ways to finish the last three free rows: every queen of ``avail`` in the first of
    them, whose masks are (cols, ld, rd), then the other two (``s1`` and ``s1 + s2`` rows
    below) by :func:`_two_rows`. The lines of the queens above are folded once into one mask
    per row; each queen adds only its own."""
    s12 = s1 + s2
    x1 = cols | (ld << s1) | (rd >> s1)
    x2 = cols | (ld << s12) | (rd >> s12)
    total = 0
    while avail:
        bit = avail & -avail
        avail ^= bit
        a1 = window & ~(x1 | bit | (bit << s1) | (bit >> s1))
        a2 = window & ~(x2 | bit | (bit << s12) | (bit >> s12))
        total += _two_rows(a1, a2, s2)  # no test: an empty row gives 0
    return total


# The last free rows of the border search are filled by nested loops, one function per row (so
# each row's branches have code of their own, which the processor predicts better than one loop
# driven by an explicit stack: about a fifth faster), the innermost three by ``_last_three``.
# ``_nest_k(avail, cols, ld, rd, shifts, i, window)`` counts the ways to fill the k free rows
# i..i+k-1: ``avail`` open in row i, (cols, ld, rd) its masks, ``shifts[j]`` the rows from free
# row j to j + 1.


@jit
def _nest_4(avail, cols, ld, rd, shifts, i, window):
    s = shifts[i]
    s1 = shifts[i + 1]
    s2 = shifts[i + 2]
    total = 0
    while avail:
        bit = avail & -avail
        avail ^= bit
        nc = cols | bit
        nl = (ld | bit) << s
        nr = (rd | bit) >> s
        na = window & ~(nc | nl | nr)
        if na:
            total += _last_three(na, nc, nl, nr, s1, s2, window)
    return total


@jit
def _nest_5(avail, cols, ld, rd, shifts, i, window):
    s = shifts[i]
    total = 0
    while avail:
        bit = avail & -avail
        avail ^= bit
        nc = cols | bit
        nl = (ld | bit) << s
        nr = (rd | bit) >> s
        na = window & ~(nc | nl | nr)
        if na:
            total += _nest_4(na, nc, nl, nr, shifts, i + 1, window)
    return total


@jit
def _nest_6(avail, cols, ld, rd, shifts, i, window):
    s = shifts[i]
    total = 0
    while avail:
        bit = avail & -avail
        avail ^= bit
        nc = cols | bit
        nl = (ld | bit) << s
        nr = (rd | bit) >> s
        na = window & ~(nc | nl | nr)
        if na:
            total += _nest_5(na, nc, nl, nr, shifts, i + 1, window)
    return total


@jit
def _nest_7(avail, cols, ld, rd, shifts, i, window):
    s = shifts[i]
    total = 0
    while avail:
        bit = avail & -avail
        avail ^= bit
        nc = cols | bit
        nl = (ld | bit) << s
        nr = (rd | bit) >> s
        na = window & ~(nc | nl | nr)
        if na:
            total += _nest_6(na, nc, nl, nr, shifts, i + 1, window)
    return total


@jit
def _fill(k, avail, cols, ld, rd, shifts, i, window):
    """The ways to fill the last k <= 7 free rows, from free row i (see ``_nest_k``)."""
    if k == 1:
        return popcount(avail)
    if k == 2:
        below = window & ~(cols | (ld << shifts[i]) | (rd >> shifts[i]))
        return _two_rows(avail, below, shifts[i])
    if k == 3:
        return _last_three(avail, cols, ld, rd, shifts[i], shifts[i + 1], window)
    if k == 4:
        return _nest_4(avail, cols, ld, rd, shifts, i, window)
    if k == 5:
        return _nest_5(avail, cols, ld, rd, shifts, i, window)
    if k == 6:
        return _nest_6(avail, cols, ld, rd, shifts, i, window)
    return _nest_7(avail, cols, ld, rd, shifts, i, window)


@jit
def classic_border_count(n, starts, weights, flag):
    """Count the classic placements whose four border queens are given, for each start
    (t, b, l, r): the queens in row 0 (column t), row n-1 (column b), column 0 (row l) and
    column n-1 (row r), a corner queen standing for two of them. Returns ``(sum of weights[i] x
    count of start i, steps)``, or ``(STOPPED, steps)`` when the stop flag was set.

    The other rows are filled top to bottom on bitmasks (columns, and the two diagonal families,
    shifted one bit per row), skipping the rows of the border queens: their lines are in the
    masks from the start, seeded where they cross the first free row. A diagonal of a queen
    further down crosses that row left of the board, so every mask sits at a bit offset of
    n - 2 (columns c at bit c + n - 2); the rising diagonals of the lowest queen reach bit
    3n - 5, which is why n <= BORDER_MAX_N. The last seven free rows are filled by nested
    loops (``_nest_7``), the last two of them counted with popcounts (:func:`_two_rows`), and
    the rows above by a loop with an explicit stack. ``steps`` counts the queens that loop puts
    down; the stop flag is read before each nest.
    """
    off = n - 2 if n >= 2 else 0
    window = ((1 << n) - 1) << off
    free = np.empty(n, dtype=np.int64)
    shifts = np.zeros(n + 2, dtype=np.int64)
    st_cols = np.empty(n, dtype=np.int64)
    st_ld = np.empty(n, dtype=np.int64)
    st_rd = np.empty(n, dtype=np.int64)
    st_avail = np.empty(n, dtype=np.int64)
    qrow = np.empty(4, dtype=np.int64)
    qcol = np.empty(4, dtype=np.int64)
    total = 0
    steps = 0
    for s in range(starts.shape[0]):
        if flag[0] != 0:
            return STOPPED, steps
        t, b, left_row, right_row = starts[s, 0], starts[s, 1], starts[s, 2], starts[s, 3]
        qrow[0], qcol[0] = 0, t
        qrow[1], qcol[1] = n - 1, b
        qrow[2], qcol[2] = left_row, 0
        qrow[3], qcol[3] = right_row, n - 1
        m = 0
        for row in range(1, n - 1):
            if row != left_row and row != right_row:
                free[m] = row
                m += 1
        if m == 0:
            total += weights[s]
            continue
        for i in range(m - 1):
            shifts[i] = free[i + 1] - free[i]
        first = free[0]
        cols = 0
        ld = 0  # falling diagonals (column - row constant): shifted left each row
        rd = 0  # rising diagonals (column + row constant): shifted right each row
        for k in range(4):
            q = qcol[k]
            cols |= 1 << (q + off)
            ld |= 1 << (q - qrow[k] + first + off)
            p = q + qrow[k] - first + off
            if p >= 0:
                rd |= 1 << p
        avail = window & ~(cols | ld | rd)
        if m <= 7:
            total += weights[s] * _fill(m, avail, cols, ld, rd, shifts, 0, window)
            continue
        last = m - 7  # the first free row of the nests (``_nest_7``)
        count = 0
        sp = 0
        while True:
            while avail:
                bit = avail & -avail
                avail ^= bit
                sh = shifts[sp]
                ncols = cols | bit
                nld = (ld | bit) << sh
                nrd = (rd | bit) >> sh
                navail = window & ~(ncols | nld | nrd)
                if navail == 0:
                    continue
                steps += 1
                if sp + 1 == last:
                    if flag[0] != 0:
                        return STOPPED, steps
                    count += _nest_7(navail, ncols, nld, nrd, shifts, last, window)
                    continue
                st_cols[sp], st_ld[sp], st_rd[sp], st_avail[sp] = cols, ld, rd, avail
                sp += 1
                cols, ld, rd, avail = ncols, nld, nrd, navail
            if sp == 0:
                break
            sp -= 1
            cols, ld, rd, avail = st_cols[sp], st_ld[sp], st_rd[sp], st_avail[sp]
        total += weights[s] * count
    return total, steps


@jit
def _turn_orbit(n, quarter, r, c, rows, cols):
    """The cells of (r, c)'s orbit under the half turn (or the quarter turns) into ``rows`` and
    ``cols``; returns how many (1 for the centre, else 2 or 4)."""
    m = n - 1
    rows[0], cols[0] = r, c
    if 2 * r == m and 2 * c == m:
        return 1
    if quarter:
        rows[1], cols[1] = c, m - r
        rows[2], cols[2] = m - r, m - c
        rows[3], cols[3] = m - c, r
        return 4
    rows[1], cols[1] = m - r, m - c
    return 2


@jit
def classic_turn_count(n, quarter, flag):
    """Count the classic placements that a half turn (or, with ``quarter``, a quarter turn) of
    the board maps onto themselves: the fixed points that Burnside's lemma needs for the classes.
    Returns ``(count, steps)``, or ``(STOPPED, steps)`` when the stop flag was set.

    The queens of such a placement come in orbits (two or four cells, or the centre alone), so
    the search puts down whole orbits: the first row without a queen gets one, column by column,
    each orbit checked against itself and the queens already placed.
    """
    m = n - 1
    taken_row = np.zeros(n, dtype=np.bool_)
    taken_col = np.zeros(n, dtype=np.bool_)
    taken_d1 = np.zeros(2 * n, dtype=np.bool_)  # r - c + n - 1
    taken_d2 = np.zeros(2 * n, dtype=np.bool_)  # r + c
    orbit_r = np.empty(4, dtype=np.int64)
    orbit_c = np.empty(4, dtype=np.int64)
    level_row = np.empty(n + 1, dtype=np.int64)
    level_next = np.empty(n + 1, dtype=np.int64)  # the next column to try
    level_on = np.empty(n + 1, dtype=np.int64)  # the column of the orbit standing, or -1
    count = 0
    steps = 0
    depth = 0
    level_row[0], level_next[0], level_on[0] = 0, 0, -1
    while depth >= 0:
        steps += 1
        if (steps & CHECK_MASK) == 0 and flag[0] != 0:
            return STOPPED, steps
        r = level_row[depth]
        if level_on[depth] >= 0:  # take back this level's orbit before trying the next column
            k = _turn_orbit(n, quarter, r, level_on[depth], orbit_r, orbit_c)
            for i in range(k):
                taken_row[orbit_r[i]] = False
                taken_col[orbit_c[i]] = False
                taken_d1[orbit_r[i] - orbit_c[i] + m] = False
                taken_d2[orbit_r[i] + orbit_c[i]] = False
            level_on[depth] = -1
        c = level_next[depth]
        if c >= n:
            depth -= 1
            continue
        level_next[depth] = c + 1
        k = _turn_orbit(n, quarter, r, c, orbit_r, orbit_c)
        ok = True
        for i in range(k):
            a, b = orbit_r[i], orbit_c[i]
            if taken_row[a] or taken_col[b] or taken_d1[a - b + m] or taken_d2[a + b]:
                ok = False
            for j in range(i):
                a2, b2 = orbit_r[j], orbit_c[j]
                if a == a2 or b == b2 or a - b == a2 - b2 or a + b == a2 + b2:
                    ok = False
        if not ok:
            continue
        for i in range(k):
            taken_row[orbit_r[i]] = True
            taken_col[orbit_c[i]] = True
            taken_d1[orbit_r[i] - orbit_c[i] + m] = True
            taken_d2[orbit_r[i] + orbit_c[i]] = True
        level_on[depth] = c
        nxt = r
        while nxt < n and taken_row[nxt]:
            nxt += 1
        if nxt == n:
            count += 1
            continue
        depth += 1
        level_row[depth], level_next[depth], level_on[depth] = nxt, 0, -1
    return count, steps


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
