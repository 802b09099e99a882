"""Open knight's tours: the frontier sweep of ``closed_tours`` for Hamiltonian *paths*.

The window, the slide and the hash tables are those of ``closed_tours``; what changes is that a
tour has two *terminals*, squares with one edge. A square decides whether it is one when it
leaves the window. Once a terminal has left, the path it ends is marked at its other end, the
one still in the window: that end's mate is ``TERM`` ("the far end of my path is a terminal").
Each ``TERM`` in a state is a different path (a path with two terminals is the whole tour), so
a state holds at most two, and a new terminal is allowed only while it holds fewer.

Joining two paths whose far ends are both terminals makes the tour: it counts when every square
that is left is full. Closing a path into a cycle is never allowed.

State code: slot i's field has ``bit_length(slots - i + 1)`` bits: the fields of
``closed_tours`` and one more value, ``slots - i + 1``, for an end whose mate is ``TERM``. The
widest window (17 slots, a side of 8) takes 63 bits, so codes stay non-negative in an int64.
"""

from __future__ import annotations

import numpy as np

from boardpuzzles._kernels import CHECK_MASK, jit
from boardpuzzles._kernels.closed_tours import (
    DONE,
    EMPTY,
    FULL,
    GROW,
    MAX_SUCCESSORS,
    OVERFLOW,
    STOPPED,
    _all_full,
    insert,
    turn_and_mirror,
)

TERM = -3
#: ``join``'s answers besides 0 (done): a square would get a third edge, a path would close into
#: a cycle, the two terminal paths became the whole tour.
THIRD_EDGE = -1
CYCLE = 1
WHOLE = 2

__all__ = ["DONE", "GROW", "OVERFLOW", "STOPPED", "TERM", "code_layout", "decode", "encode", "sweep_square"]


def code_layout(slots):
    """``(offsets, masks, bits)`` of an open-sweep code (plain Python: run once per sweep)."""
    offsets = np.zeros(slots, np.int64)
    masks = np.zeros(slots, np.int64)
    at = 0
    for i in range(slots):
        width = (slots - i + 1).bit_length()  # values 0 .. slots - i + 1 (the last: TERM)
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
        elif field == slots - i + 1:
            mate[i] = TERM
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
        elif m == TERM:
            field = slots - i + 1
        elif m > i:
            field = m - i + 1
        else:
            field = 0  # empty, or the second end of a path
        code |= np.int64(field) << offsets[i]
    return code


@jit
def join(mate, a, b):
    """Add the edge a-b: 0 when done, ``THIRD_EDGE``, ``CYCLE`` (both refused: ``mate`` is then
    spoilt) or ``WHOLE`` when it joined the two terminal paths."""
    ma = mate[a]
    mb = mate[b]
    if ma == FULL or mb == FULL:
        return THIRD_EDGE
    far_a = a if ma == EMPTY else ma
    far_b = b if mb == EMPTY else mb
    if far_a == b:
        return CYCLE
    if ma != EMPTY:
        mate[a] = FULL
    if mb != EMPTY:
        mate[b] = FULL
    if far_a == TERM and far_b == TERM:
        return WHOLE
    if far_a >= 0:
        mate[far_a] = far_b
    if far_b >= 0:
        mate[far_b] = far_a
    return 0


@jit
def terminals(mate, slots):
    """How many paths of the window already end in a terminal."""
    n = 0
    for i in range(slots + 1):
        if mate[i] == TERM:
            n += 1
    return n


@jit
def _slide(work, slots, offsets, mirror, shifted, reflected):
    """``closed_tours._slide`` with this module's ``encode`` (numba binds the callee when it
    compiles, so the text is repeated rather than shared)."""
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
def _finish(work, slots, offsets, mirror, shifted, reflected, remaining, table, ways, result, stored, tours):
    """Store the decided window (``result`` 0) or count it as a tour (``WHOLE``): the new
    ``(stored, tours, ok)``; ``ok`` is False when a count outgrew 63 bits."""
    if result == WHOLE:
        if _all_full(work, slots, remaining):
            tours += ways
        return stored, tours, tours >= 0
    added = insert(table, _slide(work, slots, offsets, mirror, shifted, reflected), ways)
    return stored + max(added, 0), tours, added >= 0


@jit
def sweep_square(
    layer, count, start, table, stored, max_fill, forward, n_forward, slots, remaining, offsets, masks, mirror, flag
):
    """Decide the window's first square for the states ``layer[start:count]``, as
    ``closed_tours.sweep_square`` does, letting it be a terminal (one edge) too. Returns
    ``(status, position, stored, tours)``: ``tours`` is the number of whole paths completed
    (undirected, ways summed)."""
    mate = np.empty(slots + 1, np.int64)
    work = np.empty(slots + 1, np.int64)
    shifted = np.empty(slots, np.int64)
    reflected = np.empty(slots, np.int64)
    tours = np.int64(0)
    # Each state has at most 4 + 6 successors (one or two forward edges from an empty square).
    for s in range(start, count):
        if (s & CHECK_MASK) == 0 and flag[0] != 0:
            return STOPPED, s, stored, tours
        if stored + 2 * MAX_SUCCESSORS > max_fill:
            return GROW, s, stored, tours
        ways = layer[s, 1]
        decode(layer[s, 0], slots, offsets, masks, mate)
        first = mate[0]
        room = terminals(mate, slots) < 2  # may a new terminal start here?
        if first == FULL:
            for i in range(slots + 1):
                work[i] = mate[i]
            stored, tours, ok = _finish(
                work, slots, offsets, mirror, shifted, reflected, remaining, table, ways, 0, stored, tours
            )
            if not ok:
                return OVERFLOW, s, stored, tours
            continue
        if first == EMPTY:
            # Two forward edges, or (a new terminal) one.
            for a in range(n_forward):
                for b in range(a, n_forward):
                    for i in range(slots + 1):
                        work[i] = mate[i]
                    if b == a:
                        if not room:
                            continue
                        work[0] = TERM
                        result = join(work, 0, forward[a])
                    else:
                        result = join(work, 0, forward[a])
                        if result == 0:
                            result = join(work, 0, forward[b])
                    if result < 0 or result == CYCLE:
                        continue
                    stored, tours, ok = _finish(
                        work, slots, offsets, mirror, shifted, reflected, remaining, table, ways, result, stored, tours
                    )
                    if not ok:
                        return OVERFLOW, s, stored, tours
            continue
        # One edge already: one more forward edge, or stop here as a terminal.
        for a in range(n_forward + 1):
            for i in range(slots + 1):
                work[i] = mate[i]
            if a == n_forward:
                if first == TERM:  # the other terminal: the path is the whole tour
                    work[0] = FULL
                    result = WHOLE
                elif not room:
                    continue
                else:
                    work[first] = TERM
                    work[0] = FULL
                    result = 0
            else:
                result = join(work, 0, forward[a])
                if result < 0 or result == CYCLE:
                    continue
            stored, tours, ok = _finish(
                work, slots, offsets, mirror, shifted, reflected, remaining, table, ways, result, stored, tours
            )
            if not ok:
                return OVERFLOW, s, stored, tours
    return DONE, count, stored, tours


# ---------------------------------------------------------------------- meeting in the middle
# As in ``closed_tours``: a top layer, the edges inside the band of two rows, and a bottom layer
# (the same sweep: the board turned over is the same board). The join also chooses which band
# squares are terminals, and walks the joined pieces from one terminal: a tour is one path that
# reaches the other terminal through every piece.


@jit
def bottom_table(layer, width, slots, offsets, masks, powers):
    """The bottom states of a layer in band coordinates, each mirror pair spelt out (see
    ``closed_tours.bottom_table``): ``(keys, partners, terms, weights)``; ``terms`` has bit z set
    where the path at band square z ends in a terminal of the bottom half."""
    band = 2 * width
    n = layer.shape[0]
    keys = np.empty(2 * n, np.int64)
    partners = np.empty(2 * n, np.int64)
    terms = np.empty(2 * n, np.int64)
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
            term = np.int64(0)
            for z in range(band):
                m = state[z]
                if m == FULL:
                    key += 2 * powers[z]
                elif m == TERM:
                    key += powers[z]
                    term |= np.int64(1) << z
                elif m >= 0:
                    key += powers[z]
                    packed |= np.int64(m) << (4 * z)
            keys[out] = key
            partners[out] = packed
            terms[out] = term
            weights[out] = layer[s, 1] * (2 if same else 1)
            out += 1
    return keys[:out], partners[:out], terms[:out], weights[:out]


@jit
def _count_leaf(top, band, powers, starts, partners, terms, weights, ways, chosen, n_chosen, td, need):
    """The tours through one leaf (a top state with its band edges; ``top[z]`` per band square)
    whose band terminals are ``chosen[:n_chosen]``: each bottom state with the degrees still
    needed, whose pieces and the top's make one path from terminal to terminal."""
    kt = 0
    top_ends = 0
    key = np.int64(0)
    for z in range(band):
        m = top[z]
        d = 2 if m == FULL else (0 if m == EMPTY else 1)
        td[z] = d
        if m == TERM:
            kt += 1
        if d == 1:
            top_ends += 1
        need[z] = 2 - d
    for c in range(n_chosen):
        need[chosen[c]] -= 1
    for z in range(band):
        key += need[z] * powers[z]
    total = np.int64(0)
    for b in range(starts[key], starts[key + 1]):
        packed = partners[b]
        term = terms[b]
        kb = 0
        bottom_ends = 0
        for z in range(band):
            if (term >> z) & 1:
                kb += 1
            if need[z] == 1:
                bottom_ends += 1
        if kt + kb + n_chosen != 2:
            continue
        pieces_total = (top_ends + kt) // 2 + (bottom_ends + kb) // 2
        # start at an endpoint: a top TERM, a bottom TERM, or a chosen band square
        z = -1
        side = 0  # the side we arrived by: 0 top, 1 bottom
        pieces = 0
        for y in range(band):
            if top[y] == TERM:
                z = y
                side = 0
                pieces = 1
                break
        if z < 0:
            for y in range(band):
                if (term >> y) & 1:
                    z = y
                    side = 1
                    pieces = 1
                    break
        if z < 0:
            y0 = chosen[0]
            z = y0
            # a chosen square has one side of degree 0: we "arrive" by that side
            side = 0 if td[y0] == 0 else 1
            pieces = 0
        ok = False
        while True:
            other = 1 - side
            if other == 0:
                if td[z] == 0:
                    ok = True
                    break
                p = top[z]
                if p == TERM:
                    pieces += 1
                    ok = True
                    break
            else:
                if need[z] == 0:
                    ok = True
                    break
                if (term >> z) & 1:
                    pieces += 1
                    ok = True
                    break
                p = (packed >> (4 * z)) & 15
            pieces += 1
            z = p
            side = other
            if pieces > pieces_total + 1:
                break
        if ok and pieces == pieces_total:
            total += ways * weights[b]
    return total


@jit
def join_tops(layer, lo, hi, width, slots, offsets, masks, powers, edges, starts, partners, terms, weights, flag):
    """The tours made of the top states ``layer[lo:hi]``, any set of band edges, any choice of band
    squares as terminals (as many as the top and bottom leave room for) and the bottom states
    (``bottom_table``), times two (see ``closed_tours.join_tops``); the board has at least 4 rows,
    so that no tour ends inside the top half or the band. Returns ``(total, status)``: status 0,
    ``STOPPED`` or ``OVERFLOW``."""
    band = 2 * width
    n_edges = edges.shape[0]
    mates = np.empty((n_edges + 1, slots + 1), np.int64)
    choice = np.empty(n_edges + 1, np.int64)
    top = np.empty(slots + 1, np.int64)
    chosen = np.empty(2, np.int64)
    td = np.empty(band, np.int64)
    need = np.empty(band, np.int64)
    total = np.int64(0)
    for s in range(lo, hi):
        if flag[0] != 0:
            return total, STOPPED
        if total < 0:
            return total, OVERFLOW
        ways = layer[s, 1]
        decode(layer[s, 0], slots, offsets, masks, top)
        for i in range(slots + 1):
            mates[0, i] = top[i]
        depth = 0
        choice[0] = -1
        while depth >= 0:
            if depth == n_edges:
                leaf = mates[depth]
                kt = 0
                for z in range(band):
                    if leaf[z] == TERM:
                        kt += 1
                # no band terminal
                if kt <= 2:
                    total += _count_leaf(
                        leaf, band, powers, starts, partners, terms, weights, ways, chosen, 0, td, need
                    )
                # one band terminal
                if kt <= 1:
                    for a in range(band):
                        # (a terminal at the end of a path that has one would end the tour there,
                        # with the bottom half left out)
                        if leaf[a] == FULL or leaf[a] == TERM:
                            continue
                        chosen[0] = a
                        total += _count_leaf(
                            leaf, band, powers, starts, partners, terms, weights, ways, chosen, 1, td, need
                        )
                # two band terminals
                if kt == 0:
                    for a in range(band):
                        if leaf[a] == FULL or leaf[a] == TERM:
                            continue
                        for b in range(a + 1, band):
                            if leaf[b] == FULL or leaf[b] == TERM:
                                continue
                            if leaf[a] == b:  # the two ends of one top path: that path alone
                                continue
                            chosen[0] = a
                            chosen[1] = b
                            total += _count_leaf(
                                leaf, band, powers, starts, partners, terms, weights, ways, chosen, 2, td, need
                            )
                depth -= 1
                continue
            choice[depth] += 1
            if choice[depth] > 1:
                depth -= 1
                continue
            for i in range(slots + 1):
                mates[depth + 1, i] = mates[depth, i]
            if choice[depth] == 1:
                r = join(mates[depth + 1], edges[depth, 0], edges[depth, 1])
                if r != 0:  # WHOLE too: the tour would end with the bottom half left out
                    continue
            depth += 1
            choice[depth] = -1
    return total, (OVERFLOW if total < 0 else 0)
