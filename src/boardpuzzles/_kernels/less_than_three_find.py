"""One one-colour Less Than Three board by whole orbits of a symmetry (``less_than_three.find``).

``find_symmetric`` looks for one board (K stones in every row and column, at most K on any line)
that is a union of the orbits of a symmetry, deciding the orbits of the tightest row or column
first. Tables come in as one bundle, :class:`FindTables` (built in
``puzzles/less_than_three/cell_find.py``); the board being built is one :class:`FindState`. Twin:
``symmetric_line_boards`` in ``tests/reference.py``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from boardpuzzles._kernels import CHECK_MASK, jit, jit_inline

#: ``find_symmetric``'s status when the stop flag was set (-1 is "out of budget").
STOPPED_FIND = -2


class FindTables(NamedTuple):
    """What every attempt on one board and symmetry shares: n, K; ``cell_lines[cell]`` the lines
    through a cell and ``line_cells[line]`` the cells of a line (both padded with -1);
    ``orbit_cells[o]`` the cells of orbit o (padded with -1) and ``orbit_of[cell]`` its orbit
    (-1 for a cell that must stay empty)."""

    n: int
    k: int
    cell_lines: np.ndarray
    line_cells: np.ndarray
    orbit_cells: np.ndarray
    orbit_of: np.ndarray


class FindState(NamedTuple):
    """The board being built: its cells (1 a stone), stones per line, per cell the full lines
    through it (``blocked``), per row and column the cells still open and the stones in it.
    The kernels that take this bundle (and ``FindTables``) are inlined into their callers
    (``jit_inline``): taking arrays out of a bundle in a separate call, once per stone, made
    the search several times slower. ``_find_block``, run for every cell of a full line, takes
    its arrays one by one."""

    board: np.ndarray
    counts: np.ndarray
    blocked: np.ndarray
    row_free: np.ndarray
    col_free: np.ndarray
    row_count: np.ndarray
    col_count: np.ndarray


@jit
def _find_block(n, x, delta, board, blocked, row_free, col_free):
    """Block (delta=1) or unblock (delta=-1) cell x once more: a full line through it, or the "no"
    branch of the search. Rows and columns count their open cells: empty and not blocked."""
    if delta > 0:
        blocked[x] += 1
        if blocked[x] == 1 and board[x] == 0:
            row_free[x // n] -= 1
            col_free[x % n] -= 1
    else:
        blocked[x] -= 1
        if blocked[x] == 0 and board[x] == 0:
            row_free[x // n] += 1
            col_free[x % n] += 1


@jit_inline
def _find_toggle(tables, state, x, delta):
    """Add (delta=1) or remove (delta=-1) a stone on x, keeping per cell the number of full lines
    through it (``blocked``) and per row and column the number of cells still usable. Returns
    False when a line would exceed k (the stone is still counted: remove it again)."""
    n, k, cell_lines, line_cells = tables.n, tables.k, tables.cell_lines, tables.line_cells
    board, counts, blocked, row_free, col_free, row_count, col_count = state
    ok = True
    if delta > 0:
        if blocked[x] == 0:
            row_free[x // n] -= 1
            col_free[x % n] -= 1
        board[x] = 1
    else:
        board[x] = 0
        if blocked[x] == 0:
            row_free[x // n] += 1
            col_free[x % n] += 1
    row_count[x // n] += delta
    col_count[x % n] += delta
    for j in range(cell_lines.shape[1]):
        line = cell_lines[x, j]
        if line < 0:
            break
        before = counts[line]
        counts[line] += delta
        if counts[line] > k:
            ok = False
        # A line becoming full (or no longer full) blocks (unblocks) its empty cells.
        if (before == k - 1 and delta > 0) or (before == k and delta < 0):
            for i in range(line_cells.shape[1]):
                y = line_cells[line, i]
                if y < 0:
                    break
                _find_block(n, y, delta, board, blocked, row_free, col_free)
    return ok


@jit_inline
def _find_orbit(tables, state, o, delta, place):
    """Place (place=True) or forbid the cells of orbit ``o`` (delta=1), or undo that (delta=-1).
    Returns False when placing breaks a line (the orbit is then undone already)."""
    orbit_cells = tables.orbit_cells
    width = orbit_cells.shape[1]
    if not place:
        n, board, blocked, row_free, col_free = tables.n, state.board, state.blocked, state.row_free, state.col_free
        for i in range(width):
            y = orbit_cells[o, i]
            if y < 0:
                break
            _find_block(n, y, delta, board, blocked, row_free, col_free)
        return True
    last = width - 1
    while orbit_cells[o, last] < 0:
        last -= 1
    ok = True
    if delta > 0:
        for i in range(last + 1):
            if not _find_toggle(tables, state, orbit_cells[o, i], 1):
                ok = False
                last = i  # the stones placed so far come off again, this one too
                break
        if ok:
            return True
    for i in range(last, -1, -1):
        _find_toggle(tables, state, orbit_cells[o, i], -1)
    return ok


@jit
def _find_feasible(n, k, state):
    """Every row and column can still end with exactly k stones."""
    row_free, col_free, row_count, col_count = state.row_free, state.col_free, state.row_count, state.col_count
    for r in range(n):
        if row_count[r] > k or row_count[r] + row_free[r] < k:
            return False
        if col_count[r] > k or col_count[r] + col_free[r] < k:
            return False
    return True


@jit
def _tightest_line(n, k, state):
    """The row (0..n-1) or column (n..2n-1) still short of k stones with the least room to
    spare; -1 when every row holds k stones."""
    row_free, col_free, row_count, col_count = state.row_free, state.col_free, state.row_count, state.col_count
    best = -1
    best_room = n * n + 1
    for line in range(2 * n):
        if line < n:
            need = k - row_count[line]
            room = row_free[line] - need
        else:
            need = k - col_count[line - n]
            room = col_free[line - n] - need
        if need > 0 and room < best_room:
            best_room = room
            best = line
    return best


@jit
def find_symmetric(tables, order, budget, flag):
    """Look for one one-colour board (k stones in every row and column, at most k on any line)
    that is a union of the orbits ``tables.orbit_cells``, so that it has the symmetry those
    orbits come from.

    Each step takes the row or column with the least room to spare (open cells minus stones still
    needed), and in it the first open cell in the random order ``order[line]`` (lines 0..n-1 are
    the rows, n..2n-1 the columns), then tries both ways: its orbit placed, then its orbit
    forbidden. A row or column that can no longer reach k stones ends the branch. Returns
    ``(status, board)``: 1 found, 0 no such board exists, -1 the ``budget`` of steps ran out,
    ``STOPPED_FIND`` the stop flag ``flag[0]`` was set."""
    n, k = tables.n, tables.k
    orbit_cells, orbit_of = tables.orbit_cells, tables.orbit_of
    cells = n * n
    state = FindState(
        np.zeros(cells, dtype=np.int64),
        np.zeros(max(tables.line_cells.shape[0], 1), dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
        np.full(n, n, dtype=np.int64),
        np.full(n, n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
    )
    board, blocked = state.board, state.blocked
    for x in range(cells):
        if orbit_of[x] < 0:
            _find_block(n, x, 1, board, blocked, state.row_free, state.col_free)
    st_orbit = np.empty(cells + 1, dtype=np.int64)
    st_placed = np.empty(cells + 1, dtype=np.bool_)  # True: the "yes" branch is on the stack
    depth = 0
    if not _find_feasible(n, k, state):
        return 0, board
    while True:
        if budget <= 0:
            return -1, board
        budget -= 1
        if (budget & CHECK_MASK) == 0 and flag[0] != 0:
            return STOPPED_FIND, board
        best = _tightest_line(n, k, state)
        if best < 0:
            return 1, board  # every row holds k stones, so every column does too
        x = -1
        for i in range(n):
            if best < n:
                y = best * n + order[best, i]
            else:
                y = order[best, i] * n + (best - n)
            if board[y] == 0 and blocked[y] == 0:
                x = y
                break
        o = orbit_of[x]
        if _find_orbit(tables, state, o, 1, True):
            if _find_feasible(n, k, state):
                st_orbit[depth] = o
                st_placed[depth] = True
                depth += 1
                continue
            _find_orbit(tables, state, o, -1, True)
        # The "yes" branch failed at once: go straight to "no" for this orbit.
        st_orbit[depth] = o
        st_placed[depth] = True
        depth += 1
        # Backtrack: the deepest "yes" becomes a "no"; a "no" that fails is taken back.
        while True:
            if depth == 0:
                return 0, board
            depth -= 1
            o = st_orbit[depth]
            if st_placed[depth]:
                if board[orbit_cells[o, 0]] != 0:
                    _find_orbit(tables, state, o, -1, True)
                _find_orbit(tables, state, o, 1, False)
                if _find_feasible(n, k, state):
                    st_placed[depth] = False
                    depth += 1
                    break
            _find_orbit(tables, state, o, -1, False)
