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
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardpuzzles.board import Board, parse_board
from boardpuzzles.errors import BoardPuzzlesError, SizeError, excerpt
from boardpuzzles.grid import QUEEN_LINES, Grid
from boardpuzzles.limits import Limits
from boardpuzzles.parallel import Subtask, run_subtasks
from boardpuzzles.protocol import Example, Param, Puzzle, board_scene, pieces_from_json, pieces_to_json

Placement = tuple[int, ...]

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


def validate_size(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int):
        raise SizeError(f"the board size must be an integer, got {excerpt(n)}")
    if n < 1:
        raise SizeError(f"the board size must be at least 1, got {excerpt(n)}")
    if n > MAX_N:
        raise SizeError(f"the board size must be at most {MAX_N} (one 64-bit word per line), got {excerpt(n)}")


def describe(problem: Problem) -> str:
    where = "torus" if problem.torus else "board"
    what = f"placements of {problem.n} queens on the {problem.n}x{problem.n} {where}"
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
        return [f"the board is {board.grid.rows}x{board.grid.cols}; {n} queens need the {n}x{n} board"]
    grid = problem.grid
    queens = set(board.occupied())
    problems = []
    if len(queens) != n:
        problems.append(f"{len(queens)} queens on a {n}x{n} board; a solution has {n}")
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
    base: list[tuple[Placement, int]]
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


_NO_MAPS = np.empty((0, 6), dtype=np.int64)


def _count_work(spec: tuple[int, bool, Placement], limits: Limits) -> int:
    n, torus, prefix = spec
    kernels = _kernels()
    p = np.array(prefix, dtype=np.int64)
    if torus:
        found = int(kernels.torus_search(n, p, torus_attack_table(n), _NO_MAPS, n >= 5, limits.flag)[0])
    else:
        found = int(kernels.classic_count(n, p, limits.flag))
    if found == kernels.STOPPED:
        limits.raise_stop()
    return found


def _classes_work(spec: tuple[int, bool, Placement, tuple[tuple[int, ...], ...]], limits: Limits) -> int:
    n, torus, prefix, maps = spec
    kernels = _kernels()
    p = np.array(prefix, dtype=np.int64)
    m = np.array(maps, dtype=np.int64).reshape(-1, 6)
    if torus:
        _, classes = kernels.torus_search(n, p, torus_attack_table(n), m, False, limits.flag)
    else:
        _, classes = kernels.count_least_images(n, False, p, m, limits.flag)
    if classes == kernels.STOPPED:
        limits.raise_stop()
    return int(classes)


def count(problem: Problem, limits: Limits | None = None) -> int:
    """The number of placements (every rotation, mirror image and shift counted), or of classes
    when ``problem.group`` is set."""
    limits = limits if limits is not None else Limits()
    n, torus = problem.n, problem.torus
    if torus and polya_reason(n):
        return 0
    identity = PUZZLE.problem_identity(problem) if not torus else _hyperqueen_identity(problem)
    if problem.group is None:
        subtasks, unit = count_subtasks(n, torus)
        tasks = [Subtask((n, torus, s.spec), s.weight) for s in subtasks]
        return run_subtasks(_count_work, tasks, limits, identity=identity, unit=unit)
    maps = tuple(map(tuple, problem.grid.group(problem.group).matrices().tolist()))
    # Each class has exactly one least image; on a torus it has a queen on (0, 0).
    base: list[tuple[Placement, int]] = [((0,), 1)] if torus else [((c,), 1) for c in range(n)]
    tasks = [Subtask((n, torus, s.spec, maps), 1) for s in _split(n, base, 3, torus)]
    return run_subtasks(_classes_work, tasks, limits, identity=identity)


def _hyperqueen_identity(problem: Problem) -> Any:
    from boardpuzzles.puzzles.hyperqueen import PUZZLE as HYPERQUEEN

    return HYPERQUEEN.problem_identity(problem)


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


def _warmup() -> None:
    count(Problem(6))
    count(Problem(6, group="dihedral"))
    next(solutions(Problem(5)))


PUZZLE: Puzzle[Problem, Board] = Puzzle(
    name="queens",
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
    warmup=_warmup,
)
