"""One web game of Baikago: the position, the human's colour, the computer's strength
(:class:`WebGame`), and how it is stored (:class:`Record`, the ``games`` table).

Glossary
--------
record      one game as stored: its id, rules (size, max d, orientations), the human's colour,
            the computer's strength and seed, the moves played (point names), the moves undone
            and when it was last touched. The position is rebuilt by replaying the moves.
undone      the moves undo took back, in the order redo plays them again; a new move clears them.
            They are stored in the ``rules`` column's JSON object, under ``"undone"``: a server
            from before redo reads that object's keys by name, so it ignores them, and its next
            change of the game writes the row without them, so they are never replayed after
            moves they do not follow. (A column of their own would have made every write of
            such a server fail.)
left        a game whose page started another one: still readable, but the first to make room.
aids        whether the page shows what perfect play gives from the position (a spoiler, off
            unless the player turns it on); stored in the ``rules`` column's JSON object too, as
            ``undone`` is, and off in a game stored before it.
history     a token of the moves played and the moves undone (``WebGame.history``): a page sends
            back the one it shows with a move, an undo or a redo, and a game whose moves or
            undone moves differ refuses it as moved on. The number of moves alone (``ply``)
            cannot see another tab undo, play and undo again: same number, other moves.
started     when the game began, and ``ended`` when it was won or drawn (null while it goes on):
            the page's clock. Stored in that object too; a game stored before them counts from
            its last change.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.web.computer import ComputerPool
from boardpuzzles.web.routes import GameMovedOn, check_history, history_token
from boardpuzzles.web.store import GameStore, Statement

#: A game untouched this many days is called idle (it makes room before the games in play).
IDLE_DAYS = 7
#: Where the games are stored: one row per game.
TABLE = "games"
SCHEMA = """CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, rules TEXT NOT NULL, human INTEGER NOT NULL,
    strength INTEGER NOT NULL, seed INTEGER, moves TEXT NOT NULL,
    touched REAL NOT NULL, over INTEGER NOT NULL, left_ INTEGER NOT NULL)"""


@dataclass
class Record:
    id: str
    size: int
    max_d: int | None
    orientations: str
    human: int
    strength: int
    seed: int | None
    moves: list[str]
    touched: float
    over: bool = False
    left: bool = False
    undone: list[str] = field(default_factory=list)
    aids: bool = False
    started: float | None = None
    ended: float | None = None

    def row(self) -> Statement:
        """The statement that stores this record."""
        rules = json.dumps(
            {
                "size": self.size,
                "max_d": self.max_d,
                "orientations": self.orientations,
                "undone": self.undone,
                "aids": self.aids,
                "started": self.started,
                "ended": self.ended,
            }
        )
        values = (self.id, rules, self.human, self.strength, self.seed, json.dumps(self.moves), self.touched)
        return f"INSERT OR REPLACE INTO {TABLE} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (
            *values,
            int(self.over),
            int(self.left),
        )


def load_records(store: GameStore) -> list[Record]:
    """Every stored game, least recently touched first."""
    rows = store.rows(
        f"SELECT id, rules, human, strength, seed, moves, touched, over, left_ FROM {TABLE} ORDER BY touched"
    )
    records = []
    for game_id, rules, human, strength, seed, moves, touched, over, left in rows:
        r = json.loads(rules)
        records.append(
            Record(
                game_id,
                r["size"],
                r["max_d"],
                r["orientations"],
                human,
                strength,
                seed,
                json.loads(moves),
                touched,
                bool(over),
                bool(left),
                r.get("undone", []),  # absent in a game stored before redo
                r.get("aids") is True,  # absent in a game stored before the aids
                _time(r.get("started")),  # absent in a game stored before the clock
                _time(r.get("ended")),
            )
        )
    return records


def _time(value: object) -> float | None:
    """A stored time (seconds since the epoch), or None when there is none."""
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _unsaved(statement: Statement) -> None:
    """The ``save`` of a game no keeper holds yet."""


class WebGame:
    """One game: the position, the human's colour, the computer's strength and seed.

    The human's move and the computer's reply are separate requests, so the page shows the
    human's stone at once and the computer's when it comes. ``lock`` guards the position and is
    held only to read or change it (and to store the change); ``thinking`` is held while the
    computer searches, outside ``lock``, so the game's state can be read meanwhile. ``version``
    counts changes: a reply searched for a position that an undo has since left is dropped.
    ``undone`` holds the moves undo took back, which redo plays again (see the glossary).
    ``save`` stores each change before it counts (the keeper's store): when the store cannot
    take it, the change is taken back and :class:`~boardpuzzles.web.store.StoreFailed` raised,
    so a client that tries again plays its move once. ``client``: the address that started it.
    """

    #: Stores a change before it counts (the keeper fills it in).
    save: Callable[[Statement], None]

    def __init__(
        self,
        rules: bk.Rules,
        human: bk.Colour,
        strength: int,
        seed: int | None = None,
        game_id: str | None = None,
        client: str = "",
    ) -> None:
        self.id = game_id or secrets.token_hex(8)
        self.client = client
        self.position = bk.Position(rules)
        self.human = human
        self.strength = strength
        self.seed = seed
        self.lock = threading.Lock()
        self.thinking = threading.Lock()
        self.version = 0
        self.touched = time.time()
        self.left = False  # the page that played it started another game
        self.undone: list[bk.Move] = []
        self.aids = False  # the page shows the position's value (see the glossary)
        self.started = self.touched  # the page's clock (see the glossary)
        self.ended: float | None = None
        self.save = _unsaved

    @classmethod
    def from_record(cls, record: Record, rules: bk.Rules) -> WebGame:
        """The stored game, replayed (an :class:`~boardpuzzles.errors.BoardPuzzlesError` when its
        moves, or its undone moves after them, no longer replay)."""
        game = cls(rules, record.human, record.strength, record.seed, record.id)
        p = game.position
        for name in record.moves:
            p.make_named(name)
        if not isinstance(record.undone, list) or not all(isinstance(name, str) for name in record.undone):
            raise BoardPuzzlesError("its undone moves are not a list of point names")
        undone = [p.parse_move(name) for name in record.undone]
        for move in undone:  # they must follow the moves, as redo will play them
            p.make(move)
        for _ in undone:
            p.unmake()
        game.undone = undone
        game.touched, game.left, game.aids = record.touched, record.left, record.aids
        game.started = record.started if record.started is not None else record.touched
        game.ended = record.ended if p.is_game_over() else None
        return game

    def record(self) -> Record:
        """The game as stored (call with ``lock`` held, or before the game is shared)."""
        p = self.position
        return Record(
            self.id,
            p.rules.size,
            p.rules.max_d,
            p.rules.orientations,
            self.human,
            self.strength,
            self.seed,
            [p.grid.name(m) for m in p.move_stack],
            self.touched,
            p.is_game_over(),
            self.left,
            [p.grid.name(m) for m in self.undone],
            self.aids,
            self.started,
            self.ended,
        )

    def row(self) -> Statement:
        """The statement that stores the game as it is (lock held, or before the game is shared)."""
        return self.record().row()

    def _commit(self, take_back: Callable[[], object], moved: bool = True) -> None:
        """Store the change just made (lock held); when the store cannot, ``take_back()`` undoes it.
        A change that ``moved`` no stone (the aids) leaves ``version`` alone, so a reply being
        searched still counts."""
        touched, ended, self.touched = self.touched, self.ended, time.time()
        if not self.position.is_game_over():
            self.ended = None
        elif ended is None:
            self.ended = self.touched  # the clock stops at the last move
        try:
            self.save(self.row())
        except BaseException:
            take_back()
            self.touched, self.ended = touched, ended
            raise
        if moved:
            self.version += 1

    @property
    def can_go(self) -> bool:
        """Whether the game may make room for a new one: over, left, or untouched for IDLE_DAYS."""
        return self.left or self.position.is_game_over() or time.time() - self.touched > IDLE_DAYS * 86400

    def _human_has_moved(self) -> bool:
        return len(self.position.move_stack) >= (1 if self.human == bk.BLACK else 2)  # black has the even plies

    def _play_new(self, move: bk.Move) -> None:
        """Play a move that is no redo (lock held): it clears the undone moves, and both are
        taken back when the store cannot take the change."""
        p = self.position
        p.make(move)
        undone, self.undone = self.undone, []

        def take_back() -> None:
            p.unmake()
            self.undone = undone

        self._commit(take_back)

    @property
    def history(self) -> str:
        """The token of the moves played and the moves undone (lock held): see the glossary."""
        p = self.position
        return history_token([p.grid.name(m) for m in p.move_stack], [p.grid.name(m) for m in self.undone])

    def _check_seen(self, ply: int | None, history: str | None) -> None:
        """:class:`GameMovedOn` when the page's ``ply`` (the number of moves it saw) or its
        ``history`` token, either given, is not the game's (lock held)."""
        played = len(self.position.move_stack)
        if ply is not None and ply != played:
            raise GameMovedOn(f"the game has {played} moves, not {ply}: it changed elsewhere")
        check_history(history, self.history)

    def move(self, name: str, ply: int | None = None, history: str | None = None) -> None:
        """The human's stone on ``name``; ``ply`` and ``history``, when given, are what the page
        saw (the number of moves, the token of the moves and undone moves: see the glossary)."""
        with self.lock:
            p = self.position
            self._check_seen(ply, history)
            if p.is_game_over():
                raise bk.IllegalMoveError("the game is over")
            if p.turn != self.human:
                raise GameMovedOn("it is the computer's turn")
            self._play_new(p.parse_move(name))

    def reply(self, computers: ComputerPool) -> None:
        """The computer's move, if it is the computer's turn (asked twice, it moves once)."""
        with self.thinking:
            with self.lock:
                p = self.position
                if p.is_game_over() or p.turn == self.human:
                    return
                board, turn, version = list(p.board), p.turn, self.version
            choice = computers.choose(p.rules, self.strength, self.seed, board, turn)
            with self.lock:
                if self.version == version:
                    self._play_new(choice.move)

    def undo(self, ply: int | None = None, history: str | None = None) -> None:
        """Back to the human's previous turn (their last move and the computer's reply to it); a
        computer's opening move alone is not taken back. ``ply`` and ``history``, when given,
        are what the page saw (:class:`GameMovedOn` when the game has moved on from it)."""
        with self.lock:
            p = self.position
            self._check_seen(ply, history)
            if not self._human_has_moved():
                return
            taken = [p.unmake()]
            while p.move_stack and p.turn != self.human:
                taken.append(p.unmake())
            undone = self.undone
            self.undone = taken[::-1] + undone

            def play_again() -> None:
                for move in reversed(taken):
                    p.make(move)
                self.undone = undone

            self._commit(play_again)

    def redo(self, ply: int | None = None, history: str | None = None) -> None:
        """Play again what undo took back, up to the human's next turn (their move and the
        computer's reply to it, as undo took them); :class:`~boardpuzzles.puzzles.baikago.IllegalMoveError`
        when there is nothing to redo. ``ply`` and ``history``, when given, are what the page saw
        (:class:`GameMovedOn` when the game has moved on from it)."""
        with self.lock:
            p = self.position
            self._check_seen(ply, history)
            undone = self.undone
            if not undone:
                raise bk.IllegalMoveError("nothing to redo")
            played = 0

            def take_back() -> None:
                for _ in range(played):
                    p.unmake()
                self.undone = undone

            try:
                while played < len(undone) and not p.is_game_over() and (played == 0 or p.turn != self.human):
                    p.make(undone[played])
                    played += 1
            except BaseException:  # the undone moves follow the position: this is a bug, not a refusal
                take_back()
                raise
            self.undone = undone[played:]
            self._commit(take_back)

    def set_aids(self, on: bool) -> None:
        """Show (or hide) the value of the position on the page: kept with the game."""
        with self.lock:
            if self.aids != on:
                self.aids = on
                self._commit(lambda: setattr(self, "aids", not on), moved=False)

    def leave(self) -> None:
        """The page started another game: this one may make room first (it stays readable)."""
        with self.lock:
            if not self.left:
                self.left = True
                self._commit(lambda: setattr(self, "left", False))

    def state(self) -> dict[str, Any]:
        with self.lock:
            p = self.position
            outcome = p.outcome()
            grid = p.grid
            winner = outcome.winner if outcome else None
            return {
                "game": self.id,
                "size": p.rules.size,
                "rules": p.rules.to_json(),
                "describe": p.rules.describe(),
                "rows": p.rows(),
                "human": bk.COLOUR_NAMES[self.human],
                "strength": self.strength,
                "turn": bk.COLOUR_NAMES[p.turn],
                "moves": [grid.name(m) for m in p.move_stack],
                "last": grid.name(p.last_move) if p.last_move is not None else None,
                "over": outcome is not None,
                "winner": None if winner is None else bk.COLOUR_NAMES[winner],
                # who won, as the page says it: "human", "computer" or "draw"
                "outcome": None
                if outcome is None
                else "draw"
                if winner is None
                else ("human" if winner == self.human else "computer"),
                "result": outcome.describe(grid) if outcome else None,
                "crosses": [c.to_json(grid) for c in (outcome.crosses if outcome else ())],
                "cross": sorted({grid.name(q) for c in (outcome.crosses if outcome else ()) for q in c.points}),
                "thinking": self.thinking.locked(),
                # what the page's Undo and Redo can do (undo leaves a computer's opening alone)
                "can_undo": self._human_has_moved(),
                "can_redo": bool(self.undone),
                "history": self.history,  # sent back with a move, an undo or a redo
                "aids": self.aids,
                # the time played: from the start to the end, or to now while it goes on
                "seconds": round(
                    max(0.0, (self.ended or (self.touched if outcome else time.time())) - self.started), 1
                ),
                "names": [grid.name(i) for i in range(grid.size)],
            }
