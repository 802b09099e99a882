"""Less Than Three's rules: one member of the family, what is counted, and the independent
checker (see the package's glossary)."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.board import EMPTY, Board
from boardpuzzles.errors import BoardPuzzlesError, SizeError, excerpt
from boardpuzzles.faults import Fault, unfinished
from boardpuzzles.grid import Grid
from boardpuzzles.parallel import planned_as

COLOUR_LETTERS = "XOABCDEFGH"
#: Subtask specs hold cells in the kernel's middle-out numbering: bump this when that numbering
#: changes, so old checkpoints are refused.
PLAN_VERSION = 2
#: A checkpoint is bound to its count's plan, which names the work functions by module: those of
#: this package carry the package's name (where they have always been found), so that the plan,
#: and the checkpoints written under it, do not depend on which module of the package holds them.
PLAN_MODULE = "boardpuzzles.puzzles.less_than_three"
MAX_SIZE = 62  # one 64-bit word per row


#: How the rules name the number of stones a line may not hold.
_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


@dataclass(frozen=True)
class Rules:
    """One member of the family. ``stones=None`` means the most possible, K * n."""

    size: int = 6
    colours: int = 2
    max_in_line: int = 2
    stones: int | None = None

    def __post_init__(self) -> None:
        for name in ("size", "colours", "max_in_line"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise SizeError(f"{name.replace('_', '-')} must be a whole number, got {excerpt(value)}")
        if not 1 <= self.size <= MAX_SIZE:
            raise SizeError(f"size must be between 1 and {MAX_SIZE}, got {excerpt(self.size)}")
        if not 1 <= self.colours <= len(COLOUR_LETTERS):
            raise SizeError(f"colours must be between 1 and {len(COLOUR_LETTERS)}, got {excerpt(self.colours)}")
        if self.max_in_line < 1:
            raise SizeError(f"max-in-line must be at least 1, got {excerpt(self.max_in_line)}")
        if self.stones is not None:
            if isinstance(self.stones, bool) or not isinstance(self.stones, int) or self.stones < 0:
                raise SizeError(f"stones must be a whole number >= 0, got {excerpt(self.stones)}")
            most = self.max_in_line * self.size
            if self.stones > most:
                raise SizeError(
                    f"{self.stones} stones of one colour cannot fit: each of the {self.size} rows is a line "
                    f"holding at most {self.max_in_line}, so at most {most}"
                )
        if self.stones == self.max_in_line * self.size:
            object.__setattr__(self, "stones", None)  # the default, spelled out: one problem, one form
        if self.colours * self.per_colour > self.size**2:
            raise SizeError(f"{self.colours} x {self.per_colour} stones do not fit on {self.size * self.size} cells")

    @property
    def per_colour(self) -> int:
        return self.max_in_line * self.size if self.stones is None else self.stones

    @property
    def grid(self) -> Grid:
        return Grid.square(self.size)

    def describe(self) -> str:
        """The rules in words: "12 black and 12 white stones on 6x6, no three of a colour in a line"."""
        k, s = self.per_colour, "" if self.per_colour == 1 else "s"
        board = f"{self.size}x{self.size}"
        too_many = _NUMBER_WORDS.get(self.max_in_line + 1, str(self.max_in_line + 1))
        if self.colours == 1:
            return f"{k} stone{s} on {board}, no {too_many} in a line"
        if self.colours == 2:
            stones = f"{k} black and {k} white stone{s}"
        else:
            stones = f"{self.colours} colours of {k} stone{s} each"
        return f"{stones} on {board}, no {too_many} of a colour in a line"


SEED = Rules()


@dataclass(frozen=True)
class Problem:
    """The boards of one member of the family; with ``unique`` one per class under the 8
    symmetries of the square, and with ``swap_colours`` also under relabellings of the colours."""

    rules: Rules = SEED
    unique: bool = False
    swap_colours: bool = False

    def __post_init__(self) -> None:
        if self.swap_colours and not self.unique:
            raise BoardPuzzlesError("--swap-colours goes with --unique")
        if self.swap_colours and self.rules.colours == 1:
            raise BoardPuzzlesError("--swap-colours needs at least two colours")


def identity(problem: Problem) -> dict[str, Any]:
    """The problem as JSON; the stones per colour always written out (the default is K x N)."""
    r = problem.rules
    return {
        "size": r.size,
        "colours": r.colours,
        "max_in_line": r.max_in_line,
        "stones": r.per_colour,
        "unique": problem.unique,
        "swap_colours": problem.swap_colours,
    }


def describe(problem: Problem) -> str:
    classes = ""
    if problem.unique:
        swaps = ", reflections and colour swaps" if problem.swap_colours else " and reflections"
        classes = f", one per class under rotations{swaps}"
    return f"placements of {problem.rules.describe()}{classes}"


# ---------------------------------------------------------------- the independent checker
def violations(problem: Problem, board: Board) -> list[Fault]:
    """Everything wrong with a board, by brute force: for every pair of same-coloured stones, walk
    the whole line through them with plain arithmetic and count that colour on it. A line with
    too many stones of a colour is a fault with those stones and a segment from the first to the
    last; fewer stones of a colour than the rules ask for is unfinished."""
    rules = problem.rules
    n = rules.size
    found = []
    if (board.grid.rows, board.grid.cols) != (n, n):
        return [Fault(f"the board is {board.grid.rows}x{board.grid.cols}, not {n}x{n}")]
    letters = COLOUR_LETTERS[: rules.colours]
    stones: dict[str, list[tuple[int, int]]] = {letter: [] for letter in letters}
    for cell, piece in enumerate(board):
        if piece == EMPTY:
            continue
        if piece not in stones:
            found.append(Fault(f"{board.grid.name(cell)} holds {piece!r}, not one of {letters!r}", (cell,)))
            continue
        stones[piece].append(divmod(cell, n))
    for letter, cells in stones.items():
        if len(cells) < rules.per_colour:
            found.append(unfinished(f"{len(cells)} {letter} stones; the rules ask for {rules.per_colour}"))
        elif len(cells) > rules.per_colour:
            placed = tuple(r * n + c for r, c in cells)
            found.append(Fault(f"{len(cells)} {letter} stones; the rules ask for {rules.per_colour}", placed))
        found += _crowded_lines(rules, letter, cells, board.grid)
    return found


def _crowded_lines(rules: Rules, letter: str, cells: list[tuple[int, int]], grid: Grid) -> list[Fault]:
    """The lines holding more than ``max_in_line`` of the stones ``cells`` (one colour)."""
    n = rules.size
    occupied = set(cells)
    seen_lines = set()
    found = []
    for (r1, c1), (r2, c2) in itertools.combinations(cells, 2):
        dr, dc = r2 - r1, c2 - c1
        g = math.gcd(dr, dc)
        dr, dc = dr // g, dc // g
        # Walk back to the edge, then forward across the board.
        r, c = r1, c1
        while 0 <= r - dr < n and 0 <= c - dc < n:
            r, c = r - dr, c - dc
        on_line = []
        while 0 <= r < n and 0 <= c < n:
            if (r, c) in occupied:
                on_line.append(r * n + c)
            r, c = r + dr, c + dc
        key = tuple(on_line)
        if len(on_line) > rules.max_in_line and key not in seen_lines:
            seen_lines.add(key)
            names = ", ".join(grid.name(cell) for cell in on_line)
            segment = ((on_line[0], on_line[-1]),)
            found.append(Fault(f"{len(on_line)} {letter} stones on one line: {names}", key, segment))
    return found


def check(board: Board, rules: Rules = SEED) -> bool:
    return not violations(Problem(rules), board)


def to_board(rules: Rules, colours: np.ndarray | tuple[int, ...]) -> Board:
    """A board from physical cell colours (0 empty, 1.. the colours)."""
    letters = EMPTY + COLOUR_LETTERS
    return Board(rules.grid, [letters[int(c)] for c in colours])


#: Marks a count's work function to be named as the plan knows it: see ``PLAN_MODULE``.
planned = planned_as(PLAN_MODULE)


def plan_identity(problem: Problem) -> dict[str, Any]:
    """What a count's checkpoint is bound to: the record's ``problem_identity``."""
    from boardpuzzles.puzzles.less_than_three import PUZZLE  # the record is built from these modules

    identity: dict[str, Any] = PUZZLE.problem_identity(problem)
    return identity
