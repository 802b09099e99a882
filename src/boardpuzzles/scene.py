"""What a picture shows, independent of the back end that draws it, and its text form.

Glossary
--------
scene   one board's picture: its grid, its pieces, marked cells, labels, a path, a title. Every
        puzzle describes its answers as scenes (``Puzzle.to_scene``); the back ends in
        :mod:`boardpuzzles.render` draw them (SVG, GIF frames), and :func:`scene_text` writes
        them as text, the one text picture every command prints.
style   ``cells`` (pieces stand in the squares of a chessboard), ``grid`` (stones and tiles
        stand in the squares of a plain ruled board: Less Than Three, dominoes) or ``points``
        (stones stand on the intersections of a go board's lines, as Goishi and Baikago are
        played).
path    a walk through cells (a tour, a pick-up order). It can be coloured by step (``gradient``:
        the first step one end of a colour scale, the last the other), carry an arrowhead on
        each step (the direction of the walk), and have its ``start`` and ``end`` marked.
faded   points whose stone is gone (picked up): drawn greyed, with their label.
lines   a figure over the board: straight segments between cells (a winning cross).
span    a rectangle covering the cells from one corner cell to another, drawn as a tile (a
        domino covers two neighbouring cells).
edge    a wall on the side that two neighbouring cells share (a region border, a fence).
tooltip the text a picture shows on hover (SVG ``<title>``): by default the square's name and
        what is on it (``c3: move 17`` when ``label_meaning`` is ``move``).
text    a cell shows its label if it has one (a move number), else its piece letter, else
        ``.``; cells are separated by one space and right-aligned to the widest label, as the
        seed articles print boards. Marked pieces can be shown in lower case (the readers take
        them back as the same pieces), and coordinates can be added around the board (rank
        numbers on the left, file letters below), as a Go or chess diagram has them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boardpuzzles.board import EMPTY, Board
from boardpuzzles.grid import Cell, Grid, file_letters

EMPTY_TEXT = "."
#: The colour of a plain path (its steps, and the ring or square of its end): blue, as red means
#: "wrong" on the play pages. Kept here, not with the renderer's colours, so that a puzzle can mark
#: a cell in the colour of its path without importing a renderer.
PATH_COLOUR = "#1565c0"


@dataclass
class Scene:
    grid: Grid
    pieces: dict[Cell, str] = field(default_factory=dict)
    marks: dict[Cell, str] = field(default_factory=dict)  # cell -> highlight colour
    labels: dict[Cell, str] = field(default_factory=dict)  # cell -> short text (e.g. a move number)
    path: list[Cell] = field(default_factory=list)  # drawn as a polyline through cell centres
    title: str = ""
    coordinates: bool = True  # file letters and rank numbers around the board (pictures)
    # Only pictures read the fields below; the text form (scene_text) never changes with them.
    style: str = "cells"  # "cells" (chessboard squares), "grid" (plain ruled squares) or "points" (go board)
    path_colours: str = "plain"  # "plain" (one colour) or "gradient" (coloured by step, first to last)
    arrows: bool = False  # an arrowhead on every step of the path: the direction of the walk
    start: Cell | None = None  # marked as the first cell of the path (a ring)
    end: Cell | None = None  # marked as the last cell of the path (a square)
    faded: set[Cell] = field(default_factory=set)  # points whose stone is gone: drawn greyed
    lines: list[tuple[Cell, Cell, str]] = field(default_factory=list)  # (from, to, colour): a figure
    spans: list[tuple[Cell, Cell, str]] = field(default_factory=list)  # (corner, corner, colour): a tile
    edges: list[tuple[Cell, Cell, str]] = field(default_factory=list)  # (cell, neighbour, colour): a wall
    tooltips: dict[Cell, str] = field(default_factory=dict)  # cell -> hover text (else name and content)
    label_meaning: str = ""  # what a label is ("move": tooltips read "c3: move 17")
    show_labels: bool | None = None  # None: drawn when the board is small enough to read them
    mark_meanings: dict[str, str] = field(default_factory=dict)  # mark colour -> what it means (legend)
    # cell -> colour of a frame drawn inside it: a mark on a cell whose own mark (a given piece's)
    # must stay seen; its meaning is the mark colour's (``mark_meanings``)
    outlines: dict[Cell, str] = field(default_factory=dict)

    @classmethod
    def of_board(cls, board: Board, title: str = "", **kwargs: Any) -> Scene:
        pieces = {cell: piece for cell, piece in enumerate(board) if piece != EMPTY}
        return cls(board.grid, pieces, title=title, **kwargs)

    def text(self, *, coordinates: bool = False, marks_in_lower_case: bool = False) -> str:
        return scene_text(self, coordinates=coordinates, marks_in_lower_case=marks_in_lower_case)

    def _repr_svg_(self) -> str:  # Jupyter shows scenes as pictures
        from boardpuzzles.render.svg import sheet_svg

        return sheet_svg([self])


def scene_text(scene: Scene, *, coordinates: bool = False, marks_in_lower_case: bool = False) -> str:
    """The scene as text, top row first (see the module glossary)."""
    grid = scene.grid
    width = max([len(label) for label in scene.labels.values()] + [1])
    rank_width = len(str(grid.rows))
    lines = []
    for r in range(grid.rows):
        cells = []
        for c in range(grid.cols):
            cell = r * grid.cols + c
            if cell in scene.labels:
                text = scene.labels[cell]
            elif cell in scene.pieces:
                text = scene.pieces[cell]
                if marks_in_lower_case and cell in scene.marks:
                    text = text.lower()
            else:
                text = EMPTY_TEXT
            cells.append(text.rjust(width))
        row = " ".join(cells)
        lines.append(f"{grid.rows - r:>{rank_width}} {row}" if coordinates else row)
    if coordinates:
        files = " ".join(file_letters(c).rjust(width) for c in range(grid.cols))
        lines.append(" " * (rank_width + 1) + files)
    return "\n".join(lines)
