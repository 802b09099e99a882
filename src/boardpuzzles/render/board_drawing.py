"""One scene drawn as shapes (see :mod:`boardpuzzles.render.draw`): the board, then each kind of
mark on it in turn (tiles, edges, the path, stones and pieces, the start and end, labels, arrows)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from boardpuzzles.grid import Cell, Grid, file_letters
from boardpuzzles.render.shapes import (
    BANDS,
    COMPACT_PATH,
    DARK,
    FADED_FILL,
    FADED_STROKE,
    FADED_TEXT,
    GRADIENT,
    GRID_LINE,
    LIGHT,
    MARGIN,
    MIN_RULED_CELL,
    PAPER,
    PATH_COLOUR,
    PLAIN,
    RULE,
    SPAN_OUTLINE,
    START_COLOUR,
    TITLE_HEIGHT,
    TITLE_LINE,
    TOOLTIP_CELLS,
    WOOD,
    Circle,
    Figure,
    Group,
    Layout,
    Point,
    Poly,
    Rect,
    Shape,
    Text,
    Trail,
    gradient_colour,
    layout,
)
from boardpuzzles.render.styles import QUEEN_BALLS, QUEEN_OUTLINE, style_for
from boardpuzzles.scene import Scene


# ---------------------------------------------------------------- one scene
def tooltip(scene: Scene, cell: Cell) -> str | None:
    """The hover text of a cell: the scene's own, else the square's name and what is on it."""
    if cell in scene.tooltips:
        return scene.tooltips[cell]
    name = scene.grid.name(cell)
    if cell in scene.labels:
        meaning = f"{scene.label_meaning} " if scene.label_meaning else ""
        return f"{name}: {meaning}{scene.labels[cell]}"
    if cell in scene.pieces:
        return f"{name}: {style_for(scene.pieces[cell]).name}"
    return None


@dataclass
class _Frame:
    """Where one scene is drawn: its layout, its corner, and the tooltips given out so far."""

    scene: Scene
    lay: Layout
    x0: float
    y0: float
    group: Group
    content: set[Cell]  # cells whose tooltip some shape must carry
    titled: set[Cell] = field(default_factory=set)  # cells whose tooltip a shape carries

    @property
    def cell(self) -> float:
        return self.lay.cell

    @property
    def top(self) -> float:
        return self.y0 + self.lay.title_height

    @property
    def left(self) -> float:
        return self.x0 + (MARGIN if self.lay.coordinates else 0)

    @property
    def points(self) -> bool:
        return self.scene.style == "points"

    @property
    def stone(self) -> float:
        """The radius of a stone or a piece's disc."""
        if self.points:
            return (0.36 if self.scene.arrows else 0.46) * self.cell
        return 0.4 * self.cell

    def add(self, shape: Shape) -> None:
        self.group.shapes.append(shape)

    def centre(self, p: Cell) -> Point:
        r, c = divmod(p, self.scene.grid.cols)
        return self.left + (c + 0.5) * self.cell, self.top + (r + 0.5) * self.cell

    def corner(self, p: Cell) -> Point:
        """The top-left corner of a cell."""
        r, c = divmod(p, self.scene.grid.cols)
        return self.left + c * self.cell, self.top + r * self.cell

    def take_tooltip(self, p: Cell) -> str | None:
        """The cell's tooltip, for the first shape drawn over it that can carry one."""
        title = tooltip(self.scene, p) if p in self.content and p not in self.titled else None
        if title:
            self.titled.add(p)
        return title


def scene_group(scene: Scene, x0: float, y0: float, lay: Layout | None = None) -> Group:
    """The shapes of one scene with its top-left corner at (x0, y0), drawn bottom to top: the
    title, the board, the coordinates, the tiles and walls, the path, the stones and pieces, the
    figure, the start and end, the arrows, the labels and the areas that carry tooltips."""
    lay = lay or layout(scene)
    tooltips = scene.grid.size <= TOOLTIP_CELLS
    content = set(scene.pieces) | set(scene.labels) | set(scene.tooltips) | scene.faded if tooltips else set()
    frame = _Frame(scene, lay, x0, y0, Group("board", title=scene.title or None), content)
    for i, words in enumerate(lay.title_lines):  # fitted to the board's width
        frame.add(Text(frame.left, y0 + TITLE_HEIGHT / 2 - 2 + i * TITLE_LINE, words, lay.title_size, anchor="start"))
    if frame.points:
        _go_board(frame)
    else:
        _chessboard(frame)
    if lay.coordinates:
        _coordinates(frame)
    _spans(frame)
    _edges(frame)
    _outlines(frame)
    if len(scene.path) > 1 and not scene.arrows:
        _trail(frame)
    _stones_and_pieces(frame)
    for a, b, colour in scene.lines:  # the figure (a winning cross)
        frame.add(Poly([frame.centre(a), frame.centre(b)], colour, max(3.0, 0.1 * frame.cell), opacity=0.8))
    _start_and_end(frame)
    if len(scene.path) > 1 and scene.arrows:  # (over the rings of the start and the stone just picked)
        centre, path = frame.centre, scene.path
        gradient = scene.path_colours == "gradient"
        occupied = set(scene.pieces) | scene.faded
        _arrows(frame.group, path, centre, frame.stone, frame.cell, gradient, scene.grid, occupied)
    if lay.labels:
        _labels(frame)
    for p in sorted(content - frame.titled):  # cells with content but no shape of their own to carry the tooltip
        title = tooltip(scene, p)
        if title:
            x, y = frame.corner(p)
            frame.add(Rect(x, y, frame.cell, frame.cell, fill="#ffffff", title=title, opacity=0))
    return frame.group


def _go_board(frame: _Frame) -> None:
    """Wood, the lines through the points, and a dashed border on a torus."""
    grid, cell, left, top = frame.scene.grid, frame.cell, frame.left, frame.top
    rows, cols = grid.rows, grid.cols
    frame.add(Rect(left, top, cols * cell, rows * cell, fill=WOOD))
    line = max(0.6, min(1.2, cell / 30))
    for r in range(rows):
        frame.add(Poly([frame.centre(r * cols), frame.centre(r * cols + cols - 1)], GRID_LINE, line))
    for c in range(cols):
        frame.add(Poly([frame.centre(c), frame.centre((rows - 1) * cols + c)], GRID_LINE, line))
    if grid.torus:
        frame.add(Rect(left, top, cols * cell, rows * cell, stroke="#333333", width=1.5, dash="6 3"))


def _chessboard(frame: _Frame) -> None:
    """Squares (or a plain background with the marked cells on large boards) and the border; in
    the ``grid`` style the squares are plain paper ruled by thin lines."""
    scene, cell, left, top = frame.scene, frame.cell, frame.left, frame.top
    rows, cols = scene.grid.rows, scene.grid.cols
    ruled = scene.style == "grid"
    if frame.lay.detail:
        for r in range(rows):
            for c in range(cols):
                p = r * cols + c
                fill = scene.marks.get(p) or (PAPER if ruled else LIGHT if (r + c) % 2 == 0 else DARK)
                title = tooltip(scene, p) if p in frame.content else None
                if title:
                    frame.titled.add(p)
                frame.add(Rect(left + c * cell, top + r * cell, cell, cell, fill=fill, title=title))
    else:
        frame.add(Rect(left, top, cols * cell, rows * cell, fill=PLAIN))
        for p, colour in scene.marks.items():
            x, y = frame.corner(p)
            frame.add(Rect(x, y, cell, cell, fill=colour))
    if ruled and cell >= MIN_RULED_CELL:
        width = max(0.5, min(1.0, cell / 40))
        for r in range(1, rows):
            frame.add(Poly([(left, top + r * cell), (left + cols * cell, top + r * cell)], RULE, width))
        for c in range(1, cols):
            frame.add(Poly([(left + c * cell, top), (left + c * cell, top + rows * cell)], RULE, width))
    dash = "6 3" if scene.grid.torus else None
    frame.add(Rect(left, top, cols * cell, rows * cell, stroke="#333333", width=1.5, dash=dash))


def _coordinates(frame: _Frame) -> None:
    grid, cell, left, top = frame.scene.grid, frame.cell, frame.left, frame.top
    for c in range(grid.cols):
        frame.add(
            Text(left + (c + 0.5) * cell, top + grid.rows * cell + MARGIN / 2 + 1, file_letters(c), 12, "#555555")
        )
    for r in range(grid.rows):
        frame.add(Text(frame.x0 + MARGIN / 2, top + (r + 0.5) * cell, str(grid.rows - r), 12, "#555555"))


def _spans(frame: _Frame) -> None:
    """Each span as a tile over the cells between its two corner cells (a domino)."""
    grid, cell = frame.scene.grid, frame.cell
    inset = max(0.5, 0.08 * cell)
    for a, b, colour in frame.scene.spans:
        (ar, ac), (br, bc) = grid.coords(a), grid.coords(b)
        x, y = frame.corner(min(ar, br) * grid.cols + min(ac, bc))
        w, h = (abs(bc - ac) + 1) * cell, (abs(br - ar) + 1) * cell
        title = f"{grid.name(a)}-{grid.name(b)}" if grid.size <= TOOLTIP_CELLS else None
        stroke = max(0.5, min(2.0, cell / 20))
        frame.add(Rect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, colour, SPAN_OUTLINE, stroke, title=title))


def _outlines(frame: _Frame) -> None:
    """Each outline as a frame inside its cell (a ring round a go board's point)."""
    cell = frame.cell
    width = max(1.5, 0.1 * cell)
    for p, colour in frame.scene.outlines.items():
        if frame.points:
            x, y = frame.centre(p)
            frame.add(Circle(x, y, frame.stone + 2.5, "none", colour, 3.0))
        else:
            x, y = frame.corner(p)
            frame.add(Rect(x + width / 2, y + width / 2, cell - width, cell - width, stroke=colour, width=width))


def _edges(frame: _Frame) -> None:
    """Each edge as a wall along the side two neighbouring cells share."""
    grid, cell = frame.scene.grid, frame.cell
    width = max(1.5, 0.1 * cell)
    for a, b, colour in frame.scene.edges:
        (ar, ac), (br, bc) = grid.coords(a), grid.coords(b)
        x, y = frame.corner(max(ar, br) * grid.cols + max(ac, bc))
        if ar == br and abs(ac - bc) == 1:
            frame.add(Poly([(x, y), (x, y + cell)], colour, width))
        elif ac == bc and abs(ar - br) == 1:
            frame.add(Poly([(x, y), (x + cell, y)], colour, width))
        else:
            raise ValueError(f"an edge joins neighbouring cells, not {grid.name(a)} and {grid.name(b)}")


def _trail(frame: _Frame) -> None:
    """The path as lines through the cell centres, in colour bands."""
    scene, lay, cell = frame.scene, frame.lay, frame.cell
    path, cols = scene.path, scene.grid.cols
    width = max(2.0, 0.07 * cell) if lay.detail else max(0.6, min(4.0, 0.15 * cell))
    compact = len(path) > COMPACT_PATH
    x0, y0 = frame.left + cell / 2, frame.top + cell / 2
    for first, last, colour in _bands(len(path), scene.path_colours == "gradient"):
        cells = np.asarray(path[first : last + 1], dtype=np.int64)
        frame.add(Trail(x0, y0, cell, cells % cols, cells // cols, colour, width, compact))


def _stones_and_pieces(frame: _Frame) -> None:
    """Picked-up stones, then pieces (queens as figures), then the rings of marked points."""
    scene, cell, stone = frame.scene, frame.cell, frame.stone
    for p in sorted(scene.faded):
        x, y = frame.centre(p)
        frame.add(Circle(x, y, stone, FADED_FILL, FADED_STROKE, 1.0, "3 2", frame.take_tooltip(p)))
    for p, piece in sorted(scene.pieces.items()):
        x, y = frame.centre(p)
        title = frame.take_tooltip(p)
        style = style_for(piece)
        if style.shape == "queen" and not frame.points:
            frame.add(_queen(x, y, cell, style.fill, style.stroke, piece))
            if title:  # a figure carries no tooltip of its own: an area over it does
                frame.add(Rect(x - cell / 2, y - cell / 2, cell, cell, fill="#ffffff", title=title, opacity=0))
        else:
            fill, outline = (style.fill, style.stroke) if style.shape != "queen" else ("#222222", "#000000")
            frame.add(Circle(x, y, stone, fill, outline, max(0.5, min(1.5, cell / 27)), None, title, piece))
            if style.shape == "letter":
                frame.add(Text(x, y, style.text, 0.45 * cell, style.stroke))
    if frame.points:
        for p, colour in scene.marks.items():
            x, y = frame.centre(p)
            frame.add(Circle(x, y, stone + 2.5, "none", colour, 3.0))


def _queen(x: float, y: float, cell: float, fill: str, stroke: str, piece: str) -> Figure:
    size = 0.9 * cell
    ox, oy = x - size / 2, y - size / 2
    return Figure(
        [(ox + u * size, oy + v * size) for u, v in QUEEN_OUTLINE],
        [(ox + u * size, oy + v * size, rad * size) for u, v, rad in QUEEN_BALLS],
        fill,
        stroke,
        max(0.5, cell / 40),
        piece,
    )


def _start_and_end(frame: _Frame) -> None:
    """A ring (start) or a square (end) around what the cell shows, or on large boards a filled
    marker that stays visible however small the cells are."""
    scene, cell, stone = frame.scene, frame.cell, frame.stone
    marked_in_place = frame.lay.labels or frame.points
    for at, kind in ((scene.start, "start"), (scene.end, "end")):
        if at is None:
            continue
        x, y = frame.centre(at)
        colour = _marker(scene, kind, frame.lay)[0]
        name = f"{kind}: {scene.grid.name(at)}" + (
            f" ({scene.label_meaning or 'label'} {scene.labels[at]})" if at in scene.labels else ""
        )
        if marked_in_place:
            radius = (stone + 5) if frame.points else 0.46 * cell
            w = max(2.5, 0.07 * cell)
            fill, outline = "none", colour
        else:
            radius = max(0.45 * cell, 9.0)
            w = 2.0
            fill, outline = colour, "#ffffff"
        if kind == "start":
            frame.add(Circle(x, y, radius, fill, outline, w, title=name))
        else:
            frame.add(Rect(x - radius, y - radius, 2 * radius, 2 * radius, fill, outline, w, title=name))


def _labels(frame: _Frame) -> None:
    scene, points = frame.scene, frame.points
    halo = "#ffffff" if (len(scene.path) > 1 and not points) else None
    for p, label in scene.labels.items():
        x, y = frame.centre(p)
        if points and p in scene.faded:
            fill = FADED_TEXT
        elif points and scene.pieces.get(p) == "X":
            fill = "#ffffff"
        else:
            fill = "#000000"
        frame.add(Text(x, y, label, frame.lay.label_size, fill, halo=halo))


def _bands(points: int, gradient: bool) -> list[tuple[int, int, str]]:
    """(first point, last point, colour) of each band of a path of ``points`` points."""
    steps = points - 1
    if not gradient:
        return [(0, steps, PATH_COLOUR)]
    bands = min(steps, BANDS)
    bounds = [b * steps // bands for b in range(bands + 1)]
    return [
        (bounds[b], bounds[b + 1], gradient_colour((b + 0.5) / bands))
        for b in range(bands)
        if bounds[b + 1] > bounds[b]
    ]


def _between(a: Cell, b: Cell, cols: int) -> tuple[list[Cell], tuple[int, int]]:
    """The grid points strictly between a and b on the straight line joining them, and the step
    (rows, columns) from one lattice point of that line to the next."""
    (ar, ac), (br, bc) = divmod(a, cols), divmod(b, cols)
    g = math.gcd(br - ar, bc - ac)
    if g == 0:
        return [], (0, 0)
    sr, sc = (br - ar) // g, (bc - ac) // g
    return [(ar + i * sr) * cols + ac + i * sc for i in range(1, g)], (sr, sc)


def _segments(path: Sequence[Cell], cols: int) -> dict[frozenset[Cell], int]:
    """The grid segments (pairs of neighbouring points on a step's line) that the steps of a path
    draw over: 3 where a whole step lies in one segment (its arrowhead is there), else 1."""
    weights: dict[frozenset[Cell], int] = {}
    for a, b in zip(path, path[1:], strict=False):
        between, _ = _between(a, b, cols)
        points = [a, *between, b]
        for p, q in zip(points, points[1:], strict=False):
            weights[frozenset((p, q))] = max(weights.get(frozenset((p, q)), 0), 3 if len(points) == 2 else 1)
    return weights


def _detour_side(a: Cell, b: Cell, grid: Grid, occupied: set[Cell], segments: dict[frozenset[Cell], int]) -> int:
    """Which side (+1: the left of a to b on the picture, -1: the right) a step bent around the
    stones it jumps over had better pass: the one with fewer stones beside it (points off the
    board count half) and fewer steps to cross (a whole one-point step, with its arrowhead in
    the gap the bend crosses, counts three)."""
    cols = grid.cols
    ar, ac = divmod(a, cols)
    between, (sr, sc) = _between(a, b, cols)
    best, best_cost = 1, math.inf
    for side in (1, -1):
        cost = 0.0
        for i in range(len(between) + 2):
            r, c = ar + i * sr - side * sc, ac + i * sc + side * sr  # (x, y) ~ (c, r)
            if not (0 <= r < grid.rows and 0 <= c < cols):
                cost += 0.5
                continue
            if r * cols + c in occupied:
                cost += 1
            if 0 < i <= len(between):  # the bend crosses the gap between this point and its own
                cost += segments.get(frozenset((between[i - 1], r * cols + c)), 0)
        if cost < best_cost:
            best, best_cost = side, cost
    return best


def _arrows(
    group: Group,
    path: Sequence[Cell],
    centre: Callable[[Cell], Point],
    stone: float,
    cell: float,
    gradient: bool,
    grid: Grid,
    occupied: set[Cell],
) -> None:
    """Each step as a line from stone to stone with an arrowhead touching the next stone. A step
    that jumps over points holding stones (picked up or not) bends around them, half a cell to
    the side, so that it is never hidden under them nor mistaken for a step from one of them."""
    steps = len(path) - 1
    head = min(0.22 * cell, 12.0)
    segments = _segments(path, grid.cols)

    def unit(dx: float, dy: float) -> Point:
        length = math.hypot(dx, dy)
        return dx / length, dy / length

    for k in range(steps):
        (ax, ay), (bx, by) = centre(path[k]), centre(path[k + 1])
        if (ax, ay) == (bx, by):
            continue
        ux, uy = unit(bx - ax, by - ay)
        colour = gradient_colour((k + 0.5) / steps) if gradient else PATH_COLOUR
        between, _ = _between(path[k], path[k + 1], grid.cols)
        if any(p in occupied for p in between):
            side = _detour_side(path[k], path[k + 1], grid, occupied, segments)
            o = 0.5 * cell
            nx, ny = uy * side, -ux * side  # on the picture (y down): the left of the step for +1
            p1 = (ax + (ux + nx) * o, ay + (uy + ny) * o)
            p2 = (bx + (nx - ux) * o, by + (ny - uy) * o)
            out, into = unit(p1[0] - ax, p1[1] - ay), unit(bx - p2[0], by - p2[1])
            route = [(ax + out[0] * (stone + 1), ay + out[1] * (stone + 1)), p1, p2]
        else:
            into = (ux, uy)
            route = [(ax + ux * (stone + 1), ay + uy * (stone + 1))]
        tip = (bx - into[0] * (stone + 1), by - into[1] * (stone + 1))
        last = math.dist(route[-1], tip)
        size = min(head, max(2.0, last))
        base = (tip[0] - into[0] * size, tip[1] - into[1] * size)
        if len(route) > 1 or last > size:
            group.shapes.append(Poly([*route, base], colour, 2.2))
        half = 0.55 * size
        group.shapes.append(
            Poly(
                [
                    tip,
                    (base[0] - into[1] * half, base[1] + into[0] * half),
                    (base[0] + into[1] * half, base[1] - into[0] * half),
                ],
                colour,
                1.0,
                fill=colour,
                closed=True,
            )
        )


def _marker(scene: Scene, kind: str, lay: Layout | None = None) -> tuple[str, bool]:
    """The colour of a scene's start or end marker, and whether it is drawn filled."""
    gradient = scene.path_colours == "gradient"
    if kind == "start":
        colour = GRADIENT[0] if gradient else START_COLOUR
    else:
        colour = GRADIENT[-1] if gradient else PATH_COLOUR
    return colour, not (scene.style == "points" or (lay or layout(scene)).labels)
