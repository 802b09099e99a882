"""Dominoes: the ways to tile an R x C board with dominoes, the second worked example of adding
a puzzle: its answer is no board, and the answer type ``CELL_PAIRS`` gives its text, JSON and picture.

Glossary
--------
problem   :class:`Problem`: the board, rows x cols.
answer    :class:`~boardpuzzles.answers.CellPairs`: the dominoes, each on two neighbouring cells.
modulus   ``count`` runs a transfer matrix (:mod:`boardpuzzles._kernels.dominoes`) modulo numbers
          above 2^61, enough for the bound 2^(cells/2), joined by the Chinese remainder theorem:
          one subtask each (``--jobs``, ``--checkpoint``). Up to 120 squares a count is one piece.
Known answers: OEIS A004003 (2n x 2n boards) and A099390 (the R x C table).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardpuzzles._lazy import LazyModule
from boardpuzzles.answers import CELL_PAIRS, CellPairs
from boardpuzzles.errors import SizeError
from boardpuzzles.faults import Fault, unfinished
from boardpuzzles.grid import ORTHOGONAL, Grid
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.parallel import Subtask, run_subtasks
from boardpuzzles.protocol import Example, Param, Puzzle

if TYPE_CHECKING:
    from boardpuzzles.play import Play

PLAN_VERSION = 1
MAX_WIDTH, MAX_CELLS, MAX_LISTED = 20, 9000, 900  # 2^20 profiles; 1,500 digits a checkpoint row; solve
kernel = LazyModule("boardpuzzles._kernels.dominoes")


@dataclass(frozen=True)
class Problem:
    rows: int
    cols: int

    def __post_init__(self) -> None:
        if min(self.rows, self.cols) > MAX_WIDTH or self.rows * self.cols > MAX_CELLS:
            raise SizeError(f"dominoes tile up to {MAX_CELLS} squares, {MAX_WIDTH} on the shorter side")

    @property
    def grid(self) -> Grid:
        return Grid.shared(self.rows, self.cols)


def violations(problem: Problem, answer: CellPairs) -> list[Fault]:
    """Plain code: every domino on two neighbouring cells, every cell covered once (a cell not
    covered yet is unfinished)."""
    grid, n, covered = problem.grid, problem.grid.name, Counter(cell for pair in answer.pairs for cell in pair)
    if answer.grid != grid:
        return [Fault(f"the board is {answer.grid.rows}x{answer.grid.cols}, not {problem.rows}x{problem.cols}")]
    found = [
        Fault(f"{n(a)}-{n(b)} is no domino", (a, b)) for a, b in answer.pairs if b not in grid.neighbours(a, ORTHOGONAL)
    ]
    found += [
        Fault(f"{n(cell)} is covered {times} times", (cell,)) for cell, times in sorted(covered.items()) if times > 1
    ]
    return found + [unfinished(f"{n(cell)} is not covered", (cell,)) for cell in grid.cells() if cell not in covered]


def solutions(problem: Problem, limits: Limits) -> Iterator[CellPairs]:
    """Every tiling: the first free cell (in reading order) takes a domino across or down."""
    size, cols = problem.rows * problem.cols, problem.cols
    if size > MAX_LISTED:
        raise SizeError(f"dominoes solve lists the tilings of boards up to {MAX_LISTED} squares")

    def fill(free: frozenset[int], chosen: tuple[tuple[int, int], ...]) -> Iterator[CellPairs]:
        limits.check()
        if not free:
            yield CellPairs(problem.grid, chosen)
        cell = min(free, default=size)
        for other in (cell + 1 if (cell + 1) % cols else size, cell + cols):
            if other in free:
                yield from fill(free - {cell, other}, (*chosen, (cell, other)))

    return fill(frozenset(range(size)), ()) if size % 2 == 0 else iter(())


def solutions_holding(problem: Problem, pairs: Iterable[tuple[int, int]], limits: Limits) -> Iterator[CellPairs]:
    """The tilings that hold the dominoes ``pairs`` (a play's hints and shown solution: the
    dominoes a player placed are kept). The free squares are covered as in ``solutions``, a
    domino tried only when the squares it leaves can still be tiled: the search keeps a tiling
    of them (a perfect matching of their grid graph, mended by one augmenting path when a
    domino leaves it), so it meets no dead end and says at once when none holds ``pairs``."""
    size, cols, grid = problem.rows * problem.cols, problem.cols, problem.grid
    if size > MAX_LISTED:
        raise SizeError(f"dominoes solve lists the tilings of boards up to {MAX_LISTED} squares")
    placed = tuple((min(a, b), max(a, b)) for a, b in pairs)
    covered = [cell for pair in placed for cell in pair]
    if len(set(covered)) != len(covered) or any(b not in grid.neighbours(a, ORTHOGONAL) for a, b in placed):
        return iter(())
    free = frozenset(range(size)) - set(covered)
    tiling = _tiling(grid, free, limits)
    if tiling is None:
        return iter(())

    def fill(free: frozenset[int], chosen: tuple[tuple[int, int], ...], tiling: dict[int, int]) -> Iterator[CellPairs]:
        limits.check()
        if not free:
            yield CellPairs(grid, chosen)
            return
        cell = min(free)
        for other in (cell + 1 if (cell + 1) % cols else size, cell + cols):
            if other in free:
                rest = _mended(grid, tiling, free - {cell, other}, cell, other)
                if rest is not None:
                    yield from fill(free - {cell, other}, (*chosen, (cell, other)), rest)

    return fill(free, placed, tiling)


def _tiling(grid: Grid, free: frozenset[int], limits: Limits) -> dict[int, int] | None:
    """A tiling of the squares ``free`` (each square's partner), or None when there is none: a
    maximum matching of their grid graph by augmenting paths from each dark square in turn."""
    tiling: dict[int, int] = {}
    for cell in sorted(free):
        limits.check()
        if _dark(grid, cell) and not _augment(grid, free, tiling, cell):
            return None
    return tiling if len(tiling) == len(free) else None


def _mended(grid: Grid, tiling: dict[int, int], rest: frozenset[int], a: int, b: int) -> dict[int, int] | None:
    """A tiling of ``rest``, the squares of ``tiling`` but ``a`` and ``b`` (a domino placed):
    ``tiling`` without it when it holds that domino, else ``tiling`` without the dominoes on
    ``a`` and ``b``, their other squares joined by an augmenting path; None when ``rest`` has none."""
    mended = {cell: other for cell, other in tiling.items() if cell in rest and other in rest}
    if tiling[a] == b:
        return mended
    left = tiling[a] if _dark(grid, tiling[a]) else tiling[b]
    return mended if _augment(grid, rest, mended, left) else None


def _augment(grid: Grid, free: frozenset[int], tiling: dict[int, int], start: int) -> bool:
    """Cover the dark square ``start`` by an alternating path (breadth first) from it to a light
    square of ``free`` that no domino of ``tiling`` covers, flipping the dominoes along it."""
    came: dict[int, int] = {}  # light square -> the dark square it was reached from
    queue, seen = [start], {start}
    for dark in queue:
        for light in grid.neighbours(dark, ORTHOGONAL):
            if light not in free or light in came:
                continue
            came[light] = dark
            if light not in tiling:
                while True:  # flip the path back to the start
                    dark = came[light]
                    before = tiling.get(dark)
                    tiling[dark], tiling[light] = light, dark
                    if dark == start:
                        return True
                    assert before is not None
                    light = before
            partner = tiling[light]
            if partner not in seen:
                seen.add(partner)
                queue.append(partner)
    return False


def _dark(grid: Grid, cell: int) -> bool:
    return sum(divmod(cell, grid.cols)) % 2 == 0


def _work(spec: tuple[int, int, int, int], limits: Limits) -> int:
    """One modulus's share of the count: the residue times its Chinese-remainder weight."""
    width, length, count, i = spec
    moduli: tuple[int, ...] = kernel.moduli(count)
    found = int(kernel.count_tilings(width, length, moduli[i], limits.flag))
    if found == kernel.STOPPED:
        limits.raise_stop()
    rest = math.prod(moduli) // moduli[i]
    return found * rest * pow(rest, -1, moduli[i])


def count(problem: Problem, limits: Limits) -> int:
    width, length = sorted((problem.rows, problem.cols))
    needed = -(-(width * length // 2 + 1) // 61)  # each modulus is above 2^61
    tasks = [Subtask((width, length, needed, i)) for i in range(needed)]
    try:
        total = run_subtasks(_work, tasks, limits, identity=PUZZLE.problem_identity(problem))
    except TimeLimitReached as stop:  # some moduli's shares say nothing of the count
        raise TimeLimitReached(0, stop.done, stop.total) from None
    return total % math.prod(int(m) for m in kernel.moduli(needed))


def play(puzzle: Puzzle[Problem, CellPairs]) -> Play[Any, Any] | None:
    """The record's play: the default play of cell pairs, its hints, shown solution and dead
    ends found by :func:`solutions_holding`, which starts from the dominoes placed."""
    from boardpuzzles.plays.pairs import pairs_play

    return pairs_play(puzzle, solutions_holding)


PUZZLE: Puzzle[Problem, CellPairs] = Puzzle(
    name="dominoes",
    title="the ways to tile an R x C board with dominoes",
    description="Dominoes: cover an R x C board with dominoes (< >: one across; ^ over v: one standing). count "
    "splits by modulus (--jobs, --checkpoint): up to 120 squares, one subtask, one piece of work.",
    rules="Cover the board with dominoes.",
    params=(Param("size", "size", "the board: N or RxC", positional=True, metavar="SIZE"),),
    problem=lambda size: Problem(*size),
    solutions=solutions,
    count=count,
    violations=violations,
    answer_type=CELL_PAIRS,
    play=play,  # the default play, searching from the dominoes placed
    read_answer=CELL_PAIRS.reader(lambda values, grid: Problem(grid.rows, grid.cols)),
    describe=lambda p: f"domino tilings of the {p.rows}x{p.cols} board",
    small="4",
    small_count=36,
    small_source="OEIS A004003",
    slow="20x450",
    examples=(
        Example("solve 2x4"),
        Example("count 8", 12988816, "OEIS A004003"),
        Example("count 3x10", 571, "OEIS A099390"),
    ),
)
