"""Finding one no-three-in-line board (2n stones on n x n, no three on any line) on large sizes.

:func:`find` (what ``less-than-three find`` calls) searches one-colour boards with K = 2 from
``FIRST_SIZE`` on by orbits of their class here (:func:`find_in_class`); below that size, for
other K, and for a class proven empty here it hands over to ``less_than_three.find``, the cell
search, which also tries the weaker symmetries. The classes and their orbits are in
:mod:`.symmetry` (``symmetry_for``, ``class_orbits``, ``has_symmetry``).

Glossary
--------
class       the boards searched, by their symmetry. Even n: turned by 90 degrees onto
            themselves (``rotate 90``). Odd n: turned by 90 degrees except on the diagonals, which
            turn by 180, the main diagonal holding one pair of stones and the anti-diagonal none
            (a quarter turn alone is impossible: 2n stones are not a multiple of 4). These are the
            classes of the large known solutions: Flammenkamp (J. Combin. Theory A 81, 1998, and
            wwwhomes.uni-bielefeld.de/achim/no3in/), and Prellberg (arXiv:2602.07751, 2026), who
            solved every n <= 60 in them with CP-SAT on a cluster. On odd n one of the diagonals
            holds the pair (2n = 4a + 2); a mirror swaps the diagonals and keeps the quarter-turn
            orbits, so the main diagonal loses nothing.
orbit       the cells a board of the class holds all or none of: 4 cells a quarter turn cycles
            through, or a pair on the main diagonal.
conflict    for two orbits, the orbits on a line through a cell of each (see the kernel,
            :mod:`boardpuzzles._kernels.no_three_find`): built once per size.
attempt     one run of the kernel from an empty board with its own random choices, for a number
            of steps that follows Luby's sequence (mostly short, now and then long); ``jobs``
            threads make attempts side by side and the first board wins.

Roads not taken (tried on 36 <= n <= 44 while this was written, figures not kept): probing every
open orbit of every row at every step (fewer steps, slower overall), and a min-conflicts local
search over the same orbits (stalled one line short from n = 30 on); later a tabu search over
boards with every row right, with an exact repair of the last lines (8 times slower at 36:
``docs/methods/less-than-three-find.md``).
"""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.board import Board
from boardpuzzles.compiling import search_seconds
from boardpuzzles.errors import check_seed
from boardpuzzles.limits import STOP_INTERRUPT, Limits, TimeLimitReached, run_in_threads
from boardpuzzles.puzzles.less_than_three.cell_find import FindResult, _luby
from boardpuzzles.puzzles.less_than_three.cell_find import find as cell_find
from boardpuzzles.puzzles.less_than_three.rules import Problem, Rules, to_board, violations
from boardpuzzles.puzzles.less_than_three.symmetry import class_orbits, has_symmetry, symmetry_for

__all__ = ["FIRST_SIZE", "Tables", "class_orbits", "find", "find_in_class", "has_symmetry", "symmetry_for", "tables"]

#: The sizes from which :func:`find` searches by orbits first: below, its own search
#: finds a board within a second or two and also tries the weaker symmetries.
FIRST_SIZE = 22
#: Steps of the first attempt; attempt i gets this times the i-th term of Luby's sequence,
#: capped at ``MAX_BUDGET`` (a few seconds, so that a thread sees another's board soon).
BUDGET_UNIT = 1_000
MAX_BUDGET = 512_000
#: Random jitter added to the room score of each candidate (natural log units).
NOISE = 0.5


@dataclass(frozen=True)
class Tables:
    """What the kernel needs for one size: the class, its orbits (cells, padded with -1), and the
    kernel's bundle (``no_three_find.OrbitTables``: the conflict tables, and per row or column the
    orbits with one (``mask1``) or two (``mask2``) cells in it)."""

    symmetry: str
    orbits: np.ndarray
    kernel_tables: Any

    def attempt(
        self, seed: int, budget: int, flag: np.ndarray, halt: np.ndarray, noise: float = NOISE
    ) -> tuple[int, np.ndarray, int]:
        """One attempt of the kernel from an empty board: ``(status, placed, steps)`` (see
        ``no_three_find.search``)."""
        status, placed, steps = _kernels().search(self.kernel_tables, seed, noise, budget, flag, halt)
        return int(status), placed, int(steps)


def _bitset(members: list[int], words: int) -> np.ndarray:
    out = np.zeros(words, dtype=np.int64)
    for o in members:
        out[o >> 6] |= np.int64(1) << np.int64(o & 63)
    return out


def _kernels() -> Any:
    from boardpuzzles._kernels import no_three_find  # numba loads only when a search runs

    return no_three_find


_CACHE: dict[int, Tables] = {}  # the last two sizes (60x60: 48 MB of conflict bits)
_CACHE_LOCK = threading.Lock()


def tables(n: int, limits: Limits) -> Tables:
    """The tables of n x n, kept for the last two sizes; the build (seconds on 60x60) keeps the
    limits."""
    with _CACHE_LOCK:
        if n in _CACHE:
            return _CACHE[n]
    built = _build_tables(n, limits.flag)
    if built is None:
        limits.raise_stop()
    with _CACHE_LOCK:
        while len(_CACHE) >= 2:
            del _CACHE[next(iter(_CACHE))]
        _CACHE[n] = built
    return built


def _build_tables(n: int, flag: np.ndarray) -> Tables | None:
    """None when the stop flag cut the build short."""
    orbits = class_orbits(n)
    n_orbits = len(orbits)
    words = max(1, (n_orbits + 63) // 64)
    orbit_of = np.full(n * n, -1, dtype=np.int64)
    table = np.full((n_orbits, 4), -1, dtype=np.int64)
    for i, cells in enumerate(orbits):
        orbit_of[cells] = i
        table[i, : len(cells)] = cells
    # Rows and columns, one per distinct set of (orbit, cells in it): the class makes row r, row
    # n-1-r and two columns alike.
    lines: dict[tuple[tuple[int, int], ...], None] = {}
    for i in range(n):
        for line_cells in (range(i * n, i * n + n), range(i, n * n, n)):
            weights: dict[int, int] = {}
            for x in line_cells:
                if orbit_of[x] >= 0:
                    weights[int(orbit_of[x])] = weights.get(int(orbit_of[x]), 0) + 1
            lines[tuple(sorted(weights.items()))] = None
    mask1 = np.zeros((len(lines), words), dtype=np.int64)
    mask2 = np.zeros((len(lines), words), dtype=np.int64)
    rows_of: list[list[tuple[int, int]]] = [[] for _ in range(n_orbits)]
    for r, line in enumerate(lines):
        mask1[r] = _bitset([o for o, _ in line], words)
        mask2[r] = _bitset([o for o, w in line if w == 2], words)
        for o, w in line:
            rows_of[o].append((r, w))
    width = max(1, max(map(len, rows_of), default=1))
    orbit_rows = np.full((n_orbits, width), -1, dtype=np.int64)
    orbit_weights = np.zeros((n_orbits, width), dtype=np.int64)
    for o, entries in enumerate(rows_of):
        for j, (r, w) in enumerate(entries):
            orbit_rows[o, j], orbit_weights[o, j] = r, w
    kernels = _kernels()
    conflict, bad, complete = kernels.conflict_tables(n, orbit_of, n_orbits, words, flag)
    if not complete:
        return None
    bundle = kernels.OrbitTables(n_orbits, conflict, bad, mask1, mask2, orbit_rows, orbit_weights)
    return Tables(symmetry_for(n), table, bundle)


def board_of(n: int, orbits: np.ndarray, placed: np.ndarray) -> Board:
    """The board whose stones are the orbits in the bitset ``placed``."""
    colours = np.zeros(n * n, dtype=np.int64)
    for o in range(orbits.shape[0]):
        if (int(placed[o >> 6]) >> (o & 63)) & 1:
            cells = orbits[o]
            colours[cells[cells >= 0]] = 1
    return to_board(Rules(n, 1), colours)


def check_found(board: Board, symmetry: str) -> None:
    """Raise AssertionError unless the board the kernel found is a no-three-in-line board (2n
    stones, checked by ``less_than_three``'s checker) with the symmetry of its class."""
    n = board.grid.rows
    if violations(Problem(Rules(n, 1)), board) or not has_symmetry(board, symmetry):
        raise AssertionError("the symmetric search returned a wrong board")


def find_in_class(rules: Rules, limits: Limits, *, seed: int = 0) -> FindResult | None:
    """One board of ``rules`` (one colour, K = 2) in the class of its size, or a result without a
    board when the limits stopped the search first. None when the search was complete and the
    class holds no board (the caller then tries other symmetries). ``limits.jobs`` threads make
    attempts side by side; with one job a seed always gives the same board. Ctrl-C raises
    :class:`Interrupted`."""
    check_seed(seed)
    if rules.colours != 1 or rules.max_in_line != 2 or rules.per_colour != 2 * rules.size:
        raise ValueError("this search is for one colour, 2 per line and 2n stones")
    started = time.perf_counter()
    n = rules.size
    try:
        built = tables(n, limits)
    except TimeLimitReached:  # out of time while building the tables: nothing was tried
        return FindResult(None, None, 0, search_seconds(started))
    kernels = _kernels()
    halt = np.zeros(1, dtype=np.int64)  # set when one thread has an answer: the others stop
    attempts = itertools.count(1)
    outcome: list[FindResult | None] = []

    def worker(index: int) -> None:
        for round_ in itertools.count(1):
            if halt[0] or limits.stopped:
                return
            budget = min(BUDGET_UNIT * _luby(round_), MAX_BUDGET)
            seed_of_attempt = ((seed * 1_000_003 + index) * 7_919 + round_) % 2_147_483_646
            status, placed, _ = built.attempt(seed_of_attempt, budget, limits.flag, halt)
            tried = next(attempts)
            if status == kernels.STOPPED or halt[0]:
                return
            if status == kernels.FOUND:
                board = board_of(n, built.orbits, placed)
                outcome.append(FindResult(board, built.symmetry, tried, search_seconds(started)))
                halt[0] = 1
                return
            if status == kernels.NONE:  # the class holds no board: no attempt can find one
                outcome.append(None)
                halt[0] = 1
                return

    def finish() -> None:
        halt[0] = 1

    run_in_threads(worker, limits, finish)
    if outcome:
        result = outcome[0]
        if result is not None and result.board is not None:
            check_found(result.board, built.symmetry)
        return result
    if limits.reason == STOP_INTERRUPT:
        limits.raise_stop()
    return FindResult(None, None, next(attempts) - 1, search_seconds(started))


def find(rules: Rules, limits: Limits | None = None, *, seed: int = 0) -> FindResult:
    """One one-colour board of ``rules`` (see ``less_than_three.find`` for the result): on large
    sizes with K = 2 the orbit search of the class first, then (small sizes, other K, or a class
    that holds no board) the cell search of :mod:`.cell_find`."""
    limits = limits if limits is not None else Limits()
    one_colour_full = rules.colours == 1 and (rules.stones is None or rules.stones == rules.per_colour)
    if one_colour_full and rules.max_in_line == 2 and rules.size >= FIRST_SIZE:
        found = find_in_class(rules, limits, seed=seed)
        if found is not None:  # None: its class holds no board, so the cell search goes on
            return found
    return cell_find(rules, limits, seed=seed)
