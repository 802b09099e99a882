"""The plain-Python search for small boards, where starting the kernels takes longer than the
search itself (see ``PLAIN_MAX_N`` in :mod:`boardpuzzles.puzzles.queens`)."""

from __future__ import annotations

from collections.abc import Iterator

from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.queens.rules import Placement


def plain_placements(n: int, torus: bool, limits: Limits) -> Iterator[Placement]:
    """Every placement in lexicographic order, by plain Python (bitmasks of the columns and of
    both diagonal families, shifted by one per row); the same answers as the kernels give, in the
    same order, for the small sizes where starting the kernels would take longer than the search."""
    full = (1 << n) - 1
    placed: list[int] = []
    steps = 0

    def rotate(mask: int, by: int) -> int:  # on the torus the diagonals wrap around the n columns
        by %= n
        return ((mask << by) | (mask >> (n - by))) & full

    def extend(cols: int, down: int, up: int) -> Iterator[Placement]:
        # ``down`` and ``up``: the columns this row's diagonals (r - c, r + c) forbid.
        nonlocal steps
        if len(placed) == n:
            yield tuple(placed)
            return
        steps += 1
        if steps & 0xFFF == 0:
            limits.check()
        free = full & ~(cols | down | up)
        while free:
            bit = free & -free
            free ^= bit
            placed.append(bit.bit_length() - 1)
            taken_down, taken_up = down | bit, up | bit
            if torus:
                yield from extend(cols | bit, rotate(taken_down, 1), rotate(taken_up, -1))
            else:
                yield from extend(cols | bit, (taken_down << 1) & full, taken_up >> 1)
            placed.pop()

    yield from extend(0, 0, 0)
