"""Counting closed knight's tours: the frontier sweep (a transfer matrix, square by square) from
both ends of the board, its saved layers, and the meeting of the two halves in subtasks (the
kernels are in ``_kernels.closed_tours``)."""

from __future__ import annotations

import hashlib
import os
import sys
import threading
import time
import zipfile
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.errors import BoardPuzzlesError, SizeError, excerpt
from boardpuzzles.files import replace_file_with
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.knights_tour.rules import planned

#: The closed-tour sweep keeps 2 x side + 1 squares in a 59-bit state (``_kernels.closed_tours``).
MAX_FRONTIER_SIDE = 8
#: The share of the machine's memory the closed-tour counter may hold; it stops cleanly before.
FRONTIER_MEMORY_SHARE = 0.5
#: What a closed-tour subtask and its saved layer mean (bumped when that changes; see
#: ``parallel.plan_digest``). Open-tour subtasks keep version 1: their files stay good.
CLOSED_PLAN_VERSION = 2
#: The head of a saved half-layer of an open-tour count (its own mark, then its version).
OPEN_HALVES_MARK = -2
OPEN_HALVES_VERSION = 1
PLAN_VERSIONS = {"_closed_piece": CLOSED_PLAN_VERSION, "_open_piece": OPEN_HALVES_VERSION}


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


def _over_memory(rows: int, cols: int, what: str, kind: str = "closed") -> SizeError:
    limit = frontier_memory() / 2**30
    return SizeError(
        f"counting {kind} tours of {rows}x{cols} needs more than its memory limit of {limit:.2g} GiB "
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


def _layer_file(limits: Limits, width: int, length: int, kind: str = "closed") -> str | None:
    return None if not limits.checkpoint else f"{limits.checkpoint}.{kind}-{width}x{length}.npz"


def _layer_digest(meta: np.ndarray, layer: np.ndarray) -> bytes:
    """The SHA-256 a saved layer carries: its plan, row and every state, so that a damaged or edited
    file (a state dropped, a count of ways changed) is refused instead of counted."""
    checksum = hashlib.sha256(b"boardpuzzles closed-tour layer\n")
    checksum.update(np.ascontiguousarray(meta, dtype="<i8").data)
    checksum.update(np.ascontiguousarray(layer, dtype="<i8").data)
    return checksum.digest()


def _load_layer(path: str | None, head: list[int], upto: int, extra: int = 0) -> tuple[list[int], np.ndarray] | None:
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
    if stored != _layer_digest(meta, layer):
        raise BoardPuzzlesError(f"{damaged} (its checksum does not match its states); remove it")
    plan = meta.tolist()
    if plan[: len(head)] != head or layer.shape[1] != 2:
        raise BoardPuzzlesError(f"{path} holds the layer of another count; remove it or name another")
    if plan[len(head)] > upto:
        return None
    return [int(x) for x in plan[len(head) :]], layer.astype(np.int64, copy=False)


def _save_layer(path: str, head: list[int], row_and_extra: list[int], layer: np.ndarray) -> None:
    meta = np.array(head + row_and_extra, np.int64)
    digest = np.frombuffer(_layer_digest(meta, layer), np.uint8)
    # Whole or not at all, like the checkpoint it goes with (a kill mid-save keeps the last one).
    replace_file_with(path, lambda handle: np.savez(handle, meta=meta, layer=layer, digest=digest), sync=True)


def _frontier_layers(
    rows: int, cols: int, upto: int, keep: int, limits: Limits, across: int | None = None, paths: bool = False
) -> tuple[np.ndarray, np.ndarray, list[SweepRow]]:
    """The frontier states (rows of code, ways; a state and its mirror image share a row) at the
    start of row ``upto`` and of row ``keep`` <= ``upto`` of the sweep, sorted by code, with the
    sweep's figures by row. With a checkpoint the layer is saved after every row, and a run
    resumes from the last one saved. Stops (cleanly, before allocating) when a row's table would
    pass ``frontier_memory()``. ``paths``: the sweep of open tours (``_kernels.open_tours``), whose
    halves meet the same way."""
    from boardpuzzles._kernels import open_tours

    width, length, _, _ = closed_plan(rows, cols, across)
    sweeper = _Sweeper.of(rows, cols, width, length, limits, open_tours if paths else None)
    kind = "open" if paths else "closed"
    path = _layer_file(limits, width, length, "open-halves" if paths else "closed")
    layer = np.array([[0, 1]], np.int64)
    first = 0
    head = [OPEN_HALVES_MARK, OPEN_HALVES_VERSION, width, length] if paths else [CLOSED_PLAN_VERSION, width, length]
    saved = _load_layer(path, head, upto)
    if saved is not None and (saved[0][0] <= keep or keep == upto):
        first, layer = saved[0][0], saved[1]
    kept = layer if first == keep else None
    report: list[SweepRow] = []
    for row in range(first, upto):
        layer, figures, _ = sweeper.sweep_row(layer, row)
        report.append(figures)
        _say(
            limits,
            f"{kind} tours of {rows}x{cols}: row {row + 1} of {upto}: {len(layer):,} states "
            f"(peak {figures.peak:,} in the row, table {figures.table_bytes / 2**20:,.0f} MiB), "
            f"{figures.seconds:.1f} s",
        )
        if row + 1 == keep:
            kept = layer
        if path is not None:
            _save_layer(path, head, [row + 1], layer)
    assert kept is not None  # keep <= upto, and a saved row past keep is used only when keep == upto
    return _by_code(layer), _by_code(kept), report


@dataclass(frozen=True)
class _Sweeper:
    """What every square of one closed-tour sweep shares: the board, the layout of a state code,
    the mirror applied at a row's end, and the bytes its tables may hold."""

    rows: int
    cols: int
    width: int
    squares: int
    slots: int
    offsets: np.ndarray
    masks: np.ndarray
    mirror: np.ndarray
    no_mirror: np.ndarray
    budget: int
    limits: Limits
    kernel: Any  # ``_kernels.closed_tours``, or ``_kernels.open_tours`` for paths
    kind: str  # "closed" or "open": what its messages count

    @classmethod
    def of(cls, rows: int, cols: int, width: int, length: int, limits: Limits, kernel: Any = None) -> _Sweeper:
        from boardpuzzles._kernels import closed_tours as ct

        kernel = ct if kernel is None else kernel
        slots = 2 * width + 1
        offsets, masks, _ = kernel.code_layout(slots)
        mirror = np.array(
            [(i // width) * width + width - 1 - i % width for i in range(2 * width)] + [2 * width], np.int64
        )
        no_mirror = np.array([-1], np.int64)
        return cls(
            rows, cols, width, width * length, slots, offsets, masks, mirror, no_mirror, frontier_memory(), limits,
            kernel, "closed" if kernel is ct else "open",
        )  # fmt: skip

    def sweep_row(self, layer: np.ndarray, row: int) -> tuple[np.ndarray, SweepRow, int]:
        """The states at the start of the next row, this row's figures, and the tours (cycles or
        paths) completed in it."""
        began = time.perf_counter()
        peak, biggest, completed = len(layer), 0, 0
        for col in range(self.width):
            layer, table_bytes, done = self.sweep_square(layer, row, col)
            biggest = max(biggest, table_bytes)
            peak = max(peak, len(layer))
            completed += done
        return layer, SweepRow(row + 1, len(layer), peak, biggest, time.perf_counter() - began), completed

    def sweep_square(self, layer: np.ndarray, row: int, col: int) -> tuple[np.ndarray, int, int]:
        """The states once square ``col`` of ``row`` is decided (in a hash table that grows as it
        fills), the bytes that table took at its largest, and the tours completed there."""
        from boardpuzzles._kernels import closed_tours as ct

        v = row * self.width + col
        forward = _forward(v, self.width, self.squares)
        n_forward = int(np.count_nonzero(forward))
        size = 1024
        while size < 2 * len(layer):
            size *= 2
        table = self._table(size, 0, row, layer.nbytes)
        stored = position = completed = 0
        while True:
            status, position, stored, done = self.kernel.sweep_square(
                layer, len(layer), position, table, stored, size * 3 // 4, forward, n_forward, self.slots,
                self.squares - v, self.offsets, self.masks, self.mirror if col == self.width - 1 else self.no_mirror,
                self.limits.flag,
            )  # fmt: skip
            completed += int(done)
            if status == ct.GROW:
                bigger = self._table(2 * size, stored, row, layer.nbytes + table.nbytes)
                ct.rehash(table, bigger)
                table, size = bigger, 2 * size
            elif status == ct.STOPPED:
                self.limits.raise_stop()
            elif status == ct.OVERFLOW:
                raise SizeError(f"the tour count of {self.rows}x{self.cols} outgrows 64-bit integers")
            else:
                break
        biggest = table.nbytes
        count = int(ct.compact(table))
        table.resize((count, 2), refcheck=False)  # gives the rest back
        return table, biggest, completed

    def _table(self, size: int, stored: int, row: int, held: int) -> np.ndarray:
        """An empty hash table of ``size`` rows, unless it and the ``held`` bytes pass the budget."""
        if size * 16 + held > self.budget:
            raise _over_memory(self.rows, self.cols, f"row {row + 1}: over {stored:,} frontier states", self.kind)
        return np.full((size, 2), -1, np.int64)


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


@planned
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
