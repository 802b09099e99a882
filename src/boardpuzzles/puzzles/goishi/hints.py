"""Hints (the next forced pick-up and why) and a difficulty rating."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boardpuzzles._lazy import numpy as np
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.grid import Cell
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.goishi.rules import (
    NO_DIRECTION,
    Order,
    Puzzle,
    arrival,
    as_puzzle,
    first_problem,
    legal_moves,
)
from boardpuzzles.puzzles.goishi.search import Counter, first_two, load_kernels, signed_word, tables

# ---------------------------------------------------------------- hints and difficulty
#: How far the look-ahead goes when it measures how deep a wrong move must be followed: a wrong
#: move whose lines all die within this many pick-ups gets its depth, a deeper one ``None``. A
#: line dies where no legal move is left, or where a glance shows it doomed: a stone left that
#: sees no stone in any direction, or two stones that see stones in only one (each would have
#: to be the last).
LOOKAHEAD_CAP = 12


@dataclass(frozen=True)
class Hint:
    """What to pick up after ``prefix``: ``right`` (the moves from which an order goes on: one
    when the move is forced) and ``wrong`` (every other legal move, with the number of pick-ups,
    itself included, within which all its lines die (1: doomed at once); ``None`` beyond
    LOOKAHEAD_CAP)."""

    prefix: Order
    right: tuple[Cell, ...]
    wrong: tuple[tuple[Cell, int | None], ...]

    @property
    def forced(self) -> bool:
        return len(self.right) == 1

    @property
    def depth(self) -> int | None:
        """The look-ahead that refutes every wrong move (0 with none; None beyond the cap)."""
        depths = [d for _, d in self.wrong]
        return None if None in depths else max((d for d in depths if d is not None), default=0)


def _depth_text(depth: int | None) -> str:
    """How soon a wrong move's lines all end: "at once", "within 7 pick-ups", "beyond 12 pick-ups"."""
    if depth is None:
        return f"beyond {LOOKAHEAD_CAP} pick-ups"
    return "at once" if depth == 1 else f"within {depth} pick-ups"


def hint_text(puzzle: Puzzle, found: Hint) -> str:
    """One line: the next forced pick-up and why (how soon every other legal move fails)."""
    headline, why = hint_parts(puzzle, found)
    return f"{headline}: {why}"


def hint_parts(puzzle: Puzzle, found: Hint) -> tuple[str, str]:
    """The hint's two parts: what to do ("start at e2") and why ("every other start fails
    (g1 within 7 pick-ups; a7, c6 at once ...)")."""
    name = puzzle.name
    verb = "start at" if not found.prefix else "pick up"
    if not found.right and not found.prefix:
        return "no order picks up every stone", "every start fails"
    if not found.right:
        return "no order goes on from here", "the pick-ups so far lead nowhere"
    if not found.forced:
        return "no forced move", f"{len(found.right)} moves lead on ({' '.join(name(c) for c in found.right)})"
    move = f"{verb} {name(found.right[0])}"
    if not found.wrong:
        return move, "it is the only legal move"
    deepest = sorted(found.wrong, key=lambda w: LOOKAHEAD_CAP + 1 if w[1] is None else w[1], reverse=True)
    by_depth: dict[str, list[str]] = {}  # "c6, d6 at once": the moves of one depth together
    for c, d in deepest[:6]:
        by_depth.setdefault(_depth_text(d), []).append(name(c))
    shown = "; ".join(f"{', '.join(names)} {text}" for text, names in by_depth.items())
    more = f" and {len(deepest) - 6} more" if len(deepest) > 6 else ""
    return move, f"every other {'start' if not found.prefix else 'move'} fails ({shown}{more})"


class _Lines:
    """The legal moves of a puzzle as plain bit operations (for hints and ratings)."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.tables = tables(puzzle)
        self.puzzle = puzzle
        self.index = {cell: i for i, cell in enumerate(puzzle.stones)}
        self.ray = [[int(w) & ((1 << 64) - 1) for w in row] for row in self.tables[0].tolist()]
        self.kernels = load_kernels()
        self.memo: dict[tuple[int, int, int], int] = {}

    def moves(self, mask: int, cur: int, came: int) -> list[tuple[int, int]]:
        found = []
        for d in range(4):
            if came != NO_DIRECTION and d == came ^ 2:
                continue
            cand = mask & self.ray[cur][d]
            if cand:
                found.append((((cand & -cand).bit_length() - 1) if d in (1, 2) else cand.bit_length() - 1, d))
        return found

    def doomed(self, mask: int, cur: int) -> bool:
        """The kernel's ``doomed`` (the solver's pruning): a stone left that nothing can reach,
        or two that could each only be the last."""
        ray, bit = self.tables
        return bool(self.kernels.doomed(ray, bit, np.int64(signed_word(mask)), cur))

    def longest(self, mask: int, cur: int, came: int, budget: int, limits: Limits) -> int:
        """The most pick-ups any line from this state (which has no completion) makes before it
        stops or is seen to be doomed, capped at ``budget + 1``."""
        key = (mask, cur, came)
        known = self.memo.get(key)  # exact values only
        if known is not None:
            return min(known, budget + 1)
        limits.check()
        if self.doomed(mask, cur):
            return 0
        best = 0
        for nxt, d in self.moves(mask, cur, came):
            if best > budget:
                break
            best = max(best, 1 + self.longest(mask & ~(1 << nxt), nxt, d, budget - 1, limits))
        best = min(best, budget + 1)
        if best <= budget:
            self.memo[key] = best
        return best


def hint(puzzle: Puzzle | str, prefix: Sequence[Cell] = (), limits: Limits | None = None) -> Hint:
    """The next pick-up after ``prefix`` (a legal start of an order; empty: the start stone): which
    legal moves lead on to a complete order (the counter decides), and for each other one the
    look-ahead that refutes it (see :class:`Hint`)."""
    limits = limits if limits is not None else Limits()
    puzzle = as_puzzle(puzzle)
    prefix = tuple(prefix)
    problem = first_problem(puzzle, prefix) if prefix else None
    if problem is not None and problem.step:
        raise BoardPuzzlesError(f"the pick-ups so far are illegal: {problem}")
    if len(prefix) == puzzle.size:
        raise BoardPuzzlesError("every stone is picked up already")
    lines = _Lines(puzzle)
    counter = Counter(puzzle, 1, limits)
    mask = (1 << puzzle.size) - 1
    for cell in prefix:
        mask &= ~(1 << lines.index[cell])
    right: list[Cell] = []
    wrong: list[tuple[Cell, int | None]] = []
    for cell, _ in legal_moves(puzzle, prefix):
        if counter((*prefix, cell)):
            right.append(cell)
            continue
        i = lines.index[cell]
        came = NO_DIRECTION if not prefix else arrival(puzzle, (*prefix, cell))
        depth = 1 + lines.longest(mask & ~(1 << i), i, came, LOOKAHEAD_CAP - 1, limits)
        wrong.append((cell, depth if depth <= LOOKAHEAD_CAP else None))
    return Hint(prefix, tuple(right), tuple(wrong))


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle with one order is: ``choices`` is the number of steps (the start
    included) with more than one legal move, ``depth`` the deepest look-ahead any wrong move
    needs (None: beyond LOOKAHEAD_CAP), ``steps`` the depth needed at each step (0: forced)."""

    choices: int
    depth: int | None
    steps: tuple[int | None, ...]

    def describe(self) -> str:
        if self.depth is None:
            deepest = f"more than {LOOKAHEAD_CAP} pick-ups"
        else:
            deepest = f"{self.depth} pick-up{'s' if self.depth != 1 else ''}"
        return f"{self.choices} steps with a real choice; deepest look-ahead {deepest}"


def rate(puzzle: Puzzle | str, limits: Limits | None = None) -> Rating:
    """The difficulty of a puzzle with exactly one order (see :class:`Rating`): a hint at every
    step of the order."""
    limits = limits if limits is not None else Limits()
    puzzle = as_puzzle(puzzle)
    order, second = first_two(puzzle)
    if order is None or second is not None:
        raise BoardPuzzlesError("only a puzzle with exactly one order has a rating")
    steps: list[int | None] = []
    choices = 0
    for k in range(puzzle.size):
        found = hint(puzzle, order[:k], limits)
        choices += bool(found.wrong)
        steps.append(found.depth)
    depth = None if None in steps else max((d for d in steps if d is not None), default=0)
    return Rating(choices, depth, tuple(steps))
