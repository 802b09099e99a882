"""Counting open knight's tours from every start: the frontier sweep of :mod:`.closed` run over
the whole board, for Hamiltonian paths (the kernel is ``_kernels.open_tours``: a state may hold
path ends whose far end is a terminal, and a tour is counted when the two terminal paths join
with every square full). One sweep counts the paths of every start at once; a directed tour is
a path with a chosen end to start from, so there are twice as many."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.errors import SizeError
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.knights_tour.closed import (
    _frontier_layers,
    _load_layer,
    _over_memory,
    _save_layer,
    _say,
    _Sweeper,
    closed_plan,
    frontier_memory,
)
from boardpuzzles.puzzles.knights_tour.rules import planned

#: What a saved open-sweep layer means (its head also tells it from a closed-tour layer).
OPEN_LAYER_MARK = -1
OPEN_PLAN_VERSION = 1


def open_plan(rows: int, cols: int, width: int | None = None) -> tuple[int, int]:
    """``(width, length)``: the sweep runs along the long side, ``width`` squares a row (the tests
    choose the other way across, to try the widest state on small boards)."""
    width = min(rows, cols) if width is None else width
    return width, rows * cols // width


@planned
def _open_sweep(spec: tuple[str, int, int], limits: Limits) -> int:
    """The open tours of a board as undirected paths (the one subtask of such a count)."""
    _, rows, cols = spec
    return count_paths(rows, cols, limits)


def count_paths(rows: int, cols: int, limits: Limits, across: int | None = None) -> int:
    """The open tours of a board as undirected paths. With a checkpoint, the layer and the paths
    found so far are saved after every row (next to the checkpoint file, with a SHA-256 of the
    states), and a run resumes from the last row saved."""
    from boardpuzzles._kernels import open_tours as ot

    width, length = open_plan(rows, cols, across)
    sweeper = _Sweeper.of(rows, cols, width, length, limits, kernel=ot)
    path = None if not limits.checkpoint else f"{limits.checkpoint}.open-{width}x{length}.npz"
    head = [OPEN_LAYER_MARK, OPEN_PLAN_VERSION, width, length]
    first, paths, layer = 0, 0, np.array([[0, 1]], np.int64)
    saved = _load_layer(path, head, length, extra=1)
    if saved is not None:
        (first, paths), layer = saved
    for row in range(first, length):
        layer, figures, completed = sweeper.sweep_row(layer, row)
        paths += completed
        _say(
            limits,
            f"open tours of {rows}x{cols}: row {row + 1} of {length}: {len(layer):,} states "
            f"(peak {figures.peak:,} in the row, table {figures.table_bytes / 2**20:,.0f} MiB), "
            f"{figures.seconds:.1f} s",
        )
        if path is not None:
            _save_layer(path, head, [row + 1, paths], layer)
    return paths


# ------------------------------------------------------------------ meeting in the middle
@dataclass
class _PathHalves:
    """What the subtasks of one open-tour count by halves share: the top layer (sorted by code),
    the bottom states grouped by degree vector, and the constants of ``join_tops``."""

    top: np.ndarray
    starts: np.ndarray
    partners: np.ndarray
    terms: np.ndarray
    weights: np.ndarray
    constants: tuple[Any, ...]


_HALVES: dict[tuple[int, int], _PathHalves] = {}
_HALVES_LOCK = threading.Lock()


def _path_halves(rows: int, cols: int, limits: Limits, across: int | None = None) -> _PathHalves:
    """The two halves of an open-tour count, swept once and shared by its subtasks (the layers
    are saved next to the checkpoint, as the closed count's are)."""
    from boardpuzzles._kernels import closed_tours as ct
    from boardpuzzles._kernels import open_tours as ot

    width, length, top_rows, bottom_rows = closed_plan(rows, cols, across)
    if length < 4:  # a tour could end inside the top half or the band, where the join does not look
        raise SizeError(
            f"counting open tours by halves needs 4 rows or more; {rows}x{cols} swept {width} wide has {length}"
        )
    with _HALVES_LOCK:
        if (width, length) in _HALVES:
            return _HALVES[width, length]
        _HALVES.clear()
        band = 2 * width
        top, bottom, _ = _frontier_layers(rows, cols, top_rows, bottom_rows, limits, across, paths=True)
        slots = 2 * width + 1
        offsets, masks, _ = ot.code_layout(slots)
        powers = np.array([3**z for z in range(band)], np.int64)
        if 64 * len(bottom) + 4 * 3**band + top.nbytes > frontier_memory():
            raise _over_memory(rows, cols, f"{len(top):,} top and {len(bottom):,} bottom states", "open")
        keys, partners, terms, weights = ot.bottom_table(bottom, width, slots, offsets, masks, powers)
        order = np.argsort(keys, kind="stable")
        starts = ct.class_starts(keys[order], 3**band)
        edges = np.array(
            [(c, width + c + d) for c in range(width) for d in (-2, 2) if 0 <= c + d < width], np.int64
        ).reshape(-1, 2)
        halves = _PathHalves(
            top, starts, partners[order], terms[order], weights[order], (width, slots, offsets, masks, powers, edges)
        )
        _HALVES[width, length] = halves
        return halves


@planned
def _open_piece(spec: tuple[str, int, int, int, int], limits: Limits) -> int:
    """Subtask ``piece`` of ``pieces`` of an open-tour count by halves: the paths whose top half is
    in that share of the top layer (sorted by code, so the shares are the same in every run)."""
    _, rows, cols, piece, pieces = spec
    return _join_paths(_path_halves(rows, cols, limits), piece, pieces, f"{rows}x{cols}", limits)


def _join_paths(halves: _PathHalves, piece: int, pieces: int, board: str, limits: Limits) -> int:
    """The paths whose top half is in share ``piece`` of ``pieces`` of the top layer."""
    from boardpuzzles._kernels import closed_tours as ct
    from boardpuzzles._kernels import open_tours as ot

    n = len(halves.top)
    width, slots, offsets, masks, powers, edges = halves.constants
    total, status = ot.join_tops(
        halves.top, piece * n // pieces, (piece + 1) * n // pieces, width, slots, offsets, masks, powers, edges,
        halves.starts, halves.partners, halves.terms, halves.weights, limits.flag,
    )  # fmt: skip
    if status == ct.STOPPED:
        limits.raise_stop()
    if status == ct.OVERFLOW:
        raise SizeError(f"the open-tour count of {board} outgrows 64-bit integers")
    return int(total) // 2  # each bottom state counted with its mirror image's weight too
