"""Knight's tour kernels: exact path search (count or list), a Warnsdorff walk, a frontier DP.

The graph comes in as tables, so one kernel serves every board shape: ``moves[v, :n_moves[v]]``
are the squares a knight reaches from ``v``. Only ``puzzles.knights_tour`` calls these.

Exact pruning (see ``path_search``): while the tour is at ``head``, an unvisited square ``x`` can
still be entered or left through its unvisited neighbours and, if it is next to ``head``, from
``head``. Every square but the last needs two such ways, the last needs one. Leaving ``head``
for ``w`` takes one way from each other unvisited neighbour of ``head`` and from no one else
(knight moves change colour, so no neighbour of ``head`` is next to ``w``). So the test runs
only over the neighbours of ``head``: one left with no way kills the branch, one left with a
single way becomes the tour's forced last square, and there is room for one such square only.
"""

from __future__ import annotations

import numpy as np

from boardpuzzles._kernels import CHECK_MASK, STOPPED, jit
from boardpuzzles._kernels.bits import lowest_bit_index, popcount

#: ``count_cycles``'s status when the stop flag was set.
STOPPED_SWEEP = -3


@jit
def path_search(reach, prefix, end, out, cap, flag):
    """Hamiltonian paths of a graph of at most 64 vertices that start with ``prefix``.

    ``reach[v]`` is the bitmask of v's neighbours. ``end`` >= 0 names the vertex the path must
    end on. Returns the number of paths. With ``cap`` >= 0 the first ``cap`` paths are written
    to the rows of ``out`` and the search stops at ``cap + 1`` paths (so a result above ``cap``
    means "more than cap"); with ``cap`` < 0 it only counts. Returns ``STOPPED`` when the stop
    flag ``flag[0]`` was set.
    """
    vertices = reach.shape[0]
    unvisited = np.int64(-1) if vertices == 64 else (np.int64(1) << vertices) - 1
    path = np.empty(vertices, np.int32)
    plen = prefix.shape[0]
    for i in range(plen):
        v = prefix[i]
        if not (unvisited >> v) & 1:
            return 0
        if i > 0 and not (reach[prefix[i - 1]] >> v) & 1:
            return 0
        if v == end and i != vertices - 1:
            return 0
        unvisited &= ~(np.int64(1) << v)
        path[i] = v
    head = prefix[plen - 1]
    remaining = vertices - plen
    if remaining == 0:
        if cap > 0:
            out[0, :] = path
        return 1
    # The forced last squares of this state, found by looking at every square once.
    forced = 0
    rest = unvisited
    while rest:
        x = lowest_bit_index(rest)
        rest &= rest - 1
        next_to_head = (reach[head] >> x) & 1
        ways = popcount(reach[x] & unvisited) + next_to_head
        if ways == 0:
            return 0
        if x == end or (ways == 1 and not next_to_head):
            forced += 1
    if forced > 1:
        return 0
    end_bit = np.int64(0) if end < 0 else np.int64(1) << end

    found = 0
    # Per stack level: the moves still to try and, among them, the squares left with a single
    # way (moving there spends the forced end they would otherwise claim).
    levels = remaining + 1
    moves_left = np.zeros(levels, np.int64)
    singles_at = np.zeros(levels, np.int64)
    base = np.zeros(levels, np.int32)
    top = 0
    depth = plen  # index in ``path`` of the next square
    h = head
    f = forced
    steps = 0
    while True:
        steps += 1
        if (steps & CHECK_MASK) == 0 and flag[0] != 0:
            return STOPPED
        # ---- expand h: leaving it takes a way from each of its other unvisited neighbours
        around = reach[h] & unvisited
        singles = np.int64(0)
        stranded = False
        rest = around
        while rest:
            x = lowest_bit_index(rest)
            rest &= rest - 1
            ways = popcount(reach[x] & unvisited)
            if ways == 0:
                stranded = True  # even the end: it cannot come next
                break
            if ways == 1:
                singles |= np.int64(1) << x
        singles &= ~end_bit
        claimed = f + popcount(singles)
        if stranded or claimed > 2:
            allowed = np.int64(0)
        elif claimed == 2:
            allowed = singles  # only a move onto one of them leaves a single forced end
        else:
            allowed = around & ~end_bit
        if remaining == 2:
            # Each allowed move leaves one square, which still has a way in: one path each.
            if cap < 0:
                found += popcount(allowed)
            else:
                while allowed:
                    w = lowest_bit_index(allowed)
                    allowed &= allowed - 1
                    found += 1
                    if found > cap:
                        return found
                    out[found - 1, :depth] = path[:depth]
                    out[found - 1, depth] = w
                    out[found - 1, depth + 1] = lowest_bit_index(unvisited & ~(np.int64(1) << w))
            allowed = np.int64(0)
        moves_left[top] = allowed
        singles_at[top] = singles
        base[top] = claimed
        # ---- take the next move, backing up through exhausted levels
        while moves_left[top] == 0:
            if top == 0:
                return found
            top -= 1
            depth -= 1
            remaining += 1
            unvisited |= np.int64(1) << path[depth]
        m = moves_left[top]
        w = lowest_bit_index(m)
        moves_left[top] = m & (m - 1)
        f = base[top] - ((singles_at[top] >> w) & 1)
        unvisited &= ~(np.int64(1) << w)
        path[depth] = w
        depth += 1
        remaining -= 1
        top += 1
        h = w


@jit
def _adjacent(moves, n_moves, a, b):
    for k in range(n_moves[a]):
        if moves[a, k] == b:
            return True
    return False


@jit
def warnsdorff_walk(moves, n_moves, start, tie_key, rng_seed, randomise, max_rotations, flag):
    """A greedy walk from ``start``: always move to the unvisited square with the fewest onward
    moves; ties go to the larger ``tie_key`` (Roth: farther from the centre), or at random when
    ``randomise``. Stuck before the end, it rotates the walk (see ``_rotate``) to get a new last
    square that can go on, at most ``max_rotations`` times in all. Returns the walk; it is a
    tour when its length is the board's (it stops short when the stop flag is set)."""
    vertices = moves.shape[0]
    np.random.seed(rng_seed)
    visited = np.zeros(vertices, np.uint8)
    free = n_moves.astype(np.int32)
    walk = np.empty(vertices, np.int32)
    position = np.empty(vertices, np.int64)
    v = start
    length = 0
    rotations = 0
    while True:
        if (length & CHECK_MASK) == 0 and flag[0] != 0:
            return walk[:length]
        walk[length] = v
        position[v] = length
        length += 1
        visited[v] = 1
        for k in range(n_moves[v]):
            free[moves[v, k]] -= 1
        while True:
            best = -1
            best_free = 99
            best_key = -1.0
            ties = 0
            for k in range(n_moves[v]):
                x = moves[v, k]
                if visited[x]:
                    continue
                if free[x] < best_free or (free[x] == best_free and not randomise and tie_key[x] > best_key):
                    best, best_free, best_key, ties = x, free[x], tie_key[x], 1
                elif free[x] == best_free and randomise:
                    ties += 1
                    if np.random.randint(ties) == 0:  # reservoir sampling: each tie equally likely
                        best = x
            if best >= 0 or length == vertices or rotations >= max_rotations:
                break
            # Stuck: prefer a rotation whose new last square has an unvisited neighbour.
            pick = -1
            for k in range(n_moves[v]):
                i = position[moves[v, k]]
                if i < length - 2 and free[walk[i + 1]] > 0:
                    pick = i
                    break
            if pick < 0:
                pick = position[moves[v, np.random.randint(n_moves[v])]]
            rotations += 1
            if pick < length - 2:
                _rotate(walk, position, pick + 1, length - 1)
            v = walk[length - 1]
        if best < 0:
            return walk[:length]
        v = best


@jit
def _rotate(path, position, lo, hi):
    """Reverse ``path[lo:hi + 1]`` (a Posa rotation when ``hi`` is the last square and
    ``path[lo - 1]`` is next to it: the walk stays a walk, with a new last square)."""
    while lo < hi:
        a = path[lo]
        b = path[hi]
        path[lo] = b
        path[hi] = a
        position[b] = lo
        position[a] = hi
        lo += 1
        hi -= 1


@jit
def close_by_rotations(moves, n_moves, path, cols, max_rotations, rng_seed, flag):
    """Turn a Hamiltonian path into a cycle by Posa rotations, in place.

    A rotation reverses the tail of the path after a neighbour of its last square, which gives
    a new last square two knight's moves away. Each rotation picks the new last square nearest
    to the first square (a random one when none is nearer), so the end walks straight towards
    the start instead of wandering: a few hundred rotations on a 1000x1000 board. Returns True
    when ``path`` now ends next to its first square (False too when the stop flag is set)."""
    vertices = path.shape[0]
    np.random.seed(rng_seed)
    position = np.empty(vertices, np.int64)
    for i in range(vertices):
        position[path[i]] = i
    first = path[0]
    fr, fc = first // cols, first % cols
    for _ in range(max_rotations):
        if flag[0] != 0:  # a rotation costs up to a whole reversal: look every time
            return False
        last = path[vertices - 1]
        if _adjacent(moves, n_moves, last, first):
            return True
        lr, lc = last // cols, last % cols
        best = -1
        best_distance = (lr - fr) ** 2 + (lc - fc) ** 2
        for k in range(n_moves[last]):
            i = position[moves[last, k]]
            if i >= vertices - 2:
                continue
            new_last = path[i + 1]
            if _adjacent(moves, n_moves, new_last, first):
                best = i
                break
            distance = (new_last // cols - fr) ** 2 + (new_last % cols - fc) ** 2
            if distance < best_distance:
                best, best_distance = i, distance
        if best < 0:  # no rotation gets nearer: take a random one to leave the dead end
            best = position[moves[last, np.random.randint(n_moves[last])]]
            if best >= vertices - 2:
                continue
        _rotate(path, position, best + 1, vertices - 1)
    return _adjacent(moves, n_moves, path[vertices - 1], first)


# ---------------------------------------------------------------------- closed tours: frontier DP
# The sweep visits squares in order (row by row along the long side, ``width`` squares a row).
# When square v is decided, every edge to an earlier square is already chosen, and the squares
# that may hold chosen edges are v .. v + 2*width + 1 (a knight reaches at most two rows on).
# A state is that window, 4 bits a square: 0 = no tour edge yet, 1 = both edges chosen, and
# 2.. = a path end, labelled so that the two ends of one path share a label. Labels are renamed
# in order of appearance, so equal situations meet in one state and their counts add up.
NIBBLE = 4
FULL = 1


@jit
def _slot(state, j):
    return (state >> (NIBBLE * j)) & 15


@jit
def _set(state, j, value):
    return (state & ~(np.int64(15) << (NIBBLE * j))) | (np.int64(value) << (NIBBLE * j))


@jit
def _join(state, a, b, slots):
    """Add the tour edge between window squares a and b. Returns (state, closed, ok)."""
    la = _slot(state, a)
    lb = _slot(state, b)
    if la == FULL or lb == FULL:
        return state, False, False
    if la == 0 and lb == 0:
        state = _set(_set(state, a, 15), b, 15)  # a new path; 15 is renamed by _canonical
    elif la == 0:
        state = _set(_set(state, a, lb), b, FULL)
    elif lb == 0:
        state = _set(_set(state, b, la), a, FULL)
    elif la == lb:
        return _set(_set(state, a, FULL), b, FULL), True, True  # the path closes into a cycle
    else:
        state = _set(_set(state, a, FULL), b, FULL)
        for j in range(slots):  # b's partner now pairs with a's partner
            if _slot(state, j) == lb:
                state = _set(state, j, la)
    return state, False, True


@jit
def _canonical(state, slots, rename):
    """Rename path labels 2, 3, ... in order of first appearance (``rename``: 16 scratch words)."""
    rename[:] = 0
    nxt = 2
    out = np.int64(0)
    for j in range(slots):
        label = _slot(state, j)
        if label >= 2:
            if rename[label] == 0:
                rename[label] = nxt
                nxt += 1
            label = rename[label]
        out |= np.int64(label) << (NIBBLE * j)
    return out


@jit
def _table_insert(table, key, count):
    """Add ``count`` to ``key`` in an open-addressing table of (key, count) rows (empty rows hold
    key -1; a key and its count share a cache line). Returns 1 when the key is new, -1 when the
    count outgrew 63 bits."""
    mask = table.shape[0] - 1
    i = (key * np.int64(-7046029254386353131)) >> np.int64(20) & mask
    while True:
        if table[i, 0] == key:
            table[i, 1] += count
            return -1 if table[i, 1] < 0 else 0  # counts are positive: a wrap shows as negative
        if table[i, 0] == -1:
            table[i, 0] = key
            table[i, 1] = count
            return 1
        i = (i + 1) & mask


@jit
def count_cycles(moves, n_moves, width, max_states, current, first, stop, total, flag):
    """Part of the count of Hamiltonian cycles of a knight graph swept row by row (``width``
    squares a row, rows along the long side): takes the frontier states ``current`` (rows of
    state, ways; ``[[0, 1]]`` at vertex 0) and the cycles counted so far in ``total``, sweeps
    the vertices ``first`` to ``stop`` - 1, and returns ``(current, total, status)``, so a
    caller can sweep in pieces and stop between them. ``status`` is 0, or -1 when more than
    ``max_states`` states would be needed (stopped before exhausting memory), -2 when the
    count outgrows 63 bits, or ``STOPPED_SWEEP`` (-3) when the stop flag ``flag[0]`` was set."""
    vertices = moves.shape[0]
    slots = 2 * width + 2
    forward = np.empty(8, np.int64)
    rename = np.zeros(16, np.int64)
    for v in range(first, stop):
        n_forward = 0
        for k in range(n_moves[v]):
            if moves[v, k] > v:
                forward[n_forward] = moves[v, k] - v
                n_forward += 1
        last_window = v + slots >= vertices  # no square lies beyond the window
        capacity = 1024
        while capacity < 2 * current.shape[0]:
            capacity *= 2
        table = np.full((capacity, 2), -1, np.int64)
        stored = 0
        for s in range(current.shape[0]):
            if (s & CHECK_MASK) == 0 and flag[0] != 0:
                return current, total, STOPPED_SWEEP
            state = current[s, 0]
            ways = current[s, 1]
            leaving = _slot(state, 0)  # the square the window slides past
            need = 2 if leaving == 0 else (0 if leaving == FULL else 1)
            # Every choice of ``need`` forward edges, as a bitmask over ``forward``.
            for choice in range(1 << n_forward):
                bits = 0
                c = choice
                while c:
                    bits += 1
                    c &= c - 1
                if bits != need:
                    continue
                new = state
                ok = True
                closed = False
                for k in range(n_forward):
                    if (choice >> k) & 1:
                        if closed:
                            ok = False
                            break
                        new, closed, ok = _join(new, 0, forward[k], slots)
                        if not ok:
                            break
                if not ok:
                    continue
                if closed:
                    # Only the last edge of the tour may close a cycle: everything covered.
                    if not last_window:
                        continue
                    everything = True
                    for j in range(slots):
                        if v + j < vertices and _slot(new, j) != FULL:
                            everything = False
                    if everything:
                        total += ways
                        if total < 0:
                            return current, total, -2
                    continue
                new = _canonical(new >> NIBBLE, slots, rename)  # v is done: slide the window on
                added = _table_insert(table, new, ways)
                if added < 0:
                    return current, total, -2
                stored += added
                if stored > max_states:
                    return current, total, -1
                if 2 * stored > capacity:  # keep the table at most half full
                    capacity *= 2
                    grown = np.full((capacity, 2), -1, np.int64)
                    for i in range(table.shape[0]):
                        if table[i, 0] != -1:
                            _table_insert(grown, table[i, 0], table[i, 1])
                    table = grown
        current = np.empty((stored, 2), np.int64)
        n = 0
        for i in range(table.shape[0]):
            if table[i, 0] != -1:
                current[n, 0] = table[i, 0]
                current[n, 1] = table[i, 1]
                n += 1
        if stored == 0:
            break
    return current, total, 0
