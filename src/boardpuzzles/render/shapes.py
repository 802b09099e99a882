"""The drawing layer's vocabulary (see :mod:`boardpuzzles.render.draw`): sizes and colours, the
shapes in pixels, a scene's layout, and text measured without a font."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Union

import numpy as np

from boardpuzzles.scene import PATH_COLOUR as PATH_COLOUR
from boardpuzzles.scene import Scene

CELL = 40  # pixels per cell on boards of up to DETAIL_SIDE cells a side
MARGIN = 22  # room for coordinates
TITLE_HEIGHT = 24
TITLE_SIZE = 15
TITLE_LINE = 19  # each further line of a title too long for one
MIN_TEXT_SIZE = 6  # a word wider than its picture is drawn smaller, down to this size
GAP = 24  # between boards in a sheet
HEADING_HEIGHT = 30
HEADING_SIZE = 17
HEADING_LINE = 22  # each further line of a heading too long for one
LEGEND_LINE = 22
LEGEND_SIZE = 13
LEGEND_INDENT = 40  # the legend's text, after its marker
#: A sheet is as wide as its boards, or wider for its heading and legend up to this width (or a
#: tenth wider than its boards); text longer than that is wrapped.
MIN_SHEET_WIDTH = 520
LIGHT, DARK = "#f0d9b5", "#b58863"  # the familiar chess colours
PLAIN = "#fbf8f1"  # the background of boards too large for squares
#: The ``grid`` style: squares of plain paper ruled by thin lines (no lines on cells smaller than
#: MIN_RULED_CELL pixels, where they would only grey the board).
PAPER, RULE, MIN_RULED_CELL = "#f7f3ea", "#a89f8c", 6.0
WOOD, GRID_LINE = "#e2bf78", "#5a4526"  # a go board
FADED_FILL, FADED_STROKE, FADED_TEXT = "#e6e6e6", "#a0a0a0", "#555555"
# A plain path is drawn in PATH_COLOUR, imported above: boardpuzzles.scene holds it, for the puzzles too.
SPAN_FILL, SPAN_OUTLINE = "#fffdf7", "#3a3a3a"  # a tile (a domino): ivory with a dark outline
#: The colour scale of a path coloured by step: blue (first) through green and amber to red (last).
GRADIENT = ("#3b4cc0", "#2a8fd4", "#2ca25f", "#e3a000", "#d7301f")
START_COLOUR = "#1a9850"  # the start of a plain path (a gradient starts with its first colour)
#: A gradient path is drawn in this many bands of one colour each (fewer elements, smaller files).
BANDS = 128
#: Paths longer than this are written compactly (SVG: relative steps in grid units).
COMPACT_PATH = 2000
DETAIL_SIDE = 32
BOARD_PIXELS = 1600
TOOLTIP_CELLS = 2500
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

Point = tuple[float, float]


# ---------------------------------------------------------------- shapes
@dataclass
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str = "none"
    stroke: str | None = None
    width: float = 0.0
    dash: str | None = None
    title: str | None = None
    opacity: float = 1.0  # 0: an invisible area that only carries a tooltip


@dataclass
class Circle:
    cx: float
    cy: float
    r: float
    fill: str = "none"
    stroke: str | None = None
    width: float = 0.0
    dash: str | None = None
    title: str | None = None
    piece: str = ""  # the piece letter it draws (SVG data-piece)


@dataclass
class Poly:
    points: list[Point]
    stroke: str | None = None
    width: float = 0.0
    fill: str = "none"
    closed: bool = False  # a polygon (else a polyline)
    dash: str | None = None
    opacity: float = 1.0


@dataclass
class Text:
    x: float
    y: float  # the middle of the text's height
    text: str
    size: float
    fill: str = "#000000"
    anchor: str = "middle"  # "start" | "middle" | "end"
    bold: bool = False
    halo: str | None = None  # an outline that keeps the text readable over lines


@dataclass
class Figure:
    """A piece drawn as an outline (polygon) and dots (the queen)."""

    outline: list[Point]
    dots: list[tuple[float, float, float]]
    fill: str
    stroke: str
    width: float
    piece: str = ""


@dataclass
class Trail:
    """A walk through cell centres: point k is at (x0 + cols[k] * cell, y0 + rows[k] * cell)."""

    x0: float
    y0: float
    cell: float
    cols: np.ndarray
    rows: np.ndarray
    colour: str
    width: float
    compact: bool = False  # part of a long walk: written as relative steps in grid units (SVG)

    def points(self) -> list[Point]:
        xs, ys = (self.x0 + self.cols * self.cell).tolist(), (self.y0 + self.rows * self.cell).tolist()
        return list(zip(xs, ys, strict=True))


Shape = Union[Rect, Circle, Poly, Text, Figure, Trail, "Group"]


@dataclass
class Group:
    """The shapes of one board (an SVG ``<g>``)."""

    name: str
    shapes: list[Shape] = field(default_factory=list)
    title: str | None = None


@dataclass
class Drawing:
    width: float
    height: float
    shapes: list[Shape]
    background: str = "#ffffff"

    def walk(self) -> Iterator[Shape]:
        """Every shape, groups opened, in drawing order."""
        stack = list(reversed(self.shapes))
        while stack:
            shape = stack.pop()
            if isinstance(shape, Group):
                stack.extend(reversed(shape.shapes))
            else:
                yield shape


# ---------------------------------------------------------------- colours
def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def gradient_colour(t: float) -> str:
    """The colour at ``t`` (0 the first step, 1 the last) of the path colour scale."""
    t = min(1.0, max(0.0, t)) * (len(GRADIENT) - 1)
    i = min(int(t), len(GRADIENT) - 2)
    a, b = _rgb(GRADIENT[i]), _rgb(GRADIENT[i + 1])
    f = t - i
    r, g, bl = (round(x + (y - x) * f) for x, y in zip(a, b, strict=True))
    return f"#{r:02x}{g:02x}{bl:02x}"


# ---------------------------------------------------------------- layout
@dataclass(frozen=True)
class Layout:
    cell: float
    detail: bool  # squares, coordinates and labels fit
    coordinates: bool
    labels: bool
    label_size: float
    width: float
    height: float
    title_lines: tuple[str, ...] = ()
    title_size: float = TITLE_SIZE

    @property
    def title_height(self) -> float:
        return TITLE_HEIGHT + TITLE_LINE * (len(self.title_lines) - 1) if self.title_lines else 0.0


def layout(scene: Scene) -> Layout:
    grid = scene.grid
    side = max(grid.rows, grid.cols)
    detail = side <= DETAIL_SIDE
    cell = float(CELL) if detail else max(1.0, BOARD_PIXELS / side)
    coordinates = scene.coordinates and detail
    show = scene.show_labels if scene.show_labels is not None else detail
    labels = bool(scene.labels) and show
    size = 0.0
    if labels:
        widest = max(text_width(label, 1.0) for label in scene.labels.values())
        size = min(15.0, 0.8 * cell / max(0.7, widest), 0.5 * cell)
    width = grid.cols * cell + (MARGIN if coordinates else 0)
    title_size, title_lines = fit(scene.title, TITLE_SIZE, grid.cols * cell) if scene.title else (TITLE_SIZE, [])
    title = TITLE_HEIGHT + TITLE_LINE * (len(title_lines) - 1) if title_lines else 0
    height = grid.rows * cell + (MARGIN if coordinates else 0) + title
    return Layout(cell, detail, coordinates, labels, size, width, height, tuple(title_lines), title_size)


#: Advance widths in ems, rounded up, of the widest of DejaVu Sans and DejaVu Sans Bold (the
#: fonts the pictures ask for first): text measured with them is never wider than measured.
_EMS = {
    0.35: " 'ijl",
    0.4: ",./:;IJ\\|",
    0.5: "-f!()[]_`rt",
    0.6: '"*?csz',
    0.7: "Lx$0123456789EFTaekovy",
    0.8: "CPSYZbdghnpqu{}ABKRVX",
    0.9: "#+<=>DGHNU^~&OQw",
    1.05: "@M%m",
    1.15: "W",
}
_EM = {char: em for em, chars in _EMS.items() for char in chars}
_OTHER_EM = 0.9  # any other character


def text_width(text: str, size: float) -> float:
    """How wide a line of text is at most, in pixels (for sizing and wrapping; never for placing)."""
    return size * sum(_EM.get(char, _OTHER_EM) for char in text)


def fit(text: str, size: float, width: float) -> tuple[float, list[str]]:
    """A text in lines no wider than ``width`` pixels (by :func:`text_width`): wrapped between
    words, and drawn smaller than ``size`` only where one word alone is wider than that."""
    longest = max(text.split(" "), key=len)
    if text_width(longest, size) > width:
        size = max(MIN_TEXT_SIZE, width / text_width(longest, 1.0))
    return size, wrap(text, size, width)


def wrap(text: str, size: float, width: float) -> list[str]:
    """The text in lines of about ``width`` pixels at most (by :func:`text_width`; a word longer
    than that keeps a line of its own)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        longer = f"{line} {word}" if line else word
        if line and text_width(longer, size) > width + 0.5:  # (a sheet sized to fit the text)
            lines.append(line)
            line = word
        else:
            line = longer
    return [*lines, line]
