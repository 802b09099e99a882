"""Goishi Hiroi's rules: the puzzle (stones on a grid), the independent checker of an order, and
orders as text."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from boardpuzzles._lazy import numpy as np
from boardpuzzles.board import Board
from boardpuzzles.errors import BoardPuzzlesError, ParseError, SizeError, excerpt
from boardpuzzles.faults import Fault, unfinished
from boardpuzzles.grid import Cell, Grid

Order = tuple[Cell, ...]

#: The puzzle's name in the registry and on the command line.
NAME = "goishi"
STONE = "O"
#: The kernels keep the stones left in one 64-bit word.
MAX_STONES = 64
#: Generous for a puzzle (a go board is 19x19) and small enough to refuse absurd headers early.
MAX_SIDE = 100
#: (d_row, d_col) and name of each direction, in the kernels' numbering (the reverse of d is d ^ 2).
DIRECTIONS = ((-1, 0), (0, 1), (1, 0), (0, -1))
DIRECTION_NAMES = ("north", "east", "south", "west")
NO_DIRECTION = 4


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
        """The puzzle in a few words: "11 stones on 7x6" (rows x columns)."""
        return f"{self.size} stone{'s' if self.size != 1 else ''} on {self.rows}x{self.cols}"

    def __str__(self) -> str:
        return "\n".join(self.to_rows())

    def _repr_svg_(self) -> str:  # Jupyter shows a puzzle as its board (a solution: PickUpOrder)
        from boardpuzzles.puzzles.goishi.pictures import frame
        from boardpuzzles.render.svg import sheet_svg

        return sheet_svg([frame(self, (), 0, self.describe())])


def as_puzzle(puzzle: Puzzle | str) -> Puzzle:
    return puzzle if isinstance(puzzle, Puzzle) else Puzzle.parse(puzzle)


# ---------------------------------------------------------------- the independent checker
@dataclass(frozen=True)
class Problem:
    """What is wrong with an order: ``step`` is 1-based (0 when the order is only unfinished:
    empty, or stones left), and the points it concerns (the step's two stones, a stone passed
    over, the stones left)."""

    step: int
    reason: str
    cells: tuple[Cell, ...] = ()

    def fault(self) -> Fault:
        """The problem as a fault: a step's two stones joined by a segment."""
        if not self.step:
            return unfinished(str(self), self.cells)
        move = tuple((a, b) for a, b in itertools.pairwise(self.cells[:2]))
        return Fault(str(self), self.cells, move)

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
            return Problem(k, f"{name(cell)} was already picked up at step {picked_at[cell]}", (cell,))
        if cell not in on_board:
            return Problem(k, f"{name(cell)} is an empty point, not a stone", (cell,))
        if k > 1:
            here = order[k - 2]
            (r0, c0), (r1, c1) = divmod(here, cols), divmod(cell, cols)
            if r0 != r1 and c0 != c1:
                return Problem(k, f"{name(here)} -> {name(cell)} is not along a row or a column", (here, cell))
            step = ((r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0))
            if previous_step is not None and step == (-previous_step[0], -previous_step[1]):
                return Problem(k, f"{name(here)} -> {name(cell)} turns back the way the walk came", (here, cell))
            r, c = r0 + step[0], c0 + step[1]
            while (r, c) != (r1, c1):
                if r * cols + c in on_board:
                    over = r * cols + c
                    return Problem(
                        k,
                        f"{name(here)} -> {name(cell)} passes over {name(over)}, a stone still on the board",
                        (here, cell, over),
                    )
                r, c = r + step[0], c + step[1]
            previous_step = step
        on_board.discard(cell)
        picked_at[cell] = k
    if on_board:
        left = sorted(on_board)
        shown = " ".join(name(c) for c in left[:8]) + (" ..." if len(left) > 8 else "")
        return Problem(0, f"{len(left)} stone{'s' if len(left) > 1 else ''} left on the board: {shown}", tuple(left))
    return None


def violations(puzzle: Puzzle | str, order: Sequence[Cell]) -> list[Fault]:
    """Everything wrong with an order: its first illegal step (the walk cannot go on after it),
    or the stones it leaves on the board (unfinished); empty for a solution."""
    problem = first_problem(puzzle, order)
    return [] if problem is None else [problem.fault()]


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
