"""The interactive part of the puzzle protocol: what a click does to a position, what is wrong
with it, a hint, and a game engine that keeps the moves (no web code here).

Glossary
--------
play        a :class:`Play`: the functions a puzzle offers a person who solves it by hand. A
            :class:`~boardpuzzles.protocol.Puzzle` names a function that makes one (its
            ``play``, a :data:`~boardpuzzles.protocol.PlayFactory`); a puzzle that names none
            gets the default play of its answer type (:mod:`boardpuzzles.plays`: boards of
            pieces, paths, orders, cell pairs), so every such puzzle is playable
            (:func:`play_of`).
state       one position of a game, an immutable value (a tuple, a frozen dataclass): undo and
            redo keep states, never undo moves.
tool        what a click does (place a queen, a black stone, pick a stone up): a button of the
            page and its key.
fault       one thing about a position, as data (:class:`~boardpuzzles.faults.Fault`): its
            message, the cells (and the segments between cell centres) to highlight, and its
            kind: ``wrong`` (the rules are broken: shown at once), ``unfinished`` (only something
            left to do: shown when the player asks for a check) or ``aid`` (found by search, not
            by the rules, such as a dead end: it spoils the puzzle, so it is shown only when the
            player turns aids on). A play's ``faults`` lists all three kinds.
aids        spoilers a player may turn on (:attr:`Attempt.aids`): faults of kind ``aid``, and the
            shading a play draws only then (``scene_with_aids``: the squares a queen attacks).
hint        a short message and the cells to look at, and the reason in more words (its detail,
            which a page shows only when asked); a solver gives it.
attempt     an :class:`Attempt`: one puzzle being played: its problem, the start state, the clicks
            played (and those undone, for redo), when it began and when it was solved. Like the
            midend of Simon Tatham's collection it names no puzzle: undo, redo, restart (itself a
            move that undo takes back), show the solution, aids on or off, and JSON. A click that
            changes nothing (a drag over the path's own end) is no move.
verdict     what an attempt says of its position: the faults, solved or not, the time taken.

An attempt stores its clicks, not its states (:meth:`Attempt.to_json`): a game is rebuilt by
replaying them from the start state, so a stored game is small and never holds a picture.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from boardpuzzles.errors import BoardPuzzlesError, excerpt
from boardpuzzles.faults import FAULT_KINDS as FAULT_KINDS
from boardpuzzles.faults import Fault as Fault
from boardpuzzles.faults import FaultKind as FaultKind
from boardpuzzles.limits import Limits, TimeLimitReached

if TYPE_CHECKING:
    from boardpuzzles.protocol import Puzzle
    from boardpuzzles.scene import Scene

P = TypeVar("P")
S = TypeVar("S")
Json = Any
#: One click: the cell and the tool's name.
Click = tuple[int, str]
#: The move that puts a game back at its start, kept in the line like a click (so undo takes it back).
RESTART: Click = (-1, "restart")
#: The tool name of the click that opens a move of several clicks: ``(n, ONE_MOVE)`` makes it
#: and the ``n`` clicks after it one move, which one undo takes back: a shown solution (the
#: solver's clicks, after a restart when it starts again), or a piece placed by clicks that
#: only selected before the one that placed it (a domino's two squares). It changes nothing
#: itself. No tool has this name (tool names have no spaces).
ONE_MOVE = "one move"
#: Seconds a hint or the shown solution may search when the caller gives no limits.
SEARCH_SECONDS = 5.0


@dataclass(frozen=True)
class Tool:
    """A button of the play page and its key: ``Tool("queen", "Queen", "q")``."""

    name: str
    label: str
    key: str


#: What a hint's search found: ``step`` (a move towards a solution, or a rule of thumb the
#: message names), ``dead end`` (proved: no solution holds the position; the message says what
#: to take back), ``solved`` (nothing left to do), ``unknown`` (no answer in time).
HintOutcome = Literal["step", "dead end", "solved", "unknown"]


@dataclass(frozen=True)
class Hint:
    """A short message and the cells to look at (where to place, what to pick); ``detail``: why,
    in more words, for a page to show when asked ("" when the message says it all); ``outcome``:
    what the search found (see :data:`HintOutcome`), so that a check can tell a dead end too."""

    message: str
    cells: tuple[int, ...] = ()
    detail: str = ""
    outcome: HintOutcome = "step"

    def to_json(self) -> Json:
        return {"message": self.message, "cells": list(self.cells), "detail": self.detail, "outcome": self.outcome}


#: The hint of a solved position.
SOLVED_HINT = Hint("solved: nothing left to do", outcome="solved")
#: The hint of a search that ran out of time (or never ran).
NO_HINT_IN_TIME = Hint("no hint found in time", outcome="unknown")


class IllegalMove(BoardPuzzlesError):
    """A click the rules refuse; the message is the reason shown to the player."""


@dataclass(frozen=True, kw_only=True)
class Play(Generic[P, S]):
    """How a person plays a puzzle (see the module glossary). Every function is pure: states
    are values, and ``click`` returns a new one (or raises :class:`IllegalMove`)."""

    tools: tuple[Tool, ...]
    #: ``new(size, difficulty, seed)``: a problem and its start state; the same three give the same puzzle.
    new: Callable[[int, str, int], tuple[P, S]]
    #: ``click(problem, state, cell, tool)``: the state after the click, or :class:`IllegalMove`.
    click: Callable[[P, S, int, str], S]
    #: Every fault of the position, of every kind (see the module glossary).
    faults: Callable[[P, S], list[Fault]]
    #: Complete and right (the puzzle's checker agrees).
    solved: Callable[[P, S], bool]
    hint: Callable[[P, S, Limits], Hint]
    #: What to draw, spoiling aids left out (faults and hints are added as marks and lines by
    #: the page's renderer).
    scene: Callable[[P, S], Scene]
    state_to_json: Callable[[P, S], Json]
    state_from_json: Callable[[P, Json], S]
    problem_to_json: Callable[[P], Json]
    problem_from_json: Callable[[Json], P]
    #: One line for the front page's card.
    rules: str
    #: The sizes the page offers, kept in ascending order (sorted when the play is made).
    sizes: tuple[int, ...] = (8,)
    #: The size of a new game that names none; 0: the first of ``sizes`` as written.
    default_size: int = 0
    #: The difficulties the page offers, the first the default; () when there is no generator.
    difficulties: tuple[str, ...] = ()
    #: The sizes a difficulty offers where not all of them (a closed knight's tour needs an even
    #: side): difficulty -> sizes, each among ``sizes``. See :meth:`sizes_for`.
    sizes_by_difficulty: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    #: The difficulties whose puzzle is the same for every seed (a blank board), so that a page
    #: offers no seed for them; ``("",)`` for a play without difficulties whose ``new`` ignores
    #: the seed. See :meth:`seeded`.
    seedless: tuple[str, ...] = ()
    #: ``solution(problem, state, limits)``: clicks that lead from ``state`` to a solved state,
    #: from the solver (tests play them; the page may show them). None: the puzzle gives none.
    solution: Callable[[P, S, Limits], list[Click]] | None = None
    #: ``problem_to_url(problem)``: the problem's URL on a puzzle site (the page's export link).
    #: None: the play exports none.
    problem_to_url: Callable[[P], str] | None = None
    #: ``problem_from_url(url)``: the problem a URL holds (the page's import), or a
    #: :class:`BoardPuzzlesError` saying what is wrong with it. None: the play imports none.
    problem_from_url: Callable[[str], P] | None = None
    #: ``start(problem)``: the start state of an imported problem (needed with ``problem_from_url``).
    start: Callable[[P], S] | None = None
    #: Whether a page may send a click for each cell the pointer enters while dragging (paths,
    #: pairs): the clicks must then make sense in that order.
    drag: bool = False
    #: The scene with the spoiling aids drawn (see the module glossary); None: there are none.
    scene_with_aids: Callable[[P, S], Scene] | None = None
    #: Whether the play offers spoiling aids at all (faults of kind ``aid``, or
    #: ``scene_with_aids``), so that a page shows its aids switch only where it does something.
    has_aids: bool = False
    #: ``settled(problem, state)``: the position without what is only selected (a domino's first
    #: square), so that the clicks that only select, and the one that then places, are one move
    #: (:meth:`Attempt.click`). None: every click is a move of its own.
    settled: Callable[[P, S], Any] | None = None
    #: ``describe(problem, state)``: words for each cell, for a screen reader ("given queen",
    #: "step 3", "empty"). None: read off the scene (:func:`boardpuzzles.plays.words.scene_words`).
    describe: Callable[[P, S], list[str]] | None = None

    def __post_init__(self) -> None:
        if self.scene_with_aids is not None and not self.has_aids:
            object.__setattr__(self, "has_aids", True)
        if not self.tools:
            raise ValueError("a play needs at least one tool")
        if self.problem_from_url is not None and self.start is None:
            raise ValueError("a play that imports problems from URLs needs start(problem)")
        names = [t.name for t in self.tools]
        keys = [t.key for t in self.tools]
        if len(set(names)) != len(names) or len(set(keys)) != len(keys):
            raise ValueError(f"tool names and keys repeat: {names}, {keys}")
        if not self.sizes:
            raise ValueError("a play offers at least one size")
        if not self.default_size:
            object.__setattr__(self, "default_size", self.sizes[0])
        object.__setattr__(self, "sizes", tuple(sorted(set(self.sizes))))
        if self.default_size not in self.sizes:
            raise ValueError(f"the default size {self.default_size} is not among the sizes {self.sizes}")
        if not set(self.seedless) <= set(self.difficulties or ("",)):
            raise ValueError(f"seedless names difficulties the play does not offer: {self.seedless}")
        for difficulty, offered in self.sizes_by_difficulty.items():
            if difficulty not in self.difficulties or not offered or not set(offered) <= set(self.sizes):
                raise ValueError(f"sizes_by_difficulty: {difficulty!r} -> {offered} is not among the play's")
        sizes_by_difficulty = {d: tuple(sorted(set(s))) for d, s in self.sizes_by_difficulty.items()}
        object.__setattr__(self, "sizes_by_difficulty", sizes_by_difficulty)

    def sizes_for(self, difficulty: str) -> tuple[int, ...]:
        """The sizes ``difficulty`` offers, in ascending order."""
        return self.sizes_by_difficulty.get(difficulty, self.sizes)

    def seeded(self, difficulty: str) -> bool:
        """Whether the seed chooses the puzzle of ``difficulty`` ("" without difficulties): False
        when every seed makes the same one (see :attr:`seedless`)."""
        return difficulty not in self.seedless

    def tool(self, name: str) -> Tool:
        for t in self.tools:
            if t.name == name:
                return t
        raise BoardPuzzlesError(f"no tool {excerpt(name)}; tools: {', '.join(t.name for t in self.tools)}")


# ---------------------------------------------------------------- a game being played
@dataclass(frozen=True)
class Verdict:
    #: Every fault, of every kind.
    faults: list[Fault]
    solved: bool
    #: Seconds from the start to the first solved position (or to now while unsolved).
    seconds: float

    def shown(self, aids: bool) -> list[Fault]:
        """The faults a page draws at once: the wrong ones, and the aids when they are on."""
        return [f for f in self.faults if f.kind == "wrong" or (aids and f.kind == "aid")]


@dataclass
class Attempt(Generic[P, S]):
    """One game: a problem, its start state and the clicks played (``line[:at]``; the rest are
    undone clicks that ``redo`` plays again). ``clock`` gives the time (``time.time``)."""

    play: Play[P, S]
    problem: P
    start: S
    size: int = 0
    difficulty: str = ""
    seed: int = 0
    line: list[Click] = field(default_factory=list)
    at: int = 0
    started: float = 0.0
    solved_seconds: float | None = None
    hints: int = 0
    #: The problem came from a URL (:meth:`imported`), not from ``new``: size, difficulty and seed
    #: say nothing of it.
    imported: bool = False
    #: The player turned aids on: faults of kind ``aid`` are shown (see the module glossary).
    aids: bool = False
    #: The solution was shown (:meth:`reveal`): a solved position then says so, not a time.
    revealed: bool = False
    clock: Callable[[], float] = time.time
    _states: list[S] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        if not self.started:
            self.started = self.clock()
        self._states = [self.start]
        for click in self.line[: self.at]:
            self._states.append(self._after(self._states[-1], click))

    @classmethod
    def new(cls, play: Play[P, S], size: int, difficulty: str, seed: int, **kwargs: Any) -> Attempt[P, S]:
        """A new game of ``play``: the problem that ``new(size, difficulty, seed)`` makes."""
        if size not in play.sizes:
            raise BoardPuzzlesError(f"size is one of {', '.join(map(str, play.sizes))}, got {excerpt(size)}")
        if play.difficulties and difficulty not in play.difficulties:
            raise BoardPuzzlesError(f"difficulty is one of {', '.join(play.difficulties)}, got {excerpt(difficulty)}")
        if size not in play.sizes_for(difficulty):
            offered = ", ".join(map(str, play.sizes_for(difficulty)))
            raise BoardPuzzlesError(f"{difficulty} is offered on sizes {offered}, not on {size}")
        problem, start = play.new(size, difficulty, seed)
        return cls(play, problem, start, size, difficulty, seed, **kwargs)

    @classmethod
    def from_url(cls, play: Play[P, S], url: str, **kwargs: Any) -> Attempt[P, S]:
        """A new game of the problem a URL holds (``play.problem_from_url``), from its ``start``."""
        if play.problem_from_url is None or play.start is None:
            raise BoardPuzzlesError("this puzzle imports no URLs")
        if not isinstance(url, str) or not url.strip():
            raise BoardPuzzlesError("a puzzle URL is a non-empty string")
        try:
            problem = play.problem_from_url(url.strip())
        except (BoardPuzzlesError, ValueError, TypeError, KeyError, IndexError) as err:
            raise BoardPuzzlesError(f"cannot import the URL: {_one_line(str(err)).removeprefix('URL: ')}") from None
        return cls(play, problem, play.start(problem), imported=True, **kwargs)

    @property
    def url(self) -> str | None:
        """The problem's URL (None when the play exports none)."""
        return None if self.play.problem_to_url is None else self.play.problem_to_url(self.problem)

    @property
    def seeded(self) -> bool:
        """Whether the seed chose this puzzle: not when it was imported, nor when every seed
        makes the same one (:meth:`Play.seeded`), so that a page shows no seed for it."""
        return not self.imported and self.play.seeded(self.difficulty)

    @property
    def state(self) -> S:
        return self._states[-1]

    @property
    def can_undo(self) -> bool:
        return self.at > 0

    @property
    def moves(self) -> int:
        """The moves played: the clicks, a shown solution counting as one."""
        return sum(1 for end in self._move_ends() if end <= self.at)

    def _move_ends(self) -> list[int]:
        """Where each move of the line ends (an index into it): after each click, and after
        the last click of a move of several (see :data:`ONE_MOVE`)."""
        ends, i = [], 0
        while i < len(self.line):
            cell, tool = self.line[i]
            i = min(len(self.line), i + 1 + max(0, cell)) if tool == ONE_MOVE else i + 1
            ends.append(i)
        return ends

    @property
    def can_redo(self) -> bool:
        return self.at < len(self.line)

    @property
    def can_restart(self) -> bool:
        """Whether the position differs from the start (a restart would change something)."""
        return self.state != self.start

    def _after(self, state: S, click: Click) -> S:
        """The state after one click of the line: a click, :data:`RESTART`, or the start of a
        move of several clicks (which changes nothing itself)."""
        if click == RESTART:
            return self.start
        if click[1] == ONE_MOVE:
            return state
        return self.play.click(self.problem, state, *click)

    def _push(self, click: Click, state: S) -> S:
        del self.line[self.at :]
        self.line.append(click)
        self.at += 1
        self._states.append(state)
        self._note_solved()
        return state

    def click(self, cell: int, tool: str) -> S:
        """Play a click (undone clicks are forgotten); :class:`IllegalMove` leaves the game as it
        was, and so does a click that changes nothing (it is no move)."""
        self.play.tool(tool)
        after = self.play.click(self.problem, self.state, cell, tool)
        if after == self.state:
            return self.state
        selecting = self._selecting()
        if selecting and not self._only_selects(self.state, after):
            self._join(selecting)  # the clicks that selected, and this one, are one move
        return self._push((cell, tool), after)

    def _only_selects(self, before: S, after: S) -> bool:
        settled = self.play.settled
        return settled is not None and settled(self.problem, before) == settled(self.problem, after)

    def _selecting(self) -> int:
        """How many of the last clicks played only selected (see :attr:`Play.settled`), each a
        plain click that is a move of its own."""
        ends, count = set(self._move_ends()), 0
        while count < self.at:
            i = self.at - 1 - count
            cell, tool = self.line[i]
            plain = (cell, tool) != RESTART and tool != ONE_MOVE and i + 1 in ends and (i == 0 or i in ends)
            if not plain or not self._only_selects(self._states[i], self._states[i + 1]):
                break
            count += 1
        return count

    def _join(self, count: int) -> None:
        """Make the last ``count`` clicks played, and the next one pushed, one move."""
        first = self.at - count
        del self.line[self.at :]
        self.line.insert(first, (count + 1, ONE_MOVE))
        self._states.insert(first + 1, self._states[first])
        self.at += 1

    def restart(self) -> S:
        """Put the position back at the start, as a move of its own: undo takes it back."""
        if not self.can_restart:
            raise IllegalMove("the puzzle is at its start already")
        return self._push(RESTART, self.start)

    def reveal(self, limits: Limits | None = None) -> S:
        """Show the solution: the solver's clicks are played from this position (or from the
        start, after a restart, when none is found from here), as one move that one undo takes
        back (:data:`ONE_MOVE`); the game is marked :attr:`revealed`. The search from the
        start gets a time limit of its own, as long as ``limits``' (the one from here may have
        spent it all). :class:`IllegalMove` when the play gives no solution or none is found in
        time."""
        if self.play.solution is None:
            raise IllegalMove("this puzzle cannot show its solution")
        if self.play.solved(self.problem, self.state):
            raise IllegalMove("the puzzle is solved already")
        limits = limits or Limits(SEARCH_SECONDS)
        clicks = self._solution(self.state, limits)
        from_start = not clicks and self.can_restart
        if from_start:
            again = Limits(limits.time_limit)
            try:
                clicks = self._solution(self.start, again)
            finally:
                again.close()
        state = self.start if from_start else self.state
        for click in clicks:
            state = self.play.click(self.problem, state, *click)
        if not clicks or not self.play.solved(self.problem, state):
            raise IllegalMove("no solution found in time")
        self.revealed = True
        self._push((len(clicks) + from_start, ONE_MOVE), self.state)
        if from_start:
            self._push(RESTART, self.start)
        for click in clicks:
            self._push(click, self.play.click(self.problem, self.state, *click))
        return self.state

    def _solution(self, state: S, limits: Limits) -> list[Click]:
        """The play's clicks from ``state`` to a solution; none when its search runs out of time."""
        assert self.play.solution is not None
        try:
            return self.play.solution(self.problem, state, limits)
        except TimeLimitReached:
            return []

    def scene(self) -> Scene:
        """The picture of the position (the play's scene, with the aids when they are on; the
        page adds faults and hints)."""
        if self.aids and self.play.scene_with_aids is not None:
            return self.play.scene_with_aids(self.problem, self.state)
        return self.play.scene(self.problem, self.state)

    def describe_cells(self) -> list[str]:
        """Words for each cell, in cell order, for a screen reader: what is on it ("queen",
        "given queen", "step 3", "empty"), never a bare letter."""
        if self.play.describe is not None:
            return self.play.describe(self.problem, self.state)
        from boardpuzzles.plays.words import scene_words

        return scene_words(self.play.scene(self.problem, self.state))

    def undo(self) -> S:
        """Take back the last move (a shown solution whole)."""
        if not self.can_undo:
            raise IllegalMove("nothing to undo")
        back_to = max((end for end in self._move_ends() if end < self.at), default=0)
        del self._states[back_to + 1 :]
        self.at = back_to
        return self.state

    def redo(self) -> S:
        """Play the next undone move again (a shown solution whole)."""
        if not self.can_redo:
            raise IllegalMove("nothing to redo")
        on_to = min(end for end in self._move_ends() if end > self.at)
        for click in self.line[self.at : on_to]:
            self._states.append(self._after(self.state, click))
        self.at = on_to
        self._note_solved()
        return self.state

    def hint(self, limits: Limits | None = None) -> Hint:
        """The play's hint for the position ("no hint found in time" when its search runs out
        of time)."""
        self.hints += 1
        try:
            return self.play.hint(self.problem, self.state, limits or Limits(SEARCH_SECONDS))
        except TimeLimitReached:
            return NO_HINT_IN_TIME

    def verdict(self) -> Verdict:
        solved = self.play.solved(self.problem, self.state)
        if solved:
            self._note_solved()
        seconds = self.solved_seconds if self.solved_seconds is not None else self.clock() - self.started
        return Verdict(self.play.faults(self.problem, self.state), solved, max(0.0, seconds))

    def _note_solved(self) -> None:
        if self.solved_seconds is None and not self.revealed and self.play.solved(self.problem, self.state):
            self.solved_seconds = max(0.0, self.clock() - self.started)

    def copy(self) -> Attempt[P, S]:
        """A copy to change without touching this one (a server keeps a change only once it is
        stored): its own lists of clicks and states, the states themselves shared (values)."""
        twin = copy.copy(self)  # not replace(): that would replay every click
        twin.line, twin._states = list(self.line), list(self._states)
        return twin

    def to_json(self) -> Json:
        """The game as JSON: the problem, the start state and the clicks (see the module glossary)."""
        return {
            "problem": self.play.problem_to_json(self.problem),
            "start": self.play.state_to_json(self.problem, self.start),
            "size": self.size,
            "difficulty": self.difficulty,
            "seed": self.seed,
            "line": [[cell, tool] for cell, tool in self.line],
            "at": self.at,
            "started": self.started,
            "solved_seconds": self.solved_seconds,
            "hints": self.hints,
            **({"imported": True} if self.imported else {}),
            **({"aids": True} if self.aids else {}),
            **({"revealed": True} if self.revealed else {}),
        }

    @classmethod
    def from_json(cls, play: Play[P, S], document: Json, **kwargs: Any) -> Attempt[P, S]:
        """The game that :meth:`to_json` wrote, its clicks replayed (a click the rules now
        refuse raises :class:`IllegalMove`)."""
        try:
            problem = play.problem_from_json(document["problem"])
            start = play.state_from_json(problem, document["start"])
            line = [(int(cell), str(tool)) for cell, tool in document["line"]]
            return cls(
                play,
                problem,
                start,
                int(document["size"]),
                str(document["difficulty"]),
                int(document["seed"]),
                line,
                int(document["at"]),
                float(document["started"]),
                document["solved_seconds"],
                int(document.get("hints", 0)),
                bool(document.get("imported", False)),
                bool(document.get("aids", False)),
                bool(document.get("revealed", False)),
                **kwargs,
            )
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, BoardPuzzlesError):
                raise
            raise BoardPuzzlesError(f"not a stored game: {type(err).__name__}: {excerpt(str(err))}") from None


def _one_line(text: str, limit: int = 200) -> str:
    """An error's text on one line, cut to ``limit`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def play_of(puzzle: Puzzle[Any, Any]) -> Play[Any, Any] | None:
    """The play of a registered puzzle: its own, or its answer type's default; None when it has
    neither (see :func:`boardpuzzles.plays.play_of`)."""
    from boardpuzzles.plays import play_of as made

    return made(puzzle)
