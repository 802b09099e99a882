"""A knight's tour being written by hand: the problem, the numbers on the board, and what a click
does to them (the rest of the play is :mod:`.play`).

Glossary
--------
problem     a :class:`TourProblem`: the board's side, open or closed tours, and in puzzle mode
            the given move numbers and the one tour through them (:func:`~.givens.make`).
mode        the difficulty names it: ``open`` and ``closed`` are free play on a blank board (any
            tour, closed ones ending a knight's move from their start); ``easy``, ``medium`` and
            ``hard`` are puzzles: some move numbers given, exactly one open tour through them.
state       :class:`Numbers`: the move numbers the player wrote (each on a square), and the
            *selected* square, whose number the next click follows. Numbers are written in any
            order: from any number on the board, given or written, forwards or backwards.
step        the main tool: a click on a numbered square selects it (the selected one stays
            selected); a click on an empty square a knight's move from the selected one writes
            the next number there (with nothing selected and no 1 on the board, a 1) and selects
            it. Where the selection gives no number to write (nothing is selected, or its next
            number is on the board already), the square takes the only number it can: the next
            of the one number a knight's move away whose next is missing (so that a click on a
            hint's square plays it, whatever was selected before). A number already on the
            board, a square that is no knight's move from the selected one or from the number
            after the new one, or a square that could take two numbers is refused with the
            reason.
erase       the second tool: a click takes the player's number off a square (a given stays).
before      like ``step``, but it writes the number before the selected one (or before the one
            number a knight's move away whose previous number is missing).
chain       the squares of 1, 2, 3, ... as far as they run without a gap: the path from the start.
legal next  the squares where the next click writes a number, marked on the board.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from boardpuzzles.errors import BoardPuzzlesError, check_seed, excerpt
from boardpuzzles.grid import Grid
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import IllegalMove, Tool
from boardpuzzles.puzzles.knights_tour.rules import Problem, Tour, board, knight_moves, no_tour_reason

#: Free play (open or closed tours on a blank board), then the puzzles' levels.
FREE_MODES = ("open", "closed")
PUZZLE_LEVELS = ("easy", "medium", "hard")
DIFFICULTIES = FREE_MODES + PUZZLE_LEVELS
#: The board's side, and the side of a new game that names none.
SIZES, DEFAULT_SIZE = (5, 6, 7, 8), 6
STEP, ERASE, BEFORE = "step", "erase", "before"
TOOLS = (Tool(STEP, "Next number", "s"), Tool(ERASE, "Erase", "x"), Tool(BEFORE, "Number before", "b"))
#: The seconds a new puzzle may take to make.
MAKE_SECONDS = 60.0


@dataclass(frozen=True)
class TourProblem:
    """A board to tour: its ``side``, ``closed`` or open tours, and in puzzle mode the given
    numbers as ``(cell, move)`` pairs in move order and the one tour through them."""

    side: int
    closed: bool = False
    givens: tuple[tuple[int, int], ...] = ()
    solution: Tour = ()

    @property
    def rules(self) -> Problem:
        return Problem(self.side, self.side, closed=self.closed)

    @property
    def grid(self) -> Grid:
        return board(self.side)

    @property
    def squares(self) -> int:
        return self.side * self.side

    @functools.cached_property
    def move_on(self) -> dict[int, int]:
        """The given number on each given square."""
        return dict(self.givens)

    @functools.cached_property
    def square_of(self) -> dict[int, int]:
        """The square each given number is on."""
        return {move: cell for cell, move in self.givens}

    def name(self, cell: int) -> str:
        return self.grid.name(cell)

    def start(self) -> Numbers:
        """The state a game starts with: nothing written, the given 1 selected if there is one."""
        return Numbers((), self.square_of.get(1, -1))


@dataclass(frozen=True)
class Numbers:
    """The player's numbers as ``(cell, move)`` pairs in move order, and the selected square
    (-1: none); see the module glossary."""

    placed: tuple[tuple[int, int], ...] = ()
    selected: int = -1


@functools.cache
def moves_of(side: int) -> tuple[frozenset[int], ...]:
    """Each square's knight moves (the rules' table)."""
    targets, counts = knight_moves(side, side)
    return tuple(frozenset(int(x) for x in targets[v, : counts[v]]) for v in range(side * side))


def numbers_of(problem: TourProblem, state: Numbers) -> dict[int, int]:
    """Every number on the board, given or written: square -> move."""
    return {**problem.move_on, **dict(state.placed)}


def squares_of(problem: TourProblem, state: Numbers) -> dict[int, int]:
    """Every number on the board: move -> square."""
    return {move: cell for cell, move in numbers_of(problem, state).items()}


def chain(problem: TourProblem, state: Numbers) -> Tour:
    """The squares of 1, 2, 3, ... as far as they run without a gap (see the glossary)."""
    by_move = squares_of(problem, state)
    path: list[int] = []
    while len(path) + 1 in by_move:
        path.append(by_move[len(path) + 1])
    return tuple(path)


def as_path(problem: TourProblem, path: Tour) -> Numbers:
    """The state of a path written in order from 1 (the givens on it left out), its end selected."""
    placed = tuple((cell, k) for k, cell in enumerate(path, start=1) if cell not in problem.move_on)
    return Numbers(placed, path[-1] if path else problem.start().selected)


# ---------------------------------------------------------------- a new game and a click
def new(size: int, difficulty: str, seed: int) -> tuple[TourProblem, Numbers]:
    """A blank board (``open``, ``closed``) or a puzzle of the level (see the glossary)."""
    check_seed(seed)
    if size not in SIZES:
        raise BoardPuzzlesError(f"a knight's tour is played on {', '.join(f'{n}×{n}' for n in SIZES)}")
    if difficulty in PUZZLE_LEVELS:
        from boardpuzzles.puzzles.knights_tour.givens import make

        limits = Limits(MAKE_SECONDS)
        try:
            made = make(size, difficulty, seed, limits)
        except TimeLimitReached:
            raise BoardPuzzlesError(
                f"no {size}×{size} puzzle was made in {MAKE_SECONDS:g} s: try another seed or a smaller board"
            ) from None
        finally:
            limits.close()
        problem = TourProblem(size, made.problem.closed, _pairs(made.givens), tuple(made.solution))
        return problem, problem.start()
    if difficulty not in FREE_MODES:
        raise BoardPuzzlesError(f"difficulty is one of {', '.join(DIFFICULTIES)}, got {excerpt(difficulty)}")
    closed = difficulty == "closed"
    reason = no_tour_reason(size, size, closed)
    if reason:
        page = reason.replace(f"{size}x{size}", f"{size}×{size}")  # a size as a page writes it
        raise BoardPuzzlesError(f"no {difficulty} tour: {page}")
    problem = TourProblem(size, closed)
    return problem, problem.start()


def _pairs(givens: Mapping[int, int]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(((int(c), int(m)) for c, m in givens.items()), key=lambda pair: pair[1]))


def click(problem: TourProblem, state: Numbers, cell: int, tool: str) -> Numbers:
    """The numbers after a click of ``tool`` on ``cell`` (see the glossary), or :class:`IllegalMove`."""
    if tool not in (STEP, ERASE, BEFORE):
        raise IllegalMove(f"no tool {excerpt(tool)}; the tools are {STEP}, {ERASE} and {BEFORE}")
    if type(cell) is not int or not 0 <= cell < problem.squares:
        raise IllegalMove(f"cell {excerpt(cell)} is off the {problem.side}×{problem.side} board")
    at = numbers_of(problem, state)
    if tool == ERASE:
        if cell in problem.move_on:
            raise IllegalMove(f"{problem.name(cell)} shows a given number: it stays")
        return _erased(problem, state, cell) if cell in at else state
    if cell in at:
        return Numbers(state.placed, cell)
    step, by_move = (1 if tool == STEP else -1), squares_of(problem, state)
    wanted: int | None = None  # the number the selection gives
    if state.selected < 0:
        if tool == STEP and 1 not in by_move:
            return _written(problem, state, cell, 1)
    else:
        wanted = at[state.selected] + step
        if 1 <= wanted <= problem.squares and wanted not in by_move:
            return _written(problem, state, cell, wanted)  # refused there, with the reason, if it cannot go here
    fits = _fits(problem, state, cell, step)
    if len(fits) == 1:
        return _written(problem, state, cell, fits[0])
    if fits:
        side, follows = ("after", "follows") if step > 0 else ("before", "comes before")
        options = " or ".join(f"{k} ({side} {problem.name(by_move[k - step])})" for k in fits)
        raise IllegalMove(f"{problem.name(cell)} could hold {options}: select the number it {follows}")
    if wanted is None:
        raise IllegalMove("select a numbered square first: the next number follows it")
    return _written(problem, state, cell, wanted)  # refused with the selection's reason: its next is there already


def _fits(problem: TourProblem, state: Numbers, cell: int, step: int) -> list[int]:
    """The numbers the empty ``cell`` may take ``step`` after (-1: before) a number a knight's
    move away, where that number's neighbour is missing, in ascending order."""
    at, by_move, fits = numbers_of(problem, state), squares_of(problem, state), []
    for neighbour in moves_of(problem.side)[cell] & set(at):
        move = at[neighbour] + step
        if 1 <= move <= problem.squares and move not in by_move:
            try:
                _written(problem, state, cell, move)
            except IllegalMove:  # a knight's move from this number, not from the one beyond
                continue
            fits.append(move)
    return sorted(fits)


def _erased(problem: TourProblem, state: Numbers, cell: int) -> Numbers:
    """The numbers without the one on ``cell``; when it was selected, the number before it is."""
    move = dict(state.placed)[cell]
    selected = state.selected
    if selected == cell:
        selected = squares_of(problem, state).get(move - 1, -1)
    return Numbers(tuple(pair for pair in state.placed if pair[0] != cell), selected)


def _written(problem: TourProblem, state: Numbers, cell: int, move: int) -> Numbers:
    """The numbers with ``move`` written on the empty square ``cell`` (and selected), or
    :class:`IllegalMove` with the reason."""
    name, by_move, moves = problem.name, squares_of(problem, state), moves_of(problem.side)
    if not 1 <= move <= problem.squares:
        raise IllegalMove(f"the numbers run from 1 to {problem.squares}: there is no {move}")
    if move in by_move:
        raise IllegalMove(f"{move} is on {name(by_move[move])} already")
    for neighbour in (move - 1, move + 1):
        there = by_move.get(neighbour)
        if there is not None and cell not in moves[there]:
            raise IllegalMove(f"{name(cell)} is not a knight's move from {name(there)}, which shows {neighbour}")
    return Numbers(tuple(sorted((*state.placed, (cell, move)), key=lambda pair: pair[1])), cell)


def legal_next(problem: TourProblem, state: Numbers) -> list[int]:
    """The squares where the next click of the main tool writes a number (see the glossary)."""
    if state.selected < 0:
        return []
    at, by_move = numbers_of(problem, state), squares_of(problem, state)
    move = at[state.selected] + 1
    if move > problem.squares or move in by_move:
        return []
    moves, after = moves_of(problem.side), by_move.get(move + 1)
    return [x for x in sorted(moves[state.selected]) if x not in at and (after is None or x in moves[after])]


def state_from_json(problem: TourProblem, document: Any) -> Numbers:
    """The numbers that :func:`state_to_json` wrote (or a path: square names in order from 1),
    checked as clicks would be."""
    if isinstance(document, list):  # a path, as older games stored it
        names = [str(name) for name in document]
        numbers = {name: k for k, name in enumerate(names, start=1) if k not in problem.square_of}
        document = {"numbers": numbers, "selected": names[-1] if names else None}
    if not isinstance(document, dict) or set(document) != {"numbers", "selected"}:
        raise BoardPuzzlesError('the numbers are {"numbers": {"c3": 1, ...}, "selected": "c3" or null}')
    numbers, selected = document["numbers"], document["selected"]
    if not isinstance(numbers, dict) or len(numbers) > problem.squares:
        raise BoardPuzzlesError(f"the numbers are at most {problem.squares} squares and their numbers")
    state = Numbers()
    for cell_name, move in numbers.items():
        cell = problem.grid.cell_named(str(cell_name))
        if type(move) is not int or cell in numbers_of(problem, state):
            raise BoardPuzzlesError(f"not the numbers of this board: {excerpt(cell_name)} holds {excerpt(move)}")
        try:
            state = _written(problem, state, cell, move)
        except IllegalMove as err:
            raise BoardPuzzlesError(f"not the numbers of this board: {err}") from None
    chosen = -1 if selected is None else problem.grid.cell_named(str(selected))
    if chosen >= 0 and chosen not in numbers_of(problem, state):
        raise BoardPuzzlesError("the selected square holds no number")
    return Numbers(state.placed, chosen)


def state_to_json(problem: TourProblem, state: Numbers) -> Any:
    name = problem.name
    return {
        "numbers": {name(cell): move for cell, move in state.placed},
        "selected": name(state.selected) if state.selected >= 0 else None,
    }
