"""Goishi Hiroi (碁石ひろい, "picking up go stones"): pick up every stone in one walk.

Stones lie on the points of a grid. Start at any stone and pick it up; then move along a row or
a column and pick up the first stone still on the board in that direction (stones already picked
up are gone, and the walk passes over their points); at each stone go straight on or turn 90
degrees, never back the way you came; turning is only possible at a stone, since each move ends
at one. Pick up every stone. Published puzzles (Nikoli, puzz.link, "Zen Solitaire") have exactly
one answer. The seed article (the fourth of the series this project started from) solves it by
depth-first search from every stone, stopping at the first answer.

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
import random
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardpuzzles import protocol
from boardpuzzles.board import Board
from boardpuzzles.errors import BoardPuzzlesError, ParseError, SizeError, check_seed, excerpt
from boardpuzzles.grid import Cell, Grid
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.parallel import Subtask, run_subtasks
from boardpuzzles.scene import Scene, scene_text

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
                raise SizeError(f"{what} must be a whole number, got {excerpt(value)}")
            if not 1 <= value <= MAX_SIDE:
                raise SizeError(f"the board must have 1 to {MAX_SIDE} {what}, not {excerpt(value)}")
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
        lines = [line.rstrip("\r") for line in text.removeprefix("\ufeff").strip("\n").split("\n")]
        return cls.from_rows(lines)

    @property
    def grid(self) -> Grid:
        return Grid.shared(self.rows, self.cols)

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

    def _repr_svg_(self) -> str:  # Jupyter shows a puzzle as its board (to_scene: a solution)
        from boardpuzzles.render.svg import sheet_svg

        return sheet_svg([frame(self, (), 0, self.describe())])


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
    moves = []
    for d, direction in enumerate(DIRECTIONS):
        if arrived != NO_DIRECTION and d == arrived ^ 2:
            continue
        nearest = next((cell for cell in puzzle.grid.ray(prefix[-1], direction) if cell in on_board), None)
        if nearest is not None:
            moves.append((nearest, d))
    return moves


def arrival(puzzle: Puzzle, prefix: Sequence[Cell]) -> int:
    """The direction of the last step of ``prefix`` (NO_DIRECTION for one stone)."""
    if len(prefix) < 2:
        return NO_DIRECTION
    (r0, c0), (r1, c1) = puzzle.coords(prefix[-2]), puzzle.coords(prefix[-1])
    return DIRECTIONS.index(((r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0)))


# ---------------------------------------------------------------- tables and searching
def _kernels() -> Any:
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
    grid = puzzle.grid
    ray = np.zeros((puzzle.size, 4), dtype=np.int64)
    for i, cell in enumerate(puzzle.stones):
        for d, direction in enumerate(DIRECTIONS):
            word = 0
            for other in grid.ray(cell, direction):
                j = index.get(other)
                if j is not None:
                    word |= 1 << j
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


def solutions(puzzle: Puzzle | str, limits: Limits | None = None, *, prefix: Sequence[Cell] = ()) -> Iterator[Order]:
    """Every order (the ones that begin with ``prefix``, if given): start stones in row-major
    order, then directions north, east, south, west at each stone. Lazy: the kernel resumes
    where it stopped each time more are wanted."""
    limits = limits if limits is not None else Limits()
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
            ray, bit, roots, stack, out, wanted, keys, aux, vals, used, MAX_MEMO_SLOTS, limits.flag
        )
        for i in range(written):
            yield head + tuple(puzzle.stones[j] for j in out[i, :length].tolist())
        if status == kernels.DONE:
            return
        if status == kernels.HALTED:
            limits.raise_stop()
        wanted = min(out.shape[0], wanted * 4)


class Counter:
    """Counts of orders of one puzzle under one cap, sharing the kernel's memo between calls:
    asking about many prefixes of the same puzzle (as the generator does) reuses what earlier
    questions learned. The limits stop every call."""

    def __init__(self, puzzle: Puzzle | str, cap: int | None = None, limits: Limits | None = None) -> None:
        self.puzzle = as_puzzle(puzzle)
        cap = COUNT_CEILING if cap is None else cap
        if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
            raise BoardPuzzlesError(f"the cap must be a whole number >= 1, got {excerpt(cap)}")
        self.cap = min(cap, COUNT_CEILING)
        self.limits = limits if limits is not None else Limits()
        self.ray, self.bit = tables(self.puzzle)
        self._kernels = _kernels()
        self._keys, self._aux, self._vals, self._used = self._kernels.new_table()

    def __call__(self, prefix: Sequence[Cell] = ()) -> int:
        """The number of orders beginning with ``prefix`` (all orders for an empty prefix)."""
        roots, _ = _roots(self.puzzle, prefix)
        total, self._keys, self._aux, self._vals = self._kernels.count_orders(
            self.ray,
            self.bit,
            roots,
            self.cap,
            self._keys,
            self._aux,
            self._vals,
            self._used,
            MAX_MEMO_SLOTS,
            self.limits.flag,
        )
        if total == self._kernels.STOPPED:
            self.limits.raise_stop()
        return int(total)


def count(puzzle: Puzzle | str, limits: Limits | None = None) -> int:
    """The number of orders (refused beyond 10^18 from one start stone, the counter's reach). One
    subtask per start stone, run by :func:`boardpuzzles.parallel.run_subtasks` under the limits:
    threads, progress, time limit, checkpoint (bound to the stones), scheduler."""
    limits = limits if limits is not None else Limits()
    puzzle = as_puzzle(puzzle)
    tables(puzzle)  # refuse a board the kernel cannot hold before any subtask starts

    def work(spec: tuple[Cell], limits: Limits) -> int:
        found = Counter(puzzle, None, limits)(spec)
        if found >= COUNT_CEILING:  # the 64-bit counter is full: the number would be a lower bound
            raise SizeError(f"more than {COUNT_CEILING:.0e} orders start on one stone: beyond the counter")
        return found

    subtasks = [Subtask((stone,)) for stone in puzzle.stones]
    return run_subtasks(work, subtasks, limits, identity=PUZZLE.problem_identity(puzzle))


def count_at_most(puzzle: Puzzle | str, cap: int, limits: Limits | None = None, *, prefix: Sequence[Cell] = ()) -> int:
    """The number of orders (beginning with ``prefix``), or ``cap`` when there are at least that
    many, in one search whose memo every start shares: ``count_at_most(p, 2) == 1`` proves a
    puzzle unique cheaply."""
    return Counter(puzzle, cap, limits)(prefix)


def solve(puzzle: Puzzle | str, limits: Limits | None = None) -> Order | None:
    """The first order (see :func:`solutions`), or None."""
    return next(solutions(puzzle, limits), None)


def first_two(puzzle: Puzzle | str) -> tuple[Order | None, Order | None]:
    """The first two orders: (None, None) for no solution, (a, None) when ``a`` is the only one."""
    found = list(itertools.islice(solutions(puzzle), 2))
    return (found + [None, None])[0], (found + [None, None])[1]


def is_unique(puzzle: Puzzle | str, limits: Limits | None = None) -> bool:
    return count_at_most(puzzle, 2, limits) == 1


# ---------------------------------------------------------------- pictures of orders
#: Colours of the pictures: picked points (no longer drawn: picked stones are greyed), and the
#: stone just picked (ringed).
PICKED_MARK = "#9fc5e8"
CURRENT_MARK = "#e06666"


def frame(puzzle: Puzzle, order: Sequence[Cell], k: int, title: str = "", *, fade: bool = True) -> Scene:
    """The board after the first ``k`` stones of ``order`` are picked up, drawn as a go board:
    stones on the points, picked stones greyed and numbered (``fade=False``: left as stones,
    numbered, as a solution is shown), the stone just picked ringed, the first one marked, and
    the walk so far as arrows."""
    picked = list(order[:k])
    left = set(puzzle.stones) - set(picked)
    stones = left if fade else set(puzzle.stones)
    return Scene(
        puzzle.grid,
        pieces={cell: STONE for cell in sorted(stones)},
        marks={picked[-1]: CURRENT_MARK} if picked and fade else {},
        labels={cell: str(i + 1) for i, cell in enumerate(picked)},
        path=picked,
        title=title,
        style="points",
        arrows=True,
        start=picked[0] if picked else None,
        faded=set(picked) if fade else set(),
        label_meaning="step",
        mark_meanings={CURRENT_MARK: "the stone just picked up"} if fade else {},
    )


def frames(puzzle: Puzzle, order: Sequence[Cell]) -> list[Scene]:
    """Every frame of a replay, 0 to len(order), titled with the step it shows."""
    found = [frame(puzzle, order, 0, "start")]
    for k in range(1, len(order) + 1):
        found.append(frame(puzzle, order, k, f"{k}: {puzzle.name(order[k - 1])}"))
    return found


def text_frame(puzzle: Puzzle, order: Sequence[Cell], k: int, *, coordinates: bool = False) -> str:
    """Frame ``k`` as text, in the seed's spelling: ``O`` a stone on the board, ``=`` a point
    whose stone is gone, ``@`` the stone just picked; ``coordinates`` adds rank numbers on the
    left and file letters below."""
    picked = list(order[:k])
    pieces = {cell: STONE for cell in puzzle.stones}
    pieces.update({cell: "=" for cell in picked})
    if k:
        pieces[picked[-1]] = "@"
    return scene_text(Scene(puzzle.grid, pieces=pieces), coordinates=coordinates)


def to_scene(puzzle: Puzzle, order: Sequence[Cell]) -> Scene:
    """The solution's picture: every stone numbered in pick-up order, arrows along the walk."""
    return frame(puzzle, order, len(order), fade=False)


def numbered_picture(puzzle: Puzzle, order: Sequence[Cell]) -> str:
    """Pick-up numbers in right-aligned columns (``.`` empty, ``O`` a stone not picked)."""
    return scene_text(to_scene(puzzle, order))


def answer_text(puzzle: Puzzle, order: Sequence[Cell]) -> str:
    """An answer as ``solve`` prints it: the numbered board, then the order as square names."""
    return f"{numbered_picture(puzzle, order)}\norder: {order_names(puzzle, order)}"


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
    regrowths: int  # (regrow) walks regrown from a point of ambiguity
    restarts: int  # walks begun afresh
    seconds: float
    method: str = "grow"
    checks: int = 0  # (grow) grown layouts the counter judged
    backtracks: int = 0  # (grow) dead ends backed out of


#: How strongly a random walk favours steps over picked stones, and short steps (``regrow``).
JUMP_WEIGHT = 2.0
DISTANCE_POWER = 1.0
#: The generators ``generate`` knows (see its docstring).
METHODS = ("auto", "grow", "join", "regrow")


class GenerationTimeout(Exception):
    """No unique puzzle was found before the time limit (not bad input: the run gave up)."""


def _random_walk(rows: int, cols: int, stones: int, rng: random.Random, walk: list[Cell]) -> list[Cell] | None:
    """Extend ``walk`` by random legal steps to ``stones`` stones, or None if it gets stuck.

    A new stone may not lie on a point an earlier step passed over (that stone would have been
    on the board then and blocked the step); the step to it may pass over earlier stones, which
    are already picked up. Steps that pass over picked stones are favoured: a walk without them
    can usually be walked backwards too, so it would not be unique."""
    grid = Grid.shared(rows, cols)
    walk = list(walk)
    placed = set(walk)
    crossed: set[Cell] = set()
    for a, b in itertools.pairwise(walk):
        crossed.update(_between(grid, a, b))
    if not walk:
        walk.append(rng.randrange(rows * cols))
        placed.add(walk[0])
    while len(walk) < stones:
        arrived = _direction(grid, walk[-2], walk[-1]) if len(walk) >= 2 else NO_DIRECTION
        options: list[tuple[Cell, float]] = []
        for d, direction in enumerate(DIRECTIONS):
            if arrived != NO_DIRECTION and d == arrived ^ 2:
                continue
            jumped = 0
            for distance, cell in enumerate(grid.ray(walk[-1], direction), start=1):
                if cell in placed or cell in crossed:
                    jumped += 1
                else:
                    options.append((cell, (1 + JUMP_WEIGHT * jumped) / distance**DISTANCE_POWER))
        if not options:
            return None
        cell = rng.choices([o for o, _ in options], weights=[w for _, w in options])[0]
        crossed.update(_between(grid, walk[-1], cell))
        walk.append(cell)
        placed.add(cell)
    return walk


def _direction(grid: Grid, a: Cell, b: Cell) -> int:
    """The direction (index in DIRECTIONS) of the step from a to b along a row or a column."""
    (r0, c0), (r1, c1) = grid.coords(a), grid.coords(b)
    return DIRECTIONS.index(((r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0)))


def _between(grid: Grid, a: Cell, b: Cell) -> list[Cell]:
    """The points strictly between a and b on their row or column."""
    ray = grid.ray(a, DIRECTIONS[_direction(grid, a, b)])
    return list(ray[: ray.index(b)])


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


#: On boards up to 5x5 the smallest layouts with exactly one order, one stone aside, have 7 stones
#: (every layout of 2 to 6 stones there has none or several: see docs/records.md and
#: :func:`unique_layout_counts`). These are the 50 of 4x4 up to the 8
#: symmetries (7 to 10 stones; 400 layouts in all), as 16-bit masks (bit 4 * row + col), each the
#: least of its class: the grower starts from one of them, spread over the board.
SEEDS = (
    719, 764, 847, 1012, 3884, 3892, 4815, 4831, 4860, 5017, 5021, 5081, 5085, 5529, 5531, 5561, 5563,
    6041, 6043, 6451, 6485, 6487, 6517, 6519, 6997, 6999, 7215, 7410, 7471, 7475, 7541, 7543, 7666,
    7980, 8021, 8023, 8130, 8444, 8655, 8671, 8700, 8956, 9130, 9134, 9194, 9198, 11295, 12060,
    13455, 14415,
)  # fmt: skip
SEED_SIDE = 4
#: The kinds of the grower's options: a new first stone, a new last stone, a step split in two;
#: each with no later step passing over the new stone, or with some (jumps).
GROW_KINDS = ("first", "first, jumped", "last", "last, jumped", "split", "split, jumped")
#: An option's weight: 1, plus GROW_JUMP for each later step that passes over the new stone;
#: times GROW_MIDDLE for a split. (Measured on 19x19 with 60 stones: late in a long walk, new first
#: stones almost never stay unique while about one split in ten does; but favouring splits, or
#: learning each kind's success rate as the walk grows, made the generator no faster.)
GROW_JUMP = 16.0
GROW_MIDDLE = 0.1
#: Dead ends a grown walk may back out of (by 1 to GROW_BACK stones) before it is begun afresh.
GROW_PATIENCE = 60
GROW_BACK = 3
#: Options of one walk tried before it counts as a dead end (the rest stay for a later visit).
GROW_TRIES = 30
#: Steps of the counter's search after which a grown layout is passed over, unjudged: most proofs
#: of uniqueness take a few hundred, while finding a second order can take a hundred thousand.
GROW_STEPS = 20_000
#: ``auto`` joins two grown halves (``join``) from this many stones on, where the board allows.
JOIN_FROM = 48
#: Random splits of the columns ``join`` tries before it begins afresh.
JOIN_TRIES = 20
#: 64-bit words 1 << i as int64, for the kernels.
_BITS = np.array([_signed(1 << i) for i in range(MAX_STONES)], dtype=np.int64)


def _is_unique_layout(rows: int, cols: int, cells: Sequence[Cell], limits: Limits, max_steps: int = 0) -> bool:
    """Whether the stones at ``cells`` have exactly one order (the counter's proof, cap 2); False
    too when the proof would take more than ``max_steps`` steps of the search (0: no limit)."""
    found = np.array(sorted(cells), dtype=np.int64)
    kernels = _kernels()
    total = kernels.count_layout(rows, cols, found, _BITS[: len(found)], 2, MAX_MEMO_SLOTS, limits.flag, max_steps)
    if total == kernels.STOPPED:
        limits.raise_stop()
    return bool(total == 1)


def _turned(row: int, col: int, side: int, symmetry: int) -> tuple[int, int]:
    """(row, col) of a side x side square under one of its 8 symmetries (0 is the identity)."""
    for _ in range(symmetry & 3):
        row, col = col, side - 1 - row
    return (row, side - 1 - col) if symmetry & 4 else (row, col)


def _seed_walk(rows: int, cols: int, stones: int, rng: random.Random) -> list[Cell]:
    """One of the SEEDS, turned at random, on 4 random rows and 4 random columns of the board
    (spreading a layout over more rows and columns keeps its orders: only the order of the
    lines matters), with its order."""
    mask = rng.choice([m for m in SEEDS if m.bit_count() <= stones])
    symmetry = rng.randrange(8)
    rows_used = sorted(rng.sample(range(rows), SEED_SIDE))
    cols_used = sorted(rng.sample(range(cols), SEED_SIDE))
    cells = []
    for bit in range(SEED_SIDE * SEED_SIDE):
        if mask >> bit & 1:
            r, c = _turned(*divmod(bit, SEED_SIDE), SEED_SIDE, symmetry)
            cells.append(rows_used[r] * cols + cols_used[c])
    order = solve(Puzzle(rows, cols, tuple(cells)))
    if order is None:  # pragma: no cover - every seed is tested
        raise RuntimeError("a seed layout has no order")
    return list(order)


def _growth_options(rows: int, cols: int, walk: Sequence[Cell]) -> list[tuple[int, Cell, float, int]]:
    """Every way to add one stone to ``walk`` (two stones or more) that keeps it legal, as
    (position in the walk, point, weight, kind): the kind is one of GROW_KINDS, the weight
    GROW_JUMP times the number of later steps that pass over the new stone, plus 1:

    * before the first stone, on one of its rays other than the way the walk leaves it, up to the
      nearest stone (the new stone is picked first, so it blocks nothing; later steps that pass
      over its point jump over it);
    * after the last stone, on one of its rays other than straight back, on a point no step
      passes over (it stays on the board to the end);
    * inside a step, on a point no earlier step passes over: the step is split in two, straight on.
    """
    grid = Grid.shared(rows, cols)
    stones = set(walk)
    first_crossing: dict[Cell, int] = {}
    crossings: dict[Cell, int] = {}
    inside = [_between(grid, a, b) for a, b in itertools.pairwise(walk)]
    for step, points in enumerate(inside):
        for x in points:
            first_crossing.setdefault(x, step)
            crossings[x] = crossings.get(x, 0) + 1
    options: list[tuple[int, Cell, float, int]] = []
    leaves = _direction(grid, walk[0], walk[1])
    for d, direction in enumerate(DIRECTIONS):
        if d == leaves:
            continue
        for p in grid.ray(walk[0], direction):
            if p in stones:
                break
            jumps = crossings.get(p, 0)
            options.append((0, p, 1 + GROW_JUMP * jumps, 0 + (jumps > 0)))
    came = _direction(grid, walk[-2], walk[-1])
    for d, direction in enumerate(DIRECTIONS):
        if d == came ^ 2:
            continue
        jumped = 0
        for q in grid.ray(walk[-1], direction):
            if q in stones:
                jumped += 1
            elif q not in first_crossing:
                options.append((len(walk), q, 1 + GROW_JUMP * jumped, 2 + (jumped > 0)))
    for step, points in enumerate(inside):
        for x in points:
            if x not in stones and first_crossing[x] == step:
                jumps = crossings[x] - 1
                options.append((step + 1, x, GROW_MIDDLE * (1 + GROW_JUMP * jumps), 4 + (jumps > 0)))
    return options


@dataclass
class _Tally:
    checks: int = 0
    backtracks: int = 0
    restarts: int = 0
    regrowths: int = 0


def _grow(rows: int, cols: int, stones: int, rng: random.Random, limits: Limits, tally: _Tally) -> list[Cell] | None:
    """A walk of ``stones`` stones that is the only order of its stones, or None (give up and
    begin afresh). It starts from a seed with exactly one order and adds one stone at a time,
    keeping only layouts the counter proves unique: the options of each walk are tried in a
    random order weighted by :func:`_growth_options`; when none of the next GROW_TRIES is unique
    (a dead end), the walk backs out of the last 1 to GROW_BACK stones and tries the next options
    there."""
    levels: list[tuple[list[Cell], Iterator[tuple[int, Cell, float, int]] | None]] = [
        (_seed_walk(rows, cols, stones, rng), None)
    ]
    dead_ends = 0
    while True:
        walk, pending = levels[-1]
        if len(walk) == stones:
            return walk
        if pending is None:
            options = _growth_options(rows, cols, walk)
            keys = [rng.random() ** (1 / weight) for _, _, weight, _ in options]  # Efraimidis-Spirakis
            pending = iter([options[i] for i in sorted(range(len(options)), key=keys.__getitem__, reverse=True)])
            levels[-1] = (walk, pending)
        grown = None
        for tries, (position, point, _, _) in enumerate(pending):
            if tries == GROW_TRIES:
                break
            limits.check()
            candidate = walk[:position] + [point] + walk[position:]
            tally.checks += 1
            if _is_unique_layout(rows, cols, candidate, limits, GROW_STEPS):
                grown = candidate
                break
        if grown is not None:
            levels.append((grown, None))
            continue
        dead_ends += 1
        tally.backtracks += 1
        if dead_ends > GROW_PATIENCE or len(levels) == 1:
            return None
        del levels[len(levels) - rng.randint(1, min(GROW_BACK, len(levels) - 1)) :]


def _halves(rows: int, cols: int, stones: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(rows, columns, stones) of ``join``'s halves: A on (rows + 1) // 2 rows and (cols + 1) // 2
    columns, B on the other columns and rows plus one; the stones in proportion to the areas."""
    rows_a, cols_a = (rows + 1) // 2, (cols + 1) // 2
    rows_b, cols_b = rows + 1 - rows_a, cols - cols_a
    stones_a = round(stones * rows_a * cols_a / (rows_a * cols_a + rows_b * cols_b))
    return (rows_a, cols_a, stones_a), (rows_b, cols_b, stones - stones_a)


def _join_fits(rows: int, cols: int, stones: int) -> bool:
    """Whether ``join`` can split the board and the stones into two halves that ``grow`` handles."""
    seeds = min(m.bit_count() for m in SEEDS)
    return all(min(r, c) >= SEED_SIDE and seeds <= k <= r * c // 2 for r, c, k in _halves(rows, cols, stones))


def _join(rows: int, cols: int, stones: int, rng: random.Random, limits: Limits, tally: _Tally) -> list[Cell] | None:
    """Two walks grown apart (each the only order of its stones, on the boards of
    :func:`_halves`), laid on disjoint rows and columns but for one row, where A's last stone and
    B's first one meet; or None (begin afresh). B is grown again (up to JOIN_TRIES times) until
    its first stone is alone in its row.

    The result is again the only order, when B's first stone is alone in its row of B and the
    step from A's last stone to it does not turn back: A and B then share no line but that row, in
    which B has one stone, so an order crosses between them once, at that stone; A must come
    first (B's only order starts there, so none ends there), and each part is its own only order.
    The counter proves it all the same."""
    (rows_a, cols_a, stones_a), (rows_b, cols_b, stones_b) = _halves(rows, cols, stones)
    a = _grow(rows_a, cols_a, stones_a, rng, limits, tally)
    if a is None:
        return None
    for _ in range(JOIN_TRIES):
        b = _grow(rows_b, cols_b, stones_b, rng, limits, tally)
        if b is not None and all(cell // cols_b != b[0] // cols_b for cell in b[1:]):
            break  # B's first stone is alone in its row of B
    else:
        return None
    (i, a_col), (j, b_col) = divmod(a[-1], cols_a), divmod(b[0], cols_b)
    last_step = _direction(Grid.shared(rows_a, cols_a), a[-2], a[-1])
    for _ in range(JOIN_TRIES):
        limits.check()
        cols_of_a = sorted(rng.sample(range(cols), cols_a))
        cols_of_b = [c for c in range(cols) if c not in set(cols_of_a)]
        eastward = cols_of_b[b_col] > cols_of_a[a_col]
        if last_step != (3 if eastward else 1):  # the step to B's first stone must not turn back
            break
    else:
        return None
    above = rng.sample(range(i + j), i)
    below = rng.sample(range(i + j + 1, rows), rows_a - 1 - i)
    rows_of_a = sorted([*above, i + j, *below])
    rows_of_b = sorted(set(range(rows)) - set(rows_of_a) | {i + j})
    walk = [rows_of_a[c // cols_a] * cols + cols_of_a[c % cols_a] for c in a]
    walk += [rows_of_b[c // cols_b] * cols + cols_of_b[c % cols_b] for c in b]
    tally.checks += 1
    if not check(Puzzle(rows, cols, tuple(walk)), walk) or not _is_unique_layout(rows, cols, walk, limits):
        return None  # pragma: no cover - the argument above says this cannot happen
    return walk


def generate(
    rows: int,
    cols: int,
    stones: int,
    *,
    seed: int | None = None,
    limits: Limits | None = None,
    patience: int = 60,
    method: str = "auto",
) -> Generated:
    """A new puzzle with exactly one order. Same seed (and method), same puzzle. At the limits'
    time limit it raises :class:`GenerationTimeout` (with a hint), on Ctrl-C :class:`Interrupted`.

    ``grow`` starts from a small layout with exactly one order (one of SEEDS) and adds a stone at
    a time where the walk stays legal (before its first stone, after its last, or inside a step),
    keeping only layouts the counter proves unique, backing out of dead ends. ``join`` grows two
    halves on disjoint lines and joins them at one stone (see :func:`_join`): long walks are
    hard to grow (late in a walk few new stones keep it unique), two half-length ones are not.
    ``auto`` (the default) joins from JOIN_FROM stones on and grows below. ``regrow`` (the old
    method) grows a random legal walk and regrows it from its first point of ambiguity (the walk is
    kept up to the stone where another choice would also succeed, and a new random tail is grown
    from there); a regrown walk is kept when its first ambiguity comes no earlier, and after
    ``patience`` regrowths without progress a fresh walk is begun. Where a board or a number of
    stones is too small for a method, the next one down is used (join, grow, regrow); the
    result's ``method`` says which ran."""
    limits = limits if limits is not None else Limits()
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
    if isinstance(patience, bool) or not isinstance(patience, int) or patience < 1:
        raise BoardPuzzlesError(f"patience must be a whole number >= 1, got {excerpt(patience)}")
    if method not in METHODS:
        raise BoardPuzzlesError(f"the method must be one of {', '.join(METHODS)}, got {excerpt(method)}")
    rng = random.Random(seed)
    started = time.perf_counter()
    tally = _Tally()
    grows = min(rows, cols) >= SEED_SIDE and stones >= min(m.bit_count() for m in SEEDS)
    if method == "auto":
        method = "join" if stones >= JOIN_FROM and _join_fits(rows, cols, stones) else "grow"
    if method == "join" and not _join_fits(rows, cols, stones):
        method = "grow"
    if method == "grow" and not grows:
        method = "regrow"
    try:
        while True:
            limits.check()
            if method == "join":
                walk = _join(rows, cols, stones, rng, limits, tally)
            elif method == "grow":
                walk = _grow(rows, cols, stones, rng, limits, tally)
            else:
                walk = _regrow(rows, cols, stones, rng, limits, tally, patience)
            if walk is not None:
                return Generated(
                    Puzzle(rows, cols, tuple(walk)),
                    tuple(walk),
                    tally.regrowths,
                    tally.restarts,
                    time.perf_counter() - started,
                    method,
                    tally.checks,
                    tally.backtracks,
                )
            tally.restarts += 1
    except TimeLimitReached:
        raise _gave_up(rows, cols, stones, limits.time_limit or 0.0) from None


def _regrow(
    rows: int, cols: int, stones: int, rng: random.Random, limits: Limits, tally: _Tally, patience: int
) -> list[Cell] | None:
    """One walk of the ``regrow`` method (see :func:`generate`), or None to begin afresh."""

    def ambiguity(walk: list[Cell]) -> int | None:
        puzzle = Puzzle(rows, cols, tuple(walk))
        return first_ambiguity(puzzle, walk, Counter(puzzle, 1, limits))

    walk = _random_walk(rows, cols, stones, rng, [])
    if walk is None:
        return None
    point = ambiguity(walk)
    stuck = 0
    while point is not None and stuck < patience:
        limits.check()
        grown = _random_walk(rows, cols, stones, rng, walk[: max(1, point)])
        tally.regrowths += 1
        if grown is None:
            stuck += 1
            continue
        new_point = ambiguity(grown)
        if new_point is None or new_point >= point:
            stuck = 0 if new_point is None or new_point > point else stuck + 1
            walk, point = grown, new_point
        else:
            stuck += 1
    return walk if point is None else None


def _gave_up(rows: int, cols: int, stones: int, time_limit: float) -> GenerationTimeout:
    """The give-up message, with a hint in the direction that may help: few stones for the board
    tend to leave several orders (more stones constrain the walk), many stones make long walks
    hard to find. No exact threshold is known, so the hint says "try", not "needs"."""
    points = rows * cols
    if stones >= MAX_STONES:
        hint = "try another seed, or fewer stones"
    elif 3 * stones <= points:
        hint = "try more stones (with few stones several orders tend to remain), or another seed"
    elif 3 * stones >= 2 * points:
        hint = "try fewer stones (a walk through this many is hard to find), a bigger board, or another seed"
    else:
        hint = "try a different number of stones (more or fewer) or another seed"
    return GenerationTimeout(f"no unique {rows}x{cols} puzzle with {stones} stones found in {time_limit:g} s; {hint}")


# ---------------------------------------------------------------- layouts with one order
#: The largest square :func:`unique_layout_counts` takes (a 64-bit word holds its points).
MAX_LAYOUT_SIDE = 7
#: Layouts each kernel call looks at (then the time limit and Ctrl-C are looked at too).
LAYOUT_CHUNK = 1 << 18


@dataclass(frozen=True)
class LayoutCounts:
    """How many layouts of stones on an n x n board have exactly one pick-up order, by number of
    stones: ``by_size[k]`` in all, ``classes_by_size[k]`` up to the 8 symmetries of the square.
    The empty board is not counted; one stone is (its order is itself)."""

    n: int
    by_size: tuple[int, ...]
    classes_by_size: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.by_size)

    @property
    def classes(self) -> int:
        return sum(self.classes_by_size)


def square_images(n: int) -> np.ndarray:
    """``images[t, p]``: where symmetry ``t`` (0 the identity; see ``_turned``) sends point ``p``
    of the n x n board (``p = n * row + col``)."""
    images = np.zeros((8, n * n), dtype=np.int64)
    for t in range(8):
        for p in range(n * n):
            r, c = _turned(*divmod(p, n), n, t)
            images[t, p] = r * n + c
    return images


def unique_layout_counts(n: int, limits: Limits | None = None, *, masks: int | None = None) -> LayoutCounts:
    """Every one of the 2^(n*n) layouts of the n x n board, each counted by the kernel (cap 2):
    see :class:`LayoutCounts`. ``masks`` looks at only the first that many (for estimates)."""
    limits = limits if limits is not None else Limits()
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_LAYOUT_SIDE:
        raise SizeError(f"the side must be a whole number from 1 to {MAX_LAYOUT_SIDE}, got {excerpt(n)}")
    kernels = _kernels()
    images = square_images(n)
    by_size = np.zeros(n * n + 1, dtype=np.int64)
    classes = np.zeros(n * n + 1, dtype=np.int64)
    end = 1 << (n * n) if masks is None else min(masks, 1 << (n * n))
    lo = 0
    while lo < end:
        limits.check()
        hi = min(end, lo + LAYOUT_CHUNK)
        reached = kernels.unique_layouts(n, lo, hi, images, _BITS, by_size, classes, limits.flag)
        if reached < hi:
            limits.raise_stop()
        lo = hi
    return LayoutCounts(n, tuple(by_size.tolist()), tuple(classes.tolist()))


# ---------------------------------------------------------------- hints and difficulty
#: How far the look-ahead goes when it measures how deep a wrong move must be followed: a wrong
#: move whose lines all die within this many pick-ups gets its depth, a deeper one ``None``. A
#: line dies where no legal move is left, or where a glance shows it doomed: a stone left that
#: sees no stone in any direction, or two stones that see stones in only one (each would have
#: to be the last).
LOOKAHEAD_CAP = 12


@dataclass(frozen=True)
class Hint:
    """What to pick up after ``prefix``: ``right`` (the moves from which an order goes on: one
    when the move is forced) and ``wrong`` (every other legal move, with the number of pick-ups,
    itself included, within which all its lines die (1: doomed at once); ``None`` beyond
    LOOKAHEAD_CAP)."""

    prefix: Order
    right: tuple[Cell, ...]
    wrong: tuple[tuple[Cell, int | None], ...]

    @property
    def forced(self) -> bool:
        return len(self.right) == 1

    @property
    def depth(self) -> int | None:
        """The look-ahead that refutes every wrong move (0 with none; None beyond the cap)."""
        depths = [d for _, d in self.wrong]
        return None if None in depths else max((d for d in depths if d is not None), default=0)


def _depth_text(depth: int | None) -> str:
    if depth is None:
        return f"more than {LOOKAHEAD_CAP} pick-ups"
    return f"{depth} pick-up{'s' if depth != 1 else ''}"


def hint_text(puzzle: Puzzle, found: Hint) -> str:
    """One line: the next forced pick-up and why (how soon every other legal move fails)."""
    name = puzzle.name
    verb = "start at" if not found.prefix else "pick up"
    if not found.right and not found.prefix:
        return "no order picks up every stone: every start fails"
    if not found.right:
        return "no order goes on from here: the pick-ups so far lead nowhere"
    if not found.forced:
        return f"no forced move: {len(found.right)} moves lead on ({' '.join(name(c) for c in found.right)})"
    move = f"{verb} {name(found.right[0])}"
    if not found.wrong:
        return f"{move}: it is the only legal move"
    deepest = sorted(found.wrong, key=lambda w: LOOKAHEAD_CAP + 1 if w[1] is None else w[1], reverse=True)
    shown = ", ".join(f"{name(c)} within {_depth_text(d)}" for c, d in deepest[:6])
    more = f" and {len(deepest) - 6} more" if len(deepest) > 6 else ""
    return f"{move}: every other {'start' if not found.prefix else 'move'} fails ({shown}{more})"


class _Lines:
    """The legal moves of a puzzle as plain bit operations (for hints and ratings)."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.tables = tables(puzzle)
        self.puzzle = puzzle
        self.index = {cell: i for i, cell in enumerate(puzzle.stones)}
        self.ray = [[int(w) & ((1 << 64) - 1) for w in row] for row in self.tables[0].tolist()]
        self.kernels = _kernels()
        self.memo: dict[tuple[int, int, int], int] = {}

    def moves(self, mask: int, cur: int, came: int) -> list[tuple[int, int]]:
        found = []
        for d in range(4):
            if came != NO_DIRECTION and d == came ^ 2:
                continue
            cand = mask & self.ray[cur][d]
            if cand:
                found.append((((cand & -cand).bit_length() - 1) if d in (1, 2) else cand.bit_length() - 1, d))
        return found

    def doomed(self, mask: int, cur: int) -> bool:
        """The kernel's ``doomed`` (the solver's pruning): a stone left that nothing can reach,
        or two that could each only be the last."""
        ray, bit = self.tables
        return bool(self.kernels.doomed(ray, bit, np.int64(_signed(mask)), cur))

    def longest(self, mask: int, cur: int, came: int, budget: int, limits: Limits) -> int:
        """The most pick-ups any line from this state (which has no completion) makes before it
        stops or is seen to be doomed, capped at ``budget + 1``."""
        key = (mask, cur, came)
        known = self.memo.get(key)  # exact values only
        if known is not None:
            return min(known, budget + 1)
        limits.check()
        if self.doomed(mask, cur):
            return 0
        best = 0
        for nxt, d in self.moves(mask, cur, came):
            if best > budget:
                break
            best = max(best, 1 + self.longest(mask & ~(1 << nxt), nxt, d, budget - 1, limits))
        best = min(best, budget + 1)
        if best <= budget:
            self.memo[key] = best
        return best


def hint(puzzle: Puzzle | str, prefix: Sequence[Cell] = (), limits: Limits | None = None) -> Hint:
    """The next pick-up after ``prefix`` (a legal start of an order; empty: the start stone): which
    legal moves lead on to a complete order (the counter decides), and for each other one the
    look-ahead that refutes it (see :class:`Hint`)."""
    limits = limits if limits is not None else Limits()
    puzzle = as_puzzle(puzzle)
    prefix = tuple(prefix)
    problem = first_problem(puzzle, prefix) if prefix else None
    if problem is not None and problem.step:
        raise BoardPuzzlesError(f"the pick-ups so far are illegal: {problem}")
    if len(prefix) == puzzle.size:
        raise BoardPuzzlesError("every stone is picked up already")
    lines = _Lines(puzzle)
    counter = Counter(puzzle, 1, limits)
    mask = (1 << puzzle.size) - 1
    for cell in prefix:
        mask &= ~(1 << lines.index[cell])
    right: list[Cell] = []
    wrong: list[tuple[Cell, int | None]] = []
    for cell, _ in legal_moves(puzzle, prefix):
        if counter((*prefix, cell)):
            right.append(cell)
            continue
        i = lines.index[cell]
        came = NO_DIRECTION if not prefix else arrival(puzzle, (*prefix, cell))
        depth = 1 + lines.longest(mask & ~(1 << i), i, came, LOOKAHEAD_CAP - 1, limits)
        wrong.append((cell, depth if depth <= LOOKAHEAD_CAP else None))
    return Hint(prefix, tuple(right), tuple(wrong))


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle with one order is: ``choices`` is the number of steps (the start
    included) with more than one legal move, ``depth`` the deepest look-ahead any wrong move
    needs (None: beyond LOOKAHEAD_CAP), ``steps`` the depth needed at each step (0: forced)."""

    choices: int
    depth: int | None
    steps: tuple[int | None, ...]

    def describe(self) -> str:
        return f"{self.choices} steps with a real choice; deepest look-ahead {_depth_text(self.depth)}"


def rate(puzzle: Puzzle | str, limits: Limits | None = None) -> Rating:
    """The difficulty of a puzzle with exactly one order (see :class:`Rating`): a hint at every
    step of the order."""
    limits = limits if limits is not None else Limits()
    puzzle = as_puzzle(puzzle)
    order, second = first_two(puzzle)
    if order is None or second is not None:
        raise BoardPuzzlesError("only a puzzle with exactly one order has a rating")
    steps: list[int | None] = []
    choices = 0
    for k in range(puzzle.size):
        found = hint(puzzle, order[:k], limits)
        choices += bool(found.wrong)
        steps.append(found.depth)
    depth = None if None in steps else max((d for d in steps if d is not None), default=0)
    return Rating(choices, depth, tuple(steps))


# ---------------------------------------------------------------- the protocol
def read_order(puzzle: Puzzle, text: str) -> Order:
    """An order as people give it: square names or (row,col) pairs, ``solve``'s output (its
    ``order:`` line), or a board of pick-up numbers (plain or pzprv3) of the same puzzle."""
    from boardpuzzles.formats import goishi as formats

    line = next((ln for ln in text.splitlines() if ln.strip().startswith("order:")), None)
    if line is not None:
        return parse_order(puzzle, line.split(":", 1)[1])
    if "\n" in text.strip() or text.lstrip().startswith(("pzprv3", '"')):
        document = formats.read(text)
        if document.puzzle != puzzle:
            raise BoardPuzzlesError("the answer shows a different board from the puzzle's")
        if document.order is None:
            raise BoardPuzzlesError("the answer holds no pick-up order")
        return document.order
    return parse_order(puzzle, text)


def answer_to_json(puzzle: Puzzle, order: Sequence[Cell]) -> list[str]:
    """The order as square names."""
    return [puzzle.name(c) for c in order]


def answer_from_json(puzzle: Puzzle, document: Any) -> Order:
    if not isinstance(document, list):
        raise BoardPuzzlesError('an order is a list of square names: ["e3", "d3", ...]')
    return tuple(puzzle.grid.cell_named(str(name)) for name in document)


def read_answer(values: Mapping[str, Any], text: str | None) -> tuple[Puzzle, Order]:
    """The puzzle from the FILE parameter (its text), and the order from ``text`` or, without
    one, the pick-up numbers the puzzle's own file holds."""
    from boardpuzzles.formats import goishi as formats

    document = formats.read(values["file"], values.get("format"))
    if text is not None:
        return document.puzzle, read_order(document.puzzle, text)
    if document.order is None:
        raise BoardPuzzlesError(
            "no order to check: give ANSWER (square names such as 'e3 d3 ...'), or a FILE with pick-up numbers"
        )
    return document.puzzle, document.order


def describe(puzzle: Puzzle) -> str:
    return f"pick-up orders of the {puzzle.describe()}"


def _problem(file: str, format: str | None = None) -> Puzzle:
    from boardpuzzles.formats import goishi as formats

    return formats.read(file, format).puzzle


def looks_like_url(text: str) -> bool:
    """Whether a FILE argument is a puzz.link URL itself (decided on its shape, not by looking
    for a file: a mistyped path is reported as a missing file)."""
    text = text.strip()
    return "://" in text or text.startswith(("goishi/", "pzprv3", "?goishi/", "p?goishi/"))


def _warmup() -> None:
    small = Puzzle.parse("OOOO\n.OOO\n..OO\n...O")
    is_unique(small)
    solve(small)
    count(small)


#: A dense board: every point of 7x7 holds a stone (the slow case the time-limit tests use).
DENSE_7 = "goishi/7/7/" + "0" * 10

PUZZLE: protocol.Puzzle[Puzzle, Order] = protocol.Puzzle(
    name="goishi",
    title="Goishi Hiroi: pick up every stone in one walk",
    description="Goishi Hiroi: pick up every stone in one walk. Start at any stone; move along a row or a "
    "column and pick up the first stone still on the board in that direction; at each stone go "
    "straight on or turn 90 degrees, never back. The answer is the pick-up order. FILE may be a file, "
    "`-` for standard input, or a puzz.link URL itself (formats: quoted, rows, numbers, url, pzprv3).",
    params=(
        protocol.Param(
            "file",
            "file",
            "the puzzle: a file, - for standard input, or a puzz.link URL",
            positional=True,
            metavar="FILE",
            literal=looks_like_url,
        ),
        protocol.Param(
            "format",
            "choice",
            "The input's format (default: detected).",
            None,
            short="-f",
            choices=("quoted", "rows", "numbers", "url", "pzprv3"),
        ),
    ),
    problem=_problem,
    solutions=solutions,
    count=count,
    count_at_most=count_at_most,
    violations=violations,
    to_scene=to_scene,
    answer_to_json=answer_to_json,
    answer_from_json=answer_from_json,
    read_answer=read_answer,
    answer_text=answer_text,
    describe=describe,
    check_params=("file", "format"),
    answer_optional=True,
    literal_answers=True,
    default_limit=2,
    # goishi2_80Q1 (umeya/puzzle_alogorithm_python, from Otsuki's book): 4 orders.
    small="goishi/4/4/1370",
    small_count=4,
    small_source="umeya/puzzle_alogorithm_python goishi2_80Q1",
    slow=DENSE_7,
    examples=(
        protocol.Example("solve goishi/6/7/vsten1tvo"),
        # gridpuzzle.com hiroimono 16n76 (tests/data/goishi/published_instances.md): solved, proven unique.
        protocol.Example("solve goishi/15/15/etufvvurv7fvpruvvvtvvvvufvv1vvvsfvvvvvvvbuvrn"),
        protocol.Example("generate 10x10 --stones 20 --seed 1"),
        protocol.Example("count goishi/4/4/1370", 4, "umeya/puzzle_alogorithm_python goishi2_80Q1"),
    ),
    warmup=_warmup,
    commands="boardpuzzles.cli.goishi:COMMANDS",
)
