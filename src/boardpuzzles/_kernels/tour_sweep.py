"""Knight's tours: the frontier sweep that counts Hamiltonian cycles (closed tours) or paths (open
tours) one square at a time, and the hash tables its layers are built in.

Glossary
--------
window      The sweep visits the squares in order, row by row along the long side (``width``
            squares a row). Before square v is decided, every edge between two earlier squares
            is chosen, and the squares that may already hold chosen edges are v .. v + 2 * width
            (a knight reaches two rows on): the ``slots = 2 * width + 1`` squares of the window.
            Deciding v means choosing its edges to later squares (at most four) so that v ends
            with two (or, in an open tour, one: v is a *terminal*); then the window slides on.
mate        A window square is ``EMPTY`` (no edge yet), ``FULL`` (done) or a path *end* (one
            edge), and each end knows the other end of its path (its mate), or that the path's
            far end is a terminal that has left the window (``TERM``). Nothing else about the
            past matters, so equal windows meet in one *state*, and their numbers of ways add up.
state code  63 bits at most (17 slots, a side of 8): slot i holds a field of
            ``bit_length(slots - i + paths)`` bits: 0 for an empty square or the second end of a
            path, 1 for a full square, 1 + d for the first end of a path whose other end is d
            slots on, and (open tours) ``slots - i + 1`` for an end whose far end is a terminal.
            A second end is known from its first end's field, so the code is canonical.
mirror      At the start of a row the window is that row and the next, plus one empty square,
            and the rest of the board is symmetric under left-right reflection, so a state and
            its mirror image have the same completions: the sweep keeps the smaller code of the
            two, with the ways of both.
layer       The states before one square, as an ``(n, 2)`` int64 array of (code, ways) rows. The
            next layer is built in an open-addressing hash table of the same shape (code -1: an
            empty row), which the caller allocates, grows (:func:`rehash`) and compacts in place
            (:func:`compact`), so that its memory can be given back with ``ndarray.resize``.

A closed tour is counted when the last edge closes a path into a cycle with every square full;
an open tour when the two terminal paths join (or a terminal path ends as a terminal) with every
square full. Only those last edges may close a cycle or join two terminal paths.

Counts of ways are positive int64: a sum past 2**63 - 1 shows as negative (two numbers below
2**63 add up to less than 2**64), and every kernel reports ``OVERFLOW`` instead of a wrong answer.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from boardpuzzles._kernels import CHECK_MASK, jit

EMPTY = -1
FULL = -2
TERM = -3
#: ``join``'s answers besides 0 (done): a square would get a third edge, a path closed into a
#: cycle, the two terminal paths became one.
THIRD_EDGE = -1
CYCLE = 1
WHOLE = 2
#: A kernel's status: finished, stopped by the flag, out of room (make room and call again from
#: the position returned), a count that outgrew 63 bits.
DONE = 0
STOPPED = 1
GROW = 2
OVERFLOW = 3
#: A state has at most 4 + C(4, 2) = 10 successors (one or two of at most four forward moves).
MAX_SUCCESSORS = 10
_HASH = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15, Fibonacci hashing


class Frontier(NamedTuple):
    """What every square of one sweep shares: the board (``width`` squares a row, ``squares`` in
    all), the window's ``slots``, ``paths`` (open tours) or cycles, the code layout, the slot
    permutation of the mirror, and each square's knight moves to later squares, as steps
    (``forward[v, :n_forward[v]]``)."""

    width: int
    squares: int
    slots: int
    paths: bool
    offsets: np.ndarray
    masks: np.ndarray
    mirror: np.ndarray
    forward: np.ndarray
    n_forward: np.ndarray


def code_layout(slots: int, paths: bool) -> tuple[np.ndarray, np.ndarray, int]:
    """``(offsets, masks, bits)``: where each slot's field lies in a state code, and how many bits
    a code takes (plain Python: run once per sweep)."""
    offsets = np.zeros(slots, np.int64)
    masks = np.zeros(slots, np.int64)
    at = 0
    for i in range(slots):
        width = (slots - i + int(paths)).bit_length()
        offsets[i] = at
        masks[i] = (1 << width) - 1
        at += width
    return offsets, masks, at


def frontier(width: int, length: int, paths: bool) -> Frontier:
    """The bundle of a sweep of ``length`` rows of ``width`` (plain Python)."""
    slots = 2 * width + 1
    squares = width * length
    offsets, masks, _ = code_layout(slots, paths)
    mirror = np.array([(i // width) * width + width - 1 - i % width for i in range(2 * width)] + [2 * width], np.int64)
    forward = np.zeros((squares, 4), np.int64)
    n_forward = np.zeros(squares, np.int64)
    for v in range(squares):
        col = v % width
        steps = sorted(
            down * width + shift
            for down, shift in ((1, -2), (1, 2), (2, -1), (2, 1))
            if 0 <= col + shift < width and v + down * width + shift < squares
        )
        forward[v, : len(steps)] = steps
        n_forward[v] = len(steps)
    return Frontier(width, squares, slots, paths, offsets, masks, mirror, forward, n_forward)


@jit
def decode(code, slots, paths, offsets, masks, mate):
    """Fill ``mate[0 .. slots]`` (one more than the window: the square entering it) from a code."""
    decode_and_slide(code, slots, paths, offsets, masks, mate)


@jit
def decode_and_slide(code, slots, paths, offsets, masks, mate):
    """``decode``; returns the code of the window once its first square has left it (the other
    squares as they stand), and how many of its paths end in a terminal. A field keeps its value
    as its square slides on (a path's two ends move together), but a terminal's counts the slots
    left, one more."""
    for i in range(slots + 1):
        mate[i] = EMPTY
    slid = np.int64(0)
    terminals = 0
    for i in range(slots):
        field = (code >> offsets[i]) & masks[i]
        if field == 1:
            mate[i] = FULL
        elif paths and field == slots - i + 1:
            mate[i] = TERM
            terminals += 1
            field += 1
        elif field >= 2:
            other = i + field - 1
            mate[i] = other
            mate[other] = i
        if i > 0:
            slid |= field << offsets[i - 1]
    return slid, terminals


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
    """Add the edge a-b: 0 when done, ``THIRD_EDGE`` (``mate`` is then unchanged), ``CYCLE`` (a and
    b were the two ends of one path: both are full now) or ``WHOLE`` (the two paths whose far ends
    are terminals became one)."""
    ma = mate[a]
    mb = mate[b]
    if ma == FULL or mb == FULL:
        return THIRD_EDGE
    far_a = a if ma == EMPTY else ma
    far_b = b if mb == EMPTY else mb
    if far_a == b:
        mate[a] = FULL
        mate[b] = FULL
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
def insert(table, code, ways):
    """Add ``ways`` to ``code``'s row of the hash table: 1 when the code is new, 0 when it was
    there, -1 when its count outgrew 63 bits."""
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
def slide(work, slots, offsets, mirror, reflect, shifted, reflected):
    """The code of the window after its first square (now full or a terminal) leaves it; with
    ``reflect``, the smaller of the codes of the window and its mirror image."""
    for i in range(slots):
        m = work[i + 1]
        shifted[i] = m - 1 if m >= 0 else m
    code = encode(shifted, slots, offsets)
    if reflect:
        for i in range(slots):
            m = shifted[i]
            reflected[mirror[i]] = mirror[m] if m >= 0 else m
        image = encode(reflected, slots, offsets)
        if image < code:
            code = image
    return code


@jit
def all_full(work, slots, remaining):
    """After a last edge: every square of the board that is left is full (the squares past the
    board's end, ``remaining`` on from the window's first, do not count). A square past the
    window has no edge yet, so a board that goes on past it is not covered."""
    if remaining > slots + 1:
        return False
    for j in range(remaining):
        if work[j] != FULL:
            return False
    return True


@jit
def slid_field(m, j, slots):
    """The field that window square ``j`` (mate ``m``) takes once the window slides on by one
    (as square ``j - 1``): a path's ends and their distance move together."""
    if m == FULL:
        return 1
    if m == TERM:
        return slots - j + 2
    if m > j:
        return m - j + 1
    return 0  # empty, or the second end of a path


@jit
def expand_square(f, layer, start, out, v, flag):
    """Decide square ``v`` (the window's first) for the states ``layer[start:]``, writing the
    states that follow as (code, ways) rows into ``out`` (duplicates and all: :func:`absorb`
    merges them). Returns ``(status, position, n, completed)``: ``n`` rows written,
    ``completed`` the tours completed (ways summed); on ``GROW`` (``out`` is full) or
    ``STOPPED`` the caller calls again from ``position`` (the states before it are done, and
    their tours are in ``completed``).

    A choice changes the mates of a few squares only: square 0, its path's far end, the squares
    its new edges reach and their paths' far ends. So the slid code of a state is made once
    (with its decoding, ``decode_and_slide``) and each successor's code from it by rewriting those
    squares' fields; at the end of a row, where the mirror image is compared, the successor is
    encoded whole."""
    slots = f.slots
    offsets = f.offsets
    masks = f.masks
    mate = np.empty(slots + 1, np.int64)
    work = np.empty(slots + 1, np.int64)
    shifted = np.empty(slots, np.int64)
    reflected = np.empty(slots, np.int64)
    changed = np.empty(5, np.int64)
    reflect = v % f.width == f.width - 1
    remaining = f.squares - v
    n_forward = f.n_forward[v]
    forward = f.forward[v]
    completed = np.int64(0)
    n = 0
    room_left = out.shape[0] - MAX_SUCCESSORS
    for s in range(start, layer.shape[0]):
        if (s & CHECK_MASK) == 0 and flag[0] != 0:
            return STOPPED, s, n, completed
        if n > room_left:
            return GROW, s, n, completed
        ways = layer[s, 1]
        base, ends = decode_and_slide(layer[s, 0], slots, f.paths, offsets, masks, mate)
        first = mate[0]
        room = f.paths and ends < 2  # may a new terminal start here?
        for i in range(slots + 1):
            work[i] = mate[i]
        # Choices: (a, b) two forward edges, (a, -1) one, (-1, -1) none.
        for a in range(-1, n_forward):
            for b in range(a, n_forward):
                if a < 0 and b >= 0:
                    continue
                second = b if b > a else -1
                edges = (a >= 0) + (second >= 0)
                if first == FULL:
                    if edges != 0:
                        continue
                elif first == EMPTY:
                    if edges == 0 or (edges == 1 and not room):
                        continue
                elif edges == 2 or (edges == 0 and not (f.paths and (first == TERM or room))):
                    continue  # a path end: one more edge, or (open tours) it stops here
                # The squares whose mates the choice may change (see above): ``work`` is
                # ``mate`` again once they are put back.
                changed[0] = first
                changed[1] = forward[a] if a >= 0 else -1
                changed[2] = mate[changed[1]] if a >= 0 else -1
                changed[3] = forward[second] if second >= 0 else -1
                changed[4] = mate[changed[3]] if second >= 0 else -1
                result = _choose(work, first, forward, a, second)
                code = np.int64(-1)
                if result == CYCLE or result == WHOLE:
                    if not (result == CYCLE and f.paths) and all_full(work, slots, remaining):
                        completed += ways
                elif result == 0:
                    if reflect:
                        code = slide(work, slots, offsets, f.mirror, True, shifted, reflected)
                    else:
                        code = base
                        for k in range(5):
                            j = changed[k]
                            if j >= 1:
                                i = j - 1
                                code = (code & ~(masks[i] << offsets[i])) | (
                                    np.int64(slid_field(work[j], j, slots)) << offsets[i]
                                )
                work[0] = mate[0]
                for k in range(5):
                    j = changed[k]
                    if j >= 0:
                        work[j] = mate[j]
                if completed < 0:
                    return OVERFLOW, s, n, completed
                if code >= 0:
                    out[n, 0] = code
                    out[n, 1] = ways
                    n += 1
    return DONE, layer.shape[0], n, completed


@jit
def _choose(work, first, forward, a, b):
    """Give square 0 the edges to ``forward[a]`` and ``forward[b]`` (an index below 0: none) in
    ``work``: ``join``'s answer for the last edge, or 0 when no edge was added. An empty square
    given one edge becomes a terminal; a path end given none stops there as one (``WHOLE`` when
    its path's far end is the other terminal)."""
    if a < 0:
        if first == FULL:
            return 0
        work[0] = FULL
        if first == TERM:
            return WHOLE
        work[first] = TERM
        return 0
    if b < 0:
        if first == EMPTY:
            work[0] = TERM
        return join(work, 0, forward[a])
    result = join(work, 0, forward[a])  # from an empty square: closes nothing
    if result != 0:
        return result
    return join(work, 0, forward[b])


# ---------------------------------------------------------------------- grouped hash tables
# A layer is built in a hash table cut into ``2 ** bits`` regions of equal size: a state goes to
# the region of its *group*, the top bits of a mix of its code (independent of the hash that
# places it inside the region). Rows are added a batch at a time, sorted by group first, so each
# region is filled while it sits in the cache. The group is also the state's *shard* (fewer top
# bits) when a layer is kept in shards on disk.


@jit
def group_of(code, bits):
    """The top ``bits`` bits (0 to 30) of splitmix64's finaliser applied to a code."""
    z = code ^ ((code >> 30) & 0x3FFFFFFFF)
    z = z * np.int64(-4658895280553007687)  # 0xBF58476D1CE4E5B9
    z = z ^ ((z >> 27) & 0x1FFFFFFFFF)
    z = z * np.int64(-7723592293110705685)  # 0x94D049BB133111EB
    z = z ^ ((z >> 31) & 0x1FFFFFFFF)
    return (z >> (64 - bits)) & ((1 << bits) - 1) if bits > 0 else 0


@jit
def groups_of(codes, bits):
    """``group_of`` of every code."""
    out = np.empty(codes.shape[0], np.int64)
    for i in range(codes.shape[0]):
        out[i] = group_of(codes[i], bits)
    return out


@jit
def absorb(rows, n, table, bits, fill, sorted_rows, groups):
    """Add the (code, ways) ``rows[:n]`` to the grouped hash ``table`` (``fill[g]``: rows in use in
    region g). Returns ``DONE``; ``GROW`` (adding nothing) when a region could pass three quarters
    full, or ``OVERFLOW`` when a count outgrew 63 bits. ``sorted_rows`` and ``groups`` are
    scratch space of ``n`` rows at least."""
    regions = 1 << bits
    size = table.shape[0] >> bits
    most = size * 3 // 4
    starts = np.zeros(regions + 1, np.int64)
    for i in range(n):
        g = group_of(rows[i, 0], bits)
        groups[i] = g
        starts[g + 1] += 1
    for g in range(regions):
        if fill[g] + starts[g + 1] > most:
            return GROW
        starts[g + 1] += starts[g]
    at = starts[:regions].copy()
    for i in range(n):
        g = groups[i]
        sorted_rows[at[g], 0] = rows[i, 0]
        sorted_rows[at[g], 1] = rows[i, 1]
        at[g] += 1
    for g in range(regions):
        region = table[g * size : (g + 1) * size]
        for i in range(starts[g], starts[g + 1]):
            added = insert(region, sorted_rows[i, 0], sorted_rows[i, 1])
            if added < 0:
                return OVERFLOW
            fill[g] += added
    return DONE


@jit
def regrow(old, new, bits):
    """Move every row of the grouped table ``old`` into the (larger, empty) ``new``, region by region."""
    regions = 1 << bits
    old_size = old.shape[0] >> bits
    new_size = new.shape[0] >> bits
    for g in range(regions):
        region = new[g * new_size : (g + 1) * new_size]
        for i in range(g * old_size, (g + 1) * old_size):
            if old[i, 0] != -1:
                insert(region, old[i, 0], old[i, 1])


@jit
def compact(table):
    """Move the rows in use to the front of the table, in order (so, by group); returns how many
    there are."""
    n = 0
    for i in range(table.shape[0]):
        if table[i, 0] != -1:
            if i != n:
                table[n, 0] = table[i, 0]
                table[n, 1] = table[i, 1]
            n += 1
    return n
