"""Grid geometry: the one place where coordinates, directions, lines and symmetries live.

Glossary
--------
cell
    An ``int`` index ``row * cols + col``. Row 0 is the *top* row (the first line of a text
    picture), column 0 the left column.
coords
    The pair ``(row, col)`` of a cell.
name
    Chess-style: file letters for the column (``a`` = left; after ``z`` come ``aa``, ``ab``, ...)
    then the rank for the row counted from the *bottom* (1 = bottom row). ``a1`` is the
    bottom-left cell, as chess and gomoku players expect.
direction
    A step ``(d_row, d_col)``; ``(-1, 0)`` is up, ``(0, 1)`` right. It is *primitive* when
    ``gcd(|d_row|, |d_col|) == 1``: a line in that direction meets every lattice point on it.
ray
    The cells met by stepping repeatedly from a cell in one direction, the start excluded. It
    stops at the edge of a bounded grid, and just before returning to the start on a torus.
line
    All cells of the straight line through a cell in a primitive direction. On a bounded grid it
    runs edge to edge in the direction's order; on a torus it is the cycle starting at the cell.
torus
    A grid whose opposite edges are glued: stepping off the right edge re-enters on the left,
    and likewise top and bottom.
symmetry
    An affine map ``(r, c) -> (a*r + b*c + tr, c_*r + d*c + tc)`` (reduced modulo the size on a
    torus) that maps the grid onto itself. Stored as a :class:`Symmetry`.
group
    A set of symmetries closed under composition (:class:`SymmetryGroup`). The *canonical form*
    of a set of cells is the smallest sorted tuple among its images under the group, so two sets
    have the same canonical form exactly when one is an image of the other.

Named groups (:meth:`Grid.group`):

``identity``      the identity only;
``dihedral``      the 8 symmetries of the square (rotations and reflections), or the 4 that keep
                  a non-square rectangle in place; on a torus they act around cell (0, 0);
``translations``  torus shifts only;
``torus``         translations and ``dihedral`` together (all rotations, reflections and shifts);
``multipliers``   ``torus`` plus the maps ``(r, c) -> (u*r, u*c)`` for every unit ``u`` modulo
                  the size (square torus only);
``full``          ``multipliers`` plus the 45-degree map ``(r, c) -> (r + c, r - c)`` (square torus
                  of odd size only, where that map is a bijection).

Geometry tables (lines, permutations of cells) are computed once per grid by plain code and
cached, so hot loops read tables instead of doing edge arithmetic.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from boardpuzzles._lazy import numpy as np
from boardpuzzles.errors import BoardPuzzlesError, ParseError, SizeError, excerpt

Cell = int
Coords = tuple[int, int]
Direction = tuple[int, int]  # (d_row, d_col)

#: The eight king steps, named by compass points (north = up = towards rank 8 on a chess board).
NORTH: Direction = (-1, 0)
SOUTH: Direction = (1, 0)
EAST: Direction = (0, 1)
WEST: Direction = (0, -1)
NORTH_EAST: Direction = (-1, 1)
NORTH_WEST: Direction = (-1, -1)
SOUTH_EAST: Direction = (1, 1)
SOUTH_WEST: Direction = (1, -1)
ORTHOGONAL: tuple[Direction, ...] = (NORTH, EAST, SOUTH, WEST)
DIAGONAL: tuple[Direction, ...] = (NORTH_EAST, SOUTH_EAST, SOUTH_WEST, NORTH_WEST)
KING_STEPS: tuple[Direction, ...] = ORTHOGONAL + DIAGONAL
KNIGHT_STEPS: tuple[Direction, ...] = (
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
)
#: One direction per line orientation of the queen: row, column and the two diagonals.
QUEEN_LINES: tuple[Direction, ...] = ((0, 1), (1, 0), (1, 1), (1, -1))

GROUP_NAMES = ("identity", "dihedral", "translations", "torus", "multipliers", "full")

MAX_SIDE = 4096  # generous; keeps accidental huge allocations out


def is_primitive(direction: Direction) -> bool:
    """True when the direction is a lattice step in lowest terms (and not zero)."""
    dr, dc = direction
    return (dr, dc) != (0, 0) and math.gcd(dr, dc) == 1


def line_directions(max_step: int) -> list[Direction]:
    """One primitive direction per line orientation with ``max(|dr|, |dc|) <= max_step``.

    Of ``d`` and ``-d`` only the one pointing down (or right, when horizontal) is listed, so each
    family of parallel lines appears once. ``line_directions(1)`` gives the queen's four.
    """
    found = []
    for dr in range(0, max_step + 1):
        for dc in range(-max_step, max_step + 1):
            if (dr == 0 and dc <= 0) or not is_primitive((dr, dc)):
                continue
            found.append((dr, dc))
    return sorted(found, key=lambda d: (max(abs(d[0]), abs(d[1])), d[0], -d[1]))


def parse_size(text: str) -> tuple[int, int]:
    """A board size as users type it: ``"6"`` -> (6, 6); ``"3x8"`` (or ``3X8``, ``3*8``) -> (3, 8),
    rows by columns."""
    text = str(text)
    match = re.fullmatch(r"\s*+([0-9]++)\s*+(?:[xX*]\s*+([0-9]++))?\s*+", text)
    if not match:
        raise ParseError(f"{excerpt(text)} is not a size: give N or RxC (rows x columns), for example 6 or 3x8")
    sides = [side for side in match.groups() if side]
    longest = max(len(side.lstrip("0")) for side in sides)
    if longest > 9:  # refused before int() sees it: far beyond any board (and Python's 4300 digits)
        raise SizeError(f"board size {excerpt(text)} is too large: a side of {longest:,} digits")
    rows, cols = (int(side.lstrip("0") or "0") for side in (sides[0], sides[-1]))  # int() counts zeros too
    if rows < 1 or cols < 1:
        raise SizeError(f"board size {excerpt(text)}: both sides must be at least 1")
    return rows, cols


def file_letters(col: int) -> str:
    """Column letters in bijective base 26: 0 -> 'a', 25 -> 'z', 26 -> 'aa'."""
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(ord("a") + rem) + letters
    return letters


@dataclass(frozen=True)
class Symmetry:
    """An affine map of coordinates; see the module glossary."""

    a: int
    b: int
    c: int
    d: int
    tr: int = 0
    tc: int = 0
    label: str = ""

    def apply(self, row: int, col: int, grid: Grid) -> Coords:
        r = self.a * row + self.b * col + self.tr
        c = self.c * row + self.d * col + self.tc
        if grid.torus:
            return r % grid.rows, c % grid.cols
        return r, c


@dataclass(frozen=True)
class SymmetryGroup:
    """``point_maps`` (fixing cell (0, 0) on a torus, or the board's centre when bounded),
    combined with every torus translation when ``translations`` is set."""

    grid: Grid
    name: str
    point_maps: tuple[Symmetry, ...]
    translations: bool

    def __len__(self) -> int:
        shifts = self.grid.rows * self.grid.cols if self.translations else 1
        return len(self.point_maps) * shifts

    def __iter__(self) -> Iterator[Symmetry]:
        shifts = (
            [(tr, tc) for tr in range(self.grid.rows) for tc in range(self.grid.cols)]
            if self.translations
            else [(0, 0)]
        )
        for m in self.point_maps:
            for tr, tc in shifts:
                yield Symmetry(m.a, m.b, m.c, m.d, m.tr + tr, m.tc + tc, m.label)

    def matrices(self) -> np.ndarray:
        """The point maps as an ``(k, 6)`` int64 array ``a, b, c, d, tr, tc`` for kernels."""
        return np.array([[m.a, m.b, m.c, m.d, m.tr, m.tc] for m in self.point_maps], dtype=np.int64)

    def permutations(self) -> np.ndarray:
        """Every element as a permutation of cells, shape ``(len(self), cells)``."""
        return np.array([self.grid.permutation(s) for s in self], dtype=np.int64)


@dataclass(frozen=True)
class Grid:
    """A rectangular grid of ``rows`` x ``cols`` cells, bounded or a torus."""

    rows: int
    cols: int
    torus: bool = False
    _cache: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        for what, value in (("rows", self.rows), ("cols", self.cols)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise SizeError(f"{what} must be an integer, got {excerpt(value)}")
            if not 1 <= value <= MAX_SIDE:
                raise SizeError(f"{what} must be between 1 and {MAX_SIDE}, got {excerpt(value)}")

    @classmethod
    def square(cls, n: int, torus: bool = False) -> Grid:
        """The n x n grid; one shared instance per size, so its cached tables are built once."""
        return _shared(n, n, torus)

    @classmethod
    def shared(cls, rows: int, cols: int, torus: bool = False) -> Grid:
        """The rows x cols grid, one shared instance per size (its rays, lines and step tables
        are built once for every puzzle of that size)."""
        return _shared(rows, cols, torus)

    # ----------------------------------------------------------------- cells and names
    @property
    def size(self) -> int:
        """The number of cells."""
        return self.rows * self.cols

    @property
    def is_square(self) -> bool:
        return self.rows == self.cols

    def cells(self) -> range:
        return range(self.size)

    def index(self, row: int, col: int) -> Cell:
        if not self.contains(row, col):
            raise BoardPuzzlesError(f"({row}, {col}) is off the {self.describe()} board")
        return row * self.cols + col

    def coords(self, cell: Cell) -> Coords:
        if not 0 <= cell < self.size:
            raise BoardPuzzlesError(f"cell {cell} is off the {self.describe()} board")
        return divmod(cell, self.cols)

    def contains(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def name(self, cell: Cell) -> str:
        row, col = self.coords(cell)
        return f"{file_letters(col)}{self.rows - row}"

    def cell_named(self, name: str) -> Cell:
        """Parse a chess-style name such as ``a1`` or ``H8`` (case-insensitive)."""
        match = re.fullmatch(r"\s*+([A-Za-z]++)([0-9]++)\s*+", name)
        if not match:
            raise BoardPuzzlesError(f"{excerpt(name)} is not a square name like 'a1'")
        letters, digits = match.group(1).lower(), match.group(2)
        # Three letters reach column 18278 and nine digits rank 999,999,999: beyond any grid.
        if len(letters) > 3 or len(digits.lstrip("0")) > 9:
            raise BoardPuzzlesError(f"square {excerpt(name)} is off the {self.describe()} board")
        col = 0
        for ch in letters:
            col = col * 26 + (ord(ch) - ord("a") + 1)
        col -= 1
        row = self.rows - int(digits.lstrip("0") or "0")
        if not self.contains(row, col):
            raise BoardPuzzlesError(f"square {excerpt(name)} is off the {self.describe()} board")
        return row * self.cols + col

    def cell_written(self, name: str) -> Cell:
        """The cell of a name spelt exactly as :meth:`name` writes it. Documents (JSON answers,
        saved games) are read by this strict rule, so one square has one spelling there and a
        hand-edited ``d01``, ``D1`` or `` d1`` is refused; what a person types on the command
        line is read by the tolerant :meth:`cell_named`."""
        cell = self.cell_named(name)
        if self.name(cell) != name:
            raise BoardPuzzlesError(f"square {excerpt(name)} should be written {self.name(cell)!r}")
        return cell

    def describe(self) -> str:
        return f"{self.rows}x{self.cols}{' torus' if self.torus else ''}"

    # ----------------------------------------------------------------- steps, rays, lines
    def step(self, cell: Cell, direction: Direction) -> Cell | None:
        """The cell one step away, or None off the edge of a bounded grid."""
        row, col = self.coords(cell)
        row, col = row + direction[0], col + direction[1]
        if self.torus:
            return (row % self.rows) * self.cols + col % self.cols
        return row * self.cols + col if self.contains(row, col) else None

    def neighbours(self, cell: Cell, directions: Iterable[Direction] = KING_STEPS) -> list[Cell]:
        """Distinct cells one step away in the given directions (the cell itself excluded)."""
        found: list[Cell] = []
        for d in directions:
            other = self.step(cell, d)
            if other is not None and other != cell and other not in found:
                found.append(other)
        return found

    def step_table(self, steps: Sequence[Direction]) -> tuple[np.ndarray, np.ndarray]:
        """``(targets, counts)`` for every cell at once: ``targets[v, :counts[v]]`` are the cells
        one of ``steps`` leads to from ``v``, in the order of ``steps`` (int32 arrays, built with
        numpy so a board of millions of cells takes a fraction of a second; cached per grid)."""
        key = ("steps", tuple(steps))
        if key not in self._cache:
            # int32 coordinates where every step's target fits: half the memory on a huge board
            reach = 1 + max((abs(d) for step in steps for d in step), default=0)
            index = np.int32 if (self.rows + reach) * (self.cols + reach) < 2**31 else np.int64
            r, c = np.divmod(np.arange(self.size, dtype=index), index(self.cols))
            targets = np.full((self.size, len(steps)), -1, np.int32)
            counts = np.zeros(self.size, np.int32)
            for dr, dc in steps:
                rr, cc = r + dr, c + dc
                if self.torus:
                    rr, cc = rr % self.rows, cc % self.cols
                    ok = (rr * self.cols + cc) != np.arange(self.size)
                else:
                    ok = (rr >= 0) & (rr < self.rows) & (cc >= 0) & (cc < self.cols)
                targets[ok, counts[ok]] = (rr * self.cols + cc)[ok]
                counts[ok] += 1
            targets.flags.writeable = False
            counts.flags.writeable = False
            self._cache[key] = (targets, counts)
        return cast("tuple[np.ndarray, np.ndarray]", self._cache[key])

    def ray(self, cell: Cell, direction: Direction) -> tuple[Cell, ...]:
        """Cells stepping from ``cell`` in ``direction``, start excluded (see glossary)."""
        if direction == (0, 0):
            raise BoardPuzzlesError("a ray needs a non-zero direction")
        key = ("ray", cell, direction)
        if key not in self._cache:
            out = []
            current = self.step(cell, direction)
            while current is not None and current != cell:
                out.append(current)
                current = self.step(current, direction)
            self._cache[key] = tuple(out)
        return cast("tuple[int, ...]", self._cache[key])

    def line(self, cell: Cell, direction: Direction) -> tuple[Cell, ...]:
        """The whole line through ``cell`` in a primitive ``direction`` (see glossary)."""
        if not is_primitive(direction):
            raise BoardPuzzlesError(f"direction {direction} is not primitive (gcd must be 1)")
        if self.torus:
            return (cell, *self.ray(cell, direction))
        back = self.ray(cell, (-direction[0], -direction[1]))
        return (*reversed(back), cell, *self.ray(cell, direction))

    def lines(self, direction: Direction) -> list[tuple[Cell, ...]]:
        """Every distinct line in a primitive direction, each as from :meth:`line`."""
        key = ("lines", direction)
        if key not in self._cache:
            seen: set[Cell] = set()
            found = []
            for cell in self.cells():
                if cell in seen:
                    continue
                line = self.line(cell, direction)
                seen.update(line)
                found.append(line)
            self._cache[key] = found
        return cast("list[tuple[int, ...]]", self._cache[key])

    def long_lines(self, direction: Direction, longer_than: int) -> np.ndarray:
        """The lines in a primitive ``direction`` with more than ``longer_than`` cells, as the rows
        of an int64 array (cells in the direction's order, padded with -1 to the longer side).
        Computed with numpy and not cached: on a 60x60 board the lines of every slope hold
        millions of cells. On a torus, from :meth:`lines`."""
        width = max(self.rows, self.cols)
        if self.torus:
            found = [line for line in self.lines(direction) if len(line) > longer_than]
            table = np.full((len(found), width), -1, dtype=np.int64)
            for i, line in enumerate(found):
                table[i, : len(line)] = line
            return table
        if not is_primitive(direction):
            raise BoardPuzzlesError(f"direction {direction} is not primitive (gcd must be 1)")
        dr, dc = direction
        r, c = np.divmod(np.arange(self.size), self.cols)
        across = dc * r - dr * c  # the same for every cell of one line
        along = dr * r + dc * c  # grows in the direction
        order = np.lexsort((along, across))
        starts = np.flatnonzero(np.r_[True, np.diff(across[order]) != 0])
        lengths = np.diff(np.r_[starts, self.size])
        keep = lengths > longer_than
        starts, lengths = starts[keep], lengths[keep]
        offsets = np.arange(width)
        inside = offsets[None, :] < lengths[:, None]
        picked = np.minimum(starts[:, None] + offsets[None, :], self.size - 1)
        return np.where(inside, order[picked], -1).astype(np.int64)

    # ----------------------------------------------------------------- symmetries
    def point_maps(self, name: str) -> tuple[Symmetry, ...]:
        """The symmetries of a named group that fix the origin (see glossary)."""
        if name not in GROUP_NAMES:
            raise BoardPuzzlesError(f"unknown group {name!r}; choose from {', '.join(GROUP_NAMES)}")
        if name in ("translations", "torus", "multipliers", "full") and not self.torus:
            raise BoardPuzzlesError(f"group {name!r} needs a torus")
        if name in ("multipliers", "full") and not self.is_square:
            raise BoardPuzzlesError(f"group {name!r} needs a square torus")
        if name == "full" and self.rows % 2 == 0:
            raise BoardPuzzlesError("group 'full' needs an odd size: (r+c, r-c) is no bijection otherwise")
        if name in ("identity", "translations"):
            return (Symmetry(1, 0, 0, 1, label="identity"),)
        generators = [(0, 1, 1, 0), (1, 0, 0, -1)] if self.is_square else [(-1, 0, 0, 1), (1, 0, 0, -1)]
        if name in ("multipliers", "full"):
            generators += [(u, 0, 0, u) for u in range(2, self.rows) if math.gcd(u, self.rows) == 1]
        if name == "full":
            generators.append((1, 1, 1, -1))
        return tuple(self._with_offsets(m) for m in self._closure(generators))

    def group(self, name: str) -> SymmetryGroup:
        key = ("group", name)
        if key not in self._cache:
            translations = name in ("translations", "torus", "multipliers", "full")
            self._cache[key] = SymmetryGroup(self, name, self.point_maps(name), translations)
        return cast("SymmetryGroup", self._cache[key])

    def _reduce(self, m: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        if not self.torus:
            return m
        a, b, c, d = m
        return a % self.rows, b % self.rows, c % self.cols, d % self.cols

    def _closure(self, generators: Sequence[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
        """All products of the generator matrices (a finite group), identity first."""
        identity = (1, 0, 0, 1)
        found = [identity]
        known = {self._reduce(identity)}
        frontier = [identity]
        while frontier:
            nxt = []
            for a, b, c, d in frontier:
                for e, f, g, h in generators:
                    prod = self._reduce((a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h))
                    if prod not in known:
                        known.add(prod)
                        found.append(prod)
                        nxt.append(prod)
            frontier = nxt
        return found

    def _with_offsets(self, m: tuple[int, int, int, int]) -> Symmetry:
        a, b, c, d = m
        if self.torus:
            moduli = (self.rows, self.rows, self.cols, self.cols)
            sa, sb, sc, sd = (x - k if x > k // 2 else x for x, k in zip(m, moduli, strict=True))
            return Symmetry(sa, sb, sc, sd, 0, 0, _label((sa, sb, sc, sd)))
        # A bounded board maps onto itself: shift the image of the corners back to (0, 0).
        corners = [(0, 0), (self.rows - 1, self.cols - 1), (0, self.cols - 1), (self.rows - 1, 0)]
        images = [(a * r + b * q, c * r + d * q) for r, q in corners]
        tr = -min(r for r, _ in images)
        tc = -min(q for _, q in images)
        return Symmetry(a, b, c, d, tr, tc, _label(m))

    def permutation(self, symmetry: Symmetry) -> tuple[Cell, ...]:
        """The symmetry as a tuple ``perm`` with ``perm[cell]`` = image cell."""
        out = []
        for cell in self.cells():
            r, c = symmetry.apply(*divmod(cell, self.cols), self)
            if not self.contains(r, c):
                raise BoardPuzzlesError(f"{symmetry} does not map the {self.describe()} board onto itself")
            out.append(r * self.cols + c)
        return tuple(out)

    def transform(self, cells: Iterable[Cell], symmetry: Symmetry) -> list[Cell]:
        out = []
        for cell in cells:
            r, c = symmetry.apply(*self.coords(cell), self)
            out.append(r * self.cols + c)
        return out

    def canonical(self, cells: Iterable[Cell], group: SymmetryGroup | str = "dihedral") -> tuple[Cell, ...]:
        """The smallest sorted image of a set of cells under the group (see glossary)."""
        if isinstance(group, str):
            group = self.group(group)
        cells = list(cells)
        if not cells:
            return ()
        best: tuple[Cell, ...] | None = None
        for m in group.point_maps:
            image = [m.apply(*self.coords(x), self) for x in cells]
            if not group.translations:
                candidates = [image]
            else:
                # The smallest image contains cell 0, so only shifts taking some cell to 0 count.
                candidates = [[((r - r0) % self.rows, (c - c0) % self.cols) for r, c in image] for r0, c0 in image]
            for cand in candidates:
                key = tuple(sorted(r * self.cols + c for r, c in cand))
                if best is None or key < best:
                    best = key
        assert best is not None
        return best

    def orbit(self, cells: Iterable[Cell], group: SymmetryGroup | str = "dihedral") -> set[tuple[Cell, ...]]:
        """Every distinct image (as a sorted tuple) of a set of cells under the group."""
        if isinstance(group, str):
            group = self.group(group)
        cells = list(cells)
        return {tuple(sorted(self.transform(cells, s))) for s in group}


@functools.lru_cache(maxsize=64, typed=True)  # typed: True must not find the 1x1 grid
def _shared(rows: int, cols: int, torus: bool) -> Grid:
    return Grid(rows, cols, torus)


_LABELS = {
    (1, 0, 0, 1): "identity",
    (0, 1, -1, 0): "rotate 90",
    (-1, 0, 0, -1): "rotate 180",
    (0, -1, 1, 0): "rotate 270",
    (1, 0, 0, -1): "mirror left-right",
    (-1, 0, 0, 1): "mirror top-bottom",
    (0, 1, 1, 0): "transpose",
    (0, -1, -1, 0): "anti-transpose",
}


def _label(m: tuple[int, int, int, int]) -> str:
    return _LABELS.get(m, "({}r+{}c, {}r+{}c)".format(*m))
