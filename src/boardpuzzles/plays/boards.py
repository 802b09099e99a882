"""The default play of boards of pieces (:func:`~boardpuzzles.answers.board_of`): place the
record's piece letters on a blank board and take them off.

Glossary
--------
problem   a :class:`~.setup.RecordProblem` of the chosen size, the other parameters as in the
          record's ``small`` example.
state     the board's cells, one character each (``"."`` empty).
tools     one per piece letter (a click puts the piece on a square, or takes it off when it is
          there), then ``erase``: the second tool, which right-click and long-press use.
fault     the record's ``violations`` of the board, every kind; the count of pieces short of the
          goal ("5 kings; the problem asks for 9") is the picture's title.
hint      a square of a solution that holds every piece placed so far: found by the record's
          search, each answer compared with the pieces placed, or by a search that starts from
          them (:data:`BoardsHolding`) when the record's play passes one (each of its answers
          judged by the record's checker); in a dead end, the pieces that no solution holds
          even alone, else those whose removal alone lets a solution hold the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from boardpuzzles.board import Board
from boardpuzzles.errors import BoardPuzzlesError, excerpt
from boardpuzzles.limits import Limits
from boardpuzzles.play import SOLVED_HINT, Click, Hint, IllegalMove, Json, Play, Tool
from boardpuzzles.plays.setup import RecordProblem, Setup, cell_index, each_found, first_or_none, rules_of
from boardpuzzles.plays.words import listed, scene_words, take_one_off
from boardpuzzles.protocol import Puzzle

#: A board's cells, one character each (``"."`` empty).
BoardState = tuple[str, ...]
ERASE = Tool("erase", "Erase", "x")
#: ``holding(problem, placed, limits)``: the record's answers (boards) to its ``problem`` that hold
#: the pieces ``placed`` (cell to letter), found by a search that starts from them.
BoardsHolding = Callable[[Any, Mapping[int, str], Limits], Iterator[Any]]
#: A dead end's hint looks for the pieces no solution holds alone among the first this many placed.
CULPRITS_TRIED = 32
#: Piece letters' names; another letter is "piece L".
PIECE_NAMES = {"Q": "queen", "K": "king", "N": "knight", "B": "bishop", "R": "rook", "X": "stone"}


def piece_tool(letter: str) -> Tool:
    name = PIECE_NAMES.get(letter, f"piece-{letter.lower()}")
    return Tool(name, name.replace("-", " ").capitalize(), letter.lower())


def board_play(
    puzzle: Puzzle[Any, Any], letters: str, holding: BoardsHolding | None = None
) -> Play[RecordProblem, BoardState] | None:
    """The default play of a record whose answers are boards of ``letters`` (see the module
    glossary), its hints and solution from ``holding`` when given; None when it offers no
    problem by size."""
    setup = Setup.of(puzzle)
    if setup is None or not letters:
        return None
    rules = _BoardRules(setup, letters, holding)
    return Play(
        tools=(*(piece_tool(letter) for letter in letters), ERASE),
        sizes=setup.sizes,
        default_size=setup.default_size,
        seedless=("",),  # a blank board of each size
        new=rules.new,
        click=rules.click,
        faults=lambda problem, state: setup.faults(problem, _board(problem, state)),
        solved=lambda problem, state: setup.solved(problem, _board(problem, state)),
        hint=rules.hint,
        scene=rules.scene,
        state_to_json=lambda problem, state: "".join(state),
        state_from_json=rules.state_from_json,
        problem_to_json=lambda problem: problem.values,
        problem_from_json=setup.make,
        rules=rules_of(puzzle),
        solution=rules.solution,
        describe=lambda problem, state: scene_words(rules.scene(problem, state), PIECE_NAMES),
    )


def _board(problem: RecordProblem, state: BoardState) -> Board:
    return Board(problem.grid, state)


@dataclass(frozen=True)
class _BoardRules:
    """The functions of :func:`board_play` for one record and its piece letters."""

    setup: Setup
    letters: str
    holding: BoardsHolding | None = None

    def new(self, size: int, difficulty: str, seed: int) -> tuple[RecordProblem, BoardState]:
        problem = self.setup.new(size)
        return problem, tuple("." * problem.grid.size)

    def click(self, problem: RecordProblem, state: BoardState, cell: int, tool: str) -> BoardState:
        cell = cell_index(problem.grid, cell)
        letter = next((piece for piece in self.letters if piece_tool(piece).name == tool), None)
        if letter is None and tool != ERASE.name:
            raise IllegalMove(f"no tool {excerpt(tool)}")
        new_piece = "." if tool == ERASE.name or state[cell] == letter else letter
        return state[:cell] + (str(new_piece),) + state[cell + 1 :]

    def scene(self, problem: RecordProblem, state: BoardState) -> Any:
        """The answer's picture, titled with what is left to place when the record counts the
        pieces (its count fault: "5 kings; the problem asks for 9"; then "every piece placed")."""
        scene = self.setup.scene(problem, _board(problem, state))
        count = next((f for f in self.setup.faults(problem, _board(problem, state)) if f.is_count), None)
        blank = _board(problem, tuple("." * len(state)))
        counted = count is not None or any(f.is_count for f in self.setup.faults(problem, blank))
        if counted and not scene.title:
            scene.title = count.message if count is not None else "every piece placed"
        return scene

    def through(self, problem: RecordProblem, state: BoardState, limits: Limits) -> tuple[Any, Hint | None]:
        placed = {c: piece for c, piece in enumerate(state) if piece != "."}
        if self.holding is not None:
            found = self.holding(problem.problem, placed, limits)
            return first_or_none(a for a in found if self.setup.solved(problem, a))  # the checker judges each
        return first_or_none(self.setup.answers(problem, lambda a: all(a[c] == state[c] for c in placed), limits))

    def hint(self, problem: RecordProblem, state: BoardState, limits: Limits) -> Hint:
        if self.setup.solved(problem, _board(problem, state)):
            return SOLVED_HINT
        answer, why = self.through(problem, state, limits)
        if answer is None:
            if why is not None and why.outcome == "dead end":
                return self.culprits(problem, state, limits) or why
            return why or Hint("no solution found")
        cell = next(c for c in range(len(state)) if answer[c] != state[c])
        return Hint(f"a {piece_tool(answer[cell]).label.lower()} on {problem.grid.name(cell)}", (cell,))

    def culprits(self, problem: RecordProblem, state: BoardState, limits: Limits) -> Hint | None:
        """The pieces that no solution holds even alone (a king on b5 of 5x5, where nine kings
        fit only on the odd squares), as the hint of a dead end; when each alone is held, those
        whose removal alone lets a solution hold the rest (:meth:`spoilers`); None when there are
        none of either or the search runs out of time."""
        placed = [c for c, piece in enumerate(state) if piece != "."]
        alone = []
        for cell in placed[:CULPRITS_TRIED]:
            held = self.held(problem, tuple(piece if c == cell else "." for c, piece in enumerate(state)), limits)
            if held is None:
                return None  # out of time: say no more than the search proved
            if not held:
                alone.append(cell)
        if not alone:
            return self.spoilers(problem, state, placed, limits)
        kind = piece_tool(state[alone[0]]).label.lower()
        if len(alone) == 1:
            pieces = f"the {kind}"
        else:
            pieces = f"the {kind}s" if len({state[c] for c in alone}) == 1 else "the pieces"
        it = "it" if len(alone) == 1 else "them"
        squares = listed([problem.grid.name(c) for c in alone])
        return Hint(f"no solution holds {pieces} on {squares}: take {it} off", tuple(alone), outcome="dead end")

    def spoilers(self, problem: RecordProblem, state: BoardState, placed: list[int], limits: Limits) -> Hint | None:
        """The pieces whose removal alone lets a solution hold the rest (:func:`~.setup.each_found`,
        in the board's order: a board keeps no order of placing), as the hint of a dead end in
        which each piece alone is held (when there are none, that taking one off is not enough);
        None when the search runs out of time."""

        def held_without(cell: int) -> bool | None:
            return self.held(problem, state[:cell] + (".",) + state[cell + 1 :], limits)

        found = each_found(placed, held_without) if len(placed) > 1 else None
        if found is None:
            return None
        labels = {piece_tool(state[c]).label.lower() for c in placed}
        what = f"{labels.pop()}s" if len(labels) == 1 else "pieces"
        kinds = {piece_tool(state[c]).label.lower() for c in found}
        kind = kinds.pop() if len(kinds) == 1 else "piece"  # one kind, or none found
        names = [problem.grid.name(c) for c in found]
        return Hint(take_one_off(what, names, kind), tuple(found), outcome="dead end")

    def held(self, problem: RecordProblem, state: BoardState, limits: Limits) -> bool | None:
        """Whether some solution holds the pieces of ``state``; None when the search runs out of time."""
        answer, why = self.through(problem, state, limits)
        if answer is None and (why is None or why.outcome != "dead end"):
            return None
        return answer is not None

    def solution(self, problem: RecordProblem, state: BoardState, limits: Limits) -> list[Click]:
        answer, _ = self.through(problem, state, limits)
        if answer is None:
            return []
        return [
            (c, piece_tool(answer[c]).name if answer[c] != "." else ERASE.name)
            for c in range(len(state))
            if answer[c] != state[c]
        ]

    def state_from_json(self, problem: RecordProblem, document: Json) -> BoardState:
        if not isinstance(document, str) or len(document) != problem.grid.size:
            raise BoardPuzzlesError("a board state is a string of one character per cell")
        if any(ch != "." and ch not in self.letters for ch in document):
            raise BoardPuzzlesError(f"a board state holds '.' and {', '.join(self.letters)}")
        return tuple(document)
