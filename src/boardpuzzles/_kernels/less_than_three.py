"""The no-K+1-in-a-line search for C colours on an n x n board (Less Than Three and its family).

Stones go in row by row, colour by colour within a row, columns left to right within a colour.
Per colour and line (every line of the board with more than K cells, any slope) a count of
stones; when a line reaches K stones of a colour, its cells in later rows become forbidden for
that colour (one bitmask per colour and row). A colour still needing R stones must find room:
the later rows can take at most min(K, open cells) each, and a branch where they cannot ends.

Tables come in as one bundle, :class:`SearchTables` (built from the grid in
``puzzles/less_than_three/search.py``): ``cell_lines[cell]`` the lines through a cell (padded
with -1), ``line_cells[line]`` the cells of a line (padded with -1), the 8 symmetries and the
first row's readings under them. What one call walks is a :class:`Walk`. The plain-Python twin
is in ``tests/reference.py``.

``disjoint_selections`` counts many-colour boards as tuples of disjoint one-colour boards. The
search for one board on large sizes is in :mod:`boardpuzzles._kernels.less_than_three_find`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from boardpuzzles._kernels import CHECK_MASK, STOPPED, jit
from boardpuzzles._kernels.bits import lowest_bit_index, popcount


class SearchTables(NamedTuple):
    """What every search of one member of the family shares (cells in the caller's numbering):
    n, colours, K, stones per colour; the line tables; ``maps[g]`` the 8 symmetries of the
    square as cell permutations; ``readings[g]`` the cells of the first searched row moved by
    the g-th symmetry."""

    n: int
    colours: int
    k: int
    stones: int
    cell_lines: np.ndarray
    line_cells: np.ndarray
    maps: np.ndarray
    readings: np.ndarray


class Walk(NamedTuple):
    """What one call of :func:`search` walks and keeps (see there): the boards whose first cells
    are ``prefix``, up to row ``rows_limit``, stopping after ``stop_after`` boards (negative:
    never); ``track`` counts classes too (least images under ``maps`` x ``colour_maps``, or with
    ``weigh`` stabilisers, any relabelling when ``swap``); ``weigh`` walks only boards whose first
    row is the least of its readings, each weighted by its share of its orbit."""

    prefix: np.ndarray
    rows_limit: int
    stop_after: int
    track: bool
    weigh: bool
    swap: bool
    colour_maps: np.ndarray


@jit
def _room(n, k, forbid, colour, after_row):
    """How many stones of ``colour`` the rows after ``after_row`` can still take (upper bound)."""
    full = (1 << n) - 1
    room = 0
    for r in range(after_row + 1, n):
        open_cells = popcount(full & ~forbid[colour, r])
        room += open_cells if open_cells < k else k
    return room


SYMMETRY_UNIT = 105  # 8/N for N in 1..8 is a whole multiple of 1/105


@jit
def _reading_weight(colours, board, readings):
    """``readings[g]``: the cells of the first row searched, moved by the g-th of the 8 symmetries
    of the square. With stones ordered before empty cells: 0 when some reading is smaller than
    ``readings[0]``, else 8/N in units of 1/SYMMETRY_UNIT, N = readings equal to it."""
    n = readings.shape[1]
    equal = 0
    for g in range(readings.shape[0]):
        order = 0
        for j in range(n):
            a = board[readings[0, j]]
            b = board[readings[g, j]]
            a = colours if a == 0 else a - 1
            b = colours if b == 0 else b - 1
            if a != b:
                order = -1 if b < a else 1
                break
        if order < 0:
            return 0
        if order == 0:
            equal += 1
    return 8 * SYMMETRY_UNIT // equal


@jit
def _confine_readings(n, colours, board, forbid, readings):
    """After the first row: its first stone is at position a of its reading (n if none). No
    reading may have a stone before position a: cells of the first row must be empty there, later
    cells are forbidden for every colour. Returns False when the first row breaks this."""
    a = n
    for j in range(n):
        if board[readings[0, j]] != 0:
            a = j
            break
    for g in range(1, readings.shape[0]):
        for j in range(a):
            x = readings[g, j]
            if x < n:
                if board[x] != 0:
                    return False
            else:
                for c in range(colours):
                    forbid[c, x // n] |= 1 << (x % n)
    return True


@jit
def _column_room(n, k, forbid_c, after_row, this_row, col_count_c, planes):
    """How many more stones of one colour the columns can take (upper bound): column j takes at
    most min(k - stones already in it, open cells in it from ``this_row`` (a mask of the current
    row) and the rows after). Open cells per column are counted up to k with bit-planes:
    ``planes[t]`` has bit j when column j has more than t open cells."""
    full = (1 << n) - 1
    for t in range(k):
        planes[t] = 0
    m = this_row
    r = after_row
    while True:
        for t in range(k - 1, 0, -1):
            planes[t] |= planes[t - 1] & m
        planes[0] |= m
        r += 1
        if r >= n:
            break
        m = full & ~forbid_c[r]
    room = 0
    for t in range(k):
        wanted = 0  # columns that can still take more than t stones
        for j in range(n):
            if col_count_c[j] + t < k:
                wanted |= 1 << j
        room += popcount(planes[t] & wanted)
    return room


@jit
def is_least_image(board, maps, colour_maps):
    """True when no image of ``board`` under the cell permutations ``maps`` combined with the
    colour relabellings ``colour_maps`` is lexicographically smaller."""
    cells = board.shape[0]
    image = np.empty(cells, dtype=np.int64)
    for m in range(maps.shape[0]):
        for p in range(colour_maps.shape[0]):
            for x in range(cells):
                image[maps[m, x]] = colour_maps[p, board[x]]
            for x in range(cells):
                if image[x] != board[x]:
                    if image[x] < board[x]:
                        return False
                    break
    return True


@jit
def stabiliser(board, maps, colours, swap):
    """How many of the symmetries ``maps`` (cell permutations: ``maps[g, x]`` is the image of x)
    combined with a relabelling of the colours map ``board`` onto itself: with ``swap`` any
    relabelling, else only the identity. For each g the relabelling is read off the board (the
    colour of x must go to the colour of its image); colours absent from the board may go
    anywhere among themselves, so each such g counts (absent colours)! times."""
    cells = board.shape[0]
    to = np.empty(colours + 1, dtype=np.int64)
    used = np.empty(colours + 1, dtype=np.bool_)
    present = np.zeros(colours + 1, dtype=np.bool_)
    for x in range(cells):
        present[board[x]] = True
    absent = 0
    for c in range(1, colours + 1):
        if not present[c]:
            absent += 1
    completions = 1
    if swap:
        for a in range(2, absent + 1):
            completions *= a
    total = 0
    for g in range(maps.shape[0]):
        for c in range(colours + 1):
            to[c] = -1 if swap else c  # without swap only the identity relabelling
            used[c] = not swap
        to[0] = 0
        used[0] = True
        fixed = True
        for x in range(cells):
            a = board[x]
            b = board[maps[g, x]]
            if to[a] == b:
                continue
            if not swap or to[a] >= 0 or used[b]:
                fixed = False
                break
            to[a] = b
            used[b] = True
        if fixed:
            total += completions
    return total


@jit
def search(tables, walk, out, flag):
    """Walk the boards whose first rows are ``walk.prefix`` (cell colours, 0 = empty, row-major)
    up to row ``walk.rows_limit`` (n: whole boards; less: the feasible partial boards, for
    splitting work).

    Returns ``(found, classes, reached)``: ``found`` boards, and ``classes`` of them that are their
    own least image under ``maps`` x ``colour_maps`` (only with ``track``); ``reached`` boards were
    walked to, and the first ``out.shape[0]`` of them are written to ``out`` (their first
    ``out.shape[1]`` cells: a listing of partial boards holds only its rows). The walk stops
    after ``stop_after`` boards (negative: never).

    Rows are whatever the tables say: the caller may relabel them to search in another order.
    With ``weigh`` (counting only): only boards whose first row is the least of its 8 readings
    under the symmetries of the square are walked (``_confine_readings``), and ``found`` adds
    ``_reading_weight`` for each: the number of boards in units of 1/SYMMETRY_UNIT. With
    ``track`` too, ``classes`` adds that weight times the board's ``stabiliser`` (``swap``: with
    any relabelling of the colours): a class of s boards has stabilisers of |group| / s each, so
    ``classes`` / (SYMMETRY_UNIT x |group|) is the number of classes (Burnside's lemma, summed
    board by board).

    Returns ``(STOPPED, STOPPED, STOPPED)`` when the stop flag ``flag[0]`` was set.
    """
    n, colours, k, stones = tables.n, tables.colours, tables.k, tables.stones
    cell_lines, line_cells, maps, readings = tables.cell_lines, tables.line_cells, tables.maps, tables.readings
    prefix, rows_limit, stop_after = walk.prefix, walk.rows_limit, walk.stop_after
    colour_maps, swap = walk.colour_maps, walk.swap
    weigh = walk.weigh
    full = (1 << n) - 1
    cells = n * n
    n_lines = line_cells.shape[0]
    per_cell = cell_lines.shape[1]
    track = walk.track
    cap = out.shape[0]
    board = np.zeros(cells, dtype=np.int64)
    counts = np.zeros((colours, n_lines), dtype=np.int64)
    remaining = np.full(colours, stones, dtype=np.int64)
    col_count = np.zeros((colours, n), dtype=np.int64)
    planes = np.zeros(k, dtype=np.int64)
    depth_max = colours * stones + colours * n + 2
    forbid = np.zeros((depth_max, colours, n), dtype=np.int64)
    f_row = np.empty(depth_max, dtype=np.int64)
    f_colour = np.empty(depth_max, dtype=np.int64)
    f_in_row = np.empty(depth_max, dtype=np.int64)  # stones of this colour already in this row
    f_cand = np.empty(depth_max, dtype=np.int64)
    f_stop = np.empty(depth_max, dtype=np.bool_)  # "this colour is done in this row" still to try
    f_occ = np.empty(depth_max, dtype=np.int64)  # cells of this row taken by any colour
    f_cell = np.empty(depth_max, dtype=np.int64)  # the stone whose placement made this frame

    # Lay the prefix down, checking it as we go.
    first_row = prefix.shape[0] // n
    for x in range(prefix.shape[0]):
        if weigh and x == n and not _confine_readings(n, colours, board, forbid[0], readings):
            return 0, 0, 0
        c = prefix[x]
        if c == 0:
            continue
        c -= 1
        r = x // n
        if c >= colours or (forbid[0, c, r] >> (x % n)) & 1 or remaining[c] == 0:
            return 0, 0, 0
        board[x] = c + 1
        remaining[c] -= 1
        col_count[c, x % n] += 1
        for i in range(per_cell):
            line = cell_lines[x, i]
            if line < 0:
                break
            counts[c, line] += 1
            if counts[c, line] > k:
                return 0, 0, 0
            if counts[c, line] == k:
                for j in range(n):
                    y = line_cells[line, j]
                    if y < 0:
                        break
                    if y // n > r:
                        forbid[0, c, y // n] |= 1 << (y % n)
    for c in range(colours):
        if remaining[c] > _room(n, k, forbid[0], c, first_row - 1):
            return 0, 0, 0
    found = 0
    classes = 0
    reached = 0
    if first_row >= rows_limit:
        if rows_limit < n or remaining.sum() == 0:
            if cap > 0:
                out[0, :] = board[: out.shape[1]]
            if weigh and rows_limit == n:
                weight = _reading_weight(colours, board, readings)
                classes = weight * stabiliser(board, maps, colours, swap) if track else 0
                return weight, classes, 1
            classes = 1 if track and is_least_image(board, maps, colour_maps) else 0
            return 1, classes, 1
        return 0, 0, 0

    sp = 0
    f_row[0], f_colour[0], f_in_row[0], f_occ[0], f_cell[0] = first_row, 0, 0, 0, -1
    f_cand[0] = full & ~forbid[0, 0, first_row] if remaining[0] > 0 and k > 0 else 0
    f_stop[0] = True
    steps = 0
    while sp >= 0:
        steps += 1
        if (steps & CHECK_MASK) == 0 and flag[0] != 0:
            return STOPPED, STOPPED, STOPPED
        row = f_row[sp]
        colour = f_colour[sp]
        if f_stop[sp]:
            f_stop[sp] = False
            # Colour ``colour`` places no more stones in this row: may it still finish below?
            if remaining[colour] > _room(n, k, forbid[sp], colour, row):
                continue
            nxt_colour = colour + 1
            nxt_row = row
            if nxt_colour == colours:
                nxt_colour = 0
                nxt_row = row + 1
            if nxt_row == rows_limit:
                if rows_limit == n and remaining.sum() != 0:
                    continue
                if reached < cap:
                    out[reached, :] = board[: out.shape[1]]
                reached += 1
                if weigh and rows_limit == n:
                    weight = _reading_weight(colours, board, readings)
                    found += weight
                    if track:
                        classes += weight * stabiliser(board, maps, colours, swap)
                    continue
                found += 1
                if track and is_least_image(board, maps, colour_maps):
                    classes += 1
                if stop_after >= 0 and found >= stop_after:
                    return found, classes, reached
                continue
            sp += 1
            forbid[sp] = forbid[sp - 1]
            if weigh and nxt_row == 1 and not _confine_readings(n, colours, board, forbid[sp], readings):
                sp -= 1
                continue
            occ = f_occ[sp - 1] if nxt_row == row else 0
            f_row[sp], f_colour[sp], f_in_row[sp], f_occ[sp], f_cell[sp] = nxt_row, nxt_colour, 0, occ, -1
            f_cand[sp] = full & ~forbid[sp, nxt_colour, nxt_row] & ~occ if remaining[nxt_colour] > 0 else 0
            f_stop[sp] = True
            continue
        cand = f_cand[sp]
        if cand == 0:
            # Back up: take away the stone that made this frame, if any.
            x = f_cell[sp]
            if x >= 0:
                c = board[x] - 1
                board[x] = 0
                remaining[c] += 1
                col_count[c, x % n] -= 1
                for i in range(per_cell):
                    line = cell_lines[x, i]
                    if line < 0:
                        break
                    counts[c, line] -= 1
            sp -= 1
            continue
        bit = cand & -cand
        f_cand[sp] = cand ^ bit
        col = lowest_bit_index(bit)
        x = row * n + col
        # Place a stone of ``colour`` on x; lines reaching k forbid their later cells.
        sp += 1
        forbid[sp] = forbid[sp - 1]
        board[x] = colour + 1
        remaining[colour] -= 1
        col_count[colour, col] += 1
        for i in range(per_cell):
            line = cell_lines[x, i]
            if line < 0:
                break
            counts[colour, line] += 1
            if counts[colour, line] == k:
                for j in range(n):
                    y = line_cells[line, j]
                    if y < 0:
                        break
                    if y // n > row:
                        forbid[sp, colour, y // n] |= 1 << (y % n)
        in_row = f_in_row[sp - 1] + 1
        f_row[sp], f_colour[sp], f_in_row[sp], f_occ[sp], f_cell[sp] = row, colour, in_row, f_occ[sp - 1] | bit, x
        f_stop[sp] = True
        if in_row < k and remaining[colour] > 0:
            f_cand[sp] = full & ~forbid[sp, colour, row] & ~f_occ[sp] & ~((bit << 1) - 1)
        else:
            f_cand[sp] = 0
        # Every colour must still find room (later colours also have the rest of this row).
        for c in range(colours):
            here = 0
            if c == colour:
                here = k - in_row
            elif c > colour:
                here = k
            if remaining[c] > here + _room(n, k, forbid[sp], c, row):
                f_stop[sp] = False
                f_cand[sp] = 0
                break
            if c == colour:
                this_row = f_cand[sp]
            elif c > colour:
                this_row = full & ~forbid[sp, c, row] & ~f_occ[sp]
            else:
                this_row = 0
            if remaining[c] > _column_room(n, k, forbid[sp, c], row, this_row, col_count[c], planes):
                f_stop[sp] = False
                f_cand[sp] = 0
                break
    return found, classes, reached


@jit
def _disjoint(items, a, b):
    for w in range(items.shape[1]):
        if items[a, w] & items[b, w] != 0:
            return False
    return True


@jit
def disjoint_selections(items, group, positions, first_lo, first_hi, flag):
    """Count the ways to pick one item for each of ``positions`` so that the items picked are
    pairwise disjoint (many colours from one-colour solutions, see
    ``puzzles/less_than_three/tuples.py``).

    ``items[i]`` is a set of cells as bits (row i: words of 64 cells), ``group[i]`` its group,
    non-decreasing in i; ``positions[p]`` the group position p takes its item from, also
    non-decreasing. Positions of one group take items in increasing order, so each set of
    items is counted once (the caller multiplies by the orders). Position 0 takes its item
    from ``first_lo`` <= i < ``first_hi`` (the subtask). Each later position chooses from a list of
    the items after the last pick that are disjoint from every pick so far, filtered once per
    pick. Returns ``STOPPED`` when the stop flag ``flag[0]`` was set."""
    m = items.shape[0]
    depth = positions.shape[0]
    if depth == 0:
        return 1
    cand = np.empty((depth, m), dtype=np.int64)
    size = np.zeros(depth, dtype=np.int64)
    at = np.zeros(depth, dtype=np.int64)
    total = 0
    steps = 0
    for i in range(first_lo, first_hi):
        if group[i] != positions[0]:
            continue
        if depth == 1:
            total += 1
            continue
        # The items after i that the next positions may take, disjoint from i.
        wanted = positions[1]
        k = 0
        for j in range(i + 1, m):
            steps += 1
            if (steps & CHECK_MASK) == 0 and flag[0] != 0:
                return STOPPED
            if group[j] >= wanted and _disjoint(items, i, j):
                if depth == 2:
                    if group[j] == wanted:
                        total += 1
                else:
                    cand[1, k] = j
                    k += 1
        if depth == 2:
            continue
        size[1] = k
        at[1] = 0
        d = 1
        while d >= 1:
            if at[d] >= size[d]:
                d -= 1
                continue
            e = cand[d, at[d]]
            at[d] += 1
            if group[e] != positions[d]:
                if group[e] > positions[d]:
                    at[d] = size[d]  # the list is sorted by group: none of this group is left
                continue
            wanted = positions[d + 1]
            last = d + 1 == depth - 1
            k = 0
            for q in range(at[d], size[d]):
                steps += 1
                if (steps & CHECK_MASK) == 0 and flag[0] != 0:
                    return STOPPED
                f = cand[d, q]
                if group[f] >= wanted and _disjoint(items, e, f):
                    if last:
                        if group[f] == wanted:
                            total += 1
                    else:
                        cand[d + 1, k] = f
                        k += 1
            if not last:
                size[d + 1] = k
                at[d + 1] = 0
                d += 1
    return total
