"""N queens on an n x n board: the classic puzzle, and on a torus (see :mod:`.hyperqueen`).

Glossary
--------
placement
    A tuple of n columns, ``placement[r]`` = the column of the queen in row r (row 0 on top).
    Any solution has one queen per row, so this loses nothing.
attack
    Two queens attack each other when they share a row, a column or a diagonal; on a torus the
    diagonals wrap around the edges (see :mod:`boardpuzzles.grid`).
class
    The placements that a symmetry group maps onto each other; :func:`count_classes` counts them
    by finding, in each class, the one placement that is the least image of itself.

Roads not taken: a dancing-links exact-cover solver (slower than bitmasks for this shape), and
storing every solution to count classes (memory grows with the answer; least images need none).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from boardpuzzles.board import Board
from boardpuzzles.errors import SizeError
from boardpuzzles.grid import QUEEN_LINES, Grid
from boardpuzzles.parallel import Progress, Subtask, run_subtasks

Placement = tuple[int, ...]

#: Bitmask kernels keep a line family in one signed 64-bit word.
MAX_N = 62
QUEEN = "Q"


def validate_size(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int):
        raise SizeError(f"the board size must be an integer, got {n!r}")
    if n < 1:
        raise SizeError(f"the board size must be at least 1, got {n}")
    if n > MAX_N:
        raise SizeError(f"the board size must be at most {MAX_N} (one 64-bit word per line), got {n}")


# ------------------------------------------------------------------ checking (independent)
def board_violations(board: Board) -> list[str]:
    """Everything wrong with a board of queens (any letter is a queen), found by walking the
    grid's rows, columns and diagonals (wrapped on a torus): plain code, no bitmasks."""
    grid = board.grid
    if not grid.is_square:
        return [f"the board is {grid.rows}x{grid.cols}; n queens need a square board"]
    queens = set(board.occupied())
    problems = []
    if len(queens) != grid.rows:
        problems.append(f"{len(queens)} queens on a {grid.rows}x{grid.cols} board; a solution has {grid.rows}")
    for direction in QUEEN_LINES:
        for line in grid.lines(direction):
            on_line = [cell for cell in line if cell in queens]
            if len(on_line) > 1:
                names = " and ".join(grid.name(c) for c in on_line)
                problems.append(f"{names} share a {_LINE_NAMES[direction]}")
    return problems


_LINE_NAMES = {(0, 1): "row", (1, 0): "column", (1, 1): "diagonal", (1, -1): "diagonal"}


def violations(n: int, placement: Sequence[int], torus: bool = False) -> list[str]:
    """Everything wrong with a placement (see :func:`board_violations`)."""
    if len(placement) != n:
        return [f"{len(placement)} rows given for the {n}x{n} board"]
    for row, col in enumerate(placement):
        if not isinstance(col, (int, np.integer)) or not 0 <= col < n:
            return [f"row {row}: column {col!r} is off the board"]
    return board_violations(to_board(n, placement, torus))


def check(n: int, placement: Sequence[int], torus: bool = False) -> bool:
    """True when ``placement`` puts n mutually non-attacking queens on the board."""
    return not violations(n, placement, torus)


def to_board(n: int, placement: Sequence[int], torus: bool = False) -> Board:
    grid = Grid.square(n, torus)
    return Board.with_pieces(grid, {grid.index(r, int(c)): QUEEN for r, c in enumerate(placement)})


# ------------------------------------------------------------------ searching
def _kernels():
    from boardpuzzles._kernels import queens as kernels  # numba loads only when a search runs

    return kernels


def solutions(n: int, *, torus: bool = False, group: str | None = None) -> Iterator[Placement]:
    """Every placement, in lexicographic order (row 0's column first, as the seed prints them).

    With ``group``, only the least image of each class under that symmetry group is yielded
    (one representative per class). Lazy: stop iterating and the search stops.
    """
    validate_size(n)
    kernels = _kernels()
    maps = Grid.square(n, torus).group(group).matrices() if group else None
    chunk = 2048
    out = np.empty((chunk, n), dtype=np.int64)
    candidate = np.empty(n, dtype=np.int64)
    pending: list[tuple[int, ...]] = [()]
    while pending:
        prefix = pending.pop()
        found = kernels.row_order_search(n, torus, np.array(prefix, dtype=np.int64), out, chunk + 1)
        if found > chunk:
            # Too many to hold at once: split by the next row, keeping lexicographic order.
            pending.extend((*prefix, c) for c in reversed(range(n)))
            continue
        for i in range(found):
            if maps is None or kernels._is_least_image(out[i], maps, torus, candidate):
                yield tuple(int(c) for c in out[i])


def _open_columns(n: int, prefix: Placement, torus: bool) -> list[int]:
    """Columns of row len(prefix) that no queen of the prefix attacks (plain arithmetic)."""
    row = len(prefix)
    open_cols = []
    for c in range(n):
        ok = True
        for r, q in enumerate(prefix):
            dr, dc = row - r, c - q
            if torus:
                ok = dc % n != 0 and (dc - dr) % n != 0 and (dc + dr) % n != 0
            else:
                ok = dc != 0 and abs(dc) != dr
            if not ok:
                break
        if ok:
            open_cols.append(c)
    return open_cols


def _split(n: int, tasks: list[tuple[Placement, int]], depth: int, torus: bool) -> list[Subtask]:
    """Extend each prefix row by row up to ``depth`` rows; dead prefixes are dropped."""
    for _ in range(depth):
        grown = []
        for prefix, weight in tasks:
            if len(prefix) >= min(depth, n):
                grown.append((prefix, weight))
            else:
                grown.extend(((*prefix, c), weight) for c in _open_columns(n, prefix, torus))
        tasks = grown
    return [Subtask(prefix, weight) for prefix, weight in tasks]


def count_subtasks(n: int, torus: bool) -> tuple[list[Subtask], int]:
    """Subtasks whose weighted counts, divided by the returned unit, add up to the number of
    placements.

    Classic board: the left-right mirror, so row 0 uses the left half of the columns (weight 2)
    and, for odd n, the middle column with row 1 in the left half (weight 2).
    Torus: every placement shifted sideways is another, so row 0's queen is fixed in column 0
    (weight n); from n = 5 on, the 8 rotations and reflections that keep it there are used too
    (the kernel's ``stabiliser`` search: row 1's offset a runs up to n/2, and each placement
    weighs 8/N in units of 1/105).
    """
    validate_size(n)
    unit = 1
    if torus and n >= 5:
        base = [((0, a), n) for a in _open_columns(n, (0,), True) if 2 * a <= n]
        unit = _kernels().STABILISER_UNIT
    elif torus:
        base = [((0,), n)]
    else:
        base = []
        for c in range(n):
            mirror = n - 1 - c
            if c < mirror:
                base.append(((c,), 2))
            elif c == mirror:  # the middle column of an odd board
                if n == 1:
                    base.append(((c,), 1))
                else:
                    base += [((c, c2), 2) for c2 in _open_columns(n, (c,), False) if c2 < n - 1 - c2]
    return _split(n, base, 3, torus), unit


_NO_MAPS = np.empty((0, 6), dtype=np.int64)


def _count_work(spec: tuple[int, bool, Placement]) -> int:
    n, torus, prefix = spec
    kernels = _kernels()
    p = np.array(prefix, dtype=np.int64)
    if torus:
        return int(kernels.torus_search(n, p, kernels.torus_attack_table(n), _NO_MAPS, n >= 5)[0])
    return int(kernels.classic_count(n, p))


def count(n: int, *, torus: bool = False, jobs: int = 1, progress: Progress | None = None) -> int:
    """The number of placements (every rotation, mirror image and shift counted)."""
    subtasks, unit = count_subtasks(n, torus)
    tasks = [Subtask((n, torus, s.spec), s.weight) for s in subtasks]
    return run_subtasks(_count_work, tasks, jobs=jobs, progress=progress, unit=unit)


def _classes_work(spec: tuple[int, bool, Placement, tuple]) -> int:
    n, torus, prefix, maps = spec
    kernels = _kernels()
    p = np.array(prefix, dtype=np.int64)
    m = np.array(maps, dtype=np.int64).reshape(-1, 6)
    if torus:
        _, classes = kernels.torus_search(n, p, kernels.torus_attack_table(n), m, False)
    else:
        _, classes = kernels.count_least_images(n, False, p, m)
    return int(classes)


def count_classes(n: int, group: str, *, torus: bool = False, jobs: int = 1, progress: Progress | None = None) -> int:
    """The number of classes of placements under a symmetry group of the grid."""
    validate_size(n)
    maps = tuple(map(tuple, Grid.square(n, torus).group(group).matrices().tolist()))
    # Each class has exactly one least image; on a torus it has a queen on (0, 0).
    base = [((0,), 1)] if torus else [((c,), 1) for c in range(n)]
    subtasks = _split(n, base, 3, torus)
    tasks = [Subtask((n, torus, s.spec, maps), 1) for s in subtasks]
    return run_subtasks(_classes_work, tasks, jobs=jobs, progress=progress)
