"""Counting and listing pick-up orders with the memoised kernel, and the layouts of a square with
exactly one order."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.errors import BoardPuzzlesError, SizeError, excerpt
from boardpuzzles.grid import Cell
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.parallel import Subtask, run_subtasks
from boardpuzzles.protocol import dataclass_json
from boardpuzzles.puzzles.goishi.rules import (
    DIRECTIONS,
    MAX_STONES,
    NAME,
    NO_DIRECTION,
    Order,
    Puzzle,
    arrival,
    as_puzzle,
    first_problem,
)

# ---------------------------------------------------------------- tables and searching
#: Memo slots a kernel may grow its table to (3 int64 each: 2**22 slots is 96 MiB).
MAX_MEMO_SLOTS = 1 << 22
#: A count with no cap stops here, so that it cannot overflow a 64-bit counter.
COUNT_CEILING = 10**18


def load_kernels() -> Any:
    from boardpuzzles._kernels import goishi as kernels  # numba loads only when a search runs

    return kernels


def signed_word(word: int) -> int:
    """A 64-bit pattern as the int64 numpy stores (bit 63 is the sign)."""
    return word - (1 << 64) if word >= 1 << 63 else word


@functools.cache
def stone_bits() -> np.ndarray:
    """One bit per stone, as the kernels take them (``STONE_BITS``; made on first use, so that
    importing the puzzle loads no numpy)."""
    return np.array([signed_word(1 << i) for i in range(MAX_STONES)], dtype=np.int64)


def __getattr__(name: str) -> Any:
    if name == "STONE_BITS":
        return stone_bits()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.lru_cache(maxsize=64)
def tables(puzzle: Puzzle) -> tuple[np.ndarray, np.ndarray]:
    """``ray`` (stones x 4 masks of the stones in each direction) and ``bit`` for the kernels."""
    if puzzle.size > MAX_STONES:
        raise SizeError(
            f"the board has {puzzle.size} stones; the solver handles at most {MAX_STONES} "
            f"(one bit per stone in a 64-bit word)"
        )
    index = {cell: i for i, cell in enumerate(puzzle.stones)}
    grid = puzzle.grid
    ray = np.zeros((puzzle.size, 4), dtype=np.int64)
    for i, cell in enumerate(puzzle.stones):
        for d, direction in enumerate(DIRECTIONS):
            word = 0
            for other in grid.ray(cell, direction):
                j = index.get(other)
                if j is not None:
                    word |= 1 << j
            ray[i, d] = signed_word(word)
    bit = np.array([signed_word(1 << i) for i in range(puzzle.size)], dtype=np.int64)
    return ray, bit


def _roots(puzzle: Puzzle, prefix: Sequence[Cell]) -> tuple[np.ndarray, Order]:
    """The kernel's root states and the part of the order they leave out: every stone as the
    start, or the state at the end of ``prefix``."""
    index = {cell: i for i, cell in enumerate(puzzle.stones)}
    full = (1 << puzzle.size) - 1
    if not prefix:
        roots = [(signed_word(full ^ (1 << i)), i, NO_DIRECTION) for i in range(puzzle.size)]
        return np.array(roots, dtype=np.int64).reshape(-1, 3), ()
    problem = first_problem(puzzle, prefix)
    if problem is not None and problem.step:
        raise BoardPuzzlesError(f"the start of the order is illegal: {problem}")
    mask = full
    for cell in prefix:
        mask ^= 1 << index[cell]
    root = (signed_word(mask), index[prefix[-1]], arrival(puzzle, prefix))
    return np.array([root], dtype=np.int64), tuple(prefix[:-1])


def solutions(puzzle: Puzzle | str, limits: Limits | None = None, *, prefix: Sequence[Cell] = ()) -> Iterator[Order]:
    """Every order (the ones that begin with ``prefix``, if given): start stones in row-major
    order, then directions north, east, south, west at each stone. Lazy: the kernel resumes
    where it stopped each time more are wanted."""
    limits = limits if limits is not None else Limits()
    puzzle = as_puzzle(puzzle)
    if not prefix and puzzle.size <= PLAIN_MAX_STONES:
        yield from plain_solutions(puzzle, limits)
        return
    ray, bit = tables(puzzle)
    kernels = load_kernels()
    roots, head = _roots(puzzle, prefix)
    keys, aux, vals, used = kernels.new_table()
    stack = kernels.new_stack(puzzle.size)
    out = np.zeros((1024, puzzle.size), dtype=np.int64)
    length = puzzle.size - len(head)
    wanted = 1  # the first answer comes back as soon as it is found; then bigger batches
    while True:
        status, written, keys, aux, vals = kernels.enumerate_orders(
            ray, bit, roots, stack, out, wanted, keys, aux, vals, used, MAX_MEMO_SLOTS, limits.flag
        )
        for i in range(written):
            yield head + tuple(puzzle.stones[j] for j in out[i, :length].tolist())
        if status == kernels.DONE:
            return
        if status == kernels.HALTED:
            limits.raise_stop()
        wanted = min(out.shape[0], wanted * 4)


#: Up to this many stones, :func:`solutions` searches in plain Python (:func:`plain_solutions`):
#: a few milliseconds, less than loading numba takes.
PLAIN_MAX_STONES = 20


def plain_solutions(puzzle: Puzzle | str, limits: Limits) -> Iterator[Order]:
    """Every order, in the order of :func:`solutions`, by plain Python: depth-first from every
    start stone, directions north, east, south, west, remembering the positions (stones left, the
    stone reached, the way it was reached) that lead to no complete order. The same answers as
    the kernel gives, for the small boards where starting the kernels would take longer."""
    puzzle = as_puzzle(puzzle)
    stones = puzzle.stones
    index = {cell: i for i, cell in enumerate(stones)}
    grid = puzzle.grid
    rays = [
        [[index[other] for other in grid.ray(cell, direction) if other in index] for direction in DIRECTIONS]
        for cell in stones
    ]
    dead: set[tuple[int, int, int]] = set()
    path: list[int] = []
    steps = 0

    def extend(left: int, at: int, came: int) -> Iterator[Order]:
        nonlocal steps
        if not left:
            yield tuple(stones[i] for i in path)
            return
        if (left, at, came) in dead:
            return
        steps += 1
        if steps & 0xFFF == 0:
            limits.check()
        found = False
        for direction in range(4):
            if came != NO_DIRECTION and direction == (came + 2) % 4:  # never straight back
                continue
            nearest = next((j for j in rays[at][direction] if left >> j & 1), None)
            if nearest is None:
                continue
            path.append(nearest)
            for order in extend(left ^ (1 << nearest), nearest, direction):
                found = True
                yield order
            path.pop()
        if not found:
            dead.add((left, at, came))

    everything = (1 << len(stones)) - 1
    for start in range(len(stones)):
        path.append(start)
        yield from extend(everything ^ (1 << start), start, NO_DIRECTION)
        path.pop()


class Counter:
    """Counts of orders of one puzzle under one cap, sharing the kernel's memo between calls:
    asking about many prefixes of the same puzzle (as the generator does) reuses what earlier
    questions learned. The limits stop every call."""

    def __init__(self, puzzle: Puzzle | str, cap: int | None = None, limits: Limits | None = None) -> None:
        self.puzzle = as_puzzle(puzzle)
        cap = COUNT_CEILING if cap is None else cap
        if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
            raise BoardPuzzlesError(f"the cap must be a whole number >= 1, got {excerpt(cap)}")
        self.cap = min(cap, COUNT_CEILING)
        self.limits = limits if limits is not None else Limits()
        self.ray, self.bit = tables(self.puzzle)
        self.kernels = load_kernels()
        self._keys, self._aux, self._vals, self._used = self.kernels.new_table()

    def __call__(self, prefix: Sequence[Cell] = ()) -> int:
        """The number of orders beginning with ``prefix`` (all orders for an empty prefix)."""
        roots, _ = _roots(self.puzzle, prefix)
        total, self._keys, self._aux, self._vals = self.kernels.count_orders(
            self.ray,
            self.bit,
            roots,
            self.cap,
            self._keys,
            self._aux,
            self._vals,
            self._used,
            MAX_MEMO_SLOTS,
            self.limits.flag,
        )
        if total == self.kernels.STOPPED:
            self.limits.raise_stop()
        return int(total)


def count(puzzle: Puzzle | str, limits: Limits | None = None) -> int:
    """The number of orders (refused beyond 10^18 from one start stone, the counter's reach). One
    subtask per start stone, run by :func:`boardpuzzles.parallel.run_subtasks` under the limits:
    threads, progress, time limit, checkpoint (bound to the stones), scheduler."""
    limits = limits if limits is not None else Limits()
    puzzle = as_puzzle(puzzle)
    tables(puzzle)  # refuse a board the kernel cannot hold before any subtask starts

    def work(spec: tuple[Cell], limits: Limits) -> int:
        found = Counter(puzzle, None, limits)(spec)
        if found >= COUNT_CEILING:  # the 64-bit counter is full: the number would be a lower bound
            raise SizeError(f"more than {COUNT_CEILING:.0e} orders start on one stone: beyond the counter")
        return found

    subtasks = [Subtask((stone,)) for stone in puzzle.stones]
    return run_subtasks(work, subtasks, limits, identity=problem_identity(puzzle))


def count_at_most(puzzle: Puzzle | str, cap: int, limits: Limits | None = None, *, prefix: Sequence[Cell] = ()) -> int:
    """The number of orders (beginning with ``prefix``), or ``cap`` when there are at least that
    many, in one search whose memo every start shares: ``count_at_most(p, 2) == 1`` proves a
    puzzle unique cheaply."""
    return Counter(puzzle, cap, limits)(prefix)


def solve(puzzle: Puzzle | str, limits: Limits | None = None) -> Order | None:
    """The first order (see :func:`solutions`), or None."""
    return next(solutions(puzzle, limits), None)


def first_two(puzzle: Puzzle | str) -> tuple[Order | None, Order | None]:
    """The first two orders: (None, None) for no solution, (a, None) when ``a`` is the only one."""
    found = list(itertools.islice(solutions(puzzle), 2))
    return (found + [None, None])[0], (found + [None, None])[1]


def is_unique(puzzle: Puzzle | str, limits: Limits | None = None) -> bool:
    return count_at_most(puzzle, 2, limits) == 1


# ---------------------------------------------------------------- layouts with one order


def turned(row: int, col: int, side: int, symmetry: int) -> tuple[int, int]:
    """(row, col) of a side x side square under one of its 8 symmetries (0 is the identity)."""
    for _ in range(symmetry & 3):
        row, col = col, side - 1 - row
    return (row, side - 1 - col) if symmetry & 4 else (row, col)


#: The largest square :func:`unique_layout_counts` takes (2^36 layouts: about 10 core-hours).
MAX_LAYOUT_SIDE = 6
#: A count of layouts is split into at most this many subtasks (mask ranges), each checkpointed.
LAYOUT_SUBTASKS = 1 << 11
#: Layouts each kernel call looks at (then the time limit and Ctrl-C are looked at too).
LAYOUT_CHUNK = 1 << 18
#: A subtask's result packs its counts into one integer, a field of this many bits per count
#: (no count can reach 2^36, the number of layouts of 6x6).
LAYOUT_FIELD_BITS = 64
#: Bumped when what a subtask of :func:`unique_layout_counts` means changes (see parallel.plan_digest).
PLAN_VERSIONS = {"_layout_piece": 1}


@dataclass(frozen=True)
class LayoutCounts:
    """How many layouts of stones on an n x n board have exactly one pick-up order, by number of
    stones: ``by_size[k]`` in all, ``classes_by_size[k]`` up to the 8 symmetries of the square.
    The empty board is not counted; one stone is (its order is itself)."""

    n: int
    by_size: tuple[int, ...]
    classes_by_size: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.by_size)

    @property
    def classes(self) -> int:
        return sum(self.classes_by_size)


def square_images(n: int) -> np.ndarray:
    """``images[t, p]``: where symmetry ``t`` (0 the identity; see ``turned``) sends point ``p``
    of the n x n board (``p = n * row + col``)."""
    images = np.zeros((8, n * n), dtype=np.int64)
    for t in range(8):
        for p in range(n * n):
            r, c = turned(*divmod(p, n), n, t)
            images[t, p] = r * n + c
    return images


def image_bytes(n: int) -> np.ndarray:
    """``table[t, g, v]``: the image under symmetry ``t`` of the stones ``v`` (a byte) on the points
    ``8g .. 8g + 7`` of the n x n board; the image of a whole layout is the OR over its bytes."""
    images = square_images(n)
    groups = (n * n + 7) // 8
    table = np.zeros((8, groups, 256), dtype=np.int64)
    for t in range(8):
        for g in range(groups):
            for v in range(256):
                table[t, g, v] = sum(
                    1 << int(images[t, p]) for b in range(8) if v >> b & 1 and (p := 8 * g + b) < n * n
                )
    return table


def layout_identity(n: int) -> dict[str, Any]:
    """What a checkpoint of :func:`unique_layout_counts` is bound to."""
    return {"puzzle": NAME, "problem": {"unique_layouts_of_square": n}}


@functools.lru_cache(maxsize=8)
def _image_bytes(n: int) -> np.ndarray:
    return image_bytes(n)


def _pack(by_size: np.ndarray, classes: np.ndarray) -> int:
    fields = [*by_size.tolist(), *classes.tolist()]
    return sum(int(v) << (LAYOUT_FIELD_BITS * i) for i, v in enumerate(fields))


def unpack_layout_counts(n: int, packed: int) -> LayoutCounts:
    """The counts that a subtask (or a sum of subtasks) of :func:`unique_layout_counts` packed."""
    size = n * n + 1
    field = (1 << LAYOUT_FIELD_BITS) - 1
    fields = [(packed >> (LAYOUT_FIELD_BITS * i)) & field for i in range(2 * size)]
    return LayoutCounts(n, tuple(fields[:size]), tuple(fields[size:]))


def _layout_piece(spec: tuple[int, int, int], limits: Limits) -> int:
    """One subtask of :func:`unique_layout_counts`: the masks ``lo .. hi - 1``, packed."""
    n, lo, hi = spec
    kernels = load_kernels()
    table = _image_bytes(n)
    by_size = np.zeros(n * n + 1, dtype=np.int64)
    classes = np.zeros(n * n + 1, dtype=np.int64)
    while lo < hi:
        limits.check()
        end = min(hi, lo + LAYOUT_CHUNK)
        if kernels.unique_layout_classes(n, lo, end, table, stone_bits(), by_size, classes, limits.flag) < end:
            limits.raise_stop()
        lo = end
    return _pack(by_size, classes)


def unique_layout_counts(n: int, limits: Limits | None = None) -> LayoutCounts:
    """The layouts of the n x n board with exactly one pick-up order: see :class:`LayoutCounts`.
    One layout of each class of the 8 symmetries is searched (the kernel with cap 2), in up to
    :data:`LAYOUT_SUBTASKS` subtasks over ``limits``' jobs, checkpoint and time limit. At the time
    limit :class:`TimeLimitReached` carries the layouts found so far (a lower bound) as ``partial``."""
    limits = limits if limits is not None else Limits()
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_LAYOUT_SIDE:
        raise SizeError(
            f"the side must be a whole number from 1 to {MAX_LAYOUT_SIDE} (7x7 has 2^49 layouts: "
            f"out of reach), got {excerpt(n)}"
        )
    end = 1 << (n * n)
    step = max(1, end // LAYOUT_SUBTASKS)
    subtasks = [Subtask((n, lo, min(end, lo + step))) for lo in range(0, end, step)]
    try:
        packed = run_subtasks(_layout_piece, subtasks, limits, identity=layout_identity(n))
    except TimeLimitReached as stop:
        raise TimeLimitReached(unpack_layout_counts(n, stop.partial).total, stop.done, stop.total) from None
    return unpack_layout_counts(n, packed)


def problem_identity(puzzle: Puzzle) -> dict[str, Any]:
    """What a count's checkpoint is bound to: the stones themselves (as ``PUZZLE.problem_identity``
    gives it, which the tests hold equal), not the file they came from."""
    return {"puzzle": NAME, "problem": dataclass_json(puzzle)}
