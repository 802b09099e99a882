"""Less Than Three's answers as JSON, pictures and scenes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardpuzzles.board import Board, parse_board
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.protocol import pieces_from_json, pieces_to_json
from boardpuzzles.puzzles.less_than_three.rules import COLOUR_LETTERS, Problem, Rules
from boardpuzzles.puzzles.less_than_three.symmetry import NO_SYMMETRY, ROTATE_90, ROTATE_90_DIAGONALS_180, ROTATE_180

#: The symmetries ``find`` searches, in words for a picture's title.
_SYMMETRY_WORDS = {
    ROTATE_90: "the same after a quarter turn",
    ROTATE_90_DIAGONALS_180: "the same after a half turn, and off its diagonals after a quarter turn",
    ROTATE_180: "the same after a half turn",
    NO_SYMMETRY: "",
}


def answer_to_json(problem: Problem, board: Board) -> dict[str, list[str]]:
    """The stones of each colour by square name: ``{"X": ["a1", ...], "O": [...]}``."""
    return pieces_to_json(board)


def answer_from_json(problem: Problem, document: Any) -> Board:
    return pieces_from_json(problem.rules.grid, document, COLOUR_LETTERS[: problem.rules.colours])


def to_scene(problem: Problem, board: Board) -> Any:
    """The board's picture: stones in the squares of a plain ruled board (the stones are the
    puzzle; a chessboard's colours would only compete with them)."""
    from boardpuzzles.scene import Scene

    return Scene.of_board(board, style="grid")


def found_title(problem: Problem, symmetry: str | None) -> str:
    """The title of a board that ``find`` found: "16 stones on 8x8, no three in a line: one
    board, the same after a quarter turn"."""
    words = _SYMMETRY_WORDS.get(symmetry or NO_SYMMETRY, f"symmetric under '{symmetry}'")
    return f"{problem.rules.describe()}: one board" + (f", {words}" if words else "")


def read_answer(values: Mapping[str, Any], text: str | None) -> tuple[Problem, Board]:
    """A picture of stones (``X``, ``O``, then ``A``, ``B``, ...; ``.`` or space empty); the board
    size is read off the picture, the colours, K and stones come from ``values``. Another
    character is refused; a colour beyond ``values``' colours is a fault of the answer."""
    board = parse_board(text or "", pieces=COLOUR_LETTERS)
    if board.grid.rows != board.grid.cols:
        raise BoardPuzzlesError(f"the picture is {board.grid.rows}x{board.grid.cols}; the board must be square")
    rules = Rules(board.grid.rows, values.get("colours", 2), values.get("max_in_line", 2), values.get("stones"))
    return Problem(rules), board
