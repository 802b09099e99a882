"""Pictures of a pick-up order: the answer value (:class:`PickUpOrder`), scenes (SVG, GIF frames,
the play page) and text boards of pick-up numbers.

Every picture of Goishi is one :func:`frame`: the board after the first k stones of an order are
picked up. A solution is its last frame, the puzzle alone its first, the play page the frame of
the walk so far, an animation every frame in turn: so they all look alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boardpuzzles.answers import CellSequence
from boardpuzzles.grid import Cell, Grid
from boardpuzzles.puzzles.goishi.rules import STONE, Puzzle, order_names
from boardpuzzles.scene import PATH_COLOUR, Scene, scene_text


# ---------------------------------------------------------------- the answer
@dataclass(frozen=True, repr=False)
class PickUpOrder(CellSequence):
    """A pick-up order of a puzzle: the stones' cells in the order picked up. It reads as the
    tuple of its cells does; ``str`` is the board of pick-up numbers and a notebook shows its
    picture."""

    puzzle: Puzzle
    cells: tuple[Cell, ...] = ()

    @property
    def grid(self) -> Grid:
        return self.puzzle.grid

    def scene(self) -> Scene:
        return to_scene(self.puzzle, self.cells)

    def __str__(self) -> str:
        return answer_text(self.puzzle, self.cells)


# ---------------------------------------------------------------- pictures of orders
#: The ring around the last stone picked up: the blue of the walk's arrows (red means a mistake
#: on the play page).
CURRENT_MARK = PATH_COLOUR


def frame(puzzle: Puzzle, order: Sequence[Cell], k: int, title: str = "") -> Scene:
    """The board after the first ``k`` stones of ``order`` are picked up, drawn as a go board:
    stones on the points, picked stones greyed and numbered, the first one and the last one
    ringed, and the walk so far as arrows."""
    picked = list(order[:k])
    return Scene(
        puzzle.grid,
        pieces={cell: STONE for cell in sorted(set(puzzle.stones) - set(picked))},
        marks={picked[-1]: CURRENT_MARK} if picked else {},
        labels={cell: str(i + 1) for i, cell in enumerate(picked)},
        path=picked,
        title=title,
        style="points",
        arrows=True,
        start=picked[0] if picked else None,
        faded=set(picked),
        label_meaning="step",
        mark_meanings={CURRENT_MARK: "the last stone picked up"} if picked else {},
    )


def frames(puzzle: Puzzle, order: Sequence[Cell]) -> list[Scene]:
    """Every frame of a replay, 0 to len(order), titled with the step it shows."""
    found = [frame(puzzle, order, 0, "start")]
    for k in range(1, len(order) + 1):
        found.append(frame(puzzle, order, k, f"{k}: {puzzle.name(order[k - 1])}"))
    return found


def text_frame(puzzle: Puzzle, order: Sequence[Cell], k: int, *, coordinates: bool = False) -> str:
    """Frame ``k`` as text, in the seed's spelling: ``O`` a stone on the board, ``=`` a point
    whose stone is gone, ``@`` the stone just picked; ``coordinates`` adds rank numbers on the
    left and file letters below."""
    picked = list(order[:k])
    pieces = {cell: STONE for cell in puzzle.stones}
    pieces.update({cell: "=" for cell in picked})
    if k:
        pieces[picked[-1]] = "@"
    return scene_text(Scene(puzzle.grid, pieces=pieces), coordinates=coordinates)


def to_scene(puzzle: Puzzle, order: Sequence[Cell]) -> Scene:
    """An order's picture: its last frame, every stone it picked numbered, arrows along the walk."""
    return frame(puzzle, order, len(order))


def numbered_picture(puzzle: Puzzle, order: Sequence[Cell]) -> str:
    """Pick-up numbers in right-aligned columns (``.`` empty, ``O`` a stone not picked)."""
    return scene_text(to_scene(puzzle, order))


def answer_text(puzzle: Puzzle, order: Sequence[Cell]) -> str:
    """An answer as ``solve`` prints it: the numbered board, then the order as square names."""
    return f"{numbered_picture(puzzle, order)}\norder: {order_names(puzzle, order)}"
