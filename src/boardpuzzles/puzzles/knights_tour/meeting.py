"""Counting knight's tours by halves: the top and bottom layers of the frontier sweep become
*leaves* (the band between them as each side leaves it), and the leaves with equal keys are
paired (kernels in ``_kernels.tour_join``, whose glossary says what leaves and keys are).

The pairing is split into ``pieces`` by a hash of the key (``tour_sweep.shard_of``), so a piece
means the same whether the leaves are held in memory (here) or in shards on disk
(:mod:`.shards`): a checkpoint of one kind of run serves the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.errors import SizeError
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.knights_tour.frontier import (
    OverMemory,
    SweepRow,
    collect,
    frontier_memory,
    group_starts,
    over_memory,
    say,
)


@dataclass(frozen=True)
class Band:
    """The constants of the leaves of one count: its sweep's bundle, the band's squares, the
    leaf code's layout, the band edges and the powers of 3 of the keys."""

    tables: Any
    band: int
    offsets: np.ndarray
    masks: np.ndarray
    edges: np.ndarray
    powers: np.ndarray

    @classmethod
    def of(cls, tables: Any) -> Band:
        from boardpuzzles._kernels import tour_join as tj

        band = 2 * tables.width
        offsets, masks, _ = tj.leaf_layout(band)
        powers = np.array([3**z for z in range(band)], np.int64)
        return cls(tables, band, offsets, masks, tj.band_edges(tables.width), powers)

    @property
    def paths(self) -> bool:
        return bool(self.tables.paths)


@dataclass
class Meeting:
    """What the pieces of one count by halves share: the top and bottom leaves, each sorted by
    (piece, key), with where each piece's rows start, and the bottom leaves' links."""

    band: Band
    pieces: int
    tops: np.ndarray
    top_keys: np.ndarray
    top_starts: np.ndarray
    bottoms: np.ndarray
    bottom_keys: np.ndarray
    bottom_starts: np.ndarray
    packed: np.ndarray
    terms: np.ndarray
    rows: list[SweepRow]


def top_leaves(
    band: Band, layer: np.ndarray, limits: Limits, room: Any, board: str, figures: dict[str, int] | None = None
) -> np.ndarray:
    """The distinct top leaves (code, ways) of a top layer: every set of band edges, then (open
    tours) every choice of terminals in the band. ``figures`` (if given) gets the leaves made
    ("made") and how many were distinct before terminals were chosen ("first")."""
    from boardpuzzles._kernels import tour_join as tj

    overflow = f"the tour count of {board} outgrows 64-bit integers"
    flag = limits.flag
    made = [0]

    def counted(produce: Any) -> Any:
        def run(lo: int, hi: int, out: np.ndarray, at: int) -> tuple[int, int, int, int]:
            status, position, n, done = produce(lo, hi, out, at)
            made[0] += n
            return status, position, n, done

        return run

    leaves, _, _ = collect(
        counted(
            lambda lo, hi, out, at: tj.top_leaves(band.tables, layer[lo:hi], at, band.edges, band.offsets, out, flag)
        ),
        len(layer),
        2 * len(layer),
        room,
        limits,
        overflow,
        1 << len(band.edges),
    )
    if figures is not None:
        figures.update(made=made[0], first=len(leaves))
    if not band.paths:
        return leaves
    width = band.tables.width
    declared, _, _ = collect(
        lambda lo, hi, out, at: tj.declare_terminals(leaves[lo:hi], at, width, band.offsets, band.masks, out, flag),
        len(leaves),
        2 * len(leaves),
        lambda nbytes, rows: room(nbytes + leaves.nbytes, rows),  # the leaves are held meanwhile
        limits,
        overflow,
        tj.MOST_DECLARED,
    )
    return declared


def bottom_leaves(band: Band, layer: np.ndarray) -> np.ndarray:
    """The bottom leaves (code, twice the ways) of a bottom layer, mirror images spelt out."""
    from boardpuzzles._kernels import tour_join as tj

    return tj.bottom_leaves(band.tables, layer, band.offsets)  # type: ignore[no-any-return]


#: Bytes a leaf takes while :func:`by_piece` sorts it: the leaf (16) and its sorted copy (16), its
#: key and sorted key, its piece, the sort key and the order (8 each).
SORTING_BYTES_A_LEAF = 72


def by_piece(
    band: Band, leaves: np.ndarray, pieces: int, top: bool, room: Callable[[int, int], None] | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Leaves sorted by (piece, key), their keys, and where each piece's rows start. ``room`` (if
    given) is asked first for what the sorting holds."""
    from boardpuzzles._kernels import tour_join as tj
    from boardpuzzles._kernels import tour_sweep as ts

    if room is not None:
        room(SORTING_BYTES_A_LEAF * len(leaves), len(leaves))
    keys = tj.leaf_keys(leaves, band.band, band.offsets, band.masks, band.powers, top)
    piece = ts.groups_of(keys, pieces.bit_length() - 1)
    # The order of leaves with equal keys does not matter (every pair of them is counted), so
    # the faster unstable sort; np.take gathers rows faster than fancy indexing.
    order = np.argsort((piece << 40) | keys)  # keys below 3**16 < 2**40
    return np.take(leaves, order, axis=0), np.take(keys, order), group_starts(piece, pieces)


def meet(
    band: Band,
    top: np.ndarray,
    bottom: np.ndarray,
    pieces: int,
    limits: Limits,
    board: str,
    rows: list[SweepRow],
    memory: int | None = None,
) -> Meeting:
    """The leaves of both halves, sorted by piece, in memory (``OverMemory`` when they would pass
    the memory bound)."""
    from boardpuzzles._kernels import tour_join as tj

    budget = frontier_memory(memory)
    held = top.nbytes + bottom.nbytes
    kind = "open" if band.paths else "closed"
    r, c = (int(x) for x in board.split("x"))

    def room(nbytes: int, stored: int) -> None:
        if nbytes + held > budget:
            message = over_memory(r, c, f"over {stored:,} leaves of the top half", kind, memory)
            raise OverMemory(str(message), -1, None)

    tops, top_keys, top_starts = by_piece(band, top_leaves(band, top, limits, room, board), pieces, True, room)
    bottoms = bottom_leaves(band, bottom)
    # Held at the largest: the top leaves and keys (24 bytes each), the bottom leaves as they are
    # sorted, then with their keys and links.
    if SORTING_BYTES_A_LEAF * len(bottoms) + 24 * len(tops) + held > budget:  # the shards take over
        message = over_memory(r, c, f"{len(tops):,} top and {len(bottoms):,} bottom leaves", kind, memory)
        raise OverMemory(str(message), -1, None)
    bottoms, bottom_keys, bottom_starts = by_piece(band, bottoms, pieces, False)
    packed, terms = tj.bottom_links(bottoms, band.band, band.offsets, band.masks)
    pairings = sum(
        _pairings(top_keys[top_starts[k] : top_starts[k + 1]], bottom_keys[bottom_starts[k] : bottom_starts[k + 1]])
        for k in range(pieces)
    )
    say(
        limits,
        f"{kind} tours of {board}: {len(tops):,} top leaves, {len(bottoms):,} bottom leaves, {pairings:,} pairings",
    )
    return Meeting(band, pieces, tops, top_keys, top_starts, bottoms, bottom_keys, bottom_starts, packed, terms, rows)


def _pairings(top_keys: np.ndarray, bottom_keys: np.ndarray) -> int:
    """How many (top, bottom) pairs of leaves have equal keys (both sorted)."""
    each = np.searchsorted(bottom_keys, top_keys, side="right") - np.searchsorted(bottom_keys, top_keys)
    return int(each.sum())


def pair_piece(meeting: Meeting, piece: int, limits: Limits, board: str) -> int:
    """Twice the tours whose leaves are in piece ``piece`` (bottom leaves carry twice their ways)."""
    t0, t1 = int(meeting.top_starts[piece]), int(meeting.top_starts[piece + 1])
    b0, b1 = int(meeting.bottom_starts[piece]), int(meeting.bottom_starts[piece + 1])
    return pair(
        meeting.band,
        meeting.tops[t0:t1],
        meeting.top_keys[t0:t1],
        meeting.bottoms[b0:b1],
        meeting.bottom_keys[b0:b1],
        meeting.packed[b0:b1],
        meeting.terms[b0:b1],
        limits,
        board,
    )


def pair(
    band: Band,
    tops: np.ndarray,
    top_keys: np.ndarray,
    bottoms: np.ndarray,
    bottom_keys: np.ndarray,
    packed: np.ndarray,
    terms: np.ndarray,
    limits: Limits,
    board: str,
) -> int:
    """Twice the tours made of these top and bottom leaves (each sorted by key)."""
    from boardpuzzles._kernels import tour_join as tj
    from boardpuzzles._kernels import tour_sweep as ts

    status, total = tj.pair_count(
        tops, top_keys, bottoms, bottom_keys, packed, terms, band.band, band.offsets, band.masks, band.paths,
        limits.flag,
    )  # fmt: skip
    if status == ts.STOPPED:
        limits.raise_stop()
    if status == ts.OVERFLOW:
        raise SizeError(f"the tour count of {board} outgrows 64-bit integers")
    return int(total)
