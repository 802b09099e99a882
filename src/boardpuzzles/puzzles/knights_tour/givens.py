"""Knight's tours as a pencil puzzle: some move numbers given, exactly one tour through them.

Glossary
--------
givens      squares already numbered, as ``{cell: move number}`` (1 is the first square); the
            player numbers the rest.
completion  a tour of the board (open, or closed when asked) that visits each given square at
            its number.
puzzle      givens with exactly one completion (:class:`Givens` keeps the problem, the givens and
            that tour).
difficulty  how many givens: the first number (and the last, on an open tour) is always given;
            ``hard`` is an irreducible set besides (taking away any other given number leaves
            more than one completion, or a search too long to tell within its bounds);
            ``medium`` and ``easy`` add back 20 % and 40 % of the other squares' numbers
            (rounded up), so the same seed gives the same tour at every level and a harder level
            never has more givens than an easier one.
gap         the moves between two consecutive given numbers (around the end of a closed tour),
            or after the last one to a free end.

How the completions are found (``completions``): the knight's paths that fill each gap are listed
(a path of the right length between its two numbered squares, no given square on it: knight's
distances on the empty board cut the listing short); then a tour is one path per gap with every
unnumbered square on exactly one path: an exact cover, solved by Knuth's Algorithm X in plain
Python, always branching on the gap or square with the fewest paths left. Every search is
bounded: ``max_options`` paths for one gap (and ten steps of listing per path allowed), and
``max_nodes`` steps of the cover (fixed numbers, so that the same seed makes the same puzzle on a
fast or a slow machine); past them it raises :class:`Undecided`. Its
:class:`~boardpuzzles.limits.Limits` bound it by time too.

Making one: a tour is found from the seed (Warnsdorff's rule, randomised ties, from a square
drawn from the seed, turned by a symmetry of the board drawn from it too); its first and last
numbers are given, then more of them: where a search found another completion, at a move where
the two differ; where it could not tell, in the middle of the longest gap. When the tour is the
only completion, every given that is not needed is taken away (in an order drawn from the seed),
and the level's extra numbers are added back.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass

from boardpuzzles.errors import BoardPuzzlesError, SizeError, check_seed, excerpt
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.knights_tour.finding import find
from boardpuzzles.puzzles.knights_tour.rules import Problem, Tour, _symmetries, knight_moves

#: The levels, easiest first, and the share of the tour's numbers beyond an irreducible set of
#: givens that each adds back.
DIFFICULTIES = ("easy", "medium", "hard")
EXTRA_SHARE = {"easy": 0.4, "medium": 0.2, "hard": 0.0}
#: The sizes offered (square boards), the default first; a closed tour needs an even side.
SIZES = (6, 5, 7, 8)
CLOSED_SIZES = (6, 8)
#: The steps of the exact cover one search of the generator may take, and the paths one gap
#: between given numbers may have, before the search counts as undecided.
MAX_NODES = 20_000
MAX_OPTIONS = 4_000
#: Listing the paths of a gap may take this many steps per path allowed.
WALK_SHARE = 10
#: How often (in steps) a search looks at its limits.
CHECK_EVERY = 1024


class Undecided(BoardPuzzlesError):
    """A search of the completions stopped at its bounds (``max_nodes``, ``max_options``) before
    it could tell."""


@dataclass(frozen=True)
class Givens:
    """A puzzle: the problem (board, open or closed), the given numbers (``{cell: move}``, moves
    from 1) and the one tour through them."""

    problem: Problem
    givens: Mapping[int, int]
    solution: Tour
    difficulty: str
    seed: int


def problem_for(size: int, closed: bool = False) -> Problem:
    """The puzzle's problem: tours of the size x size board (closed ones when ``closed``)."""
    sizes = CLOSED_SIZES if closed else SIZES
    if isinstance(size, bool) or not isinstance(size, int) or size not in sizes:
        kind = "closed " if closed else ""
        listed = ", ".join(f"{n}x{n}" for n in sorted(sizes))
        raise SizeError(f"a {kind}knight's tour puzzle is {listed}, got {excerpt(size)}")
    return Problem(size, size, closed=closed)


@dataclass(frozen=True)
class _Board:
    """The board's tables: each square's knight moves (a list and a bitmask) and the knight's
    distance between any two squares on the empty board."""

    squares: int
    moves: tuple[tuple[int, ...], ...]
    masks: tuple[int, ...]
    distance: tuple[tuple[int, ...], ...]


@functools.cache
def _board(rows: int, cols: int) -> _Board:
    targets, counts = knight_moves(rows, cols)
    squares = rows * cols
    moves = tuple(tuple(int(x) for x in targets[v, : counts[v]]) for v in range(squares))
    masks = tuple(sum(1 << x for x in m) for m in moves)
    distance = []
    for source in range(squares):  # breadth first from each square
        far = [-1] * squares
        far[source], level = 0, [source]
        while level:
            reached = []
            for v in level:
                for x in moves[v]:
                    if far[x] < 0:
                        far[x] = far[v] + 1
                        reached.append(x)
            level = reached
        distance.append(tuple(far))
    return _Board(squares, moves, masks, tuple(distance))


@dataclass(frozen=True)
class _Gap:
    """Moves between two given numbers: from square ``a`` (move ``first``) ``length`` moves on to
    square ``b``, or to any square when ``b`` is None (the tour's free end); ``backward`` gaps
    run from the first given number down to move 1."""

    first: int
    a: int
    b: int | None
    length: int
    backward: bool = False

    def moves(self) -> list[int]:
        """The move numbers of the squares a path of this gap fills, in its order."""
        step = -1 if self.backward else 1
        inner = self.length if self.b is None else self.length - 1
        return [self.first + step * i for i in range(1, inner + 1)]


def _gaps(problem: Problem, at: Mapping[int, int]) -> list[_Gap]:
    """The gaps between consecutive given numbers (around the end of a closed tour), and the
    free ends of an open one."""
    n = problem.squares
    moves = sorted(at)
    gaps = [_Gap(m, at[m], at[m2], m2 - m) for m, m2 in zip(moves, moves[1:], strict=False)]
    if problem.closed:
        gaps.append(_Gap(moves[-1], at[moves[-1]], at[moves[0]], moves[0] + n - moves[-1]))
    else:
        if moves[0] > 1:
            gaps.append(_Gap(moves[0], at[moves[0]], None, moves[0] - 1, backward=True))
        if moves[-1] < n:
            gaps.append(_Gap(moves[-1], at[moves[-1]], None, n - moves[-1]))
    return gaps


class _Paths:
    """The knight's paths that fill each gap, listed once per (a, b, length) and kept (a puzzle
    is made by many searches over much the same gaps): the squares after ``a``, as a tuple."""

    def __init__(self, board: _Board, max_options: int, limits: Limits) -> None:
        self.board, self.max_options, self.limits = board, max_options, limits
        self.kept: dict[tuple[int, int | None, int], list[tuple[int, ...]] | None] = {}

    def of(self, gap: _Gap, given: int) -> list[tuple[int, ...]]:
        """The paths of ``gap`` through no given square (``given``: their bitmask)."""
        key = (gap.a, gap.b, gap.length)
        if key not in self.kept:
            try:
                self.kept[key] = self._list(gap)
            except Undecided:
                self.kept[key] = None  # too many: so it stays, for every later search of the same gap
                raise
        kept = self.kept[key]
        if kept is None:
            raise Undecided(f"more than {self.max_options:,} ways to fill one gap between numbers")
        return [p for p in kept if not any(given >> y & 1 for y in p)]

    def _list(self, gap: _Gap) -> list[tuple[int, ...]]:
        masks, distance = self.board.masks, self.board.distance
        b, length = gap.b, gap.length
        inner = length if b is None else length - 1
        paths: list[tuple[int, ...]] = []
        path: list[int] = []
        steps = [0]

        def extend(head: int, used: int) -> None:
            steps[0] += 1
            if steps[0] > WALK_SHARE * self.max_options:
                raise Undecided(f"more than {WALK_SHARE * self.max_options:,} steps to list the ways to fill a gap")
            if len(path) == inner:
                if b is None or masks[head] >> b & 1:
                    paths.append(tuple(path))
                    if len(paths) > self.max_options:
                        raise Undecided(f"more than {self.max_options:,} ways to fill one gap between numbers")
                return
            if steps[0] % CHECK_EVERY == 0:
                self.limits.check()
            options = masks[head] & ~used
            while options:
                y = (options & -options).bit_length() - 1
                options &= options - 1
                if b is not None and (y == b or distance[y][b] > length - len(path) - 1):
                    continue
                path.append(y)
                extend(y, used | 1 << y)
                path.pop()

        extend(gap.a, 1 << gap.a | (0 if b is None else 1 << b))
        return paths


class _Cover:
    """Algorithm X (Knuth) over the gaps and the unnumbered squares: each gap takes one of its
    paths, and each square lies on exactly one path. The item with the fewest options is
    chosen first."""

    def __init__(
        self, columns: dict[object, set[int]], rows: list[list[object]], max_nodes: int | None, limits: Limits
    ) -> None:
        self.columns, self.rows = columns, rows
        self.max_nodes, self.limits, self.nodes = max_nodes, limits, 0

    def solve(self, chosen: list[int], cap: int, found: list[list[int]]) -> None:
        if not self.columns:
            found.append(list(chosen))
            return
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            self.limits.check()
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Undecided(f"the search of the completions stopped after {self.max_nodes:,} steps")
        item = min(self.columns, key=lambda c: len(self.columns[c]))
        for row in sorted(self.columns[item]):
            chosen.append(row)
            taken = self._select(row)
            self.solve(chosen, cap, found)
            self._deselect(row, taken)
            chosen.pop()
            if len(found) >= cap:
                return

    def _select(self, row: int) -> list[set[int]]:
        taken = []
        for item in self.rows[row]:
            for other in self.columns[item]:
                for k in self.rows[other]:
                    if k != item:
                        self.columns[k].discard(other)
            taken.append(self.columns.pop(item))
        return taken

    def _deselect(self, row: int, taken: list[set[int]]) -> None:
        for item in reversed(self.rows[row]):
            self.columns[item] = taken.pop()
            for other in self.columns[item]:
                for k in self.rows[other]:
                    if k != item:
                        self.columns[k].add(other)


def _search(
    problem: Problem, at: Mapping[int, int], cap: int, paths: _Paths, max_nodes: int | None, limits: Limits
) -> list[Tour]:
    """Up to ``cap`` completions of the givens ``at`` (move -> square, at least one)."""
    n = problem.squares
    given = sum(1 << c for c in at.values())
    gaps = _gaps(problem, at)
    columns: dict[object, set[int]] = {("gap", i): set() for i in range(len(gaps))}
    columns |= {y: set() for y in range(problem.squares) if not given >> y & 1}
    rows: list[list[object]] = []
    options: list[tuple[int, tuple[int, ...]]] = []
    for i in sorted(range(len(gaps)), key=lambda i: gaps[i].length):  # short gaps first: one may have no path
        listed = paths.of(gaps[i], given)
        if not listed:
            return []
        for path in listed:
            items: list[object] = [("gap", i), *path]
            for item in items:
                columns[item].add(len(rows))
            rows.append(items)
            options.append((i, path))
    found: list[list[int]] = []
    _Cover(columns, rows, max_nodes, limits).solve([], cap, found)
    tours = []
    for chosen in found:
        pos = dict(at)
        for row in chosen:
            i, path = options[row]
            pos.update(zip([(m - 1) % n + 1 for m in gaps[i].moves()], path, strict=True))  # around a closed tour
        tours.append(tuple(pos[m] for m in range(1, n + 1)))
    return sorted(tours)


def _moves(problem: Problem, givens: Mapping[int, int]) -> dict[int, int]:
    """The givens as move number -> square, checked."""
    n = problem.squares
    at: dict[int, int] = {}
    for cell, move in givens.items():
        for value in (cell, move):
            if isinstance(value, bool) or not isinstance(value, int):
                raise BoardPuzzlesError(f"a given is a square and a move number, got {cell!r}: {move!r}")
        if not 0 <= cell < n or not 1 <= move <= n:
            raise BoardPuzzlesError(f"a given is a square of the board and a move from 1 to {n}, got {cell}: {move}")
        if move in at:
            return {}  # two squares for one move: no tour
        at[move] = cell
    return at


def completions(
    problem: Problem,
    givens: Mapping[int, int],
    cap: int = 2,
    limits: Limits | None = None,
    max_nodes: int | None = None,
    max_options: int = 100_000,
) -> list[Tour]:
    """Up to ``cap`` tours of ``problem`` that visit each given square (``{cell: move}``, moves
    from 1) at its number, sorted. The search stops at the limits' time (``TimeLimitReached``),
    or raises :class:`Undecided` after ``max_nodes`` steps of the exact cover or when a gap
    between numbers has more than ``max_options`` paths (a tour pinned by too few numbers)."""
    limits = limits if limits is not None else Limits()
    at = _moves(problem, givens)
    if givens and not at:
        return []
    paths = _Paths(_board(problem.rows, problem.cols), max_options, limits)
    if at:
        return _search(problem, at, cap, paths, max_nodes, limits)
    found: list[Tour] = []
    for start in range(problem.squares):  # nothing given: every first square in turn
        found += _search(problem, {1: start}, cap - len(found), paths, max_nodes, limits)
        if len(found) >= cap:
            break
    return found


def _check_level(difficulty: str) -> None:
    if difficulty not in DIFFICULTIES:
        raise BoardPuzzlesError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, got {excerpt(difficulty)}")


def make(
    size: int = 6, difficulty: str = "medium", seed: int = 0, limits: Limits | None = None, closed: bool = False
) -> Givens:
    """A puzzle on the size x size board (a closed tour when ``closed``) with exactly one tour
    through its numbers; the same (size, closed, difficulty, seed) always gives the same puzzle,
    and the same (size, closed, seed) the same tour. Each search it makes tries at most
    ``MAX_NODES`` moves; ``limits`` bounds the whole by time (``TimeLimitReached``)."""
    problem = problem_for(size, closed)
    _check_level(difficulty)
    seed = check_seed(seed)
    limits = limits if limits is not None else Limits()
    rng = random.Random(f"knights-tour:{size}:{closed}:{seed}")
    tour = _random_tour(problem, rng, limits)
    at = _irreducible(problem, tour, rng, limits)
    rest = [move for move in range(1, problem.squares + 1) if move not in at]
    rng.shuffle(rest)
    for move in rest[: math.ceil(EXTRA_SHARE[difficulty] * len(rest))]:
        at[move] = tour[move - 1]
    givens = {cell: move for move, cell in sorted(at.items())}
    return Givens(problem, givens, tour, difficulty, seed)


def _random_tour(problem: Problem, rng: random.Random, limits: Limits) -> Tour:
    """A tour drawn from ``rng``: found by ``find`` from a drawn square (of the colour an open
    tour of an odd board starts on), turned by a drawn symmetry of the board, maybe reversed, and
    (closed) numbered from a drawn square."""
    n, size = problem.squares, problem.rows
    starts = [c for c in range(n) if n % 2 == 0 or (c // size + c % size) % 2 == 0]
    for _ in range(100):
        result = find(
            size, size, closed=problem.closed, start=rng.choice(starts), seed=rng.randrange(2**62), limits=limits
        )
        if result.tour is not None:
            break
    else:
        raise BoardPuzzlesError(f"no tour of the {size}x{size} board was found to make a puzzle from")
    perm = _symmetries(size, size)[rng.randrange(8)]
    tour = [int(perm[c]) for c in result.tour]
    if rng.random() < 0.5:
        tour.reverse()
    if problem.closed:
        at = rng.randrange(n)
        tour = tour[at:] + tour[:at]
    return tuple(tour)


def _unique(problem: Problem, at: Mapping[int, int], tour: Tour, paths: _Paths, limits: Limits) -> bool | Tour:
    """True when ``tour`` is the only completion of ``at``; else another completion, or False
    when the search could not tell within ``MAX_NODES`` and ``MAX_OPTIONS``."""
    try:
        found = _search(problem, at, 2, paths, MAX_NODES, limits)
    except Undecided:
        return False
    if len(found) < 2 and tour not in found:  # the search was whole
        raise AssertionError("the search of the completions missed the tour the givens come from")
    return next((t for t in found if t != tour), True)


def _irreducible(problem: Problem, tour: Tour, rng: random.Random, limits: Limits) -> dict[int, int]:
    """Numbers of ``tour`` (move -> square), the first and (open tours) the last among them,
    through which it is the only tour, none of which but those two can be taken away."""
    n = problem.squares
    ends = {1} if problem.closed else {1, n}
    at = {m: tour[m - 1] for m in ends}
    paths = _Paths(_board(problem.rows, problem.cols), MAX_OPTIONS, limits)
    while (answer := _unique(problem, at, tour, paths, limits)) is not True:
        if answer is False:  # undecided: split the longest gap in two
            inner = max((g.moves() for g in _gaps(problem, at)), key=len)
            move = (inner[len(inner) // 2] - 1) % n + 1
        else:
            move = rng.choice([m for m in range(1, n + 1) if m not in at and answer[m - 1] != tour[m - 1]])
        at[move] = tour[move - 1]
    order = sorted(set(at) - ends)
    rng.shuffle(order)
    for move in order:
        cell = at.pop(move)
        if _unique(problem, at, tour, paths, limits) is not True:
            at[move] = cell
    return at
