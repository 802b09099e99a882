"""Knight's tours: the problem, the knight's move tables, the independent checker, the
theorems that say when there is no tour, and the board's symmetry."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.errors import BoardPuzzlesError, SizeError, excerpt
from boardpuzzles.faults import Fault, unfinished
from boardpuzzles.grid import KNIGHT_STEPS, Grid
from boardpuzzles.parallel import planned_as

Tour = tuple[int, ...]

#: The module a count's checkpoint names its work functions by (see ``parallel.plan_digest``):
#: the package, as before it was split, so that the files of earlier counts stay good.
PLAN_MODULE = "boardpuzzles.puzzles.knights_tour"

#: Marks a count's work function to be named as the plan knows it: see ``PLAN_MODULE``.
planned = planned_as(PLAN_MODULE)


# ------------------------------------------------------------------ problems, sizes and tables
def board(rows: int, cols: int | None = None) -> Grid:
    return Grid.shared(rows, rows if cols is None else cols)


@dataclass(frozen=True)
class Problem:
    """The tours of a rows x cols board: open or ``closed``; from ``start`` (a cell) or from
    every square; ``undirected``: each path (or cycle) once instead of once per direction and
    start."""

    rows: int
    cols: int
    start: int | None = None
    closed: bool = False
    undirected: bool = False

    def __post_init__(self) -> None:
        _validate(self.rows, self.cols, self.start)
        if self.undirected and self.start is not None and not self.closed:
            raise BoardPuzzlesError("an open tour from a given start already has its direction; drop --undirected")

    @property
    def grid(self) -> Grid:
        return board(self.rows, self.cols)

    @property
    def squares(self) -> int:
        return self.rows * self.cols


def describe(problem: Problem) -> str:
    kind = "closed" if problem.closed else "open"
    size = f"{problem.rows}x{problem.cols}"
    if problem.undirected:
        return f"{kind} tours of {size}, each {'cycle' if problem.closed else 'path'} once"
    where = "from every start square" if problem.start is None else f"starting on {problem.grid.name(problem.start)}"
    return f"{kind} tours of {size}, directed, {where}"


def identity(problem: Problem) -> dict[str, Any]:
    start = None if problem.start is None else problem.grid.name(problem.start)
    return {
        "rows": problem.rows,
        "cols": problem.cols,
        "start": start,
        "closed": problem.closed,
        "undirected": problem.undirected,
    }


def knight_moves(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """``(moves, n_moves)``: ``moves[v, :n_moves[v]]`` are the squares a knight reaches from v,
    in a fixed order (the order every search and listing follows); the grid's step table."""
    return board(rows, cols).step_table(KNIGHT_STEPS)


@functools.lru_cache(maxsize=8)
def reach_masks(rows: int, cols: int) -> np.ndarray:
    """``reach[v]``: the squares a knight reaches from v as a bitmask (boards of <= 64 squares)."""
    moves, n_moves = knight_moves(rows, cols)
    masks = np.zeros(rows * cols, np.uint64)
    for v in range(rows * cols):
        for x in moves[v, : n_moves[v]]:
            masks[v] |= np.uint64(1) << np.uint64(x)
    return masks.view(np.int64)


def _closing_squares(rows: int, cols: int, start: int) -> list[int]:
    """A closed tour from ``start`` is an open one that ends a knight's move from it."""
    moves, n_moves = knight_moves(rows, cols)
    return [int(x) for x in moves[start, : n_moves[start]]]


# ------------------------------------------------------------------ checking (independent)
def violations(problem: Problem, tour: Sequence[int]) -> list[Fault]:
    """What is wrong with ``tour`` as a tour of the problem (its board, closed if asked, from its
    start if given): plain code that compares coordinates, sharing nothing with the searches."""
    found = tour_violations(problem.rows, problem.cols, tour, problem.closed)
    if problem.start is not None and tour and tour[0] != problem.start:
        name = problem.grid.name
        on_board = 0 <= tour[0] < problem.squares
        first = name(tour[0]) if on_board else repr(tour[0])
        found.insert(
            0, Fault(f"the tour starts on {first}, not on {name(problem.start)}", (int(tour[0]),) if on_board else ())
        )
    return found


#: The most unvisited squares a fault lists (its message names the first five).
LISTED_SQUARES = 4096


def tour_violations(rows: int, cols: int, tour: Sequence[int], closed: bool = False) -> list[Fault]:
    """What is wrong with ``tour`` as a knight's tour of the rows x cols board; squares not
    visited yet are unfinished."""
    if _is_tour(rows, cols, tour, closed):
        return []  # a tour of millions of squares: checked at numpy's speed, with nothing to say
    squares = rows * cols
    found = []
    names = board(rows, cols)
    for i, cell in enumerate(tour):
        if not isinstance(cell, (int, np.integer)) or not 0 <= cell < squares:
            return [Fault(f"step {i + 1}: {cell!r} is not a square of the {rows}x{cols} board")]
    for i, (a, b) in enumerate(itertools.pairwise(tour)):
        (ra, ca), (rb, cb) = divmod(int(a), cols), divmod(int(b), cols)
        if sorted((abs(ra - rb), abs(ca - cb))) != [1, 2]:
            move = (int(a), int(b))
            found.append(
                Fault(f"step {i + 2}: {names.name(b)} is not a knight's move from {names.name(a)}", move, (move,))
            )
    seen: set[int] = set()
    for i, cell in enumerate(tour):
        if cell in seen:
            found.append(Fault(f"step {i + 1}: {names.name(cell)} is visited twice", (int(cell),)))
        seen.add(int(cell))
    if len(seen) < squares:
        unvisited = squares - len(seen)
        left = tuple(itertools.islice((c for c in range(squares) if c not in seen), LISTED_SQUARES))
        first = [names.name(c) for c in left[:5]]
        message = (
            f"{unvisited} square{'s' if unvisited > 1 else ''} never visited: "
            f"{', '.join(first)}{', ...' if unvisited > 5 else ''}"
        )
        found.append(unfinished(message, left))
    if closed and squares == 1:
        found.append(Fault("not closed: a single square has no closed tour (a knight cannot move back to it)"))
    elif closed and tour:
        (ra, ca), (rb, cb) = divmod(int(tour[-1]), cols), divmod(int(tour[0]), cols)
        if sorted((abs(ra - rb), abs(ca - cb))) != [1, 2]:
            ends = (int(tour[-1]), int(tour[0]))
            found.append(
                Fault(
                    f"not closed: the last square {names.name(tour[-1])} is not a knight's move "
                    f"from the first, {names.name(tour[0])}",
                    ends,
                    (ends,),
                )
            )
    return found


def _is_tour(rows: int, cols: int, tour: Sequence[int], closed: bool) -> bool:
    """True when ``tour`` is a knight's tour of the board (closed, if asked), decided by the same
    comparisons of coordinates in numpy; False leaves it to the plain loops, which say why."""
    squares = rows * cols
    order = _squares_of(tour, squares) if len(tour) == squares and not (closed and squares == 1) else None
    if order is None:
        return False
    seen = np.zeros(squares, np.bool_)
    seen[order] = True
    if not seen.all():  # as many steps as squares: then none is visited twice
        return False
    del seen
    if closed:
        order = np.append(order, order[0])
    r, c = np.divmod(order, order.dtype.type(cols))
    del order
    dr, dc = np.abs(np.diff(r)), np.abs(np.diff(c))
    del r, c
    return bool(np.all((dr * dc == 2) & (dr + dc == 3)))


def check(rows: int, cols: int, tour: Sequence[int], closed: bool = False) -> bool:
    """True when ``tour`` is a knight's tour of the board (closed, if asked)."""
    return not tour_violations(rows, cols, tour, closed)


# ------------------------------------------------------------------ when there is none
def no_tour_reason(rows: int, cols: int, closed: bool = False, start: int | None = None) -> str | None:
    """Why the board has no tour (from ``start``, if given), by the theorems that settle it; None
    when a tour exists (for a given start on a small board the search has the last word)."""
    short, long_ = sorted((rows, cols))
    size = f"a {rows}x{cols} board"
    if closed:
        if rows * cols == 1:
            return "a single square has no closed tour (a knight cannot move back to it)"
        if rows % 2 and cols % 2:
            return (
                f"{size} has an odd number of squares, and a knight changes square colour every move, "
                "so a closed tour would need as many light squares as dark ones"
            )
        # The size as the user gave it (4x3, not 3x4): the theorem does not care which side is which.
        if short in (1, 2, 4):
            return (
                f"{size} has a side of {short}, and no board with a side of 1, 2 or 4 has a closed tour (Schwenk 1991)"
            )
        if short == 3 and long_ in (4, 6, 8):
            return (
                f"{size} has a side of 3, and a board with a side of 3 has a closed tour only when "
                "its other side is even and at least 10 (Schwenk 1991)"
            )
        return None
    if start is not None and (rows * cols) % 2:
        row, col = divmod(start, cols)
        if (row + col) % 2:
            return (
                f"{size} has one more square of the corners' colour; a knight alternates colours, "
                f"so every open tour starts and ends on that colour, and "
                f"{board(rows, cols).name(start)} is the other colour"
            )
    if rows * cols == 1:
        return None
    if short <= 2 or (short == 3 and long_ in (3, 5, 6)) or (short == 4 and long_ == 4):
        return f"{size} has no open knight's tour (Conrad et al. 1994; Cull and De Curtins 1978)"
    return None


# ------------------------------------------------------------------ symmetry of the board
def _symmetries(rows: int, cols: int) -> np.ndarray:
    """The board's rotations and reflections as cell permutations."""
    return board(rows, cols).group("dihedral").permutations()


def _start_classes(rows: int, cols: int) -> list[tuple[int, int]]:
    """(representative, orbit size) for each class of start squares under the board's symmetry."""
    perms = _symmetries(rows, cols)
    classes = []
    for cell in range(rows * cols):
        images = set(perms[:, cell].tolist())
        if cell == min(images):
            classes.append((cell, len(images)))
    return classes


def _prefixes(rows: int, cols: int, start: int, wanted: int) -> list[tuple[Tour, int]]:
    """The openings of the tours from ``start`` (its first moves, as deep as needed to have about
    ``wanted`` of them), one per class under the symmetries that fix ``start``, with the class
    size as weight: the tours from equivalent openings are images of each other."""
    moves, n_moves = knight_moves(rows, cols)
    perms = _symmetries(rows, cols)
    stabiliser = perms[perms[:, start] == start]
    level: list[Tour] = [(start,)]
    while len(level) < wanted and len(level[0]) < min(8, rows * cols - 1):
        deeper = [p + (int(x),) for p in level for x in moves[p[-1], : n_moves[p[-1]]] if x not in p]
        if not deeper:
            break
        level = deeper
    result = []
    for p in level:
        images = {tuple(s[list(p)].tolist()) for s in stabiliser}
        if p == min(images):
            result.append((p, len(images)))
    return result


def _validate(rows: int, cols: int, start: int | None) -> None:
    for what, value in (("rows", rows), ("columns", cols)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise SizeError(f"the number of {what} must be a positive integer, got {excerpt(value)}")
    if start is not None and not 0 <= start < rows * cols:
        raise BoardPuzzlesError(f"start square {excerpt(start)} is off the {rows}x{cols} board")


def _squares_of(tour: Sequence[int], squares: int) -> np.ndarray | None:
    """``tour`` as an array of squares of the board (int32 where that holds them: a tour of
    millions of squares is checked and drawn in arrays of 4 bytes a square); None when it is
    empty or holds anything else."""
    order = np.asarray(tour) if len(tour) else None
    if order is None or order.ndim != 1 or order.dtype.kind not in "iu" or order.min() < 0 or order.max() >= squares:
        return None
    return order.astype(np.int32) if squares < 2**31 else order
