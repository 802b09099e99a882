"""Goishi Hiroi (碁石ひろい, "picking up go stones"): pick up every stone in one walk.

Stones lie on the points of a grid. Start at any stone and pick it up; then move along a row or
a column and pick up the first stone still on the board in that direction (stones already picked
up are gone, and the walk passes over their points); at each stone go straight on or turn 90
degrees, never back the way you came; turning is only possible at a stone, since each move ends
at one. Pick up every stone. Published puzzles (Nikoli, puzz.link, "Zen Solitaire") have exactly
one answer. The seed article (``../shared/seeds/003``) solves it by depth-first search from every
stone, stopping at the first answer.

Glossary
--------
point       a cell of the grid; it holds a stone or is empty.
stone       an ``O`` in pictures; :class:`Puzzle` keeps their cells in row-major order.
order       the answer: the cells of all stones in pick-up order (``Order``, a tuple of cells).
            Printed as a board of pick-up numbers (``1`` is picked first) and as square names
            (``a1`` is the bottom-left point, as everywhere in boardpuzzles).
step        moving from one stone to the next; step ``k`` picks up the ``k``-th stone.
arrival     the direction of the step that reached the current stone; the next step may not be
            its reverse.
state       (stones left, current stone, arrival): all that the rest of the walk depends on; the
            kernel memoises the number of completions of each state it meets.
ambiguity   a point of the walk where another choice also leads to a complete order; the
            generator regrows a random walk from its first ambiguity until it has none.

Roads not taken: a SAT/ILP model (cspuz does that; heavyweight for boards this small), and
Hamiltonian-path reductions to a visibility graph (the graph changes as stones are picked up,
which is exactly what the memoised state captures).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from boardpuzzles.board import Board
from boardpuzzles.errors import BoardPuzzlesError, ParseError, SizeError, check_seed, excerpt
from boardpuzzles.grid import Cell, Grid
from boardpuzzles.parallel import Progress, Subtask, run_subtasks

Order = tuple[Cell, ...]

STONE = "O"
#: The kernels keep the stones left in one 64-bit word.
MAX_STONES = 64
#: Generous for a puzzle (a go board is 19x19) and small enough to refuse absurd headers early.
MAX_SIDE = 100
#: (d_row, d_col) and name of each direction, in the kernels' numbering (the reverse of d is d ^ 2).
DIRECTIONS = ((-1, 0), (0, 1), (1, 0), (0, -1))
DIRECTION_NAMES = ("north", "east", "south", "west")
NO_DIRECTION = 4
#: Memo slots a kernel may grow its table to (3 int64 each: 2**22 slots is 96 MiB).
MAX_MEMO_SLOTS = 1 << 22
#: A count with no cap stops here, so that it cannot overflow a 64-bit counter.
COUNT_CEILING = 10**18


@dataclass(frozen=True)
class Puzzle:
    """A rows x cols grid of points and the cells holding stones (sorted, row-major)."""

    rows: int
    cols: int
    stones: tuple[Cell, ...]

    def __post_init__(self) -> None:
        for what, value in (("rows", self.rows), ("cols", self.cols)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise SizeError(f"{what} must be a whole number, got {value!r}")
            if not 1 <= value <= MAX_SIDE:
                raise SizeError(f"the board must have 1 to {MAX_SIDE} {what}, not {value}")
        stones = tuple(sorted(set(self.stones)))
        if not stones:
            raise BoardPuzzlesError("the board has no stones")
        if stones[0] < 0 or stones[-1] >= self.rows * self.cols:
            raise BoardPuzzlesError(f"a stone lies off the {self.rows}x{self.cols} board")
        object.__setattr__(self, "stones", stones)

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> Puzzle:
        """From plain rows: ``O`` (or ``o``) a stone, ``.`` or space an empty point."""
        if not rows:
            raise ParseError("the picture is empty: no rows")
        width = len(rows[0])
        stones = []
        for r, row in enumerate(rows):
            if len(row) != width:
                raise ParseError(f"row {r + 1}: {len(row)} points where row 1 has {width}")
            for c, ch in enumerate(row):
                if ch in "Oo":
                    stones.append(r * width + c)
                elif ch not in ". ":
                    raise ParseError(f"row {r + 1}, column {c + 1}: unexpected {ch!r} (expected 'O', '.' or space)")
        if width == 0:
            raise ParseError("the picture is empty: the rows have no points")
        return cls(len(rows), width, tuple(stones))

    @classmethod
    def parse(cls, text: str) -> Puzzle:
        """From a plain picture (one row per line, blank lines around it ignored)."""
        lines = [line.rstrip("\r") for line in text.strip("\n").split("\n")]
        return cls.from_rows(lines)

    @property
    def grid(self) -> Grid:
        return Grid(self.rows, self.cols)

    @property
    def size(self) -> int:
        """The number of stones."""
        return len(self.stones)

    def to_rows(self) -> list[str]:
        stones = set(self.stones)
        return [
            "".join(STONE if r * self.cols + c in stones else "." for c in range(self.cols)) for r in range(self.rows)
        ]

    def to_board(self) -> Board:
        return Board.with_pieces(self.grid, {cell: STONE for cell in self.stones})

    def name(self, cell: Cell) -> str:
        """The square name of a point (``a1`` bottom left)."""
        return self.grid.name(cell)

    def coords(self, cell: Cell) -> tuple[int, int]:
        return divmod(cell, self.cols)

    def describe(self) -> str:
        return f"{self.rows}x{self.cols} board with {self.size} stone{'s' if self.size != 1 else ''}"

    def __str__(self) -> str:
        return "\n".join(self.to_rows())


def as_puzzle(puzzle: Puzzle | str) -> Puzzle:
    return puzzle if isinstance(puzzle, Puzzle) else Puzzle.parse(puzzle)


# ---------------------------------------------------------------- the independent checker
@dataclass(frozen=True)
class Problem:
    """What is wrong with an order: ``step`` is 1-based (0 when the order as a whole is wrong)."""

    step: int
    reason: str

    def __str__(self) -> str:
        return f"step {self.step}: {self.reason}" if self.step else self.reason


def first_problem(puzzle: Puzzle | str, order: Sequence[Cell]) -> Problem | None:
    """The first illegal step of ``order`` and why, or what is missing at the end; None when the
    order picks up every stone legally. Plain code: it walks point by point across the grid."""
    puzzle = as_puzzle(puzzle)
    cols, rows = puzzle.cols, puzzle.rows
    name = puzzle.name
    on_board = set(puzzle.stones)
    picked_at: dict[Cell, int] = {}
    if not order:
        return Problem(0, "the order is empty")
    previous_step: tuple[int, int] | None = None
    for k, cell in enumerate(order, start=1):
        if not isinstance(cell, (int, np.integer)) or not 0 <= cell < rows * cols:
            return Problem(k, f"{cell!r} is off the {rows}x{cols} board")
        if cell in picked_at:
            return Problem(k, f"{name(cell)} was already picked up at step {picked_at[cell]}")
        if cell not in on_board:
            return Problem(k, f"{name(cell)} is an empty point, not a stone")
        if k > 1:
            here = order[k - 2]
            (r0, c0), (r1, c1) = divmod(here, cols), divmod(cell, cols)
            if r0 != r1 and c0 != c1:
                return Problem(k, f"{name(here)} -> {name(cell)} is not along a row or a column")
            step = ((r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0))
            if previous_step is not None and step == (-previous_step[0], -previous_step[1]):
                return Problem(k, f"{name(here)} -> {name(cell)} turns back the way the walk came")
            r, c = r0 + step[0], c0 + step[1]
            while (r, c) != (r1, c1):
                if r * cols + c in on_board:
                    return Problem(
                        k, f"{name(here)} -> {name(cell)} passes over {name(r * cols + c)}, a stone still on the board"
                    )
                r, c = r + step[0], c + step[1]
            previous_step = step
        on_board.discard(cell)
        picked_at[cell] = k
    if on_board:
        left = sorted(on_board)
        shown = " ".join(name(c) for c in left[:8]) + (" ..." if len(left) > 8 else "")
        return Problem(0, f"{len(left)} stone{'s' if len(left) > 1 else ''} left on the board: {shown}")
    return None


def violations(puzzle: Puzzle | str, order: Sequence[Cell]) -> list[str]:
    """Everything wrong with an order: its first illegal step (the walk cannot go on after it),
    or the stones it leaves on the board; empty for a solution."""
    problem = first_problem(puzzle, order)
    return [] if problem is None else [str(problem)]


def check(puzzle: Puzzle | str, order: Sequence[Cell]) -> bool:
    """True when ``order`` picks up every stone of the puzzle legally."""
    return first_problem(puzzle, order) is None


def legal_moves(puzzle: Puzzle, prefix: Sequence[Cell]) -> list[tuple[Cell, int]]:
    """The (stone, direction) pairs that may follow a legal ``prefix`` (any stone when it is empty)."""
    if not prefix:
        return [(s, NO_DIRECTION) for s in puzzle.stones]
    on_board = set(puzzle.stones) - set(prefix)
    arrived = arrival(puzzle, prefix)
    r0, c0 = puzzle.coords(prefix[-1])
    moves = []
    for d, (dr, dc) in enumerate(DIRECTIONS):
        if arrived != NO_DIRECTION and d == arrived ^ 2:
            continue
        r, c = r0 + dr, c0 + dc
        while 0 <= r < puzzle.rows and 0 <= c < puzzle.cols:
            if r * puzzle.cols + c in on_board:
                moves.append((r * puzzle.cols + c, d))
                break
            r, c = r + dr, c + dc
    return moves


def arrival(puzzle: Puzzle, prefix: Sequence[Cell]) -> int:
    """The direction of the last step of ``prefix`` (NO_DIRECTION for one stone)."""
    if len(prefix) < 2:
        return NO_DIRECTION
    (r0, c0), (r1, c1) = puzzle.coords(prefix[-2]), puzzle.coords(prefix[-1])
    return DIRECTIONS.index(((r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0)))


# ---------------------------------------------------------------- tables and searching
def _kernels():
    from boardpuzzles._kernels import goishi as kernels  # numba loads only when a search runs

    return kernels


def _signed(word: int) -> int:
    """A 64-bit pattern as the int64 numpy stores (bit 63 is the sign)."""
    return word - (1 << 64) if word >= 1 << 63 else word


@functools.lru_cache(maxsize=64)
def tables(puzzle: Puzzle) -> tuple[np.ndarray, np.ndarray]:
    """``ray`` (stones x 4 masks of the stones in each direction) and ``bit`` for the kernels."""
    if puzzle.size > MAX_STONES:
        raise SizeError(
            f"the board has {puzzle.size} stones; the solver handles at most {MAX_STONES} "
            f"(one bit per stone in a 64-bit word)"
        )
    index = {cell: i for i, cell in enumerate(puzzle.stones)}
    ray = np.zeros((puzzle.size, 4), dtype=np.int64)
    for i, cell in enumerate(puzzle.stones):
        r0, c0 = puzzle.coords(cell)
        for d, (dr, dc) in enumerate(DIRECTIONS):
            word, r, c = 0, r0 + dr, c0 + dc
            while 0 <= r < puzzle.rows and 0 <= c < puzzle.cols:
                j = index.get(r * puzzle.cols + c)
                if j is not None:
                    word |= 1 << j
                r, c = r + dr, c + dc
            ray[i, d] = _signed(word)
    bit = np.array([_signed(1 << i) for i in range(puzzle.size)], dtype=np.int64)
    return ray, bit


def _roots(puzzle: Puzzle, prefix: Sequence[Cell]) -> tuple[np.ndarray, Order]:
    """The kernel's root states and the part of the order they leave out: every stone as the
    start, or the state at the end of ``prefix``."""
    index = {cell: i for i, cell in enumerate(puzzle.stones)}
    full = (1 << puzzle.size) - 1
    if not prefix:
        roots = [(_signed(full ^ (1 << i)), i, NO_DIRECTION) for i in range(puzzle.size)]
        return np.array(roots, dtype=np.int64).reshape(-1, 3), ()
    problem = first_problem(puzzle, prefix)
    if problem is not None and problem.step:
        raise BoardPuzzlesError(f"the start of the order is illegal: {problem}")
    mask = full
    for cell in prefix:
        mask ^= 1 << index[cell]
    root = (_signed(mask), index[prefix[-1]], arrival(puzzle, prefix))
    return np.array([root], dtype=np.int64), tuple(prefix[:-1])


def solutions(puzzle: Puzzle | str, *, prefix: Sequence[Cell] = ()) -> Iterator[Order]:
    """Every order (the ones that begin with ``prefix``, if given): start stones in row-major
    order, then directions north, east, south, west at each stone. Lazy: the kernel resumes
    where it stopped each time more are wanted."""
    puzzle = as_puzzle(puzzle)
    ray, bit = tables(puzzle)
    kernels = _kernels()
    roots, head = _roots(puzzle, prefix)
    keys, aux, vals, used = kernels.new_table()
    stack = kernels.new_stack(puzzle.size)
    out = np.zeros((1024, puzzle.size), dtype=np.int64)
    length = puzzle.size - len(head)
    wanted = 1  # the first answer comes back as soon as it is found; then bigger batches
    while True:
        status, written, keys, aux, vals = kernels.enumerate_orders(
            ray, bit, roots, stack, out, wanted, keys, aux, vals, used, MAX_MEMO_SLOTS
        )
        for i in range(written):
            yield head + tuple(puzzle.stones[j] for j in out[i, :length].tolist())
        if status == kernels.DONE:
            return
        wanted = min(out.shape[0], wanted * 4)


class Counter:
    """Counts of orders of one puzzle under one cap, sharing the kernel's memo between calls:
    asking about many prefixes of the same puzzle (as the generator does) reuses what earlier
    questions learned."""

    def __init__(self, puzzle: Puzzle | str, cap: int | None = None) -> None:
        self.puzzle = as_puzzle(puzzle)
        cap = COUNT_CEILING if cap is None else cap
        if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
            raise BoardPuzzlesError(f"the cap must be a whole number >= 1, got {cap!r}")
        self.cap = min(cap, COUNT_CEILING)
        self.ray, self.bit = tables(self.puzzle)
        self._kernels = _kernels()
        self._keys, self._aux, self._vals, self._used = self._kernels.new_table()

    def __call__(self, prefix: Sequence[Cell] = ()) -> int:
        """The number of orders beginning with ``prefix`` (all orders for an empty prefix)."""
        roots, _ = _roots(self.puzzle, prefix)
        total, self._keys, self._aux, self._vals = self._kernels.count_orders(
            self.ray, self.bit, roots, self.cap, self._keys, self._aux, self._vals, self._used, MAX_MEMO_SLOTS
        )
        return int(total)


def count(
    puzzle: Puzzle | str,
    cap: int | None = None,
    *,
    prefix: Sequence[Cell] = (),
    jobs: int | None = None,
    progress: Progress | None = None,
) -> int:
    """The number of orders, or ``cap`` when there are at least that many (a cap makes proving
    uniqueness cheap: ``count(p, 2) == 1``).

    With ``jobs`` (or ``progress``), an uncapped count from the start is split into one subtask
    per start stone and run by :func:`boardpuzzles.parallel.run_subtasks`: ``jobs`` threads, a
    progress bar, and the caller's time limit, checkpoint and scheduler; Ctrl-C stops it between
    subtasks. Otherwise it is one kernel call, whose memo is shared by every start."""
    puzzle = as_puzzle(puzzle)
    if cap is not None or prefix or (jobs is None and progress is None):
        return Counter(puzzle, cap)(prefix)
    Counter(puzzle, 1)  # refuse a board the kernel cannot hold before any subtask starts

    def work(spec: tuple[Cell]) -> int:
        return Counter(puzzle)(spec)

    subtasks = [Subtask((stone,)) for stone in puzzle.stones]
    return min(run_subtasks(work, subtasks, jobs=jobs or 1, progress=progress), COUNT_CEILING)


def solve(puzzle: Puzzle | str) -> Order | None:
    """The first order (see :func:`solutions`), or None."""
    return next(solutions(puzzle), None)


def first_two(puzzle: Puzzle | str) -> tuple[Order | None, Order | None]:
    """The first two orders: (None, None) for no solution, (a, None) when ``a`` is the only one."""
    found = list(itertools.islice(solutions(puzzle), 2))
    return (found + [None, None])[0], (found + [None, None])[1]


def is_unique(puzzle: Puzzle | str) -> bool:
    return count(puzzle, 2) == 1


# ---------------------------------------------------------------- pictures of orders
def numbers(puzzle: Puzzle, order: Sequence[Cell] = ()) -> list[list[int | None]]:
    """The board as pick-up numbers: None empty, 0 a stone not (yet) picked, k the k-th picked."""
    grid: list[list[int | None]] = [[None] * puzzle.cols for _ in range(puzzle.rows)]
    for cell in puzzle.stones:
        r, c = puzzle.coords(cell)
        grid[r][c] = 0
    for k, cell in enumerate(order, start=1):
        r, c = puzzle.coords(cell)
        grid[r][c] = k
    return grid


def numbered_picture(puzzle: Puzzle, order: Sequence[Cell]) -> str:
    """Pick-up numbers in right-aligned columns (``.`` empty, ``O`` a stone not picked)."""
    width = max(2, len(str(len(order))))
    lines = []
    for row in numbers(puzzle, order):
        lines.append(" ".join(("." if v is None else STONE if v == 0 else str(v)).rjust(width) for v in row))
    return "\n".join(lines)


def order_names(puzzle: Puzzle, order: Sequence[Cell]) -> str:
    return " ".join(puzzle.name(cell) for cell in order)


def parse_order(puzzle: Puzzle, text: str) -> Order:
    """Square names (``e3 d3 ...``) or 0-based ``row,col`` pairs (``(4,4) (4,3)`` or ``4,4 4,3``),
    as the published instance files write them."""
    cleaned = text.removeprefix("\ufeff").strip()
    if not cleaned:
        raise ParseError("the order is empty")
    pairs = [(m.group(1) or m.group(3), m.group(2) or m.group(4)) for m in _PAIR.finditer(cleaned)]
    leftover = _PAIR.sub(" ", cleaned).strip(" \t\n;")
    if "(" in leftover or ")" in leftover:
        raise ParseError(
            f"cannot read the order near {excerpt(leftover)}: write (row,col) pairs with matched "
            f"parentheses, or square names such as e3"
        )
    if pairs and not leftover:
        order = []
        for k, (r, c) in enumerate(pairs, start=1):
            # More than 9 digits is off any board: refused before int() sees a huge number.
            row, col = (_coordinate(v) for v in (r, c))
            if not (0 <= row < puzzle.rows and 0 <= col < puzzle.cols):
                shown = ",".join(v if len(v) <= 12 else f"{v[:12]}..." for v in (r, c))
                raise ParseError(
                    f"order item {k}: ({shown}) is off the {puzzle.rows}x{puzzle.cols} board "
                    f"(rows and columns count from 0)"
                )
            order.append(row * puzzle.cols + col)
        return tuple(order)
    order = []
    for k, token in enumerate(re.split(r"[\s,;]+", cleaned), start=1):
        if not token:
            continue
        try:
            order.append(puzzle.grid.cell_named(token))
        except BoardPuzzlesError as err:
            raise ParseError(f"order item {k}: {err}") from None
    return tuple(order)


def _coordinate(text: str) -> int:
    """A row or column of a pair; -1 (off any board) for more than 9 digits, which int() never sees."""
    digits = text.lstrip("-").lstrip("0") or "0"
    if len(digits) > 9:
        return -1
    return -int(digits) if text.startswith("-") else int(digits)


#: A ``row,col`` pair, in parentheses or bare; ASCII digits only. A bare pair starts only where
#: no digit precedes it, and digits and spaces are taken possessively, so that a long run of
#: digits scans in linear time; an unclosed ``(4,4`` matches neither and is refused.
_PAIR = re.compile(
    r"\(\s*+(-?[0-9]++)\s*+,\s*+(-?[0-9]++)\s*+\)"
    r"|(?<![0-9(])(-?[0-9]++)\s*+,\s*+(-?[0-9]++)"
)


# ---------------------------------------------------------------- generating
@dataclass(frozen=True)
class Generated:
    puzzle: Puzzle
    order: Order
    regrowths: int  # walks regrown from a point of ambiguity
    restarts: int  # walks begun afresh
    seconds: float


#: How strongly a random walk favours steps over picked stones, and short steps.
JUMP_WEIGHT = 2.0
DISTANCE_POWER = 1.0


class GenerationTimeout(BoardPuzzlesError):
    """No unique puzzle was found before the time limit."""


def _random_walk(rows: int, cols: int, stones: int, rng: random.Random, walk: list[Cell]) -> list[Cell] | None:
    """Extend ``walk`` by random legal steps to ``stones`` stones, or None if it gets stuck.

    A new stone may not lie on a point an earlier step passed over (that stone would have been
    on the board then and blocked the step); the step to it may pass over earlier stones, which
    are already picked up. Steps that pass over picked stones are favoured: a walk without them
    can usually be walked backwards too, so it would not be unique."""
    walk = list(walk)
    placed = set(walk)
    crossed: set[Cell] = set()
    for a, b in zip(walk, walk[1:]):
        crossed.update(_between(cols, a, b))
    if not walk:
        walk.append(rng.randrange(rows * cols))
        placed.add(walk[0])
    while len(walk) < stones:
        r0, c0 = divmod(walk[-1], cols)
        arrived = NO_DIRECTION
        if len(walk) >= 2:
            (ra, ca) = divmod(walk[-2], cols)
            arrived = DIRECTIONS.index(((r0 > ra) - (r0 < ra), (c0 > ca) - (c0 < ca)))
        options: list[tuple[Cell, int]] = []
        for d, (dr, dc) in enumerate(DIRECTIONS):
            if arrived != NO_DIRECTION and d == arrived ^ 2:
                continue
            r, c, jumped, distance = r0 + dr, c0 + dc, 0, 1
            while 0 <= r < rows and 0 <= c < cols:
                cell = r * cols + c
                if cell in placed or cell in crossed:
                    jumped += 1
                else:
                    options.append((cell, (1 + JUMP_WEIGHT * jumped) / distance**DISTANCE_POWER))
                r, c, distance = r + dr, c + dc, distance + 1
        if not options:
            return None
        cell = rng.choices([o for o, _ in options], weights=[w for _, w in options])[0]
        crossed.update(_between(cols, walk[-1], cell))
        walk.append(cell)
        placed.add(cell)
    return walk


def _between(cols: int, a: Cell, b: Cell) -> list[Cell]:
    (r0, c0), (r1, c1) = divmod(a, cols), divmod(b, cols)
    dr, dc = (r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0)
    cells, r, c = [], r0 + dr, c0 + dc
    while (r, c) != (r1, c1):
        cells.append(r * cols + c)
        r, c = r + dr, c + dc
    return cells


def first_ambiguity(puzzle: Puzzle, walk: Sequence[Cell], counter: Counter | None = None) -> int | None:
    """The first point of ambiguity of a complete order ``walk``: the least ``i`` such that some
    order begins with ``walk[:i]`` and then picks another stone than ``walk[i]`` (``i = 0``:
    another start works). None when ``walk`` is the only order, so the puzzle is unique."""
    counter = counter or Counter(puzzle, 1)
    walk = tuple(walk)
    for i in range(len(walk)):
        for stone, _ in legal_moves(puzzle, walk[:i]):
            if stone != walk[i] and counter(walk[:i] + (stone,)):
                return i
    return None


def generate(
    rows: int, cols: int, stones: int, *, seed: int | None = None, time_limit: float | None = 60.0, patience: int = 60
) -> Generated:
    """A new puzzle with exactly one order: a random legal walk of ``stones`` stones, regrown
    from its first point of ambiguity (the walk is kept up to the stone where another choice
    would also succeed, and a new random tail is grown from there). A regrown walk is kept when
    its first ambiguity comes no earlier; after ``patience`` regrowths without progress a fresh
    walk is begun. Same seed, same puzzle."""
    for what, value in (("rows", rows), ("columns", cols), ("stones", stones)):
        if isinstance(value, int) and abs(value) > 10**9:  # before any message prints a huge number
            raise SizeError(f"the number of {what} is too large: {excerpt(value)}")
    Puzzle(rows, cols, (0,))  # validates the size
    if isinstance(stones, bool) or not isinstance(stones, int) or stones < 1:
        raise SizeError(f"the number of stones must be a whole number >= 1, got {excerpt(stones)}")
    if stones > min(MAX_STONES, rows * cols):
        raise SizeError(
            f"{stones} stones do not fit: at most {min(MAX_STONES, rows * cols)} on a {rows}x{cols} "
            f"board" + (f" (the solver handles {MAX_STONES})" if stones > MAX_STONES else "")
        )
    if seed is not None:
        check_seed(seed)  # random.Random would take -1 as 1, and any object by its hash
    if time_limit is not None and (
        isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not 0 < time_limit < math.inf
    ):
        raise BoardPuzzlesError(
            f"the time limit must be a positive number of seconds or None, got {excerpt(time_limit)}"
        )
    if isinstance(patience, bool) or not isinstance(patience, int) or patience < 1:
        raise BoardPuzzlesError(f"patience must be a whole number >= 1, got {excerpt(patience)}")
    rng = random.Random(seed)
    started = time.perf_counter()
    regrowths = restarts = 0

    def ambiguity(walk: list[Cell]) -> int | None:
        return first_ambiguity(Puzzle(rows, cols, tuple(walk)), walk)

    while True:
        walk = _random_walk(rows, cols, stones, rng, [])
        if walk is not None:
            point = ambiguity(walk)
            stuck = 0
            while point is not None and stuck < patience:
                if time_limit is not None and time.perf_counter() - started > time_limit:
                    raise _gave_up(rows, cols, stones, time_limit)
                grown = _random_walk(rows, cols, stones, rng, walk[: max(1, point)])
                regrowths += 1
                if grown is None:
                    stuck += 1
                    continue
                new_point = ambiguity(grown)
                if new_point is None or new_point >= point:
                    stuck = 0 if new_point is None or new_point > point else stuck + 1
                    walk, point = grown, new_point
                else:
                    stuck += 1
            if point is None:
                puzzle = Puzzle(rows, cols, tuple(walk))
                return Generated(puzzle, tuple(walk), regrowths, restarts, time.perf_counter() - started)
        restarts += 1
        if time_limit is not None and time.perf_counter() - started > time_limit:
            raise _gave_up(rows, cols, stones, time_limit)


def _gave_up(rows: int, cols: int, stones: int, time_limit: float) -> GenerationTimeout:
    """The give-up message, with a hint in the direction that may help: few stones for the board
    tend to leave several orders (more stones constrain the walk), many stones make long walks
    hard to find. No exact threshold is known, so the hint says "try", not "needs"."""
    points = rows * cols
    if 3 * stones <= points:
        hint = "try more stones (with few stones several orders tend to remain), or another seed"
    elif 3 * stones >= 2 * points:
        hint = "try fewer stones (a walk through this many is hard to find), a bigger board, or another seed"
    else:
        hint = "try a different number of stones (more or fewer) or another seed"
    return GenerationTimeout(f"no unique {rows}x{cols} puzzle with {stones} stones found in {time_limit:g} s; {hint}")
