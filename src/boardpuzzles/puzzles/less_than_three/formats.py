"""Less Than Three's answers as JSON, pictures and scenes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardpuzzles.board import Board, parse_board
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.protocol import board_scene, pieces_from_json, pieces_to_json
from boardpuzzles.puzzles.less_than_three.rules import COLOUR_LETTERS, Problem, Rules


def answer_to_json(problem: Problem, board: Board) -> dict[str, list[str]]:
    """The stones of each colour by square name: ``{"X": ["a1", ...], "O": [...]}``."""
    return pieces_to_json(board)


def answer_from_json(problem: Problem, document: Any) -> Board:
    return pieces_from_json(problem.rules.grid, document, COLOUR_LETTERS[: problem.rules.colours])


def to_scene(problem: Problem, board: Board) -> Any:
    return board_scene(problem, board)


def read_answer(values: Mapping[str, Any], text: str | None) -> tuple[Problem, Board]:
    """A picture of stones (``X``, ``O``, then ``A``, ``B``, ...; ``.`` or space empty); the board
    size is read off the picture, the colours, K and stones come from ``values``."""
    board = parse_board(text or "")
    if board.grid.rows != board.grid.cols:
        raise BoardPuzzlesError(f"the picture is {board.grid.rows}x{board.grid.cols}; the board must be square")
    rules = Rules(board.grid.rows, values.get("colours", 2), values.get("max_in_line", 2), values.get("stones"))
    return Problem(rules), board
