"""Kings: K kings on an R x C board (or torus), no two touching. The worked example of adding a
puzzle: this module, its kernel and its test are all it took (README, "Add a puzzle").

Glossary
--------
problem   :class:`Problem`: the board (rows x cols, a torus or not) and the number of kings.
answer    a board with ``K`` on each king's square.
row mask  the kings of one row as bits; no row has two kings side by side.

``count`` splits the work by the first row (one subtask per row mask) and hands each subtask to
the kernel; ``solutions`` is plain Python, which calls ``limits.check()`` as it goes (the
contract of :mod:`boardpuzzles.limits`). Known answers: OEIS A018807 (n^2 kings on 2n x 2n)
and A172158 (6 kings on n x n).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.answers import board_of
from boardpuzzles.board import Board, parse_board
from boardpuzzles.errors import SizeError, excerpt
from boardpuzzles.faults import Fault
from boardpuzzles.grid import KING_STEPS, Grid
from boardpuzzles.limits import Limits
from boardpuzzles.parallel import Subtask, run_subtasks
from boardpuzzles.protocol import Example, Param, Puzzle

KING = "K"
#: Subtask specs hold row-mask indices: bump this when that table changes, so old checkpoints are refused.
PLAN_VERSION = 1
MAX_COLS = 20  # 17,711 row masks
MAX_ROWS = 200


@dataclass(frozen=True)
class Problem:
    rows: int
    cols: int
    kings: int
    torus: bool = False

    def __post_init__(self) -> None:
        if not (1 <= self.rows <= MAX_ROWS and 1 <= self.cols <= MAX_COLS):
            raise SizeError(
                f"kings count boards up to {MAX_ROWS}x{MAX_COLS}, not {excerpt(self.rows)}x{excerpt(self.cols)}"
            )
        if not 0 <= self.kings <= self.rows * self.cols:
            raise SizeError(f"{excerpt(self.kings)} kings do not fit on {self.rows}x{self.cols}")

    @property
    def grid(self) -> Grid:
        return Grid.shared(self.rows, self.cols, self.torus)


def violations(problem: Problem, board: Board) -> list[Fault]:
    """Plain code: the number of kings (short of it: unfinished), and every pair one king's step
    apart (on the grid)."""
    if (board.grid.rows, board.grid.cols) != (problem.rows, problem.cols):
        return [Fault(f"the board is {board.grid.rows}x{board.grid.cols}, not {problem.rows}x{problem.cols}")]
    grid, kings = problem.grid, board.occupied()
    found = []
    if len(kings) != problem.kings:
        message = f"{len(kings)} {'king' if len(kings) == 1 else 'kings'}; the problem asks for {problem.kings}"
        found.append(Fault(message, kind="unfinished" if len(kings) < problem.kings else "wrong"))
    for a, b in itertools.combinations(kings, 2):
        if b in grid.neighbours(a, KING_STEPS):
            found.append(Fault(f"{grid.name(a)} and {grid.name(b)} touch", (a, b)))
    return found


@functools.cache
def row_masks(cols: int, torus: bool) -> tuple[np.ndarray, np.ndarray]:
    """Every row with no two kings side by side (nor in the end columns on a torus), and its kings."""
    masks = [0]
    for c in range(cols):  # a king in column c needs column c - 1 free
        masks += [m | 1 << c for m in masks if c == 0 or not (m >> (c - 1)) & 1]
    if torus and cols > 1:
        masks = [m for m in masks if not (m & 1 and (m >> (cols - 1)) & 1)]
    return np.array(masks, dtype=np.int64), np.array([bin(m).count("1") for m in masks], dtype=np.int64)


def _kernels() -> Any:
    from boardpuzzles._kernels import kings

    return kings


def _work(spec: tuple[int, int, bool, int, int], limits: Limits) -> int:
    rows, cols, torus, kings, first = spec
    masks, sizes = row_masks(cols, torus)
    found = _kernels().count_kings(masks, sizes, rows, cols, torus, kings, np.array([first]), limits.flag)
    if found == _kernels().STOPPED:
        limits.raise_stop()
    return int(found)


def count(problem: Problem, limits: Limits | None = None) -> int:
    masks, sizes = row_masks(problem.cols, problem.torus)
    spec = (problem.rows, problem.cols, problem.torus, problem.kings)
    tasks = [Subtask((*spec, i)) for i in range(len(masks)) if sizes[i] <= problem.kings]
    return run_subtasks(_work, tasks, limits, identity=PUZZLE.problem_identity(problem))


def solutions(problem: Problem, limits: Limits | None = None) -> Iterator[Board]:
    limits = limits if limits is not None else Limits()
    masks, sizes = row_masks(problem.cols, problem.torus)
    touches, most = _kernels().touches, int(sizes.max())
    rows, cols, torus = problem.rows, problem.cols, problem.torus

    def fill(chosen: list[int], placed: int) -> Iterator[list[int]]:
        limits.check()
        if len(chosen) == rows:
            wraps = torus and rows > 1 and touches(masks[chosen[0]], masks[chosen[-1]], cols, torus)
            if placed == problem.kings and not wraps:
                yield chosen
            return
        for i, mask in enumerate(masks):
            left = problem.kings - placed - sizes[i]
            if 0 <= left <= (rows - len(chosen) - 1) * most:
                if not chosen or not touches(mask, masks[chosen[-1]], cols, torus):
                    yield from fill(chosen + [i], placed + int(sizes[i]))

    for chosen in fill([], 0):
        cells = {r * cols + c: KING for r, i in enumerate(chosen) for c in range(cols) if (masks[i] >> c) & 1}
        yield Board.with_pieces(problem.grid, cells)


def read_answer(values: Mapping[str, Any], text: str | None) -> tuple[Problem, Board]:
    board = parse_board(text or "", torus=bool(values.get("torus")))
    return _problem((board.grid.rows, board.grid.cols), values.get("kings"), bool(values.get("torus"))), board


def _problem(size: tuple[int, int], kings: int | None = None, torus: bool = False) -> Problem:
    rows, cols = size
    return Problem(rows, cols, -(-rows // 2) * -(-cols // 2) if kings is None else kings, torus)


PUZZLE: Puzzle[Problem, Board] = Puzzle(
    name="kings",
    title="K kings on a board or torus, no two touching",
    description="Kings: K kings on an R x C board, no two on neighbouring squares (sideways, up, down or "
    "diagonally); on a torus the edges wrap. By default K is the most a bounded board holds.",
    rules="Place the kings on the board, no two on neighbouring squares (sideways, up, down or diagonally).",
    params=(
        Param("size", "size", "the board: N or RxC", positional=True, metavar="SIZE"),
        Param("kings", "int", "Number of kings (default: ceil(R/2) x ceil(C/2)).", None, metavar="K", minimum=0),
        Param("torus", "flag", "The edges wrap around.", False),
    ),
    problem=_problem,
    solutions=solutions,
    count=count,
    violations=violations,
    answer_type=board_of(KING),  # its pictures and JSON: a board of kings
    read_answer=read_answer,
    describe=lambda p: (
        f"placements of {p.kings} king{'s' if p.kings != 1 else ''} on the {p.rows}x{p.cols} "
        f"{'torus' if p.torus else 'board'}"
    ),
    check_params=("kings", "torus"),
    small="4",
    small_count=79,
    small_source="OEIS A018807",
    slow="20 --kings 40",
    examples=(
        Example("solve 4 --limit 1"),
        Example("count 8", 281571, "OEIS A018807"),
        Example("count 8 --kings 6", 12033330, "OEIS A172158"),
    ),
)
