"""Less Than Three played by hand: some stones given, the player places the rest.

Glossary
--------
problem     a :class:`Setup`: the board's size, the difficulty and seed it was made from, and the
            given stones (:func:`~.givens.make`: their completion is unique).
state       the whole board, one character a cell (``X`` black, ``O`` white, ``.`` empty), the
            givens included; a click makes a new one.
tools       ``black`` and ``white`` put a stone on an empty cell (the same colour again takes it
            off), ``erase`` takes one off, ``cycle`` turns a cell empty, black, white, empty.
            Givens never change: a click on one is refused with the reason.
fault       every line of any slope with more than two stones of a colour (the rules' own checker,
            :func:`~.rules.violations`), its stones highlighted and a segment drawn through them.
hint        from the completions of the givens and the player's stones (:func:`~.givens.completions`):
            a stone of the one completion, with the rules' reason when a stone of the other colour
            there would make three in a line; or, when no completion holds the player's stones,
            which of them to take off.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardpuzzles.board import EMPTY, Board
from boardpuzzles.errors import BoardPuzzlesError, check_seed, excerpt
from boardpuzzles.faults import Fault, unfinished
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import NO_HINT_IN_TIME, SOLVED_HINT, Click, Hint, IllegalMove, Play, Tool
from boardpuzzles.puzzles.less_than_three.formats import to_scene
from boardpuzzles.puzzles.less_than_three.givens import (
    BLACK,
    DIFFICULTIES,
    SIZES,
    WHITE,
    completions,
    make,
    rules_for,
)
from boardpuzzles.puzzles.less_than_three.rules import Problem, violations
from boardpuzzles.scene import Scene

#: One character a cell, top row first (see the glossary).
State = tuple[str, ...]
#: The colour a given stone's square is drawn in, and what it means in the legend.
GIVEN_COLOUR = "#b8b8b8"
COLOUR_NAMES = {BLACK: "black", WHITE: "white"}
TOOLS = (
    Tool("black", "Black stone", "b"),
    Tool("white", "White stone", "w"),
    Tool("erase", "Erase", "e"),
    Tool("cycle", "Cycle", "c"),
)
_TOOL_LETTER = {"black": BLACK, "white": WHITE}
_CYCLE = {EMPTY: BLACK, BLACK: WHITE, WHITE: EMPTY}


@dataclass(frozen=True)
class Setup:
    """A puzzle: the board's size, the difficulty and seed it was made from, and the givens as
    ``(cell, letter)`` pairs in cell order."""

    size: int
    difficulty: str
    seed: int
    givens: tuple[tuple[int, str], ...]

    @property
    def problem(self) -> Problem:
        return Problem(rules_for(self.size))

    @property
    def given(self) -> dict[int, str]:
        return dict(self.givens)

    def start(self) -> State:
        cells = [EMPTY] * (self.size * self.size)
        for cell, letter in self.givens:
            cells[cell] = letter
        return tuple(cells)

    def board(self, state: State) -> Board:
        return Board(self.problem.rules.grid, state)

    def name(self, cell: int) -> str:
        return self.problem.rules.grid.name(cell)


def new(size: int, difficulty: str, seed: int) -> tuple[Setup, State]:
    """The puzzle that ``size``, ``difficulty`` and ``seed`` make (:func:`~.givens.make`)."""
    made = make(size, difficulty, seed)
    setup = Setup(size, difficulty, made.seed, tuple(sorted(made.givens.items())))
    return setup, setup.start()


# ---------------------------------------------------------------- clicks
def click(setup: Setup, state: State, cell: int, tool: str) -> State:
    """The board after a click of ``tool`` on ``cell`` (see the glossary), or :class:`IllegalMove`."""
    if type(cell) is not int or not 0 <= cell < len(state):
        raise IllegalMove(f"cell {excerpt(cell)} is off the board")
    if tool not in _TOOL_LETTER and tool not in ("erase", "cycle"):
        raise IllegalMove(f"no tool {excerpt(tool)}; tools: {', '.join(t.name for t in TOOLS)}")
    given = setup.given.get(cell)
    if given is not None:
        raise IllegalMove(f"{setup.name(cell)} holds a given {COLOUR_NAMES[given]} stone: givens cannot be changed")
    now = state[cell]
    if tool == "erase":
        after = EMPTY
    elif tool == "cycle":
        after = _CYCLE[now]
    else:
        letter = _TOOL_LETTER[tool]
        after = EMPTY if now == letter else letter
    return state[:cell] + (after,) + state[cell + 1 :]


# ---------------------------------------------------------------- faults and the verdict
def faults(setup: Setup, state: State) -> list[Fault]:
    """The rules' checker's faults (:func:`~.rules.violations`) in the page's words (colours by
    name): each line with three or more stones of a colour (its stones, and a segment from the
    first to the last) and more stones of a colour than the rules allow; then, unfinished, the
    stones left to place (counted here, from the board)."""
    grid = setup.problem.rules.grid
    found = []
    for fault in violations(setup.problem, setup.board(state)):
        if fault.kind != "wrong" or not fault.cells:
            continue  # the stones short of the rules' count: said below, in words
        colour = COLOUR_NAMES.get(state[fault.cells[0]], state[fault.cells[0]])
        names = ", ".join(grid.name(c) for c in fault.cells)
        if fault.lines:
            found.append(Fault(f"{len(fault.cells)} {colour} stones in a line: {names}", fault.cells, fault.lines))
        else:
            most = setup.problem.rules.per_colour
            found.append(Fault(f"{len(fault.cells)} {colour} stones: the board holds {most}", fault.cells))
    left = [(COLOUR_NAMES[letter], setup.problem.rules.per_colour - state.count(letter)) for letter in (BLACK, WHITE)]
    left = [(colour, n) for colour, n in left if n > 0]
    if left:
        found.append(unfinished(" and ".join(f"{n} {colour}" for colour, n in left) + " stones left to place"))
    return found


def solved(setup: Setup, state: State) -> bool:
    """Complete and right: the rules' checker finds nothing (every stone placed, none three in a line)."""
    return not violations(setup.problem, setup.board(state))


# ---------------------------------------------------------------- hint and solution
def _completion(setup: Setup, state: State, limits: Limits) -> Board | None:
    """The completion that holds the givens and every stone placed, if there is one (the
    givens' completion is unique, so there is at most one)."""
    stones = {cell: piece for cell, piece in enumerate(state) if piece != EMPTY}
    found = completions(setup.problem.rules, stones, 1, limits)
    return found[0] if found else None


def _solution(setup: Setup, limits: Limits) -> Board:
    found = completions(setup.problem.rules, setup.given, 1, limits)
    if not found:
        raise BoardPuzzlesError("these givens have no completion")
    return found[0]


def hint(setup: Setup, state: State, limits: Limits) -> Hint:
    """The next stone of the completion (with the rules' reason where a stone of the other colour
    would make three in a line), or which stones to take off when none holds them all."""
    if solved(setup, state):
        return SOLVED_HINT
    try:
        answer = _completion(setup, state, limits)
        if answer is None:
            return _wrong_stones(setup, state, _solution(setup, limits))
    except TimeLimitReached:
        return NO_HINT_IN_TIME
    # The completion holds every stone placed and the board is not solved, so a stone is missing.
    missing = [cell for cell, piece in enumerate(state) if piece == EMPTY and answer[cell] != EMPTY]
    for cell in missing:
        reason = _why(setup, state, cell, answer[cell])
        if reason:
            return Hint(f"a {COLOUR_NAMES[answer[cell]]} stone on {setup.name(cell)} ({reason})", (cell,))
    cell = missing[0]
    return Hint(
        f"a {COLOUR_NAMES[answer[cell]]} stone on {setup.name(cell)} (the one way to complete the board)", (cell,)
    )


def _why(setup: Setup, state: State, cell: int, letter: str) -> str:
    """Why ``cell`` cannot hold the other colour, if the rules' checker says so at once."""
    other = WHITE if letter == BLACK else BLACK
    trial = state[:cell] + (other,) + state[cell + 1 :]
    for fault in faults(setup, trial):
        if cell in fault.cells and fault.lines:
            names = ", ".join(setup.name(c) for c in fault.cells if c != cell)
            return f"a {COLOUR_NAMES[other]} one there would make three in a line with {names}"
    return ""


def _wrong_stones(setup: Setup, state: State, answer: Board) -> Hint:
    """The player's stones that the one completion of the givens lacks: the ones to take back."""
    wrong = tuple(c for c, piece in enumerate(state) if piece != EMPTY and piece != answer[c])
    names = ", ".join(setup.name(c) for c in wrong)
    stones, them = ("stone", "it") if len(wrong) == 1 else ("stones", "them")
    return Hint(
        f"no completion from here: undo to before your {stones} on {names}, or erase {them}", wrong, outcome="dead end"
    )


def solution(setup: Setup, state: State, limits: Limits) -> list[Click]:
    """The clicks from ``state`` to the solved board: wrong stones taken off, then the missing placed."""
    answer = _solution(setup, limits)
    clicks: list[Click] = []
    for cell, piece in enumerate(state):
        if piece != EMPTY and piece != answer[cell]:
            clicks.append((cell, "erase"))
    for cell, piece in enumerate(state):
        if answer[cell] != EMPTY and piece != answer[cell]:
            clicks.append((cell, "black" if answer[cell] == BLACK else "white"))
    return clicks


# ---------------------------------------------------------------- the picture
def scene(setup: Setup, state: State) -> Scene:
    """The package's picture of the board, the givens' squares shaded (and named so on hover)."""
    drawn: Scene = to_scene(setup.problem, setup.board(state))
    drawn.marks.update({cell: GIVEN_COLOUR for cell, _ in setup.givens})
    drawn.tooltips.update(
        {cell: f"{setup.name(cell)}: given {COLOUR_NAMES[letter]} stone" for cell, letter in setup.givens}
    )
    if setup.givens:
        drawn.mark_meanings[GIVEN_COLOUR] = "given stone"
    return drawn


# ---------------------------------------------------------------- JSON
def problem_to_json(setup: Setup) -> Any:
    """``{"size", "difficulty", "seed", "givens": {"a1": "X", ...}}``."""
    return {
        "size": setup.size,
        "difficulty": setup.difficulty,
        "seed": setup.seed,
        "givens": {setup.name(cell): letter for cell, letter in setup.givens},
    }


def problem_from_json(document: Any) -> Setup:
    """The problem that :func:`problem_to_json` wrote, checked: its givens have one completion."""
    if not isinstance(document, dict) or set(document) != {"size", "difficulty", "seed", "givens"}:
        raise BoardPuzzlesError("a Less Than Three problem is an object of size, difficulty, seed and givens")
    size, difficulty, givens = document["size"], document["difficulty"], document["givens"]
    rules = rules_for(size)
    if difficulty not in DIFFICULTIES:
        raise BoardPuzzlesError(f"difficulty is one of {', '.join(DIFFICULTIES)}, got {excerpt(difficulty)}")
    if not isinstance(givens, dict):
        raise BoardPuzzlesError("givens are an object of square names and stones")
    cells: dict[int, str] = {}
    for name, letter in givens.items():
        if not isinstance(name, str) or letter not in (BLACK, WHITE):
            raise BoardPuzzlesError(f"a given is a square name and {BLACK} or {WHITE}, got {excerpt(letter)}")
        cell = rules.grid.cell_named(name)
        if cell in cells:
            raise BoardPuzzlesError(f"given square {excerpt(name)} is named twice")
        cells[cell] = letter
    if len(completions(rules, cells, 2)) != 1:
        raise BoardPuzzlesError("these givens do not have exactly one completion")
    return Setup(size, difficulty, check_seed(document["seed"]), tuple(sorted(cells.items())))


def state_to_json(setup: Setup, state: State) -> Any:
    """The board as one string, top row first: ``X``, ``O``, ``.``."""
    return "".join(state)


def state_from_json(setup: Setup, document: Any) -> State:
    if not isinstance(document, str) or len(document) != setup.size * setup.size:
        raise BoardPuzzlesError(f"a board is a string of {setup.size * setup.size} characters X, O and .")
    if set(document) - {EMPTY, BLACK, WHITE}:
        raise BoardPuzzlesError("a board holds only X, O and .")
    if any(document[cell] != letter for cell, letter in setup.givens):
        raise BoardPuzzlesError("the board does not hold the problem's givens")
    return tuple(document)


PLAY: Play[Setup, State] = Play(
    tools=TOOLS,
    sizes=SIZES,
    default_size=SIZES[0],
    difficulties=DIFFICULTIES,
    new=new,
    click=click,
    faults=faults,
    solved=solved,
    hint=hint,
    scene=scene,
    state_to_json=state_to_json,
    state_from_json=state_from_json,
    problem_to_json=problem_to_json,
    problem_from_json=problem_from_json,
    rules="Place the missing black and white stones: two of each colour in every row and column, and never "
    "three of a colour on one straight line, of any slope.",
    solution=solution,
)
