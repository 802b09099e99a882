"""The default plays of paths (:func:`~boardpuzzles.answers.path_of`: tours, walks) and orders
of cells (:data:`~boardpuzzles.answers.ORDER`: pick-up orders): cells clicked in order.

Glossary
--------
state     the cells so far, in order.
step      the main tool: a click on a cell not on the path adds it at the end (refused, with
          the reason, when the answer type knows the path's steps and the cell is no step from
          the end); a click on a cell of the path cuts the path back so that it ends there
          (on the end itself it changes nothing). Paths may be drawn by dragging: each cell the
          pointer enters is such a click, so dragging back along the path takes it back.
erase     the second tool: a click on a cell of the path takes it back from that cell on.
legal     the cells the next step may take (when the steps are known), marked on the board.
fault     the record's ``violations`` of the path (a path that is not a full answer yet gets
          its unfinished faults; a closed path is judged closed only once complete).
hint      the next cell of an answer that starts with the path, or where to cut it back: found
          by a search that extends the path along its steps (the fewest onward steps first,
          Warnsdorff's rule) when the steps are known, else among the record's answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from boardpuzzles.answers import Order, Path
from boardpuzzles.errors import BoardPuzzlesError, excerpt
from boardpuzzles.grid import KING_STEPS, Direction
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import NO_HINT_IN_TIME, SOLVED_HINT, Click, Hint, IllegalMove, Json, Play, Tool
from boardpuzzles.plays.setup import RecordProblem, Setup, cell_index, rules_of
from boardpuzzles.plays.words import scene_words
from boardpuzzles.protocol import Puzzle

#: The cells so far, in order.
Cells = tuple[int, ...]
STEP = Tool("step", "Step", "s")
ERASE = Tool("erase", "Take back", "x")
LEGAL_COLOUR = "#a5d6a7"


def path_play(
    puzzle: Puzzle[Any, Any], closed: bool = False, steps: Sequence[Direction] | None = None
) -> Play[RecordProblem, Cells] | None:
    """The default play of a record whose answers are paths (see the module glossary)."""
    setup = Setup.of(puzzle)
    if setup is None:
        return None

    def answer(problem: RecordProblem, cells: Cells) -> Path:
        return Path(problem.grid, cells, closed and len(cells) == problem.grid.size)

    walk = _Walk(setup, answer, tuple(steps) if steps is not None else None)
    drag = steps is None or set(steps) <= set(KING_STEPS)
    return walk.play(rules_of(puzzle, "Click the squares in order" + (", or drag along them." if drag else ".")), drag)


def order_play(puzzle: Puzzle[Any, Any]) -> Play[RecordProblem, Cells] | None:
    """The default play of a record whose answers are orders of cells."""
    setup = Setup.of(puzzle)
    if setup is None:
        return None
    walk = _Walk(setup, lambda problem, cells: Order(problem.grid, cells))
    return walk.play(rules_of(puzzle, "Click the squares in order."), drag=False)


@dataclass(frozen=True)
class _Walk:
    """The functions of a path or order play: ``answer(problem, cells)`` makes the record's
    answer of the cells so far; ``steps``, when known, are the moves between neighbours."""

    setup: Setup
    answer: Callable[[RecordProblem, Cells], Any]
    steps: tuple[Direction, ...] | None = None

    def play(self, rules: str, drag: bool) -> Play[RecordProblem, Cells]:
        return Play(
            tools=(STEP, ERASE),
            sizes=self.setup.sizes,
            default_size=self.setup.default_size,
            seedless=("",),  # a blank board of each size
            new=lambda size, difficulty, seed: (self.setup.new(size), ()),
            click=self.click,
            faults=lambda problem, cells: self.setup.faults(problem, self.answer(problem, cells)),
            solved=lambda problem, cells: self.setup.solved(problem, self.answer(problem, cells)),
            hint=self.hint,
            scene=self.scene,
            state_to_json=lambda problem, cells: [problem.grid.name(c) for c in cells],
            state_from_json=self.state_from_json,
            problem_to_json=lambda problem: problem.values,
            problem_from_json=self.setup.make,
            rules=rules,
            solution=self.solution,
            drag=drag,
            describe=lambda problem, cells: scene_words(self.scene(problem, cells)),
        )

    def next_cells(self, problem: RecordProblem, cells: Cells) -> list[int]:
        """The cells the next step may take: a step from the end, not on the path yet."""
        grid = problem.grid
        if not cells or len(cells) == grid.size:
            return []
        ahead = grid.cells() if self.steps is None else grid.neighbours(cells[-1], self.steps)
        taken = set(cells)
        return [c for c in ahead if c not in taken]

    def click(self, problem: RecordProblem, cells: Cells, cell: int, tool: str) -> Cells:
        cell = cell_index(problem.grid, cell)
        if tool not in (STEP.name, ERASE.name):
            raise IllegalMove(f"no tool {excerpt(tool)}")
        if cell in cells:
            return cells[: cells.index(cell) + (tool == STEP.name)]
        if tool == ERASE.name:
            return cells
        if cells and self.steps is not None and cell not in self.next_cells(problem, cells):
            name = problem.grid.name
            raise IllegalMove(f"{name(cell)} is not a step from {name(cells[-1])}, the end of the path")
        return (*cells, cell)

    def scene(self, problem: RecordProblem, cells: Cells) -> Any:
        scene = self.setup.scene(problem, self.answer(problem, cells))
        legal = self.next_cells(problem, cells) if self.steps is not None else []
        scene.marks.update(dict.fromkeys(legal, LEGAL_COLOUR))
        if legal:
            scene.mark_meanings[LEGAL_COLOUR] = "a square the path may take next"
        return scene

    def state_from_json(self, problem: RecordProblem, document: Json) -> Cells:
        if not isinstance(document, list) or not all(isinstance(name, str) for name in document):
            raise BoardPuzzlesError('the cells so far are a list of square names: ["a1", "b2", ...]')
        cells: Cells = ()
        for name in document:
            try:
                cells = self.click(problem, cells, problem.grid.cell_named(name), STEP.name)
            except IllegalMove as err:
                raise BoardPuzzlesError(f"not a path of this board: {err}") from None
        if len(cells) != len(document):
            raise BoardPuzzlesError("the cells so far name a square twice")
        return cells

    # ---------------------------------------------------------------- hint and solution
    def target(self, problem: RecordProblem, cells: Cells, limits: Limits) -> Any:
        """An answer that starts with ``cells`` (or, when none does, with all of them but the
        last, or with none of them), or None; :class:`TimeLimitReached` when the search runs
        out of time."""
        for keep in sorted({len(cells), max(0, len(cells) - 1), 0}, reverse=True):
            answer = next(self.through(problem, cells[:keep], limits), None)
            if answer is not None:
                return answer
        return None

    def through(self, problem: RecordProblem, cells: Cells, limits: Limits) -> Iterator[Any]:
        if self.steps is not None:
            return self.extend(problem, cells, limits)
        return self.setup.answers(problem, lambda answer: tuple(answer.cells[: len(cells)]) == cells, limits)

    def extend(self, problem: RecordProblem, cells: Cells, limits: Limits) -> Iterator[Any]:
        """The answers that extend ``cells`` step by step, the cell with the fewest onward steps
        first (Warnsdorff's rule), each judged by the record's checker."""
        answer = self.answer(problem, cells)
        if cells and self.setup.solved(problem, answer):
            yield answer
            return
        limits.check()
        choices = self.next_cells(problem, cells) if cells else list(problem.grid.cells())
        onward = {c: len(self.next_cells(problem, (*cells, c))) for c in choices}
        for cell in sorted(choices, key=lambda c: onward[c]):
            yield from self.extend(problem, (*cells, cell), limits)

    def hint(self, problem: RecordProblem, cells: Cells, limits: Limits) -> Hint:
        if self.setup.solved(problem, self.answer(problem, cells)):
            return SOLVED_HINT
        try:
            answer = self.target(problem, cells, limits)
        except TimeLimitReached:
            return NO_HINT_IN_TIME
        if answer is None:
            return Hint("no solution exists on this board", outcome="dead end")
        goal, name = tuple(answer.cells), problem.grid.name
        same = _common(cells, goal)
        if same == 0 and cells:
            return Hint(
                "no solution continues from here: start again from another square", cells[:1], outcome="dead end"
            )
        if same < len(cells):
            return Hint(
                f"no solution continues from here: take the path back to {name(goal[same - 1])}",
                cells[same:],
                outcome="dead end",
            )
        return Hint(f"next: {name(goal[len(cells)])}", (goal[len(cells)],))

    def solution(self, problem: RecordProblem, cells: Cells, limits: Limits) -> list[Click]:
        try:
            answer = self.target(problem, cells, limits)
        except TimeLimitReached:
            return []
        if answer is None:
            return []
        goal = tuple(answer.cells)
        same = _common(cells, goal)
        back = [(cells[same], ERASE.name)] if same < len(cells) else []
        return back + [(cell, STEP.name) for cell in goal[same:]]


def _common(cells: Cells, goal: Cells) -> int:
    same = 0
    while same < min(len(cells), len(goal)) and cells[same] == goal[same]:
        same += 1
    return same
