"""Counting and listing knight's tours: open tours from every start by the frontier sweep of
:mod:`.open_sweep`, from one start by the exhaustive search of every path (in subtasks by their
first moves); closed tours by the frontier sweep of :mod:`.closed`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.errors import SizeError
from boardpuzzles.limits import Limits
from boardpuzzles.parallel import Subtask, plan_digest, run_subtasks, subtask_key
from boardpuzzles.puzzles.knights_tour.closed import _closed_piece, _closed_share, halves
from boardpuzzles.puzzles.knights_tour.frontier import MAX_FRONTIER_SIDE, Named, OverMemory, sweep_plan
from boardpuzzles.puzzles.knights_tour.open_sweep import _open_share, _open_sweep
from boardpuzzles.puzzles.knights_tour.rules import (
    Problem,
    Tour,
    _closing_squares,
    _prefixes,
    _start_classes,
    knight_moves,
    no_tour_reason,
    planned,
    reach_masks,
)
from boardpuzzles.puzzles.knights_tour.sharded import halves_in_shards

#: Open counts from one start search every path; beyond this even 8x8 would run for centuries.
MAX_COUNT_SQUARES = 64
#: The pairing of the two halves of a count by halves is split into this many subtasks (a power
#: of two: a piece is a share of the keys' hashes).
PIECES = 64
CLOSED_PIECES = PIECES
#: Subtasks of a count: enough first moves for this many pieces of work per start square.
SUBTASKS_PER_START = 64


# ------------------------------------------------------------------ counting
def count(problem: Problem, limits: Limits | None = None) -> int:
    """The number of tours the problem describes (directed unless ``undirected``; from every
    start or from ``start``). Closed tours come from the frontier sweep (:func:`count_closed`)."""
    limits = limits if limits is not None else Limits()
    validate_count(problem)
    rows, cols, start = problem.rows, problem.cols, problem.start
    squares = problem.squares
    from boardpuzzles.puzzles.knights_tour import PUZZLE  # the record is built from these modules

    where = PUZZLE.problem_identity(problem)
    if problem.closed:
        if no_tour_reason(rows, cols, closed=True):
            return 0
        # Small boards: one subtask (the plan of earlier versions: their files stay good).
        cycles = _by_halves(problem, "closed tours", 1, limits, 1 if rows * cols < 48 else PIECES)
        if problem.undirected:
            return cycles
        return 2 * cycles * (1 if start is not None else squares)
    if squares == 1:
        return 1
    if no_tour_reason(rows, cols, start=start):
        return 0
    ends = 1 if problem.undirected else 2  # a directed tour: a path and the end it starts from
    if _met(problem):
        return _by_halves(problem, "open tours by halves", ends, limits)
    if _swept(problem):
        sweep = Named("_open_sweep", _open_sweep, memory=problem.memory)
        return run_subtasks(sweep, [Subtask(("open tours", rows, cols), ends)], limits, identity=where)
    starts = [(start, 1)] if start is not None else _start_classes(rows, cols)
    subtasks = [
        Subtask((rows, cols, prefix), weight * orbit)
        for first, orbit in starts
        for prefix, weight in _prefixes(rows, cols, first, SUBTASKS_PER_START)
    ]
    directed = run_subtasks(_open_work, subtasks, limits, identity=where)
    return directed // 2 if problem.undirected else directed


def _by_halves(problem: Problem, what: str, weight: int, limits: Limits, pieces: int = PIECES) -> int:
    """A count by the halves of the frontier sweep, in ``pieces`` subtasks that pair the leaves
    of the two halves (:mod:`.meeting`), each weighted ``weight`` (one piece: the closed count
    of a small board, as ``_closed_piece``). The halves are swept here,
    before the subtasks (unless the checkpoint has every piece already): in memory, or, past the
    memory bound, in shards on disk (:mod:`.sharded`), whose store goes once the count is done."""
    from boardpuzzles.puzzles.knights_tour import PUZZLE
    from boardpuzzles.puzzles.knights_tour.shards import Store, store_folder

    rows, cols, paths = problem.rows, problem.cols, not problem.closed
    subtasks = [Subtask((what, rows, cols, k, pieces), weight) for k in range(pieces)]
    work: Any = _open_share if paths else _closed_share if pieces > 1 else _closed_piece
    unit = 2 if pieces > 1 else 1  # a piece counts each tour twice (``meeting.pair_piece``)
    identity = PUZZLE.problem_identity(problem)
    if limits.checkpoint_file is not None:  # a checkpoint of another plan is refused before the sweep
        keys = [subtask_key(s.spec) for s in subtasks]
        limits.checkpoint_file.bind(plan_digest(work, subtasks, keys, unit), identity)
    store = None
    if not _all_recorded(limits, subtasks):
        width, length, _, _ = sweep_plan(rows, cols)
        folder = store_folder(limits.checkpoint, width, length, paths, "halves")
        over = None
        if not Store.exists(folder):
            try:
                halves(rows, cols, paths, pieces, limits, memory=problem.memory)
            except OverMemory as stop:
                over = stop.released()
        if over is not None or Store.exists(folder):
            work, store, temporary = halves_in_shards(rows, cols, paths, pieces, over, limits, problem.memory)
    try:
        total = run_subtasks(work, subtasks, limits, identity=identity, unit=unit)
    except BaseException:
        if store is not None and temporary:
            store.delete()
        raise
    if store is not None:
        store.delete()  # every piece is counted (and kept in the checkpoint)
    return total


def _all_recorded(limits: Limits, subtasks: Sequence[Subtask]) -> bool:
    """Whether the count's open checkpoint holds every subtask already (then nothing is swept)."""
    from boardpuzzles.checkpoint import CheckpointError

    if limits.checkpoint_file is None:
        return False
    try:
        done = limits.checkpoint_file.finished()
    except (CheckpointError, ValueError):  # not bound yet, or not readable: the run will say
        return False
    return all(subtask_key(s.spec) in done for s in subtasks)


@planned
def _open_work(spec: tuple[int, int, Tour], limits: Limits) -> int:
    from boardpuzzles._kernels import STOPPED
    from boardpuzzles._kernels.knights_tour import path_search

    rows, cols, prefix = spec
    nothing = np.empty((0, rows * cols), np.int32)
    found = int(path_search(reach_masks(rows, cols), np.array(prefix, np.int32), -1, nothing, -1, limits.flag))
    if found == STOPPED:
        limits.raise_stop()
    return found


#: Open tours from every start: the frontier sweep takes over from the search of every path on
#: boards with at least this many squares, by width (where it is the faster of the two: 5x8 2.5
#: CPU s against 4.7, 6x7 71 against 78; 6x6 28 against 0.35). Wider boards keep the search.
SWEEP_FROM_SQUARES = {1: 0, 2: 0, 3: 0, 4: 0, 5: 40, 6: 42}


#: Open tours from every start on boards 7 squares wide: the top and bottom halves of the sweep
#: meet in the middle (the whole sweep would outgrow memory).
OPEN_HALVES_WIDTH = 7


def _met(problem: Problem) -> bool:
    """Open tours from every start on a board 7 squares wide are counted by halves."""
    return not problem.closed and problem.start is None and min(problem.rows, problem.cols) == OPEN_HALVES_WIDTH


def _swept(problem: Problem) -> bool:
    """Open tours from every start are counted by the frontier sweep (one pass for all starts)
    on a narrow board with many squares; otherwise, and from one start, by the search of every
    path."""
    width = min(problem.rows, problem.cols)
    if problem.closed or problem.start is not None or width not in SWEEP_FROM_SQUARES:
        return False
    return problem.squares >= SWEEP_FROM_SQUARES[width]


def validate_count(problem: Problem) -> None:
    """Refuse, with the reason, a count that cannot be made (before any work is done)."""
    rows, cols = problem.rows, problem.cols
    if problem.closed and min(rows, cols) > MAX_FRONTIER_SIDE and not no_tour_reason(rows, cols, closed=True):
        raise SizeError(
            f"counting closed tours is limited to boards with a side of at most {MAX_FRONTIER_SIDE} "
            f"(the sweep keeps 2 x side + 1 squares in one 64-bit state); {rows}x{cols} is wider. "
            "`knights-tour find --closed` finds one tour on any board"
        )
    if not problem.closed and not _swept(problem) and not _met(problem) and rows * cols > MAX_COUNT_SQUARES:
        raise SizeError(
            f"counting open tours is limited to {MAX_COUNT_SQUARES} squares, or from every start to boards with "
            f"a side of at most {OPEN_HALVES_WIDTH}; {rows}x{cols} is neither. "
            "`knights-tour find` finds one tour on any board"
        )


def count_closed(rows: int, cols: int | None = None, limits: Limits | None = None) -> int:
    """The number of closed tours as cycles (undirected, no start): OEIS A001230 on n x n."""
    return count(Problem(rows, rows if cols is None else cols, closed=True, undirected=True), limits)


# ------------------------------------------------------------------ listing
def solutions(problem: Problem, limits: Limits | None = None) -> Iterator[Tour]:
    """Every tour the problem describes, lazily, in a fixed order: start squares in turn, moves
    tried in the order of ``knight_moves``. ``undirected`` keeps one direction of each path (the
    one whose first square is the smaller of its ends) or cycle (starting on its least square,
    second square smaller than the last)."""
    limits = limits if limits is not None else Limits()
    rows, cols = problem.rows, problem.cols
    if problem.squares > MAX_COUNT_SQUARES:
        raise SizeError(
            f"listing tours is limited to {MAX_COUNT_SQUARES} squares; `knights-tour find` finds one tour on any board"
        )
    if problem.undirected and problem.closed and problem.start is None:
        starts: Sequence[int] = [0]  # every cycle passes square 0
    else:
        starts = [problem.start] if problem.start is not None else range(problem.squares)
    for first in starts:
        for tour in _tours_from(rows, cols, first, problem.closed, limits):
            if problem.undirected and len(tour) > 2:
                if problem.closed and tour[1] > tour[-1]:
                    continue
                if not problem.closed and tour[0] > tour[-1]:
                    continue
            yield tour


def _tours_from(rows: int, cols: int, start: int, closed: bool, limits: Limits) -> Iterator[Tour]:
    squares = rows * cols
    if squares == 1:
        if not closed:
            yield (start,)
        return
    if no_tour_reason(rows, cols, closed, start):
        return
    if not closed:
        yield from _listed(rows, cols, (start,), -1, limits)
        return
    for second in _closing_squares(rows, cols, start):  # tours by their first move, then last
        for last in _closing_squares(rows, cols, start):
            if last != second:
                yield from _listed(rows, cols, (start, second), last, limits)


def _listed(rows: int, cols: int, prefix: Tour, end: int, limits: Limits, batch: int = 4096) -> Iterator[Tour]:
    """The tours that start with ``prefix`` (and stop on ``end``, if >= 0), a batch at a time: a
    prefix with more than ``batch`` of them is split by its next move, which keeps the order and
    bounds the memory."""
    from boardpuzzles._kernels import STOPPED
    from boardpuzzles._kernels.knights_tour import path_search

    out = np.empty((batch, rows * cols), np.int32)
    found = path_search(reach_masks(rows, cols), np.array(prefix, np.int32), end, out, batch, limits.flag)
    if found == STOPPED:
        limits.raise_stop()
    if found <= batch:
        for row in out[:found]:
            yield tuple(row.tolist())
        return
    moves, n_moves = knight_moves(rows, cols)
    for x in moves[prefix[-1], : n_moves[prefix[-1]]]:
        if int(x) not in prefix and int(x) != end:
            yield from _listed(rows, cols, prefix + (int(x),), end, limits, batch)
