"""SVG pictures, built with the standard library's ``xml.etree`` (no drawing dependency)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from boardpuzzles.board import Board
from boardpuzzles.grid import file_letters
from boardpuzzles.render.scene import Scene, style_for

CELL = 40  # pixels per cell
MARGIN = 22  # room for coordinates
TITLE_HEIGHT = 24
GAP = 24  # between boards in a sheet
LIGHT, DARK = "#f0d9b5", "#b58863"  # the familiar chess colours


def _draw_scene(parent: ET.Element, scene: Scene, x0: float, y0: float) -> None:
    grid = scene.grid
    top = y0 + (TITLE_HEIGHT if scene.title else 0)
    left = x0 + (MARGIN if scene.coordinates else 0)
    g = ET.SubElement(parent, "g", {"class": "board"})
    if scene.title:
        t = ET.SubElement(
            g, "text", {"x": f"{left}", "y": f"{y0 + 17}", "font-size": "15", "font-family": "sans-serif"}
        )
        t.text = scene.title
    for r in range(grid.rows):
        for c in range(grid.cols):
            cell = r * grid.cols + c
            fill = scene.marks.get(cell) or (LIGHT if (r + c) % 2 == 0 else DARK)
            ET.SubElement(
                g,
                "rect",
                {
                    "x": f"{left + c * CELL}",
                    "y": f"{top + r * CELL}",
                    "width": f"{CELL}",
                    "height": f"{CELL}",
                    "fill": fill,
                },
            )
    ET.SubElement(
        g,
        "rect",
        {
            "x": f"{left}",
            "y": f"{top}",
            "width": f"{grid.cols * CELL}",
            "height": f"{grid.rows * CELL}",
            "fill": "none",
            "stroke": "#333",
            "stroke-width": "1.5",
            **({"stroke-dasharray": "6 3"} if grid.torus else {}),  # a dashed edge hints at the wrap
        },
    )
    if scene.coordinates:
        for c in range(grid.cols):
            _text(g, left + (c + 0.5) * CELL, top + grid.rows * CELL + 15, file_letters(c), 12, "#555")
        for r in range(grid.rows):
            _text(g, x0 + MARGIN / 2, top + (r + 0.5) * CELL + 4, str(grid.rows - r), 12, "#555")
    if scene.path:
        points = " ".join(
            f"{left + (c + 0.5) * CELL},{top + (r + 0.5) * CELL}" for r, c in map(grid.coords, scene.path)
        )
        ET.SubElement(g, "polyline", {"points": points, "fill": "none", "stroke": "#c0392b", "stroke-width": "2.5"})
    for cell, piece in sorted(scene.pieces.items()):
        r, c = grid.coords(cell)
        cx, cy = left + (c + 0.5) * CELL, top + (r + 0.5) * CELL
        style = style_for(piece)
        if style.shape == "queen":
            _text(g, cx, cy + CELL * 0.3, style.text, CELL * 0.8, style.fill, piece=piece)
        else:
            ET.SubElement(
                g,
                "circle",
                {
                    "cx": f"{cx}",
                    "cy": f"{cy}",
                    "r": f"{CELL * 0.4}",
                    "fill": style.fill,
                    "stroke": style.stroke,
                    "stroke-width": "1.5",
                    "data-piece": piece,
                },
            )
            if style.text:
                _text(g, cx, cy + 6, style.text, 17, style.stroke)
    for cell, label in sorted(scene.labels.items()):
        r, c = grid.coords(cell)
        _text(g, left + (c + 0.5) * CELL, top + (r + 0.5) * CELL + 5, label, 14, "#000")


def _text(parent: ET.Element, x: float, y: float, text: str, size: float, fill: str, piece: str = "") -> None:
    attrs = {
        "x": f"{x:g}",
        "y": f"{y:g}",
        "font-size": f"{size:g}",
        "font-family": "sans-serif",
        "text-anchor": "middle",
        "fill": fill,
    }
    if piece:
        attrs["data-piece"] = piece
    ET.SubElement(parent, "text", attrs).text = text


def _scene_size(scene: Scene) -> tuple[float, float]:
    width = scene.grid.cols * CELL + (MARGIN if scene.coordinates else 0)
    height = scene.grid.rows * CELL + (MARGIN if scene.coordinates else 0) + (TITLE_HEIGHT if scene.title else 0)
    return width, height


def sheet_svg(scenes: Sequence[Scene], columns: int | None = None) -> str:
    """One SVG document holding the scenes in a grid of ``columns`` (default: about square)."""
    if not scenes:
        raise ValueError("nothing to draw")
    columns = columns or max(1, math.ceil(math.sqrt(len(scenes))))
    cell_w = max(_scene_size(s)[0] for s in scenes) + GAP
    cell_h = max(_scene_size(s)[1] for s in scenes) + GAP
    rows = math.ceil(len(scenes) / columns)
    width, height = columns * cell_w + GAP, rows * cell_h + GAP
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": f"{width:g}",
            "height": f"{height:g}",
            "viewBox": f"0 0 {width:g} {height:g}",
        },
    )
    ET.SubElement(svg, "rect", {"width": "100%", "height": "100%", "fill": "white"})
    for i, scene in enumerate(scenes):
        row, col = divmod(i, columns)
        _draw_scene(svg, scene, GAP + col * cell_w, GAP + row * cell_h)
    return ET.tostring(svg, encoding="unicode")


def board_svg(board: Board, title: str = "") -> str:
    return sheet_svg([Scene.of_board(board, title)])
