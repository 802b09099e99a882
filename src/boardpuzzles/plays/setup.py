"""What every default play reads off a puzzle's record: the problems it offers (by size, the
other parameters as in the record's ``small`` example), the rules in a sentence, and the
record's checker and search, used the same way by every answer shape.

Glossary
--------
record problem  a :class:`RecordProblem`: the parameter values a problem was made from (JSON:
                what a stored game keeps) and the problem itself.
setup           a :class:`Setup`: the record, its size parameter, the other parameters' values
                and the sizes offered (those whose problem has an answer, ascending; 6x6 the
                default where it is one of them, else the smallest).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.faults import Fault
from boardpuzzles.grid import Grid
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import NO_HINT_IN_TIME, Hint, Json
from boardpuzzles.protocol import Puzzle

#: How many sizes a default play offers, from the small example's side up.
SIZES = 7
#: Seconds the search may take to say whether a size has an answer.
CHECK_SECONDS = 0.5
#: A dead end tries at most this many of the things placed, one at a time (:func:`each_found`).
TRIED_IN_A_DEAD_END = 32
#: The records whose kernels this process has compiled (:meth:`Setup.warm`).
_WARMED: set[str] = set()
_WARM_LOCK = threading.Lock()
T = TypeVar("T")


@dataclass(frozen=True)
class RecordProblem:
    """A problem as a default play holds it (see the glossary)."""

    values: Json
    problem: Any

    @property
    def grid(self) -> Grid:
        return self.problem.grid  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Setup:
    """What a default play knows of its record (see the glossary)."""

    puzzle: Puzzle[Any, Any]
    size_name: str
    pair: bool  # the size is rows and columns (kind ``size``), not one side
    base: Mapping[str, Any]
    sizes: tuple[int, ...]
    default_size: int = 0

    @classmethod
    def of(cls, puzzle: Puzzle[Any, Any], count: int = SIZES) -> Setup | None:
        """None when the record has no positional size or no ``small`` example, or no size
        it offers has an answer."""
        size_param = next((p for p in puzzle.params if p.kind in ("size", "side") and p.positional), None)
        if size_param is None or not puzzle.small:
            return None
        base = puzzle.parse_values(puzzle.small)
        try:
            grid = puzzle.make(**base).grid
        except (BoardPuzzlesError, AttributeError):
            return None
        side = max(grid.rows, grid.cols)
        setup = cls(puzzle, size_param.name, size_param.kind == "size", base, ())
        sizes = tuple(size for size in range(side, side + count) if setup.has_answer(size))
        if not sizes:
            return None
        return cls(puzzle, setup.size_name, setup.pair, base, sizes, 6 if 6 in sizes else sizes[0])

    def values(self, size: int) -> Json:
        """The parameter values (as JSON) of a new problem of ``size``."""
        values = dict(self.base)
        values[self.size_name] = (size, size) if self.pair else size
        return _jsonable(values)

    def make(self, values: Json) -> RecordProblem:
        """The problem of parameter values as JSON (what a stored game holds)."""
        if not isinstance(values, dict):
            raise BoardPuzzlesError("a problem is the puzzle's parameters, a JSON object")
        typed = dict(values)
        if self.pair and isinstance(typed.get(self.size_name), list):
            typed[self.size_name] = tuple(typed[self.size_name])
        return RecordProblem(_jsonable(typed), self.puzzle.make(**typed))

    def new(self, size: int) -> RecordProblem:
        return self.make(self.values(size))

    def has_answer(self, size: int) -> bool:
        """Whether the problem of ``size`` can be made and has an answer: False when the search
        ends without one within ``CHECK_SECONDS`` (a board of odd area has no tiling), True when
        it finds one or cannot tell in time (a kernel compiling on its first call)."""
        try:
            problem = self.new(size)
        except BoardPuzzlesError:
            return False
        limits = Limits(CHECK_SECONDS)
        try:
            return next(self.puzzle.solutions(problem.problem, limits), None) is not None
        except TimeLimitReached:
            return True
        except BoardPuzzlesError:
            return False
        finally:
            limits.close()

    def warm(self) -> None:
        """Compile the record's kernels once per process, before a search on a clock."""
        with _WARM_LOCK:
            if self.puzzle.name not in _WARMED:
                self.puzzle.warm()
                _WARMED.add(self.puzzle.name)

    # ---------------------------------------------------------------- the record's checker and search
    def faults(self, problem: RecordProblem, answer: Any) -> list[Fault]:
        return self.puzzle.violations(problem.problem, answer)

    def solved(self, problem: RecordProblem, answer: Any) -> bool:
        return not self.puzzle.violations(problem.problem, answer)

    def answers(self, problem: RecordProblem, keep: Callable[[Any], bool], limits: Limits) -> Iterator[Any]:
        """The record's answers that ``keep`` accepts (those that hold what is placed)."""
        for answer in self.puzzle.solutions(problem.problem, limits):
            if keep(answer):
                yield answer

    def scene(self, problem: RecordProblem, answer: Any) -> Any:
        """The record's picture of an answer, with its own copies of the fields a play adds to."""
        import dataclasses

        scene = self.puzzle.to_scene(problem.problem, answer)
        return dataclasses.replace(scene, marks=dict(scene.marks), mark_meanings=dict(scene.mark_meanings))


def first_or_none(answers: Iterator[Any]) -> tuple[Any, Hint | None]:
    """The first answer, or None with the hint that says why there is none: the search ran out
    of time, or none holds what is placed."""
    try:
        answer = next(answers, None)
    except TimeLimitReached:
        return None, NO_HINT_IN_TIME
    return answer, None if answer is not None else Hint(
        "no solution holds what is placed: take something back (undo)", outcome="dead end"
    )


def each_found(placed: Sequence[T], test: Callable[[T], bool | None]) -> list[T] | None:
    """The things ``placed`` (the first ``TRIED_IN_A_DEAD_END``, in their order: a play passes
    the likeliest mistakes first) that ``test`` finds, for a dead end: those no solution holds
    even alone, or those whose removal alone lets a solution hold the rest. [] when none is one;
    None when a test runs out of time (``test`` says None: say no more than the searches proved),
    or when none of those tried is one and more were placed. The tests share one clock, the
    limits ``test`` searches within."""
    found = []
    for thing in placed[:TRIED_IN_A_DEAD_END]:
        verdict = test(thing)
        if verdict is None:
            return None
        if verdict:
            found.append(thing)
    return found if found or len(placed) <= TRIED_IN_A_DEAD_END else None


def rules_of(puzzle: Puzzle[Any, Any], how: str = "") -> str:
    """The rules for a player: the record's ``rules`` (else its title), then ``how`` to play."""
    rules = puzzle.rules or puzzle.title[:1].upper() + puzzle.title[1:] + "."
    return f"{rules} {how}" if how else rules


def cell_index(grid: Grid, cell: object) -> int:
    """A clicked cell, checked: an index of the grid, else :class:`~boardpuzzles.play.IllegalMove`."""
    from boardpuzzles.errors import excerpt
    from boardpuzzles.play import IllegalMove

    if type(cell) is not int or not 0 <= cell < grid.size:
        raise IllegalMove(f"cell {excerpt(cell)} is off the board")
    return cell


def _jsonable(values: Mapping[str, Any]) -> Json:
    return {name: list(v) if isinstance(v, tuple) else v for name, v in values.items()}
