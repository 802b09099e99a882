"""What a picture shows, independent of the back end that draws it.

Glossary
--------
scene   one board's picture: its grid, its pieces, marked cells, numeric labels, a path, a title.
style   how a piece letter is drawn: shape (``queen``, ``stone``, ``letter``), fill and outline.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from boardpuzzles.board import EMPTY, Board
from boardpuzzles.grid import Cell, Grid


@dataclass(frozen=True)
class PieceStyle:
    shape: str  # "queen" | "stone" | "letter"
    fill: str
    stroke: str
    text: str = ""


#: How the letters our puzzles use are drawn; any other letter is drawn as itself in a circle.
PIECE_STYLES: dict[str, PieceStyle] = {
    "Q": PieceStyle("queen", "#222222", "#222222", "\u265b"),
    "X": PieceStyle("stone", "#1a1a1a", "#000000"),
    "O": PieceStyle("stone", "#fafafa", "#333333"),
}


def style_for(piece: str) -> PieceStyle:
    return PIECE_STYLES.get(piece, PieceStyle("letter", "#ffffff", "#333333", piece))


@dataclass
class Scene:
    grid: Grid
    pieces: dict[Cell, str] = field(default_factory=dict)
    marks: dict[Cell, str] = field(default_factory=dict)  # cell -> highlight colour
    labels: dict[Cell, str] = field(default_factory=dict)  # cell -> short text (e.g. a move number)
    path: list[Cell] = field(default_factory=list)  # drawn as a polyline through cell centres
    title: str = ""
    coordinates: bool = True  # file letters and rank numbers around the board

    @classmethod
    def of_board(cls, board: Board, title: str = "", **kwargs) -> Scene:
        pieces = {cell: piece for cell, piece in enumerate(board) if piece != EMPTY}
        return cls(board.grid, pieces, title=title, **kwargs)
