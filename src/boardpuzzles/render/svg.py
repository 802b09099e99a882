"""SVG pictures, built with the standard library's ``xml.etree`` (no drawing dependency): the
shapes of :mod:`boardpuzzles.render.draw`, one element each.

Tooltips are ``<title>`` elements; shapes without one let the pointer through
(``pointer-events="none"``) to the square or stone underneath that has one. A long trail (a big
knight's tour) is one ``<path>`` per colour band in grid units, each step a relative move
(``l1 2 -2-1 ...``): about four bytes a step.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

import numpy as np

from boardpuzzles.board import Board
from boardpuzzles.render.draw import (
    CELL,
    DARK,
    FONT,
    GAP,
    LIGHT,
    MARGIN,
    TITLE_HEIGHT,
    Circle,
    Drawing,
    Figure,
    Group,
    Poly,
    Rect,
    Shape,
    Text,
    Trail,
    sheet,
)
from boardpuzzles.scene import Scene

__all__ = ["CELL", "DARK", "GAP", "LIGHT", "MARGIN", "TITLE_HEIGHT", "board_svg", "drawing_svg", "sheet_svg"]


def _n(value: float) -> str:
    """A coordinate, compactly: 12, 12.5, 12.33."""
    if value == int(value):
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _title(element: ET.Element, title: str | None) -> ET.Element:
    if title:
        ET.SubElement(element, "title").text = title
    return element


def _stroke(attrs: dict[str, str], stroke: str | None, width: float, dash: str | None) -> None:
    if stroke:
        attrs["stroke"] = stroke
        attrs["stroke-width"] = _n(width)
        if dash:
            attrs["stroke-dasharray"] = dash


def _emit(parent: ET.Element, shape: Shape) -> None:
    if isinstance(shape, Group):
        g = _title(ET.SubElement(parent, "g", {"class": shape.name}), shape.title)
        for child in shape.shapes:
            _emit(g, child)
    elif isinstance(shape, Rect):
        _emit_rect(parent, shape)
    elif isinstance(shape, Circle):
        _emit_circle(parent, shape)
    elif isinstance(shape, Poly):
        _emit_poly(parent, shape)
    elif isinstance(shape, Text):
        _emit_text(parent, shape)
    elif isinstance(shape, Figure):
        _emit_figure(parent, shape)
    elif isinstance(shape, Trail):
        _emit_trail(parent, shape)
    else:  # pragma: no cover - every shape is handled above
        raise TypeError(f"cannot draw {shape!r}")


def _emit_rect(parent: ET.Element, shape: Rect) -> None:
    attrs = {"x": _n(shape.x), "y": _n(shape.y), "width": _n(shape.w), "height": _n(shape.h), "fill": shape.fill}
    _stroke(attrs, shape.stroke, shape.width, shape.dash)
    if shape.opacity < 1:
        attrs["fill-opacity"] = _n(shape.opacity)
    _title(ET.SubElement(parent, "rect", attrs), shape.title)


def _emit_circle(parent: ET.Element, shape: Circle) -> None:
    attrs = {"cx": _n(shape.cx), "cy": _n(shape.cy), "r": _n(shape.r), "fill": shape.fill}
    _stroke(attrs, shape.stroke, shape.width, shape.dash)
    if shape.piece:
        attrs["data-piece"] = shape.piece
    if not shape.title:
        attrs["pointer-events"] = "none"
    _title(ET.SubElement(parent, "circle", attrs), shape.title)


def _emit_poly(parent: ET.Element, shape: Poly) -> None:
    attrs = {"points": " ".join(f"{_n(x)},{_n(y)}" for x, y in shape.points), "fill": shape.fill}
    _stroke(attrs, shape.stroke, shape.width, shape.dash)
    attrs.update({"stroke-linecap": "round", "stroke-linejoin": "round", "pointer-events": "none"})
    if shape.opacity < 1:
        attrs["opacity"] = _n(shape.opacity)
    ET.SubElement(parent, "polygon" if shape.closed else "polyline", attrs)


def _emit_text(parent: ET.Element, shape: Text) -> None:
    attrs = {
        "x": _n(shape.x),
        "y": _n(shape.y),
        "font-size": _n(shape.size),
        "font-family": FONT,
        "text-anchor": shape.anchor,
        "dominant-baseline": "central",
        "fill": shape.fill,
        "pointer-events": "none",
    }
    if shape.bold:
        attrs["font-weight"] = "bold"
    if shape.halo:
        attrs.update({"stroke": shape.halo, "stroke-width": "3", "paint-order": "stroke", "stroke-linejoin": "round"})
    ET.SubElement(parent, "text", attrs).text = shape.text


def _emit_figure(parent: ET.Element, shape: Figure) -> None:
    d = "M" + " ".join(f"{_n(x)} {_n(y)}" for x, y in shape.outline) + "Z"
    for x, y, r in shape.dots:  # a circle as two arcs
        d += f"M{_n(x - r)} {_n(y)}a{_n(r)} {_n(r)} 0 1 0 {_n(2 * r)} 0a{_n(r)} {_n(r)} 0 1 0 {_n(-2 * r)} 0Z"
    attrs = {"d": d, "fill": shape.fill, "stroke": shape.stroke, "stroke-width": _n(shape.width)}
    attrs.update({"stroke-linejoin": "round", "pointer-events": "none", "data-piece": shape.piece})
    ET.SubElement(parent, "path", attrs)


def _emit_trail(parent: ET.Element, shape: Trail) -> None:
    common = {
        "fill": "none",
        "stroke": shape.colour,
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
        "pointer-events": "none",
    }
    if not shape.compact:
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in shape.points())
        ET.SubElement(parent, "polyline", {"points": points, "stroke-width": _n(shape.width), **common})
    else:
        attrs = {
            "d": trail_d(shape.cols, shape.rows),
            "transform": f"translate({_n(shape.x0)} {_n(shape.y0)}) scale({_n(shape.cell)})",
            "stroke-width": f"{shape.width / shape.cell:.3g}",
            **common,
        }
        ET.SubElement(parent, "path", attrs)


def trail_d(cols: np.ndarray, rows: np.ndarray) -> str:
    """Path data for a walk in grid units: an absolute start, then relative steps written as
    short as SVG allows (a minus sign separates numbers by itself)."""
    dx = np.diff(np.asarray(cols, dtype=np.int64))
    dy = np.diff(np.asarray(rows, dtype=np.int64))
    start = f"M{int(cols[0])} {int(rows[0])}l"
    if not len(dx):
        return start + "0 0"
    span = int(max(np.abs(dy).max(), 1)) * 2 + 1
    codes = dx * span + dy
    unique, inverse = np.unique(codes, return_inverse=True)
    tokens = []
    for code in unique.tolist():
        x = (code + span // 2) // span
        y = code - x * span
        tokens.append(("" if x < 0 else " ") + str(x) + ("" if y < 0 else " ") + str(y))
    return start + "".join(np.asarray(tokens, dtype=object)[inverse].tolist())


def drawing_svg(drawing: Drawing) -> str:
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": _n(drawing.width),
            "height": _n(drawing.height),
            "viewBox": f"0 0 {_n(drawing.width)} {_n(drawing.height)}",
        },
    )
    ET.SubElement(svg, "rect", {"width": "100%", "height": "100%", "fill": drawing.background})
    for shape in drawing.shapes:
        _emit(svg, shape)
    return ET.tostring(svg, encoding="unicode")


def sheet_svg(scenes: Sequence[Scene], columns: int | None = None, heading: str = "") -> str:
    """One SVG document holding the scenes in a grid of ``columns`` (default: about square),
    under ``heading``, with a legend of the conventions they use (see :func:`draw.sheet`)."""
    return drawing_svg(sheet(scenes, columns, heading))


def board_svg(board: Board, title: str = "") -> str:
    return sheet_svg([Scene.of_board(board, title)])
