"""Less Than Three as a pencil puzzle: some stones given, one way to complete the board.

Glossary
--------
givens      stones already on the board, as ``{cell: colour letter}`` (``X`` black, ``O`` white);
            the player places the rest.
completion  a board of the rules (two colours, the most stones: K x N of each, at most K of a
            colour on any straight line of any slope) that holds every given stone.
puzzle      givens whose completion is unique (:class:`Givens` keeps the rules, the givens and
            that completion).
difficulty  how many givens: ``hard`` is an irreducible set (taking away any one given leaves
            more than one completion); ``medium`` and ``easy`` add back 20 % and 40 % of the
            solution's other stones, so the same seed gives the same solution at every level
            and a harder level never has more givens than an easier one.

How the completions are found: a board of two colours with the most stones is a pair of disjoint
one-colour boards (as :func:`~.counting.count` counts it), so the one-colour boards are listed
once per size by the package's search (:func:`~.tuples.one_colour_solutions`, a few hundred on
8x8) together with which pairs are disjoint; the completions of some givens are then the disjoint
pairs whose black board holds the black givens and no white one, and the other way round: a few
array look-ups, so a puzzle of 8x8 is made in milliseconds.

Making one: a solution is drawn from the seed; givens taken from it are added, each where the
solution and another completion differ, until the completion is unique; then every given that is
not needed is taken away (in an order drawn from the seed), and the level's extra stones are
added back.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass

from boardpuzzles._lazy import numpy as np
from boardpuzzles.board import Board
from boardpuzzles.errors import BoardPuzzlesError, SizeError, check_seed, excerpt
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.less_than_three.rules import COLOUR_LETTERS, Problem, Rules, to_board
from boardpuzzles.puzzles.less_than_three.tuples import one_colour_solutions

#: The levels, easiest first, and the share of the solution's stones beyond an irreducible set of
#: givens that each adds back.
DIFFICULTIES = ("easy", "medium", "hard")
EXTRA_SHARE = {"easy": 0.4, "medium": 0.2, "hard": 0.0}
#: The sizes offered (the first is the default); 5x5 has only 4 boards, past 10x10 listing the
#: one-colour boards takes seconds.
SIZES = (6, 8, 7, 9, 10)
BLACK, WHITE = COLOUR_LETTERS[0], COLOUR_LETTERS[1]


@dataclass(frozen=True)
class Givens:
    """A puzzle: the rules, the given stones (``{cell: "X" or "O"}``) and the one completion."""

    rules: Rules
    givens: Mapping[int, str]
    solution: Board
    difficulty: str
    seed: int

    @property
    def problem(self) -> Problem:
        return Problem(self.rules)


@dataclass(frozen=True)
class _Pairs:
    """The one-colour boards of one size (rows of 0/1 cells) and which pairs are disjoint."""

    boards: np.ndarray
    disjoint: np.ndarray  # disjoint[i, j]: boards i and j share no cell
    pairs: np.ndarray  # every disjoint (i, j), sorted: the two-colour boards


@functools.cache
def _pairs(size: int) -> _Pairs:
    boards = one_colour_solutions(Rules(size, 1, 2)).astype(np.int32)
    disjoint = (boards @ boards.T) == 0
    return _Pairs(boards, disjoint, np.argwhere(disjoint))


def rules_for(size: int) -> Rules:
    """The puzzle's rules on a size x size board (two colours, at most 2 of a colour in a line)."""
    if isinstance(size, bool) or not isinstance(size, int) or not min(SIZES) <= size <= max(SIZES):
        raise SizeError(
            f"a Less Than Three puzzle is {min(SIZES)}x{min(SIZES)} to {max(SIZES)}x{max(SIZES)}, got {excerpt(size)}"
        )
    return Rules(size, 2, 2)


def completions(rules: Rules, givens: Mapping[int, str], cap: int = 2, limits: Limits | None = None) -> list[Board]:
    """Up to ``cap`` boards of ``rules`` that hold every given stone, in a fixed order."""
    if (rules.colours, rules.max_in_line, rules.stones) != (2, 2, None):
        raise BoardPuzzlesError("puzzles are made for two colours, at most 2 in a line, the most stones")
    if limits is not None:
        limits.check()
    tables = _pairs(rules.size)
    return [_board(rules, tables, i, j) for i, j in _matches(tables, givens, cap)]


def _matches(tables: _Pairs, givens: Mapping[int, str], cap: int) -> list[tuple[int, int]]:
    """Up to ``cap`` (black board, white board) index pairs that hold the givens."""
    n_cells = tables.boards.shape[1]
    black = np.zeros(n_cells, dtype=np.int32)
    white = np.zeros(n_cells, dtype=np.int32)
    for cell, letter in givens.items():
        if not 0 <= cell < n_cells or letter not in (BLACK, WHITE):
            raise BoardPuzzlesError(f"a given is a cell of the board and {BLACK} or {WHITE}, got {cell!r}: {letter!r}")
        (black if letter == BLACK else white)[cell] = 1
    on_black, on_white = tables.boards @ black, tables.boards @ white  # given stones each board covers
    holds_black = (on_black == black.sum()) & (on_white == 0)
    holds_white = (on_white == white.sum()) & (on_black == 0)
    fits = tables.disjoint & holds_black[:, None] & holds_white[None, :]
    found = np.argwhere(fits)[:cap]
    return [(int(i), int(j)) for i, j in found]


def _board(rules: Rules, tables: _Pairs, i: int, j: int) -> Board:
    return to_board(rules, tables.boards[i] + 2 * tables.boards[j])


def _check_level(difficulty: str) -> None:
    if difficulty not in DIFFICULTIES:
        raise BoardPuzzlesError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, got {excerpt(difficulty)}")


def make(size: int = 6, difficulty: str = "medium", seed: int = 0, limits: Limits | None = None) -> Givens:
    """A puzzle on a size x size board whose completion is unique; the same (size, difficulty,
    seed) always gives the same puzzle, and the same (size, seed) the same solution."""
    rules = rules_for(size)
    _check_level(difficulty)
    seed = check_seed(seed)
    tables = _pairs(size)
    rng = random.Random(f"less-than-three:{size}:{seed}")
    i, j = (int(x) for x in tables.pairs[rng.randrange(len(tables.pairs))])
    solution = _stones(tables, i, j)
    givens = _irreducible(tables, solution, rng, limits)
    rest = [c for c in sorted(solution) if c not in givens]
    rng.shuffle(rest)
    for cell in rest[: math.ceil(EXTRA_SHARE[difficulty] * len(rest))]:
        givens[cell] = solution[cell]
    return Givens(rules, dict(sorted(givens.items())), _board(rules, tables, i, j), difficulty, seed)


def _irreducible(tables: _Pairs, solution: dict[int, str], rng: random.Random, limits: Limits | None) -> dict[int, str]:
    """Givens from ``solution`` with a unique completion, none of which can be taken away."""
    givens: dict[int, str] = {}
    while True:
        if limits is not None:
            limits.check()
        found = _matches(tables, givens, 2)
        other = next((pair for pair in found if _stones(tables, *pair) != solution), None)
        if other is None:
            break
        theirs = _stones(tables, *other)
        differ = sorted(c for c, letter in solution.items() if theirs.get(c) != letter)
        cell = rng.choice(differ)
        givens[cell] = solution[cell]
    order = sorted(givens)
    rng.shuffle(order)
    for cell in order:
        letter = givens.pop(cell)
        if len(_matches(tables, givens, 2)) > 1:
            givens[cell] = letter
    return givens


def _stones(tables: _Pairs, i: int, j: int) -> dict[int, str]:
    stones = {int(c): BLACK for c in np.flatnonzero(tables.boards[i])}
    return stones | {int(c): WHITE for c in np.flatnonzero(tables.boards[j])}
