"""One web game of a puzzle (:class:`PuzzleGame`): a :class:`~boardpuzzles.play.Attempt` with
an id, a lock, and its state as the play page reads it (the SVG picture with the faults and
the hint drawn on it, where the board's cells lie in that picture, the verdict).

Faults are drawn in red (their cells marked, their segments as lines between cell centres),
a hint's cells in blue; both are added to the play's scene, so the picture is the one
``--svg`` draws, with the highlights on top. The scene's title ("5 kings; the problem asks for
9") is sent as the state's ``caption``, not drawn: the page shows it on a line of its own, so
the picture keeps its height however long the title.
"""

from __future__ import annotations

import dataclasses
import secrets
import threading
import time
from typing import Any
from urllib.parse import quote

from boardpuzzles.limits import Limits
from boardpuzzles.play import Attempt, Fault, Hint, Play
from boardpuzzles.protocol import Puzzle

#: A game untouched this many days may make room for a new one.
IDLE_DAYS = 7
#: The colours of faults and hints on the board.
FAULT_COLOUR = "#e53935"
HINT_COLOUR = "#64b5f6"
#: Pixels of margin around the board's picture.
PAD = 8
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
        """The page's address that opens this puzzle again: its size, seed and difficulty, or,
        for an imported one, its URL."""
        s = self.attempt
        url = s.url if s.imported else None
        if url is not None:
            return f"/play/{self.puzzle.name}?url={quote(url, safe='')}"
        query = f"size={s.size}&seed={s.seed}" + (f"&difficulty={s.difficulty}" if s.difficulty else "")
        return f"/play/{self.puzzle.name}?{query}"

    def state(self) -> dict[str, Any]:
        """The game as the page reads it."""
        with self.lock:
            s = self.attempt
            verdict = s.verdict()
            shown = verdict.shown(s.aids)
            scene = self._scene(shown)
            caption = scene.title
            svg, geometry, legend = picture(dataclasses.replace(scene, title=""))
            grid = scene.grid
            named = grid.size <= NAMED_CELLS
            return {
                "game": self.id,
                "puzzle": self.puzzle.name,
                "size": s.size,
                "difficulty": s.difficulty,
                "seed": s.seed,
                "link": self.link(),
                "url": s.url,
                "imported": s.imported,
                "caption": caption,
                "tools": [t.name for t in self.play.tools],
                "svg": svg,
                "geometry": geometry,
                "legend": legend,
                "names": [grid.name(cell) for cell in range(grid.size)] if named else [],
                "contents": [_content(scene, cell) for cell in range(grid.size)] if named else [],
                "state": self.play.state_to_json(s.problem, s.state),
                "faults": [f.to_json() for f in shown],
                "solved": verdict.solved,
                "seconds": round(verdict.seconds, 1),
                "moves": s.at,
                "hints": s.hints,
                "can_undo": s.can_undo,
                "can_redo": s.can_redo,
                "hint": self.hint.to_json() if self.hint is not None else None,
            }

    def _scene(self, faults: list[Fault]) -> Any:
        """The play's scene with the hint's cells and the faults' cells and lines marked."""
        s = self.attempt
        scene = s.scene()
        scene = dataclasses.replace(
            scene, marks=dict(scene.marks), lines=list(scene.lines), mark_meanings=dict(scene.mark_meanings)
        )
        if self.hint is not None and self.hint.cells:
            scene.marks.update(dict.fromkeys(self.hint.cells, HINT_COLOUR))
            scene.mark_meanings[HINT_COLOUR] = "the hint"
        for fault in faults:
            scene.marks.update(dict.fromkeys(fault.cells, FAULT_COLOUR))
            scene.lines.extend((a, b, FAULT_COLOUR) for a, b in fault.lines)
        if any(fault.cells for fault in faults):
            scene.mark_meanings[FAULT_COLOUR] = "what is wrong"
        return scene


def picture(scene: Any) -> tuple[str, dict[str, float], list[dict[str, str]]]:
    """The board's SVG (no legend: the page lists it, so the board fills its place), where its
    cells lie in it, and the legend's entries (kind, text, colour)."""
    from boardpuzzles.render.draw import MARGIN, Drawing, layout, legend_entries, scene_group
    from boardpuzzles.render.svg import drawing_svg

    lay = layout(scene)
    drawing = Drawing(lay.width + 2 * PAD, lay.height + 2 * PAD, [scene_group(scene, PAD, PAD, lay)])
    geometry = {
        "width": drawing.width,
        "height": drawing.height,
        "left": PAD + (MARGIN if lay.coordinates else 0),
        "top": PAD + lay.title_height,
        "cell": lay.cell,
        "rows": scene.grid.rows,
        "cols": scene.grid.cols,
    }
    legend = [{"kind": e.kind, "text": e.text, "colour": e.colour} for e in legend_entries([scene])]
    return drawing_svg(drawing), geometry, legend


def _content(scene: Any, cell: int) -> str:
    """What a screen reader says is on a cell: its label, its piece, or "empty"."""
    if cell in scene.labels:
        return str(scene.labels[cell])
    if cell in scene.pieces:
        return str(scene.pieces[cell])
    if cell in scene.faded:
        return "taken"
    return "empty"
