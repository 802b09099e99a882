"""The one drawing layer: scenes become shapes in pixels, and each picture back end translates
the shapes one to one (SVG in :mod:`boardpuzzles.render.svg`, PNG and GIF frames in
:mod:`boardpuzzles.render.png`), so every format shows the same picture.

Glossary
--------
shape    a rectangle, circle, polyline or polygon, text, figure (a piece drawn as an outline and
         dots: the queen) or trail, in pixels, with its colours and an optional tooltip
         (``title``: an SVG ``<title>``; rasters have none).
trail    a long walk on the grid kept in grid units (columns and rows, numpy arrays) with its
         origin and cell size, so that a million-step knight's tour is written compactly
         (relative steps) and rasterised quickly.
layout   the size of a scene's picture. Boards up to ``DETAIL_SIDE`` cells a side get 40 px
         cells, chessboard squares, coordinates and labels; larger ones get smaller cells (the
         board stays about ``BOARD_PIXELS`` wide), a plain background and no numbers (their
         tooltips still give them, up to ``TOOLTIP_CELLS`` cells).
sheet    several scenes in a grid, with a heading above and a legend below (what a dashed
         border, a colour scale, a ring or a square mean), one group of shapes per scene.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from boardpuzzles.render.board_drawing import _marker, scene_group, tooltip
from boardpuzzles.render.shapes import (
    BANDS,
    BOARD_PIXELS,
    CELL,
    COMPACT_PATH,
    DARK,
    DETAIL_SIDE,
    FADED_FILL,
    FADED_STROKE,
    FADED_TEXT,
    FONT,
    GAP,
    GRADIENT,
    GRID_LINE,
    HEADING_HEIGHT,
    HEADING_LINE,
    HEADING_SIZE,
    LEGEND_INDENT,
    LEGEND_LINE,
    LEGEND_SIZE,
    LIGHT,
    MARGIN,
    MIN_RULED_CELL,
    MIN_SHEET_WIDTH,
    MIN_TEXT_SIZE,
    PAPER,
    PATH_COLOUR,
    PLAIN,
    RULE,
    SPAN_FILL,
    SPAN_OUTLINE,
    START_COLOUR,
    TITLE_HEIGHT,
    TITLE_LINE,
    TITLE_SIZE,
    TOOLTIP_CELLS,
    WOOD,
    Circle,
    Drawing,
    Figure,
    Group,
    Layout,
    Point,
    Poly,
    Rect,
    Shape,
    Text,
    Trail,
    fit,
    gradient_colour,
    layout,
    text_width,
    wrap,
)
from boardpuzzles.render.shapes import _rgb as _rgb
from boardpuzzles.scene import Scene

__all__ = [
    "BANDS",
    "BOARD_PIXELS",
    "CELL",
    "COMPACT_PATH",
    "Circle",
    "DARK",
    "DETAIL_SIDE",
    "Drawing",
    "FADED_FILL",
    "FADED_STROKE",
    "FADED_TEXT",
    "FONT",
    "Figure",
    "GAP",
    "GRADIENT",
    "GRID_LINE",
    "Group",
    "HEADING_HEIGHT",
    "HEADING_LINE",
    "HEADING_SIZE",
    "LEGEND_INDENT",
    "LEGEND_LINE",
    "LEGEND_SIZE",
    "LIGHT",
    "Layout",
    "LegendEntry",
    "MARGIN",
    "MIN_SHEET_WIDTH",
    "MIN_RULED_CELL",
    "MIN_TEXT_SIZE",
    "PAPER",
    "PATH_COLOUR",
    "PLAIN",
    "RULE",
    "Point",
    "Poly",
    "Rect",
    "SPAN_FILL",
    "SPAN_OUTLINE",
    "START_COLOUR",
    "Shape",
    "TITLE_HEIGHT",
    "TITLE_LINE",
    "TITLE_SIZE",
    "TOOLTIP_CELLS",
    "Text",
    "Trail",
    "WOOD",
    "fit",
    "gradient_colour",
    "layout",
    "legend_entries",
    "scene_group",
    "sheet",
    "text_width",
    "tooltip",
    "wrap",
]


# ---------------------------------------------------------------- a sheet of scenes
@dataclass(frozen=True)
class LegendEntry:
    kind: str  # "torus" | "gradient" | "start" | "end" | "faded" | "mark-ring" | "mark-square"
    text: str
    colour: str = "#333333"
    filled: bool = False  # the marker as drawn on large boards (else a ring or a square outline)


def legend_entries(scenes: Sequence[Scene]) -> list[LegendEntry]:
    """What the pictures' conventions mean, for those that the scenes use."""
    entries = []
    if any(s.grid.torus for s in scenes):
        entries.append(LegendEntry("torus", "dashed border: the board wraps around at every edge (a torus)"))
    if any(s.path_colours == "gradient" and len(s.path) > 1 for s in scenes):
        meaning = next((s.label_meaning for s in scenes if s.label_meaning), "step")
        entries.append(LegendEntry("gradient", f"path coloured by {meaning}: first (blue) to last (red)"))
    started = next((s for s in scenes if s.start is not None), None)
    if started is not None:
        what = "the first stone picked up" if started.style == "points" else "where the path starts"
        colour, filled = _marker(started, "start")
        entries.append(LegendEntry("start", f"{'disc' if filled else 'ring'}: {what}", colour, filled))
    ended = next((s for s in scenes if s.end is not None), None)
    if ended is not None:
        colour, filled = _marker(ended, "end")
        entries.append(LegendEntry("end", "square: where the path ends", colour, filled))
    if any(s.faded for s in scenes):
        entries.append(LegendEntry("faded", "grey: picked up"))
    meanings: dict[str, tuple[str, str]] = {}
    for s in scenes:
        shape = "ring" if s.style == "points" else "square"
        for colour, meaning in s.mark_meanings.items():
            meanings.setdefault(colour, (shape, meaning))
    for colour, (shape, meaning) in meanings.items():
        entries.append(LegendEntry(f"mark-{shape}", f"{shape}: {meaning}", colour))
    return entries


def _legend(entries: Sequence[LegendEntry], x: float, y: float, width: float) -> list[Shape]:
    """The legend's shapes from (x, y) down, each entry's text wrapped to ``width`` pixels."""
    shapes: list[Shape] = []
    row = 0
    for entry in entries:
        cy = y + (row + 0.5) * LEGEND_LINE
        fill = entry.colour if entry.filled else "none"
        if entry.kind == "torus":
            shapes.append(Poly([(x, cy), (x + 30, cy)], "#333333", 1.5, dash="6 3"))
        elif entry.kind == "gradient":
            for k in range(10):
                shapes.append(Rect(x + 3 * k, cy - 4, 3, 8, fill=gradient_colour((k + 0.5) / 10)))
        elif entry.kind == "start":
            shapes.append(Circle(x + 15, cy, 7, fill, entry.colour, 2.5))
        elif entry.kind == "end":
            shapes.append(Rect(x + 8, cy - 7, 14, 14, fill=fill, stroke=entry.colour, width=2.5))
        elif entry.kind == "faded":
            shapes.append(Circle(x + 15, cy, 7, FADED_FILL, FADED_STROKE, 1.0, "3 2"))
        elif entry.kind == "mark-ring":
            shapes.append(Circle(x + 15, cy, 7, "none", entry.colour, 2.5))
        elif entry.kind == "mark-square":
            shapes.append(Rect(x + 8, cy - 7, 14, 14, fill=entry.colour))
        for line in wrap(entry.text, LEGEND_SIZE, width - LEGEND_INDENT):
            shapes.append(
                Text(x + LEGEND_INDENT, y + (row + 0.5) * LEGEND_LINE, line, LEGEND_SIZE, "#333333", anchor="start")
            )
            row += 1
    return shapes


def sheet(
    scenes: Sequence[Scene], columns: int | None = None, heading: str = "", legend_of: Sequence[Scene] | None = None
) -> Drawing:
    """The scenes in a grid of ``columns`` (default: about square), under a heading and above a
    legend of the conventions they use (or those of ``legend_of``: all the frames of an
    animation, so that every frame has the same size). The sheet is as wide as its boards, or
    wider for its text up to ``MIN_SHEET_WIDTH`` or a tenth wider than the boards; a heading or
    legend line longer than that is wrapped (one ``Text`` a line)."""
    if not scenes:
        raise ValueError("nothing to draw")
    columns = columns or max(1, math.ceil(math.sqrt(len(scenes))))
    layouts = [layout(s) for s in scenes]
    cell_w = max(lay.width for lay in layouts) + GAP
    cell_h = max(lay.height for lay in layouts) + GAP
    rows = math.ceil(len(scenes) / columns)
    entries = legend_entries(scenes if legend_of is None else legend_of)
    # as wide as the boards; wider for the text, up to MIN_SHEET_WIDTH or a tenth more than the
    # boards, beyond which it wraps
    boards = columns * cell_w + GAP
    text = [2 * GAP + text_width(heading, HEADING_SIZE)] if heading else []
    text += [2 * GAP + LEGEND_INDENT + text_width(e.text, LEGEND_SIZE) for e in entries]
    width = max([boards, *(min(w, max(MIN_SHEET_WIDTH, 1.1 * boards)) for w in text)])
    heading_lines = wrap(heading, HEADING_SIZE, width - 2 * GAP) if heading else []
    legend_lines = sum(len(wrap(e.text, LEGEND_SIZE, width - 2 * GAP - LEGEND_INDENT)) for e in entries)
    top = GAP + (HEADING_HEIGHT + HEADING_LINE * (len(heading_lines) - 1) if heading else 0)
    height = top + rows * cell_h + (legend_lines * LEGEND_LINE + GAP / 2 if entries else 0) + GAP
    shapes: list[Shape] = []
    for i, line in enumerate(heading_lines):
        y = GAP + HEADING_HEIGHT / 2 - 4 + i * HEADING_LINE
        shapes.append(Text(GAP, y, line, HEADING_SIZE, "#111111", anchor="start", bold=True))
    for i, (scene, lay) in enumerate(zip(scenes, layouts, strict=True)):
        row, col = divmod(i, columns)
        shapes.append(scene_group(scene, GAP + col * cell_w, top + row * cell_h, lay))
    if entries:
        shapes.extend(_legend(entries, GAP, top + rows * cell_h, width - 2 * GAP))
    return Drawing(math.ceil(width), math.ceil(height), shapes)
