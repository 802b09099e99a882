"""Kings: K kings on an R x C board (or torus), no two touching. The worked example of adding a
puzzle: this module, its kernel and its test are all it took (README, "Add a puzzle").

Glossary
--------
problem   :class:`Problem`: the board (rows x cols, a torus or not) and the number of kings.
answer    a board with ``K`` on each king's square.
row mask  the kings of one row as bits; no row has two kings side by side.

transfer  ``count`` moves, one row at a time, the ways to fill the rows so far, per last row
          and kings placed (the kernel, :mod:`boardpuzzles._kernels.kings`). Counts are kept
          modulo numbers above 2^61, as many as a bound on the count needs, joined by the
          Chinese remainder theorem: one subtask per modulus, and on a torus per class of first
          rows (the last row must not touch the first), so ``--jobs`` and ``--checkpoint`` work.

``solutions`` is plain Python, which calls ``limits.check()`` as it goes (the contract of
:mod:`boardpuzzles.limits`). Known answers: OEIS A018807 (n^2 kings on 2n x 2n), A172158 (6
kings on n x n) and A179426 (6 kings on the n x n torus).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.answers import board_of
from boardpuzzles.board import Board, parse_board
from boardpuzzles.errors import SizeError, excerpt
from boardpuzzles.faults import Fault
from boardpuzzles.grid import KING_STEPS, Grid
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.parallel import Subtask, run_subtasks
from boardpuzzles.protocol import Example, Param, Puzzle

if TYPE_CHECKING:
    from boardpuzzles.play import Play

KING = "K"
#: Subtask specs hold row-mask indices and moduli: bump this when that table or their meaning
#: changes, so old checkpoints are refused. 2: a transfer count per first-row class and modulus.
PLAN_VERSION = 2
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


@functools.cache
def transfer_tables(cols: int, torus: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The row masks, their kings, and which rows may follow which (the kernel's ``followers``)."""
    masks, sizes = row_masks(cols, torus)
    starts, targets = _kernels().followers(masks, cols, torus)
    return masks, sizes, starts, targets


def first_rows(problem: Problem) -> tuple[tuple[int, int], ...]:
    """On a torus, one first row per class under turning and mirroring the columns (which maps
    placements onto placements, so each of a class counts the same), with the class's size: as
    (index into ``row_masks``, size). On a bounded board: (-1, 1), any first row."""
    return _first_row_classes(problem.cols) if problem.torus else ((-1, 1),)


@functools.cache
def _first_row_classes(cols: int) -> tuple[tuple[int, int], ...]:
    masks = [int(m) for m in row_masks(cols, True)[0]]
    where = {m: i for i, m in enumerate(masks)}
    classes: dict[int, set[int]] = {}
    for m in masks:
        turns = [(m >> s | m << (cols - s)) & ((1 << cols) - 1) for s in range(cols)]
        images = set(turns) | {int(format(t, f"0{cols}b")[::-1], 2) for t in turns}
        classes[min(images)] = images
    return tuple((where[least], len(images)) for least, images in sorted(classes.items()))


def moduli_needed(problem: Problem) -> int:
    """How many moduli above 2^61 the count needs: enough for a bound on it (the sets of K
    squares, or the rows of row masks, whichever is less); none when K kings cannot fit (two
    rows one above the other hold at most the most of one row)."""
    rows, cols = problem.rows, problem.cols
    masks, sizes = row_masks(cols, problem.torus)
    if problem.kings > (rows + 1) // 2 * int(sizes.max()):
        return 0
    bound: int = min(math.comb(rows * cols, problem.kings), len(masks) ** rows)
    return -(-bound.bit_length() // 61)


def count_modulo(problem: Problem, first: int, modulus: int, flag: np.ndarray) -> int:
    """The placements whose first row is ``row_masks[first]`` (any first row: -1), modulo
    ``modulus``, by the kernel's transfer count; the kernel's ``STOPPED`` when ``flag`` was set."""
    masks, sizes, starts, targets = transfer_tables(problem.cols, problem.torus)
    closing = np.ones(len(masks), dtype=np.bool_)
    if first >= 0 and problem.rows > 1:  # on a torus the last row touches the first
        closing[:] = False
        closing[targets[starts[first] : starts[first + 1]]] = True
    found = _kernels().count_kings(sizes, starts, targets, problem.rows, problem.kings, first, closing, modulus, flag)
    return int(found)


def _work(spec: tuple[int, int, bool, int, int, int, int], limits: Limits) -> int:
    """One first row's count (any first row on a bounded board) modulo one modulus, as its share
    of the Chinese remainder sum (the count itself when one modulus is enough)."""
    rows, cols, torus, kings, first, needed, i = spec
    moduli: tuple[int, ...] = _kernels().moduli(needed)
    found = count_modulo(Problem(rows, cols, kings, torus), first, moduli[i], limits.flag)
    if found == _kernels().STOPPED:
        limits.raise_stop()
    rest = math.prod(moduli) // moduli[i]
    return found * rest * pow(rest, -1, moduli[i])


def count(problem: Problem, limits: Limits | None = None) -> int:
    # turned so that a row is the shorter side: fewer row masks, the same count
    rows, cols = sorted((problem.rows, problem.cols), reverse=True)
    turned = Problem(rows, cols, problem.kings, problem.torus)
    needed = moduli_needed(turned)
    spec = (turned.rows, turned.cols, turned.torus, turned.kings)
    # one subtask per modulus and first row (any first row on a bounded board)
    tasks = [Subtask((*spec, first, needed, i), weight) for first, weight in first_rows(turned) for i in range(needed)]
    try:
        total = run_subtasks(_work, tasks, limits, identity=PUZZLE.problem_identity(problem))
    except TimeLimitReached as stop:
        if needed > 1:  # the shares of some moduli say nothing of the count
            raise TimeLimitReached(0, stop.done, stop.total) from None
        raise
    return total % math.prod(int(m) for m in _kernels().moduli(needed))


def solutions(problem: Problem, limits: Limits | None = None) -> Iterator[Board]:
    return _placements(problem, frozenset(), limits if limits is not None else Limits())


def solutions_holding(problem: Problem, kings: Iterable[int], limits: Limits) -> Iterator[Board]:
    """The placements with a king on each of the cells ``kings``, in the order of ``solutions``
    (a play's hints and shown solution: the kings a player placed are kept)."""
    return _placements(problem, frozenset(kings), limits)


def _placements(problem: Problem, required: frozenset[int], limits: Limits) -> Iterator[Board]:
    """Row by row, each row a row mask holding the required kings of its row and touching no king
    of the row above; a row is tried only when the rows below can still bring the count to K:
    at least their required kings, at most ``most_below`` (so a bounded board never meets a dead
    end: any count between the two is reached by leaving out kings that are not required)."""
    rows, cols, torus = problem.rows, problem.cols, problem.torus
    need = [0] * rows
    for cell in required:
        if not 0 <= cell < rows * cols:
            return
        need[cell // cols] |= 1 << cell % cols
    masks, sizes, starts, targets = transfer_tables(cols, torus)
    most = most_below(problem, need, limits)
    least = list(itertools.accumulate((bin(n).count("1") for n in reversed(need)), initial=0))[::-1]
    touches = _kernels().touches

    def fill(chosen: list[int], placed: int) -> Iterator[list[int]]:
        limits.check()
        row = len(chosen)
        if row == rows:
            wraps = torus and rows > 1 and touches(masks[chosen[0]], masks[chosen[-1]], cols, torus)
            if not wraps:
                yield chosen
            return
        after = range(len(masks)) if not chosen else sorted(targets[starts[chosen[-1]] : starts[chosen[-1] + 1]])
        for i in after:
            left = problem.kings - placed - int(sizes[i])
            if masks[i] & need[row] == need[row] and least[row + 1] <= left <= most[row + 1][i]:
                yield from fill(chosen + [int(i)], placed + int(sizes[i]))

    for chosen in fill([], 0):
        cells = {r * cols + c: KING for r, i in enumerate(chosen) for c in range(cols) if (masks[i] >> c) & 1}
        yield Board.with_pieces(problem.grid, cells)


def most_below(problem: Problem, need: list[int], limits: Limits) -> list[np.ndarray]:
    """``most[r][i]``: the most kings rows ``r`` on can hold, each row holding the kings of its
    ``need`` mask, below a row ``masks[i]`` (-1: none can); on a torus the last row's touching
    the first is left out (the count is then a bound, not always reached). Filled from the last
    row up, each row by the best follower of each row mask."""
    masks, sizes, starts, targets = transfer_tables(problem.cols, problem.torus)
    most = [np.zeros(len(masks), dtype=np.int64)]
    for row in range(problem.rows - 1, 0, -1):
        limits.check()
        below = most[-1]
        holds = (masks & need[row]) == need[row]
        value = np.where(holds & (below >= 0), sizes + below, -1)
        most.append(np.maximum.reduceat(value[targets], starts[:-1]))  # every mask has a follower: the empty row
    most.append(np.zeros(0, dtype=np.int64))  # above the first row: never read
    return most[::-1]


def play(puzzle: Puzzle[Any, Any]) -> Play[Any, Any] | None:
    """The record's play: the default play of boards of kings, its hints and shown solution
    found by :func:`solutions_holding`, which starts from the kings placed."""
    from boardpuzzles.plays.boards import board_play

    return board_play(puzzle, KING, lambda problem, placed, limits: solutions_holding(problem, placed, limits))


def read_answer(values: Mapping[str, Any], text: str | None) -> tuple[Problem, Board]:
    board = parse_board(text or "", torus=bool(values.get("torus")), pieces=KING)
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
    answer_type=board_of(KING),  # its pictures, JSON and play: a board of kings
    play=play,  # the default play, searching from the kings placed
    read_answer=read_answer,
    describe=lambda p: (
        f"placements of {p.kings} king{'s' if p.kings != 1 else ''} on the {p.rows}x{p.cols} "
        f"{'torus' if p.torus else 'board'}"
    ),
    check_params=("kings", "torus"),
    small="4",
    small_count=79,
    small_source="OEIS A018807",
    slow="200x20 --kings 400",
    examples=(
        Example("solve 4 --limit 1"),
        Example("count 8", 281571, "OEIS A018807"),
        Example("count 8 --kings 6", 12033330, "OEIS A172158"),
    ),
)
