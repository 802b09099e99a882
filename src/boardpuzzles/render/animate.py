"""Replays: frames shown one by one in the terminal, or drawn on an SVG sheet or into a GIF.

Glossary
--------
frame   one step of a replay, as a :class:`~boardpuzzles.scene.Scene` (for pictures) and as
        text (for the terminal); a puzzle makes them (``goishi.frames``, ``goishi.text_frame``).
replay  the text frames in the terminal, each drawn over the previous one (ANSI cursor moves)
        when the output is a terminal, one after another otherwise.

The GIF is drawn from the same scenes and the same shapes as the SVG (:mod:`.draw`), by the
Pillow back end (:mod:`.png`): coordinates, greyed stones, arrows and legend included.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Sequence
from typing import Any

from boardpuzzles.scene import Scene


class Quit(Exception):
    """Raised by a replay's ``wait`` to end the replay early (the viewer pressed q)."""


def frames_svg(frames: Sequence[Scene], heading: str = "") -> str:
    """All frames on one SVG sheet, in reading order."""
    from boardpuzzles.render.svg import sheet_svg

    return sheet_svg(list(frames), heading=heading)


# ---------------------------------------------------------------- GIF (Pillow)
def frame_images(frames: Sequence[Scene]) -> list[Any]:
    """Each frame as a picture (``PIL.Image``), drawn as the SVG draws it (coordinates, legend and
    all), every one the same size."""
    from boardpuzzles.render.draw import sheet
    from boardpuzzles.render.png import image

    return [image(sheet([frame], legend_of=frames)) for frame in frames]


def gif_bytes(frames: Sequence[Scene], seconds_per_frame: float = 0.6) -> bytes:
    """An animated GIF of the frames (the last one held three times as long), looping forever."""
    images = frame_images(frames)
    durations = [int(seconds_per_frame * 1000)] * len(images)
    durations[-1] *= 3
    durations = [min(d, 65_535) for d in durations]  # GIF frame delays are 16-bit (in 10 ms units)
    buffer = io.BytesIO()
    images[0].save(buffer, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0)
    return buffer.getvalue()


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
