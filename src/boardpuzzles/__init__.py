"""boardpuzzles: solve, count, play and draw grid-board puzzles.

Geometry lives in :mod:`boardpuzzles.grid`, boards with contents in :mod:`boardpuzzles.board`,
each puzzle in :mod:`boardpuzzles.puzzles`, pictures in :mod:`boardpuzzles.render`.
"""

from boardpuzzles.board import Board, parse_board
from boardpuzzles.errors import BoardPuzzlesError, ParseError, SizeError
from boardpuzzles.grid import Grid

__version__ = "0.1.0"
__all__ = ["Board", "BoardPuzzlesError", "Grid", "ParseError", "SizeError", "parse_board"]
