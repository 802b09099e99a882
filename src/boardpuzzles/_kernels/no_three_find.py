"""Finding one no-three-in-line board on a large size: a search over the orbits of a symmetry.

A board with a symmetry holds each orbit (a set of cells the symmetry permutes) whole or not at
all, so the search decides orbits. Everything it needs about lines is one table, made once per
size: for two orbits ``a <= b``, ``conflict[pair(a, b)]`` is the set (a bitset of orbits, 64 to
a word) of orbits holding a cell on a line through a cell of ``a`` and a cell of ``b``: once
``a`` and ``b`` are both placed, those orbits are ruled out. ``bad[a]`` holds the orbits that
cannot go with ``a`` at all (three of the cells of the two on one line). Placing an orbit then
costs one OR of a bitset per orbit already placed, whatever the number of slopes.

Rows (and columns) must hold exactly 2 stones: ``mask1[r]`` are the orbits with a cell in row
``r``, ``mask2[r]`` those with two. A row that can just reach 2 with the orbits still open takes
them all; one that cannot ends the branch (unit propagation, repeated until nothing changes).
The search picks the row with the least room to spare, tries one of its orbits (random among
the open ones), and on failure rules it out; restarts with fresh random choices are driven from
Python. Twin: ``tests/test_less_than_three_find.py`` (plain backtracking over the same orbits).

Tables come in as one bundle, :class:`OrbitTables`; words are int64 (bit 63 is the sign bit, which
is fine for bitsets).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from boardpuzzles._kernels import CHECK_MASK, jit
from boardpuzzles._kernels.bits import lowest_bit_index, popcount

#: ``search``'s status: a board was found, the class holds none, the budget ran out, stopped.
FOUND = 1
NONE = 0
OUT_OF_BUDGET = -1
STOPPED = -2


class OrbitTables(NamedTuple):
    """What every attempt on one size shares: the number of orbits, ``conflict`` and ``bad`` (see
    above), ``mask1`` and ``mask2`` per row, and per orbit the rows it has cells in
    (``orbit_rows``, padded with -1) with the number of its cells in each (``orbit_weights``)."""

    n_orbits: int
    conflict: np.ndarray
    bad: np.ndarray
    mask1: np.ndarray
    mask2: np.ndarray
    orbit_rows: np.ndarray
    orbit_weights: np.ndarray


@jit
def pair_index(a, b, n_orbits):
    """Row of ``conflict`` for the orbits a and b (either order)."""
    if a > b:
        a, b = b, a
    return a * n_orbits - a * (a - 1) // 2 + (b - a)


@jit
def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


@jit
def conflict_tables(n, orbit_of, n_orbits, words, flag):
    """``(conflict, bad, complete)`` for the orbits ``orbit_of[cell]`` (-1: a cell that stays
    empty) of an n x n board: every pair of cells, the whole line through them. ``complete`` is
    False when the stop flag cut it short."""
    conflict = np.zeros((n_orbits * (n_orbits + 1) // 2, words), dtype=np.int64)
    bad = np.zeros((n_orbits, words), dtype=np.int64)
    one = np.int64(1)
    cells = n * n
    for p in range(cells):
        a = orbit_of[p]
        if a < 0:
            continue
        if (p & 63) == 0 and flag[0] != 0:
            return conflict, bad, False
        pr = p // n
        pc = p % n
        for q in range(p + 1, cells):
            b = orbit_of[q]
            if b < 0:
                continue
            dr = q // n - pr
            dc = q % n - pc
            g = _gcd(abs(dr), abs(dc))
            dr //= g
            dc //= g
            r = pr
            c = pc
            while 0 <= r - dr < n and 0 <= c - dc < n:
                r -= dr
                c -= dc
            t = pair_index(a, b, n_orbits)
            while 0 <= r < n and 0 <= c < n:
                x = r * n + c
                if x != p and x != q:
                    o = orbit_of[x]
                    if o >= 0:
                        conflict[t, o >> 6] |= one << (o & 63)
                        if o == a or o == b:  # three cells of a and b on one line
                            bad[a, b >> 6] |= one << (b & 63)
                            bad[b, a >> 6] |= one << (a & 63)
                r += dr
                c += dc
    return conflict, bad, True


@jit
def _random(state):
    """Park and Miller's minimal standard generator: the next of 1 .. 2**31 - 2."""
    state[0] = state[0] * 48271 % 2147483647
    return state[0]


@jit
def _place(tables, o, placed, closed, placed_list, n_placed, count):
    """Put the stones of orbit o (open) on the board: every orbit it rules out with the orbits
    already placed is closed. Returns the new number of orbits placed."""
    conflict, bad, n_orbits = tables.conflict, tables.bad, tables.n_orbits
    orbit_rows, orbit_weights = tables.orbit_rows, tables.orbit_weights
    words = placed.shape[0]
    one = np.int64(1)
    t = pair_index(o, o, n_orbits)
    for w in range(words):
        closed[w] |= conflict[t, w] | bad[o, w]
    for i in range(n_placed):
        t = pair_index(o, placed_list[i], n_orbits)
        for w in range(words):
            closed[w] |= conflict[t, w]
    placed[o >> 6] |= one << (o & 63)
    closed[o >> 6] |= one << (o & 63)
    placed_list[n_placed] = o
    for j in range(orbit_rows.shape[1]):
        r = orbit_rows[o, j]
        if r < 0:
            break
        count[r] += orbit_weights[o, j]
    return n_placed + 1


@jit
def _propagate(tables, placed, closed, placed_list, n_placed, count):
    """Rows that can just reach 2 take every open orbit they have; returns (ok, n_placed)."""
    mask1, mask2 = tables.mask1, tables.mask2
    words = placed.shape[0]
    rows = mask1.shape[0]
    one = np.int64(1)
    changed = True
    while changed:
        changed = False
        for r in range(rows):
            need = 2 - count[r]
            if need <= 0:
                if need < 0:
                    return False, n_placed
                continue
            room = 0
            for w in range(words):
                open1 = mask1[r, w] & ~closed[w]
                if open1 == 0:
                    continue
                open2 = mask2[r, w] & open1
                if need == 1 and open2 != 0:  # two stones where one fits: never
                    closed[w] |= open2
                    open1 &= ~open2
                    open2 = 0
                    changed = True
                room += popcount(open1) + popcount(open2)
            if room < need:
                return False, n_placed
            if room == need:
                for w in range(words):
                    bits = mask1[r, w] & ~closed[w]
                    while bits != 0:
                        low = lowest_bit_index(bits)
                        bits &= bits - 1
                        o = w * 64 + low
                        if (closed[w] >> low) & one:  # closed by the orbit just placed
                            return False, n_placed
                        n_placed = _place(tables, o, placed, closed, placed_list, n_placed, count)
                changed = True
    return True, n_placed


@jit
def _open_cells(r, closed, mask1, mask2):
    """The cells of row r in orbits still open."""
    room = 0
    for w in range(closed.shape[0]):
        open1 = mask1[r, w] & ~closed[w]
        room += popcount(open1) + popcount(mask2[r, w] & open1)
    return room


@jit
def _room_score(count, closed, mask1, mask2):
    """How much room the rows short of 2 stones keep: the sum of log C(open, missing), the log
    of the number of ways to finish the rows one by one (ignoring the lines); -inf when a row
    cannot be finished."""
    score = 0.0
    for r in range(mask1.shape[0]):
        need = 2 - count[r]
        if need <= 0:
            continue
        room = _open_cells(r, closed, mask1, mask2)
        if room < need:
            return -np.inf
        score += np.log(room) if need == 1 else np.log(room * (room - 1) / 2.0)
    return score


@jit
def _tightest_row(count, closed, mask1, mask2, state):
    """The row short of 2 stones with the least room to spare (ties at random); -1 when every
    row is full."""
    best = -1
    best_slack = 1 << 30
    ties = 0
    for r in range(mask1.shape[0]):
        need = 2 - count[r]
        if need <= 0:
            continue
        room = _open_cells(r, closed, mask1, mask2)
        slack = room - need
        if slack < best_slack:
            best_slack = slack
            best = r
            ties = 1
        elif slack == best_slack:
            ties += 1
            if _random(state) % ties == 0:
                best = r
    return best


@jit
def search(tables, seed, noise, budget, flag, halt):
    """Look for a set of orbits with exactly 2 stones in every row of ``mask1`` and no placed pair
    ruling out a placed third. Returns ``(status, placed, steps)``: ``placed`` is the bitset of the
    orbits of the board found (status ``FOUND``); ``NONE`` when the search was complete,
    ``OUT_OF_BUDGET`` after ``budget`` steps, ``STOPPED`` when ``flag[0]`` or ``halt[0]`` was set.

    Each step takes the tightest row and tries each of its open orbits on a copy (place,
    propagate): an orbit that fails there is ruled out at once, and of the others the one that
    leaves the most room (``_room_score``, plus up to ``noise`` of random jitter) is placed. When
    that branch fails, the orbit is ruled out instead. A step is one orbit tried."""
    n_orbits, bad, mask1, mask2 = tables.n_orbits, tables.bad, tables.mask1, tables.mask2
    words = mask1.shape[1]
    rows = mask1.shape[0]
    one = np.int64(1)
    state = np.array([seed % 2147483646 + 1], dtype=np.int64)
    placed = np.zeros(words, dtype=np.int64)
    closed = np.zeros(words, dtype=np.int64)
    count = np.zeros(rows, dtype=np.int64)
    placed_list = np.zeros(n_orbits + 1, dtype=np.int64)
    n_placed = 0
    # Bits past the last orbit, and orbits that break a line alone, are closed from the start.
    for o in range(n_orbits, words * 64):
        closed[o >> 6] |= one << (o & 63)
    for o in range(n_orbits):
        if (bad[o, o >> 6] >> (o & 63)) & one:
            closed[o >> 6] |= one << (o & 63)
    depth_cap = n_orbits + 1
    s_placed = np.zeros((depth_cap, words), dtype=np.int64)
    s_closed = np.zeros((depth_cap, words), dtype=np.int64)
    s_count = np.zeros((depth_cap, rows), dtype=np.int64)
    s_n = np.zeros(depth_cap, dtype=np.int64)
    s_orbit = np.zeros(depth_cap, dtype=np.int64)
    s_tried_no = np.zeros(depth_cap, dtype=np.bool_)
    t_placed = np.zeros(words, dtype=np.int64)
    t_closed = np.zeros(words, dtype=np.int64)
    t_count = np.zeros(rows, dtype=np.int64)
    depth = 0
    steps = 0
    ok, n_placed = _propagate(tables, placed, closed, placed_list, n_placed, count)
    while True:
        if ok:
            best = _tightest_row(count, closed, mask1, mask2, state)
            if best < 0:
                return FOUND, placed, steps
            # Try each open orbit of the row on a copy.
            o = -1
            best_score = -np.inf
            for w in range(words):
                bits = mask1[best, w] & ~closed[w]
                while bits != 0:
                    low = lowest_bit_index(bits)
                    bits &= bits - 1
                    steps += 1
                    if (steps & CHECK_MASK) == 0 and (flag[0] != 0 or halt[0] != 0):
                        return STOPPED, placed, steps
                    c = w * 64 + low
                    t_placed[:] = placed
                    t_closed[:] = closed
                    t_count[:] = count
                    tn = _place(tables, c, t_placed, t_closed, placed_list, n_placed, t_count)
                    fine, tn = _propagate(tables, t_placed, t_closed, placed_list, tn, t_count)
                    if not fine:
                        closed[w] |= one << low
                        continue
                    score = _room_score(t_count, t_closed, mask1, mask2) + noise * (_random(state) / 2147483647.0)
                    if o < 0 or score > best_score:
                        best_score = score
                        o = c
            if steps > budget:
                return OUT_OF_BUDGET, placed, steps
            # The orbits ruled out may force others, or end the branch.
            ok, n_placed = _propagate(tables, placed, closed, placed_list, n_placed, count)
            if ok and o >= 0 and not ((closed[o >> 6] >> (o & 63)) & one):
                s_placed[depth] = placed
                s_closed[depth] = closed
                s_count[depth] = count
                s_n[depth] = n_placed
                s_orbit[depth] = o
                s_tried_no[depth] = False
                depth += 1
                n_placed = _place(tables, o, placed, closed, placed_list, n_placed, count)
                ok, n_placed = _propagate(tables, placed, closed, placed_list, n_placed, count)
            if ok:
                continue
        # Backtrack: the deepest orbit placed is ruled out instead; a branch that fails both
        # ways is left.
        if depth == 0:
            return NONE, placed, steps
        depth -= 1
        placed[:] = s_placed[depth]
        closed[:] = s_closed[depth]
        count[:] = s_count[depth]
        n_placed = s_n[depth]
        if s_tried_no[depth]:
            continue
        s_tried_no[depth] = True
        o = s_orbit[depth]
        closed[o >> 6] |= one << (o & 63)
        depth += 1
        ok, n_placed = _propagate(tables, placed, closed, placed_list, n_placed, count)
