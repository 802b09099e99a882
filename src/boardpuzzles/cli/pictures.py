"""Answers drawn into files: ``--svg`` and ``--png`` sheets of one or many boards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boardpuzzles.cli.common import note, write_file_atomically

#: An SVG sheet holds at most this many boards (one board per answer); --limit chooses fewer.
MAX_SHEET_BOARDS = 500
#: ... and at most this many cells in all (a 2000 x 2000 board, drawn as a path).
MAX_SHEET_CELLS = 4_000_000


def write_pictures(svg_path: str | None, png_path: str | None, scenes: Sequence[Any], heading: str = "") -> None:
    """Draw the scenes on one sheet into an SVG and/or a PNG file (each written whole or not at
    all)."""
    if svg_path:
        from boardpuzzles.render.svg import sheet_svg

        write_file_atomically(svg_path, sheet_svg(scenes, heading=heading))
    if png_path:
        from boardpuzzles.render.png import png_bytes

        write_file_atomically(png_path, png_bytes(scenes, heading=heading))


def draw_into_files(svg_path: str | None, png_path: str | None, scene: Any) -> None:
    """Draw one answer into the ``--svg``/``--png`` files given (if any) and say where, on stderr."""
    if svg_path or png_path:
        write_pictures(svg_path, png_path, [scene])
        note(f"wrote {' and '.join(p for p in (svg_path, png_path) if p)}")


def write_sheet(
    svg_path: str | None, png_path: str | None, scenes: list[Any], shown: int, heading: str, complete: bool
) -> None:
    """Draw ``solve``'s answers on one sheet (each titled by its place in the listing) and say
    where, and how many of the ``shown`` answers were drawn."""
    for i, scene in enumerate(scenes):
        if not scene.title and len(scenes) > 1:
            scene.title = f"{i + 1} of {shown}" if complete else f"solution {i + 1}"
    write_pictures(svg_path, png_path, scenes, heading)
    paths = " and ".join(p for p in (svg_path, png_path) if p)
    if len(scenes) < shown:
        note(
            f"drew the first {len(scenes)} of {shown} answers into {paths} (a sheet holds at most "
            f"{MAX_SHEET_BOARDS} boards; --limit chooses how many)"
        )
    else:
        note(f"wrote {len(scenes)} board{'s' if len(scenes) > 1 else ''} to {paths}")
