"""`boardpuzzles serve`: every registered puzzle played in a browser, and Baikago beside them.

The web server (:mod:`boardpuzzles.web.server`: Host and Origin checked, bodies capped,
connections bounded, every refusal a JSON ``{"error": ...}``, games kept in one SQLite file) with
two clients, each registering its routes:

- the puzzles (:mod:`boardpuzzles.web.puzzles`): ``/play/NAME`` and ``/api/NAME/new``,
  ``/api/games/ID/...``;
- Baikago (:mod:`boardpuzzles.web.baikago`): its page at ``/baikago``, its API as ``baikago
  serve`` has it (``/api/new``, ``/api/move``, ``/api/reply``, ``/api/undo``, ``/api/redo``,
  ``/api/state``);

and the front page, ``GET /``: a card per registered puzzle (its picture, one line of rules, a
link). Each client keeps at most ``max_games`` games.

It listens on 127.0.0.1 unless told otherwise (``host``): on another address a class or a family
can play from their own devices, and the share link of a game says where it works.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from boardpuzzles.play import Play
from boardpuzzles.protocol import Entry, display_name
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles import registry
from boardpuzzles.web.baikago import BaikagoClient, warm_up_for
from boardpuzzles.web.play_game import PuzzleGame
from boardpuzzles.web.puzzles import PuzzleClient
from boardpuzzles.web.routes import Page, Request, Route
from boardpuzzles.web.server import MAX_CONNECTIONS, MAX_GAMES, REQUEST_TIMEOUT, WebServer
from boardpuzzles.web.store import MEMORY, GameStore

#: The front page's card of Baikago, which has no play (two players, not a puzzle).
BAIKAGO_CARD = "Two players: five stones of your colour in a cross win."


class PlayServer(WebServer):
    """The server of ``boardpuzzles serve``: the puzzles' client, Baikago's, and the front page."""

    def __init__(self, address: tuple[str, int], store: GameStore, **options: Any) -> None:
        max_games = options.pop("max_games", MAX_GAMES)
        super().__init__(address, store, "boardpuzzles serve", **options)
        try:
            self.puzzles = PuzzleClient(self, max_games)
            self.baikago = BaikagoClient(self, bk.Rules(), max_games, home=True)
        except BaseException:
            self.server_close()
            raise
        self._front: bytes | None = None
        self.front_lock = threading.Lock()
        self.add_routes(Route("/", ("GET",), self.front_page), Route("/index.html", ("GET",), self.front_page))
        self.add_routes(*self.puzzles.routes(), *self.baikago.routes(page=("/baikago",)))

    @property
    def plays(self) -> dict[str, Any]:
        return self.puzzles.plays

    def get_puzzle_game(self, game_id: str) -> PuzzleGame | None:
        return self.puzzles.games.get(game_id)

    def not_found_page(self, reason: str) -> bytes:
        """A browser's "not found" page: the way to every puzzle's page, and the front page."""
        from boardpuzzles.web.not_found import not_found_page

        links = [(f"/play/{name}", display_name(puzzle)) for name, (puzzle, _) in self.plays.items()]
        return not_found_page(reason, ("/", "All puzzles"), [*links, ("/baikago", "Baikago")])

    def front_page(self, request: Request) -> Page:
        from boardpuzzles.web.front_page import front_page

        with self.front_lock:
            if self._front is None:
                cards: list[tuple[Entry, str, str | None, Play[Any, Any] | None]] = []
                for name, entry in registry().items():
                    if name in self.plays:
                        play = self.plays[name][1]
                        cards.append((entry, play.rules, f"/play/{name}", play))
                    elif name == "baikago":
                        cards.append((entry, BAIKAGO_CARD, "/baikago", None))
                    else:
                        cards.append((entry, entry.title, None, None))
                self._front = front_page(cards).encode("utf-8")
            return Page(self._front)


def make_app(
    port: int,
    games: str | os.PathLike[str] = MEMORY,
    max_games: int = MAX_GAMES,
    request_timeout: float = REQUEST_TIMEOUT,
    max_connections: int = MAX_CONNECTIONS,
    warm: bool = True,
    host: str = "127.0.0.1",
) -> PlayServer:
    """The server bound to ``host`` (port 0: any free port) keeping its games in the SQLite file
    ``games`` (default: in memory, for this run only), Baikago's computer player compiled
    (unless ``warm`` is false); call ``serve_forever()``. A game file that cannot be used raises
    :class:`~boardpuzzles.web.store.StoreError`."""
    store = GameStore(games)
    try:
        server = PlayServer(
            (host, port),
            store,
            request_timeout=request_timeout,
            max_games=max_games,
            max_connections=max_connections,
        )
    except BaseException:
        store.close()
        raise
    if warm:
        warm_up_for(server)
        threading.Thread(target=server.puzzles.warm_up, name="warm-up", daemon=True).start()
    return server
