"""Two or more colours with the most stones, counted as tuples of disjoint one-colour boards."""

from __future__ import annotations

import collections
import copy
import hashlib
import itertools
import math
from collections.abc import Iterator
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import Limits, Progress, TimeLimitReached
from boardpuzzles.parallel import Subtask, run_subtasks
from boardpuzzles.puzzles.less_than_three.rules import Problem, Rules, plan_identity, planned
from boardpuzzles.puzzles.less_than_three.search import _first_rows, _kernel_module, _layout, _run, group_order
from boardpuzzles.puzzles.less_than_three.store import _OneColourStore

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


def _bitsets(boards: np.ndarray) -> np.ndarray:
    """Rows of cells (0/1) as rows of 64-bit words, cell x in word x // 64, bit x % 64."""
    m, cells = boards.shape
    words = max(1, (cells + 63) // 64)
    padded = np.zeros((m, words * 64), dtype=np.uint64)
    padded[:, :cells] = boards
    bits = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))
    packed: np.ndarray = (padded.reshape(m, words, 64) * bits).sum(axis=2, dtype=np.uint64).view(np.int64)
    return packed


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


def _burnside_terms(problem: Problem) -> list[tuple[str, tuple[int, ...], int]]:
    """The group's elements other than the identity, as (symmetry, cycle type of the relabelling,
    how many relabellings have that type); none unless classes are counted."""
    rules = problem.rules
    terms: list[tuple[str, tuple[int, ...], int]] = []
    if problem.unique:
        types = _cycle_types(rules.colours) if problem.swap_colours else [(1,) * rules.colours]
        for symmetry in rules.grid.group("dihedral"):
            if symmetry.label != "identity":
                terms.extend((symmetry.label, cycles, _permutations_of_type(cycles)) for cycles in types)
    return terms


def _stage_progress(outer: Progress | None, later: int) -> tuple[Progress, Progress]:
    """Progress callbacks for the two stages of a tuple count (the listing, then ``later``
    pieces of counting) that report the whole count to ``outer``."""
    first_stage = [0]

    def listing(done: int, total: int, partial: int) -> None:
        first_stage[0] = total
        if outer is not None:
            outer(done, total + later, 0)

    def counting(done: int, total: int, partial: int) -> None:
        if outer is not None:
            outer(first_stage[0] + done, first_stage[0] + total, partial)

    return listing, counting


class _OneColourList:
    """The one-colour solutions of a tuple count (rows of cells, 0/1) and the counts of its
    subtasks over them."""

    def __init__(self, boards: np.ndarray, one: Rules) -> None:
        self.boards = boards
        self.one = one
        self.items = _bitsets(boards)
        self.tag = hashlib.sha256(self.items.tobytes()).hexdigest()[:16]  # the plan is bound to this list
        self._first_only = np.zeros(len(self.items), dtype=np.int64)
        self._images: dict[str, np.ndarray] = {}

    def image_index(self, label: str) -> np.ndarray:
        """``index[a]``: the solution that symmetry ``label`` turns solution a into."""
        if label not in self._images:
            boards, grid = self.boards, self.one.grid
            where = {row.tobytes(): i for i, row in enumerate(boards)}
            symmetry = next(s for s in grid.group("dihedral") if s.label == label)
            perm = np.array(grid.permutation(symmetry), dtype=np.int64)
            moved = np.zeros_like(boards)
            moved[:, perm] = boards
            self._images[label] = np.array([where[row.tobytes()] for row in moved], dtype=np.int64)
        return self._images[label]

    def disjoint_tuples(self, colours: int, lo: int, hi: int, limits: Limits) -> int:
        """Ordered tuples of ``colours`` pairwise disjoint solutions whose least solution is
        among ``lo`` <= i < ``hi``."""
        positions = np.zeros(colours, dtype=np.int64)
        found = _selections(self.items, self._first_only, positions, lo, hi, limits)
        return found * math.factorial(colours)

    def fixed_tuples(self, label: str, cycles: tuple[int, ...], limits: Limits) -> int:
        """Tuples fixed by the symmetry ``label`` with a relabelling of cycle type ``cycles``."""
        boards, index = self.boards, self.image_index(label)
        lengths = sorted(set(cycles))
        blocks, groups = [], []
        for rank, length in enumerate(lengths):
            power = np.arange(len(boards))
            union = boards.copy()
            for _ in range(length - 1):
                power = index[power]
                union |= boards[power]
            power = index[power]  # g^length
            chosen = (power == np.arange(len(boards))) & (union.sum(axis=1) == length * self.one.per_colour)
            blocks.append(_bitsets(union[chosen]))
            groups.append(np.full(int(chosen.sum()), rank, dtype=np.int64))
        positions = np.array(sorted(lengths.index(c) for c in cycles), dtype=np.int64)
        block_items = np.concatenate(blocks)
        found = _selections(block_items, np.concatenate(groups), positions, 0, len(block_items), limits)
        for times in collections.Counter(cycles).values():
            found *= math.factorial(times)  # the blocks of equal length go to their cycles in any order
        return found


def _selections(items: np.ndarray, group: np.ndarray, positions: np.ndarray, lo: int, hi: int, limits: Limits) -> int:
    """The kernel's ``disjoint_selections``; a stop raises."""
    kernels = _kernel_module()
    found = kernels.disjoint_selections(items, group, positions, lo, hi, limits.flag)
    if found == kernels.STOPPED:
        limits.raise_stop()
    return int(found)


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
    terms = _burnside_terms(problem)
    listing, counting = _stage_progress(limits.progress, TUPLE_PIECES + len(terms))
    try:
        solutions = _OneColourList(one_colour_solutions(one, limits, listing), one)
    except TimeLimitReached:
        raise TimeLimitReached() from None  # nothing of this count is counted yet

    @planned
    def work(spec: tuple[Any, ...], limits: Limits) -> int:
        _, _, term, *rest = spec
        if term != "identity":
            return solutions.fixed_tuples(term, tuple(rest[0]), limits)
        lo, hi = rest
        return solutions.disjoint_tuples(rules.colours, lo, hi, limits)

    tag = solutions.tag
    tasks = [Subtask((rules, tag, "identity", lo, hi)) for lo, hi in _piece_bounds(len(solutions.items), TUPLE_PIECES)]
    tasks += [Subtask((rules, tag, label, cycles), weight) for label, cycles, weight in terms]
    unit = group_order(rules, problem.swap_colours) if problem.unique else 1
    where = {"identity": plan_identity(problem)}
    return run_subtasks(work, tasks, _inner_limits(limits, counting, True), unit=unit, **where)
