"""Goishi Hiroi search kernels: one bit per stone, memoised over (stones left, current stone, arrival).

Stones are numbered 0..n-1 in row-major order, so along a row or column the stone indices grow
to the east and to the south. The nearest stone still on the board in a direction is therefore
the lowest set bit of ``mask & ray[s, d]`` going east or south, and the highest going north or
west: no walking across empty points in the hot loop.

Tables (built by ``puzzles/goishi.py`` with plain code):

``ray[s, d]``  int64 mask of the stones lying in direction ``d`` from stone ``s``
               (0 north, 1 east, 2 south, 3 west; the reverse of ``d`` is ``d ^ 2``);
``bit[s]``     ``1 << s`` as an int64 (bit 63 is the sign bit; built in Python so that the
               kernels never shift into it).

A *state* is ``(mask, cur, arrived)``: the stones still on the board, the stone just picked
up, and the direction we moved to reach it (``NONE`` for the first stone). What can still
happen depends on nothing else, so a state's number of completions is memoised in an
open-addressing hash table (``keys`` mask, ``aux`` = ``cur * 8 + arrived + 1``, 0 = free slot,
``vals``), grown inside the kernel up to ``max_slots`` and then simply no longer filled.

Sound pruning (``doomed``): a stone picked in the middle of the path is entered from one
direction and left in another, and the set of directions in which a stone still sees other
stones only shrinks as stones are picked. So a remaining stone that sees the current stone or
remaining stones in no direction can never be reached, and one that sees them in only one
direction can only be the last stone: two such stones, or one unreachable stone, end the branch.
"""

from __future__ import annotations

import numpy as np

from boardpuzzles._kernels import CHECK_MASK, STOPPED, jit
from boardpuzzles._kernels.bits import highest_bit_index, lowest_bit_index, popcount

NONE = 4  # the arrival direction of the first stone: every direction is open
FREE = 0
MIN_SLOTS = 1 << 12
#: The memo of one layout among billions: cleared before each, so kept small (a full memo only
#: stops remembering; the search stays exact).
LAYOUT_SLOTS = 1 << 10

# Status codes of the resumable enumeration.
DONE = 0  # every root explored
MORE = 1  # ``out`` is full; call again to continue
HALTED = 2  # the stop flag was set; the saved state is kept, so a call can still resume
#: What a budgeted count returns when it ran out of steps before it could answer.
OVER_BUDGET = -2


@jit
def nearest(ray, cur, d, mask):
    """The nearest stone of ``mask`` from ``cur`` in direction ``d``, or -1."""
    cand = mask & ray[cur, d]
    if cand == 0:
        return -1
    if d == 1 or d == 2:
        return lowest_bit_index(cand)
    return highest_bit_index(cand)


@jit
def doomed(ray, bit, mask, cur):
    """True when no order can pick up every stone of ``mask`` starting from ``cur`` (see above)."""
    seen = mask | bit[cur]
    enders = 0
    rest = mask
    while rest != 0:
        s = lowest_bit_index(rest)
        rest ^= bit[s]
        dirs = 0
        for d in range(4):
            if seen & ray[s, d] != 0:
                dirs += 1
                if dirs == 2:
                    break
        if dirs == 0:
            return True
        if dirs == 1:
            enders += 1
            if enders == 2:
                return True
    return False


@jit
def seen_sides(seen, side):
    """For the n x n board (``side`` = n, bit ``n * row + col``): the points that see a point of
    ``seen`` to the east, to the west, to the south and to the north, all at once by shifting
    ``seen`` along rows and columns (bit-parallel ``ray`` tests). ``side`` is at most 7: the
    board must fit below the sign bit (``unique_layout_counts`` takes up to 6)."""
    board = (np.int64(1) << (side * side)) - 1
    first_col = 0
    for r in range(side):
        first_col |= np.int64(1) << (r * side)
    last_col = first_col << (side - 1)
    east = (seen >> 1) & ~last_col
    west = (seen << 1) & ~first_col & board
    south = seen >> side
    north = (seen << side) & board
    for _ in range(side - 2):
        east |= (east >> 1) & ~last_col
        west |= (west << 1) & ~first_col & board
        south |= south >> side
        north |= (north << side) & board
    return east, west, south, north


@jit
def blind_and_ends(mask, seen, side):
    """The stones of ``mask`` that see no point of ``seen`` in any direction, and those that see
    some in one direction only (bit-parallel, by :func:`seen_sides`)."""
    east, west, south, north = seen_sides(seen, side)
    rows = east | west
    cols = south | north
    two = (east & west) | (rows & cols) | (south & north)
    return mask & ~(rows | cols), mask & (rows | cols) & ~two


@jit
def doomed_square(mask, cur_bit, side):
    """:func:`doomed` for a layout of the side x side board given as a mask, bit-parallel."""
    blind, ends = blind_and_ends(mask, mask | cur_bit, side)
    return blind != 0 or popcount(ends) >= 2


# ------------------------------------------------------------------ the memo table
@jit
def _slot(keys, aux, mask, tag):
    """The slot holding (mask, tag), or the free slot where it would go."""
    size = keys.shape[0]
    lo = mask & 0xFFFFFFFF
    hi = (mask >> 32) & 0xFFFFFFFF
    h = (lo * 1000003) ^ (hi * 2147483629) ^ (tag * 2654435)
    h ^= h >> 23
    i = h & (size - 1)
    while aux[i] != FREE and not (aux[i] == tag and keys[i] == mask):
        i = (i + 1) & (size - 1)
    return i


@jit
def _grown(keys, aux, vals):
    size = keys.shape[0] * 2
    nkeys = np.zeros(size, dtype=np.int64)
    naux = np.zeros(size, dtype=np.int64)
    nvals = np.zeros(size, dtype=np.int64)
    for i in range(keys.shape[0]):
        if aux[i] != FREE:
            j = _slot(nkeys, naux, keys[i], aux[i])
            nkeys[j] = keys[i]
            naux[j] = aux[i]
            nvals[j] = vals[i]
    return nkeys, naux, nvals


def new_table(slots: int = MIN_SLOTS) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """An empty memo table: keys, aux, vals and ``used`` (a one-element counter)."""
    return (
        np.zeros(slots, dtype=np.int64),
        np.zeros(slots, dtype=np.int64),
        np.zeros(slots, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )


# ------------------------------------------------------------------ counting
@jit
def count_orders(ray, bit, roots, cap, keys, aux, vals, used, max_slots, flag):
    """The number of complete orders from the root states (``roots[i] = mask, cur, arrived``),
    capped at ``cap`` (a capped count means "at least cap"). Returns the count (``STOPPED`` when
    the stop flag ``flag[0]`` was set) and the memo table (it may have grown); ``used[0]``
    counts the filled slots. Every entry made is exact, so a stopped call leaves a sound memo."""
    return _count(ray, bit, roots, cap, keys, aux, vals, used, max_slots, flag, 0, 0)


@jit
def _count(ray, bit, roots, cap, keys, aux, vals, used, max_slots, flag, max_steps, side):
    """:func:`count_orders`, giving up with ``OVER_BUDGET`` after ``max_steps`` steps (0: never).
    ``side`` > 0: the stones are a layout of the side x side board given as a mask (``ray`` from
    :func:`board_rays`), and :func:`doomed_square` tests the branches; 0: any stones."""
    n = ray.shape[0]
    f_mask = np.zeros(n + 1, dtype=np.int64)
    f_cur = np.zeros(n + 1, dtype=np.int64)
    f_dir = np.zeros(n + 1, dtype=np.int64)
    f_next = np.zeros(n + 1, dtype=np.int64)
    f_acc = np.zeros(n + 1, dtype=np.int64)
    total = 0
    steps = 0
    for r in range(roots.shape[0]):
        if total >= cap:
            break
        mask, cur, arrived = roots[r, 0], roots[r, 1], roots[r, 2]
        if mask == 0:
            total = min(cap, total + 1)
            continue
        if doomed_square(mask, bit[cur], side) if side > 0 else doomed(ray, bit, mask, cur):
            continue
        depth = 0
        f_mask[0], f_cur[0], f_dir[0], f_next[0], f_acc[0] = mask, cur, arrived, 0, 0
        while depth >= 0:
            steps += 1
            if (steps & CHECK_MASK) == 0 and flag[0] != 0:
                return STOPPED, keys, aux, vals
            if steps == max_steps:
                return OVER_BUDGET, keys, aux, vals
            d = f_next[depth]
            if d == 4 or f_acc[depth] >= cap:
                acc = min(cap, f_acc[depth])
                # Remember the state's count (capped counts stay lower bounds, which is all a
                # capped search needs).
                if used[0] * 2 >= keys.shape[0] and keys.shape[0] < max_slots:
                    keys, aux, vals = _grown(keys, aux, vals)
                if used[0] * 10 < keys.shape[0] * 7:
                    tag = f_cur[depth] * 8 + f_dir[depth] + 1
                    i = _slot(keys, aux, f_mask[depth], tag)
                    if aux[i] == FREE:
                        used[0] += 1
                    keys[i], aux[i], vals[i] = f_mask[depth], tag, acc
                depth -= 1
                if depth >= 0:
                    f_acc[depth] = min(cap, f_acc[depth] + acc)
                else:
                    total = min(cap, total + acc)
                continue
            f_next[depth] = d + 1
            if d == (f_dir[depth] ^ 2):
                continue  # no reversing (NONE ^ 2 is no direction, so the first stone may go anywhere)
            nxt = nearest(ray, f_cur[depth], d, f_mask[depth])
            if nxt < 0:
                continue
            nmask = f_mask[depth] ^ bit[nxt]
            if nmask == 0:
                f_acc[depth] += 1
                continue
            tag = nxt * 8 + d + 1
            i = _slot(keys, aux, nmask, tag)
            if aux[i] != FREE:
                f_acc[depth] = min(cap, f_acc[depth] + vals[i])
                continue
            if doomed_square(nmask, bit[nxt], side) if side > 0 else doomed(ray, bit, nmask, nxt):
                continue
            depth += 1
            f_mask[depth], f_cur[depth], f_dir[depth], f_next[depth], f_acc[depth] = nmask, nxt, d, 0, 0
    return total, keys, aux, vals


# ------------------------------------------------------------------ enumerating (resumable)
def new_stack(n: int) -> np.ndarray:
    """The enumeration's saved state: rows mask, cur, arrived, next direction, found; and a
    header row [depth, next root]. Depth -1 means "between roots"."""
    stack = np.zeros((n + 2, 5), dtype=np.int64)
    stack[n + 1, 0] = -1
    return stack


@jit
def enumerate_orders(ray, bit, roots, stack, out, max_out, keys, aux, vals, used, max_slots, flag):
    """Continue enumerating complete orders where ``stack`` left off, writing up to ``max_out``
    of them (stone numbers, root's stone first) into the rows of ``out``.

    Only dead states (no completion) are memoised here: a state with completions must be walked
    again each time, to list them. Returns (status, written, keys, aux, vals); ``HALTED`` when the
    stop flag ``flag[0]`` was set."""
    n = ray.shape[0]
    head = n + 1
    written = 0
    depth = stack[head, 0]
    steps = 0
    while True:
        steps += 1
        if (steps & CHECK_MASK) == 0 and flag[0] != 0:
            stack[head, 0] = depth
            return HALTED, written, keys, aux, vals
        if depth < 0:
            r = stack[head, 1]
            if r >= roots.shape[0]:
                stack[head, 0] = depth
                return DONE, written, keys, aux, vals
            stack[head, 1] = r + 1
            mask, cur = roots[r, 0], roots[r, 1]
            if mask != 0 and doomed(ray, bit, mask, cur):
                continue
            depth = 0
            stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3], stack[0, 4] = mask, cur, roots[r, 2], 0, 0
        if stack[depth, 0] == 0:  # every stone picked: a complete order
            for k in range(depth + 1):
                out[written, k] = stack[k, 1]
            written += 1
            depth -= 1
            if depth >= 0:
                stack[depth, 4] += 1
            if written == max_out:
                stack[head, 0] = depth
                return MORE, written, keys, aux, vals
            continue
        d = stack[depth, 3]
        if d == 4:
            found = stack[depth, 4]
            if found == 0:
                if used[0] * 2 >= keys.shape[0] and keys.shape[0] < max_slots:
                    keys, aux, vals = _grown(keys, aux, vals)
                if used[0] * 10 < keys.shape[0] * 7:
                    tag = stack[depth, 1] * 8 + stack[depth, 2] + 1
                    i = _slot(keys, aux, stack[depth, 0], tag)
                    if aux[i] == FREE:
                        used[0] += 1
                    keys[i], aux[i], vals[i] = stack[depth, 0], tag, 0
            depth -= 1
            if depth >= 0:
                stack[depth, 4] += found
            continue
        stack[depth, 3] = d + 1
        if d == (stack[depth, 2] ^ 2):
            continue
        nxt = nearest(ray, stack[depth, 1], d, stack[depth, 0])
        if nxt < 0:
            continue
        nmask = stack[depth, 0] ^ bit[nxt]
        if nmask != 0:
            i = _slot(keys, aux, nmask, nxt * 8 + d + 1)
            if aux[i] != FREE:
                continue  # a known dead state
            if doomed(ray, bit, nmask, nxt):
                continue
        depth += 1
        stack[depth, 0], stack[depth, 1], stack[depth, 2], stack[depth, 3], stack[depth, 4] = nmask, nxt, d, 0, 0


# ------------------------------------------------------------------ layouts given as cells
@jit
def layout_rays(rows, cols, cells, bit):
    """``ray`` of the stones at ``cells`` (sorted row-major) on a rows x cols board, as
    ``puzzles/goishi.tables`` builds it with plain code (the generator asks this thousands of
    times)."""
    n = cells.shape[0]
    index = np.full(rows * cols, -1, dtype=np.int64)
    for i in range(n):
        index[cells[i]] = i
    ray = np.zeros((n, 4), dtype=np.int64)
    for i in range(n):
        r0 = cells[i] // cols
        c0 = cells[i] % cols
        for d in range(4):
            dr = (-1, 0, 1, 0)[d]
            dc = (0, 1, 0, -1)[d]
            r = r0 + dr
            c = c0 + dc
            word = 0
            while 0 <= r < rows and 0 <= c < cols:
                j = index[r * cols + c]
                if j >= 0:
                    word |= bit[j]
                r += dr
                c += dc
            ray[i, d] = word
    return ray


@jit
def count_layout(rows, cols, cells, bit, cap, max_slots, flag, max_steps):
    """The number of orders of the stones at ``cells`` (sorted row-major), capped at ``cap``, in
    one search from every start with a fresh memo; ``STOPPED`` when the stop flag was set,
    ``OVER_BUDGET`` after ``max_steps`` steps (0: no budget)."""
    n = cells.shape[0]
    ray = layout_rays(rows, cols, cells, bit)
    full = 0
    for i in range(n):
        full |= bit[i]
    roots = np.empty((n, 3), dtype=np.int64)
    for i in range(n):
        roots[i, 0] = full ^ bit[i]
        roots[i, 1] = i
        roots[i, 2] = NONE
    keys = np.zeros(MIN_SLOTS, dtype=np.int64)
    aux = np.zeros(MIN_SLOTS, dtype=np.int64)
    vals = np.zeros(MIN_SLOTS, dtype=np.int64)
    used = np.zeros(1, dtype=np.int64)
    total, keys, aux, vals = _count(ray, bit, roots, cap, keys, aux, vals, used, max_slots, flag, max_steps, 0)
    return total


# ------------------------------------------------------------------ every layout of a square
@jit
def board_rays(n, bit):
    """``ray[p, d]``: the points of the n x n board in direction ``d`` from point ``p`` (bit
    ``n * row + col``): :func:`layout_rays` of the full board. A layout's own stones are then
    ``mask & ray[p, d]``, and as stones and points are both numbered row-major, :func:`_count`
    searches a layout given as a mask with this table in place of ``ray``, with no table made
    per layout."""
    return layout_rays(n, n, np.arange(n * n), bit)


@jit
def _orders_of_mask(side, mask, ray, bit, roots, keys, aux, vals, used, flag):
    """The orders of the layout ``mask`` of the side x side board (bit ``side * row + col`` a
    stone; ``ray`` from :func:`board_rays`), capped at 2, and its number of stones. ``roots`` is
    scratch space of side * side rows; the memo table is cleared and reused (and may grow, so it
    is returned)."""
    k = popcount(mask)
    # ``doomed``'s argument on the whole layout, before any search: a stone that sees no other
    # can never be reached, and one that sees others in one direction only must be the first or
    # the last, so three such stones leave no order. Those stones start the list of starts: most
    # layouts have two orders or more, and a search that starts where an order starts stops soon.
    blind, ends = blind_and_ends(mask, mask, side)
    if k > 1 and blind != 0:
        return 0, k, keys, aux, vals
    if popcount(ends) > 2:
        return 0, k, keys, aux, vals
    first = 0
    last = k
    rest = mask
    while rest != 0:
        p = lowest_bit_index(rest)
        rest ^= bit[p]
        if ends & bit[p] != 0:
            slot = first
            first += 1
        else:
            last -= 1
            slot = last
        roots[slot, 0] = mask ^ bit[p]
        roots[slot, 1] = p
        roots[slot, 2] = NONE
    if used[0] > 0:
        aux[:] = 0
        used[0] = 0
    total, keys, aux, vals = _count(ray, bit, roots[:k], 2, keys, aux, vals, used, keys.shape[0], flag, 0, side)
    return total, k, keys, aux, vals


@jit
def unique_layouts(n, lo, hi, images, bit, by_size, classes_by_size, flag):
    """Add up the layouts of the n x n board with exactly one order among the masks ``lo`` to
    ``hi - 1`` (bit ``n * row + col`` a stone): ``by_size[k]`` counts those of ``k`` stones,
    ``classes_by_size[k]`` those that are the least of their images (``images[t, p]``: where
    symmetry ``t`` sends point ``p``), one per class of the 8 symmetries. Returns the next mask
    to look at (``hi`` when done; less when the stop flag was set).

    Every layout is searched: the tests' reference for :func:`unique_layout_classes`."""
    points = n * n
    ray = board_rays(n, bit)
    roots = np.empty((points, 3), dtype=np.int64)
    keys = np.zeros(MIN_SLOTS, dtype=np.int64)
    aux = np.zeros(MIN_SLOTS, dtype=np.int64)
    vals = np.zeros(MIN_SLOTS, dtype=np.int64)
    used = np.zeros(1, dtype=np.int64)
    for mask in range(lo, hi):
        if ((mask - lo) & CHECK_MASK) == 0 and flag[0] != 0:
            return mask
        if mask == 0:
            continue
        total, k, keys, aux, vals = _orders_of_mask(n, mask, ray, bit, roots, keys, aux, vals, used, flag)
        if total == STOPPED:
            return mask
        if total != 1:
            continue
        by_size[k] += 1
        least = True
        for t in range(1, images.shape[0]):
            image = 0
            for p in range(points):
                if (mask >> p) & 1:
                    image |= 1 << images[t, p]
            if image < mask:
                least = False
                break
        if least:
            classes_by_size[k] += 1
    return hi


@jit
def unique_layout_classes(n, lo, hi, image_bytes, bit, by_size, classes_by_size, flag):
    """What :func:`unique_layouts` adds up, searching one layout of each class only: a mask is
    searched when it is the least of its 8 images, and then counts once in ``classes_by_size``
    and (the size of its class: 8 over the symmetries that fix it) in ``by_size``. So about one
    layout in 8 is searched, and the others cost a few table look-ups:
    ``image_bytes[t, g, v]`` is the image under symmetry ``t`` of the points ``8g .. 8g + 7``
    whose stones are the bits of ``v``."""
    ray = board_rays(n, bit)
    roots = np.empty((n * n, 3), dtype=np.int64)
    keys = np.zeros(LAYOUT_SLOTS, dtype=np.int64)
    aux = np.zeros(LAYOUT_SLOTS, dtype=np.int64)
    vals = np.zeros(LAYOUT_SLOTS, dtype=np.int64)
    used = np.zeros(1, dtype=np.int64)
    symmetries = image_bytes.shape[0]
    groups = image_bytes.shape[1]
    for mask in range(lo, hi):
        if ((mask - lo) & CHECK_MASK) == 0 and flag[0] != 0:
            return mask
        if mask == 0:
            continue
        fixed = 1  # the identity
        least = True
        for t in range(1, symmetries):
            image = 0
            for g in range(groups):
                image |= image_bytes[t, g, (mask >> (8 * g)) & 255]
            if image < mask:
                least = False
                break
            if image == mask:
                fixed += 1
        if not least:
            continue
        total, k, keys, aux, vals = _orders_of_mask(n, mask, ray, bit, roots, keys, aux, vals, used, flag)
        if total == STOPPED:
            return mask
        if total == 1:
            classes_by_size[k] += 1
            by_size[k] += symmetries // fixed
    return hi
