"""Counting knight's tours by the two halves of the frontier sweep: the halves swept once and
shared by the subtasks of a count, which pair their leaves piece by piece (:mod:`.meeting`);
closed tours here, open tours in :mod:`.open_sweep`."""

from __future__ import annotations

import threading

from boardpuzzles.errors import SizeError
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.knights_tour.frontier import (
    CLOSED_PLAN_VERSION,
    OPEN_HALVES_VERSION,
    OverMemory,
    SweepRow,
    frontier_layers,
    sweep_plan,
)
from boardpuzzles.puzzles.knights_tour.meeting import Band, Meeting, meet, pair_piece
from boardpuzzles.puzzles.knights_tour.rules import planned

#: What a subtask of a count by halves means, by work function (see ``parallel.plan_digest``):
#: ``_closed_piece`` is a whole closed count of a small board (its files stay good);
#: ``_closed_share`` and ``_open_share`` the pieces of the pairing of leaves (:mod:`.meeting`).
#: ``_open_piece`` was the share of the top layer of the earlier pairing: its files are refused.
PLAN_VERSIONS = {
    "_closed_piece": CLOSED_PLAN_VERSION,
    "_open_piece": OPEN_HALVES_VERSION,
    "_closed_share": 1,
    "_open_share": 1,
}

#: The halves of the last count by halves, by (paths, width, length, pieces): its subtasks share them.
_SWEEPS: dict[tuple[bool, int, int, int], Meeting] = {}
_SWEEPS_LOCK = threading.Lock()


def halves(
    rows: int, cols: int, paths: bool, pieces: int, limits: Limits, across: int | None = None, memory: int | None = None
) -> Meeting:
    """The leaves of both halves of a count, swept once and shared by its subtasks (the layers
    are saved next to the checkpoint). Raises ``OverMemory`` when they do not fit: with the last
    whole layer, or (row -1) with both halves when only their leaves do not fit."""
    from boardpuzzles._kernels.tour_sweep import frontier

    width, length, top_rows, bottom_rows = sweep_plan(rows, cols, across)
    if paths and length < 4:  # a tour could end inside the top half or the band, where the join does not look
        raise SizeError(
            f"counting open tours by halves needs 4 rows or more; {rows}x{cols} swept {width} wide has {length}"
        )
    key = (paths, width, length, pieces)
    with _SWEEPS_LOCK:
        if key in _SWEEPS:
            return _SWEEPS[key]
        _SWEEPS.clear()
        top, bottom, report = frontier_layers(rows, cols, top_rows, bottom_rows, limits, across, paths, memory)
        band = Band.of(frontier(width, length, paths))
        try:
            meeting = meet(band, top, bottom, pieces, limits, f"{rows}x{cols}", report, memory)
        except OverMemory as stop:  # both halves are whole: the shards start from them
            raise OverMemory(str(stop.released()), -1, top, bottom) from None
        _SWEEPS[key] = meeting
        return meeting


@planned
def _closed_piece(spec: tuple[str, int, int, int, int], limits: Limits) -> int:
    """A closed-tour count of a small board in one subtask (spec: ``(what, rows, cols, 0, 1)``)."""
    _, rows, cols, _, _ = spec
    return pair_piece(halves(rows, cols, False, 1, limits), 0, limits, f"{rows}x{cols}") // 2


@planned
def _closed_share(spec: tuple[str, int, int, int, int], limits: Limits) -> int:
    """Piece ``piece`` of ``pieces`` of a closed-tour count: twice the cycles whose leaves' keys
    fall in that piece (the count's unit is 2)."""
    _, rows, cols, piece, pieces = spec
    return pair_piece(halves(rows, cols, False, pieces, limits), piece, limits, f"{rows}x{cols}")


def closed_sweep_report(rows: int, cols: int) -> list[SweepRow]:
    """The figures by row of the last closed-tour count of this board (empty if none is held)."""
    width, length, _, _ = sweep_plan(rows, cols)
    for (paths, w, n, _), meeting in list(_SWEEPS.items()):
        if not paths and (w, n) == (width, length):
            return list(meeting.rows)
    return []
