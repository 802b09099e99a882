"""Less Than Three: stones of C colours on an n x n board, at most K of a colour on any line.

The seed puzzle (the first article of the series this project started from): 12 black and 12
white stones on 6x6, at most one stone per cell, no three stones of one colour on a straight
line: 42 placements. With one colour it is
Dudeney's no-three-in-line problem (OEIS A000755, A000769).

Glossary
--------
rules       :class:`Rules`, one member of the family (size, colours, K, stones); a
            :class:`Problem` adds what is counted (every board, or classes with ``unique``).
line        every straight line through at least K+1 cells of the board, of any slope: on 6x6 the
            slopes 1:2 and 2:1 count too. A direction (dr, dc) in lowest terms matters when
            K * max(|dr|, |dc|) <= n - 1.
colours     C >= 1; stones print as ``X`` (black), ``O`` (white), then ``A``, ``B``, ...
stones      S per colour; at most K * n fit (each row is a line), which is the default.
classes     placements identified under the 8 symmetries of the square (``--unique``) and, with
            ``swap_colours``, under every relabelling of the colours too.
orbit       (find) cells that a board with a given symmetry holds all or none of: the 4 cells a
            quarter turn cycles through, or 2 for a half turn (see ``symmetry_orbits``).
"""

from __future__ import annotations

import collections
import copy
import functools
import hashlib
import itertools
import json
import math
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.board import EMPTY, Board, parse_board
from boardpuzzles.checkpoint import CheckpointError
from boardpuzzles.compiling import search_seconds
from boardpuzzles.errors import BoardPuzzlesError, SizeError, check_seed, excerpt
from boardpuzzles.grid import Grid, line_directions
from boardpuzzles.limits import STOP_INTERRUPT, Limits, Progress, TimeLimitReached, run_in_threads
from boardpuzzles.parallel import Subtask, run_subtasks
from boardpuzzles.protocol import Example, Param, Puzzle, board_scene, pieces_from_json, pieces_to_json

COLOUR_LETTERS = "XOABCDEFGH"
#: Subtask specs hold cells in the kernel's middle-out numbering: bump this when that numbering
#: changes, so old checkpoints are refused.
PLAN_VERSION = 2
MAX_SIZE = 62  # one 64-bit word per row
CHUNK = 1024  # boards fetched from the kernel at a time by solutions()


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
        if self.colours == 1:
            return f"{self.per_colour} stones on {self.size}x{self.size}, at most {self.max_in_line} on any line"
        return (
            f"{self.colours} colours x {self.per_colour} stones on {self.size}x{self.size}, "
            f"at most {self.max_in_line} of a colour on any line"
        )


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
def violations(problem: Problem, board: Board) -> list[str]:
    """Everything wrong with a board, by brute force: for every pair of same-coloured stones, walk
    the whole line through them with plain arithmetic and count that colour on it."""
    rules = problem.rules
    n = rules.size
    problems = []
    if (board.grid.rows, board.grid.cols) != (n, n):
        return [f"the board is {board.grid.rows}x{board.grid.cols}, not {n}x{n}"]
    letters = COLOUR_LETTERS[: rules.colours]
    stones: dict[str, list[tuple[int, int]]] = {letter: [] for letter in letters}
    for cell, piece in enumerate(board):
        if piece == EMPTY:
            continue
        if piece not in stones:
            problems.append(f"{board.grid.name(cell)} holds {piece!r}, not one of {letters!r}")
            continue
        stones[piece].append(divmod(cell, n))
    for letter, cells in stones.items():
        if len(cells) != rules.per_colour:
            problems.append(f"{len(cells)} {letter} stones; the rules ask for {rules.per_colour}")
        occupied = set(cells)
        seen_lines = set()
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
                    on_line.append((r, c))
                r, c = r + dr, c + dc
            key = (letter, tuple(on_line))
            if len(on_line) > rules.max_in_line and key not in seen_lines:
                seen_lines.add(key)
                names = ", ".join(board.grid.name(r * n + c) for r, c in on_line)
                problems.append(f"{len(on_line)} {letter} stones on one line: {names}")
    return problems


def check(board: Board, rules: Rules = SEED) -> bool:
    return not violations(Problem(rules), board)


# ---------------------------------------------------------------- tables and searching
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


@functools.cache
def _no_rows() -> np.ndarray:
    return np.empty((0, 1), dtype=np.int64)


def _relabellings(rules: Rules, swap_colours: bool) -> np.ndarray:
    colours = range(1, rules.colours + 1)
    relabel = [(0, *p) for p in itertools.permutations(colours)] if swap_colours else [(0, *colours)]
    return np.array(relabel, dtype=np.int64)


def _kernel_module() -> Any:
    from boardpuzzles._kernels import less_than_three  # numba loads only when a search runs

    return less_than_three


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
    layout = _layout(rules)
    maps = layout.maps if symmetric else _no_rows()
    out = np.zeros((capacity, rules.size**2 if cells is None else cells), dtype=np.int64)
    # The least-image test needs every relabelling (C! of them); the stabiliser reads its own.
    relabel = _relabellings(rules, swap_colours and symmetric and not weigh)
    found, classes, reached = _kernel_module().search(
        rules.size,
        rules.colours,
        rules.max_in_line,
        rules.per_colour,
        layout.cell_lines,
        layout.line_cells,
        np.array(prefix, dtype=np.int64),
        rows_limit,
        maps,
        relabel,
        swap_colours,
        out,
        stop_after,
        layout.readings if weigh else _no_rows(),
        limits.flag,
    )
    if found == _kernel_module().STOPPED:
        limits.raise_stop()
    if grow and reached > capacity:  # too many to hold: again, with room for all
        again = {"symmetric": symmetric, "swap_colours": swap_colours, "weigh": weigh}
        return _run(rules, prefix, rows_limit, limits, capacity=int(reached), stop_after=stop_after, **again)
    return int(found), int(classes), out[: min(reached, capacity)]


def to_board(rules: Rules, colours: np.ndarray | tuple[int, ...]) -> Board:
    """A board from physical cell colours (0 empty, 1.. the colours)."""
    letters = EMPTY + COLOUR_LETTERS
    return Board(rules.grid, [letters[int(c)] for c in colours])


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


def _count_work(spec: tuple[Rules, tuple[int, ...]], limits: Limits) -> int:
    rules, prefix = spec
    return _run(rules, prefix, rules.size, limits, weigh=True)[0]


def _classes_work(spec: tuple[Rules, tuple[int, ...], bool], limits: Limits) -> int:
    """The classes as a sum over the boards the weighted count walks: a board b stands for its
    weight w(b) of boards, and a class of s boards is counted once when each of its boards adds
    1/s = |stabiliser| / |group| (Burnside's lemma, board by board). So each board walked adds
    w(b) x |stabiliser(b)|, and ``count`` divides the sum by SYMMETRY_UNIT x |group|. The
    stabiliser is invariant under the 8 symmetries, which is all the weighting needs."""
    rules, prefix, swap = spec
    return _run(rules, prefix, rules.size, limits, symmetric=True, swap_colours=swap, weigh=True)[1]


def group_order(rules: Rules, swap_colours: bool) -> int:
    """The 8 symmetries of the square, times the C! relabellings of the colours with ``swap``."""
    return 8 * (math.factorial(rules.colours) if swap_colours else 1)


def count(problem: Problem, limits: Limits | None = None) -> int:
    """Every placement (rotations, mirror images and colour swaps counted separately), or the
    classes with ``problem.unique``. Two or more colours with the most stones are counted as
    tuples of disjoint one-colour solutions (``_count_tuples``); everything else by the stone by
    stone search, in which symmetry stands in for work: only boards whose first searched row is
    the least of its 8 images are walked, each weighted by its share of its orbit (see the
    kernel), and classes add each board's stabiliser too (``_classes_work``)."""
    limits = limits if limits is not None else Limits()
    if through_one_colour(problem.rules):
        return _count_tuples(problem, limits)
    return _count_by_search(problem, limits)


def _count_by_search(problem: Problem, limits: Limits) -> int:
    """``count`` by the stone by stone search, for any member of the family."""
    rules = problem.rules
    where = {"identity": PUZZLE.problem_identity(problem)}
    unit = _kernel_module().SYMMETRY_UNIT
    first = _first_rows(rules, limits, weigh=True)
    if problem.unique:
        tasks = [Subtask((rules, p, problem.swap_colours)) for p in first]
        order = group_order(rules, problem.swap_colours)
        return run_subtasks(_classes_work, tasks, limits, unit=unit * order, **where)
    tasks = [Subtask((rules, p)) for p in first]
    return run_subtasks(_count_work, tasks, limits, unit=unit, **where)


# ---------------------------------------------------------------- many colours from one-colour solutions
#: A tuple count splits the first one-colour solution's index range into at most this many
#: subtasks (of about equal numbers of pairs).
TUPLE_PIECES = 256


def through_one_colour(rules: Rules) -> bool:
    """Two or more colours, each with the most stones (K x N): colours meet only in that a cell
    holds one stone, so a board is an ordered tuple of pairwise disjoint one-colour solutions,
    and is counted that way (``_count_tuples``)."""
    return rules.colours > 1 and rules.stones is None


def _inner_limits(limits: Limits, progress: Progress | None, keep: bool) -> Limits:
    """The same run (its stop flag, deadline and jobs) for one stage of a count: another
    progress callback, and without the checkpoint and the cluster unless ``keep``."""
    inner = copy.copy(limits)
    inner.progress = progress
    if not keep:
        inner.checkpoint = None
        inner.scheduler = None
    return inner


def one_colour_solutions(rules: Rules, limits: Limits | None = None, progress: Progress | None = None) -> np.ndarray:
    """Every board of one colour, as rows of physical cells (1 a stone), sorted. Found by the
    weighted search (one board per reading of its first row, see the kernel), each board then
    turned by the 8 symmetries; the number of distinct boards must equal the weighted count.
    The search runs on ``limits.jobs`` threads, never on a cluster (its boards must come back);
    with ``limits.checkpoint`` its finished pieces are kept beside it (``_OneColourStore``)."""
    limits = limits if limits is not None else Limits()
    if rules.colours != 1:
        raise BoardPuzzlesError("one_colour_solutions lists boards of one colour")
    n = rules.size
    layout = _layout(rules)
    prefixes = _first_rows(rules, limits, weigh=True)
    pieces: dict[tuple[int, ...], np.ndarray] = {}
    store = _OneColourStore.beside(limits.checkpoint, rules) if limits.checkpoint else None

    def work(prefix: tuple[int, ...], inner: Limits) -> int:
        kept = store.get(prefix, n * n) if store is not None else None
        if kept is not None:
            found, physical = kept
        else:
            found, _, boards = _run(rules, prefix, n, inner, capacity=64, weigh=True, grow=True)
            physical = (boards[:, layout.virtual] != 0).astype(np.uint8)
            if store is not None:
                store.put(prefix, found, physical)
        pieces[prefix] = physical  # one key per thread: dict assignment is atomic
        return found

    unit = _kernel_module().SYMMETRY_UNIT
    try:
        total = run_subtasks(work, [Subtask(p) for p in prefixes], _inner_limits(limits, progress, False), unit=unit)
    finally:
        if store is not None:
            store.close()
    walked = [pieces[p] for p in prefixes]
    representatives = np.concatenate(walked) if walked else np.zeros((0, n * n), dtype=np.uint8)
    perms = rules.grid.group("dihedral").permutations()
    turned = np.zeros((len(perms), len(representatives), n * n), dtype=np.uint8)
    for g, perm in enumerate(perms):
        turned[g][:, perm] = representatives  # the image holds perm[x] where the board holds x
    images = turned.reshape(-1, n * n)
    packed = np.ascontiguousarray(np.packbits(images, axis=1))  # numpy sorts short byte strings fast
    _, first = np.unique(packed.view(np.dtype((np.void, packed.shape[1]))).ravel(), return_index=True)
    boards = images[first]
    if len(boards) != total:
        raise AssertionError(f"listed {len(boards)} one-colour boards, the weighted count says {total}")
    return boards


class _OneColourStore:
    """The pieces of a one-colour listing that finished, kept in an SQLite file in the folder of
    a count's checkpoint, named after the board (``less-than-three-one-colour-14x14-k2.db``):
    every count of that board with a checkpoint in that folder (all boards, classes, any number
    of colours) shares it, and a listing that was stopped resumes. A row is one subtask of the
    listing: its prefix, its weighted count and its boards, with a checksum over the three and
    what the file lists; a file of anything else, or with a row that does not verify, is refused
    with one line. Rows are committed at most a second apart, and when the listing stops."""

    APPLICATION_ID = int.from_bytes(b"BPl3", "big")
    COMMIT_EVERY = 1.0

    def __init__(self, path: str, what: Mapping[str, Any]) -> None:
        self.path = path
        self.what = json.dumps(dict(what), sort_keys=True)
        self._lock = threading.Lock()
        self._last_commit = time.monotonic()
        self._rows: dict[str, tuple[int, np.ndarray]] = {}
        self._db: sqlite3.Connection | None = None
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=60)
            self._open(self._db)
        except sqlite3.DatabaseError as err:
            self.close()
            raise CheckpointError(f"{path} is not a one-colour store of boardpuzzles ({err}); move it away") from None
        except BaseException:
            self.close()
            raise

    @classmethod
    def beside(cls, checkpoint: str, rules: Rules) -> _OneColourStore:
        folder = os.path.dirname(os.path.abspath(checkpoint))
        n, k = rules.size, rules.max_in_line
        name = f"less-than-three-one-colour-{n}x{n}-k{k}.db"
        what = {"puzzle": "less-than-three", "size": n, "max_in_line": k, "stones": rules.per_colour}
        return cls(os.path.join(folder, name), {**what, "plan_version": PLAN_VERSION})

    def _open(self, db: sqlite3.Connection) -> None:
        db.execute("BEGIN IMMEDIATE")
        try:
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if tables == 0:
                db.execute(f"PRAGMA application_id = {self.APPLICATION_ID}")
                db.execute("CREATE TABLE meta (what TEXT NOT NULL)")
                db.execute("CREATE TABLE piece (prefix TEXT PRIMARY KEY, found TEXT, boards BLOB, checksum TEXT)")
                db.execute("INSERT INTO meta VALUES (?)", (self.what,))
            elif db.execute("PRAGMA application_id").fetchone()[0] != self.APPLICATION_ID:
                raise CheckpointError(f"{self.path} is another program's database; move it away")
            elif db.execute("SELECT what FROM meta").fetchone() != (self.what,):
                raise CheckpointError(f"{self.path} was made by another version of boardpuzzles; delete it")
            rows = db.execute("SELECT prefix, found, boards, checksum FROM piece").fetchall()
        finally:
            db.execute("COMMIT")
        for prefix, found, boards, checksum in rows:
            if checksum != self._checksum(prefix, found, boards):
                raise CheckpointError(f"{self.path} is damaged (a row does not verify); delete it")
            self._rows[prefix] = (int(found), np.frombuffer(boards, dtype=np.uint8))

    def _checksum(self, prefix: str, found: str, boards: bytes) -> str:
        return hashlib.sha256(b"\0".join([self.what.encode(), prefix.encode(), found.encode(), boards])).hexdigest()

    def get(self, prefix: tuple[int, ...], cells: int) -> tuple[int, np.ndarray] | None:
        """The weighted count and the boards (rows of ``cells``) of a finished piece, or None."""
        row = self._rows.get(json.dumps(prefix))
        if row is None:
            return None
        found, flat = row
        if len(flat) % cells:
            raise CheckpointError(f"{self.path} is damaged (a row holds a part of a board); delete it")
        return found, flat.reshape(-1, cells)

    def put(self, prefix: tuple[int, ...], found: int, boards: np.ndarray) -> None:
        key, text, blob = json.dumps(prefix), str(found), np.ascontiguousarray(boards, dtype=np.uint8).tobytes()
        with self._lock:
            db = self._db
            if db is None:
                return  # a worker that outlived its stopped run
            if not db.in_transaction:
                db.execute("BEGIN")
            db.execute(
                "INSERT OR REPLACE INTO piece VALUES (?, ?, ?, ?)", (key, text, blob, self._checksum(key, text, blob))
            )
            if time.monotonic() - self._last_commit >= self.COMMIT_EVERY:
                db.execute("COMMIT")
                self._last_commit = time.monotonic()

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                if self._db.in_transaction:
                    self._db.execute("COMMIT")
                self._db.close()
                self._db = None


def _bitsets(boards: np.ndarray) -> np.ndarray:
    """Rows of cells (0/1) as rows of 64-bit words, cell x in word x // 64, bit x % 64."""
    m, cells = boards.shape
    words = max(1, (cells + 63) // 64)
    padded = np.zeros((m, words * 64), dtype=np.uint64)
    padded[:, :cells] = boards
    bits = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))
    return (padded.reshape(m, words, 64) * bits).sum(axis=2, dtype=np.uint64).view(np.int64)


def _cycle_types(colours: int) -> list[tuple[int, ...]]:
    """The cycle types of the permutations of the colours: the partitions of C, largest first."""

    def parts(left: int, most: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield ()
        for first in range(min(left, most), 0, -1):
            for rest in parts(left - first, first):
                yield (first, *rest)

    return list(parts(colours, colours))


def _permutations_of_type(cycles: tuple[int, ...]) -> int:
    """How many permutations of sum(cycles) things have these cycle lengths."""
    ways = math.factorial(sum(cycles))
    for length, times in collections.Counter(cycles).items():
        ways //= length**times * math.factorial(times)
    return ways


def _piece_bounds(m: int, pieces: int) -> list[tuple[int, int]]:
    """Split 0..m into at most ``pieces`` ranges of first solutions, each with about as many
    later solutions to pair with (the first ones have the most)."""
    cuts = sorted({round(m * (1 - math.sqrt(1 - k / pieces))) for k in range(pieces + 1)} | {m})
    return [(lo, hi) for lo, hi in itertools.pairwise(cuts) if hi > lo]


def _count_tuples(problem: Problem, limits: Limits) -> int:
    """C colours with K x N stones each: ordered C-tuples of pairwise disjoint one-colour
    solutions. The one-colour solutions are listed first; then the C-sets of pairwise disjoint
    ones are counted (``disjoint_selections``) and multiplied by C!, in subtasks by the range of
    the set's first solution. Classes follow Burnside's lemma: the average over the group of the
    tuples each element fixes. A tuple is fixed by a symmetry g with a relabelling p exactly when
    the solutions along each cycle of p are A, gA, g^2 A, ... with g^L A = A (L the cycle's
    length): one block of L disjoint solutions per cycle, the blocks disjoint. The identity's
    term is the plain count; each other (g, cycle type) is one small subtask weighted by the
    number of relabellings of that type."""
    rules = problem.rules
    one = Rules(rules.size, 1, rules.max_in_line)
    colours = rules.colours
    terms: list[tuple[str, tuple[int, ...], int]] = []
    if problem.unique:
        types = _cycle_types(colours) if problem.swap_colours else [(1,) * colours]
        for symmetry in rules.grid.group("dihedral"):
            if symmetry.label != "identity":
                terms.extend((symmetry.label, cycles, _permutations_of_type(cycles)) for cycles in types)
    outer = limits.progress
    first_stage = [0]

    def listing(done: int, total: int, partial: int) -> None:
        first_stage[0] = total
        if outer is not None:
            outer(done, total + TUPLE_PIECES + len(terms), 0)

    def counting(done: int, total: int, partial: int) -> None:
        if outer is not None:
            outer(first_stage[0] + done, first_stage[0] + total, partial)

    try:
        boards = one_colour_solutions(one, limits, listing)
    except TimeLimitReached:
        raise TimeLimitReached() from None  # nothing of this count is counted yet
    items = _bitsets(boards)
    tag = hashlib.sha256(items.tobytes()).hexdigest()[:16]  # the plan is bound to this list
    kernels = _kernel_module()
    first_only = np.zeros(len(items), dtype=np.int64)
    images: dict[str, np.ndarray] = {}

    def image_index(label: str) -> np.ndarray:
        """``index[a]``: the solution that symmetry ``label`` turns solution a into."""
        if label not in images:
            where = {row.tobytes(): i for i, row in enumerate(boards)}
            symmetry = next(s for s in rules.grid.group("dihedral") if s.label == label)
            perm = np.array(rules.grid.permutation(symmetry), dtype=np.int64)
            moved = np.zeros_like(boards)
            moved[:, perm] = boards
            images[label] = np.array([where[row.tobytes()] for row in moved], dtype=np.int64)
        return images[label]

    def fixed_tuples(label: str, cycles: tuple[int, ...], limits: Limits) -> int:
        """Tuples fixed by the symmetry ``label`` with a relabelling of cycle type ``cycles``."""
        index = image_index(label)
        lengths = sorted(set(cycles))
        blocks, groups = [], []
        for rank, length in enumerate(lengths):
            power = np.arange(len(boards))
            union = boards.copy()
            for _ in range(length - 1):
                power = index[power]
                union |= boards[power]
            power = index[power]  # g^length
            chosen = (power == np.arange(len(boards))) & (union.sum(axis=1) == length * one.per_colour)
            blocks.append(_bitsets(union[chosen]))
            groups.append(np.full(int(chosen.sum()), rank, dtype=np.int64))
        positions = np.array(sorted(lengths.index(c) for c in cycles), dtype=np.int64)
        block_items = np.concatenate(blocks)
        found = kernels.disjoint_selections(
            block_items, np.concatenate(groups), positions, 0, len(block_items), limits.flag
        )
        if found == kernels.STOPPED:
            limits.raise_stop()
        for times in collections.Counter(cycles).values():
            found *= math.factorial(times)  # the blocks of equal length go to their cycles in any order
        return int(found)

    def work(spec: tuple[Any, ...], limits: Limits) -> int:
        _, _, term, *rest = spec
        if term != "identity":
            return fixed_tuples(term, tuple(rest[0]), limits)
        lo, hi = rest
        positions = np.zeros(colours, dtype=np.int64)
        found = kernels.disjoint_selections(items, first_only, positions, lo, hi, limits.flag)
        if found == kernels.STOPPED:
            limits.raise_stop()
        return int(found) * math.factorial(colours)

    tasks = [Subtask((rules, tag, "identity", lo, hi)) for lo, hi in _piece_bounds(len(items), TUPLE_PIECES)]
    tasks += [Subtask((rules, tag, label, cycles), weight) for label, cycles, weight in terms]
    unit = group_order(rules, problem.swap_colours) if problem.unique else 1
    where = {"identity": PUZZLE.problem_identity(problem)}
    return run_subtasks(work, tasks, _inner_limits(limits, counting, True), unit=unit, **where)


# ---------------------------------------------------------------- finding one board on large sizes
#: The symmetry classes find() searches, as partitions of the board into orbits that a board
#: takes whole or not at all. Large known solutions turn by 90 degrees (Flammenkamp; Prellberg,
#: arXiv:2602.07751); on odd sizes that is impossible (2n stones are not a multiple of 4), and the
#: known ones turn by 90 degrees except on the diagonals, where they only turn by 180.
ROTATE_90 = "rotate 90"
ROTATE_90_DIAGONALS_180 = "rotate 90, diagonals 180"
ROTATE_180 = "rotate 180"
NO_SYMMETRY = "identity"
FIND_SYMMETRIES = (ROTATE_90, ROTATE_90_DIAGONALS_180, ROTATE_180, NO_SYMMETRY)
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


def symmetry_orbits(rules: Rules, symmetry: str) -> list[list[int]]:
    """The orbits of one of FIND_SYMMETRIES: cells a board with that symmetry holds all or none
    of. A middle cell that the stone count forces to stay empty is left out of every orbit."""
    grid = rules.grid
    n = rules.size
    by_label = {s.label: grid.permutation(s) for s in grid.group("dihedral")}
    quarter, half = by_label["rotate 90"], by_label["rotate 180"]

    def orbit(cell: int, perm: tuple[int, ...]) -> list[int]:
        cells = [cell]
        while perm[cells[-1]] != cell:
            cells.append(perm[cells[-1]])
        return cells

    def on_diagonal(cell: int) -> bool:
        r, c = divmod(cell, n)
        return r == c or r + c == n - 1

    orbits: list[list[int]] = []
    seen: set[int] = set()
    for cell in grid.cells():
        if cell in seen:
            continue
        if symmetry == ROTATE_90 or symmetry == ROTATE_90_DIAGONALS_180 and not on_diagonal(cell):
            cells = orbit(cell, quarter)
        elif symmetry in (ROTATE_90_DIAGONALS_180, ROTATE_180):
            cells = orbit(cell, half)
        else:
            cells = [cell]
        seen.update(cells)
        orbits.append(cells)
    # Every other orbit has an even size, so an even stone count leaves the middle cell empty.
    if symmetry != NO_SYMMETRY and n % 2 and rules.per_colour % 2 == 0:
        orbits.remove([n * n // 2])
    return orbits


def _impossible(rules: Rules, symmetry: str) -> bool:
    """A quarter turn needs a stone count of 4a (+1 for the middle cell on odd sizes)."""
    stones = rules.per_colour
    return symmetry == ROTATE_90 and not (stones % 4 == 0 or rules.size % 2 and stones % 4 == 1)


def _orbit_tables(rules: Rules, symmetry: str) -> tuple[np.ndarray, np.ndarray]:
    orbits = symmetry_orbits(rules, symmetry)
    orbit_of = np.full(rules.size**2, -1, dtype=np.int64)
    table = np.full((len(orbits), max(map(len, orbits))), -1, dtype=np.int64)
    for i, cells in enumerate(orbits):
        table[i, : len(cells)] = cells
        orbit_of[cells] = i
    return table, orbit_of


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


def find(rules: Rules, limits: Limits | None = None, *, seed: int = 0) -> FindResult:
    """One board with K stones in every row (one colour) by the cell search, searched among
    symmetric boards first, with random orders and restarts (``less-than-three find`` calls
    :func:`.less_than_three_find.find`, which tries the orbit search of large sizes first);
    ``limits.jobs`` threads search independently and the first board found wins (with one job a
    seed always gives the same board). ``board`` is None when the limits stopped it (a time
    limit: ``complete`` is False), or when the search was complete and proved there is none
    (``complete``). Ctrl-C raises :class:`Interrupted`."""
    limits = limits if limits is not None else Limits()
    if rules.colours != 1 or rules.stones is not None and rules.stones != rules.per_colour:
        raise BoardPuzzlesError("find looks for one-colour boards with the most stones (--colours 1, no --stones)")
    check_seed(seed)  # numpy's generator refuses a negative seed with a message of its own
    started = time.perf_counter()
    cell_lines, line_cells = line_tables(rules, limits)
    kernels = _kernel_module()
    n = rules.size
    exhausted = {symmetry for symmetry in FIND_SYMMETRIES if _impossible(rules, symmetry)}
    orbit_tables = {
        symmetry: _orbit_tables(rules, symmetry) for symmetry in FIND_SYMMETRIES if symmetry not in exhausted
    }
    attempts = itertools.count(1)
    outcome: list[FindResult] = []
    found_one = threading.Event()

    def elapsed() -> float:
        return search_seconds(started)

    def worker(index: int) -> None:
        rng = np.random.default_rng([seed, index])
        for round_ in itertools.count(1):
            if found_one.is_set() or limits.stopped:
                return
            # Restarts of Luby's lengths: mostly short, now and then long, for searches whose
            # time to a board varies wildly from one random order to the next.
            budget = min(FIND_BUDGET_UNIT * _luby(round_), MAX_FIND_BUDGET)
            for symmetry in _symmetries_to_try(n, exhausted):
                orbits, orbit_of = orbit_tables[symmetry]
                order = np.array([rng.permutation(n) for _ in range(2 * n)], dtype=np.int64)
                status, board = kernels.find_symmetric(
                    n, rules.max_in_line, cell_lines, line_cells, orbits, orbit_of, order, budget, limits.flag
                )
                tried = next(attempts)
                if found_one.is_set() or status == kernels.STOPPED_FIND:
                    return
                if status == 1 or status == 0 and symmetry == NO_SYMMETRY:
                    board_found = to_board(rules, board) if status == 1 else None
                    symmetry_found = symmetry if board_found else None
                    outcome.append(FindResult(board_found, symmetry_found, tried, elapsed(), status == 0))
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
    return FindResult(None, None, next(attempts) - 1, elapsed())


# ---------------------------------------------------------------- the protocol
def answer_to_json(problem: Problem, board: Board) -> dict[str, list[str]]:
    """The stones of each colour by square name: ``{"X": ["a1", ...], "O": [...]}``."""
    return pieces_to_json(board)


def answer_from_json(problem: Problem, document: Any) -> Board:
    return pieces_from_json(problem.rules.grid, document, COLOUR_LETTERS[: problem.rules.colours])


def to_scene(problem: Problem, board: Board) -> Any:
    return board_scene(problem, board)


def read_answer(values: Mapping[str, Any], text: str | None) -> tuple[Problem, Board]:
    """A picture of stones (``X``, ``O``, then ``A``, ``B``, ...; ``.`` or space empty); the board
    size is read off the picture, the colours, K and stones come from ``values``."""
    board = parse_board(text or "")
    if board.grid.rows != board.grid.cols:
        raise BoardPuzzlesError(f"the picture is {board.grid.rows}x{board.grid.cols}; the board must be square")
    rules = Rules(board.grid.rows, values.get("colours", 2), values.get("max_in_line", 2), values.get("stones"))
    return Problem(rules), board


def _problem(
    n: int = 6,
    colours: int = 2,
    max_in_line: int = 2,
    stones: int | None = None,
    unique: bool = False,
    swap_colours: bool = False,
) -> Problem:
    return Problem(Rules(n, colours, max_in_line, stones), unique, swap_colours)


#: The warmup's independent parts (``boardpuzzles warmup`` compiles them at the same time).
_WARMUP = (
    lambda: count(Problem(Rules(4, 1))),
    lambda: count(Problem(Rules(4, 1), unique=True)),
    lambda: next(solutions(Problem(Rules(4, 1))), None),
    lambda: find(Rules(4, 1)),
)


PUZZLE: Puzzle[Problem, Board] = Puzzle(
    name="less-than-three",
    title="stones of C colours, never K+1 of a colour on any straight line",
    description="Less Than Three: C colours of stones on an N x N board, never more than K of a colour on "
    "a straight line of any slope (not only rows, columns and diagonals: on 6x6 the slopes 1:2 and 2:1 "
    "count too). The seed puzzle: 12 black (X) and 12 white (O) stones on 6x6, no three of a colour "
    "in a line. With one colour it is Dudeney's no-three-in-line problem (OEIS A000755, A000769).",
    params=(
        Param("n", "side", "the board's side", 6, positional=True, metavar="N", maximum=MAX_SIZE),
        Param("colours", "int", "Number of colours (1: no-three-in-line).", 2, short="-c", metavar="C", minimum=1),
        Param(
            "max_in_line",
            "int",
            "At most K stones of one colour on any line.",
            2,
            short="-k",
            metavar="K",
            minimum=1,
            maximum=MAX_SIZE,
        ),
        Param(
            "stones",
            "int",
            "Stones per colour (default: the most possible, K x N).",
            None,
            metavar="S",
            minimum=0,
            maximum=MAX_SIZE * MAX_SIZE,
        ),
        Param("unique", "flag", "One board per class of the 8 rotations and reflections of the square.", False),
        Param("swap_colours", "flag", "With --unique: colour relabellings identify boards too.", False),
    ),
    problem=_problem,
    solutions=solutions,
    count=count,
    violations=violations,
    to_scene=to_scene,
    answer_to_json=answer_to_json,
    answer_from_json=answer_from_json,
    read_answer=read_answer,
    describe=describe,
    identity=identity,
    check_params=("colours", "max_in_line", "stones"),
    small="",
    small_count=42,
    small_source="the seed article",
    slow="16 --colours 1",
    examples=(
        Example("solve --limit 1"),
        Example("find 23"),
        Example("count", 42, "the seed article"),
        Example("count --unique"),
        Example("count 10 --colours 1", 1135, "OEIS A000755"),
        Example("count 9 --colours 1 --unique", 51, "OEIS A000769"),
    ),
    warmup=_WARMUP,
)
