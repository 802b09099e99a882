"""HyperQueen: n queens on an n x n torus, no two in a row, column or (wrapped) diagonal.

The puzzle of the science magazine *Quark*, solved for 7x7 in the seed article (28 placements).

Glossary
--------
torus       the board glued at opposite edges, so every diagonal wraps around (:mod:`..grid`);
Polya's rule  placements exist exactly when gcd(n, 6) = 1 (Polya 1918); otherwise the count is 0;
groups      ``torus`` (rotations, reflections and shifts; OEIS A053994), ``multipliers`` (also
            (r, c) -> (u r, u c) for units u; OEIS A062166) and ``full`` (also the 45-degree map
            (r, c) -> (r + c, r - c); unpublished). See :mod:`boardpuzzles.grid`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from boardpuzzles.board import Board
from boardpuzzles.parallel import Progress
from boardpuzzles.puzzles import queens
from boardpuzzles.puzzles.queens import Placement, validate_size

GROUPS = ("torus", "multipliers", "full")
DEFAULT_GROUP = "torus"


def polya_reason(n: int) -> str | None:
    """Why there is no placement on an n x n torus, or None when there are some (gcd(n, 6) = 1)."""
    g = math.gcd(n, 6)
    if n == 1 or g == 1:
        return None
    divisor = "2 and 3" if g == 6 else str(g)
    return (
        f"no placement exists: n = {n} is divisible by {divisor}, and n queens on an n x n torus "
        f"exist only when gcd(n, 6) = 1 (Polya 1918)"
    )


def solutions(n: int, *, group: str | None = None) -> Iterator[Placement]:
    """Every placement on the n x n torus in lexicographic order; with ``group``, one per class."""
    validate_size(n)
    if polya_reason(n):
        return iter(())
    return queens.solutions(n, torus=True, group=group)


def count(n: int, *, jobs: int = 1, progress: Progress | None = None) -> int:
    """T(n): every placement on the n x n torus (OEIS A051906)."""
    validate_size(n)
    if polya_reason(n):
        return 0
    return queens.count(n, torus=True, jobs=jobs, progress=progress)


def count_classes(n: int, group: str = DEFAULT_GROUP, *, jobs: int = 1, progress: Progress | None = None) -> int:
    """Classes of placements under ``group`` (A053994 for ``torus``, A062166 for ``multipliers``)."""
    validate_size(n)
    if polya_reason(n):
        return 0
    return queens.count_classes(n, group, torus=True, jobs=jobs, progress=progress)


def violations(n: int, placement: Sequence[int]) -> list[str]:
    return queens.violations(n, placement, torus=True)


def check(n: int, placement: Sequence[int]) -> bool:
    return queens.check(n, placement, torus=True)


def to_board(n: int, placement: Sequence[int]) -> Board:
    return queens.to_board(n, placement, torus=True)
