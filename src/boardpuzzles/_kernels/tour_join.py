"""Knight's tours: the meeting of the two halves of a frontier sweep (``tour_sweep``).

Glossary
--------
halves      The board (``length`` rows of ``width``) is cut into a top (rows 0 .. t-1), a band of
            two rows (t, t+1) and a bottom (the rest). A knight never jumps from the top to the
            bottom, so a tour is a top state at row t (every top square done, some of its edges
            into the band), a set of edges inside the band, and a bottom state (the same sweep
            from the other end: the board turned over is the same board) at its own row t'.
band        Its squares are numbered z = 0 .. 2 * width - 1 (row t, then row t + 1). A top
            state's slot j is square z = j; a bottom state's slot j is z = 2 * width - 1 - j.
leaf        A band as one side leaves it: each square ``EMPTY``, ``FULL``, a path end (its mate:
            the other end, or ``TERM`` when the path's far end is a terminal), or (open tours,
            top side) ``STOP``: a square with no top edge that is a terminal, so the bottom
            brings it exactly one edge and the path stops there. A *top leaf* is a top state
            with band edges added (and, for open tours, terminals declared at band squares: a
            top end that stops, or a ``STOP``); a *bottom leaf* a bottom state in band
            coordinates. Equal leaves meet in one, with their ways added; a top leaf and its
            mirror image have the same count, so the smaller code of the two is kept.
key         A top leaf's need (2 for empty, 1 for an end or ``STOP``, 0 for full) and a bottom
            leaf's degrees (0, 1, 2) as base-3 numbers: a top and a bottom leaf can only meet
            when the keys are equal. Then the squares with need 1 (the ends ``X``) carry one top
            and one bottom path end each, and the pieces must make one cycle through all of X
            (closed tours), or one path from a terminal to a terminal (open tours).
leaf code   61 bits for 16 squares: square i holds ``bit_length(band + 2 - i)`` bits: 0 for
            empty (or the second end of a path), 1 full, 2 ``TERM``, 3 ``STOP``, 3 + d for the
            first end of a path whose other end is d squares on.
"""

from __future__ import annotations

import numpy as np

from boardpuzzles._kernels import CHECK_MASK, jit
from boardpuzzles._kernels.tour_sweep import (
    EMPTY,
    FULL,
    GROW,
    OVERFLOW,
    STOPPED,
    TERM,
    THIRD_EDGE,
    WHOLE,
    decode,
    join,
)

STOP = -4
#: A top state has at most 2 ** 12 sets of band edges (8 squares a row: 2 ** edges in general),
#: and a leaf at most 1 + 16 + 120 choices of terminals: the room a kernel keeps free in its
#: output before each state or leaf.
MOST_LEAVES = 1 << 12
MOST_DECLARED = 137


def leaf_layout(band: int) -> tuple[np.ndarray, np.ndarray, int]:
    """``(offsets, masks, bits)`` of a leaf code of ``band`` squares (plain Python)."""
    offsets = np.zeros(band, np.int64)
    masks = np.zeros(band, np.int64)
    at = 0
    for i in range(band):
        width = (band + 2 - i).bit_length()
        offsets[i] = at
        masks[i] = (1 << width) - 1
        at += width
    return offsets, masks, at


def band_edges(width: int) -> np.ndarray:
    """The knight moves inside the band, as pairs of band squares (plain Python)."""
    pairs = [(c, width + c + d) for c in range(width) for d in (-2, 2) if 0 <= c + d < width]
    return np.array(pairs, np.int64).reshape(-1, 2)


@jit
def leaf_encode(leaf, band, offsets):
    code = np.int64(0)
    for i in range(band):
        m = leaf[i]
        if m == FULL:
            field = 1
        elif m == TERM:
            field = 2
        elif m == STOP:
            field = 3
        elif m > i:
            field = 3 + m - i
        else:
            field = 0
        code |= np.int64(field) << offsets[i]
    return code


@jit
def leaf_decode(code, band, offsets, masks, leaf):
    for i in range(band):
        leaf[i] = EMPTY
    for i in range(band):
        field = (code >> offsets[i]) & masks[i]
        if field == 1:
            leaf[i] = FULL
        elif field == 2:
            leaf[i] = TERM
        elif field == 3:
            leaf[i] = STOP
        elif field > 3:
            other = i + field - 3
            leaf[i] = other
            leaf[other] = i


@jit
def mirror_band(leaf, width, out):
    """The band reflected left to right, row by row (marks below 0 kept as they are)."""
    for z in range(2 * width):
        image = (z // width) * width + width - 1 - z % width
        m = leaf[z]
        out[image] = (m // width) * width + width - 1 - m % width if m >= 0 else m


@jit
def canonical(leaf, width, offsets, mirrored):
    """The smaller of the codes of a leaf and of its mirror image."""
    band = 2 * width
    code = leaf_encode(leaf, band, offsets)
    mirror_band(leaf, width, mirrored)
    image = leaf_encode(mirrored, band, offsets)
    return image if image < code else code


@jit
def top_leaves(f, layer, start, edges, lay_offsets, out, flag):
    """The top leaves of the states ``layer[start:]`` (every set of band edges that gives no
    square a third edge, closes no cycle and joins no two terminal paths), written as (code,
    ways) rows into ``out``. Returns ``(status, position, n, 0)`` as
    ``tour_sweep.expand_square`` does."""
    width = f.width
    slots = f.slots
    n_edges = edges.shape[0]
    mates = np.empty((n_edges + 1, slots + 1), np.int64)
    choice = np.empty(n_edges + 1, np.int64)
    mirrored = np.empty(2 * width, np.int64)
    n = 0
    room_left = out.shape[0] - (1 << n_edges)
    for s in range(start, layer.shape[0]):
        if (s & CHECK_MASK) == 0 and flag[0] != 0:
            return STOPPED, s, n, 0
        if n > room_left:
            return GROW, s, n, 0
        ways = layer[s, 1]
        decode(layer[s, 0], slots, f.paths, f.offsets, f.masks, mates[0])
        depth = 0
        choice[0] = -1
        while depth >= 0:
            if depth == n_edges:
                out[n, 0] = canonical(mates[depth], width, lay_offsets, mirrored)
                out[n, 1] = ways
                n += 1
                depth -= 1
                continue
            choice[depth] += 1
            if choice[depth] > 1:
                depth -= 1
                continue
            for i in range(slots + 1):
                mates[depth + 1, i] = mates[depth, i]
            if choice[depth] == 1 and join(mates[depth + 1], edges[depth, 0], edges[depth, 1]) != 0:
                continue  # a third edge, a cycle, or a whole path with the bottom left out
            depth += 1
            choice[depth] = -1
    return 0, layer.shape[0], n, 0


@jit
def _declare_changes(cur, d, image, lay_offsets, lay_masks, changes):
    """What making band square ``d`` a terminal changes in the code of ``cur`` and of its mirror
    image, as ``changes[0:4]`` = (bits cleared, bits set, the same in the image); ``changes[4]``
    is the square that must not be declared with it (its path's other end, else -1) and
    ``changes[5]`` is ``d``. False when
    ``d`` may not be a terminal: a full square, or an end whose path already ends in a terminal
    (the path would be the whole tour, with the bottom left out). An empty square becomes
    ``STOP``; a path end stops (it is full, and its path's far end ends in a terminal)."""
    m = cur[d]
    i = image[d]
    if m == EMPTY:
        changes[0] = lay_masks[d] << lay_offsets[d]
        changes[1] = np.int64(3) << lay_offsets[d]
        changes[2] = lay_masks[i] << lay_offsets[i]
        changes[3] = np.int64(3) << lay_offsets[i]
        changes[4] = -1
        changes[5] = d
        return True
    if m < 0:
        return False
    j = image[m]
    changes[0] = (lay_masks[d] << lay_offsets[d]) | (lay_masks[m] << lay_offsets[m])
    changes[1] = (np.int64(1) << lay_offsets[d]) | (np.int64(2) << lay_offsets[m])
    changes[2] = (lay_masks[i] << lay_offsets[i]) | (lay_masks[j] << lay_offsets[j])
    changes[3] = (np.int64(1) << lay_offsets[i]) | (np.int64(2) << lay_offsets[j])
    changes[4] = m
    changes[5] = d
    return True


@jit
def declare_terminals(rows, start, width, lay_offsets, lay_masks, out, flag):
    """Open tours: every top leaf of ``rows[start:]`` (code, ways) with no, one or two of its band
    squares declared terminals (no more than two terminals in all), written into ``out``.
    Returns ``(status, position, n, 0)``. A declaration changes the fields of one or two squares
    (an empty square's, or a path's two ends'), in the leaf's code and in its mirror image's: the
    codes of every choice are made from the leaf's two codes by those changes."""
    band = 2 * width
    cur = np.empty(band, np.int64)
    mirrored = np.empty(band, np.int64)
    image = np.empty(band, np.int64)
    for z in range(band):
        image[z] = (z // width) * width + width - 1 - z % width
    changes = np.empty((band, 6), np.int64)
    n = 0
    room_left = out.shape[0] - MOST_DECLARED
    for s in range(start, rows.shape[0]):
        if (s & CHECK_MASK) == 0 and flag[0] != 0:
            return STOPPED, s, n, 0
        if n > room_left:
            return GROW, s, n, 0
        code = rows[s, 0]
        ways = rows[s, 1]
        leaf_decode(code, band, lay_offsets, lay_masks, cur)
        mirror_band(cur, width, mirrored)
        image_code = leaf_encode(mirrored, band, lay_offsets)
        out[n, 0] = min(code, image_code)
        out[n, 1] = ways
        n += 1
        room = 2
        for z in range(band):
            if cur[z] == TERM or cur[z] == STOP:
                room -= 1
        if room < 1:
            continue
        k = 0
        for d in range(band):
            if _declare_changes(cur, d, image, lay_offsets, lay_masks, changes[k]):
                k += 1
        for x in range(k):
            one = (code & ~changes[x, 0]) | changes[x, 1]
            one_image = (image_code & ~changes[x, 2]) | changes[x, 3]
            out[n, 0] = min(one, one_image)
            out[n, 1] = ways
            n += 1
            if room < 2:
                continue
            for y in range(x + 1, k):
                if changes[x, 4] == changes[y, 5]:  # the two ends of one path: it would be the whole tour
                    continue
                two = (one & ~changes[y, 0]) | changes[y, 1]
                two_image = (one_image & ~changes[y, 2]) | changes[y, 3]
                out[n, 0] = min(two, two_image)
                out[n, 1] = ways
                n += 1
    return 0, rows.shape[0], n, 0


@jit
def bottom_leaves(f, layer, lay_offsets):
    """The bottom states of a layer as leaf codes in band coordinates, each of a row's mirror pair
    spelt out, with twice the ways of each (a row's ways are its pair's: a state that is its own
    image is counted once, and the total is halved at the end): ``(n, 2)`` rows (code, ways)."""
    width = f.width
    band = 2 * width
    slots = f.slots
    out = np.empty((2 * layer.shape[0], 2), np.int64)
    mate = np.empty(slots + 1, np.int64)
    turned = np.empty(band, np.int64)
    mirrored = np.empty(band, np.int64)
    n = 0
    for s in range(layer.shape[0]):
        decode(layer[s, 0], slots, f.paths, f.offsets, f.masks, mate)
        for j in range(band):
            m = mate[j]
            turned[band - 1 - j] = band - 1 - m if m >= 0 else m
        mirror_band(turned, width, mirrored)
        code = leaf_encode(turned, band, lay_offsets)
        image = leaf_encode(mirrored, band, lay_offsets)
        if image == code:
            out[n, 0] = code
            out[n, 1] = 2 * layer[s, 1]
            n += 1
        else:
            out[n, 0] = code
            out[n, 1] = layer[s, 1]
            out[n + 1, 0] = image
            out[n + 1, 1] = layer[s, 1]
            n += 2
    return out[:n]


@jit
def leaf_keys(rows, band, lay_offsets, lay_masks, powers, top):
    """Each leaf's key: the degrees a top leaf needs (``top``) or a bottom leaf brings. Read from
    the code's fields in one pass: a field 0 is an empty square unless an earlier square's field
    (3 + d) names it as the other end of its path."""
    keys = np.empty(rows.shape[0], np.int64)
    empty_digit = 2 if top else 0
    full_digit = 0 if top else 2
    for s in range(rows.shape[0]):
        code = rows[s, 0]
        second_ends = np.int64(0)
        key = np.int64(0)
        for z in range(band):
            field = (code >> lay_offsets[z]) & lay_masks[z]
            if field == 0:
                key += (1 if (second_ends >> z) & 1 else empty_digit) * powers[z]
            elif field == 1:
                key += full_digit * powers[z]
            else:  # an end of a path, TERM or STOP
                if field > 3:
                    second_ends |= np.int64(1) << (z + field - 3)
                key += powers[z]
        keys[s] = key
    return keys


@jit
def bottom_links(rows, band, lay_offsets, lay_masks):
    """For each bottom leaf: its ends' mates packed 4 bits a square, and the squares whose path
    ends in a terminal (bit z)."""
    packed = np.zeros(rows.shape[0], np.int64)
    terms = np.zeros(rows.shape[0], np.int64)
    leaf = np.empty(band, np.int64)
    for s in range(rows.shape[0]):
        leaf_decode(rows[s, 0], band, lay_offsets, lay_masks, leaf)
        for z in range(band):
            m = leaf[z]
            if m >= 0:
                packed[s] |= np.int64(m) << (4 * z)
            elif m == TERM:
                terms[s] |= np.int64(1) << z
    return packed, terms


@jit
def _times(a, b):
    """``a * b`` for counts below 2**63, or -1 when the product does not fit."""
    if a < 2147483648 and b < 2147483648:
        return a * b
    if a != 0 and b > 9223372036854775807 // a:
        return -1
    return a * b


@jit
def pair_count(tops, top_keys, bottoms, bottom_keys, packed, terms, band, lay_offsets, lay_masks, paths, flag):
    """The tours made of a top leaf and a bottom leaf with equal keys (both sorted by key):
    their ways multiplied, summed. Returns ``(status, total)``: status 0, ``STOPPED`` or
    ``OVERFLOW``."""
    leaf = np.empty(band, np.int64)
    tp = np.empty(band, np.int64)
    total = np.int64(0)
    i = 0
    j = 0
    nt = tops.shape[0]
    nb = bottoms.shape[0]
    steps = 0
    while i < nt and j < nb:
        if top_keys[i] < bottom_keys[j]:
            i += 1
            continue
        if top_keys[i] > bottom_keys[j]:
            j += 1
            continue
        key = top_keys[i]
        j1 = j
        while j1 < nb and bottom_keys[j1] == key:
            j1 += 1
        while i < nt and top_keys[i] == key:
            steps += 1
            if (steps & CHECK_MASK) == 0 and flag[0] != 0:
                return STOPPED, total
            leaf_decode(tops[i, 0], band, lay_offsets, lay_masks, leaf)
            ends = 0
            first = -1
            start = -1
            kt = 0
            for z in range(band):
                m = leaf[z]
                if m == EMPTY or m == FULL:
                    tp[z] = -2
                    continue
                ends += 1
                if first < 0:
                    first = z
                if m >= 0:
                    tp[z] = m
                else:  # TERM or STOP: the top side of z is a terminal
                    tp[z] = -1
                    kt += 1
                    if start < 0:
                        start = z
            if ends > 0:
                ways = tops[i, 1]
                for b in range(j, j1):
                    if _one_piece(tp, packed[b], terms[b], ends, first, start, kt, paths):
                        product = _times(ways, bottoms[b, 1])
                        if product < 0:
                            return OVERFLOW, total
                        total += product
                        if total < 0:
                            return OVERFLOW, total
            i += 1
        j = j1
    return 0, total


@jit
def _one_piece(tp, packed, terms, ends, first, start, kt, paths):
    """Whether a top leaf's pieces (``tp``: each end's top mate, -1 for a terminal) and a bottom
    leaf's (``packed`` mates, ``terms``) make one cycle through all ``ends`` squares (closed
    tours), or one path from a terminal to a terminal (open tours)."""
    if not paths:
        z = first
        seen = 0
        while True:
            z = tp[z]
            z = (packed >> (4 * z)) & 15
            seen += 2
            if z == first or seen >= ends:
                break
        return z == first and seen == ends
    kb = 0
    t = terms
    while t != 0:
        t &= t - 1
        kb += 1
    if kt + kb != 2:
        return False
    if kt > 0:
        z = start
        bottom_next = True
    else:
        z = 0
        while ((terms >> z) & 1) == 0:
            z += 1
        bottom_next = False
    seen = 1
    while True:
        if bottom_next:
            if (terms >> z) & 1:
                break
            z = (packed >> (4 * z)) & 15
        else:
            if tp[z] < 0:
                break
            z = tp[z]
        seen += 1
        bottom_next = not bottom_next
        if seen > ends:
            return False
    return seen == ends


__all__ = [
    "MOST_DECLARED",
    "MOST_LEAVES",
    "STOP",
    "THIRD_EDGE",
    "WHOLE",
    "band_edges",
    "bottom_leaves",
    "bottom_links",
    "declare_terminals",
    "leaf_keys",
    "leaf_layout",
    "pair_count",
    "top_leaves",
]
