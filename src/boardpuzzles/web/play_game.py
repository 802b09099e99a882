"""One web game of a puzzle (:class:`PuzzleGame`): a :class:`~boardpuzzles.play.Attempt` with
an id, a lock, and its state as the play page reads it (the SVG picture with the faults and
the hint drawn on it, where the board's cells lie in that picture, the verdict).

Faults are drawn in red (their cells marked, their segments as lines between cell centres),
a hint's cells in blue; both are added to the play's scene, so the picture is the one
``--svg`` draws, with the highlights on top.
"""

from __future__ import annotations

import dataclasses
import re
import secrets
import threading
import time
from typing import Any

from boardpuzzles.limits import Limits
from boardpuzzles.play import Attempt, Hint, Play
from boardpuzzles.protocol import Puzzle

#: A game untouched this many days may make room for a new one.
IDLE_DAYS = 7
#: The colours of faults and hints on the board.
FAULT_COLOUR = "#e53935"
HINT_COLOUR = "#64b5f6"
#: Pixels of the picture's margin left out (the page has margins of its own).
CROP = 16
#: Seconds a hint may search.
HINT_SECONDS = 3.0
#: Boards up to this many cells send each cell's name and content (the page's buttons and labels).
NAMED_CELLS = 4096


class PuzzleGame:
    """One puzzle being played (see the module docstring). ``save`` is called with the game
    after every change (the server's store)."""

    def __init__(
        self, puzzle: Puzzle[Any, Any], play: Play[Any, Any], attempt: Attempt[Any, Any], game_id: str | None = None
    ) -> None:
        self.id = game_id or secrets.token_hex(8)
        self.puzzle = puzzle
        self.play = play
        self.attempt = attempt
        self.lock = threading.Lock()
        self.touched = time.time()
        self.left = False
        self.hint: Hint | None = None  # shown until the next change
        self.save: Any = lambda game: None

    @property
    def can_go(self) -> bool:
        """Whether the game may make room for a new one: solved, left, or untouched for IDLE_DAYS."""
        return self.left or self.attempt.solved_seconds is not None or time.time() - self.touched > IDLE_DAYS * 86400

    def record(self) -> dict[str, Any]:
        """What the store keeps (call with ``lock`` held)."""
        return {"attempt": self.attempt.to_json(), "left": self.left}

    def _changed(self) -> None:
        self.touched = time.time()
        self.hint = None
        self.save(self)

    def click(self, cell: int, tool: str) -> None:
        with self.lock:
            self.attempt.click(cell, tool)
            self._changed()

    def undo(self) -> None:
        with self.lock:
            self.attempt.undo()
            self._changed()

    def redo(self) -> None:
        with self.lock:
            self.attempt.redo()
            self._changed()

    def ask_hint(self, searchers: threading.Semaphore | None = None) -> None:
        """A hint, searched for at most ``HINT_SECONDS`` once one of the server's ``searchers``
        is free (waiting at most as long again; past that the hint says they are busy)."""
        if searchers is not None and not searchers.acquire(timeout=HINT_SECONDS):
            with self.lock:
                self.hint = Hint("every hint searcher is busy: ask again in a moment")
            return
        try:
            with self.lock:
                self.hint = self.attempt.hint(Limits(HINT_SECONDS))
                self.touched = time.time()
        finally:
            if searchers is not None:
                searchers.release()

    def leave(self) -> None:
        with self.lock:
            if not self.left:
                self.left = True
                self.save(self)

    def link(self) -> str:
        s = self.attempt
        query = f"size={s.size}&seed={s.seed}" + (f"&difficulty={s.difficulty}" if s.difficulty else "")
        return f"/play/{self.puzzle.name}?{query}"

    def state(self) -> dict[str, Any]:
        """The game as the page reads it."""
        from boardpuzzles.render.draw import GAP, MARGIN, layout, sheet
        from boardpuzzles.render.svg import drawing_svg

        with self.lock:
            s = self.attempt
            verdict = s.verdict()
            scene = dataclasses.replace(
                self.play.scene(s.problem, s.state),
                marks=dict(self.play.scene(s.problem, s.state).marks),
            )
            scene.lines = list(scene.lines)
            if self.hint is not None:
                for cell in self.hint.cells:
                    scene.marks[cell] = HINT_COLOUR
            for fault in verdict.faults:
                for cell in fault.cells:
                    scene.marks[cell] = FAULT_COLOUR
                scene.lines.extend((a, b, FAULT_COLOUR) for a, b in fault.lines)
            lay = layout(scene)
            drawing = sheet([scene])
            crop = CROP if drawing.width > 2 * CROP and drawing.height > 2 * CROP else 0
            grid = scene.grid
            named = grid.size <= NAMED_CELLS
            contents = [_content(scene, cell) for cell in range(grid.size)] if named else []
            return {
                "game": self.id,
                "puzzle": self.puzzle.name,
                "size": s.size,
                "difficulty": s.difficulty,
                "seed": s.seed,
                "link": self.link(),
                "tools": [t.name for t in self.play.tools],
                "svg": _cropped(drawing_svg(drawing), drawing.width, drawing.height, crop),
                "geometry": {
                    "width": drawing.width - 2 * crop,
                    "height": drawing.height - 2 * crop,
                    "left": GAP + (MARGIN if lay.coordinates else 0) - crop,
                    "top": GAP + lay.title_height - crop,
                    "cell": lay.cell,
                    "rows": grid.rows,
                    "cols": grid.cols,
                },
                "names": [grid.name(cell) for cell in range(grid.size)] if named else [],
                "contents": contents,
                "state": self.play.state_to_json(s.problem, s.state),
                "faults": [f.to_json() for f in verdict.faults],
                "solved": verdict.solved,
                "seconds": round(verdict.seconds, 1),
                "moves": s.at,
                "hints": s.hints,
                "can_undo": s.can_undo,
                "can_redo": s.can_redo,
                "hint": self.hint.to_json() if self.hint is not None else None,
            }


def _cropped(svg: str, width: float, height: float, crop: float) -> str:
    """The picture without ``crop`` pixels of its margin on every side (the page has its own)."""
    if not crop:
        return svg
    head, _, rest = svg.partition(">")
    head = re.sub(r' width="[^"]*"', f' width="{width - 2 * crop:g}"', head, count=1)
    head = re.sub(r' height="[^"]*"', f' height="{height - 2 * crop:g}"', head, count=1)
    head = re.sub(
        r' viewBox="[^"]*"', f' viewBox="{crop:g} {crop:g} {width - 2 * crop:g} {height - 2 * crop:g}"', head, count=1
    )
    # the background's "100%" is the cropped size, from the corner the view now starts at
    rest = rest.replace('<rect width="100%"', f'<rect x="{crop:g}" y="{crop:g}" width="100%"', 1)
    return head + ">" + rest


def _content(scene: Any, cell: int) -> str:
    """What a screen reader says is on a cell: its label, its piece, or "empty"."""
    if cell in scene.labels:
        return str(scene.labels[cell])
    if cell in scene.pieces:
        return str(scene.pieces[cell])
    if cell in scene.faded:
        return "taken"
    return "empty"
