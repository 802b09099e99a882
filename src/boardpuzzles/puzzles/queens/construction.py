"""One placement of n queens built directly (``boardpuzzles queens find``), not searched."""

from __future__ import annotations

from boardpuzzles.puzzles.queens.rules import validate_size


def construct(n: int) -> list[int] | None:
    """One placement of n queens on the n x n board (the column of each row), built directly
    rather than searched: the explicit construction of Hoffman, Loessi and Moore (Mathematics
    Magazine 42, 1969; also Bernhardsson, SIGART Bulletin 2, 1991), O(n). None for n = 2 and 3,
    which have no placement. Callers check the result with :func:`violations` like any answer."""
    validate_size(n)
    if n in (2, 3):
        return None
    if n == 1:
        return [0]
    even = n - n % 2  # an odd n is the even n - 1 with one more queen in the free corner
    half = even // 2
    columns: list[int] = [0] * even
    if even % 6 != 2:  # rows i and half + i (from 1) take columns 2i and 2i - 1
        for i in range(1, half + 1):
            columns[i - 1] = 2 * i - 1
            columns[half + i - 1] = 2 * i - 2
    else:  # the other shape, for n = 6k + 2 (where the first one has two queens on a diagonal)
        for i in range(1, half + 1):
            shift = (2 * i + half - 3) % even
            columns[i - 1] = shift
            columns[even - i] = even - 1 - shift
    return columns + [n - 1] if n % 2 else columns
