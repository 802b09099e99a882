"""What a count of knight's tours by halves will take: states, leaves, pairings, memory, disk and
core-hours (``knights-tour estimate``), so that a user knows before the run whether a laptop or a
cluster is the place for it.

Glossary
--------
exact rows  The rows of the sweep whose layers stay under ``exact_states`` are swept whole, on
            the board and on the boards one, two and three squares narrower (same length): their
            figures are the sweep's own.
trend       A row past that is estimated from the narrower boards: a figure's growth from one
            width to the next (states from one row to the next, the most states in a row over
            those at its end, successors made per state, leaves per top state, pairings per
            leaf) is taken to grow as it grew the width before (geometric trend, from the two
            narrower boards). The growth from width to width is uneven (odd and even widths
            differ), so an estimate is rough (states within a factor of two, leaves four times
            too few on 7x8): enough to tell a laptop's count from a cluster's (the docs give
            the check against 7x7 and 7x8).
cost        CPU seconds per successor, per leaf made and per pairing of two leaves, measured on
            the largest board swept whole, times the estimated totals.

Sampling a layer by a hash of its states does not do: late in a row most states are reached
from several others, and a sample of a share f sees only the fraction f of those meetings, so
the distinct states of the whole layer stay out of its reach (tried: a factor of ten off on 7x8).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.knights_tour.frontier import TABLE_BYTES_PER_STATE, collect, frontier_memory, sweep_plan

#: Layers up to this many states are swept whole; top layers up to ``MEETING_STATES`` are met.
EXACT_STATES = 8_000_000
MEETING_STATES = 1_000_000
#: Bytes of a row of (code, ways) on disk or in an array.
ROW_BYTES = 16


@dataclass
class Figures:
    """A board's figures by row of the top half (``states`` at each row's end, the ``peak`` in
    it, the ``made`` successors) and of its meeting; ``exact`` rows were swept, the rest are
    estimated."""

    width: int
    states: list[float] = field(default_factory=list)
    peak: list[float] = field(default_factory=list)
    made: list[float] = field(default_factory=list)
    exact: int = 0
    leaves_made: float = 0.0  # per top state
    leaves: float = 0.0  # distinct top leaves per top state
    pairings: float = 0.0  # per top leaf
    bottoms: float = 2.0  # bottom leaves per bottom state (mirror images spelt out)
    met: bool = False


@dataclass
class Estimate:
    """The estimate of a count by halves (see the module's glossary)."""

    rows: int
    cols: int
    paths: bool
    width: int
    length: int
    figures: Figures
    top_rows: int
    bottom_rows: int
    seconds_a_state: float = 0.0
    seconds_a_leaf: float = 0.0
    seconds_a_pairing: float = 0.0
    memory: int = 0
    jobs: int = 1

    @property
    def top_states(self) -> float:
        return self.figures.states[self.top_rows - 1]

    @property
    def bottom_states(self) -> float:
        return self.figures.states[self.bottom_rows - 1]

    @property
    def top_leaves(self) -> float:
        return self.figures.leaves * self.top_states

    @property
    def bottom_leaves(self) -> float:
        return self.figures.bottoms * self.bottom_states

    @property
    def pairings(self) -> float:
        return self.figures.pairings * self.top_leaves

    @property
    def sweep_seconds(self) -> float:
        return self.seconds_a_state * sum(self.figures.made[: self.top_rows])

    @property
    def leaf_seconds(self) -> float:
        return self.seconds_a_leaf * self.figures.leaves_made * self.top_states

    @property
    def pair_seconds(self) -> float:
        return self.seconds_a_pairing * self.pairings

    @property
    def core_hours(self) -> float:
        return (self.sweep_seconds + self.leaf_seconds + self.pair_seconds) / 3600

    @property
    def memory_in_memory(self) -> float:
        """Bytes a count in memory would hold at its largest: a row's table, or the leaves."""
        peak = max(self.figures.peak[: self.top_rows])
        return max(2 * peak * TABLE_BYTES_PER_STATE, 40 * self.top_leaves + 56 * self.bottom_leaves)

    @property
    def shards(self) -> int:
        from boardpuzzles.puzzles.knights_tour.sharded import shard_bits

        return 1 << shard_bits(int(self.top_states), self.memory, self.jobs)

    @property
    def disk(self) -> float:
        """Bytes a count in shards keeps on disk at its largest: the layers before and after a
        square (the parts of its tasks hold some states twice) and the kept layer, or the
        layers with the leaves of both halves."""
        peak = max(self.figures.peak[: self.top_rows])
        sweeping = 3 * peak + self.bottom_states
        meeting = self.top_states + self.bottom_states + 1.5 * self.top_leaves + self.bottom_leaves
        return ROW_BYTES * max(sweeping, meeting)

    def document(self) -> dict[str, Any]:
        f = self.figures
        return {
            "board": f"{self.rows}x{self.cols}",
            "tours": "open" if self.paths else "closed",
            "width": self.width,
            "rows": [
                {"row": r + 1, "states": round(f.states[r]), "peak": round(f.peak[r]), "exact": r < f.exact}
                for r in range(self.top_rows)
            ],
            "top_states": round(self.top_states),
            "bottom_states": round(self.bottom_states),
            "top_leaves": round(self.top_leaves),
            "bottom_leaves": round(self.bottom_leaves),
            "pairings": round(self.pairings),
            "memory_in_memory_bytes": round(self.memory_in_memory),
            "memory_bytes": self.memory,
            "shards": self.shards,
            "disk_bytes": round(self.disk),
            "core_hours": round(self.core_hours, 4),
        }


def estimate(
    rows: int,
    cols: int,
    paths: bool,
    memory: int | None = None,
    jobs: int = 1,
    exact_states: int = EXACT_STATES,
    limits: Limits | None = None,
) -> Estimate:
    """The estimate of a count of the tours of a board by halves (see the module's glossary)."""
    limits = limits if limits is not None else Limits()
    width, length, top_rows, bottom_rows = sweep_plan(rows, cols)
    upto = max(top_rows, bottom_rows)
    result = Estimate(rows, cols, paths, width, length, Figures(width), top_rows, bottom_rows)
    result.memory, result.jobs = frontier_memory(memory), jobs
    boards = [_swept(w, length, upto, paths, exact_states, limits, result) for w in range(max(3, width - 3), width + 1)]
    for known in boards:  # narrowest first: each is filled in from those before it
        _trend(known, boards, upto)
    result.figures = boards[-1]
    return result


def _swept(
    width: int, length: int, upto: int, paths: bool, exact_states: int, limits: Limits, result: Estimate
) -> Figures:
    """A board's rows swept whole while their layers stay under ``exact_states``, and its meeting
    (leaves and pairings) when the top half was swept whole; the costs measured on the way."""
    from boardpuzzles._kernels import tour_sweep as ts

    tables = ts.frontier(width, length, paths)
    figures = Figures(width)
    layer = np.array([[0, 1]], np.int64)
    for row in range(upto):
        peak, made_in_row, began = float(len(layer)), 0, time.thread_time()
        for col in range(width):
            if 2 * len(layer) > exact_states:  # the next square could pass the bound
                return figures
            made = [0]
            layer = _square(tables, layer, row * width + col, limits, made)
            made_in_row += made[0]
            peak = max(peak, len(layer))
        if made_in_row > 10_000:
            result.seconds_a_state = (time.thread_time() - began) / made_in_row
        figures.states.append(float(len(layer)))
        figures.peak.append(peak)
        figures.made.append(float(made_in_row))
        figures.exact = row + 1
    _meet(figures, tables, layer, limits, result)
    return figures


def _square(tables: Any, layer: np.ndarray, v: int, limits: Limits, made: list[int]) -> np.ndarray:
    from boardpuzzles._kernels import tour_sweep as ts

    def produce(lo: int, hi: int, out: np.ndarray, at: int) -> tuple[int, int, int, int]:
        status, position, n, done = ts.expand_square(tables, layer[lo:hi], at, out, v, limits.flag)
        made[0] += n
        return status, position, n, done

    after, _, _ = collect(produce, len(layer), len(layer), lambda nbytes, rows: None, limits, "overflow")
    return after


def _meet(figures: Figures, tables: Any, top: np.ndarray, limits: Limits, result: Estimate) -> None:
    """The leaves of a top layer swept whole (its own bottom layer: the same rows), and their
    pairings; the seconds a pairing takes, timed on a few thousand top leaves."""
    from boardpuzzles._kernels import tour_join as tj
    from boardpuzzles.puzzles.knights_tour.meeting import Band, bottom_leaves, pair, top_leaves

    if not 0 < len(top) <= MEETING_STATES:
        return
    band = Band.of(tables)
    counted: dict[str, int] = {}
    began = time.thread_time()
    leaves = top_leaves(band, top, limits, lambda nbytes, rows: None, "estimate", counted)
    spent = time.thread_time() - began
    bottoms = bottom_leaves(band, top)
    top_keys = tj.leaf_keys(leaves, band.band, band.offsets, band.masks, band.powers, True)
    bottom_keys = tj.leaf_keys(bottoms, band.band, band.offsets, band.masks, band.powers, False)
    order = np.argsort(bottom_keys, kind="stable")
    bottoms, bottom_keys = bottoms[order], bottom_keys[order]
    # Looked up in key order: sorted queries walk the bottom keys once instead of at random.
    by_key = np.argsort(top_keys, kind="stable")
    ordered = top_keys[by_key]
    each = np.empty(len(top_keys), np.int64)
    each[by_key] = np.searchsorted(bottom_keys, ordered, side="right") - np.searchsorted(bottom_keys, ordered)
    figures.leaves_made = counted["made"] / len(top)
    figures.leaves = len(leaves) / len(top)
    figures.pairings = float(each.sum()) / max(len(leaves), 1)
    figures.bottoms = len(bottoms) / len(top)
    figures.met = True
    if counted["made"] > 10_000:
        result.seconds_a_leaf = spent / counted["made"]
    picked = np.sort(np.random.default_rng(1).choice(len(leaves), min(len(leaves), 5_000), replace=False))
    picked = picked[np.argsort(top_keys[picked], kind="stable")]
    timed = float(each[picked].sum())
    if timed > 100_000:
        packed, terms = tj.bottom_links(bottoms, band.band, band.offsets, band.masks)
        began = time.thread_time()
        pair(band, leaves[picked], top_keys[picked], bottoms, bottom_keys, packed, terms, limits, "estimate")
        result.seconds_a_pairing = (time.thread_time() - began) / timed


def _trend(figures: Figures, narrower: list[Figures], upto: int) -> None:
    """Fill the rows of ``figures`` past its exact ones, and its meeting, by the trend of the
    narrower boards (see the module's glossary)."""
    smaller = [f for f in narrower if f.width < figures.width]
    for row in range(figures.exact, upto):
        before = figures.states[row - 1] if row else 1.0
        growth = _next(figures.width, [(f.width, _ratio(f.states, row)) for f in smaller])
        figures.states.append(before * growth)
        share = _next(figures.width, [(f.width, f.peak[row] / f.states[row]) for f in smaller])
        figures.peak.append(figures.states[row] * share)
        each = _next(figures.width, [(f.width, f.made[row] / (f.states[row - 1] if row else 1.0)) for f in smaller])
        figures.made.append(before * each)
    if not figures.met:
        met = [f for f in smaller if f.met]
        figures.leaves_made = _next(figures.width, [(f.width, f.leaves_made) for f in met])
        figures.leaves = _next(figures.width, [(f.width, f.leaves) for f in met])
        figures.pairings = _next(figures.width, [(f.width, f.pairings) for f in met])


def _ratio(states: list[float], row: int) -> float:
    return states[row] / (states[row - 1] if row else 1.0)


def _next(width: int, known: list[tuple[int, float]]) -> float:
    """A figure at ``width`` from its values at narrower widths: the last one times its last
    growth (the geometric trend), or the last one when there is only one."""
    known = sorted(k for k in known if k[1] > 0)
    if not known:
        return 1.0
    if len(known) == 1:
        return known[-1][1]
    (w1, a), (w2, b) = known[-2], known[-1]
    return b * (b / a) ** ((width - w2) / (w2 - w1)) if w2 > w1 else b
