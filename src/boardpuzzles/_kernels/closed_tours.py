"""Closed knight's tours: a frontier sweep that counts Hamiltonian cycles, one square at a time.

The sweep visits the squares in order, row by row along the long side (``width`` squares a row).
Before square v is decided, every edge between two earlier squares is chosen, and the squares
that may already hold chosen edges are v .. v + 2 * width (a knight reaches two rows on), the
``slots = 2 * width + 1`` squares of the *window*. Deciding v means choosing its edges to later
squares (at most four) so that v ends with exactly two; then the window slides on by one.

A window square is *empty* (no edge yet), *full* (two edges) or a path *end* (one edge); the
chosen edges form paths, and each end knows the other end of its path (its *mate*). Nothing
else about the past matters, so equal windows meet in one *state* and their numbers of ways
add up. Only the last edge of the tour may close a path into a cycle.

State code (64 bits; 59 of them for the widest window, 17 slots): slot i holds a field of
``bit_length(slots - i)`` bits: 0 for an empty square *or* for the second end of a path, 1 for a
full square, and 1 + d for the first end of a path whose other end is d slots further on. A
second end is known from its first end's field, so the code is canonical without renaming
labels, and ``(slots + 1)!`` codes would even fit 53 bits. The kernels decode a state into a
``mate`` array (``EMPTY``, ``FULL`` or the slot of the other end), where joining two paths is
O(1), and encode the result.

Mirror: at the start of a row the window is that row and the next, plus one empty square, and
the rest of the board is symmetric under left-right reflection, so a state and its mirror image
have the same completions: the sweep keeps the smaller code of the two, with both counts.

Layers live in ``(n, 2)`` int64 arrays of (code, ways) rows; the next layer is built in an
open-addressing hash table of the same shape (code -1: an empty row), which the caller
allocates, grows (``rehash``) and finally compacts in place (``compact``), so that its memory
can be given back with ``ndarray.resize``.
"""

from __future__ import annotations

import numpy as np

from boardpuzzles._kernels import CHECK_MASK, jit

EMPTY = -1
FULL = -2
#: ``sweep_square``'s status: finished, stopped by the flag, table too full (grow it and call
#: again from the position returned), a count that outgrew 63 bits.
DONE = 0
STOPPED = 1
GROW = 2
OVERFLOW = 3
#: A state has at most C(4, 2) = 6 successors (a knight has at most four moves forward).
MAX_SUCCESSORS = 6
_HASH = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15, Fibonacci hashing


def code_layout(slots):
    """``(offsets, masks, bits)``: where each slot's field lies in a state code, and how many
    bits a code takes (plain Python: run once per sweep)."""
    offsets = np.zeros(slots, np.int64)
    masks = np.zeros(slots, np.int64)
    at = 0
    for i in range(slots):
        width = (slots - i).bit_length()  # values 0 .. slots - i
        offsets[i] = at
        masks[i] = (1 << width) - 1
        at += width
    return offsets, masks, at


@jit
def decode(code, slots, offsets, masks, mate):
    """Fill ``mate[0 .. slots]`` (one more than the window: the square entering it) from a code."""
    for i in range(slots + 1):
        mate[i] = EMPTY
    for i in range(slots):
        field = (code >> offsets[i]) & masks[i]
        if field == 1:
            mate[i] = FULL
        elif field >= 2:
            other = i + field - 1
            mate[i] = other
            mate[other] = i


@jit
def encode(mate, slots, offsets):
    code = np.int64(0)
    for i in range(slots):
        m = mate[i]
        if m == FULL:
            field = 1
        elif m > i:
            field = m - i + 1
        else:
            field = 0  # empty, or the second end of a path
        code |= np.int64(field) << offsets[i]
    return code


@jit
def join(mate, a, b):
    """Add the edge a-b: 0 when done, 1 when it closed a path into a cycle, -1 when a square
    would get a third edge."""
    ma = mate[a]
    mb = mate[b]
    if ma == FULL or mb == FULL:
        return -1
    if ma == EMPTY and mb == EMPTY:
        mate[a] = b
        mate[b] = a
    elif ma == EMPTY:
        mate[a] = mb
        mate[mb] = a
        mate[b] = FULL
    elif mb == EMPTY:
        mate[b] = ma
        mate[ma] = b
        mate[a] = FULL
    elif ma == b:
        mate[a] = FULL
        mate[b] = FULL
        return 1
    else:
        mate[ma] = mb
        mate[mb] = ma
        mate[a] = FULL
        mate[b] = FULL
    return 0


@jit
def insert(table, code, ways):
    """Add ``ways`` to ``code``'s row of the hash table: 1 when the code is new, 0 when it was
    there, -1 when its count outgrew 63 bits (counts are positive: a wrap shows as negative)."""
    size = table.shape[0]
    h = code * _HASH
    i = (((h >> 33) & 0x7FFFFFFF) * size) >> 31
    while True:
        there = table[i, 0]
        if there == code:
            table[i, 1] += ways
            return -1 if table[i, 1] < 0 else 0
        if there == -1:
            table[i, 0] = code
            table[i, 1] = ways
            return 1
        i += 1
        if i == size:
            i = 0


@jit
def _slide(work, slots, offsets, mirror, shifted, reflected):
    """The code of the window after its first square (now full) leaves it; with a ``mirror``
    permutation (``mirror[0] >= 0``), the smaller of the codes of the window and its image."""
    for i in range(slots):
        m = work[i + 1]
        shifted[i] = m - 1 if m >= 0 else m
    code = encode(shifted, slots, offsets)
    if mirror[0] >= 0:
        for i in range(slots):
            m = shifted[i]
            reflected[mirror[i]] = mirror[m] if m >= 0 else m
        image = encode(reflected, slots, offsets)
        if image < code:
            code = image
    return code


@jit
def _all_full(work, slots, remaining):
    """After the closing edge: every square of the board that is left is full (the squares past
    the board's end, ``remaining`` on from the window's first, do not count). A square past the
    window has no edge yet, so a board that goes on past it is not covered."""
    if remaining > slots + 1:
        return False
    for j in range(remaining):
        if work[j] != FULL:
            return False
    return True


@jit
def sweep_square(
    layer, count, start, table, stored, max_fill, forward, n_forward, slots, remaining, offsets, masks, mirror, flag
):
    """Decide the window's first square for the states ``layer[start:count]``, adding the
    states that follow to the hash ``table`` (``stored`` rows in use; at most ``max_fill``).

    ``forward[:n_forward]``: the slots the first square reaches (its knight moves to later
    squares, as offsets 1 .. slots). ``remaining``: squares from the window's first to the end
    of the board. ``mirror``: the slot permutation of a reflection when the next square starts a
    row, else ``[-1]``. Returns ``(status, position, stored, closed)``: ``closed`` is the number
    of cycles completed (ways summed); on ``GROW`` or ``STOPPED`` the caller calls again from
    ``position`` (the states before it are done and their cycles are in ``closed``)."""
    mate = np.empty(slots + 1, np.int64)
    work = np.empty(slots + 1, np.int64)
    shifted = np.empty(slots, np.int64)
    reflected = np.empty(slots, np.int64)
    closed = np.int64(0)
    for s in range(start, count):
        if (s & CHECK_MASK) == 0 and flag[0] != 0:
            return STOPPED, s, stored, closed
        if stored + MAX_SUCCESSORS > max_fill:
            return GROW, s, stored, closed
        ways = layer[s, 1]
        decode(layer[s, 0], slots, offsets, masks, mate)
        first = mate[0]
        need = 2 if first == EMPTY else (0 if first == FULL else 1)
        for a in range(n_forward if need > 0 else 1):
            for b in range(a + 1 if need == 2 else a, n_forward if need == 2 else a + 1):
                for i in range(slots + 1):
                    work[i] = mate[i]
                shut = 0
                if need >= 1:
                    shut = join(work, 0, forward[a])  # closes nothing when a second edge follows
                    if shut < 0:
                        continue
                if need == 2:
                    shut = join(work, 0, forward[b])
                    if shut < 0:
                        continue
                if shut == 1:
                    if _all_full(work, slots, remaining):
                        closed += ways
                        if closed < 0:
                            return OVERFLOW, s, stored, closed
                    continue
                code = _slide(work, slots, offsets, mirror, shifted, reflected)
                added = insert(table, code, ways)
                if added < 0:
                    return OVERFLOW, s, stored, closed
                stored += added
    return DONE, count, stored, closed


@jit
def rehash(old, new):
    """Move every row of the hash table ``old`` into the (larger, empty) table ``new``."""
    for i in range(old.shape[0]):
        if old[i, 0] != -1:
            insert(new, old[i, 0], old[i, 1])


@jit
def compact(table):
    """Move the rows in use to the front of the table, in order; returns how many there are."""
    n = 0
    for i in range(table.shape[0]):
        if table[i, 0] != -1:
            if i != n:
                table[n, 0] = table[i, 0]
                table[n, 1] = table[i, 1]
            n += 1
    return n


# ---------------------------------------------------------------------- meeting in the middle
# The board (``length`` rows of ``width``) is cut into a top (rows 0 .. t-1), a band Z of two
# rows (t, t+1) and a bottom (the rest, t' rows). A knight never jumps from the top to the
# bottom, so a tour is: a top layer state at row t (every top square with its two edges, some
# of them into Z), a bottom one (the same kind of state, of the board turned 180 degrees, at row
# t') and a set E of the edges inside Z. The band's squares are numbered z = 0 .. 2*width-1 (row
# t, then row t+1). A top state's slot j is square z = j; a bottom state's slot j is z = 2*width
# - 1 - j (turning the board reverses the order of the band). The pieces fit when every z gets
# two edges in all, and the paths close into a single cycle.


@jit
def turn_and_mirror(mate, width, turned, mirrored):
    """A bottom state's ``mate`` in band coordinates (``turned``) and its mirror image
    (``mirrored``); True when the two are the same. Values below 0 (empty, full, or a kernel's own
    marks) are kept as they are."""
    band = 2 * width
    for j in range(band):
        m = mate[j]
        turned[band - 1 - j] = band - 1 - m if m >= 0 else m
    for z in range(band):
        q = z // width
        image = q * width + width - 1 - z % width
        m = turned[z]
        mirrored[image] = (m // width) * width + width - 1 - m % width if m >= 0 else m
    for z in range(band):
        if turned[z] != mirrored[z]:
            return False
    return True


@jit
def bottom_table(layer, width, slots, offsets, masks, powers):
    """The bottom states of a layer, in band coordinates, each of a layer's mirror pairs spelt
    out: ``(keys, partners, weights)``. ``keys``: the degree vector (sum of degree * 3**z);
    ``partners``: 4 bits per square, the other end of its path (ends only); ``weights``: twice
    the number of bottom halves with exactly that state (a layer row holds a state and its
    mirror image, which have equally many)."""
    band = 2 * width
    n = layer.shape[0]
    keys = np.empty(2 * n, np.int64)
    partners = np.empty(2 * n, np.int64)
    weights = np.empty(2 * n, np.int64)
    mate = np.empty(slots + 1, np.int64)
    turned = np.empty(band, np.int64)
    mirrored = np.empty(band, np.int64)
    out = 0
    for s in range(n):
        decode(layer[s, 0], slots, offsets, masks, mate)
        same = turn_and_mirror(mate, width, turned, mirrored)
        for copy in range(1 if same else 2):
            state = turned if copy == 0 else mirrored
            key = np.int64(0)
            packed = np.int64(0)
            for z in range(band):
                m = state[z]
                if m == FULL:
                    key += 2 * powers[z]
                elif m >= 0:
                    key += powers[z]
                    packed |= np.int64(m) << (4 * z)
            keys[out] = key
            partners[out] = packed
            weights[out] = layer[s, 1] * (2 if same else 1)
            out += 1
    return keys[:out], partners[:out], weights[:out]


@jit
def class_starts(sorted_keys, size):
    """``starts[key] .. starts[key + 1]``: the rows of ``sorted_keys`` equal to ``key``."""
    starts = np.zeros(size + 1, np.int32)
    i = 0
    n = sorted_keys.shape[0]
    for key in range(size + 1):
        while i < n and sorted_keys[i] < key:
            i += 1
        starts[key] = i
    return starts


@jit
def join_tops(layer, lo, hi, width, slots, offsets, masks, powers, edges, starts, partners, weights, flag):
    """The tours made of the top states ``layer[lo:hi]`` (each row a state and its mirror image:
    its count covers both), any set of band edges ``edges`` (pairs of band squares) and the
    bottom states (``starts``, ``partners``, ``weights`` from ``bottom_table``), times two.
    Returns ``(total, status)``: status 0, ``STOPPED`` or ``OVERFLOW``."""
    band = 2 * width
    n_edges = edges.shape[0]
    mates = np.empty((n_edges + 1, slots + 1), np.int64)
    choice = np.empty(n_edges + 1, np.int64)
    top = np.empty(slots + 1, np.int64)
    total = np.int64(0)
    steps = 0
    for s in range(lo, hi):
        ways = layer[s, 1]
        decode(layer[s, 0], slots, offsets, masks, top)
        for i in range(slots + 1):
            mates[0, i] = top[i]
        depth = 0
        choice[0] = -1
        while depth >= 0:
            steps += 1
            if (steps & CHECK_MASK) == 0 and flag[0] != 0:
                return total, STOPPED
            if depth == n_edges:
                # A leaf: the degrees the bottom must bring, and its states of that degree vector.
                key = np.int64(0)
                ends = 0
                first = -1
                for z in range(band):
                    m = mates[depth, z]
                    if m == EMPTY:
                        key += 2 * powers[z]
                    elif m >= 0:
                        key += powers[z]
                        ends += 1
                        if first < 0:
                            first = z
                if ends == 0:  # nothing for a bottom to join (it has path ends of its own)
                    depth -= 1
                    continue
                for b in range(starts[key], starts[key + 1]):
                    packed = partners[b]
                    at = first
                    walked = 0
                    while True:  # along a top path, then a bottom one, back to the first end
                        at = mates[depth, at]
                        at = (packed >> (4 * at)) & 15
                        walked += 2
                        if at == first:
                            break
                    if walked == ends:
                        total += ways * weights[b]
                        if total < 0:
                            return total, OVERFLOW
                depth -= 1
                continue
            choice[depth] += 1
            if choice[depth] > 1:
                depth -= 1
                continue
            for i in range(slots + 1):
                mates[depth + 1, i] = mates[depth, i]
            if choice[depth] == 1 and join(mates[depth + 1], edges[depth, 0], edges[depth, 1]) != 0:
                continue  # a third edge, or a cycle inside the top and the band
            depth += 1
            choice[depth] = -1
    return total, 0
