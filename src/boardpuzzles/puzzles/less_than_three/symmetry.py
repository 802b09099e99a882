"""The symmetry classes that ``find`` searches: their names, and their orbits (cells a board of
the class holds all or none of)."""

from __future__ import annotations

import itertools

from boardpuzzles._lazy import numpy as np
from boardpuzzles.board import Board
from boardpuzzles.grid import Grid
from boardpuzzles.puzzles.less_than_three.rules import Rules

#: The symmetry classes find() searches, as partitions of the board into orbits that a board
#: takes whole or not at all. Large known solutions turn by 90 degrees (Flammenkamp; Prellberg,
#: arXiv:2602.07751); on odd sizes that is impossible (2n stones are not a multiple of 4), and the
#: known ones turn by 90 degrees except on the diagonals, where they only turn by 180.
ROTATE_90 = "rotate 90"
ROTATE_90_DIAGONALS_180 = "rotate 90, diagonals 180"
ROTATE_180 = "rotate 180"
NO_SYMMETRY = "identity"
FIND_SYMMETRIES = (ROTATE_90, ROTATE_90_DIAGONALS_180, ROTATE_180, NO_SYMMETRY)


def symmetry_orbits(rules: Rules, symmetry: str) -> list[list[int]]:
    """The orbits of one of FIND_SYMMETRIES: cells a board with that symmetry holds all or none
    of. A middle cell that the stone count forces to stay empty is left out of every orbit."""
    grid = rules.grid
    n = rules.size
    by_label = {s.label: grid.permutation(s) for s in grid.group("dihedral")}
    quarter, half = by_label["rotate 90"], by_label["rotate 180"]

    def orbit(cell: int, perm: tuple[int, ...]) -> list[int]:
        cells = [cell]
        while perm[cells[-1]] != cell:
            cells.append(perm[cells[-1]])
        return cells

    def on_diagonal(cell: int) -> bool:
        r, c = divmod(cell, n)
        return r == c or r + c == n - 1

    orbits: list[list[int]] = []
    seen: set[int] = set()
    for cell in grid.cells():
        if cell in seen:
            continue
        if symmetry == ROTATE_90 or symmetry == ROTATE_90_DIAGONALS_180 and not on_diagonal(cell):
            cells = orbit(cell, quarter)
        elif symmetry in (ROTATE_90_DIAGONALS_180, ROTATE_180):
            cells = orbit(cell, half)
        else:
            cells = [cell]
        seen.update(cells)
        orbits.append(cells)
    # Every other orbit has an even size, so an even stone count leaves the middle cell empty.
    if symmetry != NO_SYMMETRY and n % 2 and rules.per_colour % 2 == 0:
        orbits.remove([n * n // 2])
    return orbits


def _impossible(rules: Rules, symmetry: str) -> bool:
    """A quarter turn needs a stone count of 4a (+1 for the middle cell on odd sizes)."""
    stones = rules.per_colour
    return symmetry == ROTATE_90 and not (stones % 4 == 0 or rules.size % 2 and stones % 4 == 1)


def _orbit_tables(rules: Rules, symmetry: str) -> tuple[np.ndarray, np.ndarray]:
    orbits = symmetry_orbits(rules, symmetry)
    orbit_of = np.full(rules.size**2, -1, dtype=np.int64)
    table = np.full((len(orbits), max(map(len, orbits))), -1, dtype=np.int64)
    for i, cells in enumerate(orbits):
        table[i, : len(cells)] = cells
        orbit_of[cells] = i
    return table, orbit_of


def symmetry_for(n: int) -> str:
    """The class searched on n x n (see :mod:`.orbit_find`): one of ``FIND_SYMMETRIES``."""
    return ROTATE_90 if n % 2 == 0 else ROTATE_90_DIAGONALS_180


def class_orbits(n: int) -> list[list[int]]:
    """The orbits of the class searched on n x n, cells row-major; cells in no orbit stay empty
    (on odd n the anti-diagonal, the middle cell among them)."""
    orbits = []
    seen: set[tuple[int, int]] = set()
    for r, c in itertools.product(range(n), repeat=2):
        if (r, c) in seen or n % 2 and r + c == n - 1:
            continue
        if n % 2 and r == c:
            cells = [(r, c), (n - 1 - r, n - 1 - c)]
        else:
            cells = [(r, c), (c, n - 1 - r), (n - 1 - r, n - 1 - c), (n - 1 - c, r)]
        seen.update(cells)
        orbits.append([a * n + b for a, b in cells])
    return orbits


def has_symmetry(board: Board, symmetry: str) -> bool:
    """Whether the board has the symmetry of the class, checked with the grid's own quarter and
    half turns (not with the orbit tables)."""
    grid = Grid(board.grid.rows, board.grid.cols)
    n = grid.rows
    turn = {s.label: s for s in grid.group("dihedral")}
    stones = sorted(board.cells_with("X"))
    if symmetry == ROTATE_90:
        return sorted(grid.transform(stones, turn["rotate 90"])) == stones
    if symmetry == ROTATE_90_DIAGONALS_180:
        off = [c for c in stones if c // n != c % n and c // n + c % n != n - 1]
        return sorted(grid.transform(stones, turn["rotate 180"])) == stones and sorted(
            grid.transform(off, turn["rotate 90"])
        ) == sorted(off)
    return False
