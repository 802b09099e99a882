"""Finding one knight's tour on boards of any size: Warnsdorff's rule with Posa rotations,
closed by rotations; the exact search on small boards."""

from __future__ import annotations

import time
from dataclasses import dataclass

from boardpuzzles._lazy import numpy as np
from boardpuzzles.answers import Path
from boardpuzzles.compiling import search_seconds
from boardpuzzles.errors import SizeError, check_seed, excerpt
from boardpuzzles.limits import STOP_TIME, Limits
from boardpuzzles.puzzles.knights_tour.counting import _tours_from
from boardpuzzles.puzzles.knights_tour.rules import Tour, _validate, board, knight_moves, no_tour_reason

#: ``find`` keeps a few arrays of this length in memory (about 60 bytes a square).
MAX_FIND_SQUARES = 4_000_000
#: ``find`` tries the exact search (which can also prove that there is no tour) up to here.
EXACT_FIND_SQUARES = 30


# ------------------------------------------------------------------ finding one tour
@dataclass(frozen=True)
class FindResult:
    tour: Path | None  # the squares in order, read as a tuple of them; a notebook draws it
    method: str  # how it was found, or how the answer "none" was reached
    reason: str | None  # why there is none, when there is none
    seconds: float
    complete: bool  # False: gave up without deciding


def find(
    rows: int,
    cols: int | None = None,
    closed: bool = False,
    start: int | None = None,
    seed: int = 0,
    limits: Limits | None = None,
    attempts: int = 20,
) -> FindResult:
    """One tour (closed, if asked; from ``start``, if given), quickly on boards of any size.

    Warnsdorff's rule (move to the square with the fewest onward moves), ties broken towards
    the edge (Roth), with Posa rotations when it gets stuck; closed tours are closed by further
    rotations. Later attempts break ties at random and, where the board has a closed tour,
    walk one from a random square and cut it open at the start (for open tours too). Small
    boards fall back to the exact search, which can also prove there is none. The limits stop
    it between and within attempts (then ``complete`` is False)."""
    # Loaded before the clock starts: importing numba is not search time.
    import boardpuzzles._kernels.knights_tour  # noqa: F401

    limits = limits if limits is not None else Limits()
    cols = rows if cols is None else cols
    _validate(rows, cols, start)
    check_seed(seed)  # any 63-bit seed: each attempt's 32-bit kernel seed is derived from it
    squares = rows * cols
    if squares > MAX_FIND_SQUARES:
        has = f"{squares:,}" if squares < 10**30 else "far more"  # a huge size is not printed whole
        raise SizeError(
            f"find is limited to {MAX_FIND_SQUARES:,} squares (memory); {excerpt(rows)}x{excerpt(cols)} has {has}"
        )
    began = time.perf_counter()

    def result(tour: Tour | None, method: str, reason: str | None = None, complete: bool = True) -> FindResult:
        path = None if tour is None else Path(board(rows, cols), tour, closed)
        return FindResult(path, method, reason, search_seconds(began), complete)

    reason = no_tour_reason(rows, cols, closed, start)
    if reason:
        return result(None, "theorem", reason)
    if squares == 1:
        return result((0,), "trivial")
    first = start if start is not None else 0
    found = _warnsdorff(rows, cols, closed, first, seed, limits, attempts)
    if found is not None:
        return result(*found)
    if limits.stopped:
        if limits.reason != STOP_TIME:
            limits.raise_stop()
        return result(None, "Warnsdorff", "stopped at the time limit", complete=False)
    if squares <= EXACT_FIND_SQUARES:
        tour = _exhaustive(rows, cols, closed, start, limits)
        if tour is not None:
            return result(tour, "exhaustive search")
        where = f" from {board(rows, cols).name(start)}" if start is not None else ""
        return result(
            None,
            "exhaustive search",
            f"the exhaustive search found no {'closed' if closed else 'open'} tour of the {rows}x{cols} board{where}",
        )
    return result(None, "Warnsdorff", f"no tour found after {attempts} attempts", complete=False)


def _warnsdorff(
    rows: int, cols: int, closed: bool, first: int, seed: int, limits: Limits, attempts: int
) -> tuple[Tour, str] | None:
    """A tour from ``first`` by Warnsdorff's rule and Posa rotations (see :func:`find`) and how it
    was found, or None when ``attempts`` attempts failed or the limits stopped them."""
    from boardpuzzles._kernels.knights_tour import close_by_rotations, warnsdorff_walk

    squares = rows * cols
    moves, n_moves = knight_moves(rows, cols)
    r, c = np.divmod(np.arange(squares, dtype=np.int32), np.int32(cols))  # squares fit (MAX_FIND_SQUARES)
    edge_pull = (r - (rows - 1) / 2) ** 2 + (c - (cols - 1) / 2) ** 2  # Roth: prefer far from the centre
    del r, c
    budget = 4 * squares + 1000
    # A closed tour passes every square, so it can be walked from anywhere and cut open at the
    # start. Some starts defeat the walk every time (next to a short edge in the middle row of
    # 5 x even boards: the two corners beside it both claim the tour's last square).
    via_cycle = closed or no_tour_reason(rows, cols, True) is None
    for attempt in range(attempts):
        if limits.stopped:
            break
        # numba's generator takes a 32-bit seed: one per (seed, attempt), whatever the seed's size.
        kernel_seed = int(np.random.SeedSequence([seed, attempt]).generate_state(1)[0])
        begin = kernel_seed % squares if attempt and via_cycle else first
        walk = warnsdorff_walk(moves, n_moves, begin, edge_pull, kernel_seed, attempt > 0, budget, limits.flag)
        if len(walk) < squares:
            continue
        if not closed and begin == first:
            return tuple(walk.tolist()), "Warnsdorff" + (" (randomised ties)" if attempt else "")
        if close_by_rotations(moves, n_moves, walk, cols, budget, kernel_seed, limits.flag):
            cycle = walk.tolist()
            at = cycle.index(first)
            how = "Warnsdorff, closed by rotations" + ("" if closed else ", opened at the start")
            return tuple(cycle[at:] + cycle[:at]), how
    return None


def _exhaustive(rows: int, cols: int, closed: bool, start: int | None, limits: Limits) -> Tour | None:
    """The first tour the exact search finds (from ``start``, or square 0 for a closed tour, else
    from each square in turn), or None when there is none."""
    starts = [start] if start is not None else [0] if closed else range(rows * cols)
    for s in starts:
        tour = next(_tours_from(rows, cols, s, closed, limits), None)
        if tour is not None:
            return tour
    return None
