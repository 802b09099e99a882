"""Finding one one-colour board by the cell search among symmetric boards first, with random
orders and restarts (the kernel: :mod:`boardpuzzles._kernels.less_than_three_find`)."""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.board import Board
from boardpuzzles.compiling import search_seconds
from boardpuzzles.errors import BoardPuzzlesError, check_seed
from boardpuzzles.limits import STOP_INTERRUPT, Limits, TimeLimitReached, run_in_threads
from boardpuzzles.puzzles.less_than_three.rules import Problem, Rules, to_board, violations
from boardpuzzles.puzzles.less_than_three.search import line_tables
from boardpuzzles.puzzles.less_than_three.symmetry import (
    FIND_SYMMETRIES,
    NO_SYMMETRY,
    ROTATE_180,
    _impossible,
    _orbit_tables,
)

FIND_BUDGET_UNIT = 4_000  # search steps per attempt: this times the Luby sequence 1 1 2 1 1 2 4 ...
MAX_FIND_BUDGET = 256_000  # about a second, so that the time limit is kept
#: Sizes above which find() tries a weaker symmetry only once the stronger ones are ruled out:
#: their search spaces are too large to pay off there.
_LARGE = {ROTATE_180: 20, NO_SYMMETRY: 16}


@dataclass(frozen=True)
class FindResult:
    board: Board | None
    symmetry: str | None
    attempts: int
    seconds: float
    complete: bool = False  # True when board is None because the search proved there is none


def _symmetries_to_try(n: int, exhausted: set[str]) -> list[str]:
    """The classes not yet ruled out; on large boards a weaker one only once every stronger one
    is ruled out (their search spaces are too large to pay off there). Never empty: identity is
    ruled out only by a complete search, which ends find()."""
    chosen = []
    for i, symmetry in enumerate(FIND_SYMMETRIES):
        if symmetry in exhausted:
            continue
        stronger_open = any(s not in exhausted for s in FIND_SYMMETRIES[:i])
        if n > _LARGE.get(symmetry, n) and stronger_open:
            continue
        chosen.append(symmetry)
    return chosen


def _luby(i: int) -> int:
    """The i-th term (from 1) of Luby, Sinclair and Zuckerman's sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


def _kernel_module() -> Any:
    from boardpuzzles._kernels import less_than_three_find  # numba loads only when a search runs

    return less_than_three_find


def _find_tables(rules: Rules, limits: Limits, exhausted: set[str]) -> dict[str, Any]:
    """The kernel's bundle (``FindTables``) for each class not ruled out: the lines of the board
    (a large board has a thousand slopes: the limits are checked between them) and the orbits."""
    cell_lines, line_cells = line_tables(rules, limits)
    kernels = _kernel_module()
    bundles = {}
    for symmetry in FIND_SYMMETRIES:
        if symmetry not in exhausted:
            orbits, orbit_of = _orbit_tables(rules, symmetry)
            bundles[symmetry] = kernels.FindTables(
                rules.size, rules.max_in_line, cell_lines, line_cells, orbits, orbit_of
            )
    return bundles


def find(rules: Rules, limits: Limits | None = None, *, seed: int = 0) -> FindResult:
    """One board with K stones in every row (one colour) by the cell search, searched among
    symmetric boards first, with random orders and restarts (``less-than-three find`` calls
    :func:`.orbit_find.find`, which tries the orbit search of large sizes first);
    ``limits.jobs`` threads search independently and the first board found wins (with one job a
    seed always gives the same board). ``board`` is None when the limits stopped it (a time
    limit: ``complete`` is False), or when the search was complete and proved there is none
    (``complete``). Ctrl-C raises :class:`Interrupted`."""
    limits = limits if limits is not None else Limits()
    if rules.colours != 1 or rules.stones is not None and rules.stones != rules.per_colour:
        raise BoardPuzzlesError("find looks for one-colour boards with the most stones (--colours 1, no --stones)")
    check_seed(seed)  # numpy's generator refuses a negative seed with a message of its own
    started = time.perf_counter()
    n = rules.size
    exhausted = {symmetry for symmetry in FIND_SYMMETRIES if _impossible(rules, symmetry)}
    try:
        bundles = _find_tables(rules, limits, exhausted)
    except TimeLimitReached:  # out of time while building the tables: nothing was tried
        return FindResult(None, None, 0, search_seconds(started))
    kernels = _kernel_module()
    attempts = itertools.count(1)
    outcome: list[FindResult] = []
    found_one = threading.Event()

    def worker(index: int) -> None:
        rng = np.random.default_rng([seed, index])
        for round_ in itertools.count(1):
            if found_one.is_set() or limits.stopped:
                return
            # Restarts of Luby's lengths: mostly short, now and then long, for searches whose
            # time to a board varies wildly from one random order to the next.
            budget = min(FIND_BUDGET_UNIT * _luby(round_), MAX_FIND_BUDGET)
            for symmetry in _symmetries_to_try(n, exhausted):
                order = np.array([rng.permutation(n) for _ in range(2 * n)], dtype=np.int64)
                status, board = kernels.find_symmetric(bundles[symmetry], order, budget, limits.flag)
                tried = next(attempts)
                if found_one.is_set() or status == kernels.STOPPED_FIND:
                    return
                if status == 1 or status == 0 and symmetry == NO_SYMMETRY:
                    board_found = to_board(rules, board) if status == 1 else None
                    symmetry_found = symmetry if board_found else None
                    outcome.append(FindResult(board_found, symmetry_found, tried, search_seconds(started), status == 0))
                    found_one.set()
                    return
                if status == 0:
                    exhausted.add(symmetry)  # no board with this symmetry exists
                if limits.stopped:
                    return

    run_in_threads(worker, limits, found_one.set)  # the other searches end with their current attempt
    if outcome:
        result = outcome[0]
        if result.board is not None and violations(Problem(rules), result.board):
            raise AssertionError("find returned a wrong board")
        return result
    if limits.reason == STOP_INTERRUPT:
        limits.raise_stop()
    return FindResult(None, None, next(attempts) - 1, search_seconds(started))
