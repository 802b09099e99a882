"""Plain-Python twins of the compiled kernels: slow, short, obviously correct, and sharing no code
with them (sets and arithmetic instead of bitmasks; the grid's canonical form instead of the
kernels' least-image test)."""

from __future__ import annotations

from collections.abc import Iterator

from boardpuzzles.grid import Grid


def attacks(n: int, a: tuple[int, int], b: tuple[int, int], torus: bool) -> bool:
    (r1, c1), (r2, c2) = a, b
    if torus:
        return r1 == r2 or c1 == c2 or (r1 + c1 - r2 - c2) % n == 0 or (r1 - c1 - r2 + c2) % n == 0
    return r1 == r2 or c1 == c2 or r1 + c1 == r2 + c2 or r1 - c1 == r2 - c2


def queens_solutions(n: int, torus: bool) -> Iterator[tuple[int, ...]]:
    """Every placement in lexicographic order, by plain backtracking (the seed's algorithm)."""

    def extend(placed: list[int]) -> Iterator[tuple[int, ...]]:
        row = len(placed)
        if row == n:
            yield tuple(placed)
            return
        for col in range(n):
            if not any(attacks(n, (r, c), (row, col), torus) for r, c in enumerate(placed)):
                placed.append(col)
                yield from extend(placed)
                placed.pop()

    return extend([])


def class_count(n: int, torus: bool, group: str) -> int:
    """Classes of placements: the number of distinct canonical forms under the grid's group."""
    grid = Grid.square(n, torus)
    forms = {grid.canonical([r * n + c for r, c in enumerate(p)], group) for p in queens_solutions(n, torus)}
    return len(forms)
