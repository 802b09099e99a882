"""The picture of a Baikago position: stones on the points of a go board, the last stone ringed,
and each winning cross drawn as a figure (its stones ringed in red, a line from its centre to
each arm). It takes plain data (point colours, crosses as their five points), so the game core
reaches it lazily (``Position._repr_svg_``) and the command line (``judge --svg``) shares it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from boardpuzzles.grid import Cell, Grid
from boardpuzzles.scene import Scene

CROSS_COLOUR = "#d62728"
LAST_COLOUR = "#1f77b4"
STONE_LETTERS = {1: "X", 2: "O"}


def position_scene(
    points: Sequence[int],
    size: int,
    crosses: Iterable[Sequence[Cell]] = (),
    last: Cell | None = None,
    title: str = "",
) -> Scene:
    """``points``: row-major colours (0 empty, 1 black, 2 white); ``crosses``: each cross's points,
    centre first (as ``Cross.points``)."""
    pieces = {p: STONE_LETTERS[v] for p, v in enumerate(points) if v in STONE_LETTERS}
    marks: dict[Cell, str] = {}
    lines: list[tuple[Cell, Cell, str]] = []
    for cross in crosses:
        centre, *arms = cross
        marks.update({p: CROSS_COLOUR for p in cross})
        lines.extend((centre, arm, CROSS_COLOUR) for arm in arms)
    if last is not None and last not in marks:
        marks[last] = LAST_COLOUR
    grid = Grid.shared(size, size)
    tooltips = {}
    if last is not None and last in pieces:
        colour = "black" if pieces[last] == "X" else "white"
        tooltips[last] = f"{grid.name(last)}: {colour} stone, played last"
    meanings = {CROSS_COLOUR: "a winning cross", LAST_COLOUR: "the last stone played"}
    return Scene(
        grid,
        pieces,
        marks=marks,
        title=title,
        style="points",
        lines=lines,
        tooltips=tooltips,
        mark_meanings={colour: meanings[colour] for colour in set(marks.values())},
    )
