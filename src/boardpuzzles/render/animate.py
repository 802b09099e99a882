"""Replays: frames shown one by one in the terminal, or drawn on an SVG sheet or into a GIF.

Glossary
--------
frame   one step of a replay, as a :class:`~boardpuzzles.scene.Scene` (for pictures) and as
        text (for the terminal); a puzzle makes them (``goishi.frames``, ``goishi.text_frame``).
replay  the text frames in the terminal, each drawn over the previous one (ANSI cursor moves)
        when the output is a terminal, one after another otherwise.

The GIF is drawn from the same scenes as the SVG, by a small Pillow back end that translates
their squares, stones, labels and path.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Sequence
from typing import Any

from boardpuzzles.grid import Cell
from boardpuzzles.render.scene import style_for
from boardpuzzles.scene import Scene


class Quit(Exception):
    """Raised by a replay's ``wait`` to end the replay early (the viewer pressed q)."""


def frames_svg(frames: Sequence[Scene]) -> str:
    """All frames on one SVG sheet, in reading order."""
    from boardpuzzles.render.svg import sheet_svg

    return sheet_svg(list(frames))


# ---------------------------------------------------------------- GIF (Pillow)
def gif_bytes(frames: Sequence[Scene], seconds_per_frame: float = 0.6) -> bytes:
    """An animated GIF of the frames (the last one held three times as long), looping forever."""
    from boardpuzzles.render.svg import CELL, MARGIN, TITLE_HEIGHT

    images = []
    for frame in frames:
        width = frame.grid.cols * CELL + 2 * MARGIN
        height = frame.grid.rows * CELL + 2 * MARGIN + TITLE_HEIGHT
        images.append(_raster(frame, width, height, CELL, MARGIN, TITLE_HEIGHT))
    durations = [int(seconds_per_frame * 1000)] * len(images)
    durations[-1] *= 3
    durations = [min(d, 65_535) for d in durations]  # GIF frame delays are 16-bit (in 10 ms units)
    buffer = io.BytesIO()
    images[0].save(buffer, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0)
    return buffer.getvalue()


def _raster(frame: Scene, width: int, height: int, cell: int, margin: int, title_height: int) -> Any:
    from PIL import Image, ImageDraw, ImageFont

    from boardpuzzles.render.svg import DARK, LIGHT

    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=14)
    left, top = margin, margin + title_height
    if frame.title:
        draw.text((left, margin // 2), frame.title, fill="#000000", font=ImageFont.load_default(size=16))
    grid = frame.grid
    for r in range(grid.rows):
        for c in range(grid.cols):
            fill = frame.marks.get(r * grid.cols + c) or (LIGHT if (r + c) % 2 == 0 else DARK)
            draw.rectangle(
                [left + c * cell, top + r * cell, left + (c + 1) * cell - 1, top + (r + 1) * cell - 1], fill=fill
            )
    draw.rectangle([left, top, left + grid.cols * cell, top + grid.rows * cell], outline="#333333")

    def centre(point: Cell) -> tuple[float, float]:
        r, c = grid.coords(point)
        return left + (c + 0.5) * cell, top + (r + 0.5) * cell

    if len(frame.path) > 1:
        draw.line([centre(p) for p in frame.path], fill="#c0392b", width=3)
    for point, piece in sorted(frame.pieces.items()):
        x, y = centre(point)
        style = style_for(piece)
        radius = cell * 0.4
        draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=style.fill, outline=style.stroke, width=2)
    for point, label in sorted(frame.labels.items()):
        x, y = centre(point)
        draw.text((x, y), label, fill="#000000", font=font, anchor="mm")
    return image


# ---------------------------------------------------------------- terminal replay
def replay(
    frames: Sequence[str],
    captions: Sequence[str],
    write: Callable[[str], None],
    wait: Callable[[int], None],
    in_place: bool,
) -> None:
    """Show the text frames one by one, calling ``wait(k)`` before frame k > 0 (a key press or a
    delay). ``in_place`` redraws each frame over the previous one instead of scrolling."""
    height = 0
    for k, (frame, caption) in enumerate(zip(frames, captions, strict=True)):
        if k:
            wait(k)
        text = f"{caption}\n{frame}\n"
        if in_place and height:
            write(f"\x1b[{height}F\x1b[J")  # back to the first line of the last frame, clear below
        elif k:
            write("\n")
        write(text)
        height = text.count("\n")


def sleeper(seconds: float) -> Callable[[int], None]:
    def wait(_: int) -> None:
        time.sleep(seconds)

    return wait
