"""Pictures of a pick-up order: scenes (SVG, GIF frames) and text boards of pick-up numbers."""

from __future__ import annotations

from collections.abc import Sequence

from boardpuzzles.grid import Cell
from boardpuzzles.puzzles.goishi.rules import STONE, Puzzle, order_names
from boardpuzzles.scene import Scene, scene_text

# ---------------------------------------------------------------- pictures of orders
#: Colours of the pictures: picked points (no longer drawn: picked stones are greyed), and the
#: stone just picked (ringed).
PICKED_MARK = "#9fc5e8"
CURRENT_MARK = "#e06666"


def frame(puzzle: Puzzle, order: Sequence[Cell], k: int, title: str = "", *, fade: bool = True) -> Scene:
    """The board after the first ``k`` stones of ``order`` are picked up, drawn as a go board:
    stones on the points, picked stones greyed and numbered (``fade=False``: left as stones,
    numbered, as a solution is shown), the stone just picked ringed, the first one marked, and
    the walk so far as arrows."""
    picked = list(order[:k])
    left = set(puzzle.stones) - set(picked)
    stones = left if fade else set(puzzle.stones)
    return Scene(
        puzzle.grid,
        pieces={cell: STONE for cell in sorted(stones)},
        marks={picked[-1]: CURRENT_MARK} if picked and fade else {},
        labels={cell: str(i + 1) for i, cell in enumerate(picked)},
        path=picked,
        title=title,
        style="points",
        arrows=True,
        start=picked[0] if picked else None,
        faded=set(picked) if fade else set(),
        label_meaning="step",
        mark_meanings={CURRENT_MARK: "the stone just picked up"} if fade else {},
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
    """The solution's picture: every stone numbered in pick-up order, arrows along the walk."""
    return frame(puzzle, order, len(order), fade=False)


def numbered_picture(puzzle: Puzzle, order: Sequence[Cell]) -> str:
    """Pick-up numbers in right-aligned columns (``.`` empty, ``O`` a stone not picked)."""
    return scene_text(to_scene(puzzle, order))


def answer_text(puzzle: Puzzle, order: Sequence[Cell]) -> str:
    """An answer as ``solve`` prints it: the numbered board, then the order as square names."""
    return f"{numbered_picture(puzzle, order)}\norder: {order_names(puzzle, order)}"
