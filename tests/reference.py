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


def too_many_in_line(stones: set[tuple[int, int]], new: tuple[int, int], k: int) -> bool:
    """Would adding ``new`` put k+1 of these stones on one straight line? (Cross products only.)"""
    others = list(stones)
    for i, a in enumerate(others):
        on_line = [b for b in others if (a[0] - new[0]) * (b[1] - new[1]) == (a[1] - new[1]) * (b[0] - new[0])]
        if len(on_line) + 1 > k:
            return True
    return False


def less_than_three_solutions(n: int, colours: int, k: int, stones: int) -> list[tuple[int, ...]]:
    """Every board (cell colours, 0 = empty, row-major) by plain cell-by-cell backtracking."""
    found = []
    board = [0] * (n * n)
    placed: list[set[tuple[int, int]]] = [set() for _ in range(colours)]

    def extend(cell: int) -> None:
        if all(len(p) == stones for p in placed):
            found.append(tuple(board))
            return
        if cell == n * n:
            return
        if sum(stones - len(p) for p in placed) > n * n - cell:
            return
        extend(cell + 1)
        where = divmod(cell, n)
        for c in range(colours):
            if len(placed[c]) < stones and not too_many_in_line(placed[c], where, k):
                placed[c].add(where)
                board[cell] = c + 1
                extend(cell + 1)
                board[cell] = 0
                placed[c].discard(where)

    extend(0)
    return found
