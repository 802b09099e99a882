"""Knight's tours: a knight visits every square of a board once.

Glossary
--------
problem
    :class:`Problem`: the board (rows x cols), and what is searched: open or ``closed`` tours,
    from one ``start`` square or from every square, ``undirected`` (each path once) or not.
tour
    The squares in the order the knight visits them, as a tuple of cells (row 0 on top, see
    :mod:`boardpuzzles.grid`). Consecutive squares are a knight's move apart.
open / closed
    A closed tour also ends a knight's move from its first square, so it is a cycle.
directed
    A tour is a sequence with a first square: read backwards it is another tour. Counts are
    directed unless ``undirected`` is asked for, which counts each path (or cycle) once. A
    closed tour counted with every start and both directions appears 2 x squares times.
start
    The first square. Counting "every start" sums the tours over all first squares.
forced end
    While searching, an unvisited square with a single way left in must be the last square;
    two of them, or a square with no way in, end the branch (see ``_kernels.knights_tour``).
frontier
    The closed-tour counter sweeps the board square by square and only remembers, for the
    squares near the sweep line, how many tour edges each has and where its path ends.

Roads not taken: Graphillion-style ZDDs of all paths (memory grows with the answer; see the
benchmark), and counting closed tours by backtracking (exponentially slower than the frontier
dynamic program; it stays as the cross-check in the tests).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import os
import re
import sys
import threading
import time
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.compiling import search_seconds
from boardpuzzles.errors import BoardPuzzlesError, ParseError, SizeError, check_seed, excerpt
from boardpuzzles.files import replace_file_with
from boardpuzzles.grid import KNIGHT_STEPS, Grid, file_letters
from boardpuzzles.inputs import MAX_ANSWER_BYTES
from boardpuzzles.limits import STOP_TIME, Limits
from boardpuzzles.parallel import Subtask, run_subtasks
from boardpuzzles.protocol import Example, Param, Puzzle

Tour = tuple[int, ...]

#: Exact counts of open tours search every path; beyond this even 8x8 would run for centuries.
MAX_COUNT_SQUARES = 64
#: ``find`` keeps a few arrays of this length in memory (about 60 bytes a square).
MAX_FIND_SQUARES = 4_000_000
#: ``picture`` writes this many squares of text at a time, looking at the limits in between.
TEXT_BLOCK = 1 << 18
#: ``find`` tries the exact search (which can also prove that there is no tour) up to here.
EXACT_FIND_SQUARES = 30
#: The closed-tour sweep keeps 2 x side + 1 squares in a 59-bit state (``_kernels.closed_tours``).
MAX_FRONTIER_SIDE = 8
#: The share of the machine's memory the closed-tour counter may hold; it stops cleanly before.
FRONTIER_MEMORY_SHARE = 0.5
#: The meeting of the two halves of a closed-tour count is split into this many subtasks.
CLOSED_PIECES = 64
#: What a closed-tour subtask and its saved layer mean (bumped when that changes; see
#: ``parallel.plan_digest``). Open-tour subtasks keep version 1: their files stay good.
CLOSED_PLAN_VERSION = 2
PLAN_VERSIONS = {"_closed_piece": CLOSED_PLAN_VERSION}
#: Subtasks of a count: enough first moves for this many pieces of work per start square.
SUBTASKS_PER_START = 64


# ------------------------------------------------------------------ problems, sizes and tables
def board(rows: int, cols: int | None = None) -> Grid:
    return Grid.shared(rows, rows if cols is None else cols)


@dataclass(frozen=True)
class Problem:
    """The tours of a rows x cols board: open or ``closed``; from ``start`` (a cell) or from
    every square; ``undirected``: each path (or cycle) once instead of once per direction and
    start."""

    rows: int
    cols: int
    start: int | None = None
    closed: bool = False
    undirected: bool = False

    def __post_init__(self) -> None:
        _validate(self.rows, self.cols, self.start)
        if self.undirected and self.start is not None and not self.closed:
            raise BoardPuzzlesError("an open tour from a given start already has its direction; drop --undirected")

    @property
    def grid(self) -> Grid:
        return board(self.rows, self.cols)

    @property
    def squares(self) -> int:
        return self.rows * self.cols


def describe(problem: Problem) -> str:
    kind = "closed" if problem.closed else "open"
    size = f"{problem.rows}x{problem.cols}"
    if problem.undirected:
        return f"{kind} tours of {size}, each {'cycle' if problem.closed else 'path'} once"
    where = "from every start square" if problem.start is None else f"starting on {problem.grid.name(problem.start)}"
    return f"{kind} tours of {size}, directed, {where}"


def identity(problem: Problem) -> dict[str, Any]:
    start = None if problem.start is None else problem.grid.name(problem.start)
    return {
        "rows": problem.rows,
        "cols": problem.cols,
        "start": start,
        "closed": problem.closed,
        "undirected": problem.undirected,
    }


def knight_moves(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """``(moves, n_moves)``: ``moves[v, :n_moves[v]]`` are the squares a knight reaches from v,
    in a fixed order (the order every search and listing follows); the grid's step table."""
    return board(rows, cols).step_table(KNIGHT_STEPS)


@functools.lru_cache(maxsize=8)
def reach_masks(rows: int, cols: int) -> np.ndarray:
    """``reach[v]``: the squares a knight reaches from v as a bitmask (boards of <= 64 squares)."""
    moves, n_moves = knight_moves(rows, cols)
    masks = np.zeros(rows * cols, np.uint64)
    for v in range(rows * cols):
        for x in moves[v, : n_moves[v]]:
            masks[v] |= np.uint64(1) << np.uint64(x)
    return masks.view(np.int64)


def _closing_squares(rows: int, cols: int, start: int) -> list[int]:
    """A closed tour from ``start`` is an open one that ends a knight's move from it."""
    moves, n_moves = knight_moves(rows, cols)
    return [int(x) for x in moves[start, : n_moves[start]]]


# ------------------------------------------------------------------ checking (independent)
def violations(problem: Problem, tour: Sequence[int]) -> list[str]:
    """What is wrong with ``tour`` as a tour of the problem (its board, closed if asked, from its
    start if given): plain code that compares coordinates, sharing nothing with the searches."""
    problems = tour_violations(problem.rows, problem.cols, tour, problem.closed)
    if problem.start is not None and tour and tour[0] != problem.start:
        name = problem.grid.name
        first = name(tour[0]) if 0 <= tour[0] < problem.squares else repr(tour[0])
        problems.insert(0, f"the tour starts on {first}, not on {name(problem.start)}")
    return problems


def tour_violations(rows: int, cols: int, tour: Sequence[int], closed: bool = False) -> list[str]:
    """What is wrong with ``tour`` as a knight's tour of the rows x cols board."""
    if _is_tour(rows, cols, tour, closed):
        return []  # a tour of millions of squares: checked at numpy's speed, with nothing to say
    squares = rows * cols
    problems = []
    names = board(rows, cols)
    for i, cell in enumerate(tour):
        if not isinstance(cell, (int, np.integer)) or not 0 <= cell < squares:
            return [f"step {i + 1}: {cell!r} is not a square of the {rows}x{cols} board"]
    for i, (a, b) in enumerate(itertools.pairwise(tour)):
        (ra, ca), (rb, cb) = divmod(int(a), cols), divmod(int(b), cols)
        if sorted((abs(ra - rb), abs(ca - cb))) != [1, 2]:
            problems.append(f"step {i + 2}: {names.name(b)} is not a knight's move from {names.name(a)}")
    seen: set[int] = set()
    for i, cell in enumerate(tour):
        if cell in seen:
            problems.append(f"step {i + 1}: {names.name(cell)} is visited twice")
        seen.add(int(cell))
    if len(seen) < squares:
        unvisited = squares - len(seen)
        first = [names.name(c) for c in itertools.islice((c for c in range(squares) if c not in seen), 5)]
        problems.append(
            f"{unvisited} square{'s' if unvisited > 1 else ''} never visited: "
            f"{', '.join(first)}{', ...' if unvisited > 5 else ''}"
        )
    if closed and squares == 1:
        problems.append("not closed: a single square has no closed tour (a knight cannot move back to it)")
    elif closed and tour:
        (ra, ca), (rb, cb) = divmod(int(tour[-1]), cols), divmod(int(tour[0]), cols)
        if sorted((abs(ra - rb), abs(ca - cb))) != [1, 2]:
            problems.append(
                f"not closed: the last square {names.name(tour[-1])} is not a knight's move "
                f"from the first, {names.name(tour[0])}"
            )
    return problems


def _is_tour(rows: int, cols: int, tour: Sequence[int], closed: bool) -> bool:
    """True when ``tour`` is a knight's tour of the board (closed, if asked), decided by the same
    comparisons of coordinates in numpy; False leaves it to the plain loops, which say why."""
    squares = rows * cols
    order = _squares_of(tour, squares) if len(tour) == squares and not (closed and squares == 1) else None
    if order is None:
        return False
    seen = np.zeros(squares, np.bool_)
    seen[order] = True
    if not seen.all():  # as many steps as squares: then none is visited twice
        return False
    del seen
    if closed:
        order = np.append(order, order[0])
    r, c = np.divmod(order, order.dtype.type(cols))
    del order
    dr, dc = np.abs(np.diff(r)), np.abs(np.diff(c))
    del r, c
    return bool(np.all((dr * dc == 2) & (dr + dc == 3)))


def check(rows: int, cols: int, tour: Sequence[int], closed: bool = False) -> bool:
    """True when ``tour`` is a knight's tour of the board (closed, if asked)."""
    return not tour_violations(rows, cols, tour, closed)


# ------------------------------------------------------------------ when there is none
def no_tour_reason(rows: int, cols: int, closed: bool = False, start: int | None = None) -> str | None:
    """Why the board has no tour (from ``start``, if given), by the theorems that settle it; None
    when a tour exists (for a given start on a small board the search has the last word)."""
    short, long_ = sorted((rows, cols))
    size = f"a {rows}x{cols} board"
    if closed:
        if rows * cols == 1:
            return "a single square has no closed tour (a knight cannot move back to it)"
        if rows % 2 and cols % 2:
            return (
                f"{size} has an odd number of squares, and a knight changes square colour every move, "
                "so a closed tour would need as many light squares as dark ones"
            )
        # The size as the user gave it (4x3, not 3x4): the theorem does not care which side is which.
        if short in (1, 2, 4):
            return (
                f"{size} has a side of {short}, and no board with a side of 1, 2 or 4 has a closed tour (Schwenk 1991)"
            )
        if short == 3 and long_ in (4, 6, 8):
            return (
                f"{size} has a side of 3, and a board with a side of 3 has a closed tour only when "
                "its other side is even and at least 10 (Schwenk 1991)"
            )
        return None
    if start is not None and (rows * cols) % 2:
        row, col = divmod(start, cols)
        if (row + col) % 2:
            return (
                f"{size} has one more square of the corners' colour; a knight alternates colours, "
                f"so every open tour starts and ends on that colour, and "
                f"{board(rows, cols).name(start)} is the other colour"
            )
    if rows * cols == 1:
        return None
    if short <= 2 or (short == 3 and long_ in (3, 5, 6)) or (short == 4 and long_ == 4):
        return f"{size} has no open knight's tour (Conrad et al. 1994; Cull and De Curtins 1978)"
    return None


# ------------------------------------------------------------------ symmetry of the board
def _symmetries(rows: int, cols: int) -> np.ndarray:
    """The board's rotations and reflections as cell permutations."""
    return board(rows, cols).group("dihedral").permutations()


def _start_classes(rows: int, cols: int) -> list[tuple[int, int]]:
    """(representative, orbit size) for each class of start squares under the board's symmetry."""
    perms = _symmetries(rows, cols)
    classes = []
    for cell in range(rows * cols):
        images = set(perms[:, cell].tolist())
        if cell == min(images):
            classes.append((cell, len(images)))
    return classes


def _prefixes(rows: int, cols: int, start: int, wanted: int) -> list[tuple[Tour, int]]:
    """The openings of the tours from ``start`` (its first moves, as deep as needed to have about
    ``wanted`` of them), one per class under the symmetries that fix ``start``, with the class
    size as weight: the tours from equivalent openings are images of each other."""
    moves, n_moves = knight_moves(rows, cols)
    perms = _symmetries(rows, cols)
    stabiliser = perms[perms[:, start] == start]
    level: list[Tour] = [(start,)]
    while len(level) < wanted and len(level[0]) < min(8, rows * cols - 1):
        deeper = [p + (int(x),) for p in level for x in moves[p[-1], : n_moves[p[-1]]] if x not in p]
        if not deeper:
            break
        level = deeper
    result = []
    for p in level:
        images = {tuple(s[list(p)].tolist()) for s in stabiliser}
        if p == min(images):
            result.append((p, len(images)))
    return result


# ------------------------------------------------------------------ counting
def count(problem: Problem, limits: Limits | None = None) -> int:
    """The number of tours the problem describes (directed unless ``undirected``; from every
    start or from ``start``). Closed tours come from the frontier sweep (:func:`count_closed`)."""
    limits = limits if limits is not None else Limits()
    validate_count(problem)
    rows, cols, start = problem.rows, problem.cols, problem.start
    squares = problem.squares
    where = PUZZLE.problem_identity(problem)
    if problem.closed:
        if no_tour_reason(rows, cols, closed=True):
            return 0
        pieces = CLOSED_PIECES if rows * cols >= 48 else 1
        subtasks = [Subtask(("closed tours", rows, cols, k, pieces)) for k in range(pieces)]
        cycles = run_subtasks(_closed_piece, subtasks, limits, identity=where)
        if problem.undirected:
            return cycles
        return 2 * cycles * (1 if start is not None else squares)
    if squares == 1:
        return 1
    if no_tour_reason(rows, cols, start=start):
        return 0
    starts = [(start, 1)] if start is not None else _start_classes(rows, cols)
    subtasks = [
        Subtask((rows, cols, prefix), weight * orbit)
        for first, orbit in starts
        for prefix, weight in _prefixes(rows, cols, first, SUBTASKS_PER_START)
    ]
    directed = run_subtasks(_open_work, subtasks, limits, identity=where)
    return directed // 2 if problem.undirected else directed


def _open_work(spec: tuple[int, int, Tour], limits: Limits) -> int:
    from boardpuzzles._kernels.knights_tour import STOPPED, path_search

    rows, cols, prefix = spec
    nothing = np.empty((0, rows * cols), np.int32)
    found = int(path_search(reach_masks(rows, cols), np.array(prefix, np.int32), -1, nothing, -1, limits.flag))
    if found == STOPPED:
        limits.raise_stop()
    return found


def validate_count(problem: Problem) -> None:
    """Refuse, with the reason, a count that cannot be made (before any work is done)."""
    rows, cols = problem.rows, problem.cols
    if problem.closed and min(rows, cols) > MAX_FRONTIER_SIDE and not no_tour_reason(rows, cols, closed=True):
        raise SizeError(
            f"counting closed tours is limited to boards with a side of at most {MAX_FRONTIER_SIDE} "
            f"(the sweep keeps 2 x side + 1 squares in one 64-bit state); {rows}x{cols} is wider. "
            "`knights-tour find --closed` finds one tour on any board"
        )
    if not problem.closed and rows * cols > MAX_COUNT_SQUARES:
        raise SizeError(
            f"counting open tours is limited to {MAX_COUNT_SQUARES} squares (8x8 would take "
            f"centuries); {rows}x{cols} has {rows * cols}. `knights-tour find` finds one tour on any board"
        )


def count_closed(rows: int, cols: int | None = None, limits: Limits | None = None) -> int:
    """The number of closed tours as cycles (undirected, no start): OEIS A001230 on n x n."""
    return count(Problem(rows, rows if cols is None else cols, closed=True, undirected=True), limits)


@dataclass
class SweepRow:
    """One row of a closed-tour sweep: the frontier states at its start (``states``), the most
    held after any of its squares (``peak``), the bytes of the largest table, and its seconds."""

    row: int
    states: int
    peak: int
    table_bytes: int
    seconds: float


@dataclass
class _Halves:
    """What the subtasks of one closed-tour count share: the top layer (sorted by code), the
    bottom states grouped by degree vector, and the constants of ``join_tops``."""

    top: np.ndarray
    starts: np.ndarray
    partners: np.ndarray
    weights: np.ndarray
    constants: tuple[Any, ...]
    rows: list[SweepRow]


#: The halves of the last closed-tour count, by (width, length): its subtasks share them.
_SWEEPS: dict[tuple[int, int], _Halves] = {}
_SWEEPS_LOCK = threading.Lock()


def frontier_memory() -> int:
    """The bytes the closed-tour counter may hold: ``FRONTIER_MEMORY_SHARE`` of the machine's."""
    try:
        physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # not on Linux: assume 8 GiB
        physical = 8 << 30
    return int(physical * FRONTIER_MEMORY_SHARE)


def _over_memory(rows: int, cols: int, what: str) -> SizeError:
    limit = frontier_memory() / 2**30
    return SizeError(
        f"counting closed tours of {rows}x{cols} needs more than its memory limit of {limit:.2g} GiB "
        f"({FRONTIER_MEMORY_SHARE * 100:.3g}% of the computer's; {what}): stopped before running out"
    )


def closed_plan(rows: int, cols: int, width: int | None = None) -> tuple[int, int, int, int]:
    """``(width, length, top, bottom)``: the sweep runs along the long side, ``width`` squares a
    row; the top half is its first ``top`` rows, the bottom half the last ``bottom`` rows (swept
    from the other end: the board turned over is the same board), and the two rows between them
    are where the halves meet (see ``_kernels.closed_tours``)."""
    if width is None:  # the tests choose the other way across, to try the widest state on small boards
        width = min(rows, cols)
    length = rows * cols // width
    top = (length - 1) // 2
    return width, length, top, length - 2 - top


def _say(limits: Limits, text: str) -> None:
    """A progress line on stderr, when the run shows progress."""
    if limits.progress is not None and getattr(limits.progress, "enabled", True):
        print(text, file=sys.stderr, flush=True)


def _layer_file(limits: Limits, width: int, length: int) -> str | None:
    return None if not limits.checkpoint else f"{limits.checkpoint}.closed-{width}x{length}.npz"


def _layer_digest(meta: np.ndarray, layer: np.ndarray) -> bytes:
    """The SHA-256 a saved layer carries: its plan, row and every state, so that a damaged or edited
    file (a state dropped, a count of ways changed) is refused instead of counted."""
    checksum = hashlib.sha256(b"boardpuzzles closed-tour layer\n")
    checksum.update(np.ascontiguousarray(meta, dtype="<i8").data)
    checksum.update(np.ascontiguousarray(layer, dtype="<i8").data)
    return checksum.digest()


def _load_layer(path: str | None, width: int, length: int, upto: int) -> tuple[int, np.ndarray] | None:
    """The saved layer of an interrupted sweep (its row and states), if it belongs to this one."""
    if path is None or not os.path.exists(path):
        return None
    damaged = f"{path} is not a whole saved closed-tour layer"
    try:
        with np.load(path, allow_pickle=False) as saved:
            meta = np.asarray(saved["meta"])
            layer = np.asarray(saved["layer"])
            stored = bytes(np.asarray(saved["digest"]).tobytes())
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as err:  # EOFError: an empty file
        raise BoardPuzzlesError(f"{damaged} ({excerpt(str(err) or type(err).__name__)}); remove it") from None
    if meta.dtype.kind != "i" or meta.shape != (4,) or layer.dtype.kind != "i" or layer.ndim != 2:
        raise BoardPuzzlesError(f"{damaged} (unexpected arrays); remove it")
    if stored != _layer_digest(meta, layer):
        raise BoardPuzzlesError(f"{damaged} (its checksum does not match its states); remove it")
    plan = meta.tolist()
    if plan[:3] != [CLOSED_PLAN_VERSION, width, length] or layer.shape[1] != 2:
        raise BoardPuzzlesError(f"{path} holds the layer of another closed-tour count; remove it or name another")
    if plan[3] > upto:
        return None
    return int(plan[3]), layer.astype(np.int64, copy=False)


def _save_layer(path: str, width: int, length: int, row: int, layer: np.ndarray) -> None:
    meta = np.array([CLOSED_PLAN_VERSION, width, length, row], np.int64)
    digest = np.frombuffer(_layer_digest(meta, layer), np.uint8)
    # Whole or not at all, like the checkpoint it goes with (a kill mid-save keeps the last one).
    replace_file_with(path, lambda handle: np.savez(handle, meta=meta, layer=layer, digest=digest), sync=True)


def _frontier_layers(
    rows: int, cols: int, upto: int, keep: int, limits: Limits, across: int | None = None
) -> tuple[np.ndarray, np.ndarray, list[SweepRow]]:
    """The frontier states (rows of code, ways; a state and its mirror image share a row) at the
    start of row ``upto`` and of row ``keep`` <= ``upto`` of the sweep, sorted by code, with the
    sweep's figures by row. With a checkpoint the layer is saved after every row, and a run
    resumes from the last one saved. Stops (cleanly, before allocating) when a row's table would
    pass ``frontier_memory()``."""
    from boardpuzzles._kernels import closed_tours as ct

    width, length, _, _ = closed_plan(rows, cols, across)
    squares = width * length
    slots = 2 * width + 1
    offsets, masks, _ = ct.code_layout(slots)
    mirror = np.array([(i // width) * width + width - 1 - i % width for i in range(2 * width)] + [2 * width], np.int64)
    no_mirror = np.array([-1], np.int64)
    budget = frontier_memory()
    path = _layer_file(limits, width, length)
    layer = np.array([[0, 1]], np.int64)
    first = 0
    saved = _load_layer(path, width, length, upto)
    if saved is not None and (saved[0] <= keep or keep == upto):
        first, layer = saved
    kept = layer if first == keep else None
    report: list[SweepRow] = []

    def table_of(size: int, stored: int, row: int, held: int) -> np.ndarray:
        if size * 16 + held > budget:
            raise _over_memory(rows, cols, f"row {row + 1}: over {stored:,} frontier states")
        return np.full((size, 2), -1, np.int64)

    for row in range(first, upto):
        began = time.perf_counter()
        peak, biggest = len(layer), 0
        for col in range(width):
            v = row * width + col
            forward = _forward(v, width, squares)
            n_forward = int(np.count_nonzero(forward))
            size = 1024
            while size < 2 * len(layer):
                size *= 2
            table = table_of(size, 0, row, layer.nbytes)
            stored = position = 0
            while True:
                status, position, stored, _closed = ct.sweep_square(
                    layer, len(layer), position, table, stored, size * 3 // 4, forward, n_forward, slots,
                    squares - v, offsets, masks, mirror if col == width - 1 else no_mirror, limits.flag,
                )  # fmt: skip
                if status == ct.GROW:
                    bigger = table_of(2 * size, stored, row, layer.nbytes + table.nbytes)
                    ct.rehash(table, bigger)
                    table, size = bigger, 2 * size
                elif status == ct.STOPPED:
                    limits.raise_stop()
                elif status == ct.OVERFLOW:
                    raise SizeError(f"the closed-tour count of {rows}x{cols} outgrows 64-bit integers")
                else:
                    break
            biggest = max(biggest, table.nbytes)
            count = int(ct.compact(table))
            table.resize((count, 2), refcheck=False)  # gives the rest back
            layer = table
            peak = max(peak, count)
        report.append(SweepRow(row + 1, len(layer), peak, biggest, time.perf_counter() - began))
        _say(
            limits,
            f"closed tours of {rows}x{cols}: row {row + 1} of {upto}: {len(layer):,} states "
            f"(peak {peak:,} in the row, table {biggest / 2**20:,.0f} MiB), {report[-1].seconds:.1f} s",
        )
        if row + 1 == keep:
            kept = layer
        if path is not None:
            _save_layer(path, width, length, row + 1, layer)
    assert kept is not None  # keep <= upto, and a saved row past keep is used only when keep == upto
    return _by_code(layer), _by_code(kept), report


def _forward(v: int, width: int, squares: int) -> np.ndarray:
    """The knight's moves from ``v`` to later squares (one row down and two columns over, or two
    rows down and one over), as steps from ``v``, padded with zeros to four."""
    col = v % width
    steps = [
        rows * width + shift
        for rows, shift in ((1, -2), (1, 2), (2, -1), (2, 1))
        if 0 <= col + shift < width and v + rows * width + shift < squares
    ]
    return np.array(sorted(steps) + [0] * (4 - len(steps)), np.int64)


def _by_code(layer: np.ndarray) -> np.ndarray:
    return layer[np.argsort(layer[:, 0], kind="stable")]


def _halves(rows: int, cols: int, limits: Limits, across: int | None = None) -> _Halves:
    """The two halves of a closed-tour count, computed once and shared by its subtasks."""
    from boardpuzzles._kernels import closed_tours as ct

    width, length, top_rows, bottom_rows = closed_plan(rows, cols, across)
    with _SWEEPS_LOCK:
        if (width, length) in _SWEEPS:
            return _SWEEPS[width, length]
        _SWEEPS.clear()
        band = 2 * width
        if 4 * 3**band > frontier_memory():
            raise _over_memory(rows, cols, f"an index of 3^{band} degree vectors")
        top, bottom, report = _frontier_layers(rows, cols, top_rows, bottom_rows, limits, across)
        slots = 2 * width + 1
        offsets, masks, _ = ct.code_layout(slots)
        powers = np.array([3**z for z in range(band)], np.int64)
        if 48 * len(bottom) + 4 * 3**band + top.nbytes > frontier_memory():
            raise _over_memory(rows, cols, f"{len(top):,} top and {len(bottom):,} bottom states")
        keys, partners, weights = ct.bottom_table(bottom, width, slots, offsets, masks, powers)
        order = np.argsort(keys, kind="stable")
        starts = ct.class_starts(keys[order], 3**band)
        edges = np.array(
            [(c, width + c + d) for c in range(width) for d in (-2, 2) if 0 <= c + d < width], np.int64
        ).reshape(-1, 2)
        halves = _Halves(
            top, starts, partners[order], weights[order], (width, slots, offsets, masks, powers, edges), report
        )
        _SWEEPS[width, length] = halves
        return halves


def _closed_piece(spec: tuple[str, int, int, int, int], limits: Limits) -> int:
    """Subtask ``piece`` of ``pieces`` of a closed-tour count: the tours whose top half is one of
    that share of the top layer (sorted by code, so the shares are the same in every run)."""

    _, rows, cols, piece, pieces = spec
    return _join(_halves(rows, cols, limits), piece, pieces, f"{rows}x{cols}", limits)


def _join(halves: _Halves, piece: int, pieces: int, board: str, limits: Limits) -> int:
    """The cycles whose top half is in share ``piece`` of ``pieces`` of the top layer."""
    from boardpuzzles._kernels import closed_tours as ct

    n = len(halves.top)
    width, slots, offsets, masks, powers, edges = halves.constants
    total, status = ct.join_tops(
        halves.top, piece * n // pieces, (piece + 1) * n // pieces, width, slots, offsets, masks, powers,
        edges, halves.starts, halves.partners, halves.weights, limits.flag,
    )  # fmt: skip
    if status == ct.STOPPED:
        limits.raise_stop()
    if status == ct.OVERFLOW:
        raise SizeError(f"the closed-tour count of {board} outgrows 64-bit integers")
    return int(total) // 2  # each bottom state counted with its mirror image's weight too


def closed_sweep_report(rows: int, cols: int) -> list[SweepRow]:
    """The figures by row of the last closed-tour count of this board (empty if none is held)."""
    width, length, _, _ = closed_plan(rows, cols)
    halves = _SWEEPS.get((width, length))
    return [] if halves is None else list(halves.rows)


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
    from boardpuzzles._kernels.knights_tour import STOPPED, path_search

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


# ------------------------------------------------------------------ finding one tour
@dataclass(frozen=True)
class FindResult:
    tour: Tour | None
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
    from boardpuzzles._kernels.knights_tour import close_by_rotations, warnsdorff_walk

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
        return FindResult(tour, method, reason, search_seconds(began), complete)

    reason = no_tour_reason(rows, cols, closed, start)
    if reason:
        return result(None, "theorem", reason)
    if squares == 1:
        return result((0,), "trivial")
    moves, n_moves = knight_moves(rows, cols)
    r, c = np.divmod(np.arange(squares, dtype=np.int32), np.int32(cols))  # squares fit (MAX_FIND_SQUARES)
    edge_pull = (r - (rows - 1) / 2) ** 2 + (c - (cols - 1) / 2) ** 2  # Roth: prefer far from the centre
    del r, c
    first = start if start is not None else 0
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
            return result(tuple(walk.tolist()), "Warnsdorff" + (" (randomised ties)" if attempt else ""))
        if close_by_rotations(moves, n_moves, walk, cols, budget, kernel_seed, limits.flag):
            cycle = walk.tolist()
            at = cycle.index(first)
            how = "Warnsdorff, closed by rotations" + ("" if closed else ", opened at the start")
            return result(tuple(cycle[at:] + cycle[:at]), how)
    if limits.stopped:
        if limits.reason != STOP_TIME:
            limits.raise_stop()
        return result(None, "Warnsdorff", "stopped at the time limit", complete=False)
    if squares <= EXACT_FIND_SQUARES:
        starts = [first] if start is not None or closed else range(squares)
        for s in starts:
            tour = next(_tours_from(rows, cols, s, closed, limits), None)
            if tour is not None:
                return result(tour, "exhaustive search")
        where = f" from {board(rows, cols).name(start)}" if start is not None else ""
        return result(
            None,
            "exhaustive search",
            f"the exhaustive search found no {'closed' if closed else 'open'} tour of the {rows}x{cols} board{where}",
        )
    return result(None, "Warnsdorff", f"no tour found after {attempts} attempts", complete=False)


def _validate(rows: int, cols: int, start: int | None) -> None:
    for what, value in (("rows", rows), ("columns", cols)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise SizeError(f"the number of {what} must be a positive integer, got {excerpt(value)}")
    if start is not None and not 0 <= start < rows * cols:
        raise BoardPuzzlesError(f"start square {excerpt(start)} is off the {rows}x{cols} board")


# ------------------------------------------------------------------ reading a tour
#: A board of move numbers: ASCII digits or '.' only, separated by white space.
_NUMBERED = re.compile(r"\s*+(?:(?:[0-9]++|\.)(?:\s++(?:[0-9]++|\.))*+)?\s*+")


def parse_tour(text: str, rows: int, cols: int | None = None) -> list[int]:
    """A tour from a board of move numbers (one row per line, ``.`` an unvisited square; the
    numbers run 1, 2, 3, ... each once) or from a list of square names (separated
    by spaces or commas). A tour names each square at most once, so a list longer than the board
    is refused as soon as it is seen, and a number is read only if it has at most 9 digits."""
    cols = rows if cols is None else cols
    grid = board(rows, cols)
    squares = rows * cols
    text = text.removeprefix("\ufeff")  # a byte-order mark that an editor put at the start
    if not text.strip():
        raise ParseError("the tour is empty")
    if _NUMBERED.fullmatch(text):
        return _numbered_tour(text, rows, cols)
    words = re.finditer(r"\S++", text)
    first = next(words, None)
    if first is not None and re.fullmatch(r"[+-]?+[0-9]++|\.", first.group()):  # numbers were meant
        # Name the word that is not one, and its line (counted as the board's lines are).
        stranger = next(w for w in itertools.chain([first], words) if not re.fullmatch(r"[0-9]++|\.", w.group()))
        line = len((text[: stranger.start()] + "_").splitlines())
        where = f"line {line}: {excerpt(stranger.group())} is not a move number"
        if re.fullmatch(r"[+-][0-9]++", stranger.group()):
            raise ParseError(f"{where}: the moves of a {rows}x{cols} tour are numbered 1 to {squares}")
        raise ParseError(f"{where}: a numbered board holds ASCII digits and '.'")
    tour = []
    for k, match in enumerate(re.finditer(r"[^\s,]++", text), start=1):
        if k > squares:
            raise ParseError(f"more than {squares} squares listed: a tour of {rows}x{cols} visits each square once")
        try:
            tour.append(grid.cell_named(match.group()))
        except BoardPuzzlesError as err:
            raise ParseError(str(err)) from None
    return tour


def _numbered_tour(text: str, rows: int, cols: int) -> list[int]:
    """The squares of a board of move numbers in the order of their numbers. The numbers must be
    1, 2, 3, ... with none repeated or skipped, each at most rows x cols: sorting anything else
    would read a board that is no tour (a 99, a 0, two 7s) as one. ``.`` squares are unvisited:
    1 to k on the other squares is a partial tour, which the checker refuses."""
    grid = board(rows, cols)
    squares = rows * cols
    lines = [(number, line) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if len(lines) != rows:
        raise ParseError(
            f"a numbered board of {rows}x{cols} needs {rows} lines of {cols} numbers; got {len(lines)} lines"
        )
    square_of = np.full(squares + 1, -1, np.int64)  # the square of each move number; -1: none yet
    for r, (number, line) in enumerate(lines):
        words = line.split(None, cols)  # at most one more than a row holds: a long line stays cheap
        if len(words) != cols:
            raise ParseError(
                f"a numbered board of {rows}x{cols} needs {rows} lines of {cols} numbers; "
                f"line {number} has {'more than ' + str(cols) if len(words) > cols else len(words)}"
            )
        for c, word in enumerate(words):
            if word == ".":
                continue
            cell = r * cols + c
            significant = word.lstrip("0") or "0"  # int() counts leading zeros against its limit
            move = int(significant) if len(significant) <= 9 else None  # None: far too large
            if move is None or not 1 <= move <= squares:
                raise ParseError(
                    f"line {number}: {grid.name(cell)} holds move number "
                    f"{excerpt(significant) if move is None else move}, "
                    f"but the moves of a {rows}x{cols} tour are numbered 1 to {squares}"
                )
            if square_of[move] >= 0:
                raise ParseError(
                    f"line {number}: move number {move} appears twice, on {grid.name(int(square_of[move]))} "
                    f"and on {grid.name(cell)}"
                )
            square_of[move] = cell
    numbered = np.flatnonzero(square_of >= 0)  # the move numbers present, in increasing order
    if len(numbered) and numbered[-1] != len(numbered):  # a gap: the knight skipped a move
        missing = int(np.flatnonzero(square_of[1:] < 0)[0]) + 1
        raise ParseError(
            f"move number {missing} is missing: the numbers must run 1, 2, 3, ... without a gap "
            f"(the highest is {int(numbered[-1])}; '.' marks an unvisited square)"
        )
    return square_of[numbered].tolist()


# ------------------------------------------------------------------ pictures and text
def picture(rows: int, cols: int, tour: Sequence[int], limits: Limits | None = None) -> str:
    """The tour as a board of move numbers (1 = the first square), right-aligned and one space
    apart: the scene's text picture. A tour of every square is written by numpy a block of rows
    at a time (a 2000x2000 tour, 32 MB of text, in about a second), and ``limits`` are looked at
    between blocks; any other sequence of squares is drawn by the scene."""
    squares = rows * cols
    order = _squares_of(tour, squares) if len(tour) == squares else None
    number = np.zeros(squares, np.int64 if order is None else order.dtype)
    if order is not None:
        number[order] = np.arange(1, squares + 1, dtype=number.dtype)
    if order is None or not number.all():  # not every square once
        from boardpuzzles.scene import scene_text

        return scene_text(to_scene(Problem(rows, cols), tour))
    del order
    width = len(str(squares))
    powers = 10 ** np.arange(width - 1, -1, -1, dtype=np.int64)
    text = np.empty((squares, width + 1), np.uint8)
    step = max(1, TEXT_BLOCK // cols) * cols
    for first in range(0, squares, step):
        if limits is not None:
            limits.check()
        block = number[first : first + step, None]
        digits = (block // powers % 10 + ord("0")).astype(np.uint8)
        digits[:, :-1][block < powers[:-1]] = ord(" ")  # no leading zeros
        text[first : first + step, :width] = digits
    text[:, width] = ord(" ")
    text[cols - 1 :: cols, width] = ord("\n")
    return str(text.reshape(-1)[:-1].data, "ascii")


def _answer_text(problem: Problem, tour: Sequence[int]) -> str:
    return picture(problem.rows, problem.cols, tour)


def to_scene(problem: Problem, tour: Sequence[int]) -> Any:
    """The tour's picture: move numbers on the squares, the path coloured by move number (closed:
    back to the start), its start ringed and its end squared. Large boards drop the numbers and
    the squares and keep the path (see :mod:`boardpuzzles.render.draw`)."""
    from boardpuzzles.scene import Scene

    path = list(tour) + ([tour[0]] if problem.closed and len(tour) > 1 else [])
    return Scene(
        problem.grid,
        labels={c: str(i + 1) for i, c in enumerate(tour)},
        path=path,
        path_colours="gradient",
        start=tour[0] if tour else None,
        end=tour[-1] if len(tour) > 1 else None,
        label_meaning="move",
    )


def view(tour: Sequence[int], rows: int, cols: int | None = None, closed: bool = False) -> Any:
    """A tour as a picture for notebooks: a scene, which Jupyter shows as SVG (``_repr_svg_``)
    and whose ``text()`` is the board of move numbers. ``view(find(8).tour, 8)``."""
    scene = to_scene(Problem(rows, rows if cols is None else cols, closed=closed), tour)
    scene.title = f"{'a closed' if closed else 'an open'} knight's tour of {rows}x{rows if cols is None else cols}"
    return scene


def answer_to_json(problem: Problem, tour: Sequence[int]) -> list[str]:
    """The tour as square names in order (``Grid.name`` of each, from tables of the names of the
    files and ranks: a tour of millions of squares is named in about a second)."""
    grid = problem.grid
    order = _squares_of(tour, grid.size)
    if order is None:
        return [grid.name(c) for c in tour]
    files = [file_letters(c) for c in range(grid.cols)]
    ranks = [str(grid.rows - r) for r in range(grid.rows)]
    rows, cols = np.divmod(order, grid.cols)
    return list(map(str.__add__, map(files.__getitem__, cols.tolist()), map(ranks.__getitem__, rows.tolist())))


def _squares_of(tour: Sequence[int], squares: int) -> np.ndarray | None:
    """``tour`` as an array of squares of the board (int32 where that holds them: a tour of
    millions of squares is checked and drawn in arrays of 4 bytes a square); None when it is
    empty or holds anything else."""
    order = np.asarray(tour) if len(tour) else None
    if order is None or order.ndim != 1 or order.dtype.kind not in "iu" or order.min() < 0 or order.max() >= squares:
        return None
    return order.astype(np.int32) if squares < 2**31 else order


def answer_from_json(problem: Problem, document: Any) -> Tour:
    if not isinstance(document, list):
        raise BoardPuzzlesError('a tour is a list of square names: ["a1", "c2", ...]')
    return tuple(problem.grid.cell_named(str(name)) for name in document)


def read_answer(values: Mapping[str, Any], text: str | None) -> tuple[Problem, Tour]:
    rows, cols = values["size"]
    problem = _problem(values["size"], values.get("start"), values.get("closed", False))
    return problem, tuple(parse_tour(text or "", rows, cols))


def _problem(
    size: tuple[int, int], start: str | None = None, closed: bool = False, undirected: bool = False
) -> Problem:
    rows, cols = size
    cell = None
    if start is not None:
        if not start.strip():
            raise BoardPuzzlesError("--start needs a square name such as a1 (it was empty)")
        cell = board(rows, cols).cell_named(start)
    return Problem(rows, cols, cell, closed, undirected)


#: The warmup's independent parts (``boardpuzzles warmup`` compiles them at the same time).
_WARMUP = (
    lambda: count(Problem(5, 5, start=0)),
    lambda: count(Problem(5, 6, closed=True, undirected=True)),
    lambda: next(solutions(Problem(5, 5, start=0))),
    lambda: find(6, closed=True),
)


PUZZLE: Puzzle[Problem, Tour] = Puzzle(
    name="knights-tour",
    title="a knight visits every square once: list, count and find tours",
    description="A knight visits every square of a board once. SIZE is N (an N x N board) or RxC (R "
    "rows, C columns). A tour is a sequence of squares, so by default every tour is counted from each "
    "start square and in each direction (directed, OEIS A165134); --start counts those from one square, "
    "--undirected each path or cycle once, --closed the tours that end a knight's move from their start "
    "(--closed --undirected: OEIS A001230).",
    params=(
        Param("size", "size", "the board: N or RxC (rows x columns)", positional=True, metavar="SIZE"),
        Param("start", "text", "The first square, as a chess name (a1 is bottom left).", None, metavar="SQUARE"),
        Param("closed", "flag", "Closed tours only: the last square is a knight's move from the first.", False),
        Param("undirected", "flag", "Each path or cycle once, not once per direction and start.", False),
    ),
    problem=_problem,
    solutions=solutions,
    count=count,
    violations=violations,
    to_scene=to_scene,
    answer_text=_answer_text,
    answer_to_json=answer_to_json,
    answer_from_json=answer_from_json,
    read_answer=read_answer,
    describe=describe,
    identity=identity,
    no_solution_reason=lambda p: no_tour_reason(p.rows, p.cols, p.closed, p.start),
    validate_count=validate_count,
    check_params=("size", "start", "closed"),
    answer_bytes=MAX_ANSWER_BYTES,
    small="5",
    small_count=1728,
    small_source="OEIS A165134",
    slow="7",
    examples=(
        Example("solve 5 --start a1 --limit 1"),
        Example("find 8 --closed"),
        Example("count 5 --start a1", 304, "the seed article"),
        Example("count 6", 6637920, "OEIS A165134"),
        Example("count 6 --closed --undirected", 9862, "OEIS A001230"),
        Example("count 3x10 --undirected", 3048, "OEIS A118067 (6096 directed)"),
    ),
    warmup=_WARMUP,
)
