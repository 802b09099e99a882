"""One web game of Baikago: the position, the human's colour, the computer's strength (:class:`WebGame`)."""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.web.computer import ComputerPool
from boardpuzzles.web.store import Record

#: A game untouched this many days may make room for a new one.
IDLE_DAYS = 7


class GameMovedOn(BoardPuzzlesError):
    """A request for a position the game has left (another tab played, a double click): 409."""


class WebGame:
    """One game: the position, the human's colour, the computer's strength and seed.

    The human's move and the computer's reply are separate requests, so the page shows the
    human's stone at once and the computer's when it comes. ``lock`` guards the position and is
    held only to read or change it (and to store the change); ``thinking`` is held while the
    computer searches, outside ``lock``, so the game's state can be read meanwhile. ``version``
    counts changes: a reply searched for a position that an undo has since left is dropped.
    ``save`` is called with the game's record after every change (the server's store).
    """

    def __init__(
        self,
        rules: bk.Rules,
        human: bk.Colour,
        strength: int,
        seed: int | None = None,
        game_id: str | None = None,
    ) -> None:
        self.id = game_id or secrets.token_hex(8)
        self.position = bk.Position(rules)
        self.human = human
        self.strength = strength
        self.seed = seed
        self.lock = threading.Lock()
        self.thinking = threading.Lock()
        self.version = 0
        self.touched = time.time()
        self.left = False  # the page that played it started another game
        self.save: Any = lambda record: None

    @classmethod
    def from_record(cls, record: Record, rules: bk.Rules) -> WebGame:
        game = cls(rules, record.human, record.strength, record.seed, record.id)
        for name in record.moves:
            game.position.make_named(name)
        game.touched, game.left = record.touched, record.left
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
        )

    def _changed(self) -> None:
        self.version += 1
        self.touched = time.time()
        self.save(self.record())

    @property
    def can_go(self) -> bool:
        """Whether the game may make room for a new one: over, left, or untouched for IDLE_DAYS."""
        return self.left or self.position.is_game_over() or time.time() - self.touched > IDLE_DAYS * 86400

    def _human_has_moved(self) -> bool:
        return len(self.position.move_stack) >= (1 if self.human == bk.BLACK else 2)  # black has the even plies

    def move(self, name: str, ply: int | None = None) -> None:
        """The human's stone on ``name``; ``ply``, when given, is the number of moves the page saw."""
        with self.lock:
            p = self.position
            if ply is not None and ply != len(p.move_stack):
                raise GameMovedOn(f"the game has {len(p.move_stack)} moves, not {ply}: it changed elsewhere")
            if p.is_game_over():
                raise bk.IllegalMoveError("the game is over")
            if p.turn != self.human:
                raise GameMovedOn("it is the computer's turn")
            p.make_named(name)
            self._changed()

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
                    p.make(choice.move)
                    self._changed()

    def undo(self) -> None:
        """Back to the human's previous turn (their last move and the computer's reply to it); a
        computer's opening move alone is not taken back."""
        with self.lock:
            p = self.position
            if not self._human_has_moved():
                return
            p.unmake()
            while p.move_stack and p.turn != self.human:
                p.unmake()
            self._changed()

    def leave(self) -> None:
        """The page started another game: this one may make room first (it stays readable)."""
        with self.lock:
            if not self.left:
                self.left = True
                self.save(self.record())

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
                "names": [grid.name(i) for i in range(grid.size)],
            }
