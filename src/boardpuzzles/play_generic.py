"""The generic plays: how a puzzle that names no ``play`` is played by hand, when its answers
are boards of pieces (place and take off its piece letters) or pairs of neighbouring cells
(dominoes); and :func:`play_of`, the play a page uses for a puzzle.

Boards of pieces
----------------
problem   a :class:`BoardProblem`: the parameter values it was made from, the problem, and the
          puzzle's piece letters; the sizes offered are around the record's ``small`` example.
state     the board's cells, one character each (``"."`` empty).
fault     the record's ``violations`` of the board, less those that only say what is left to place.

Pairs of cells
--------------
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
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from boardpuzzles.answers import CellPairs
from boardpuzzles.errors import BoardPuzzlesError, excerpt
from boardpuzzles.grid import ORTHOGONAL
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import Click, Fault, Hint, IllegalMove, Json, Play, Tool
from boardpuzzles.protocol import Puzzle


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


def _jsonable(values: Mapping[str, Any]) -> Json:
    return {name: list(v) if isinstance(v, tuple) else v for name, v in values.items()}


# ---------------------------------------------------------------- the generic play of cell pairs
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
