"""Queens as a pencil puzzle: some queens given, one way to place the rest (on the classic board
or on the torus of HyperQueen).

Glossary
--------
givens      queens already on the board, as ``{cell: "Q"}``; the player places the others.
completion  a placement of n queens (none attacking another; on a torus the diagonals wrap) that
            holds every given queen.
puzzle      givens whose completion is unique (:class:`Givens` keeps the problem, the givens and
            that completion).
difficulty  how many givens: ``hard`` is an irreducible set (taking away any one given queen leaves
            more than one completion); ``medium`` and ``easy`` add back 20 % and 40 % of the
            solution's other queens (rounded up), so the same seed gives the same solution at every
            level and a harder level never has more givens than an easier one.

How the completions are found: the row by row search of :mod:`.plain` (bitmasks of the columns
and of both diagonal families), with each row limited to the squares no given queen attacks, and
a given queen's row to its square. It stops at ``cap`` completions; on the sizes offered (up to
14) a whole search is a few milliseconds.

Making one: a solution is drawn by a search whose column order in each row comes from the seed;
queens of it are given, each where the solution and another completion differ, until the
completion is unique; then every given queen that is not needed is taken away (in an order drawn
from the seed), and the level's extra queens are added back.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from boardpuzzles.board import Board
from boardpuzzles.errors import BoardPuzzlesError, SizeError, check_seed, excerpt
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.queens.rules import QUEEN, Placement, Problem, polya_reason, to_board

#: The levels, easiest first, and the share of the solution's queens beyond an irreducible set of
#: givens that each adds back.
DIFFICULTIES = ("easy", "medium", "hard")
EXTRA_SHARE = {"easy": 0.4, "medium": 0.2, "hard": 0.0}
#: The sizes offered, the default first: on the torus only sizes with gcd(n, 6) = 1 have queens.
SIZES = (8, 6, 10, 12)
TORUS_SIZES = (7, 5, 11, 13)
#: The largest board made (a search of the completions stays within milliseconds).
MAX_SIZE = 14


@dataclass(frozen=True)
class Givens:
    """A puzzle: the problem (its size, classic or torus), the given queens (``{cell: "Q"}``)
    and the one completion."""

    problem: Problem
    givens: Mapping[int, str]
    solution: Board
    difficulty: str
    seed: int


def problem_for(size: int, torus: bool = False) -> Problem:
    """The puzzle's problem: size queens on the size x size board (a torus when ``torus``)."""
    low = 5 if torus else 4
    if isinstance(size, bool) or not isinstance(size, int) or not low <= size <= MAX_SIZE:
        raise SizeError(f"a queens puzzle is {low}x{low} to {MAX_SIZE}x{MAX_SIZE}, got {excerpt(size)}")
    if torus and polya_reason(size):
        raise SizeError(f"no queens puzzle on the {size}x{size} torus: {polya_reason(size)}")
    return Problem(size, torus)


def _allowed(problem: Problem, queens: Mapping[int, int]) -> list[int]:
    """``allowed[r]``: the columns of row r (as a bitmask) that no given queen attacks; a given
    queen's row holds its column only. ``queens`` maps rows to columns."""
    n = problem.n
    allowed = []
    for r in range(n):
        if r in queens:
            allowed.append(1 << queens[r])
            continue
        mask = 0
        for c in range(n):
            if not any(_attacks(problem, r - qr, c - qc) for qr, qc in queens.items()):
                mask |= 1 << c
        allowed.append(mask)
    return allowed


def _attacks(problem: Problem, dr: int, dc: int) -> bool:
    n = problem.n
    if problem.torus:
        return dr % n == 0 or dc % n == 0 or (dr - dc) % n == 0 or (dr + dc) % n == 0
    return dr == 0 or dc == 0 or abs(dr) == abs(dc)


def _placements(problem: Problem, allowed: list[int], order: list[list[int]] | None = None) -> Iterator[Placement]:
    """Every placement with row r's queen among ``allowed[r]``, row by row (lexicographic, or
    the columns of row r in ``order[r]``)."""
    n, torus = problem.n, problem.torus
    full = (1 << n) - 1
    placed: list[int] = []

    def rotate(mask: int, by: int) -> int:  # on the torus the diagonals wrap around the n columns
        by %= n
        return ((mask << by) | (mask >> (n - by))) & full

    def extend(cols: int, down: int, up: int) -> Iterator[Placement]:
        row = len(placed)
        if row == n:
            yield tuple(placed)
            return
        free = allowed[row] & ~(cols | down | up)
        columns = order[row] if order is not None else range(n)
        for c in columns:
            bit = 1 << c
            if not free & bit:
                continue
            placed.append(c)
            if torus:
                yield from extend(cols | bit, rotate(down | bit, 1), rotate(up | bit, -1))
            else:
                yield from extend(cols | bit, ((down | bit) << 1) & full, (up | bit) >> 1)
            placed.pop()

    yield from extend(0, 0, 0)


def _rows(problem: Problem, givens: Mapping[int, str]) -> dict[int, int]:
    n = problem.n
    queens: dict[int, int] = {}
    for cell, piece in givens.items():
        if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < n * n or piece != QUEEN:
            raise BoardPuzzlesError(f"a given is a cell of the {n}x{n} board holding {QUEEN}, got {cell!r}: {piece!r}")
        queens[cell // n] = cell % n
    return queens


def completions(problem: Problem, givens: Mapping[int, str], cap: int = 2, limits: Limits | None = None) -> list[Board]:
    """Up to ``cap`` placements of ``problem`` that hold every given queen, as boards, in
    lexicographic order; the limits are checked between completions."""
    queens = _rows(problem, givens)
    if len(queens) < len(givens) or any(_attacks_another(problem, queens, r) for r in queens):
        return []  # two given queens share a row or attack each other
    found = []
    for placement in _placements(problem, _allowed(problem, queens)):
        if limits is not None:
            limits.check()
        found.append(placement)
        if len(found) >= cap:
            break
    return [to_board(problem, p) for p in found]


def _attacks_another(problem: Problem, queens: Mapping[int, int], row: int) -> bool:
    col = queens[row]
    return any(_attacks(problem, r - row, c - col) for r, c in queens.items() if r != row)


def _check_level(difficulty: str) -> None:
    if difficulty not in DIFFICULTIES:
        raise BoardPuzzlesError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, got {excerpt(difficulty)}")


def make(
    size: int = 8, difficulty: str = "medium", seed: int = 0, limits: Limits | None = None, torus: bool = False
) -> Givens:
    """A puzzle of size queens (on the torus when ``torus``) whose completion is unique; the same
    (size, torus, difficulty, seed) always gives the same puzzle, and the same (size, torus,
    seed) the same solution."""
    problem = problem_for(size, torus)
    _check_level(difficulty)
    seed = check_seed(seed)
    rng = random.Random(f"queens:{size}:{torus}:{seed}")
    order = [rng.sample(range(size), size) for _ in range(size)]
    solution = next(_placements(problem, [(1 << size) - 1] * size, order))
    queens = _irreducible(problem, solution, rng, limits)
    rest = [r for r in range(size) if r not in queens]
    rng.shuffle(rest)
    for row in rest[: math.ceil(EXTRA_SHARE[difficulty] * len(rest))]:
        queens[row] = solution[row]
    givens = {r * size + c: QUEEN for r, c in sorted(queens.items())}
    return Givens(problem, givens, to_board(problem, solution), difficulty, seed)


def _irreducible(problem: Problem, solution: Placement, rng: random.Random, limits: Limits | None) -> dict[int, int]:
    """Queens of ``solution`` (row -> column) with a unique completion, none of which can be
    taken away."""
    queens: dict[int, int] = {}
    while True:
        if limits is not None:
            limits.check()
        found = _placements(problem, _allowed(problem, queens))
        other = next((p for p in found if p != solution), None)
        if other is None:
            break
        row = rng.choice([r for r in range(problem.n) if other[r] != solution[r]])
        queens[row] = solution[row]
    order = sorted(queens)
    rng.shuffle(order)
    for row in order:
        col = queens.pop(row)
        if limits is not None:
            limits.check()
        if sum(1 for _ in zip(range(2), _placements(problem, _allowed(problem, queens)), strict=False)) > 1:
            queens[row] = col
    return queens
