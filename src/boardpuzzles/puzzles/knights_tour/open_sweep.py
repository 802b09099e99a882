"""Counting open knight's tours from every start: the frontier sweep run over the whole board,
for Hamiltonian paths (a state may hold path ends whose far end is a terminal, and a tour is
counted when the two terminal paths join with every square full), or by halves that meet in the
middle (:mod:`.closed`, :mod:`.meeting`). One sweep counts the paths of every start at once; a
directed tour is a path with a chosen end to start from, so there are twice as many."""

from __future__ import annotations

from boardpuzzles._lazy import numpy as np
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.knights_tour.closed import halves
from boardpuzzles.puzzles.knights_tour.frontier import OverMemory, Sweeper, layer_file, load_layer, save_layer, say
from boardpuzzles.puzzles.knights_tour.meeting import pair_piece
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
def _open_sweep(spec: tuple[str, int, int], limits: Limits, memory: int | None = None) -> int:
    """The open tours of a board as undirected paths (the one subtask of such a count)."""
    _, rows, cols = spec
    return count_paths(rows, cols, limits, memory=memory)


def count_paths(rows: int, cols: int, limits: Limits, across: int | None = None, memory: int | None = None) -> int:
    """The open tours of a board as undirected paths. With a checkpoint, the layer and the paths
    found so far are saved after every row (next to the checkpoint file, with a SHA-256 of the
    states), and a run resumes from the last row saved."""
    from boardpuzzles.puzzles.knights_tour.sharded import paths_in_shards
    from boardpuzzles.puzzles.knights_tour.shards import Store, store_folder

    width, length = open_plan(rows, cols, across)
    if across is None and Store.exists(store_folder(limits.checkpoint, width, length, True, "board")):
        return paths_in_shards(rows, cols, None, limits, memory)
    sweeper = Sweeper.of(rows, cols, width, length, limits, True, memory)
    path = layer_file(limits, width, length, "open")
    head = [OPEN_LAYER_MARK, OPEN_PLAN_VERSION, width, length]
    first, paths, layer = 0, 0, np.array([[0, 1]], np.int64)
    saved = load_layer(path, head, length, extra=1)
    if saved is not None:
        (first, paths), layer = saved
    for row in range(first, length):
        try:
            layer, figures, completed = sweeper.sweep_row(layer, row)
        except OverMemory as over:
            if across is not None:
                raise
            over.completed = paths
            del layer  # the layer goes on in shards: the store holds it from here
            return paths_in_shards(rows, cols, over.released(), limits, memory)
        paths += completed
        say(
            limits,
            f"open tours of {rows}x{cols}: row {row + 1} of {length}: {len(layer):,} states "
            f"(peak {figures.peak:,} in the row, table {figures.table_bytes / 2**20:,.0f} MiB), "
            f"{figures.seconds:.1f} s",
        )
        if path is not None:
            save_layer(path, head, [row + 1, paths], layer)
    return paths


@planned
def _open_share(spec: tuple[str, int, int, int, int], limits: Limits) -> int:
    """Piece ``piece`` of ``pieces`` of an open-tour count by halves: twice the paths whose leaves'
    keys fall in that piece (the count's unit is 2)."""
    _, rows, cols, piece, pieces = spec
    return pair_piece(halves(rows, cols, True, pieces, limits), piece, limits, f"{rows}x{cols}")
