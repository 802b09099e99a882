"""The frontier sweep of knight's tours in memory: the plan of a sweep, its memory bound, the
sweep row by row (kernels in ``_kernels.tour_sweep``) and the layer it saves after every row.

Glossary
--------
plan        ``(width, length, top, bottom)``: the sweep runs along the long side, ``width``
            squares a row; counting by halves, the top half is the first ``top`` rows, the
            bottom half the last ``bottom`` rows (swept from the other end: the board turned
            over is the same board), and the two rows between them are where they meet.
memory      The bytes a count may hold: ``--memory``, or ``FRONTIER_MEMORY_SHARE`` of the
            machine's. A sweep in memory stops cleanly before its tables would pass it
            (:class:`OverMemory`, which knows the last whole layer), and the count goes on in
            shards on disk (:mod:`.shards`).
layer file  With a checkpoint, the layer after every row is saved beside it, with the plan and a
            SHA-256 of every state, and a stopped sweep resumes from it.
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.errors import BoardPuzzlesError, SizeError, excerpt
from boardpuzzles.files import replace_file_with
from boardpuzzles.inputs import parse_bytes
from boardpuzzles.limits import Limits

#: A sweep keeps 2 x side + 1 squares in a 63-bit state (``_kernels.tour_sweep``).
MAX_FRONTIER_SIDE = 8
#: The share of the machine's memory a sweep may hold when ``--memory`` is not given.
FRONTIER_MEMORY_SHARE = 0.5
#: What a saved closed-tour layer means (bumped when that changes).
CLOSED_PLAN_VERSION = 2
#: The head of a saved half-layer of an open-tour count (its own mark, then its version).
OPEN_HALVES_MARK = -2
OPEN_HALVES_VERSION = 1
#: Bytes a state costs in a hash table (16, at most three quarters full), with the layer read.
TABLE_BYTES_PER_STATE = 16 * 4 // 3 + 16


def parse_memory(text: str) -> int:
    """Bytes from ``8G``, ``512M``, ``1.5 GiB`` or a plain number of bytes (powers of 1024)."""
    return parse_bytes(text, "--memory", 1 << 20, "too little to sweep in")


def frontier_memory(given: int | None = None) -> int:
    """The bytes a sweep may hold: ``given`` (``--memory``), else ``FRONTIER_MEMORY_SHARE`` of the
    machine's memory."""
    if given is not None:
        return given
    try:
        physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # not on Linux: assume 8 GiB
        physical = 8 << 30
    return int(physical * FRONTIER_MEMORY_SHARE)


class OverMemory(SizeError):
    """A sweep in memory stopped before its tables passed the memory bound: ``layer`` is the last
    whole layer (at the start of row ``row``), from which a sweep in shards goes on, and ``kept``
    the earlier layer the count keeps (the bottom half's), when it has one."""

    def __init__(self, message: str, row: int, layer: Any, kept: Any = None, completed: int = 0) -> None:
        super().__init__(message)
        self.row = row
        self.layer = layer
        self.kept = kept
        self.completed = completed  # tours completed before ``row`` (a sweep of the whole board)

    def released(self) -> OverMemory:
        """This stop without the frames it was raised through: they hold the table that did not
        fit, which the count in shards that goes on from here must not keep."""
        self.__traceback__ = None
        self.__context__ = None
        return self


def over_memory(rows: int, cols: int, what: str, kind: str, memory: int | None = None) -> SizeError:
    limit = frontier_memory(memory) / 2**30
    return SizeError(
        f"counting {kind} tours of {rows}x{cols} needs more than its memory limit of {limit:.3g} GiB "
        f"({what}): stopped before running out; give it more with --memory"
    )


class Named:
    """A count's work function with arguments bound (a memory bound, a store), named in the
    count's plan (``parallel.plan_digest``) as ``name``: the plan of a count does not depend on
    them. Picklable, for a cluster."""

    def __init__(self, name: str, function: Callable[..., int], **bound: Any) -> None:
        from boardpuzzles.puzzles.knights_tour.rules import PLAN_MODULE

        self.function = function
        self.bound = bound
        self.__module__ = PLAN_MODULE
        self.__qualname__ = self.__name__ = name

    def __call__(self, spec: Any, limits: Limits) -> int:
        return self.function(spec, limits, **self.bound)


@dataclass
class SweepRow:
    """One row of a sweep: the states at its end (``states``), the most held after any of its
    squares (``peak``), the bytes of the largest table, and its seconds."""

    row: int
    states: int
    peak: int
    table_bytes: int
    seconds: float


def sweep_plan(rows: int, cols: int, width: int | None = None) -> tuple[int, int, int, int]:
    """``(width, length, top, bottom)`` (see the module's glossary); the tests may choose the
    other way across, to try the widest state on small boards."""
    if width is None:
        width = min(rows, cols)
    length = rows * cols // width
    top = (length - 1) // 2
    return width, length, top, length - 2 - top


def say(limits: Limits, text: str) -> None:
    """A progress line on stderr, when the run shows progress."""
    if limits.progress is not None and getattr(limits.progress, "enabled", True):
        print(text, file=sys.stderr, flush=True)


# ------------------------------------------------------------------ saved layers
def layer_file(limits: Limits, width: int, length: int, kind: str) -> str | None:
    return None if not limits.checkpoint else f"{limits.checkpoint}.{kind}-{width}x{length}.npz"


def layer_digest(meta: np.ndarray, layer: np.ndarray) -> bytes:
    """The SHA-256 a saved layer carries: its plan, row and every state, so that a damaged or edited
    file (a state dropped, a count of ways changed) is refused instead of counted."""
    checksum = hashlib.sha256(b"boardpuzzles closed-tour layer\n")
    checksum.update(np.ascontiguousarray(meta, dtype="<i8").data)
    checksum.update(np.ascontiguousarray(layer, dtype="<i8").data)
    return checksum.digest()


def load_layer(path: str | None, head: list[int], upto: int, extra: int = 0) -> tuple[list[int], np.ndarray] | None:
    """The saved layer of an interrupted sweep, if it belongs to this one (``head``: its plan and
    board), with what follows the head in the file (the row, then ``extra`` numbers)."""
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
    if meta.dtype.kind != "i" or meta.shape != (len(head) + 1 + extra,) or layer.dtype.kind != "i" or layer.ndim != 2:
        raise BoardPuzzlesError(f"{damaged} (unexpected arrays); remove it")
    if stored != layer_digest(meta, layer):
        raise BoardPuzzlesError(f"{damaged} (its checksum does not match its states); remove it")
    plan = meta.tolist()
    if plan[: len(head)] != head or layer.shape[1] != 2:
        raise BoardPuzzlesError(f"{path} holds the layer of another count; remove it or name another")
    if plan[len(head)] > upto:
        return None
    return [int(x) for x in plan[len(head) :]], layer.astype(np.int64, copy=False)


def save_layer(path: str, head: list[int], row_and_extra: list[int], layer: np.ndarray) -> None:
    meta = np.array(head + row_and_extra, np.int64)
    digest = np.frombuffer(layer_digest(meta, layer), np.uint8)
    # Whole or not at all, like the checkpoint it goes with (a kill mid-save keeps the last one).
    replace_file_with(path, lambda handle: np.savez(handle, meta=meta, layer=layer, digest=digest), sync=True)


def by_code(layer: np.ndarray) -> np.ndarray:
    return np.take(layer, np.argsort(layer[:, 0]), axis=0)  # codes are distinct: any sort will do


def group_starts(groups: np.ndarray, count: int) -> np.ndarray:
    """Where each of ``count`` groups starts once rows are sorted by ``groups`` (values below
    ``count``), and where the last ends: ``count + 1`` offsets."""
    starts = np.zeros(count + 1, np.int64)
    np.cumsum(np.bincount(groups, minlength=count), out=starts[1:])
    return starts


# ------------------------------------------------------------------ the sweep
@dataclass(frozen=True)
class Sweeper:
    """One sweep in memory: the kernel's bundle (``_kernels.tour_sweep.Frontier``), the bytes its
    tables may hold, and what its messages name."""

    rows: int
    cols: int
    tables: Any
    budget: int
    limits: Limits
    memory: int | None

    @property
    def kind(self) -> str:
        return "open" if self.tables.paths else "closed"

    @classmethod
    def of(
        cls, rows: int, cols: int, width: int, length: int, limits: Limits, paths: bool, memory: int | None = None
    ) -> Sweeper:
        from boardpuzzles._kernels.tour_sweep import frontier

        return cls(rows, cols, frontier(width, length, paths), frontier_memory(memory), limits, memory)

    def sweep_row(self, layer: np.ndarray, row: int) -> tuple[np.ndarray, SweepRow, int]:
        """The states at the start of the next row, this row's figures, and the tours (cycles or
        paths) completed in it."""
        began = time.perf_counter()
        peak, biggest, completed = len(layer), 0, 0
        start = layer
        for col in range(self.tables.width):
            layer, table_bytes, done = self.sweep_square(layer, row * self.tables.width + col, start, row)
            biggest = max(biggest, table_bytes)
            peak = max(peak, len(layer))
            completed += done
        return layer, SweepRow(row + 1, len(layer), peak, biggest, time.perf_counter() - began), completed

    def sweep_square(
        self, layer: np.ndarray, v: int, row_start: np.ndarray | None = None, row: int = 0
    ) -> tuple[np.ndarray, int, int]:
        """The states once square ``v`` is decided, the bytes their table took at its largest,
        and the tours completed there."""
        from boardpuzzles._kernels import tour_sweep as ts

        def room(nbytes: int, stored: int) -> None:
            if nbytes + layer.nbytes > self.budget:
                what = f"row {row + 1}: over {stored:,} frontier states"
                message = over_memory(self.rows, self.cols, what, self.kind, self.memory)
                raise OverMemory(str(message), row, row_start)

        return collect(
            lambda lo, hi, out, at: ts.expand_square(self.tables, layer[lo:hi], at, out, v, self.limits.flag),
            len(layer),
            len(layer),
            room,
            self.limits,
            f"the tour count of {self.rows}x{self.cols} outgrows 64-bit integers",
        )


#: Rows of one region of a grouped hash table (512 KiB: it stays in the cache while it is filled).
REGION_ROWS = 1 << 15
#: Rows of the buffer a kernel writes before they are added to the table (at most 40 MiB with
#: its scratch space), unless the rows of one input item need more.
MOST_BUFFER_ROWS = 1 << 20
LEAST_BUFFER_ROWS = 1 << 6


class Accumulator:
    """A layer (or a set of leaves) being built: rows of (code, ways) added a batch at a time to a
    grouped hash table (``_kernels.tour_sweep.absorb``) that grows as it fills. ``room(bytes,
    rows)`` refuses a table that would pass the memory bound."""

    def __init__(self, expected: int, room: Callable[[int, int], None], overflow: str) -> None:
        self.bits = 0
        while (REGION_ROWS << self.bits) < 2 * expected and self.bits < 20:
            self.bits += 1
        size = 64
        while (size << self.bits) < 2 * expected:
            size *= 2
        self.room = room
        self.overflow = overflow
        self.fill = np.zeros(1 << self.bits, np.int64)
        self.table = np.empty((0, 2), np.int64)
        self.table = self._empty(size << self.bits)
        self.peak = self.table.nbytes

    def _empty(self, rows: int) -> np.ndarray:
        # A table that grows is held beside its successor while its rows move over.
        self.room(rows * 16 + self.table.nbytes, int(self.fill.sum()))
        return np.full((rows, 2), -1, np.int64)

    def add(self, rows: np.ndarray, n: int, scratch: np.ndarray, groups: np.ndarray) -> None:
        from boardpuzzles._kernels import tour_sweep as ts

        while True:
            status = ts.absorb(rows, n, self.table, self.bits, self.fill, scratch, groups)
            if status == ts.GROW:
                bigger = self._empty(2 * len(self.table))
                self.peak = max(self.peak, self.table.nbytes + bigger.nbytes)
                ts.regrow(self.table, bigger, self.bits)
                self.table = bigger
            elif status == ts.OVERFLOW:
                raise SizeError(self.overflow)
            else:
                return

    def take(self) -> np.ndarray:
        """The rows in use, by group (the table is given back)."""
        from boardpuzzles._kernels import tour_sweep as ts

        table, self.table = self.table, np.empty((0, 2), np.int64)
        count = int(ts.compact(table))
        table.resize((count, 2), refcheck=False)
        return table


#: ``collect``'s producer: ``(lo, hi, out, position) -> (status, position, rows, completed)``: a
#: kernel that reads the input items ``lo .. hi`` from ``position`` on (counted from ``lo``) and
#: writes rows into ``out`` until it is full.
Produce = Callable[[int, int, Any, int], tuple[int, int, int, int]]
#: Inputs of fewer items than this a thread are not shared out between threads.
ITEMS_A_THREAD = 1 << 14


def collect(
    produce: Produce,
    items: int,
    expected: int,
    room: Callable[[int, int], None],
    limits: Limits,
    overflow: str,
    most_an_item: int = 16,
) -> tuple[np.ndarray, int, int]:
    """Run a kernel that writes rows into a buffer (``produce``) over ``items`` input items, on up to
    ``limits.jobs`` threads (a share of the items each, a buffer each), and merge equal codes in
    one :class:`Accumulator`. ``most_an_item``: the most rows the kernel writes for one input
    item (the least room it needs). Returns the rows (by group), the bytes the table took at its
    largest, and the kernel's completed tours."""
    from boardpuzzles._kernels import tour_sweep as ts

    jobs = max(1, min(limits.jobs, items // ITEMS_A_THREAD))
    chunk = max(2 * most_an_item, min(max(LEAST_BUFFER_ROWS, expected // (4 * jobs)), MOST_BUFFER_ROWS))
    buffers = jobs * chunk * 40
    room(buffers, 0)
    accumulator = Accumulator(expected, lambda nbytes, rows: room(nbytes + buffers, rows), overflow)
    lock = threading.Lock()
    completed = [0] * jobs
    outcome: list[BaseException] = []

    def share(j: int) -> None:
        lo, hi = j * items // jobs, (j + 1) * items // jobs
        out = np.empty((chunk, 2), np.int64)
        scratch = np.empty((chunk, 2), np.int64)
        groups = np.empty(chunk, np.int64)
        position = 0
        try:
            while True:
                status, position, n, done = produce(lo, hi, out, position)
                completed[j] += int(done)
                with lock:
                    accumulator.add(out, n, scratch, groups)
                if status == ts.STOPPED:
                    limits.raise_stop()
                elif status == ts.OVERFLOW:
                    raise SizeError(overflow)
                elif status != ts.GROW:
                    return
        except BaseException as err:  # raised in the calling thread below
            outcome.append(err)

    if jobs == 1:
        share(0)
    else:
        threads = [threading.Thread(target=share, args=(j,), daemon=True) for j in range(jobs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    if outcome:
        raise outcome[0]
    return accumulator.take(), accumulator.peak, sum(completed)


def frontier_layers(
    rows: int,
    cols: int,
    upto: int,
    keep: int,
    limits: Limits,
    across: int | None = None,
    paths: bool = False,
    memory: int | None = None,
) -> tuple[np.ndarray, np.ndarray, list[SweepRow]]:
    """The frontier states (rows of code, ways; a state and its mirror image share a row) at the
    start of row ``upto`` and of row ``keep`` <= ``upto`` of the sweep, sorted by code, with the
    sweep's figures by row. With a checkpoint the layer is saved after every row, and a run
    resumes from the last one saved. Raises :class:`OverMemory` when a row's table would pass
    the memory bound. ``paths``: the sweep of open tours, whose halves meet the same way."""
    width, length, _, _ = sweep_plan(rows, cols, across)
    sweeper = Sweeper.of(rows, cols, width, length, limits, paths, memory)
    path = layer_file(limits, width, length, "open-halves" if paths else "closed")
    layer = np.array([[0, 1]], np.int64)
    first = 0
    head = [OPEN_HALVES_MARK, OPEN_HALVES_VERSION, width, length] if paths else [CLOSED_PLAN_VERSION, width, length]
    saved = load_layer(path, head, upto)
    if saved is not None and (saved[0][0] <= keep or keep == upto):
        first, layer = saved[0][0], saved[1]
    kept = layer if first == keep else None
    report: list[SweepRow] = []
    for row in range(first, upto):
        try:
            layer, figures, _ = sweeper.sweep_row(layer, row)
        except OverMemory as stop:
            stop.kept = kept
            raise
        report.append(figures)
        say(
            limits,
            f"{sweeper.kind} tours of {rows}x{cols}: row {row + 1} of {upto}: {len(layer):,} states "
            f"(peak {figures.peak:,} in the row, table {figures.table_bytes / 2**20:,.0f} MiB), "
            f"{figures.seconds:.1f} s",
        )
        if row + 1 == keep:
            kept = layer
        if path is not None:
            save_layer(path, head, [row + 1], layer)
    assert kept is not None  # keep <= upto, and a saved row past keep is used only when keep == upto
    return by_code(layer), by_code(kept), report
