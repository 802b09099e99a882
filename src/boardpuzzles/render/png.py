"""PNG pictures (and GIF frames), drawn with Pillow from the shapes of
:mod:`boardpuzzles.render.draw`, the same shapes the SVG back end writes.

Pillow draws without anti-aliasing, so a picture is drawn at twice (or three times) its size and
scaled down. A picture is kept under ``MAX_PIXELS`` by scaling it down as a whole; dashes are
drawn as short segments; tooltips have no raster form.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Sequence
from typing import Any

from boardpuzzles.render.draw import Circle, Drawing, Figure, Poly, Rect, Text, Trail, sheet
from boardpuzzles.scene import Scene

#: The largest picture drawn (width x height); larger drawings are scaled down to fit.
MAX_PIXELS = 36_000_000
#: Pictures up to this many pixels are drawn at 3x, larger ones at 2x, the largest at 1x.
FINE_PIXELS = 2_500_000
SUPERSAMPLED_PIXELS = 16_000_000


@functools.lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Any:
    """DejaVu Sans where the system has it (it is what the SVG asks for first), else Pillow's own."""
    from PIL import ImageFont

    for name in (
        ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf") if bold else ("DejaVuSans.ttf", "LiberationSans-Regular.ttf")
    ):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def _rgba(colour: str, opacity: float = 1.0) -> tuple[int, int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16), round(255 * opacity)


def image(drawing: Drawing, scale: float = 1.0) -> Any:
    """The drawing as an RGB ``PIL.Image`` (``scale`` times its size, within MAX_PIXELS)."""
    from PIL import Image, ImageDraw

    pixels = drawing.width * drawing.height * scale * scale
    if pixels > MAX_PIXELS:
        scale *= math.sqrt(MAX_PIXELS / pixels)
        pixels = MAX_PIXELS
    factor = 3 if pixels <= FINE_PIXELS else 2 if pixels <= SUPERSAMPLED_PIXELS else 1
    k = scale * factor
    size = (max(1, round(drawing.width * k)), max(1, round(drawing.height * k)))
    canvas = Image.new("RGB", size, drawing.background)
    pen = ImageDraw.Draw(canvas, "RGBA")
    for shape in drawing.walk():
        _draw(pen, shape, k)
    if factor > 1:
        canvas = canvas.resize(
            (max(1, round(drawing.width * scale)), max(1, round(drawing.height * scale))), Image.Resampling.LANCZOS
        )
    return canvas


def _width(width: float, k: float) -> int:
    return max(1, round(width * k))


def _dashed(
    pen: Any, a: tuple[float, float], b: tuple[float, float], colour: str, width: int, dash: str, k: float
) -> None:
    on, off = (float(v) * k for v in dash.split()[:2])
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = 0.0
    while t < length:
        end = min(t + on, length)
        pen.line([(a[0] + ux * t, a[1] + uy * t), (a[0] + ux * end, a[1] + uy * end)], fill=colour, width=width)
        t = end + off


def _draw(pen: Any, shape: Any, k: float) -> None:
    if isinstance(shape, Rect):
        if shape.opacity == 0:
            return  # an area that only carries a tooltip
        box = [shape.x * k, shape.y * k, (shape.x + shape.w) * k - 1, (shape.y + shape.h) * k - 1]
        if shape.fill != "none":
            pen.rectangle(box, fill=_rgba(shape.fill, shape.opacity))
        if shape.stroke:
            width = _width(shape.width, k)
            if shape.dash:
                x0, y0, x1, y1 = box
                for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
                    _dashed(pen, a, b, shape.stroke, width, shape.dash, k)
            else:
                pen.rectangle(box, outline=shape.stroke, width=width)
    elif isinstance(shape, Circle):
        r = shape.r * k
        box = [shape.cx * k - r, shape.cy * k - r, shape.cx * k + r, shape.cy * k + r]
        fill = None if shape.fill == "none" else shape.fill
        pen.ellipse(box, fill=fill, outline=shape.stroke, width=_width(shape.width, k) if shape.stroke else 0)
    elif isinstance(shape, Poly):
        points = [(x * k, y * k) for x, y in shape.points]
        colour = _rgba(shape.stroke or "#000000", shape.opacity)
        if shape.closed:
            pen.polygon(points, fill=None if shape.fill == "none" else shape.fill, outline=shape.stroke)
        elif shape.dash and shape.stroke:
            for a, b in zip(points, points[1:], strict=False):
                _dashed(pen, a, b, shape.stroke, _width(shape.width, k), shape.dash, k)
        elif shape.stroke:
            width = _width(shape.width, k)
            pen.line(points, fill=colour, width=width, joint="curve" if len(points) > 2 else None)
            if width > 2:  # round caps
                r = width / 2
                for x, y in (points[0], points[-1]):
                    pen.ellipse([x - r, y - r, x + r, y + r], fill=colour)
    elif isinstance(shape, Text):
        anchor = {"start": "lm", "middle": "mm", "end": "rm"}[shape.anchor]
        extra = {"stroke_width": max(1, round(1.5 * k)), "stroke_fill": shape.halo} if shape.halo else {}
        typeface = font(max(1, round(shape.size * k)), shape.bold)
        pen.text((shape.x * k, shape.y * k), shape.text, fill=shape.fill, font=typeface, anchor=anchor, **extra)
    elif isinstance(shape, Figure):
        pen.polygon([(x * k, y * k) for x, y in shape.outline], fill=shape.fill, outline=shape.stroke)
        for x, y, r in shape.dots:
            pen.ellipse([(x - r) * k, (y - r) * k, (x + r) * k, (y + r) * k], fill=shape.fill, outline=shape.stroke)
    elif isinstance(shape, Trail):
        xs = (shape.x0 + shape.cols * shape.cell) * k
        ys = (shape.y0 + shape.rows * shape.cell) * k
        width = _width(shape.width, k)
        flat = [v for pair in zip(xs.tolist(), ys.tolist(), strict=True) for v in pair]
        pen.line(flat, fill=shape.colour, width=width, joint="curve" if width > 2 and len(xs) < 5000 else None)
    else:  # pragma: no cover - every shape is handled above
        raise TypeError(f"cannot draw {shape!r}")


def png_of(drawing: Drawing, scale: float = 1.0) -> bytes:
    """The drawing as PNG, in 256 colours (a 300x300 tour: 1.2 MB instead of 6.4 MB in full
    colour, with no visible difference: the picture has few colours besides its edges)."""
    from PIL import Image

    picture = image(drawing, scale).quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG")
    return buffer.getvalue()


def png_bytes(scenes: Sequence[Scene], columns: int | None = None, heading: str = "") -> bytes:
    """The scenes as one PNG picture, laid out as :func:`boardpuzzles.render.svg.sheet_svg` does."""
    return png_of(sheet(scenes, columns, heading))
