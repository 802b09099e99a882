"""Torus queen kernels: the orbit search (one least image per orbit of the largest torus group,
counted or listed), the least image of a placement under a group, and the stabiliser search the
orbit search replaced (kept as a cross-check and for the benchmark).

A placement is a column per row (``placed[r]``); masks hold one bit per column (``n <= 62``).
Every search reads the stop flag (``flag[0] != 0``, see :mod:`boardpuzzles.limits`) every
``CHECK_EVERY`` steps and returns ``STOPPED`` (-1) when it is set.
"""

from __future__ import annotations

import numpy as np

from boardpuzzles._kernels import CHECK_MASK, STOPPED, jit
from boardpuzzles._kernels.bits import lowest_bit_index, popcount

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
def _least_image_stabiliser(n, placed, anchor_cnt, anchor_map, maps, row2, levels, scratch, stab):
    """For a complete placement: 0 when one of its images with the same rows 0 and 1 is smaller,
    else the size of its stabiliser in G, with ``stab[l]`` = the part of it whose point map has
    level <= l. ``scratch``: four rows of n, the inverses of the placement (row of a column, of
    a falling and of a rising diagonal) and the image being compared. The tables (see
    ``OrbitTables``) come apart: this runs at every complete placement."""
    pinv = scratch[0]
    dinv = scratch[1]
    ainv = scratch[2]
    img = scratch[3]
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
def _add_orbit(n, placed, tables, scratch, stab, out, listed):
    """A complete placement: when it is the least image of its orbit, add the orbit's size to
    ``out[0]`` and its number of classes under each subgroup l to ``out[1 + l]``, and write it
    into row ``out[-1]`` of ``listed`` (when that row exists; ``out[-1]`` counts them all)."""
    maps = tables.maps
    total = _least_image_stabiliser(
        n, placed, tables.anchor_cnt, tables.anchor_map, maps, tables.row2, tables.levels, scratch, stab
    )
    if total > 0:
        out[0] += n * n * maps.shape[0] // total
        for level in range(tables.group_index.shape[0]):
            out[1 + level] += tables.group_index[level] * stab[level] // total
        last = out.shape[0] - 1
        if out[last] < listed.shape[0]:
            listed[out[last], :] = placed
        out[last] += 1


@jit
def _forbid_triples(r, c, qr, qc, count, tri_cnt, tri_off, free, masks):
    """A queen put on (r, c) next to ``count`` queens (qr, qc): forbid, in the free rows of
    ``masks`` (one per row of the n x n board), every cell that would complete an excluded triple
    with it and one of them (``tri_cnt``, ``tri_off``: see ``OrbitTables``). (A cell in a row
    already taken needs nothing: its queen was checked when it was put down.) The tables come
    apart, not in their bundle: this runs at every node."""
    n = masks.shape[0]
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
def torus_orbit_search(n, fixed, tables, out, listed, flag):
    """Add the orbits whose least image holds the queens ``fixed`` to ``out`` (see above), and
    list their least images in ``listed`` (as many rows as it has; none for a count).

    ``fixed``: (k, 2) queens as (row, column); the first three are (0, 0), (1, a), (2, c2).
    ``tables``: one bundle (a named tuple, built once per start by the caller) of the tables the
    search reads. ``attack[d, c]``: the columns a queen in column c forbids d rows below (its column and
    diagonals, and the cells at differences excluded for this a). ``tri_cnt``/``tri_off``: for
    two queens p, q with q - p = (dr, dc), the offsets from p of the cells that would complete
    an excluded triple. ``anchor_cnt``/``anchor_map``: the point maps that send a difference to
    (1, a). ``maps``: the point maps as rows a, b, c, d ((r, q) -> (a r + b q, c r + d q));
    ``row2[m]`` = (family, k): map m sends row 2 to the line x_r = k, x_q = k, x_r - x_q = k or
    x_r + x_q = k (family 0..3) through the anchor queen. ``levels[m]``: the smallest subgroup
    (0, 1, ...) that holds map m; ``group_index[l]``: that subgroup's index in the whole group.

    Adds to ``out[0]`` the orbit sizes under the whole group (n^2 |maps| / |stabiliser|), to
    ``out[1 + l]`` the number of classes under subgroup l (group_index[l] |stabiliser in it| /
    |stabiliser|), and to ``out[-1]`` the number of orbits. Returns the number of steps, or
    ``STOPPED`` when the stop flag was set.
    """
    full = (1 << n) - 1
    attack = tables.attack
    tri_cnt = tables.tri_cnt
    tri_off = tables.tri_off
    placed = np.zeros(n, dtype=np.int64)
    qr = np.empty(n, dtype=np.int64)  # the queens in the order they were put down
    qc = np.empty(n, dtype=np.int64)
    open_cols = np.empty((n + 1, n), dtype=np.int64)  # per depth, per row
    scratch = np.empty((4, n), dtype=np.int64)
    stab = np.zeros(tables.group_index.shape[0], dtype=np.int64)
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
            _forbid_triples(r, c, qr, qc, i, tri_cnt, tri_off, free, open_cols[0])
        qr[i] = r
        qc[i] = c
    nfixed = fixed.shape[0]
    if free == 0:
        _add_orbit(n, placed, tables, scratch, stab, out, listed)
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
            _add_orbit(n, placed, tables, scratch, stab, out, listed)
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
            _forbid_triples(r, c, qr, qc, nfixed + sp, tri_cnt, tri_off, free2, open_cols[sp + 1])
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
def torus_least_image(perm, maps, image, least):
    """Write into ``least`` the lexicographically least image of the placement ``perm`` under
    the point maps ``maps`` (rows a, b, c, d: (r, q) -> (a r + b q, c r + d q)) and the shifts
    of the n x n torus. ``image``: scratch of n."""
    n = perm.shape[0]
    least[0] = n  # above any image
    for m in range(maps.shape[0]):
        a, b, c, d = maps[m, 0], maps[m, 1], maps[m, 2], maps[m, 3]
        for s in range(n):  # the shift that brings the image of row s's queen to (0, 0)
            r0 = (a * s + b * perm[s]) % n
            q0 = (c * s + d * perm[s]) % n
            for r in range(n):
                image[(a * r + b * perm[r] - r0) % n] = (c * r + d * perm[r] - q0) % n
            for r in range(n):
                if image[r] != least[r]:
                    if image[r] < least[r]:
                        least[:] = image
                    break


@jit
def torus_class_images(placements, cosets, maps, out):
    """``out[i, k]``: the least image (:func:`torus_least_image` under ``maps``) of placement i
    of ``placements`` moved by the point map ``cosets[k]``."""
    n = placements.shape[1]
    moved = np.empty(n, dtype=np.int64)
    image = np.empty(n, dtype=np.int64)
    for i in range(placements.shape[0]):
        for k in range(cosets.shape[0]):
            a, b, c, d = cosets[k, 0], cosets[k, 1], cosets[k, 2], cosets[k, 3]
            for r in range(n):
                moved[(a * r + b * placements[i, r]) % n] = (c * r + d * placements[i, r]) % n
            torus_least_image(moved, maps, image, out[i, k])
