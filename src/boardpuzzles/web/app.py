"""`boardpuzzles serve`: every registered puzzle played in a browser, and Baikago beside them.

The Baikago server's machinery (:mod:`boardpuzzles.web.server`, :mod:`boardpuzzles.web.handler`)
with more routes: loopback only, Host and Origin checked, bodies capped, connections bounded,
every refusal a JSON ``{"error": ...}``, games kept in one SQLite file.

Pages:

- ``GET /``: a card per registered puzzle (its picture, one line of rules, a link);
- ``GET /play/NAME``: the play page of a puzzle (``?size=..&difficulty=..&seed=..`` opens that
  puzzle: the same seed makes the same one);
- ``GET /baikago``: the Baikago page, with its API as ``baikago serve`` has it (``/api/new``,
  ``/api/move``, ``/api/reply``, ``/api/undo``, ``/api/state``).

The API of the puzzles; each answer is the game's state (:meth:`PuzzleGame.state`):

- ``POST /api/NAME/new`` ``{"size", "difficulty", "seed", "replaces"}`` (each optional), or
  ``{"url", "replaces"}``: the puzzle a URL holds, for a play that imports URLs (a URL it cannot
  read is answered 400 with the reason);
- ``POST /api/games/ID/click`` ``{"cell": index, "tool": name}`` (a click the rules refuse is
  answered 422 with the reason); ``/undo``, ``/redo``, ``/hint`` (``{}``);
- ``GET /api/games/ID``.

At most ``max_games`` puzzle games are kept (and as many Baikago games): a new one takes the
place of a solved or left one, or of one untouched for a week; when none can go it is refused
(503). Puzzle games are stored in the Baikago store's file, in a table of their own, as their
clicks (:meth:`boardpuzzles.play.Attempt.to_json`), so a restart loses none. Hints are searched
one every two cores at a time, each for at most ``HINT_SECONDS``; a hint that finds every searcher busy
that long says so.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sys
import threading
from collections import OrderedDict
from http import HTTPStatus
from typing import Any
from urllib.parse import urlparse

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.play import Attempt, IllegalMove, Play
from boardpuzzles.play_generic import play_of
from boardpuzzles.protocol import Entry, Puzzle, display_name
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles import registry
from boardpuzzles.web.handler import ROUTES as BAIKAGO_ROUTES
from boardpuzzles.web.handler import Handler, RequestError, TooManyGames, local_host
from boardpuzzles.web.play_game import PuzzleGame
from boardpuzzles.web.server import MAX_CONNECTIONS, MAX_GAMES, REQUEST_TIMEOUT, BaikagoServer
from boardpuzzles.web.store import MEMORY, GameStore

#: The Baikago API, answered as ``baikago serve`` answers it.
BAIKAGO_API = {path for path in BAIKAGO_ROUTES if path.startswith("/api/")}
_PLAY = re.compile(r"/play/([a-z]+(?:-[a-z]+)*)")
_NEW = re.compile(r"/api/([a-z]+(?:-[a-z]+)*)/new")
_GAME = re.compile(r"/api/games/([0-9a-f]{1,64})(?:/(click|undo|redo|hint))?")
#: Seeds of new puzzles: 0 .. 2**32 - 1.
MAX_SEED = 2**32 - 1


class PuzzleStore:
    """The puzzle games, in a table of the Baikago store's file (one connection, one lock)."""

    def __init__(self, games: GameStore) -> None:
        self.games = games
        with games.lock:
            games.db.execute(
                "CREATE TABLE IF NOT EXISTS puzzle_games (id TEXT PRIMARY KEY, puzzle TEXT NOT NULL, "
                "body TEXT NOT NULL, touched REAL NOT NULL)"
            )

    def load(self) -> list[tuple[str, str, Any, float]]:
        with self.games.lock:
            rows = self.games.db.execute(
                "SELECT id, puzzle, body, touched FROM puzzle_games ORDER BY touched"
            ).fetchall()
        return [(game_id, puzzle, json.loads(body), touched) for game_id, puzzle, body, touched in rows]

    def save(self, game: PuzzleGame) -> None:
        body = json.dumps(game.record())
        with self.games.lock:
            if not self.games.closed:
                self.games.db.execute(
                    "INSERT OR REPLACE INTO puzzle_games VALUES (?, ?, ?, ?)",
                    (game.id, game.puzzle.name, body, game.touched),
                )

    def delete(self, game_id: str) -> None:
        with self.games.lock:
            if not self.games.closed:
                self.games.db.execute("DELETE FROM puzzle_games WHERE id = ?", (game_id,))


class PlayServer(BaikagoServer):
    """The Baikago server with the puzzles' pages and games (see the module docstring)."""

    def __init__(self, address: tuple[str, int], store: GameStore, **kwargs: Any) -> None:
        super().__init__(address, bk.Rules(), store=store, **kwargs)
        self.RequestHandlerClass = PlayHandler
        # The Baikago page is one of the app's pages here: a way back to the others beside its title.
        self.page = self.page.replace(b"</h1>", b'</h1><a class="home" href="/">all puzzles</a>', 1)
        self.puzzle_store = PuzzleStore(self.store)
        self.puzzle_games: OrderedDict[str, PuzzleGame] = OrderedDict()
        self.plays: dict[str, tuple[Puzzle[Any, Any], Play[Any, Any]]] = {}
        for name, entry in registry().items():
            if isinstance(entry, Puzzle):
                play = play_of(entry)
                if play is not None:
                    self.plays[name] = (entry, play)
        #: Hints searched at once (one every two cores): a search holds a core (and, in Python, much
        #: of the interpreter) for up to its time limit, and the clicks of every game need the rest.
        self.hint_searchers = threading.BoundedSemaphore(max(1, (os.cpu_count() or 1) // 2))
        self._front: bytes | None = None
        self._pages: dict[str, bytes] = {}
        self.pages_lock = threading.Lock()
        self._load_puzzles()

    def _load_puzzles(self) -> None:
        for game_id, name, record, touched in self.puzzle_store.load():
            try:
                if name not in self.plays:
                    raise BoardPuzzlesError(f"no playable puzzle {name!r}")
                puzzle, play = self.plays[name]
                game = PuzzleGame(puzzle, play, Attempt.from_json(play, record["attempt"]), game_id)
            except (BoardPuzzlesError, KeyError, TypeError) as err:
                sys.stderr.write(f"boardpuzzles serve: stored game {game_id[:20]} dropped: {err}\n")
                self.puzzle_store.delete(game_id)
                continue
            game.touched, game.left = touched, bool(record.get("left"))
            game.save = self.puzzle_store.save
            self.puzzle_games[game.id] = game

    def add_puzzle_game(self, game: PuzzleGame) -> None:
        """Keep a new game (and store it): a solved, left or long idle game makes room for it
        when the server is full, else :class:`TooManyGames`."""
        with self.games_lock:
            while len(self.puzzle_games) >= self.max_games:
                victim = next((g for g in self.puzzle_games.values() if g.can_go), None)
                if victim is None:
                    raise TooManyGames(self.max_games)
                del self.puzzle_games[victim.id]
                victim.save = lambda game: None
                self.puzzle_store.delete(victim.id)
            game.save = self.puzzle_store.save
            self.puzzle_store.save(game)
            self.puzzle_games[game.id] = game

    def get_puzzle_game(self, game_id: str) -> PuzzleGame | None:
        with self.games_lock:
            game = self.puzzle_games.get(game_id)
            if game is not None:
                self.puzzle_games.move_to_end(game_id)
            return game

    def front_page(self) -> bytes:
        from boardpuzzles.web.front_page import front_page

        with self.pages_lock:
            if self._front is None:
                cards: list[tuple[Entry, str, str | None, Play[Any, Any] | None]] = []
                for name, entry in registry().items():
                    if name in self.plays:
                        play = self.plays[name][1]
                        cards.append((entry, play.rules, f"/play/{name}", play))
                    elif name == "baikago":
                        cards.append(
                            (entry, "Two players: five stones of your colour in a cross win.", "/baikago", None)
                        )
                    else:
                        cards.append((entry, entry.title, None, None))
                self._front = front_page(cards).encode("utf-8")
            return self._front

    def play_page(self, name: str) -> bytes:
        from boardpuzzles.web.play_page import render_play_page

        with self.pages_lock:
            if name not in self._pages:
                puzzle, play = self.plays[name]
                config = {
                    "name": name,
                    "title": display_name(puzzle),
                    "rules": play.rules or puzzle.title[:1].upper() + puzzle.title[1:],
                    "tools": [{"name": t.name, "label": t.label, "key": t.key} for t in play.tools],
                    "sizes": list(play.sizes),
                    "difficulties": list(play.difficulties),
                    "exports": play.problem_to_url is not None,
                    "imports": play.problem_from_url is not None,
                }
                self._pages[name] = render_play_page(config).encode("utf-8")
            return self._pages[name]


class PlayHandler(Handler):
    server: PlayServer

    def _route(self) -> None:
        url = urlparse(self.path)
        path = url.path
        if path in BAIKAGO_API:
            super()._route()
            return
        if not local_host(self.headers.get("Host")):
            raise RequestError(HTTPStatus.FORBIDDEN, "this server answers only 127.0.0.1 and localhost")
        if path in ("/", "/index.html", "/baikago") or _PLAY.fullmatch(path):
            self._allow("GET", "HEAD")
            self._page(path)
            return
        new = _NEW.fullmatch(path)
        if new:
            self._allow("POST")
            self._new(new.group(1), self._body())
            return
        found = _GAME.fullmatch(path)
        if found:
            game_id, action = found.groups()
            if action is None:
                self._allow("GET", "HEAD")
                self._json(HTTPStatus.OK, self._puzzle_game(game_id).state())
            else:
                self._allow("POST")
                self._act(self._puzzle_game(game_id), action, self._body())
            return
        raise RequestError(HTTPStatus.NOT_FOUND, f"no page {path[:80]}")

    def _allow(self, *methods: str) -> None:
        if self.command not in methods:
            raise RequestError(
                HTTPStatus.METHOD_NOT_ALLOWED,
                f"{urlparse(self.path).path[:80]} answers {' and '.join(methods)}, not {self.command}",
                {"Allow": ", ".join(methods)},
            )

    def _page(self, path: str) -> None:
        if path == "/baikago":
            page = self.server.page
        elif path in ("/", "/index.html"):
            page = self.server.front_page()
        else:
            name = path.removeprefix("/play/")
            if name not in self.server.plays:
                raise RequestError(HTTPStatus.NOT_FOUND, f"no playable puzzle {name[:40]!r}")
            page = self.server.play_page(name)
        self._send(HTTPStatus.OK, page, "text/html; charset=utf-8")

    def _new(self, name: str, body: dict[str, Any]) -> None:
        if name not in self.server.plays:
            raise RequestError(HTTPStatus.NOT_FOUND, f"no playable puzzle {name[:40]!r}")
        puzzle, play = self.server.plays[name]
        replaces = body.get("replaces")
        if replaces is not None and not isinstance(replaces, str):
            raise BoardPuzzlesError("replaces is the id of the game the page leaves, a string")
        if "url" in body:
            if play.problem_from_url is None:
                raise BoardPuzzlesError(f"{name} imports no URLs")
            self._start(PuzzleGame(puzzle, play, Attempt.from_url(play, body["url"])), replaces)
            return
        size = body.get("size", play.sizes[0])
        difficulty = body.get("difficulty", play.difficulties[0] if play.difficulties else "")
        seed = body.get("seed")
        if type(size) is not int or size not in play.sizes:
            raise BoardPuzzlesError(f"size is one of {', '.join(map(str, play.sizes))}")
        if not isinstance(difficulty, str) or difficulty not in (play.difficulties or ("",)):
            raise BoardPuzzlesError(f"difficulty is one of {', '.join(play.difficulties) or 'none (leave it out)'}")
        if seed is None:
            seed = secrets.randbelow(MAX_SEED + 1)
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise BoardPuzzlesError(f"seed is a whole number from 0 to {MAX_SEED}")
        self._start(PuzzleGame(puzzle, play, Attempt.new(play, size, difficulty, seed)), replaces)

    def _start(self, game: PuzzleGame, replaces: str | None) -> None:
        left = self.server.get_puzzle_game(replaces) if replaces else None
        if left is not None:
            left.leave()
        self.server.add_puzzle_game(game)
        self._json(HTTPStatus.OK, game.state())

    def _act(self, game: PuzzleGame, action: str, body: dict[str, Any]) -> None:
        try:
            if action == "click":
                cell, tool = body.get("cell"), body.get("tool")
                if type(cell) is not int or not isinstance(tool, str):
                    raise BoardPuzzlesError('a click is {"cell": a cell index, "tool": a tool name}')
                game.click(cell, tool)
            elif action == "undo":
                game.undo()
            elif action == "redo":
                game.redo()
            else:
                game.ask_hint(self.server.hint_searchers)
        except IllegalMove as err:
            raise RequestError(HTTPStatus.UNPROCESSABLE_ENTITY, str(err)) from None
        self._json(HTTPStatus.OK, game.state())

    def _puzzle_game(self, game_id: str) -> PuzzleGame:
        game = self.server.get_puzzle_game(game_id)
        if game is None:
            raise RequestError(HTTPStatus.NOT_FOUND, f"no game {game_id[:40]!r}: start a new one")
        return game


def make_app(
    port: int,
    games: str | os.PathLike[str] = MEMORY,
    max_games: int = MAX_GAMES,
    request_timeout: float = REQUEST_TIMEOUT,
    max_connections: int = MAX_CONNECTIONS,
    warm: bool = True,
) -> PlayServer:
    """The server bound to 127.0.0.1 (port 0: any free port) keeping its games in the SQLite file
    ``games`` (default: in memory, for this run only), Baikago's computer player compiled
    (unless ``warm`` is false); call ``serve_forever()``. A game file that cannot be used raises
    :class:`~boardpuzzles.web.store.StoreError`."""
    store = GameStore(games)
    try:
        server = PlayServer(
            ("127.0.0.1", port),
            store,
            request_timeout=request_timeout,
            max_games=max_games,
            max_connections=max_connections,
        )
    except BaseException:
        store.close()
        raise
    if warm:
        from boardpuzzles.web.baikago import warm_up_for

        warm_up_for(server)
    return server
