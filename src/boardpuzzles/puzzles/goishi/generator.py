"""Making puzzles with exactly one pick-up order: grow a seed walk, or join two halves, and prove
the result unique with the counter."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from boardpuzzles._lazy import numpy as np
from boardpuzzles.compiling import search_seconds
from boardpuzzles.errors import BoardPuzzlesError, SizeError, check_seed, excerpt
from boardpuzzles.grid import Cell, Grid
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.puzzles.goishi.rules import (
    DIRECTIONS,
    MAX_STONES,
    NO_DIRECTION,
    Order,
    Puzzle,
    check,
    legal_moves,
)
from boardpuzzles.puzzles.goishi.search import MAX_MEMO_SLOTS, Counter, load_kernels, solve, stone_bits, turned


# ---------------------------------------------------------------- generating
@dataclass(frozen=True)
class Generated:
    puzzle: Puzzle
    order: Order
    regrowths: int  # (regrow) walks regrown from a point of ambiguity
    restarts: int  # walks begun afresh
    seconds: float
    method: str = "grow"
    checks: int = 0  # (grow) grown layouts the counter judged
    backtracks: int = 0  # (grow) dead ends backed out of


#: How strongly a random walk favours steps over picked stones, and short steps (``regrow``).
JUMP_WEIGHT = 2.0
DISTANCE_POWER = 1.0
#: The generators ``generate`` knows (see its docstring).
METHODS = ("auto", "grow", "join", "regrow")


class GenerationTimeout(Exception):
    """No unique puzzle was found before the time limit (not bad input: the run gave up). It
    keeps what the run did, as :class:`Generated` does for a puzzle made."""

    def __init__(
        self,
        message: str,
        *,
        method: str = "",
        seconds: float = 0.0,
        restarts: int = 0,
        regrowths: int = 0,
        checks: int = 0,
        backtracks: int = 0,
    ) -> None:
        super().__init__(message)
        self.method = method
        self.seconds = seconds
        self.restarts = restarts
        self.regrowths = regrowths
        self.checks = checks
        self.backtracks = backtracks


#: The most stones a layout with exactly one order has on the n x n board, n = 1 to 6, and the
#: fewest beyond a single stone: the exhaustive counts of ``goishi layouts N`` (docs/records.md;
#: 6 from records/goishi-layouts-6.db), which the tests check against the counter.
MOST_UNIQUE_STONES = {1: 1, 2: 1, 3: 1, 4: 10, 5: 15, 6: 21}
FEWEST_UNIQUE_STONES = 7  # beyond a single stone: none of 2 to 6 stones on 6x6, so on no board


def impossible_request(rows: int, cols: int, stones: int) -> str | None:
    """Why no ``rows`` x ``cols`` layout of ``stones`` stones has exactly one order, where that
    can be proven at once; None where it may exist (which is not a promise that it does).

    The proofs: on one line the walk runs from end to end, either way round; a full board is
    symmetric, so each order's mirror image is another; and empty rows and columns change no
    order, so a layout fills at most ``stones`` rows and columns of a square board of
    ``max(min(rows, stones), min(cols, stones))`` a side, whose exhaustive count up to 6 a side
    (MOST_UNIQUE_STONES) says which numbers of stones ever have one order there."""
    if stones < 2:
        return None
    board = f"{rows}x{cols} board"
    if rows == 1 or cols == 1:
        return (
            f"no {stones} stones on a {board} have exactly one order: on one line the walk runs from one "
            "end to the other, and back the other way just as well"
        )
    if stones == rows * cols:
        return (
            f"no full {board} has exactly one order: it is symmetric, so each order's mirror image is "
            f"another; use fewer than {stones} stones"
        )
    if stones < FEWEST_UNIQUE_STONES:
        return (
            f"no layout of {stones} stones has exactly one order (2 to {FEWEST_UNIQUE_STONES - 1} stones never do, "
            f"as `goishi layouts 6` counts): use 1, or {FEWEST_UNIQUE_STONES} or more"
        )
    side = max(min(rows, stones), min(cols, stones))  # the stones fill at most this many rows and columns
    most = MOST_UNIQUE_STONES.get(side)
    if most is not None and stones > most:
        where = "" if rows == cols == side else f"without its empty rows and columns it fits {side}x{side}, and "
        return (
            f"no layout of {stones} stones on the {board} has exactly one order: {where}`goishi layouts {side}` "
            f"counts every layout of {side}x{side} and finds none with more than {most} stone{'s' if most != 1 else ''}"
        )
    return None


def _random_walk(rows: int, cols: int, stones: int, rng: random.Random, walk: list[Cell]) -> list[Cell] | None:
    """Extend ``walk`` by random legal steps to ``stones`` stones, or None if it gets stuck.

    A new stone may not lie on a point an earlier step passed over (that stone would have been
    on the board then and blocked the step); the step to it may pass over earlier stones, which
    are already picked up. Steps that pass over picked stones are favoured: a walk without them
    can usually be walked backwards too, so it would not be unique."""
    grid = Grid.shared(rows, cols)
    walk = list(walk)
    placed = set(walk)
    crossed: set[Cell] = set()
    for a, b in itertools.pairwise(walk):
        crossed.update(_between(grid, a, b))
    if not walk:
        walk.append(rng.randrange(rows * cols))
        placed.add(walk[0])
    while len(walk) < stones:
        arrived = _direction(grid, walk[-2], walk[-1]) if len(walk) >= 2 else NO_DIRECTION
        options: list[tuple[Cell, float]] = []
        for d, direction in enumerate(DIRECTIONS):
            if arrived != NO_DIRECTION and d == arrived ^ 2:
                continue
            jumped = 0
            for distance, cell in enumerate(grid.ray(walk[-1], direction), start=1):
                if cell in placed or cell in crossed:
                    jumped += 1
                else:
                    options.append((cell, (1 + JUMP_WEIGHT * jumped) / distance**DISTANCE_POWER))
        if not options:
            return None
        cell = rng.choices([o for o, _ in options], weights=[w for _, w in options])[0]
        crossed.update(_between(grid, walk[-1], cell))
        walk.append(cell)
        placed.add(cell)
    return walk


def _direction(grid: Grid, a: Cell, b: Cell) -> int:
    """The direction (index in DIRECTIONS) of the step from a to b along a row or a column."""
    (r0, c0), (r1, c1) = grid.coords(a), grid.coords(b)
    return DIRECTIONS.index(((r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0)))


def _between(grid: Grid, a: Cell, b: Cell) -> list[Cell]:
    """The points strictly between a and b on their row or column."""
    ray = grid.ray(a, DIRECTIONS[_direction(grid, a, b)])
    return list(ray[: ray.index(b)])


def first_ambiguity(puzzle: Puzzle, walk: Sequence[Cell], counter: Counter | None = None) -> int | None:
    """The first point of ambiguity of a complete order ``walk``: the least ``i`` such that some
    order begins with ``walk[:i]`` and then picks another stone than ``walk[i]`` (``i = 0``:
    another start works). None when ``walk`` is the only order, so the puzzle is unique."""
    counter = counter or Counter(puzzle, 1)
    walk = tuple(walk)
    for i in range(len(walk)):
        for stone, _ in legal_moves(puzzle, walk[:i]):
            if stone != walk[i] and counter(walk[:i] + (stone,)):
                return i
    return None


#: On boards up to 5x5 the smallest layouts with exactly one order, one stone aside, have 7 stones
#: (every layout of 2 to 6 stones there has none or several: see docs/methods/goishi.md and
#: :func:`unique_layout_counts`). These are the 50 of 4x4 up to the 8
#: symmetries (7 to 10 stones; 400 layouts in all), as 16-bit masks (bit 4 * row + col), each the
#: least of its class: the grower starts from one of them, spread over the board.
SEEDS = (
    719, 764, 847, 1012, 3884, 3892, 4815, 4831, 4860, 5017, 5021, 5081, 5085, 5529, 5531, 5561, 5563,
    6041, 6043, 6451, 6485, 6487, 6517, 6519, 6997, 6999, 7215, 7410, 7471, 7475, 7541, 7543, 7666,
    7980, 8021, 8023, 8130, 8444, 8655, 8671, 8700, 8956, 9130, 9134, 9194, 9198, 11295, 12060,
    13455, 14415,
)  # fmt: skip
SEED_SIDE = 4
#: The kinds of the grower's options: a new first stone, a new last stone, a step split in two;
#: each with no later step passing over the new stone, or with some (jumps).
GROW_KINDS = ("first", "first, jumped", "last", "last, jumped", "split", "split, jumped")
#: An option's weight: 1, plus GROW_JUMP for each later step that passes over the new stone;
#: times GROW_MIDDLE for a split. (Measured on 19x19 with 60 stones: late in a long walk, new first
#: stones almost never stay unique while about one split in ten does; but favouring splits, or
#: learning each kind's success rate as the walk grows, made the generator no faster.)
GROW_JUMP = 16.0
GROW_MIDDLE = 0.1
#: Dead ends a grown walk may back out of (by 1 to GROW_BACK stones) before it is begun afresh.
GROW_PATIENCE = 60
GROW_BACK = 3
#: Options of one walk tried before it counts as a dead end (the rest stay for a later visit).
GROW_TRIES = 30
#: Steps of the counter's search after which a grown layout is passed over, unjudged: most proofs
#: of uniqueness take a few hundred, while finding a second order can take a hundred thousand.
GROW_STEPS = 20_000
#: ``auto`` joins two grown halves (``join``) from this many stones on, where the board allows.
JOIN_FROM = 48
#: Random splits of the columns ``join`` tries before it begins afresh.
JOIN_TRIES = 20


def _is_unique_layout(rows: int, cols: int, cells: Sequence[Cell], limits: Limits, max_steps: int = 0) -> bool:
    """Whether the stones at ``cells`` have exactly one order (the counter's proof, cap 2); False
    too when the proof would take more than ``max_steps`` steps of the search (0: no limit)."""
    found = np.array(sorted(cells), dtype=np.int64)
    kernels = load_kernels()
    bits = stone_bits()[: len(found)]
    total = kernels.count_layout(rows, cols, found, bits, 2, MAX_MEMO_SLOTS, limits.flag, max_steps)
    if total == kernels.STOPPED:
        limits.raise_stop()
    return bool(total == 1)


def _seed_walk(rows: int, cols: int, stones: int, rng: random.Random) -> list[Cell]:
    """One of the SEEDS, turned at random, on 4 random rows and 4 random columns of the board
    (spreading a layout over more rows and columns keeps its orders: only the order of the
    lines matters), with its order."""
    mask = rng.choice([m for m in SEEDS if m.bit_count() <= stones])
    symmetry = rng.randrange(8)
    rows_used = sorted(rng.sample(range(rows), SEED_SIDE))
    cols_used = sorted(rng.sample(range(cols), SEED_SIDE))
    cells = []
    for bit in range(SEED_SIDE * SEED_SIDE):
        if mask >> bit & 1:
            r, c = turned(*divmod(bit, SEED_SIDE), SEED_SIDE, symmetry)
            cells.append(rows_used[r] * cols + cols_used[c])
    order = solve(Puzzle(rows, cols, tuple(cells)))
    if order is None:  # pragma: no cover - every seed is tested
        raise RuntimeError("a seed layout has no order")
    return list(order)


def _growth_options(rows: int, cols: int, walk: Sequence[Cell]) -> list[tuple[int, Cell, float, int]]:
    """Every way to add one stone to ``walk`` (two stones or more) that keeps it legal, as
    (position in the walk, point, weight, kind): the kind is one of GROW_KINDS, the weight
    GROW_JUMP times the number of later steps that pass over the new stone, plus 1:

    * before the first stone, on one of its rays other than the way the walk leaves it, up to the
      nearest stone (the new stone is picked first, so it blocks nothing; later steps that pass
      over its point jump over it);
    * after the last stone, on one of its rays other than straight back, on a point no step
      passes over (it stays on the board to the end);
    * inside a step, on a point no earlier step passes over: the step is split in two, straight on.
    """
    grid = Grid.shared(rows, cols)
    stones = set(walk)
    first_crossing: dict[Cell, int] = {}
    crossings: dict[Cell, int] = {}
    inside = [_between(grid, a, b) for a, b in itertools.pairwise(walk)]
    for step, points in enumerate(inside):
        for x in points:
            first_crossing.setdefault(x, step)
            crossings[x] = crossings.get(x, 0) + 1
    options: list[tuple[int, Cell, float, int]] = []
    leaves = _direction(grid, walk[0], walk[1])
    for d, direction in enumerate(DIRECTIONS):
        if d == leaves:
            continue
        for p in grid.ray(walk[0], direction):
            if p in stones:
                break
            jumps = crossings.get(p, 0)
            options.append((0, p, 1 + GROW_JUMP * jumps, 0 + (jumps > 0)))
    came = _direction(grid, walk[-2], walk[-1])
    for d, direction in enumerate(DIRECTIONS):
        if d == came ^ 2:
            continue
        jumped = 0
        for q in grid.ray(walk[-1], direction):
            if q in stones:
                jumped += 1
            elif q not in first_crossing:
                options.append((len(walk), q, 1 + GROW_JUMP * jumped, 2 + (jumped > 0)))
    for step, points in enumerate(inside):
        for x in points:
            if x not in stones and first_crossing[x] == step:
                jumps = crossings[x] - 1
                options.append((step + 1, x, GROW_MIDDLE * (1 + GROW_JUMP * jumps), 4 + (jumps > 0)))
    return options


@dataclass
class _Tally:
    checks: int = 0
    backtracks: int = 0
    restarts: int = 0
    regrowths: int = 0


def _grow(rows: int, cols: int, stones: int, rng: random.Random, limits: Limits, tally: _Tally) -> list[Cell] | None:
    """A walk of ``stones`` stones that is the only order of its stones, or None (give up and
    begin afresh). It starts from a seed with exactly one order and adds one stone at a time,
    keeping only layouts the counter proves unique: the options of each walk are tried in a
    random order weighted by :func:`_growth_options`; when none of the next GROW_TRIES is unique
    (a dead end), the walk backs out of the last 1 to GROW_BACK stones and tries the next options
    there."""
    levels: list[tuple[list[Cell], Iterator[tuple[int, Cell, float, int]] | None]] = [
        (_seed_walk(rows, cols, stones, rng), None)
    ]
    dead_ends = 0
    while True:
        walk, pending = levels[-1]
        if len(walk) == stones:
            return walk
        if pending is None:
            options = _growth_options(rows, cols, walk)
            keys = [rng.random() ** (1 / weight) for _, _, weight, _ in options]  # Efraimidis-Spirakis
            pending = iter([options[i] for i in sorted(range(len(options)), key=keys.__getitem__, reverse=True)])
            levels[-1] = (walk, pending)
        grown = None
        for tries, (position, point, _, _) in enumerate(pending):
            if tries == GROW_TRIES:
                break
            limits.check()
            candidate = walk[:position] + [point] + walk[position:]
            tally.checks += 1
            if _is_unique_layout(rows, cols, candidate, limits, GROW_STEPS):
                grown = candidate
                break
        if grown is not None:
            levels.append((grown, None))
            continue
        dead_ends += 1
        tally.backtracks += 1
        if dead_ends > GROW_PATIENCE or len(levels) == 1:
            return None
        del levels[len(levels) - rng.randint(1, min(GROW_BACK, len(levels) - 1)) :]


def _halves(rows: int, cols: int, stones: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(rows, columns, stones) of ``join``'s halves: A on (rows + 1) // 2 rows and (cols + 1) // 2
    columns, B on the other columns and rows plus one; the stones in proportion to the areas."""
    rows_a, cols_a = (rows + 1) // 2, (cols + 1) // 2
    rows_b, cols_b = rows + 1 - rows_a, cols - cols_a
    stones_a = round(stones * rows_a * cols_a / (rows_a * cols_a + rows_b * cols_b))
    return (rows_a, cols_a, stones_a), (rows_b, cols_b, stones - stones_a)


def _join_fits(rows: int, cols: int, stones: int) -> bool:
    """Whether ``join`` can split the board and the stones into two halves that ``grow`` handles."""
    seeds = min(m.bit_count() for m in SEEDS)
    return all(min(r, c) >= SEED_SIDE and seeds <= k <= r * c // 2 for r, c, k in _halves(rows, cols, stones))


def _join(rows: int, cols: int, stones: int, rng: random.Random, limits: Limits, tally: _Tally) -> list[Cell] | None:
    """Two walks grown apart (each the only order of its stones, on the boards of
    :func:`_halves`), laid on disjoint rows and columns but for one row, where A's last stone and
    B's first one meet; or None (begin afresh). B is grown again (up to JOIN_TRIES times) until
    its first stone is alone in its row.

    The result is again the only order, when B's first stone is alone in its row of B and the
    step from A's last stone to it does not turn back: A and B then share no line but that row, in
    which B has one stone, so an order crosses between them once, at that stone; A must come
    first (B's only order starts there, so none ends there), and each part is its own only order.
    The counter proves it all the same."""
    (rows_a, cols_a, stones_a), (rows_b, cols_b, stones_b) = _halves(rows, cols, stones)
    a = _grow(rows_a, cols_a, stones_a, rng, limits, tally)
    if a is None:
        return None
    for _ in range(JOIN_TRIES):
        b = _grow(rows_b, cols_b, stones_b, rng, limits, tally)
        if b is not None and all(cell // cols_b != b[0] // cols_b for cell in b[1:]):
            break  # B's first stone is alone in its row of B
    else:
        return None
    (i, a_col), (j, b_col) = divmod(a[-1], cols_a), divmod(b[0], cols_b)
    last_step = _direction(Grid.shared(rows_a, cols_a), a[-2], a[-1])
    for _ in range(JOIN_TRIES):
        limits.check()
        cols_of_a = sorted(rng.sample(range(cols), cols_a))
        cols_of_b = [c for c in range(cols) if c not in set(cols_of_a)]
        eastward = cols_of_b[b_col] > cols_of_a[a_col]
        if last_step != (3 if eastward else 1):  # the step to B's first stone must not turn back
            break
    else:
        return None
    above = rng.sample(range(i + j), i)
    below = rng.sample(range(i + j + 1, rows), rows_a - 1 - i)
    rows_of_a = sorted([*above, i + j, *below])
    rows_of_b = sorted(set(range(rows)) - set(rows_of_a) | {i + j})
    walk = [rows_of_a[c // cols_a] * cols + cols_of_a[c % cols_a] for c in a]
    walk += [rows_of_b[c // cols_b] * cols + cols_of_b[c % cols_b] for c in b]
    tally.checks += 1
    if not check(Puzzle(rows, cols, tuple(walk)), walk) or not _is_unique_layout(rows, cols, walk, limits):
        return None  # pragma: no cover - the argument above says this cannot happen
    return walk


def generate(
    rows: int,
    cols: int,
    stones: int,
    *,
    seed: int | None = None,
    limits: Limits | None = None,
    patience: int = 60,
    method: str = "auto",
) -> Generated:
    """A new puzzle with exactly one order. Same seed (and method), same puzzle. At the limits'
    time limit it raises :class:`GenerationTimeout` (with a hint), on Ctrl-C :class:`Interrupted`.

    ``grow`` starts from a small layout with exactly one order (one of SEEDS) and adds a stone at
    a time where the walk stays legal (before its first stone, after its last, or inside a step),
    keeping only layouts the counter proves unique, backing out of dead ends. ``join`` grows two
    halves on disjoint lines and joins them at one stone (see :func:`_join`): long walks are
    hard to grow (late in a walk few new stones keep it unique), two half-length ones are not.
    ``auto`` (the default) joins from JOIN_FROM stones on and grows below. ``regrow`` grows a
    random legal walk and regrows it from its first point of ambiguity (the walk is
    kept up to the stone where another choice would also succeed, and a new random tail is grown
    from there); a regrown walk is kept when its first ambiguity comes no earlier, and after
    ``patience`` regrowths without progress a fresh walk is begun. Where a board or a number of
    stones is too small for a method, the next one down is used (join, grow, regrow; see
    :func:`fallback_reason`); the result's ``method`` says which ran."""
    limits = limits if limits is not None else Limits()
    _check_request(rows, cols, stones, seed, patience, method)
    rng = random.Random(seed)
    started = time.perf_counter()
    tally = _Tally()
    method = _method_for(rows, cols, stones, method)
    try:
        while True:
            limits.check()
            walk = _one_walk(method, rows, cols, stones, rng, limits, tally, patience)
            if walk is not None:
                return Generated(
                    Puzzle(rows, cols, tuple(walk)),
                    tuple(walk),
                    tally.regrowths,
                    tally.restarts,
                    search_seconds(started),
                    method,
                    tally.checks,
                    tally.backtracks,
                )
            tally.restarts += 1
    except TimeLimitReached:
        raise GenerationTimeout(
            gave_up_message(rows, cols, stones, limits.time_limit or 0.0),
            method=method,
            seconds=search_seconds(started),
            restarts=tally.restarts,
            regrowths=tally.regrowths,
            checks=tally.checks,
            backtracks=tally.backtracks,
        ) from None


def _check_request(rows: int, cols: int, stones: int, seed: int | None, patience: int, method: str) -> None:
    """Refuses, with a clear message, what :func:`generate` cannot be asked."""
    for what, value in (("rows", rows), ("columns", cols), ("stones", stones)):
        if isinstance(value, int) and abs(value) > 10**9:  # before any message prints a huge number
            raise SizeError(f"the number of {what} is too large: {excerpt(value)}")
    Puzzle(rows, cols, (0,))  # validates the size
    if isinstance(stones, bool) or not isinstance(stones, int) or stones < 1:
        raise SizeError(f"the number of stones must be a whole number >= 1, got {excerpt(stones)}")
    if stones > min(MAX_STONES, rows * cols):
        raise SizeError(
            f"{stones} stones do not fit: at most {min(MAX_STONES, rows * cols)} on a {rows}x{cols} "
            f"board" + (f" (the solver handles {MAX_STONES})" if stones > MAX_STONES else "")
        )
    if seed is not None:
        check_seed(seed)  # random.Random would take -1 as 1, and any object by its hash
    impossible = impossible_request(rows, cols, stones)
    if impossible is not None:
        raise BoardPuzzlesError(impossible)
    if isinstance(patience, bool) or not isinstance(patience, int) or patience < 1:
        raise BoardPuzzlesError(f"patience must be a whole number >= 1, got {excerpt(patience)}")
    if method not in METHODS:
        raise BoardPuzzlesError(f"the method must be one of {', '.join(METHODS)}, got {excerpt(method)}")


def _method_for(rows: int, cols: int, stones: int, method: str) -> str:
    """The method that runs: ``auto`` chosen, and the next one down where the board or the stones
    are too few for the one asked (join, grow, regrow)."""
    grows = min(rows, cols) >= SEED_SIDE and stones >= min(m.bit_count() for m in SEEDS)
    if method == "auto":
        method = "join" if stones >= JOIN_FROM and _join_fits(rows, cols, stones) else "grow"
    if method == "join" and not _join_fits(rows, cols, stones):
        method = "grow"
    if method == "grow" and not grows:
        method = "regrow"
    return method


def fallback_reason(rows: int, cols: int, stones: int, method: str) -> str | None:
    """Why ``method`` cannot serve the request and which method :func:`generate` runs instead,
    in words ("join cannot serve ...: grow runs instead"); None when it runs as asked (and for
    ``auto``, which chooses)."""
    runs = _method_for(rows, cols, stones, method)
    if method == "auto" or runs == method:
        return None
    seeds = min(m.bit_count() for m in SEEDS)
    reasons = []
    if method == "join":
        (rows_a, cols_a, stones_a), (rows_b, cols_b, stones_b) = _halves(rows, cols, stones)
        reasons.append(
            f"join would split it into {rows_a}x{cols_a} with {stones_a} stones and {rows_b}x{cols_b} with "
            f"{stones_b}, and each half needs at least {SEED_SIDE} rows and {SEED_SIDE} columns and from "
            f"{seeds} stones to half its points"
        )
    if runs == "regrow":
        reasons.append(f"grow needs a board of at least {SEED_SIDE}x{SEED_SIDE} and at least {seeds} stones")
    return f"{method} cannot serve {stones} stones on {rows}x{cols} ({'; '.join(reasons)}): {runs} runs instead"


def _one_walk(
    method: str, rows: int, cols: int, stones: int, rng: random.Random, limits: Limits, tally: _Tally, patience: int
) -> list[Cell] | None:
    """One walk of ``method`` that is the only order of its stones, or None (begin afresh)."""
    if method == "join":
        return _join(rows, cols, stones, rng, limits, tally)
    if method == "grow":
        return _grow(rows, cols, stones, rng, limits, tally)
    return _regrow(rows, cols, stones, rng, limits, tally, patience)


def _regrow(
    rows: int, cols: int, stones: int, rng: random.Random, limits: Limits, tally: _Tally, patience: int
) -> list[Cell] | None:
    """One walk of the ``regrow`` method (see :func:`generate`), or None to begin afresh."""

    def ambiguity(walk: list[Cell]) -> int | None:
        puzzle = Puzzle(rows, cols, tuple(walk))
        return first_ambiguity(puzzle, walk, Counter(puzzle, 1, limits))

    walk = _random_walk(rows, cols, stones, rng, [])
    if walk is None:
        return None
    point = ambiguity(walk)
    stuck = 0
    while point is not None and stuck < patience:
        limits.check()
        grown = _random_walk(rows, cols, stones, rng, walk[: max(1, point)])
        tally.regrowths += 1
        if grown is None:
            stuck += 1
            continue
        new_point = ambiguity(grown)
        if new_point is None or new_point >= point:
            stuck = 0 if new_point is None or new_point > point else stuck + 1
            walk, point = grown, new_point
        else:
            stuck += 1
    return walk if point is None else None


def gave_up_message(rows: int, cols: int, stones: int, time_limit: float) -> str:
    """The give-up message, with a hint in the direction that may help: few stones for the board
    tend to leave several orders (more stones constrain the walk), many stones make long walks
    hard to find. No exact threshold is known, so the hint says "try", not "needs"."""
    points = rows * cols
    if stones >= MAX_STONES:
        hint = "try another seed, or fewer stones"
    elif 3 * stones <= points:
        hint = "try more stones (with few stones several orders tend to remain), or another seed"
    elif 3 * stones >= 2 * points:
        hint = "try fewer stones (a walk through this many is hard to find), a bigger board, or another seed"
    else:
        hint = "try a different number of stones (more or fewer) or another seed"
    return f"no unique {rows}x{cols} puzzle with {stones} stones found in {time_limit:g} s; {hint}"
