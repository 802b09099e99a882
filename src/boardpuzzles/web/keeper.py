"""The games a web server keeps, in memory and in its store, and who makes room for whom
(:class:`GameKeeper`). It names no game: each client of the server keeps its games in a keeper
of its own, with a table of its own in the server's store.

Glossary
--------
kept game   anything with an ``id``, the ``client`` that started it (an address), ``can_go``
            (finished, or left for another game: the first to make room), its ``row()`` (the
            store statement that writes it) and a ``save`` slot the keeper fills.
room        at most ``max_games`` games are kept, and at most ``per_client`` of them started by
            one client. A new game always gets a place: the client's own games make room first
            when it holds its share, else any game; among them, finished or left games first,
            then the one untouched longest. So one client that starts games in a loop only ever
            pushes out its own, and a full server never turns a visitor away.

A game read back from the store after a restart belongs to no client (the address is not
stored): it makes room in its turn like any other.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from typing import Generic, Protocol, TypeVar

from boardpuzzles.web.store import GameStore, Statement

#: The share of the games one client may hold, at most (and at least one game).
CLIENT_SHARE = 4


class KeptGame(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def client(self) -> str: ...

    save: Callable[[Statement], None]

    @property
    def can_go(self) -> bool: ...

    def row(self) -> Statement: ...


G = TypeVar("G", bound=KeptGame)


def _nowhere(statement: Statement) -> None:
    """The ``save`` of a game that made room: a request still holding it must not store it again."""


class GameKeeper(Generic[G]):
    """The games of one client of the server in ``table`` of ``store`` (see the module docstring)."""

    def __init__(self, store: GameStore, table: str, max_games: int, per_client: int | None = None) -> None:
        self.store = store
        self.table = table
        self.max_games = max_games
        self.per_client = per_client or max(1, max_games // CLIENT_SHARE)
        self.games: OrderedDict[str, G] = OrderedDict()  # least recently used first
        self.held: dict[str, int] = {}  # games kept, by client
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.games)

    def __iter__(self) -> Iterator[G]:
        with self.lock:
            return iter(list(self.games.values()))

    def load(self, games: Iterable[G]) -> None:
        """Games read back from the store (least recently used first), kept as they are."""
        with self.lock:
            for game in games:
                self._keep(game)

    def add(self, game: G) -> None:
        """Keep a new game and store it, making room first (see the module docstring). When the
        store cannot take it, :class:`~boardpuzzles.web.store.StoreFailed` and nothing changes."""
        with self.lock:
            victims = self._victims(game.client)
            self.store.write(*(self._delete(v.id) for v in victims), game.row())
            for victim in victims:
                self._drop(victim)
            self._keep(game)

    def get(self, game_id: str) -> G | None:
        with self.lock:
            game = self.games.get(game_id)
            if game is not None:
                self.games.move_to_end(game_id)
            return game

    def _victims(self, client: str) -> list[G]:
        """The games that make room for one more of ``client`` (lock held)."""
        victims: list[G] = []
        if self.held.get(client, 0) >= self.per_client:
            victims.append(self._first_to_go(lambda g: g.client == client))
        while len(self.games) - len(victims) >= self.max_games:  # more than one after a restart with fewer
            victims.append(self._first_to_go(lambda g: all(g is not v for v in victims)))
        return victims

    def _first_to_go(self, among: Callable[[G], bool]) -> G:
        """Of the games ``among`` picks, the first finished or left one, else the least recently used."""
        first: G | None = None
        for game in self.games.values():
            if among(game):
                if game.can_go:
                    return game
                first = first or game
        assert first is not None, "a client at its share holds a game"
        return first

    def _keep(self, game: G) -> None:
        game.save = lambda statement: self._save(game, statement)
        self.games[game.id] = game
        self.held[game.client] = self.held.get(game.client, 0) + 1

    def _drop(self, game: G) -> None:
        del self.games[game.id]
        game.save = _nowhere
        left = self.held[game.client] - 1
        if left:
            self.held[game.client] = left
        else:
            del self.held[game.client]

    def _save(self, game: G, statement: Statement) -> None:
        """Write one change of a kept game (:class:`StoreFailed` when the store cannot); a game
        that made room is not written back. The keeper's lock is not held meanwhile: every
        request takes it to find its game, and a write may wait on the disk. (A change that
        races the very moment its game makes room may store it again: it is read back after a
        restart, as one more game that makes room in its turn.)"""
        if self.games.get(game.id) is game:
            self.store.write(statement)

    def _delete(self, game_id: str) -> Statement:
        return f"DELETE FROM {self.table} WHERE id = ?", (game_id,)

    def forget(self, game_id: str) -> None:
        """Drop a stored game that cannot be played any more (it no longer replays)."""
        self.store.write(self._delete(game_id))
