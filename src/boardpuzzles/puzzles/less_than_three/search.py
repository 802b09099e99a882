"""Searching Less Than Three boards with the stone by stone kernel
(:mod:`boardpuzzles._kernels.less_than_three`): its tables (one bundle, ``SearchTables``), one
kernel call (``_run``), the split of a search into pieces by its first rows, and ``solutions``
(``count`` is in :mod:`.counting`)."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.board import Board
from boardpuzzles.errors import SizeError
from boardpuzzles.grid import line_directions
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.less_than_three.rules import Problem, Rules, to_board

CHUNK = 1024  # boards fetched from the kernel at a time by solutions()


def line_tables(rules: Rules, limits: Limits | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``cell_lines`` and ``line_cells`` for the kernel: every line with more than K cells, from
    the grid (a large board has a thousand slopes: the limits are checked between them)."""
    grid, k, n = rules.grid, rules.max_in_line, rules.size
    tables = []
    for direction in line_directions(max(1, (n - 1) // k)):
        if limits is not None:
            limits.check()
        tables.append(grid.long_lines(direction, k))
    line_cells = np.concatenate(tables) if tables else np.empty((0, n), dtype=np.int64)
    # cell_lines[cell] lists the lines through it: every (line, cell) pair, grouped by cell.
    line_of, position = np.nonzero(line_cells >= 0)
    cell_of = line_cells[line_of, position]
    by_cell = np.argsort(cell_of, kind="stable")
    cell_of, line_of = cell_of[by_cell], line_of[by_cell]
    counts = np.bincount(cell_of, minlength=grid.size)
    rank = np.arange(len(cell_of)) - np.repeat(np.cumsum(counts) - counts, counts)
    cell_lines = np.full((grid.size, max(1, int(counts.max(initial=0)))), -1, dtype=np.int64)
    cell_lines[cell_of, rank] = line_of
    return cell_lines, line_cells


@dataclass(frozen=True)
class _Layout:
    """The board as the kernel sees it: rows searched middle-out (2.6x fewer steps than top-down
    on 10x10, as lines through the middle rows constrain most), relabelled so that the kernel
    still walks rows 0, 1, 2, ... Every table is in these virtual cells; boards are mapped back
    with ``physical``."""

    virtual: np.ndarray  # physical cell -> virtual cell
    physical: np.ndarray  # virtual cell -> physical cell
    cell_lines: np.ndarray
    line_cells: np.ndarray
    readings: np.ndarray  # the first searched row under the 8 symmetries, virtual cells
    maps: np.ndarray  # the 8 symmetries as virtual cell permutations


@functools.cache
def _layout(rules: Rules) -> _Layout:
    n = rules.size
    order = sorted(range(n), key=lambda r: (abs(2 * r - (n - 1)), r))
    row_rank = {row: i for i, row in enumerate(order)}
    virtual = np.array([row_rank[c // n] * n + c % n for c in range(n * n)], dtype=np.int64)
    physical = np.argsort(virtual)
    cell_lines, line_cells = line_tables(rules)
    v_cell_lines = cell_lines[physical]
    v_line_cells = np.where(line_cells >= 0, virtual[np.maximum(line_cells, 0)], -1)
    perms = rules.grid.group("dihedral").permutations()  # perms[g][cell] = image cell
    first = [order[0] * n + c for c in range(n)]
    readings = virtual[perms[:, first]]
    maps = virtual[perms[:, physical]]  # virtual x -> physical -> image -> virtual
    return _Layout(virtual, physical, v_cell_lines, v_line_cells, readings, maps)


def _relabellings(rules: Rules, swap_colours: bool) -> np.ndarray:
    colours = range(1, rules.colours + 1)
    relabel = [(0, *p) for p in itertools.permutations(colours)] if swap_colours else [(0, *colours)]
    return np.array(relabel, dtype=np.int64)


def _kernel_module() -> Any:
    from boardpuzzles._kernels import less_than_three  # numba loads only when a search runs

    return less_than_three


@functools.cache
def _search_tables(rules: Rules) -> Any:
    """The kernel's bundle (``SearchTables``) of one member of the family, in virtual cells."""
    layout = _layout(rules)
    return _kernel_module().SearchTables(
        rules.size,
        rules.colours,
        rules.max_in_line,
        rules.per_colour,
        layout.cell_lines,
        layout.line_cells,
        layout.maps,
        layout.readings,
    )


def _run(
    rules: Rules,
    prefix: tuple[int, ...],
    rows_limit: int,
    limits: Limits,
    *,
    capacity: int = 0,
    stop_after: int = -1,
    symmetric: bool = False,
    swap_colours: bool = False,
    weigh: bool = False,
    grow: bool = False,
    cells: int | None = None,
) -> tuple[int, int, np.ndarray]:
    """One kernel call in virtual cells (see ``_Layout``): (found, classes, the boards stored).
    With ``weigh`` the boards stored are the ones walked (each stands for ``found`` / SYMMETRY_UNIT
    boards in all); ``symmetric`` and ``weigh`` together make ``classes`` the weighted stabilisers
    (see ``_classes_work``). With ``grow`` every board reached is returned (the search runs
    again when ``capacity`` was too small). ``cells``: keep only the first cells of each board
    (the rows a listing of partial boards fills), not the whole board."""
    kernels = _kernel_module()
    out = np.zeros((capacity, rules.size**2 if cells is None else cells), dtype=np.int64)
    # The least-image test needs every relabelling (C! of them); the stabiliser reads its own.
    relabel = _relabellings(rules, swap_colours and symmetric and not weigh)
    prefix_cells = np.array(prefix, dtype=np.int64)
    walk = kernels.Walk(prefix_cells, rows_limit, stop_after, symmetric, weigh, swap_colours, relabel)
    found, classes, reached = kernels.search(_search_tables(rules), walk, out, limits.flag)
    if found == kernels.STOPPED:
        limits.raise_stop()
    if grow and reached > capacity:  # too many to hold: again, with room for all
        again = {"symmetric": symmetric, "swap_colours": swap_colours, "weigh": weigh}
        return _run(rules, prefix, rows_limit, limits, capacity=int(reached), stop_after=stop_after, **again)
    return int(found), int(classes), out[: min(reached, capacity)]


def _to_physical(rules: Rules, virtual_board: np.ndarray) -> Board:
    return to_board(rules, virtual_board[_layout(rules).virtual])


#: The most prefixes a search is split into at once (with many colours and few stones two rows
#: can be filled in billions of ways).
MAX_PREFIXES = 200_000


def _prefixes(
    rules: Rules, prefix: tuple[int, ...], rows: int, limits: Limits, weigh: bool = False
) -> list[tuple[int, ...]] | None:
    """The feasible ways to fill the (virtual) rows after ``prefix`` up to row ``rows``; None
    when there are more than ``MAX_PREFIXES`` of them. Only their rows are held (whole boards
    of 40x40 would take 2.5 GB for 200,000 prefixes)."""
    n = rules.size
    found, _, _ = _run(rules, prefix, rows, limits, weigh=weigh, stop_after=MAX_PREFIXES + 1)
    if found > MAX_PREFIXES:
        return None
    _, _, boards = _run(rules, prefix, rows, limits, capacity=found, weigh=weigh, cells=rows * n)
    return [tuple(b.tolist()) for b in boards]


def _first_rows(rules: Rules, limits: Limits, weigh: bool = False) -> list[tuple[int, ...]]:
    """How a search is split: the fillings of its first two (virtual) rows, or of the first row
    alone when two rows have too many."""
    for rows in sorted({min(2, rules.size), 1}, reverse=True):
        found = _prefixes(rules, (), rows, limits, weigh)
        if found is not None:
            return found
    raise SizeError(
        f"the first row of {rules.describe()} can be filled in more than {MAX_PREFIXES:,} ways: "
        "too many pieces to split the search into; try fewer colours or more stones"
    )


def solutions(problem: Problem, limits: Limits | None = None) -> Iterator[Board]:
    """Every placement, as boards, streamed as they are found. With ``unique``, one per class."""
    limits = limits if limits is not None else Limits()
    rules = problem.rules
    chunk = CHUNK
    layout = _layout(rules)
    relabel = _relabellings(rules, problem.swap_colours)
    # Start from the first two rows' fillings (as count does), so the first boards come quickly.
    pending = list(reversed(_first_rows(rules, limits)))
    while pending:
        prefix = pending.pop()
        found, _, boards = _run(rules, prefix, rules.size, limits, capacity=chunk, stop_after=chunk + 1)
        if found > chunk:  # too many to hold: split by the next row
            longer = _prefixes(rules, prefix, len(prefix) // rules.size + 1, limits)
            if longer is None:
                raise SizeError(f"the next row of {rules.describe()} can be filled in too many ways to list")
            pending.extend(reversed(longer))
            continue
        for b in boards:
            if problem.unique and not _kernel_module().is_least_image(b, layout.maps, relabel):
                continue
            yield _to_physical(rules, b)


def group_order(rules: Rules, swap_colours: bool) -> int:
    """The 8 symmetries of the square, times the C! relabellings of the colours with ``swap``."""
    return 8 * (math.factorial(rules.colours) if swap_colours else 1)
