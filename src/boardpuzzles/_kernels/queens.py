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
def torus_search(n, prefix, attack, stabiliser, flag):
    """Count the torus placements whose rows 0..len(prefix)-1 hold ``prefix`` (the method before
    :func:`torus_orbit_search`, kept as an independent cross-check and for the benchmark).

    Keeps, per free row, the columns still open there, and always branches on the free row with
    the fewest (a row with none ends the branch at once). Returns ``(placements, steps)``, or
    ``(STOPPED, steps)`` when the stop flag was set. ``attack[d, c]``: the columns a queen in
    column c attacks d rows below.

    With ``stabiliser`` (prefix = (0, a, ...)): the 8 rotations and reflections that keep the
    queen on (0, 0) send the row-1 offset a to one of a, -a, b, -b, c, -c, d, -d (see
    ``_stabiliser_multiplicity``). Only placements where a is the least of these are searched
    (b, c, d confined to [a, n - a]: plain mask restrictions), each weighted 8 / N, so every
    orbit adds exactly its size. ``placements`` is then that weighted sum in units of
    1 / STABILISER_UNIT.
    """
    full = (1 << n) - 1
    k = prefix.shape[0]
    weigh = stabiliser and n >= 5 and k >= 2
    placed = np.zeros(n, dtype=np.int64)
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
        return 1, 0
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
    steps = 0
    while sp >= 0:
        steps += 1
        if (steps & CHECK_MASK) == 0 and flag[0] != 0:
            return STOPPED, steps
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
            else:
                placements += 1
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
        if free2 == (1 << best) and not weigh:
            placements += best_count  # the last free row: each open cell completes a placement
            continue
        sp += 1
        st_row[sp], st_cand[sp], st_free[sp] = best, open_cols[sp, best], free2
    return placements, steps


# ---------------------------------------------------------------- the torus: one search per orbit
#
# The torus group G is generated by the n^2 shifts and the point maps (linear maps fixing (0, 0),
# ``maps``). A placement's *image* is its picture under an element of G; its canonical form is
# its lexicographically least image (rows 0, 1, 2, ... compared in turn). The least image has a
# queen on (0, 0), its row-1 queen on the least offset a that any pair of queens can be mapped
# to, and its row-2 queen on the least column c2 that any triple of queens can then be mapped
# to. A search fixes (0, 0), (1, a) and (2, c2) and forbids what would make an image smaller:
# pairs of queens that map to a row-1 offset below a (extra cells in ``attack``), and triples
# that map to (0, 0), (1, a), (2, c') with c' < c2 (``tri_off``, cells forbidden as soon as two
# queens of such a triple stand). Each placement found is then checked at the leaf against the
# images that share its rows 0 and 1 (one per pair of queens that maps onto (0, 0), (1, a)):
# it counts when none is smaller, adding its orbit size n^2 |maps| / |stabiliser| to the
# placements and 1 to the classes.
#
# The classes under a smaller group H (the torus group, the multipliers) come from the same
# search: the orbit of x under G splits into |G| |Stab_H(x)| / (|H| |Stab_G(x)|) orbits of H.
# That holds because H is normal in G (a multiplier u I commutes with every point map, and the
# 45-degree map M = [[1, 1], [1, -1]] conjugates the 8 rotations and reflections into
# themselves), so every y = g x in the orbit has a stabiliser in H of the same size.


@jit
def _least_image_stabiliser(n, placed, anchor_cnt, anchor_map, maps, row2, levels, pinv, dinv, ainv, img, stab):
    """For a complete placement: 0 when one of its images with the same rows 0 and 1 is smaller,
    else the size of its stabiliser in G, with ``stab[l]`` = the part of it whose point map has
    level <= l."""
    for level in range(stab.shape[0]):
        stab[level] = 0
    for r in range(n):
        c = placed[r]
        pinv[c] = r
        dinv[(r - c) % n] = r
        ainv[(r + c) % n] = r
    c2 = placed[2]
    total = 0
    for r0 in range(n):
        c0 = placed[r0]
        for r1 in range(n):
            if r1 == r0:
                continue
            dr = r1 - r0
            if dr < 0:
                dr += n
            dc = placed[r1] - c0
            if dc < 0:
                dc += n
            for j in range(anchor_cnt[dr, dc]):
                m = anchor_map[dr, dc, j]
                # The queen that this image puts in row 2: the one on the line that the map
                # sends to row 2 (a row, column or diagonal through it, see ``row2``).
                fam = row2[m, 0]
                k = row2[m, 1]
                if fam == 0:
                    rr = (r0 + k) % n
                elif fam == 1:
                    rr = pinv[(c0 + k) % n]
                elif fam == 2:
                    rr = dinv[(r0 - c0 + k) % n]
                else:
                    rr = ainv[(r0 + c0 + k) % n]
                x = rr - r0
                y = placed[rr] - c0
                col = (maps[m, 2] * x + maps[m, 3] * y) % n
                if col > c2:
                    continue
                if col < c2:
                    return 0
                # Same rows 0, 1 and 2: compare whole images.
                for r in range(n):
                    x = r - r0
                    y = placed[r] - c0
                    img[(maps[m, 0] * x + maps[m, 1] * y) % n] = (maps[m, 2] * x + maps[m, 3] * y) % n
                diff = 0
                for r in range(3, n):
                    if img[r] != placed[r]:
                        diff = img[r] - placed[r]
                        break
                if diff < 0:
                    return 0
                if diff == 0:
                    total += 1
                    for level in range(levels[m], stab.shape[0]):
                        stab[level] += 1
    return total


@jit
def _forbid_triples(n, r, c, qr, qc, count, tri_cnt, tri_off, free, masks):
    """A queen put on (r, c) next to ``count`` queens (qr, qc): forbid, in the free rows of
    ``masks``, every cell that would complete an excluded triple with it and one of them. (A cell
    in a row already taken needs nothing: its queen was checked when it was put down.)"""
    for j in range(count):
        pr = qr[j]
        pc = qc[j]
        dr = r - pr
        if dr < 0:
            dr += n
        dc = c - pc
        if dc < 0:
            dc += n
        for t in range(tri_cnt[dr, dc]):
            zr = (pr + tri_off[dr, dc, t, 0]) % n
            if (free >> zr) & 1:
                masks[zr] &= ~(1 << ((pc + tri_off[dr, dc, t, 1]) % n))


@jit
def torus_orbit_search(
    n, fixed, attack, tri_cnt, tri_off, anchor_cnt, anchor_map, maps, row2, levels, index, out, flag
):
    """Add the orbits whose least image holds the queens ``fixed`` to ``out`` (see above).

    ``fixed``: (k, 2) queens as (row, column); the first three are (0, 0), (1, a), (2, c2).
    ``attack[d, c]``: the columns a queen in column c forbids d rows below (its column and
    diagonals, and the cells at differences excluded for this a). ``tri_cnt``/``tri_off``: for
    two queens p, q with q - p = (dr, dc), the offsets from p of the cells that would complete
    an excluded triple. ``anchor_cnt``/``anchor_map``: the point maps that send a difference to
    (1, a). ``maps``: the point maps as rows a, b, c, d ((r, q) -> (a r + b q, c r + d q));
    ``row2[m]`` = (family, k): map m sends row 2 to the line x_r = k, x_q = k, x_r - x_q = k or
    x_r + x_q = k (family 0..3) through the anchor queen. ``levels[m]``: the smallest subgroup
    (0, 1, ...) that holds map m; ``index[l]``: that subgroup's index in the whole group.

    Adds to ``out[0]`` the orbit sizes under the whole group (n^2 |maps| / |stabiliser|), and
    to ``out[1 + l]`` the number of classes under subgroup l (index[l] |stabiliser in it| /
    |stabiliser|). Returns the number of steps, or ``STOPPED`` when the stop flag was set.
    """
    full = (1 << n) - 1
    order = n * n * maps.shape[0]
    nlev = index.shape[0]
    placed = np.zeros(n, dtype=np.int64)
    qr = np.empty(n, dtype=np.int64)  # the queens in the order they were put down
    qc = np.empty(n, dtype=np.int64)
    open_cols = np.empty((n + 1, n), dtype=np.int64)  # per depth, per row
    pinv = np.empty(n, dtype=np.int64)
    dinv = np.empty(n, dtype=np.int64)
    ainv = np.empty(n, dtype=np.int64)
    img = np.empty(n, dtype=np.int64)
    stab = np.zeros(nlev, dtype=np.int64)
    triples = tri_off.shape[2] > 0
    for r in range(n):
        open_cols[0, r] = full
    free = full
    for i in range(fixed.shape[0]):
        r = fixed[i, 0]
        c = fixed[i, 1]
        if r < 0 or r >= n or c < 0 or c >= n or not (free >> r) & 1 or not (open_cols[0, r] >> c) & 1:
            return 0
        placed[r] = c
        free &= ~(1 << r)
        rows = free
        while rows:
            r2 = lowest_bit_index(rows)
            rows &= rows - 1
            open_cols[0, r2] &= ~attack[(r2 - r) % n, c]
        if triples:
            _forbid_triples(n, r, c, qr, qc, i, tri_cnt, tri_off, free, open_cols[0])
        qr[i] = r
        qc[i] = c
    nfixed = fixed.shape[0]
    if free == 0:
        total = _least_image_stabiliser(
            n, placed, anchor_cnt, anchor_map, maps, row2, levels, pinv, dinv, ainv, img, stab
        )
        if total > 0:
            out[0] += order // total
            for level in range(nlev):
                out[1 + level] += index[level] * stab[level] // total
        return 1
    st_row = np.empty(n + 1, dtype=np.int64)
    st_cand = np.empty(n + 1, dtype=np.int64)
    st_free = np.empty(n + 1, dtype=np.int64)
    best, best_count = -1, n + 1
    rows = free
    while rows:
        r = lowest_bit_index(rows)
        rows &= rows - 1
        cnt = popcount(open_cols[0, r])
        if cnt == 0:
            return 1
        if cnt < best_count:
            best, best_count = r, cnt
    sp = 0
    st_row[0], st_cand[0], st_free[0] = best, open_cols[0, best], free
    steps = 0
    while sp >= 0:
        steps += 1
        if (steps & CHECK_MASK) == 0 and flag[0] != 0:
            return STOPPED
        cand = st_cand[sp]
        if cand == 0:
            sp -= 1
            continue
        bit = cand & -cand
        st_cand[sp] = cand ^ bit
        r = st_row[sp]
        c = lowest_bit_index(bit)
        placed[r] = c
        qr[nfixed + sp] = r
        qc[nfixed + sp] = c
        free2 = st_free[sp] & ~(1 << r)
        if free2 == 0:
            total = _least_image_stabiliser(
                n, placed, anchor_cnt, anchor_map, maps, row2, levels, pinv, dinv, ainv, img, stab
            )
            if total > 0:
                out[0] += order // total
                for level in range(nlev):
                    out[1 + level] += index[level] * stab[level] // total
            continue
        # Narrow every other free row; then forbid the cells that complete excluded triples.
        dead = False
        rows = free2
        while rows:
            r2 = lowest_bit_index(rows)
            rows &= rows - 1
            d = r2 - r
            if d < 0:
                d += n
            left = open_cols[sp, r2] & ~attack[d, c]
            if left == 0:
                dead = True
                break
            open_cols[sp + 1, r2] = left
        if dead:
            continue
        if triples:
            _forbid_triples(n, r, c, qr, qc, nfixed + sp, tri_cnt, tri_off, free2, open_cols[sp + 1])
        best, best_count = -1, n + 1
        rows = free2
        while rows:
            r2 = lowest_bit_index(rows)
            rows &= rows - 1
            cnt = popcount(open_cols[sp + 1, r2])
            if cnt == 0:
                best = -1
                break
            if cnt < best_count:
                best, best_count = r2, cnt
        if best < 0:
            continue
        sp += 1
        st_row[sp], st_cand[sp], st_free[sp] = best, open_cols[sp, best], free2
    return steps


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
