"""The generic play of a puzzle whose answers are pairs of neighbouring cells (dominoes): click
a square, then a square beside it, and the pair is placed; click a placed pair to take it off.

Glossary
--------
state     the pairs placed (sorted, each ``(smaller, larger)``) and the square picked for the
          next pair (``-1``: none). JSON ``{"pairs": [[a, b], ...], "picked": cell or null}``.
fault     the puzzle's ``violations`` of the pairs placed, less those that only say a square is
          not covered yet (what is left to do), and "no solution holds these pairs" when the
          puzzle's search, given ``CHECK_SECONDS``, finds no answer through them.
hint      a pair of an answer that holds every pair placed (the one through the picked square
          when there is one).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from boardpuzzles.answers import CellPairs
from boardpuzzles.errors import BoardPuzzlesError, excerpt
from boardpuzzles.grid import ORTHOGONAL
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import BoardProblem, BoardSetup, Click, Fault, Hint, IllegalMove, Json, Play, Tool, rules_line
from boardpuzzles.protocol import Puzzle

Pair = tuple[int, int]
PairsState = tuple[tuple[Pair, ...], int]
TOOL = Tool("pair", "Pair", "p")
#: Seconds the search may take to say whether the pairs placed can be completed (or a size has an answer).
CHECK_SECONDS = 0.5
PICKED_COLOUR = "#ffd54f"
#: The sizes offered: from the small example's side, this many (those with an answer).
PAIR_SIZES = 5
#: Positions whose completion is remembered (see ``_PairRules.completes``).
KEPT = 1024
_KEPT: dict[tuple[str, tuple[Pair, ...]], bool] = {}
_KEPT_LOCK = threading.Lock()


def pairs_play(puzzle: Puzzle[Any, Any]) -> Play[BoardProblem, PairsState] | None:
    """The play of a puzzle whose answers are :class:`~boardpuzzles.answers.CellPairs` (None otherwise)."""
    generic = BoardSetup.of(puzzle, PAIR_SIZES)
    if generic is None or not isinstance(generic.first, CellPairs):
        return None
    rules = _PairRules(puzzle, generic)
    sizes = tuple(size for size in generic.sizes if rules.can_be_solved(size))
    if not sizes:
        return None
    return Play(
        tools=(TOOL,),
        sizes=sizes,
        new=rules.new,
        click=rules.click,
        faults=rules.faults,
        solved=rules.solved,
        hint=rules.hint,
        scene=rules.scene,
        state_to_json=lambda problem, state: {"pairs": [list(p) for p in state[0]], "picked": _or_none(state[1])},
        state_from_json=rules.state_from_json,
        problem_to_json=lambda problem: problem.values,
        problem_from_json=lambda values: generic.make(puzzle, values),
        rules=rules_line(puzzle) + " Click a square, then one beside it.",
        solution=rules.solution,
    )


def _or_none(picked: int) -> int | None:
    return None if picked < 0 else picked


@dataclass(frozen=True)
class _PairRules:
    puzzle: Puzzle[Any, Any]
    generic: BoardSetup

    def new(self, size: int, difficulty: str, seed: int) -> tuple[BoardProblem, PairsState]:
        return self.generic.make(self.puzzle, self.generic.values(size)), ((), -1)

    def can_be_solved(self, size: int) -> bool:
        """Whether the problem of ``size`` has an answer (a board of odd area has no tiling)."""
        try:
            problem, _ = self.new(size, "", 0)
            return next(self.puzzle.solutions(problem.problem, Limits(CHECK_SECONDS)), None) is not None
        except (BoardPuzzlesError, TimeLimitReached):
            return False

    def click(self, problem: BoardProblem, state: PairsState, cell: int, tool: str) -> PairsState:
        grid = problem.grid
        if type(cell) is not int or not 0 <= cell < grid.size:
            raise IllegalMove(f"cell {excerpt(cell)} is off the board")
        if tool != TOOL.name:
            raise IllegalMove(f"no tool {excerpt(tool)}")
        pairs, picked = state
        placed = next((p for p in pairs if cell in p), None)
        if placed is not None:  # take it off
            return tuple(p for p in pairs if p != placed), -1
        if picked < 0 or picked == cell:
            return pairs, -1 if picked == cell else cell
        if cell not in grid.neighbours(picked, ORTHOGONAL):
            return pairs, cell  # a new first square
        pair = (min(picked, cell), max(picked, cell))
        return tuple(sorted((*pairs, pair))), -1

    def answer(self, problem: BoardProblem, state: PairsState) -> CellPairs:
        return CellPairs(problem.grid, state[0])

    def faults(self, problem: BoardProblem, state: PairsState) -> list[Fault]:
        found = [
            Fault(m)
            for m in self.puzzle.violations(problem.problem, self.answer(problem, state))
            if not m.endswith(" is not covered")
        ]
        if not found and state[0] and not self.completes(problem, state[0]):
            cells = tuple(c for pair in state[0] for c in pair)
            found.append(Fault("no solution holds these pairs: take one off (undo)", cells))
        return found

    def completes(self, problem: BoardProblem, pairs: tuple[Pair, ...]) -> bool:
        """Whether some answer holds ``pairs`` (True when the search runs out of time to say);
        the last ``KEPT`` answers are kept, as a position is drawn again after each request."""
        key = (json.dumps(problem.values, sort_keys=True), pairs)
        with _KEPT_LOCK:
            if key in _KEPT:
                return _KEPT[key]
        try:
            answer = next(self.through(problem, (pairs, -1), Limits(CHECK_SECONDS)), None) is not None
        except TimeLimitReached:
            answer = True
        with _KEPT_LOCK:
            _KEPT[key] = answer
            while len(_KEPT) > KEPT:
                del _KEPT[next(iter(_KEPT))]
        return answer

    def solved(self, problem: BoardProblem, state: PairsState) -> bool:
        return not self.puzzle.violations(problem.problem, self.answer(problem, state))

    def through(self, problem: BoardProblem, state: PairsState, limits: Limits) -> Iterator[CellPairs]:
        placed = set(state[0])
        for answer in self.puzzle.solutions(problem.problem, limits):
            if placed <= set(answer.pairs):
                yield answer

    def missing(self, problem: BoardProblem, state: PairsState, limits: Limits) -> list[Pair] | None:
        answer = next(self.through(problem, state, limits), None)
        if answer is None:
            return None
        placed, picked = set(state[0]), state[1]
        rest = [p for p in answer.pairs if p not in placed]
        return sorted(rest, key=lambda p: picked not in p)

    def hint(self, problem: BoardProblem, state: PairsState, limits: Limits) -> Hint:
        if self.solved(problem, state):
            return Hint("solved: nothing left to do")
        try:
            rest = self.missing(problem, state, limits)
        except TimeLimitReached:
            return Hint("no hint found in time")
        if rest is None:
            return Hint("no solution holds every pair placed: take one off (undo)")
        a, b = rest[0]
        return Hint(f"a pair on {problem.grid.name(a)} and {problem.grid.name(b)}", (a, b))

    def solution(self, problem: BoardProblem, state: PairsState, limits: Limits) -> list[Click]:
        rest = self.missing(problem, state, limits) or []
        clicks = [(state[1], TOOL.name)] if state[1] >= 0 and rest and state[1] not in rest[0] else []
        if rest and state[1] in rest[0]:  # the picked square's pair: one click finishes it
            a, b = rest.pop(0)
            clicks.append((b if a == state[1] else a, TOOL.name))
        return clicks + [(c, TOOL.name) for pair in rest for c in pair]

    def scene(self, problem: BoardProblem, state: PairsState) -> Any:
        scene = self.puzzle.to_scene(problem.problem, self.answer(problem, state))
        if state[1] >= 0:
            scene.marks[state[1]] = PICKED_COLOUR
        return scene

    def state_from_json(self, problem: BoardProblem, document: Json) -> PairsState:
        try:
            pairs = tuple(sorted((min(int(a), int(b)), max(int(a), int(b))) for a, b in document["pairs"]))
            picked = document["picked"]
            picked = -1 if picked is None else int(picked)
        except (KeyError, TypeError, ValueError):
            raise BoardPuzzlesError('a pairs state is {"pairs": [[a, b], ...], "picked": cell or null}') from None
        size = problem.grid.size
        if not all(0 <= c < size for pair in pairs for c in pair) or not -1 <= picked < size:
            raise BoardPuzzlesError("a pairs state names cells off the board")
        return pairs, picked
