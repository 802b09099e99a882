"""One web game of a puzzle (:class:`PuzzleGame`): a :class:`~boardpuzzles.play.Attempt` with
an id, a lock, the check and hint it shows, how it is stored, and its state as the play page
reads it (the SVG picture with the faults and the hint drawn on it, where the board's cells lie
in that picture, the verdict).

Which faults the picture shows (all of them are listed in the state, each with its kind):
``wrong`` ones always; ``aid`` ones (found by search: they spoil the puzzle) only with aids on,
and while a check is shown (it names them); ``unfinished`` ones never (red means wrong: what is
left to do is said, not painted). Faults are drawn in red (their cells
marked, their segments as lines between cell centres), a hint's cells in violet, a colour no play
uses for marks of its own; both are added to the play's scene, so the picture is the one ``--svg``
draws, with the highlights on top. The scene's title ("5 kings; the problem asks for 9"), else
what is left to do (the first ``unfinished`` fault: "36 squares left to number"), is sent as the
state's ``caption``, not drawn: the page shows it on a line of its own, so the picture keeps its
height however long the title.

A change is made on a copy of the attempt and kept only once the store has it (``save``), so a
change the store cannot take leaves the game as it was and a client that tries again plays it once.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import Attempt, Fault, Hint, Play, Verdict
from boardpuzzles.protocol import Puzzle
from boardpuzzles.web.routes import check_history, history_token
from boardpuzzles.web.store import GameStore, Statement

#: The colours of faults and hints on the board: red means wrong on every page; the hint's violet
#: is no play's own (the plays mark with greens, ambers, light blue and greys).
FAULT_COLOUR = "#e53935"
HINT_COLOUR = "#ba68c8"
#: The legend's kinds whose swatch draws what the text's first words say ("ring: the hint"): the
#: page shows the meaning alone. A colour scale's words are its meaning ("path coloured by ...").
DRAWN_KINDS = ("torus", "start", "end", "faded", "mark-ring", "mark-square")
#: Pixels of margin around the board's picture.
PAD = 8
#: Seconds a hint may search, a check (for a dead end), and the solution shown.
HINT_SECONDS = 3.0
CHECK_SECONDS = 2.0
SOLVE_SECONDS = 5.0
#: Boards up to this many cells send each cell's name and content (the page's buttons and labels).
NAMED_CELLS = 4096
#: Where the games are stored: one row per game.
TABLE = "puzzle_games"
SCHEMA = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} (id TEXT PRIMARY KEY, puzzle TEXT NOT NULL, "
    "body TEXT NOT NULL, touched REAL NOT NULL)"
)
#: Where a link to the game works, as the state says it.
REACH_HERE = "this computer only"
REACH_NETWORK = "devices on your network"


class SearchersBusy(BoardPuzzlesError):
    """Every searcher of the server is busy (hints and solutions wait their turn)."""


def load_rows(store: GameStore) -> list[tuple[str, str, Any, float]]:
    """Every stored game (id, puzzle, record, touched), least recently touched first."""
    rows = store.rows(f"SELECT id, puzzle, body, touched FROM {TABLE} ORDER BY touched")
    return [(game_id, puzzle, json.loads(body), touched) for game_id, puzzle, body, touched in rows]


def _unsaved(statement: Statement) -> None:
    """The ``save`` of a game no keeper holds yet."""


class PuzzleGame:
    """One puzzle being played (see the module docstring). ``save`` stores a change before it
    counts (the keeper's store); ``client`` is the address that started the game."""

    #: Stores a change before it counts (the keeper fills it in).
    save: Callable[[Statement], None]

    def __init__(
        self,
        puzzle: Puzzle[Any, Any],
        play: Play[Any, Any],
        attempt: Attempt[Any, Any],
        game_id: str | None = None,
        client: str = "",
    ) -> None:
        self.id = game_id or secrets.token_hex(8)
        self.puzzle = puzzle
        self.play = play
        self.attempt = attempt
        self.client = client
        self.lock = threading.Lock()
        self.touched = time.time()
        self.left = False
        self.hint: Hint | None = None  # shown until the next change
        self.check: dict[str, Any] | None = None  # the same
        #: The one of them asked for last ("hint" or "check"), which the page's status line answers.
        self.asked: str | None = None
        self.save = _unsaved
        #: Changes so far (moves, hints, checks): the picture is drawn once per version.
        self.version = 0
        self._drawn: tuple[int, dict[str, Any]] | None = None

    @property
    def can_go(self) -> bool:
        """Whether the game is the first to make room for a new one: solved, shown, or left."""
        return self.left or self.attempt.solved_seconds is not None or self.attempt.revealed

    def row(self) -> Statement:
        """The statement that stores the game as it is (lock held, or before it is shared)."""
        return self._row(self.attempt, self.left, self.touched)

    def _row(self, attempt: Attempt[Any, Any], left: bool, touched: float) -> Statement:
        body = json.dumps({"attempt": attempt.to_json(), "left": left})
        return f"INSERT OR REPLACE INTO {TABLE} VALUES (?, ?, ?, ?)", (self.id, self.puzzle.name, body, touched)

    # ---------------------------------------------------------------- changes
    @property
    def history(self) -> str:
        """The token of the clicks played and those redo would play again (lock held): a page
        sends back the one it shows (see :mod:`boardpuzzles.web.routes`)."""
        return history_token(self.attempt.line, self.attempt.at)

    def _change(self, act: Callable[[Attempt[Any, Any]], object], clears: bool = True, seen: str | None = None) -> None:
        """``act`` on a copy of the attempt, kept once stored (see the module docstring); a move
        clears the hint and the check (``clears``), a setting does not. ``seen``: the history
        token of the game the page showed (:class:`~boardpuzzles.web.routes.GameMovedOn` when the
        game has moved on from it)."""
        with self.lock:
            check_history(seen, self.history)
            attempt = self.attempt.copy()
            act(attempt)
            touched = time.time()
            self.save(self._row(attempt, self.left, touched))
            self.attempt, self.touched = attempt, touched
            if clears:
                self.hint = self.check = self.asked = None
            self.version += 1

    def click(self, cell: int, tool: str, seen: str | None = None) -> None:
        self._change(lambda a: a.click(cell, tool), seen=seen)

    def undo(self, seen: str | None = None) -> None:
        self._change(lambda a: a.undo(), seen=seen)

    def redo(self, seen: str | None = None) -> None:
        self._change(lambda a: a.redo(), seen=seen)

    def restart(self, seen: str | None = None) -> None:
        self._change(lambda a: a.restart(), seen=seen)

    def set_aids(self, on: bool) -> None:
        self._change(lambda a: setattr(a, "aids", on), clears=False)

    def solve(self, searchers: threading.Semaphore | None = None, seen: str | None = None) -> None:
        """Show the solution (:meth:`Attempt.reveal`), searched for at most ``SOLVE_SECONDS`` once
        one of the server's ``searchers`` is free (waiting at most as long): else :class:`SearchersBusy`.
        ``seen`` as for a move (checked before waiting for a searcher too)."""
        with self.lock:
            check_history(seen, self.history)
        if searchers is not None and not searchers.acquire(timeout=SOLVE_SECONDS):
            raise SearchersBusy("every solver of the server is busy: try again in a moment")
        try:
            self._change(lambda a: a.reveal(Limits(SOLVE_SECONDS)), seen=seen)
        finally:
            if searchers is not None:
                searchers.release()

    def ask_check(self, searchers: threading.Semaphore | None = None) -> None:
        """The check shown until the next change: solved, the first mistake, or what is left. A
        position that breaks no rule is searched for at most ``CHECK_SECONDS`` (once one of the
        server's ``searchers`` is free, waiting at most as long) in case no solution holds it: a
        dead end is a mistake too, though no rule says so yet. Not counted as a hint."""
        with self.lock:
            search = may_be_dead_end(self.attempt.verdict())
        searching = search and (searchers is None or searchers.acquire(timeout=CHECK_SECONDS))
        try:
            with self.lock:
                verdict, found = self.attempt.verdict(), None
                if searching and may_be_dead_end(verdict):
                    limits = Limits(CHECK_SECONDS)
                    try:
                        found = self.play.hint(self.attempt.problem, self.attempt.state, limits)
                    except TimeLimitReached:
                        found = None
                    finally:
                        limits.close()
                self.check = check_of(verdict, found)
                self.asked = "check"
                self.version += 1
        finally:
            if searching and searchers is not None:
                searchers.release()

    def ask_hint(self, searchers: threading.Semaphore | None = None) -> None:
        """A hint, searched for at most ``HINT_SECONDS`` once one of the server's ``searchers``
        is free (waiting at most as long again; past that the hint says they are busy)."""
        if searchers is not None and not searchers.acquire(timeout=HINT_SECONDS):
            with self.lock:
                self.hint = Hint("every hint searcher is busy: ask again in a moment", outcome="unknown")
                self.asked = "hint"
                self.version += 1
            return
        try:
            with self.lock:
                self.hint = self.attempt.hint(Limits(HINT_SECONDS))
                self.asked = "hint"
                self.touched = time.time()
                self.version += 1
        finally:
            if searchers is not None:
                searchers.release()

    def leave(self) -> None:
        """The page started another game: this one may make room first (it stays readable)."""
        with self.lock:
            if not self.left:
                self.save(self._row(self.attempt, True, self.touched))
                self.left = True

    # ---------------------------------------------------------------- the state
    def link(self) -> str:
        """The page's address that opens this puzzle again: its size, seed and difficulty, or,
        for an imported one, its URL."""
        s = self.attempt
        url = s.url if s.imported else None
        if url is not None:
            return f"/play/{self.puzzle.name}?url={quote(url, safe='')}"
        seed = f"&seed={s.seed}" if s.seeded else ""  # a blank board: every seed makes it
        query = f"size={s.size}{seed}" + (f"&difficulty={s.difficulty}" if s.difficulty else "")
        return f"/play/{self.puzzle.name}?{query}"

    def state(self, shared_at: str | None = None) -> dict[str, Any]:
        """The game as the page reads it; ``shared_at``: where a link to the server works for
        others (None: on this computer only)."""
        with self.lock:
            if self._drawn is None or self._drawn[0] != self.version:
                self._drawn = self.version, self._draw()
            s = self.attempt
            link = self.link()
            seconds = s.solved_seconds if s.solved_seconds is not None else s.clock() - s.started
            if shared_at is None:
                share = {"link": link, "reach": REACH_HERE}
            else:
                share = {"link": shared_at + link, "reach": REACH_NETWORK}
            return {**self._drawn[1], "link": link, "share": share, "seconds": round(max(0.0, seconds), 1)}

    def _draw(self) -> dict[str, Any]:
        """The state's parts that change only with the game's version (lock held)."""
        s = self.attempt
        verdict = s.verdict()
        checking = self.check is not None  # a check draws every mistake, aids too, not what is left to do
        scene = self._scene(verdict.shown(aids=True) if checking else verdict.shown(s.aids))
        left = next((f.message for f in verdict.faults if f.kind == "unfinished"), "")
        caption = scene.title or left  # every page says what is left to do above its board
        svg, geometry, legend = picture(dataclasses.replace(scene, title=""))
        grid = scene.grid
        named = grid.size <= NAMED_CELLS
        return {
            "game": self.id,
            "puzzle": self.puzzle.name,
            "size": s.size,
            "difficulty": s.difficulty,
            "seed": s.seed,
            "seeded": s.seeded,
            "url": s.url,
            "imported": s.imported,
            "caption": caption,
            "tools": [t.name for t in self.play.tools],
            "svg": svg,
            "geometry": geometry,
            "legend": legend,
            "names": [grid.name(cell) for cell in range(grid.size)] if named else [],
            "contents": s.describe_cells() if named else [],
            "state": self.play.state_to_json(s.problem, s.state),
            "faults": [f.to_json() for f in verdict.faults],
            "solved": verdict.solved,
            "moves": s.moves,
            "hints": s.hints,
            "can_undo": s.can_undo,
            "can_redo": s.can_redo,
            "can_restart": s.can_restart,
            "history": self.history,  # sent back with a change
            "aids": s.aids,
            "revealed": s.revealed,
            "hint": self.hint.to_json() if self.hint is not None else None,
            "check": self.check,
            "asked": self.asked,
        }

    def _scene(self, faults: list[Fault]) -> Any:
        """The play's scene with the hint's cells and the faults' cells and lines marked."""
        scene = self.attempt.scene()  # with the aids' shading when they are on
        scene = dataclasses.replace(
            scene, marks=dict(scene.marks), lines=list(scene.lines), mark_meanings=dict(scene.mark_meanings)
        )
        # The play's own marks (a given piece's, not the aids' shading): a fault there is drawn as
        # a frame, so that both show.
        a = self.attempt
        shaded = a.aids and a.play.scene_with_aids is not None  # else the scene is the play's own
        own = set(a.play.scene(a.problem, a.state).marks if shaded else scene.marks)
        hinted = self.hint.cells if self.hint is not None else ()
        if hinted and self.asked != "hint":
            scene.marks.update(dict.fromkeys(hinted, HINT_COLOUR))
        checked = self.check["cells"] if self.check is not None else []  # a dead end's, found by search
        wrong = [c for fault in faults for c in fault.cells] + list(checked)
        scene.marks.update(dict.fromkeys((c for c in wrong if c not in own), FAULT_COLOUR))
        scene.outlines = {**scene.outlines, **dict.fromkeys((c for c in wrong if c in own), FAULT_COLOUR)}
        for fault in faults:
            scene.lines.extend((a, b, FAULT_COLOUR) for a, b in fault.lines)
        if hinted and self.asked == "hint":  # the answer just asked for, over the faults it may name
            scene.marks.update(dict.fromkeys(hinted, HINT_COLOUR))
        if hinted:
            scene.mark_meanings[HINT_COLOUR] = "the hint"
        if wrong or any(fault.lines for fault in faults):
            scene.mark_meanings[FAULT_COLOUR] = "what is wrong"
        return scene


def may_be_dead_end(verdict: Verdict) -> bool:
    """Whether a check searches the position for a dead end: unsolved, and neither a rule nor an
    aid says what is wrong with it already."""
    return not verdict.solved and not any(f.kind in ("wrong", "aid") for f in verdict.faults)


def check_of(verdict: Verdict, search: Hint | None = None) -> dict[str, Any]:
    """What the Check button says: "Solved!", the first mistake (a rule broken, else a dead end
    found by the aids, else by the ``search`` for a hint: its cells are marked; ``mistake`` says
    which of these it is), or that there
    is none so far and what is left ("No rule broken so far" when the search could not tell
    whether the position can still be finished)."""
    if verdict.solved:
        return {"solved": True, "mistake": False, "message": "Solved!", "cells": []}
    for kind in ("wrong", "aid"):
        fault = next((f for f in verdict.faults if f.kind == kind), None)
        if fault is not None:
            return {"solved": False, "mistake": True, "message": fault.message, "cells": list(fault.cells)}
    if search is not None and search.outcome == "dead end":
        message = f"No rule broken, but {search.message}"
        return {"solved": False, "mistake": True, "message": message, "cells": list(search.cells)}
    left = next((f for f in verdict.faults if f.kind == "unfinished"), None)
    sure = search is None or search.outcome == "step"
    headline = "No mistakes so far" if sure else "No rule broken so far"
    return {"solved": False, "mistake": False, "message": headline + (f": {left.message}" if left else ""), "cells": []}


def picture(scene: Any) -> tuple[str, dict[str, float], list[dict[str, str | bool]]]:
    """The board's SVG (no legend: the page lists it, so the board fills its place), where its
    cells lie in it, and the legend's entries (kind, text, colour, filled): the text is the
    meaning alone where the page's swatch draws the mark ("the hint", not "ring: the hint")."""
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
    legend: list[dict[str, str | bool]] = [
        {"kind": e.kind, "text": legend_text(e.kind, e.text), "colour": e.colour, "filled": e.filled}
        for e in legend_entries([scene])
    ]
    return drawing_svg(drawing), geometry, legend


def legend_text(kind: str, text: str) -> str:
    """A legend entry's words as the page shows them beside its swatch: without the words that
    name the mark ("ring: ", "grey: ", "dashed border: "), which the swatch draws."""
    if kind in DRAWN_KINDS and ": " in text:
        return text.split(": ", 1)[1]
    return text
