"""The interactive part of the puzzle protocol: what a click does to a position, what is wrong
with it, a hint, and a game engine that keeps the moves (no web code here).

Glossary
--------
play        a :class:`Play`: the functions a puzzle offers a person who solves it by hand. A
            :class:`~boardpuzzles.protocol.Puzzle` names one as ``play``; a puzzle whose answer
            is a board of pieces and that names none gets :func:`board_play` (place and remove
            its piece letters, its ``violations`` as faults), so every such puzzle is playable.
state       one position of a game, an immutable value (a tuple, a frozen dataclass): undo and
            redo keep states, never undo moves.
tool        what a click does (place a queen, a black stone, pick a stone up): a button of the
            page and its key.
fault       one thing wrong with a position, shown at once: its message and the cells (and the
            segments between cell centres) to highlight.
hint        a message and the cells to look at; a solver gives it.
attempt     an :class:`Attempt`: one puzzle being played: its problem, the start state, the clicks
            played (and those undone, for redo), when it began and when it was solved.
verdict     what an attempt says of its position: the faults, solved or not, the time taken.

An attempt stores its clicks, not its states (:meth:`Attempt.to_json`): a game is rebuilt by
replaying them from the start state, so a stored game is small and never holds a picture.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from boardpuzzles.errors import BoardPuzzlesError, excerpt
from boardpuzzles.limits import Limits, TimeLimitReached

if TYPE_CHECKING:
    from boardpuzzles.protocol import Puzzle
    from boardpuzzles.scene import Scene

P = TypeVar("P")
S = TypeVar("S")
Json = Any
#: One click: the cell and the tool's name.
Click = tuple[int, str]


@dataclass(frozen=True)
class Tool:
    """A button of the play page and its key: ``Tool("queen", "Queen", "q")``."""

    name: str
    label: str
    key: str


@dataclass(frozen=True)
class Fault:
    """One thing wrong with a position: its message, the cells to highlight and the segments
    between cell centres (two queens attacking, three in a line)."""

    message: str
    cells: tuple[int, ...] = ()
    lines: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> Json:
        return {"message": self.message, "cells": list(self.cells), "lines": [list(line) for line in self.lines]}


@dataclass(frozen=True)
class Hint:
    """A message and the cells to look at (where to place, what to pick)."""

    message: str
    cells: tuple[int, ...] = ()

    def to_json(self) -> Json:
        return {"message": self.message, "cells": list(self.cells)}


class IllegalMove(BoardPuzzlesError):
    """A click the rules refuse; the message is the reason shown to the player."""


@dataclass(frozen=True, kw_only=True)
class Play(Generic[P, S]):
    """How a person plays a puzzle (see the module glossary). Every function is pure: states
    are values, and ``click`` returns a new one (or raises :class:`IllegalMove`)."""

    tools: tuple[Tool, ...]
    #: ``new(size, difficulty, seed)``: a problem and its start state; the same three give the same puzzle.
    new: Callable[[int, str, int], tuple[P, S]]
    #: ``click(problem, state, cell, tool)``: the state after the click, or :class:`IllegalMove`.
    click: Callable[[P, S, int, str], S]
    #: What is wrong now (drawn at once).
    faults: Callable[[P, S], list[Fault]]
    #: Complete and right (the puzzle's checker agrees).
    solved: Callable[[P, S], bool]
    hint: Callable[[P, S, Limits], Hint]
    #: What to draw (faults and hints are added as marks and lines by the page's renderer).
    scene: Callable[[P, S], Scene]
    state_to_json: Callable[[P, S], Json]
    state_from_json: Callable[[P, Json], S]
    problem_to_json: Callable[[P], Json]
    problem_from_json: Callable[[Json], P]
    #: One line for the front page's card.
    rules: str
    #: The sizes the page offers; the first is the default.
    sizes: tuple[int, ...] = (8,)
    #: The difficulties the page offers, the first the default; () when there is no generator.
    difficulties: tuple[str, ...] = ()
    #: ``solution(problem, state, limits)``: clicks that lead from ``state`` to a solved state,
    #: from the solver (tests play them; the page may show them). None: the puzzle gives none.
    solution: Callable[[P, S, Limits], list[Click]] | None = None
    #: ``problem_to_url(problem)``: the problem's URL on a puzzle site (the page's export link).
    #: None: the play exports none.
    problem_to_url: Callable[[P], str] | None = None
    #: ``problem_from_url(url)``: the problem a URL holds (the page's import), or a
    #: :class:`BoardPuzzlesError` saying what is wrong with it. None: the play imports none.
    problem_from_url: Callable[[str], P] | None = None
    #: ``start(problem)``: the start state of an imported problem (needed with ``problem_from_url``).
    start: Callable[[P], S] | None = None

    def __post_init__(self) -> None:
        if not self.tools:
            raise ValueError("a play needs at least one tool")
        if self.problem_from_url is not None and self.start is None:
            raise ValueError("a play that imports problems from URLs needs start(problem)")
        names = [t.name for t in self.tools]
        keys = [t.key for t in self.tools]
        if len(set(names)) != len(names) or len(set(keys)) != len(keys):
            raise ValueError(f"tool names and keys repeat: {names}, {keys}")
        if not self.sizes:
            raise ValueError("a play offers at least one size")

    def tool(self, name: str) -> Tool:
        for t in self.tools:
            if t.name == name:
                return t
        raise BoardPuzzlesError(f"no tool {excerpt(name)}; tools: {', '.join(t.name for t in self.tools)}")


# ---------------------------------------------------------------- a game being played
@dataclass(frozen=True)
class Verdict:
    faults: list[Fault]
    solved: bool
    #: Seconds from the start to the first solved position (or to now while unsolved).
    seconds: float


@dataclass
class Attempt(Generic[P, S]):
    """One game: a problem, its start state and the clicks played (``line[:at]``; the rest are
    undone clicks that ``redo`` plays again). ``clock`` gives the time (``time.time``)."""

    play: Play[P, S]
    problem: P
    start: S
    size: int = 0
    difficulty: str = ""
    seed: int = 0
    line: list[Click] = field(default_factory=list)
    at: int = 0
    started: float = 0.0
    solved_seconds: float | None = None
    hints: int = 0
    #: The problem came from a URL (:meth:`imported`), not from ``new``: size, difficulty and seed
    #: say nothing of it.
    imported: bool = False
    clock: Callable[[], float] = time.time
    _states: list[S] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        if not self.started:
            self.started = self.clock()
        self._states = [self.start]
        for cell, tool in self.line[: self.at]:
            self._states.append(self.play.click(self.problem, self._states[-1], cell, tool))

    @classmethod
    def new(cls, play: Play[P, S], size: int, difficulty: str, seed: int, **kwargs: Any) -> Attempt[P, S]:
        """A new game of ``play``: the problem that ``new(size, difficulty, seed)`` makes."""
        if size not in play.sizes:
            raise BoardPuzzlesError(f"size is one of {', '.join(map(str, play.sizes))}, got {excerpt(size)}")
        if play.difficulties and difficulty not in play.difficulties:
            raise BoardPuzzlesError(f"difficulty is one of {', '.join(play.difficulties)}, got {excerpt(difficulty)}")
        problem, start = play.new(size, difficulty, seed)
        return cls(play, problem, start, size, difficulty, seed, **kwargs)

    @classmethod
    def from_url(cls, play: Play[P, S], url: str, **kwargs: Any) -> Attempt[P, S]:
        """A new game of the problem a URL holds (``play.problem_from_url``), from its ``start``."""
        if play.problem_from_url is None or play.start is None:
            raise BoardPuzzlesError("this puzzle imports no URLs")
        if not isinstance(url, str) or not url.strip():
            raise BoardPuzzlesError("a puzzle URL is a non-empty string")
        try:
            problem = play.problem_from_url(url.strip())
        except (BoardPuzzlesError, ValueError, TypeError, KeyError, IndexError) as err:
            raise BoardPuzzlesError(f"cannot import the URL: {_one_line(str(err)).removeprefix('URL: ')}") from None
        return cls(play, problem, play.start(problem), imported=True, **kwargs)

    @property
    def url(self) -> str | None:
        """The problem's URL (None when the play exports none)."""
        return None if self.play.problem_to_url is None else self.play.problem_to_url(self.problem)

    @property
    def state(self) -> S:
        return self._states[-1]

    @property
    def can_undo(self) -> bool:
        return self.at > 0

    @property
    def can_redo(self) -> bool:
        return self.at < len(self.line)

    def click(self, cell: int, tool: str) -> S:
        """Play a click (undone clicks are forgotten); :class:`IllegalMove` leaves the game as it was."""
        self.play.tool(tool)
        state = self.play.click(self.problem, self.state, cell, tool)
        del self.line[self.at :]
        self.line.append((cell, tool))
        self.at += 1
        self._states.append(state)
        self._note_solved()
        return state

    def undo(self) -> S:
        if not self.can_undo:
            raise IllegalMove("nothing to undo")
        self.at -= 1
        self._states.pop()
        return self.state

    def redo(self) -> S:
        if not self.can_redo:
            raise IllegalMove("nothing to redo")
        cell, tool = self.line[self.at]
        self._states.append(self.play.click(self.problem, self.state, cell, tool))
        self.at += 1
        self._note_solved()
        return self.state

    def hint(self, limits: Limits | None = None) -> Hint:
        self.hints += 1
        return self.play.hint(self.problem, self.state, limits or Limits(5.0))

    def verdict(self) -> Verdict:
        solved = self.play.solved(self.problem, self.state)
        if solved:
            self._note_solved()
        seconds = self.solved_seconds if self.solved_seconds is not None else self.clock() - self.started
        return Verdict(self.play.faults(self.problem, self.state), solved, max(0.0, seconds))

    def _note_solved(self) -> None:
        if self.solved_seconds is None and self.play.solved(self.problem, self.state):
            self.solved_seconds = max(0.0, self.clock() - self.started)

    def to_json(self) -> Json:
        """The game as JSON: the problem, the start state and the clicks (see the module glossary)."""
        return {
            "problem": self.play.problem_to_json(self.problem),
            "start": self.play.state_to_json(self.problem, self.start),
            "size": self.size,
            "difficulty": self.difficulty,
            "seed": self.seed,
            "line": [[cell, tool] for cell, tool in self.line],
            "at": self.at,
            "started": self.started,
            "solved_seconds": self.solved_seconds,
            "hints": self.hints,
            **({"imported": True} if self.imported else {}),
        }

    @classmethod
    def from_json(cls, play: Play[P, S], document: Json, **kwargs: Any) -> Attempt[P, S]:
        """The game that :meth:`to_json` wrote, its clicks replayed (a click the rules now
        refuse raises :class:`IllegalMove`)."""
        try:
            problem = play.problem_from_json(document["problem"])
            start = play.state_from_json(problem, document["start"])
            line = [(int(cell), str(tool)) for cell, tool in document["line"]]
            return cls(
                play,
                problem,
                start,
                int(document["size"]),
                str(document["difficulty"]),
                int(document["seed"]),
                line,
                int(document["at"]),
                float(document["started"]),
                document["solved_seconds"],
                int(document.get("hints", 0)),
                bool(document.get("imported", False)),
                **kwargs,
            )
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, BoardPuzzlesError):
                raise
            raise BoardPuzzlesError(f"not a stored game: {type(err).__name__}: {excerpt(str(err))}") from None


# ---------------------------------------------------------------- the generic play of board puzzles
@dataclass(frozen=True)
class BoardProblem:
    """A problem of a board puzzle as the generic play holds it: the parameter values it was
    made from (JSON), the problem itself, and the puzzle's piece letters."""

    values: Json
    problem: Any
    letters: str

    @property
    def grid(self) -> Any:
        return self.problem.grid


#: A board's cells, one character each (``"."`` empty).
BoardState = tuple[str, ...]
ERASE = "erase"
#: The sizes the generic play offers, around the record's small example.
GENERIC_SIZES = 7
_PIECE_NAMES = {"Q": "queen", "K": "king", "N": "knight", "B": "bishop", "R": "rook", "X": "stone"}
_generic: dict[int, Play[Any, Any] | None] = {}


def play_of(puzzle: Puzzle[Any, Any]) -> Play[Any, Any] | None:
    """The puzzle's own play, else the generic board play when its answers are boards, else None."""
    if puzzle.play is not None:
        return puzzle.play
    key = id(puzzle)
    if key not in _generic:
        from boardpuzzles.play_pairs import pairs_play

        _generic[key] = board_play(puzzle) or pairs_play(puzzle)
    return _generic[key]


@dataclass(frozen=True)
class BoardSetup:
    """What a generic play reads off a puzzle's record: its size parameter, the other
    parameters' values (those of its ``small`` example), the first answer of that example, and
    the sizes offered (from the example's side up, 6 first when offered)."""

    size_name: str
    pair: bool  # the size is rows and columns (kind ``size``), not one side
    base: Mapping[str, Any]
    first: Any
    sizes: tuple[int, ...]

    @classmethod
    def of(cls, puzzle: Puzzle[Any, Any], count: int = GENERIC_SIZES) -> BoardSetup | None:
        """None when the puzzle has no positional size, no ``small`` example, or no answer to it."""
        size_param = next((p for p in puzzle.params if p.kind in ("size", "side") and p.positional), None)
        if size_param is None or not puzzle.small:
            return None
        base = puzzle.parse_values(puzzle.small)
        try:
            first = next(puzzle.solutions(puzzle.make(**base), Limits(10.0)), None)
        except (BoardPuzzlesError, TimeLimitReached):
            return None
        grid = getattr(first, "grid", None)
        if grid is None:
            return None
        side = max(grid.rows, grid.cols)
        sizes = tuple(range(side, side + count))
        default = 6 if 6 in sizes else sizes[0]
        return cls(
            size_param.name, size_param.kind == "size", base, first, (default, *(s for s in sizes if s != default))
        )

    def make(self, puzzle: Puzzle[Any, Any], values: Json, letters: str = "") -> BoardProblem:
        """The problem of parameter values as JSON (what ``problem_from_json`` reads)."""
        if not isinstance(values, dict):
            raise BoardPuzzlesError("a problem is the puzzle's parameters, a JSON object")
        typed = dict(values)
        if self.pair and isinstance(typed.get(self.size_name), list):
            typed[self.size_name] = tuple(typed[self.size_name])
        return BoardProblem(_jsonable(typed), puzzle.make(**typed), letters)

    def values(self, size: int) -> Json:
        """The parameter values (as JSON) of a new problem of ``size``."""
        values = dict(self.base)
        values[self.size_name] = (size, size) if self.pair else size
        return _jsonable(values)


def board_play(puzzle: Puzzle[Any, Any]) -> Play[BoardProblem, BoardState] | None:
    """The generic play of a puzzle whose answers are boards of pieces (None otherwise): a blank
    board of the chosen size (the other parameters as in the record's ``small`` example), a tool
    per piece letter that puts the piece on a square or takes it off, the puzzle's
    ``violations`` as faults, solved when there are none; the hint is a square of a solution
    that holds every piece placed so far."""
    from boardpuzzles.board import Board

    generic = BoardSetup.of(puzzle)
    if generic is None or not isinstance(generic.first, Board) or not generic.first.occupied():
        return None
    first = generic.first
    letters = "".join(sorted({first[c] for c in first.occupied()}))
    rules = _BoardRules(puzzle, generic, letters)
    return Play(
        tools=tuple(_piece_tool(letter) for letter in letters) + (Tool(ERASE, "Erase", "x"),),
        sizes=generic.sizes,
        new=rules.new,
        click=rules.click,
        faults=rules.faults,
        solved=rules.solved,
        hint=rules.hint,
        scene=rules.scene,
        state_to_json=lambda problem, state: "".join(state),
        state_from_json=lambda problem, document: _board_state(problem, document),
        problem_to_json=lambda problem: problem.values,
        problem_from_json=rules.make,
        rules=rules_line(puzzle),
        solution=rules.solution,
    )


@dataclass(frozen=True)
class _BoardRules:
    """The functions of :func:`board_play` for one puzzle and its piece letters."""

    puzzle: Puzzle[Any, Any]
    generic: BoardSetup
    letters: str

    def make(self, values: Json) -> BoardProblem:
        return self.generic.make(self.puzzle, values, self.letters)

    def new(self, size: int, difficulty: str, seed: int) -> tuple[BoardProblem, BoardState]:
        problem = self.make(self.generic.values(size))
        return problem, tuple("." * problem.grid.size)

    def click(self, problem: BoardProblem, state: BoardState, cell: int, tool: str) -> BoardState:
        if type(cell) is not int or not 0 <= cell < len(state):
            raise IllegalMove(f"cell {excerpt(cell)} is off the board")
        letter = next((piece for piece in self.letters if _piece_tool(piece).name == tool), None)
        if letter is None and tool != ERASE:
            raise IllegalMove(f"no tool {excerpt(tool)}")
        new_piece = "." if tool == ERASE or state[cell] == letter else letter
        return state[:cell] + (str(new_piece),) + state[cell + 1 :]

    def board(self, problem: BoardProblem, state: BoardState) -> Any:
        from boardpuzzles.board import Board

        return Board(problem.grid, state)

    def scene(self, problem: BoardProblem, state: BoardState) -> Any:
        """The answer's picture, titled with what is left to place when the puzzle counts its
        pieces ("5 kings; the problem asks for 9"; then "every piece placed")."""
        board = self.board(problem, state)
        scene = self.puzzle.to_scene(problem.problem, board)
        short = [m for m in self.puzzle.violations(problem.problem, board) if _only_short(m, board)]
        blank = self.board(problem, tuple("." * len(state)))
        counts = short or any(_only_short(m, blank) for m in self.puzzle.violations(problem.problem, blank))
        if counts and not scene.title:
            scene.title = short[0] if short else "every piece placed"
        return scene

    def faults(self, problem: BoardProblem, state: BoardState) -> list[Fault]:
        found = _open_violations(self.puzzle, problem, self.board(problem, state))
        return [Fault(m, _cells_named(problem.grid, m)) for m in found]

    def solved(self, problem: BoardProblem, state: BoardState) -> bool:
        return not self.puzzle.violations(problem.problem, self.board(problem, state))

    def solutions_through(self, problem: BoardProblem, state: BoardState, limits: Limits) -> Iterator[Any]:
        placed = [c for c, piece in enumerate(state) if piece != "."]
        for answer in self.puzzle.solutions(problem.problem, limits):
            if all(answer[c] == state[c] for c in placed):
                yield answer

    def hint(self, problem: BoardProblem, state: BoardState, limits: Limits) -> Hint:
        if self.solved(problem, state):
            return Hint("solved: nothing left to do")
        try:
            answer = next(self.solutions_through(problem, state, limits), None)
        except TimeLimitReached:
            return Hint("no hint found in time")
        if answer is None:
            return Hint("no solution holds every piece placed: take one off (undo)")
        cell = next(c for c in range(len(state)) if answer[c] != state[c])
        name = _piece_tool(answer[cell]).label.lower()
        return Hint(f"a {name} on {problem.grid.name(cell)}", (cell,))

    def solution(self, problem: BoardProblem, state: BoardState, limits: Limits) -> list[Click]:
        answer = next(self.solutions_through(problem, state, limits), None)
        if answer is None:
            return []
        return [(c, _piece_tool(answer[c]).name) for c in range(len(state)) if answer[c] != state[c]]


def rules_line(puzzle: Puzzle[Any, Any]) -> str:
    """The rules in one sentence for a player: the first sentence of the record's description,
    without its leading name ("Kings: ") and without the text pictures' notation in brackets
    ("(< >: one across)"), the command line's letters put in words ("K kings on an R x C
    board" reads "Place the kings on the board": the page picks the size, and the picture's
    caption says how many); the title when the description gives none."""
    import re

    text = " ".join(puzzle.description.split())
    found = re.match(r"(.+?[.!?])(?=\s|$)", text)
    sentence = found.group(1) if found else text
    lead = re.match(r"([A-Z][\w' -]{0,40}): (.+)", sentence)
    if lead and len(lead.group(1).split()) <= 4:
        sentence = lead.group(2)
    sentence = re.sub(r"\s*\([^()]*[^\w\s,;:'()-][^()]*\)", "", sentence).strip()
    sentence = re.sub(r"\b(?:an?|the) [A-Z] x [A-Z] (board|torus)\b", r"the \1", sentence)
    letters = {param.metavar for param in puzzle.params if param.metavar and len(param.metavar) == 1}
    count = re.match(r"([A-Z]) ([a-z]+s)\b", sentence)
    if count and count.group(1) in letters:
        sentence = f"place the {count.group(2)}{sentence[count.end() :]}"
    if not sentence:
        sentence = puzzle.title
    sentence = sentence[:1].upper() + sentence[1:]
    return sentence if sentence.endswith((".", "!", "?")) else sentence + "."


def _piece_tool(letter: str) -> Tool:
    name = _PIECE_NAMES.get(letter, f"piece-{letter.lower()}")
    return Tool(name, name.replace("-", " ").capitalize(), letter.lower())


def _open_violations(puzzle: Puzzle[Any, Any], problem: BoardProblem, board: Any) -> list[str]:
    """The violations a player can see while placing: a count of pieces short of the goal is
    not wrong yet (it is what is left to do)."""
    return [m for m in puzzle.violations(problem.problem, board) if not _only_short(m, board)]


def _only_short(message: str, board: Any) -> bool:
    """Whether a message only counts the pieces placed (``"5 kings; the problem asks for 9"``)
    while fewer are placed than asked: what remains to do, not a fault."""
    import re

    found = re.match(r"(\d+) \w+; the problem asks for (\d+)", message)
    return bool(found) and int(found.group(1)) == len(board.occupied()) < int(found.group(2))  # type: ignore[union-attr]


def _cells_named(grid: Any, message: str) -> tuple[int, ...]:
    """The cells a violation names (``"c3 and d4 touch"``)."""
    import re

    cells = []
    for word in re.findall(r"\b[a-z]{1,2}[0-9]{1,3}\b", message):
        try:
            cells.append(grid.cell_named(word))
        except (BoardPuzzlesError, ValueError, IndexError):
            continue
    return tuple(dict.fromkeys(cells))


def _board_state(problem: BoardProblem, document: Json) -> BoardState:
    if not isinstance(document, str) or len(document) != problem.grid.size:
        raise BoardPuzzlesError("a board state is a string of one character per cell")
    if any(ch != "." and ch not in problem.letters for ch in document):
        raise BoardPuzzlesError(f"a board state holds '.' and {', '.join(problem.letters)}")
    return tuple(document)


def _one_line(text: str, limit: int = 200) -> str:
    """An error's text on one line, cut to ``limit`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _jsonable(values: Mapping[str, Any]) -> Json:
    return {name: list(v) if isinstance(v, tuple) else v for name, v in values.items()}
