"""Queens and HyperQueen played by hand: place queens, see every attack at once.

Glossary
--------
problem     a :class:`QueensPuzzle`: the rules' problem (n queens, classic board or torus) and
            the given queens (cells); none given on a blank board.
state       the cells of the queens the player placed (sorted; the givens are not in it).
tools       ``queen``: a click on an empty square places a queen, a click on the player's
            queen takes it off; a given queen stays (:class:`~boardpuzzles.play.IllegalMove`
            says why), and an (n+1)-th queen is refused (it would share a row). ``erase`` (the
            second tool): a click takes the player's queen off.
fault       the rules' checker's faults (:func:`~.rules.violations`): each row, column or
            diagonal that holds two queens or more (its queens, and segments joining them,
            cut where a torus line wraps), and the queens left to place (unfinished).
scene       the board of queens (:func:`~boardpuzzles.protocol.board_scene`) with marked squares:
            the givens' squares and the squares of each line that holds two queens; with the
            aids on, the empty squares some queen attacks too. The legend is the same for every
            position of a game (the board does not move as marks come and go).
hint        from the search of completions (:func:`.givens.completions`): a square of a
            completion of every queen on the board, or, when none exists, a queen to take off.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from boardpuzzles.board import Board
from boardpuzzles.errors import BoardPuzzlesError, check_seed, excerpt
from boardpuzzles.grid import QUEEN_LINES, Grid
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import NO_HINT_IN_TIME, SOLVED_HINT, Click, Fault, Hint, IllegalMove, Play, Tool
from boardpuzzles.protocol import board_scene
from boardpuzzles.puzzles.queens import givens as puzzles
from boardpuzzles.puzzles.queens.rules import QUEEN, Problem, violations
from boardpuzzles.scene import Scene

__all__ = ["HYPERQUEEN_PLAY", "PLAY", "QueensPuzzle", "State", "attacks", "make_play"]

#: The queens the player placed, as sorted cells.
State = tuple[int, ...]
QUEEN_TOOL = "queen"
#: The second tool (right-click, long-press): takes a queen off, never places one.
ERASE_TOOL = "erase"
#: A board without givens: the classic puzzle, no unique completion promised.
BLANK = "blank"
SIZES = (5, 6, 7, 8, 9, 10)
TORUS_SIZES = (5, 7, 11, 13)
#: The size of a new game that names none, on a board and on the torus.
DEFAULT_SIZE, TORUS_DEFAULT_SIZE = 8, 7
GIVEN_COLOUR = "#a5d6a7"
ATTACKED_COLOUR = "#d3cbbf"
SHARED_COLOUR = "#f4b4ab"


@dataclass(frozen=True)
class QueensPuzzle:
    """n queens on the classic board or the torus (``problem``), some of them given (cells)."""

    problem: Problem
    givens: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return self.problem.n

    @property
    def grid(self) -> Grid:
        return self.problem.grid


@dataclass(frozen=True)
class Attack:
    """Queens that share a line: the rules' message, the queens in the line's order, and the
    segments that join them (cut where the line wraps)."""

    message: str
    queens: tuple[int, ...]
    line: tuple[int, ...]
    segments: tuple[tuple[int, int], ...]


# ---------------------------------------------------------------- positions
def _queens(puzzle: QueensPuzzle, state: State) -> set[int]:
    return set(puzzle.givens) | set(state)


def _board(puzzle: QueensPuzzle, state: State) -> Board:
    return Board.with_pieces(puzzle.problem.grid, dict.fromkeys(_queens(puzzle, state), QUEEN))


def attacks(puzzle: QueensPuzzle, state: State) -> list[Attack]:
    """The lines holding two queens or more: the rules' checker's faults that name queens, with
    the whole line they share (the one line of the grid through all of them)."""
    grid = puzzle.problem.grid
    found = []
    for fault in violations(puzzle.problem, _board(puzzle, state)):
        if len(fault.cells) < 2:
            continue  # the count of queens: what is left to do
        line = next(
            line for direction in QUEEN_LINES if set(fault.cells) <= set(line := grid.line(fault.cells[0], direction))
        )
        found.append(Attack(fault.message, fault.cells, line, fault.lines))
    return found


def _attacked(puzzle: QueensPuzzle, queens: set[int]) -> set[int]:
    """The squares some queen attacks (along the lines of the rules' checker)."""
    grid = puzzle.problem.grid
    seen: set[int] = set()
    for queen in queens:
        for direction in QUEEN_LINES:
            seen.update(grid.line(queen, direction))
    return seen - queens


# ---------------------------------------------------------------- the play's functions
def _click(puzzle: QueensPuzzle, state: State, cell: int, tool: str) -> State:
    n = puzzle.n
    if tool not in (QUEEN_TOOL, ERASE_TOOL):
        raise IllegalMove(f"no tool {excerpt(tool)}; the tools are {QUEEN_TOOL} and {ERASE_TOOL}")
    if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < n * n:
        raise IllegalMove(f"cell {excerpt(cell)} is off the {n}×{n} board")
    name = puzzle.problem.grid.name(cell)
    if cell in puzzle.givens:
        raise IllegalMove(f"the queen on {name} is given: it stays")
    if cell in state:
        return tuple(c for c in state if c != cell)
    if tool == ERASE_TOOL:
        return state
    if len(puzzle.givens) + len(state) >= n:
        raise IllegalMove(f"{n} queens are on the board already (two would share a row): take one off first")
    return tuple(sorted((*state, cell)))


def _faults(puzzle: QueensPuzzle, state: State) -> list[Fault]:
    """The rules' checker's faults: the lines that hold two queens, and the queens left to place
    ("4 queens on the 8×8 board; a solution has 8", as a page writes a size: ``check`` writes
    "on a 8x8 board")."""
    n = puzzle.n
    found = violations(puzzle.problem, _board(puzzle, state))
    return [replace(f, message=f.message.replace(f"on a {n}x{n} board", f"on the {n}×{n} board")) for f in found]


def _solved(puzzle: QueensPuzzle, state: State) -> bool:
    return not violations(puzzle.problem, _board(puzzle, state))


def _completion(puzzle: QueensPuzzle, queens: set[int], limits: Limits | None) -> set[int] | None:
    """The first completion (lexicographic) of ``queens``, as cells, or None."""
    found = puzzles.completions(puzzle.problem, dict.fromkeys(queens, QUEEN), 1, limits)
    return set(found[0].occupied()) if found else None


def _target(puzzle: QueensPuzzle, state: State, limits: Limits) -> set[int] | None:
    """The completion to aim for: one of every queen on the board if there is one, else one
    that keeps all but one of the player's queens, else one of the givens."""
    whole = _completion(puzzle, _queens(puzzle, state), limits)
    if whole is not None:
        return whole
    for queen in state:
        near = _completion(puzzle, _queens(puzzle, state) - {queen}, limits)
        if near is not None:
            return near
    return _completion(puzzle, set(puzzle.givens), limits)


def _hint(puzzle: QueensPuzzle, state: State, limits: Limits) -> Hint:
    if _solved(puzzle, state):
        return SOLVED_HINT
    grid = puzzle.problem.grid
    try:
        target = _target(puzzle, state, limits)
    except TimeLimitReached:
        return NO_HINT_IN_TIME
    if target is None:
        return Hint("no placement holds the given queens", outcome="dead end")
    wrong = [q for q in state if q not in target]
    if wrong:
        return Hint(
            f"no solution continues from here: take the queen on {grid.name(wrong[0])} off",
            (wrong[0],),
            outcome="dead end",
        )
    cell = min(target - _queens(puzzle, state))
    return Hint(f"a queen on {grid.name(cell)}", (cell,))


def _solution(puzzle: QueensPuzzle, state: State, limits: Limits) -> list[Click]:
    target = _target(puzzle, state, limits)
    if target is None:
        return []
    off = [(q, QUEEN_TOOL) for q in state if q not in target]
    on = [(c, QUEEN_TOOL) for c in sorted(target - _queens(puzzle, state))]
    return off + on


def _scene(puzzle: QueensPuzzle, state: State, aids: bool = False) -> Scene:
    """The board, the givens' squares and the lines that hold two queens marked; with the aids,
    the empty squares some queen attacks too (on an easy puzzle they leave exactly the answer's
    squares, so they are off by default). The legend is the same for every position."""
    scene: Scene = board_scene(puzzle.problem, _board(puzzle, state))
    queens = _queens(puzzle, state)
    marks = dict.fromkeys(_attacked(puzzle, queens), ATTACKED_COLOUR) if aids else {}
    for attack in attacks(puzzle, state):
        marks.update(dict.fromkeys(attack.line, SHARED_COLOUR))
    marks.update(dict.fromkeys(puzzle.givens, GIVEN_COLOUR))
    grid = puzzle.problem.grid
    scene.marks = marks
    scene.tooltips = {cell: f"{grid.name(cell)}: given queen" for cell in puzzle.givens}
    meanings = {GIVEN_COLOUR: "a given queen"} if puzzle.givens else {}
    meanings |= {ATTACKED_COLOUR: "attacked by a queen"} if aids else {}
    meanings[SHARED_COLOUR] = "a line that holds two queens"
    scene.mark_meanings = meanings
    return scene


# ---------------------------------------------------------------- JSON (checked on reading)
def _cells(puzzle_n: int, document: Any, what: str) -> tuple[int, ...]:
    if not isinstance(document, list) or not all(
        type(cell) is int and 0 <= cell < puzzle_n * puzzle_n for cell in document
    ):
        raise BoardPuzzlesError(f"{what} is a list of cells of the {puzzle_n}×{puzzle_n} board")
    if len(set(document)) != len(document) or len(document) > puzzle_n:
        raise BoardPuzzlesError(f"{what} holds at most {puzzle_n} cells, each once")
    return tuple(sorted(document))


def _state_from_json(puzzle: QueensPuzzle, document: Any) -> State:
    state = _cells(puzzle.n, document, "a queens state")
    if set(state) & set(puzzle.givens) or len(state) + len(puzzle.givens) > puzzle.n:
        raise BoardPuzzlesError(f"a queens state holds the player's queens: not the givens, at most {puzzle.n} in all")
    return state


def _problem_to_json(puzzle: QueensPuzzle) -> Any:
    return {"n": puzzle.n, "torus": puzzle.problem.torus, "givens": list(puzzle.givens)}


def make_play(torus: bool) -> Play[QueensPuzzle, State]:
    """The play of queens on the classic board, or of HyperQueen on the torus."""
    sizes = TORUS_SIZES if torus else SIZES
    difficulties = (*puzzles.DIFFICULTIES, BLANK)

    def new(size: int, difficulty: str, seed: int) -> tuple[QueensPuzzle, State]:
        if size not in sizes:
            raise BoardPuzzlesError(f"size is one of {', '.join(map(str, sizes))}, got {excerpt(size)}")
        if difficulty == BLANK:
            check_seed(seed)
            return QueensPuzzle(Problem(size, torus)), ()
        made = puzzles.make(size, difficulty, seed, torus=torus)
        return QueensPuzzle(made.problem, tuple(sorted(made.givens))), ()

    def problem_from_json(document: Any) -> QueensPuzzle:
        if not isinstance(document, dict) or set(document) != {"n", "torus", "givens"}:
            raise BoardPuzzlesError("a queens problem is an object with n, torus and givens")
        n = document["n"]
        if type(n) is not int or n not in sizes or document["torus"] is not torus:
            where = "torus" if torus else "board"
            raise BoardPuzzlesError(f"a queens problem here is on the {where}, n one of {', '.join(map(str, sizes))}")
        puzzle = QueensPuzzle(Problem(n, torus), _cells(n, document["givens"], "the givens"))
        if attacks(puzzle, ()) or len(puzzle.givens) == n:
            raise BoardPuzzlesError("the given queens attack each other or leave nothing to place")
        return puzzle

    where = "on a board that wraps around at every edge (a torus) " if torus else ""
    return Play(
        tools=(Tool(QUEEN_TOOL, "Queen", "q"), Tool(ERASE_TOOL, "Take off", "x")),
        sizes=sizes,
        default_size=TORUS_DEFAULT_SIZE if torus else DEFAULT_SIZE,
        difficulties=difficulties,
        seedless=(BLANK,),
        new=new,
        click=_click,
        faults=_faults,
        solved=_solved,
        hint=_hint,
        scene=_scene,
        state_to_json=lambda puzzle, state: list(state),
        state_from_json=_state_from_json,
        problem_to_json=_problem_to_json,
        problem_from_json=problem_from_json,
        rules=f"Place N queens {where}so that no two share a row, a column or a diagonal"
        + (" (the diagonals wrap too)." if torus else "."),
        solution=_solution,
        scene_with_aids=lambda puzzle, state: _scene(puzzle, state, aids=True),
    )


#: The records' plays (a play's problem is a :class:`QueensPuzzle`, the record's problem with the givens).
PLAY: Play[QueensPuzzle, State] = make_play(torus=False)
HYPERQUEEN_PLAY: Play[QueensPuzzle, State] = make_play(torus=True)
