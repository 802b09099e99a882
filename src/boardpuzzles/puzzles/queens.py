"""N queens on an n x n board: the classic puzzle, and on a torus (see :mod:`.hyperqueen`).

Glossary
--------
problem
    :class:`Problem`: the size ``n``, whether the board is a torus, and ``group``: when set, one
    placement per class under that symmetry group is listed and counted.
placement
    A tuple of n columns, ``placement[r]`` = the column of the queen in row r (row 0 on top).
    Any solution has one queen per row, so this loses nothing; answers are boards (``Q`` on
    each queen's cell), which can also hold what is not a solution (for the checker).
attack
    Two queens attack each other when they share a row, a column or a diagonal; on a torus the
    diagonals wrap around the edges (see :mod:`boardpuzzles.grid`).
class
    The placements that a symmetry group maps onto each other; classes are counted by finding,
    in each class, the one placement that is the least image of itself.

Roads not taken: a dancing-links exact-cover solver (slower than bitmasks for this shape), and
storing every solution to count classes (memory grows with the answer; least images need none).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.board import Board, parse_board
from boardpuzzles.errors import BoardPuzzlesError, SizeError, excerpt
from boardpuzzles.grid import QUEEN_LINES, Grid
from boardpuzzles.limits import Limits
from boardpuzzles.parallel import Subtask, run_subtasks
from boardpuzzles.protocol import (
    Example,
    Param,
    Puzzle,
    board_scene,
    dataclass_json,
    pieces_from_json,
    pieces_to_json,
)

Placement = tuple[int, ...]

#: The names the classic puzzle and the torus one (:mod:`.hyperqueen`) are registered under.
NAME = "queens"
TORUS_NAME = "hyperqueen"
#: Bitmask kernels keep a line family in one signed 64-bit word.
MAX_N = 62
QUEEN = "Q"
TORUS_GROUPS = ("torus", "multipliers", "full")
GROUP_HELP = {
    "torus": "rotations, reflections and torus shifts (OEIS A053994)",
    "multipliers": "also (r,c)->(u*r,u*c) for units u mod N (OEIS A062166)",
    "full": "also the 45-degree map (r,c)->(r+c,r-c) (unpublished)",
    "dihedral": "the 8 rotations and reflections of the square (OEIS A002562)",
}


@dataclass(frozen=True)
class Problem:
    """n queens on the n x n board (a torus when ``torus``); with ``group``, one placement per
    class under that symmetry group of the grid."""

    n: int
    torus: bool = False
    group: str | None = None

    def __post_init__(self) -> None:
        validate_size(self.n)
        groups = TORUS_GROUPS if self.torus else ("dihedral",)
        if self.group is not None and self.group not in groups:
            raise BoardPuzzlesError(f"group {self.group!r} is not one of {', '.join(groups)}")
        if self.group == "full" and self.n % 2 == 0:
            raise BoardPuzzlesError("group 'full' needs an odd size: (r+c, r-c) is no bijection otherwise")

    @property
    def grid(self) -> Grid:
        return Grid.square(self.n, self.torus)


def _queens(count: int) -> str:
    return "1 queen" if count == 1 else f"{count} queens"


def validate_size(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int):
        raise SizeError(f"the board size must be an integer, got {excerpt(n)}")
    if n < 1:
        raise SizeError(f"the board size must be at least 1, got {excerpt(n)}")
    if n > MAX_N:
        raise SizeError(f"the board size must be at most {MAX_N} (one 64-bit word per line), got {excerpt(n)}")


def describe(problem: Problem) -> str:
    where = "torus" if problem.torus else "board"
    queens = _queens(problem.n)
    what = f"placements of {queens} on the {problem.n}x{problem.n} {where}"
    return what + (f", one per class under {GROUP_WORDS[problem.group]}" if problem.group else "")


GROUP_WORDS = {
    "dihedral": "rotations and reflections",
    "torus": "rotations, reflections and shifts",
    "multipliers": "rotations, reflections, shifts and multipliers",
    "full": "rotations, reflections, shifts, multipliers and the 45-degree map",
}


def polya_reason(n: int) -> str | None:
    """Why there is no placement on an n x n torus, or None when there are some (gcd(n, 6) = 1)."""
    g = math.gcd(n, 6)
    if n == 1 or g == 1:
        return None
    divisor = "2 and 3" if g == 6 else str(g)
    return (
        f"no placement exists: n = {n} is divisible by {divisor}, and n queens on an n x n torus "
        f"exist only when gcd(n, 6) = 1 (Polya 1918)"
    )


def no_solution_reason(problem: Problem) -> str | None:
    return polya_reason(problem.n) if problem.torus else None


# ------------------------------------------------------------------ checking (independent)
def violations(problem: Problem, board: Board) -> list[str]:
    """Everything wrong with a board of queens (any letter is a queen), found by walking the
    grid's rows, columns and diagonals (wrapped on a torus): plain code, no bitmasks."""
    n = problem.n
    if (board.grid.rows, board.grid.cols) != (n, n):
        verb = "needs" if n == 1 else "need"
        return [f"the board is {board.grid.rows}x{board.grid.cols}; {_queens(n)} {verb} the {n}x{n} board"]
    grid = problem.grid
    queens = set(board.occupied())
    problems = []
    if len(queens) != n:
        problems.append(f"{_queens(len(queens))} on a {n}x{n} board; a solution has {n}")
    for direction in QUEEN_LINES:
        for line in grid.lines(direction):
            on_line = [cell for cell in line if cell in queens]
            if len(on_line) > 1:
                names = " and ".join(grid.name(c) for c in on_line)
                problems.append(f"{names} share a {_LINE_NAMES[direction]}")
    return problems


_LINE_NAMES = {(0, 1): "row", (1, 0): "column", (1, 1): "diagonal", (1, -1): "diagonal"}


def placement_violations(problem: Problem, placement: Sequence[int]) -> list[str]:
    """Everything wrong with a placement given as columns (see :func:`violations`)."""
    n = problem.n
    if len(placement) != n:
        return [f"{len(placement)} rows given for the {n}x{n} board"]
    for row, col in enumerate(placement):
        if isinstance(col, bool) or not isinstance(col, (int, np.integer)) or not 0 <= col < n:
            return [f"row {row}: column {col!r} is off the board"]
    return violations(problem, to_board(problem, placement))


def to_board(problem: Problem, placement: Sequence[int]) -> Board:
    grid = problem.grid
    return Board.with_pieces(grid, {grid.index(r, int(c)): QUEEN for r, c in enumerate(placement)})


def construct(n: int) -> list[int] | None:
    """One placement of n queens on the n x n board (the column of each row), built directly
    rather than searched: the explicit construction of Hoffman, Loessi and Moore (Mathematics
    Magazine 42, 1969; also Bernhardsson, SIGART Bulletin 2, 1991), O(n). None for n = 2 and 3,
    which have no placement. Callers check the result with :func:`violations` like any answer."""
    validate_size(n)
    if n in (2, 3):
        return None
    if n == 1:
        return [0]
    even = n - n % 2  # an odd n is the even n - 1 with one more queen in the free corner
    half = even // 2
    columns: list[int] = [0] * even
    if even % 6 != 2:  # rows i and half + i (from 1) take columns 2i and 2i - 1
        for i in range(1, half + 1):
            columns[i - 1] = 2 * i - 1
            columns[half + i - 1] = 2 * i - 2
    else:  # the other shape, for n = 6k + 2 (where the first one has two queens on a diagonal)
        for i in range(1, half + 1):
            shift = (2 * i + half - 3) % even
            columns[i - 1] = shift
            columns[even - i] = even - 1 - shift
    return columns + [n - 1] if n % 2 else columns


# ------------------------------------------------------------------ searching
def _kernels() -> Any:
    from boardpuzzles._kernels import queens as kernels  # numba loads only when a search runs

    return kernels


def placements(problem: Problem, limits: Limits | None = None) -> Iterator[Placement]:
    """Every placement, in lexicographic order (row 0's column first, as the seed prints them);
    with ``problem.group``, only the least image of each class (one per class). Lazy: stop
    iterating and the search stops."""
    limits = limits if limits is not None else Limits()
    if problem.torus and polya_reason(problem.n):
        return
    n, torus = problem.n, problem.torus
    if problem.group is None and n <= PLAIN_MAX_N:
        yield from plain_placements(n, torus, limits)
        return
    kernels = _kernels()
    maps = problem.grid.group(problem.group).matrices() if problem.group else None
    chunk = 2048
    out = np.empty((chunk, n), dtype=np.int64)
    candidate = np.empty(n, dtype=np.int64)
    pending: list[tuple[int, ...]] = [()]
    while pending:
        prefix = pending.pop()
        found = kernels.row_order_search(n, torus, np.array(prefix, dtype=np.int64), out, chunk + 1, limits.flag)
        if found == kernels.STOPPED:
            limits.raise_stop()
        if found > chunk:
            # Too many to hold at once: split by the next row, keeping lexicographic order.
            pending.extend((*prefix, c) for c in reversed(range(n)))
            continue
        for i in range(found):
            if maps is None or kernels.is_least_image(out[i], maps, torus, candidate):
                yield tuple(int(c) for c in out[i])


#: Up to this size, every placement is listed by plain Python (:func:`plain_placements`) rather
#: than by the kernels: at most a few tens of milliseconds of search, less than loading numba takes.
PLAIN_MAX_N = 11


def plain_placements(n: int, torus: bool, limits: Limits | None = None) -> Iterator[Placement]:
    """Every placement in lexicographic order, by plain Python (bitmasks of the columns and of
    both diagonal families, shifted by one per row); the same answers as the kernels give, in the
    same order, for the small sizes where starting the kernels would take longer than the search."""
    full = (1 << n) - 1
    placed: list[int] = []
    steps = 0

    def rotate(mask: int, by: int) -> int:  # on the torus the diagonals wrap around the n columns
        by %= n
        return ((mask << by) | (mask >> (n - by))) & full

    def extend(cols: int, down: int, up: int) -> Iterator[Placement]:
        # ``down`` and ``up``: the columns this row's diagonals (r - c, r + c) forbid.
        nonlocal steps
        if len(placed) == n:
            yield tuple(placed)
            return
        steps += 1
        if limits is not None and steps & 0xFFF == 0:
            limits.check()
        free = full & ~(cols | down | up)
        while free:
            bit = free & -free
            free ^= bit
            placed.append(bit.bit_length() - 1)
            taken_down, taken_up = down | bit, up | bit
            if torus:
                yield from extend(cols | bit, rotate(taken_down, 1), rotate(taken_up, -1))
            else:
                yield from extend(cols | bit, (taken_down << 1) & full, taken_up >> 1)
            placed.pop()

    yield from extend(0, 0, 0)


def solutions(problem: Problem, limits: Limits | None = None) -> Iterator[Board]:
    """Every solution as a board, in the order of :func:`placements`."""
    for placement in placements(problem, limits):
        yield to_board(problem, placement)


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


def _split(n: int, tasks: Sequence[tuple[Placement, int]], depth: int, torus: bool) -> list[Subtask]:
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


def count_subtasks(n: int, torus: bool, what: str = "placements") -> tuple[list[Subtask], int]:
    """Subtasks whose weighted counts, divided by the returned unit, add up to the number of
    placements, or of classes: ``what`` is ``placements`` or a group (``dihedral`` on the
    classic board, one of ``TORUS_GROUPS`` on the torus).

    Classic board: the border searches (:func:`border_starts`), or from n = 23 on the left-right
    mirror (row 0 in the left half of the columns, weight 2; for odd n, the middle column with
    row 1 in the left half, weight 2). Its classes follow from Burnside's lemma (see
    :func:`_classic_class_subtasks`). Torus: one search per orbit of the largest group (see
    :func:`torus_orbit_subtasks`).
    """
    validate_size(n)
    if torus:
        return torus_orbit_subtasks(n, what), 1
    if what == "dihedral":
        return _classic_class_subtasks(n), 8
    if n <= BORDER_MAX_N:
        starts = border_starts(n)
        chunk = max(1, -(-len(starts) // BORDER_SUBTASKS))
        return [Subtask(("border", n, tuple(starts[i : i + chunk]))) for i in range(0, len(starts), chunk)], 1
    base: list[tuple[Placement, int]] = []
    for c in range(n):
        mirror = n - 1 - c
        if c < mirror:
            base.append(((c,), 2))
        elif c == mirror:  # the middle column of an odd board
            base += [((c, c2), 2) for c2 in _open_columns(n, (c,), False) if c2 < n - 1 - c2]
    return [Subtask(("board", n, s.spec), s.weight) for s in _split(n, base, 3, False)], 1


def _classic_class_subtasks(n: int) -> list[Subtask]:
    """Burnside's lemma: the classes under the 8 symmetries of the square are the average number
    of placements that each symmetry fixes. The identity fixes them all (the plain count), the
    two quarter turns fix the same ones, and the half turn fixes its own (small searches). No
    reflection fixes a placement of n >= 2 queens: a mirror through a middle line would need
    every queen on that line, and one through a diagonal pairs (r, c) with (c, r), two cells of
    one anti-diagonal, so its queens would all stand on the diagonal itself, where only one fits.
    In units of 1/8."""
    plain, _ = count_subtasks(n, False)
    return [*plain, Subtask(("turn", n, True), 2), Subtask(("turn", n, False), 1), Subtask(("mirror", n), 4)]


#: The largest n of the kernel's border search (``_kernels.queens.BORDER_MAX_N``), copied here
#: so that planning a count does not load numba (a test checks that the two agree).
BORDER_MAX_N = 22
#: The border starts of the classic count are shared out over this many subtasks (at most).
BORDER_SUBTASKS = 256


def _border_clashes(n: int, queens: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """For arrays of border starts given as their four queens (row, column): which break the
    corner rule (a queen in a corner is the border queen of both its lines) or attack each
    other (two queens on one cell are one corner queen)."""
    m = n - 1
    (_, t), (_, b), (lft, _), (rgt, _) = queens
    bad = ((t == 0) != (lft == 0)) | ((t == m) != (rgt == 0)) | ((b == 0) != (lft == m)) | ((b == m) != (rgt == m))
    for i, (r1, c1) in enumerate(queens):
        for r2, c2 in queens[:i]:
            same = (r1 == r2) & (c1 == c2)
            bad |= ~same & ((r1 == r2) | (c1 == c2) | (r1 - c1 == r2 - c2) | (r1 + c1 == r2 + c2))
    return bad


def _popcounts(x: np.ndarray) -> np.ndarray:
    """The set bits of each non-negative int64 (SWAR: numpy 1.26 has no popcount)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


def border_branching(n: int, t: np.ndarray, b: np.ndarray, lft: np.ndarray, rgt: np.ndarray) -> np.ndarray:
    """For arrays of border starts: the product of the open cells (given the four border queens
    alone) over the first ``n // 2`` rows that the top-down search fills, a guess at the size of
    its tree: the fewer choices near its root, the smaller it is."""
    m = n - 1
    window = ((1 << n) - 1) << m  # column c at bit c + m: every line below lands in 64 bits
    product = np.ones(t.shape, dtype=np.int64)
    taken = np.zeros(t.shape, dtype=np.int64)  # how many rows were multiplied in so far
    for row in range(1, m):
        use = (row != lft) & (row != rgt) & (taken < n // 2)
        hit = np.full(t.shape, (1 << m) | (1 << (2 * m)), dtype=np.int64)  # columns 0 and n-1
        for c in (t, t + row, t - row, b, b - m + row, b + m - row, row - lft, lft - row, m - rgt + row, rgt + m - row):
            hit |= np.left_shift(1, c + m)
        product = np.where(use, product * (n - _popcounts(hit & window)), product)
        taken += use
    return product


@functools.cache
def border_starts(n: int) -> list[tuple[int, int, int, int, int]]:
    """One start (t, b, l, r, weight) per class of border queens under the 8 symmetries: the
    queens of row 0 (column t), row n-1 (column b), column 0 (row l) and column n-1 (row r).
    Every placement has exactly one such set; a symmetry maps the placements of one start onto
    those of its image, so each class is searched once and weighted by its size (8, 4 or 2).
    Of the 8 images, the one searched is the one whose search branches least near its root
    (:func:`border_branching`; a third fewer steps than the images whose side queens sit
    lowest, the choice before), ties to the least; the starts are sorted.

    All n^4 candidates at once, with numpy: a quarter turn sends (t, b, l, r) to
    (n-1-l, n-1-r, b, t), the left-right mirror to (n-1-t, n-1-b, r, l)."""
    m = n - 1
    t, b, lft, rgt = (x.ravel() for x in np.meshgrid(*(np.arange(n, dtype=np.int64),) * 4, indexing="ij"))
    ok = ~_border_clashes(
        n, [(np.zeros_like(t), t), (np.full_like(b, m), b), (lft, np.zeros_like(lft)), (rgt, np.full_like(rgt, m))]
    )
    t, b, lft, rgt = t[ok], b[ok], lft[ok], rgt[ok]
    images = []
    for mirrored in (False, True):
        image = (m - t, m - b, rgt, lft) if mirrored else (t, b, lft, rgt)
        for _ in range(4):
            images.append(image)
            it, ib, il, ir = image
            image = (m - il, m - ir, ib, it)
    codes = np.stack([((it * n + ib) * n + il) * n + ir for it, ib, il, ir in images])
    first = codes[0] == codes.min(axis=0)  # one start per class: its lexicographically least image
    codes = codes[:, first]
    ordered = np.sort(codes, axis=0)
    weights = 1 + np.count_nonzero(np.diff(ordered, axis=0), axis=0)
    digits = [codes // n**3, codes // n**2 % n, codes // n % n, codes % n]
    branching = border_branching(n, *(d.ravel() for d in digits)).reshape(codes.shape)
    choice = np.lexsort((codes, branching), axis=0)[0]
    best = codes[choice, np.arange(codes.shape[1])]
    starts = [
        (int(code // n**3), int(code // n**2 % n), int(code // n % n), int(code % n), int(weight))
        for code, weight in zip(best.tolist(), weights.tolist(), strict=True)
    ]
    return sorted(starts)


# ------------------------------------------------------------------ the torus: one search per orbit
#: Each torus group is a subgroup of the next; a search under the largest counts them all.
TORUS_LEVELS = TORUS_GROUPS


@dataclass(frozen=True)
class TorusOrbits:
    """The largest torus group for n (``full`` for odd n, else ``multipliers``), as the kernel
    of :func:`torus_orbit_search` reads it.

    ``maps``: its point maps (rows a, b, c, d); ``levels[m]``: the first of ``TORUS_LEVELS`` that
    holds map m; ``index[l]``: that group's index in the largest one. ``offset[dr, dc]``: the
    least row-1 column a that the difference (dr, dc) of two queens maps to (the least image of
    a placement has its row-1 queen there); -1 for differences on a queen's lines, n when no map
    sends it to row 1. ``offsets``: the values of a that occur, in increasing order.
    """

    n: int
    maps: np.ndarray
    levels: np.ndarray
    index: np.ndarray
    offset: np.ndarray
    offsets: tuple[int, ...]


def _reduced(matrices: np.ndarray, n: int) -> list[tuple[int, ...]]:
    return [tuple(int(x) % n for x in row[:4]) for row in matrices]


@functools.cache
def torus_orbits(n: int) -> TorusOrbits:
    grid = Grid.square(n, torus=True)
    top = "full" if n % 2 else "multipliers"
    maps = _reduced(grid.group(top).matrices(), n)
    members = [set(_reduced(grid.group(g).matrices(), n)) for g in TORUS_LEVELS[: TORUS_LEVELS.index(top) + 1]]
    levels = np.array([min(lv for lv, s in enumerate(members) if m in s) for m in maps], dtype=np.int64)
    sizes = [int(np.sum(levels <= lv)) for lv in range(len(TORUS_LEVELS))]
    index = np.array([len(maps) // size for size in sizes], dtype=np.int64)
    r, c = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    offset = np.full((n, n), n, dtype=np.int64)
    for a, b, cc, d in maps:
        rows, cols = (a * r + b * c) % n, (cc * r + d * c) % n
        offset = np.where(rows == 1, np.minimum(offset, cols), offset)
    attacked = (r == 0) | (c == 0) | ((r - c) % n == 0) | ((r + c) % n == 0)
    offset[attacked] = -1
    offsets = tuple(sorted({int(x) for x in offset.ravel() if 0 <= x < n}))
    array = np.array(maps, dtype=np.int64).reshape(-1, 4)
    for table in (array, levels, index, offset):
        table.flags.writeable = False
    return TorusOrbits(n, array, levels, index, offset, offsets)


@dataclass(frozen=True)
class OrbitTables:
    """What one search of :func:`torus_orbit_search` reads, for least images with queens on
    (0, 0), (1, a) and (2, c2) (see the kernel's module for the method)."""

    attack: np.ndarray
    tri_cnt: np.ndarray
    tri_off: np.ndarray
    anchor_cnt: np.ndarray
    anchor_map: np.ndarray
    row2: np.ndarray


@functools.cache
def _orbit_attack(n: int, a: int) -> np.ndarray:
    """The torus attack table plus, d rows below, the columns at differences whose least row-1
    offset is below a (a pair of queens there would give a smaller image)."""
    orbits = torus_orbits(n)
    table = torus_attack_table(n).copy()
    for d in range(1, n):
        for dc in range(n):
            if 0 <= orbits.offset[d, dc] < a:
                for c in range(n):
                    table[d, c] |= 1 << ((c + dc) % n)
    table.flags.writeable = False
    return table


def _orbit_open(n: int, attack: np.ndarray, queens: Sequence[tuple[int, int]], row: int) -> list[int]:
    """The columns of ``row`` that ``queens`` leave open under ``attack`` ([] if they clash)."""
    mask = (1 << n) - 1
    for i, (r, c) in enumerate(queens):
        for r0, c0 in queens[:i]:
            if r == r0 or (int(attack[(r - r0) % n, c0]) >> c) & 1:
                return []
        if r == row:
            return []
        mask &= ~int(attack[(row - r) % n, c])
    return [c for c in range(n) if (mask >> c) & 1]


def _second_rows(n: int, a: int) -> list[int]:
    """The columns of row 2 open next to (0, 0) and (1, a) in the search for offset a."""
    return _orbit_open(n, _orbit_attack(n, a), [(0, 0), (1, a)], 2)


@functools.lru_cache(maxsize=16)
def orbit_tables(n: int, a: int, c2: int) -> OrbitTables:
    orbits = torus_orbits(n)
    maps = orbits.maps
    # The excluded triples: images of (0, 0), (1, a), (2, c') for every c' < c2 and map g; for
    # any two of their queens, the cell of the third, as an offset from the first of the two.
    third: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for c_less in (c for c in _second_rows(n, a) if c < c2):
        for ma, mb, mc, md in maps.tolist():
            points = (
                (0, 0),
                ((ma + mb * a) % n, (mc + md * a) % n),
                ((2 * ma + mb * c_less) % n, (2 * mc + md * c_less) % n),
            )
            for x, y, z in itertools.permutations(points):
                key = ((y[0] - x[0]) % n, (y[1] - x[1]) % n)
                third.setdefault(key, set()).add(((z[0] - x[0]) % n, (z[1] - x[1]) % n))
    tri_cnt = np.zeros((n, n), dtype=np.int64)
    tri_off = np.zeros((n, n, max((len(v) for v in third.values()), default=0), 2), dtype=np.int64)
    for (dr, dc), cells in third.items():
        tri_cnt[dr, dc] = len(cells)
        tri_off[dr, dc, : len(cells)] = sorted(cells)
    # The maps that send a difference to (1, a) (one difference per map): the pairs of queens
    # that an image with the search's rows 0 and 1 can start from.
    r, c = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    starts = []
    for mi, (ma, mb, mc, md) in enumerate(maps.tolist()):
        (row,), (col,) = np.nonzero(((ma * r + mb * c) % n == 1) & ((mc * r + md * c) % n == a))
        starts.append((int(row), int(col), mi))
    anchor_cnt = np.zeros((n, n), dtype=np.int64)
    for dr, dc, _ in starts:
        anchor_cnt[dr, dc] += 1
    anchor_map = np.zeros((n, n, int(anchor_cnt.max())), dtype=np.int64)
    filled = np.zeros((n, n), dtype=np.int64)
    for dr, dc, mi in starts:
        anchor_map[dr, dc, filled[dr, dc]] = mi
        filled[dr, dc] += 1
    row2 = np.array([_row_two_line(n, m) for m in maps.tolist()], dtype=np.int64).reshape(-1, 2)
    return OrbitTables(_orbit_attack(n, a), tri_cnt, tri_off, anchor_cnt, anchor_map, row2)


def _row_two_line(n: int, m: Sequence[int]) -> tuple[int, int]:
    """(family, k): the line that point map m sends to row 2, as x_r = k, x_c = k,
    x_r - x_c = k or x_r + x_c = k (family 0..3; a map of the group keeps the four families)."""
    a, b = m[0] % n, m[1] % n
    for family, (fa, fb) in enumerate(((1, 0), (0, 1), (1, n - 1), (1, 1))):
        u = a if fa else b
        if math.gcd(u, n) == 1 and (u * fa % n, u * fb % n) == (a, b):
            return family, 2 * pow(u, -1, n) % n
    raise AssertionError(f"the point map {tuple(m)} does not keep the queen's lines")


def torus_orbit_subtasks(n: int, what: str = "placements") -> list[Subtask]:
    """One subtask per least-image start (0, 0), (1, a), (2, c2), (3, c3), (n-1, c_last): every
    orbit's least image begins with exactly one of them. ``what``: ``placements`` (each orbit
    adds its size) or a group of ``TORUS_GROUPS`` (each orbit adds its number of classes)."""
    if n < 5:  # no room for the three first rows; the plain search (1 placement for n = 1)
        return [Subtask(("torus-plain", n, what))]
    tasks = []
    for a in torus_orbits(n).offsets:
        attack = _orbit_attack(n, a)
        for c2 in _second_rows(n, a):
            start = [(0, 0), (1, a), (2, c2)]
            for c3 in _orbit_open(n, attack, start, 3):
                for last in _orbit_open(n, attack, [*start, (3, c3)], n - 1):
                    # (2, c2) - x swaps (0, 0) and (2, 2a) and keeps (1, a): it sends row n-1 to
                    # row 3, so the least image has c3 <= 2a - c_last.
                    if c2 == 2 * a % n and c3 > (2 * a - last) % n:
                        continue
                    tasks.append(Subtask(("torus", n, what, a, c2, c3, last)))
    return tasks


@functools.cache
def torus_attack_table(n: int) -> np.ndarray:
    """``table[d, c]``: the columns that a queen in column c attacks in the row d rows below it
    on the n x n torus, read off the grid's wrapped lines (its column and two diagonals)."""
    grid = Grid.square(n, torus=True)
    table = np.zeros((n, n), dtype=np.int64)
    for c in range(n):
        for direction in ((1, 0), (1, 1), (1, -1)):
            line = grid.line(grid.index(0, c), direction)  # line[d] lies d rows below
            for d in range(n):
                table[d, c] |= 1 << grid.coords(line[d])[1]
    table.flags.writeable = False  # shared by every call for this n
    return table


#: Bumped when what a subtask spec means changes (checkpoints of other versions are refused).
#: 2: torus subtasks are least-image starts of the orbit search (were prefixes of rows 0..2).
PLAN_VERSION = 2


def torus_orbit_run(n: int, queens: Sequence[tuple[int, int]], flag: np.ndarray) -> tuple[np.ndarray, int]:
    """Run :func:`torus_orbit_search` from the least-image start ``queens`` ((0, 0), (1, a),
    (2, c2), ...): (``out``, steps), ``out[0]`` the orbit sizes, ``out[1 + l]`` the classes under
    ``TORUS_LEVELS[l]``; steps is ``STOPPED`` when the flag was set."""
    orbits = torus_orbits(n)
    tables = orbit_tables(n, queens[1][1], queens[2][1])
    out = np.zeros(1 + len(TORUS_LEVELS), dtype=np.int64)
    steps = _kernels().torus_orbit_search(
        n,
        np.array(queens, dtype=np.int64).reshape(-1, 2),
        tables.attack,
        tables.tri_cnt,
        tables.tri_off,
        tables.anchor_cnt,
        tables.anchor_map,
        orbits.maps,
        tables.row2,
        orbits.levels,
        orbits.index,
        out,
        flag,
    )
    return out, int(steps)


def _count_work(spec: tuple[Any, ...], limits: Limits) -> int:
    kernels = _kernels()
    if spec[0] == "border":
        _, n, starts = spec
        table = np.array(starts, dtype=np.int64).reshape(-1, 5)
        found = int(kernels.classic_border_count(n, table[:, :4].copy(), table[:, 4].copy(), limits.flag)[0])
    elif spec[0] == "board":
        _, n, prefix = spec
        found = int(kernels.classic_count(n, np.array(prefix, dtype=np.int64), limits.flag))
    elif spec[0] == "turn":
        _, n, quarter = spec
        found = int(kernels.classic_turn_count(n, quarter, limits.flag)[0])
    elif spec[0] == "mirror":  # placements a reflection fixes: only the single queen of n = 1
        found = 1 if spec[1] == 1 else 0
    elif spec[0] == "torus-plain":  # n < 5: at most one placement (n = 1), a class of its own
        n = spec[1]
        nothing = np.empty(0, dtype=np.int64)
        found = int(kernels.row_order_search(n, True, nothing, np.empty((0, n), dtype=np.int64), -1, limits.flag))
    else:
        _, n, what, a, c2, c3, last = spec
        out, steps = torus_orbit_run(n, [(0, 0), (1, a), (2, c2), (3, c3), (n - 1, last)], limits.flag)
        found = kernels.STOPPED if steps == kernels.STOPPED else int(out[_OUTPUT[what]])
    if found == kernels.STOPPED:
        limits.raise_stop()
    return found


_OUTPUT = {"placements": 0} | {group: 1 + level for level, group in enumerate(TORUS_LEVELS)}


def count(problem: Problem, limits: Limits | None = None) -> int:
    """The number of placements (every rotation, mirror image and shift counted), or of classes
    when ``problem.group`` is set."""
    limits = limits if limits is not None else Limits()
    n, torus = problem.n, problem.torus
    if torus and polya_reason(n):
        return 0
    if problem.group is None and n <= PLAIN_MAX_N and limits.checkpoint is None and limits.scheduler is None:
        return sum(1 for _ in plain_placements(n, torus, limits))
    subtasks, unit = count_subtasks(n, torus, problem.group or "placements")
    return run_subtasks(_count_work, subtasks, limits, identity=problem_identity(problem), unit=unit)


def problem_identity(problem: Problem) -> dict[str, Any]:
    """What a count's checkpoint is bound to: the puzzle (``queens``, or ``hyperqueen`` on the
    torus) and the problem, as the two PUZZLEs' ``problem_identity`` give it (the tests hold them
    equal), so that this module never reaches up to :mod:`.hyperqueen`."""
    return {"puzzle": TORUS_NAME if problem.torus else NAME, "problem": dataclass_json(problem)}


# ------------------------------------------------------------------ the protocol
def answer_to_json(problem: Problem, board: Board) -> dict[str, list[str]]:
    return pieces_to_json(board)


def answer_from_json(problem: Problem, document: Any) -> Board:
    return pieces_from_json(problem.grid, document, QUEEN)


def read_answer(values: Mapping[str, Any], text: str | None, torus: bool = False) -> tuple[Problem, Board]:
    """A picture of queens (``Q`` or any letter, ``.`` or space empty, spaced or not); its
    problem is read off the picture (n = its number of rows)."""
    board = parse_board(text or "", torus=torus)
    return Problem(board.grid.rows, torus), board


def _problem(n: int, unique: bool = False) -> Problem:
    return Problem(n, False, "dihedral" if unique else None)


#: The warmup's independent parts (``boardpuzzles warmup`` compiles them at the same time); the
#: sizes are past PLAIN_MAX_N, where the kernels search.
_WARMUP = (
    lambda: count(Problem(12)),
    lambda: count(Problem(6, group="dihedral")),
    lambda: next(solutions(Problem(12))),
)


PUZZLE: Puzzle[Problem, Board] = Puzzle(
    name=NAME,
    title="the classic n queens puzzle",
    description="The classic puzzle: N queens on an N x N board, none attacking another (no two "
    "share a row, a column or a diagonal).",
    params=(
        Param("n", "side", "the board's side", positional=True, metavar="N", maximum=MAX_N),
        Param("unique", "flag", "One placement per class of the 8 rotations and reflections (OEIS A002562).", False),
    ),
    problem=_problem,
    solutions=solutions,
    count=count,
    violations=violations,
    to_scene=board_scene,
    answer_to_json=answer_to_json,
    answer_from_json=answer_from_json,
    read_answer=read_answer,
    describe=describe,
    small="8",
    small_count=92,
    small_source="OEIS A000170",
    slow="20",
    examples=(
        Example("solve 8 --unique --limit 1"),
        Example("count 8", 92, "OEIS A000170"),
        Example("count 8 --unique", 12, "OEIS A002562"),
        Example("count 12", 14200, "OEIS A000170"),
        Example("check tests/data/queens4_wrong.txt"),
    ),
    warmup=_WARMUP,
)
