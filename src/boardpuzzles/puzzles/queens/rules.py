"""The rules of n queens: the problem, its sizes and groups, and the independent checker.

Glossary
--------
problem
    :class:`Problem`: the size ``n``, whether the board is a torus, and ``group`` (one placement
    per class under that symmetry group).
placement
    A tuple of n columns, ``placement[r]`` = the column of the queen in row r (row 0 on top).
attack
    Two queens attack each other when they share a row, a column or a diagonal; on a torus the
    diagonals wrap around the edges (see :mod:`boardpuzzles.grid`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from boardpuzzles._lazy import numpy as np
from boardpuzzles.board import Board
from boardpuzzles.errors import BoardPuzzlesError, SizeError, excerpt
from boardpuzzles.faults import Fault
from boardpuzzles.grid import QUEEN_LINES, Grid

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
def violations(problem: Problem, board: Board) -> list[Fault]:
    """Everything wrong with a board of queens (every piece is a queen), found by walking the
    grid's rows, columns and diagonals (wrapped on a torus): plain code, no bitmasks. Queens
    sharing a line are a fault with their squares and the segments that join them along it."""
    n = problem.n
    if (board.grid.rows, board.grid.cols) != (n, n):
        verb = "needs" if n == 1 else "need"
        return [Fault(f"the board is {board.grid.rows}x{board.grid.cols}; {_queens(n)} {verb} the {n}x{n} board")]
    grid = problem.grid
    queens = set(board.occupied())
    found = []
    if len(queens) != n:
        message = f"{_queens(len(queens))} on a {n}x{n} board; a solution has {n}"
        found.append(Fault(message, kind="unfinished" if len(queens) < n else "wrong"))
    for direction in QUEEN_LINES:
        for line in grid.lines(direction):
            on_line = tuple(cell for cell in line if cell in queens)
            if len(on_line) > 1:
                *rest, last = (grid.name(c) for c in on_line)
                names = f"{', '.join(rest)} and {last}"
                segments = line_segments(grid, line, on_line)
                found.append(Fault(f"{names} share a {_LINE_NAMES[direction]}", on_line, segments))
    return found


_LINE_NAMES = {(0, 1): "row", (1, 0): "column", (1, 1): "diagonal", (1, -1): "diagonal"}


def line_segments(grid: Grid, line: tuple[int, ...], queens: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Segments joining ``queens`` (in the line's order) along ``line``: on a bounded board one
    per neighbouring pair; on a torus, where the line is a cycle, every arc between neighbouring
    queens but the one that wraps most (the longest of those), each cut where it wraps (a step
    of more than one row or column), so a wrapped attack is drawn as pieces that end on the
    cells next to the edges."""
    where = [line.index(q) for q in queens]
    arcs = [line[a : b + 1] for a, b in zip(where, where[1:], strict=False)]
    if grid.torus:
        arcs.append(line[where[-1] :] + line[: where[0] + 1])
        arcs.remove(max(arcs, key=lambda arc: (len(_runs(grid, arc)), len(arc))))
    return tuple((run[0], run[-1]) for arc in arcs for run in _runs(grid, arc) if len(run) > 1)


def _runs(grid: Grid, arc: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The arc cut into straight runs: a step that moves more than one row or column wraps."""
    runs: list[list[int]] = [[arc[0]]]
    for a, b in zip(arc, arc[1:], strict=False):
        (ra, ca), (rb, cb) = grid.coords(a), grid.coords(b)
        if abs(ra - rb) > 1 or abs(ca - cb) > 1:
            runs.append([])
        runs[-1].append(b)
    return [tuple(run) for run in runs]


def placement_violations(problem: Problem, placement: Sequence[int]) -> list[Fault]:
    """Everything wrong with a placement given as columns (see :func:`violations`)."""
    n = problem.n
    if len(placement) != n:
        return [Fault(f"{len(placement)} rows given for the {n}x{n} board")]
    for row, col in enumerate(placement):
        if isinstance(col, bool) or not isinstance(col, (int, np.integer)) or not 0 <= col < n:
            return [Fault(f"row {row}: column {col!r} is off the board")]
    return violations(problem, to_board(problem, placement))


def to_board(problem: Problem, placement: Sequence[int]) -> Board:
    grid = problem.grid
    return Board.with_pieces(grid, {grid.index(r, int(c)): QUEEN for r, c in enumerate(placement)})
