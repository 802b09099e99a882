"""The torus count: one search per orbit of the largest torus group. The orbits, the tables
one search reads (one :class:`OrbitTables` bundle per start) and the plan of subtasks (the
least-image starts); and the listing of one least image per class of a group, in order
(:func:`class_placements`), from the same search."""

from __future__ import annotations

import functools
import heapq
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from boardpuzzles._lazy import numpy as np
from boardpuzzles.grid import Grid
from boardpuzzles.limits import Limits
from boardpuzzles.parallel import Subtask
from boardpuzzles.puzzles.queens.rules import TORUS_GROUPS


def _kernels() -> Any:
    from boardpuzzles._kernels import queens_torus as kernels  # numba loads only when a search runs

    return kernels


#: Each torus group is a subgroup of the next; a search under the largest counts them all.
TORUS_LEVELS = TORUS_GROUPS


@dataclass(frozen=True)
class TorusOrbits:
    """The largest torus group for n (``full`` for odd n, else ``multipliers``), as the kernel
    of :func:`torus_orbit_search` reads it.

    ``maps``: its point maps (rows a, b, c, d); ``levels[m]``: the first of ``TORUS_LEVELS`` that
    holds map m; ``index[l]``: that group's index in the largest one. ``offset[dr, dc]``: the
    least row-1 column a that the difference (dr, dc) of two queens maps to (the least image of
    a placement has its row-1 queen there); -1 for differences on a queen's lines, n when no map
    sends it to row 1. ``offsets``: the values of a that occur, in increasing order.
    """

    n: int
    maps: np.ndarray
    levels: np.ndarray
    index: np.ndarray
    offset: np.ndarray
    offsets: tuple[int, ...]


def _reduced(matrices: np.ndarray, n: int) -> list[tuple[int, ...]]:
    return [tuple(int(x) % n for x in row[:4]) for row in matrices]


def largest_torus_group(n: int) -> str:
    """The largest of ``TORUS_GROUPS`` on the n x n torus: the 45-degree map needs n odd."""
    return "full" if n % 2 else "multipliers"


@functools.cache
def torus_orbits(n: int) -> TorusOrbits:
    grid = Grid.square(n, torus=True)
    top = largest_torus_group(n)
    maps = _reduced(grid.group(top).matrices(), n)
    members = [set(_reduced(grid.group(g).matrices(), n)) for g in TORUS_LEVELS[: TORUS_LEVELS.index(top) + 1]]
    levels = np.array([min(lv for lv, s in enumerate(members) if m in s) for m in maps], dtype=np.int64)
    sizes = [int(np.sum(levels <= lv)) for lv in range(len(TORUS_LEVELS))]
    index = np.array([len(maps) // size for size in sizes], dtype=np.int64)
    r, c = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    offset = np.full((n, n), n, dtype=np.int64)
    for a, b, cc, d in maps:
        rows, cols = (a * r + b * c) % n, (cc * r + d * c) % n
        offset = np.where(rows == 1, np.minimum(offset, cols), offset)
    attacked = (r == 0) | (c == 0) | ((r - c) % n == 0) | ((r + c) % n == 0)
    offset[attacked] = -1
    offsets = tuple(sorted({int(x) for x in offset.ravel() if 0 <= x < n}))
    array = np.array(maps, dtype=np.int64).reshape(-1, 4)
    for table in (array, levels, index, offset):
        table.flags.writeable = False
    return TorusOrbits(n, array, levels, index, offset, offsets)


class OrbitTables(NamedTuple):
    """The tables one search of ``torus_orbit_search`` reads (one bundle, the kernel's argument),
    for least images with queens on (0, 0), (1, a) and (2, c2) (see the kernel's module for the
    method).

    ``attack[d, c]``: the columns a queen in column c forbids d rows below (its column and
    diagonals, and the cells at differences excluded for this a). ``tri_cnt``/``tri_off``: for two
    queens p, q with q - p = (dr, dc), the offsets from p of the cells that would complete an
    excluded triple. ``anchor_cnt``/``anchor_map``: the point maps that send a difference to
    (1, a). ``maps``, ``levels``, ``group_index``: ``maps``, ``levels`` and ``index`` of
    :class:`TorusOrbits`. ``row2[m]`` =
    (family, k): map m sends row 2 to the line x_r = k, x_c = k, x_r - x_c = k or x_r + x_c = k
    (family 0..3).
    """

    attack: np.ndarray
    tri_cnt: np.ndarray
    tri_off: np.ndarray
    anchor_cnt: np.ndarray
    anchor_map: np.ndarray
    maps: np.ndarray
    row2: np.ndarray
    levels: np.ndarray
    group_index: np.ndarray


@functools.cache
def _orbit_attack(n: int, a: int) -> np.ndarray:
    """The torus attack table plus, d rows below, the columns at differences whose least row-1
    offset is below a (a pair of queens there would give a smaller image)."""
    orbits = torus_orbits(n)
    table = torus_attack_table(n).copy()
    for d in range(1, n):
        for dc in range(n):
            if 0 <= orbits.offset[d, dc] < a:
                for c in range(n):
                    table[d, c] |= 1 << ((c + dc) % n)
    table.flags.writeable = False
    return table


def _orbit_open(n: int, attack: np.ndarray, queens: Sequence[tuple[int, int]], row: int) -> list[int]:
    """The columns of ``row`` that ``queens`` leave open under ``attack`` ([] if they clash)."""
    mask = (1 << n) - 1
    for i, (r, c) in enumerate(queens):
        for r0, c0 in queens[:i]:
            if r == r0 or (int(attack[(r - r0) % n, c0]) >> c) & 1:
                return []
        if r == row:
            return []
        mask &= ~int(attack[(row - r) % n, c])
    return [c for c in range(n) if (mask >> c) & 1]


def _second_rows(n: int, a: int) -> list[int]:
    """The columns of row 2 open next to (0, 0) and (1, a) in the search for offset a."""
    return _orbit_open(n, _orbit_attack(n, a), [(0, 0), (1, a)], 2)


@functools.lru_cache(maxsize=16)
def orbit_tables(n: int, a: int, c2: int) -> OrbitTables:
    orbits = torus_orbits(n)
    maps = orbits.maps
    # The excluded triples: images of (0, 0), (1, a), (2, c') for every c' < c2 and map g; for
    # any two of their queens, the cell of the third, as an offset from the first of the two.
    third: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for c_less in (c for c in _second_rows(n, a) if c < c2):
        for ma, mb, mc, md in maps.tolist():
            points = (
                (0, 0),
                ((ma + mb * a) % n, (mc + md * a) % n),
                ((2 * ma + mb * c_less) % n, (2 * mc + md * c_less) % n),
            )
            for x, y, z in itertools.permutations(points):
                key = ((y[0] - x[0]) % n, (y[1] - x[1]) % n)
                third.setdefault(key, set()).add(((z[0] - x[0]) % n, (z[1] - x[1]) % n))
    tri_cnt = np.zeros((n, n), dtype=np.int64)
    tri_off = np.zeros((n, n, max((len(v) for v in third.values()), default=0), 2), dtype=np.int64)
    for (dr, dc), cells in third.items():
        tri_cnt[dr, dc] = len(cells)
        tri_off[dr, dc, : len(cells)] = sorted(cells)
    # The maps that send a difference to (1, a) (one difference per map): the pairs of queens
    # that an image with the search's rows 0 and 1 can start from.
    r, c = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    starts = []
    for mi, (ma, mb, mc, md) in enumerate(maps.tolist()):
        (row,), (col,) = np.nonzero(((ma * r + mb * c) % n == 1) & ((mc * r + md * c) % n == a))
        starts.append((int(row), int(col), mi))
    anchor_cnt = np.zeros((n, n), dtype=np.int64)
    for dr, dc, _ in starts:
        anchor_cnt[dr, dc] += 1
    anchor_map = np.zeros((n, n, int(anchor_cnt.max())), dtype=np.int64)
    filled = np.zeros((n, n), dtype=np.int64)
    for dr, dc, mi in starts:
        anchor_map[dr, dc, filled[dr, dc]] = mi
        filled[dr, dc] += 1
    row2 = np.array([_row_two_line(n, m) for m in maps.tolist()], dtype=np.int64).reshape(-1, 2)
    attack = _orbit_attack(n, a)
    return OrbitTables(attack, tri_cnt, tri_off, anchor_cnt, anchor_map, maps, row2, orbits.levels, orbits.index)


def _row_two_line(n: int, m: Sequence[int]) -> tuple[int, int]:
    """(family, k): the line that point map m sends to row 2, as x_r = k, x_c = k,
    x_r - x_c = k or x_r + x_c = k (family 0..3; a map of the group keeps the four families)."""
    a, b = m[0] % n, m[1] % n
    for family, (fa, fb) in enumerate(((1, 0), (0, 1), (1, n - 1), (1, 1))):
        u = a if fa else b
        if math.gcd(u, n) == 1 and (u * fa % n, u * fb % n) == (a, b):
            return family, 2 * pow(u, -1, n) % n
    raise AssertionError(f"the point map {tuple(m)} does not keep the queen's lines")


def torus_orbit_subtasks(n: int, what: str = "placements") -> list[Subtask]:
    """One subtask per least-image start (0, 0), (1, a), (2, c2), (3, c3), (n-1, c_last): every
    orbit's least image begins with exactly one of them. ``what``: ``placements`` (each orbit
    adds its size) or a group of ``TORUS_GROUPS`` (each orbit adds its number of classes)."""
    if n < 5:  # no room for the three first rows; the plain search (1 placement for n = 1)
        return [Subtask(("torus-plain", n, what))]
    tasks = []
    for a in torus_orbits(n).offsets:
        attack = _orbit_attack(n, a)
        for c2 in _second_rows(n, a):
            start = [(0, 0), (1, a), (2, c2)]
            for c3 in _orbit_open(n, attack, start, 3):
                for last in _orbit_open(n, attack, [*start, (3, c3)], n - 1):
                    # (2, c2) - x swaps (0, 0) and (2, 2a) and keeps (1, a): it sends row n-1 to
                    # row 3, so the least image has c3 <= 2a - c_last.
                    if c2 == 2 * a % n and c3 > (2 * a - last) % n:
                        continue
                    tasks.append(Subtask(("torus", n, what, a, c2, c3, last)))
    return tasks


@functools.cache
def torus_attack_table(n: int) -> np.ndarray:
    """``table[d, c]``: the columns that a queen in column c attacks in the row d rows below it
    on the n x n torus, read off the grid's wrapped lines (its column and two diagonals)."""
    grid = Grid.square(n, torus=True)
    table = np.zeros((n, n), dtype=np.int64)
    for c in range(n):
        for direction in ((1, 0), (1, 1), (1, -1)):
            line = grid.line(grid.index(0, c), direction)  # line[d] lies d rows below
            for d in range(n):
                table[d, c] |= 1 << grid.coords(line[d])[1]
    table.flags.writeable = False  # shared by every call for this n
    return table


def torus_orbit_run(
    n: int, queens: Sequence[tuple[int, int]], flag: np.ndarray, listed: np.ndarray | None = None
) -> tuple[np.ndarray, int]:
    """Run :func:`torus_orbit_search` from the least-image start ``queens`` ((0, 0), (1, a),
    (2, c2), ...): (``out``, steps), ``out[0]`` the orbit sizes, ``out[1 + l]`` the classes under
    ``TORUS_LEVELS[l]``, ``out[-1]`` the orbits, whose least images go into the rows of
    ``listed`` (as many as it has); steps is ``STOPPED`` when the flag was set."""
    fixed = np.array(queens, dtype=np.int64).reshape(-1, 2)
    out = np.zeros(2 + len(TORUS_LEVELS), dtype=np.int64)
    listed = listed if listed is not None else np.zeros((0, n), dtype=np.int64)
    tables = orbit_tables(n, queens[1][1], queens[2][1])
    steps = _kernels().torus_orbit_search(n, fixed, tables, out, listed, flag)
    return out, int(steps)


@functools.cache
def _coset_maps(n: int, group: str) -> np.ndarray:
    """One point map of the largest torus group per coset of ``group``'s (a normal subgroup,
    see the kernel's module): the orbit of x under the largest group is the union of the
    ``group`` orbits of g x for these g."""
    largest = _reduced(Grid.square(n, torus=True).group(largest_torus_group(n)).matrices(), n)
    members = set(_reduced(Grid.square(n, torus=True).group(group).matrices(), n))
    cosets: dict[frozenset[tuple[int, ...]], tuple[int, ...]] = {}
    for a, b, c, d in largest:
        coset = frozenset(
            ((a * e + b * g) % n, (a * f + b * h) % n, (c * e + d * g) % n, (c * f + d * h) % n)
            for e, f, g, h in members
        )
        cosets.setdefault(coset, (a, b, c, d))
    table = np.array(sorted(cosets.values()), dtype=np.int64).reshape(-1, 4)
    table.flags.writeable = False
    return table


def _class_images(n: int, group: str, least: np.ndarray) -> set[tuple[int, ...]]:
    """The least images of the classes under ``group`` that make up the orbits (under the
    largest group) of the least images ``least``: the least image of g x for each coset map g."""
    if group == largest_torus_group(n):
        return {tuple(int(c) for c in x) for x in least}
    cosets = _coset_maps(n, group)
    out = np.empty((len(least), len(cosets), n), dtype=np.int64)
    _kernels().torus_class_images(least, cosets, Grid.square(n, torus=True).group(group).matrices(), out)
    return {tuple(int(c) for c in x) for x in out.reshape(-1, n)}


def class_placements(n: int, group: str, limits: Limits) -> Iterator[tuple[int, ...]]:
    """The least image of each class of placements on the n x n torus (n >= 5) under ``group``
    (one of ``TORUS_GROUPS``), in lexicographic order: what keeping the least images of every
    placement gives, from the orbit search of the count. Each orbit's least image x comes
    before every image of x, so once the starts with rows 0..3 below a prefix are searched, the
    classes below that prefix are all known and are given out; lazy: stop iterating and the
    search stops."""
    starts: dict[tuple[int, int, int], list[int]] = {}
    for task in torus_orbit_subtasks(n):
        _, _, _, a, c2, c3, last = task.spec
        starts.setdefault((a, c2, c3), []).append(last)
    prefixes = list(starts)  # in increasing order, as the plan makes them
    waiting: list[tuple[int, ...]] = []
    for i, (a, c2, c3) in enumerate(prefixes):
        for last in starts[a, c2, c3]:
            limits.check()  # a start's search may end before its kernel looks at the flag
            least = _orbit_least_images(n, [(0, 0), (1, a), (2, c2), (3, c3), (n - 1, last)], limits)
            for found in _class_images(n, group, least):
                heapq.heappush(waiting, found)
        below = (0, *prefixes[i + 1]) if i + 1 < len(prefixes) else (n,)
        while waiting and waiting[0][:4] < below:
            yield heapq.heappop(waiting)


def _orbit_least_images(n: int, queens: Sequence[tuple[int, int]], limits: Limits) -> np.ndarray:
    """The least images of the orbits found from the start ``queens`` (run again with room for
    all of them when the first room was too small)."""
    room = 64
    while True:
        listed = np.empty((room, n), dtype=np.int64)
        out, steps = torus_orbit_run(n, queens, limits.flag, listed)
        if steps == _kernels().STOPPED:
            limits.raise_stop()
        if out[-1] <= room:
            return listed[: out[-1]]
        room = int(out[-1])
