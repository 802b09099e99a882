"""`boardpuzzles baikago serve`: play Baikago in a browser against the computer.

A standard-library HTTP server on 127.0.0.1. ``GET /`` is one self-contained page
(``web/baikago_page.py``); it talks JSON to

- ``POST /api/new``    ``{"human", "strength", "size", "seed", "replaces"}`` (each optional): a new
  game (``replaces``: the id of the game the page leaves for it);
- ``POST /api/move``   ``{"game", "point", "ply"}``: the human's stone only, answered at once;
- ``POST /api/reply``  ``{"game"}``: the computer's move, if it is its turn (the slow part);
- ``POST /api/undo``   ``{"game"}``: back to the human's previous turn;
- ``GET /api/state?game=ID``: the game as it stands (a reloaded page finds its game here).

Every answer is the game's state (:meth:`WebGame.state`). Every game is kept, in memory and in an
SQLite file (:mod:`boardpuzzles.web.store`), so several tabs can play at once and neither a
reload nor a restart of the server loses a game. At most ``max_games`` are kept (default
``MAX_GAMES``): a new game takes the place of a finished or left one (``"replaces"`` in
``/api/new``: the page leaving its game) or of one untouched for ``IDLE_DAYS``, least recently
used first; when none can go, the new game is refused with 503 ``{"error": "too many games..."}``.
The kernels are compiled before the server answers (:func:`warm_up`).

The computer's replies share the cores (:class:`ComputerPool`): at most one search per core at a
time, each given what is left of its strength's time shared by the replies wanted at once, so a reply
comes within about its strength's time (3 s at strength 4) however many games are played; under
load the computer thinks less rather than answers later.

Only a browser on the same computer is served: a Host that is not 127.0.0.1 or localhost is refused
(DNS rebinding), and a POST must be JSON from this server's own origin (another site's form or
script cannot play here). Every request the server cannot use gets a 4xx ``{"error": ...}``;
bodies are capped at ``MAX_BODY``, and a client that goes away is not worth a line on stderr.
A request must arrive whole within ``REQUEST_TIMEOUT`` seconds in total (not per read: a client
sending a byte a second is dropped all the same), and at most ``MAX_CONNECTIONS`` connections are
served at once: one more takes the place of the connection that has been sending its request
longest, or when all have sent theirs, is answered 503 at once and closed. An idle server sleeps
(the accept loop wakes twice a second to see whether it is asked to stop).
"""

from __future__ import annotations

import os
import sys
import threading

from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles.baikago import ai
from boardpuzzles.web.computer import PROMISE_SHARE, WEB_TT_BITS, ComputerPool, move_random
from boardpuzzles.web.game import IDLE_DAYS, GameMovedOn, WebGame
from boardpuzzles.web.handler import LOCAL_HOSTS, MAX_BODY, ROUTES, Handler, RequestError, TooManyGames, local_host
from boardpuzzles.web.server import (
    MAX_CONNECTIONS,
    MAX_GAMES,
    MAX_REFUSING,
    REFUSE_SECONDS,
    REQUEST_TIMEOUT,
    WEB_SIZES,
    BaikagoServer,
)
from boardpuzzles.web.store import MEMORY, GameStore

__all__ = [
    "IDLE_DAYS",
    "LOCAL_HOSTS",
    "MAX_BODY",
    "MAX_CONNECTIONS",
    "MAX_GAMES",
    "MAX_REFUSING",
    "PROMISE_SHARE",
    "REFUSE_SECONDS",
    "REQUEST_TIMEOUT",
    "ROUTES",
    "WEB_SIZES",
    "WEB_TT_BITS",
    "BaikagoServer",
    "ComputerPool",
    "GameMovedOn",
    "Handler",
    "RequestError",
    "TooManyGames",
    "WebGame",
    "local_host",
    "make_server",
    "move_random",
    "warm_up",
]


def warm_up() -> None:
    """Compile (or load) the computer player's kernels before the first move (see :func:`ai.warm_up`)."""
    ai.warm_up()


def make_server(
    port: int,
    rules: bk.Rules | None = None,
    request_timeout: float = REQUEST_TIMEOUT,
    warm: bool = True,
    games: str | os.PathLike[str] = MEMORY,
    max_games: int = MAX_GAMES,
    max_connections: int = MAX_CONNECTIONS,
) -> BaikagoServer:
    """A server bound to 127.0.0.1 (port 0: any free port) keeping its games in the SQLite file
    ``games`` (default: in memory, for this run only), its computer player compiled (unless
    ``warm`` is false); call ``serve_forever()``. A game file that cannot be used raises
    :class:`~boardpuzzles.web.store.StoreError`."""
    store = GameStore(games)
    try:
        server = BaikagoServer(
            ("127.0.0.1", port), rules or bk.Rules(), request_timeout, store, max_games, max_connections
        )
    except BaseException:
        store.close()
        raise
    if warm:
        warm_up_for(server)
    return server


def warm_up_for(server: BaikagoServer) -> None:
    """:func:`warm_up` for a server that is about to serve (closed if that fails), saying why
    nothing happens yet only when compiling does take a while."""
    note = threading.Timer(3.0, lambda: print("preparing the computer player...", file=sys.stderr, flush=True))
    note.start()
    try:
        warm_up()
    except BaseException:
        server.server_close()
        raise
    finally:
        note.cancel()
