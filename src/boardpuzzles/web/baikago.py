"""Baikago in a web browser against the computer: one client of the web server
(:class:`BaikagoClient`), and `boardpuzzles baikago serve`, the server with this client alone
(:func:`make_server`).

Its page (``web/baikago_page.py``; at ``/`` under ``baikago serve``, at ``/baikago`` under
``boardpuzzles serve``) talks JSON to

- ``POST /api/new``    ``{"human", "strength", "size", "seed", "aids", "replaces"}`` (each
  optional): a new game (``aids``: true to show the position's value from the start, as the game
  the page leaves did; ``replaces``: the id of that game);
- ``POST /api/move``   ``{"game", "point", "ply", "history"}``: the human's stone only, answered at once;
- ``POST /api/reply``  ``{"game"}``: the computer's move, if it is its turn (the slow part);
- ``POST /api/undo``   ``{"game", "ply", "history"}``: back to the human's previous turn (their last move and
  the computer's reply to it; nothing before the human's first move);
- ``POST /api/redo``   ``{"game", "ply", "history"}``: the moves undone played again, up to the
  human's next turn; a new move clears what could be redone (in a move, an undo and a redo,
  ``ply`` and ``history`` are optional: the number of moves the page saw, and the state's
  ``"history"`` token of the moves and the moves undone it showed; only the token sees another
  tab undo, play and undo again);
- ``POST /api/aids``   ``{"game", "on": true|false}``: show the value of the position, or not (an
  aid that gives the game away, off unless asked for, as on the puzzles' play pages; kept with
  the game);
- ``GET /api/state?game=ID``: the game as it stands (a reloaded page finds its game here).

What the rules refuse (a point taken or off the board, a move after the end, nothing to redo) is
answered 400 with the reason, as a malformed request is; a move, an undo or a redo whose ``ply``
or ``history`` the game has left (another tab played) is 409. With ``"refusal": "state"`` in the body of a move,
an undo or a redo, a refusal by the rules is answered 200 instead, with the game's state,
unchanged, and ``"refused": the reason`` (the page asks for that: a browser logs every 4xx answer
as an error; see :mod:`boardpuzzles.web.routes`); any other value than "state" or "status" is a
400. So is a request for a position the game has left, with the game as it stands now and
``"moved_on": true``. The page's other requests (the computer's move, the aids, a new game, the
state) refuse nothing of the kind: each answers with the game as it stands.

Every answer is the game's state (:meth:`WebGame.state`: ``"can_undo"`` and ``"can_redo"`` say
whether undo and redo would change it; ``"aids"`` whether the value is shown), with ``"value"``:
with the aids on, on a solved board (3x3 to 7x7 and 9x9 to 15x15) what perfect play gives from
the position, ``"draw"``, ``"black wins"`` or ``"white wins"`` (:func:`position_value`); null
with the aids off, on other boards, once the game is over, and where a short search does not
settle it (the move's own answer only reuses a value already known).

Every game is kept, in memory and in the server's store (the ``games`` table, with its moves
undone), so several tabs can play at once and neither a reload nor a restart of the server loses
a game or what redo would play; at most
``max_games`` are kept, and a new game always gets a place (:mod:`boardpuzzles.web.keeper`). A
move the store cannot save is answered 503 and not played. The kernels are compiled before the
server answers (:func:`warm_up`).

The computer's replies share the cores (:class:`ComputerPool`): at most one search per core at a
time, each given what is left of its strength's time shared by the replies wanted at once, so a
reply comes within about its strength's time (3 s at strength 4) however many games are played;
under load the computer thinks less rather than answers later.

What every page of the server shares (Host and Origin checks, bodies capped, a request's
deadline, connections bounded, JSON errors) is the server's (:mod:`boardpuzzles.web.server`).
"""

from __future__ import annotations

import os
import sys
import threading
from collections import OrderedDict
from http import HTTPStatus
from typing import Any

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles.baikago import ai
from boardpuzzles.puzzles.baikago.ai import STRENGTHS
from boardpuzzles.web.computer import PROMISE_SHARE, WEB_TT_BITS, ComputerPool, move_random
from boardpuzzles.web.game import IDLE_DAYS, SCHEMA, TABLE, WebGame, load_records
from boardpuzzles.web.handler import MAX_BODY
from boardpuzzles.web.hosts import LOCAL_HOSTS
from boardpuzzles.web.keeper import GameKeeper
from boardpuzzles.web.routes import (
    GameMovedOn,
    Page,
    Request,
    RequestError,
    Route,
    aids_of,
    history_of,
    refusal_as_state,
)
from boardpuzzles.web.routes import moved_on as moved_on_answer
from boardpuzzles.web.server import (
    MAX_CONNECTIONS,
    MAX_GAMES,
    MAX_REFUSING,
    REFUSE_SECONDS,
    REQUEST_TIMEOUT,
    WebServer,
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
    "WEB_SIZES",
    "WEB_TT_BITS",
    "BaikagoClient",
    "BaikagoServer",
    "ComputerPool",
    "GameMovedOn",
    "RequestError",
    "WebGame",
    "make_server",
    "move_random",
    "warm_up",
]

#: Board sizes the page offers (besides the server's own): big enough to play, small enough to see.
WEB_SIZES = (7, 9, 11, 13, 15, 19)
#: The longest point name of any board; a longer one is garbage, not a point.
MAX_POINT_NAME = 8
#: A position's value on a solved board: at most this many search nodes per side, and seconds.
VALUE_NODES = 20_000
VALUE_SECONDS = 1.0
#: Values kept (positions of every game): a page asks for the same position more than once.
VALUES_KEPT = 4096

_values: OrderedDict[tuple[bk.Rules, tuple[str, ...]], str | None] = OrderedDict()
_values_lock = threading.Lock()


def position_value(rules: bk.Rules, moves: tuple[str, ...], search: bool = True) -> str | None:
    """What perfect play gives after ``moves`` on a solved board: ``"draw"``, ``"black wins"`` or
    ``"white wins"``; None on a board not solved, after the game's end, when the book and a
    search of ``VALUE_NODES`` nodes per side (at most ``VALUE_SECONDS``) leave it open, and, with
    ``search`` false, when it is not known already."""
    from boardpuzzles.puzzles.baikago.perfect import is_solved, solved_value

    key = (rules, moves)
    with _values_lock:
        if key in _values:
            _values.move_to_end(key)
            return _values[key]
    if not search or not is_solved(rules):
        return None
    position = bk.Position(rules)
    for name in moves:
        position.make_named(name)
    value = None
    if not position.is_game_over():
        limits = Limits(VALUE_SECONDS)
        try:
            found = solved_value(rules, list(position.board), limits, VALUE_NODES)
        finally:
            limits.close()
        if found is not None:
            value = found.value if found.value == "draw" else f"{found.value} wins"
    with _values_lock:
        _values[key] = value
        while len(_values) > VALUES_KEPT:
            _values.popitem(last=False)
    return value


def with_value(game: WebGame, search: bool = True) -> dict[str, Any]:
    """The game's state with its position's ``"value"`` (see :func:`position_value`), searched
    for only while the game's aids are on."""
    state = game.state()
    shown = state["aids"] and not state["over"]
    state["value"] = position_value(game.position.rules, tuple(state["moves"]), search) if shown else None
    return state


def refused(game: WebGame, err: BoardPuzzlesError, in_state: bool) -> dict[str, Any]:
    """A move the rules refuse (or one the game has moved on from): the game's state and
    ``"refused"`` when the request asked for the refusal as data (see the module docstring),
    else ``err`` raised again (answered 400)."""
    if not in_state:
        raise err
    return {**with_value(game, search=False), "refused": str(err)}  # unchanged: its value is known


def moved_on(game: WebGame, err: GameMovedOn, in_state: bool) -> dict[str, Any]:
    """A move, undo or redo for a position the game has left (another tab played, a double
    click): the game as it stands now, ``"refused"`` and ``"moved_on": true`` when the request
    asked for the refusal as data, else a 409."""
    return moved_on_answer(with_value(game, search=False), err, in_state)


class BaikagoClient:
    """Baikago's page and API on a :class:`~boardpuzzles.web.server.WebServer` (see the module
    docstring): ``rules`` are the server's own (the default size; the crosses of every game),
    ``home`` adds a link back to the site's front page."""

    def __init__(
        self,
        server: WebServer,
        rules: bk.Rules,
        max_games: int = MAX_GAMES,
        computers: ComputerPool | None = None,
        home: bool = False,
    ) -> None:
        from boardpuzzles.web.baikago_page import render_page

        self.server = server
        self.rules = rules
        self.computers = computers or ComputerPool()
        #: Board sizes a new game may have: the page's choices and the size the server was started with.
        self.sizes = sorted(set(WEB_SIZES) | {rules.size})
        self._rules: dict[tuple[int, int | None, str], bk.Rules] = {}
        self.rules_lock = threading.Lock()
        server.store.ensure(SCHEMA)
        self.games: GameKeeper[WebGame] = GameKeeper(server.store, TABLE, max_games)
        from boardpuzzles.puzzles.baikago.perfect import is_solved

        solved = [n for n in self.sizes if is_solved(self.rules_for(n, rules.max_d, rules.orientations))]
        page = render_page(
            {
                "size": rules.size,
                "sizes": self.sizes,
                "strengths": sorted(STRENGTHS),
                "rules": rules.to_json(),
                "solved": solved,  # the sizes whose positions have a value (the aids)
            }
        ).encode("utf-8")
        if home:  # a way back to the other pages beside its title
            page = page.replace(b"</h1>", b'</h1><a class="home" href="/">all puzzles</a>', 1)
        self.page = page
        self._load()

    def _load(self) -> None:
        """The stored games, back in play (one that no longer replays is dropped, with a line)."""
        games = []
        for record in load_records(self.server.store):
            try:
                games.append(
                    WebGame.from_record(record, self.rules_for(record.size, record.max_d, record.orientations))
                )
            except BoardPuzzlesError as err:
                self.server.note(f"stored game {record.id[:20]} dropped: {err}")
                self.games.forget(record.id)
        self.games.load(games)

    def rules_for(self, size: int, max_d: int | None, orientations: str) -> bk.Rules:
        """One rules object (and cross table) per rule set, shared by its games."""
        key = (size, max_d, orientations)
        with self.rules_lock:
            if key not in self._rules:
                self._rules[key] = bk.Rules(size, max_d, orientations)
            return self._rules[key]

    def routes(self, page: tuple[str, ...] = ("/", "/index.html")) -> list[Route]:
        """The page at the paths ``page``, and the API."""
        return [
            *(Route(path, ("GET",), self.show_page) for path in page),
            Route("/api/state", ("GET",), self.state),
            Route("/api/new", ("POST",), self.new),
            Route("/api/move", ("POST",), self.move),
            Route("/api/reply", ("POST",), self.reply),
            Route("/api/undo", ("POST",), self.undo),
            Route("/api/redo", ("POST",), self.redo),
            Route("/api/aids", ("POST",), self.aids),
        ]

    # ---------------------------------------------------------------- the routes' actions
    def show_page(self, request: Request) -> Page:
        return Page(self.page)

    def state(self, request: Request) -> dict[str, Any]:
        return with_value(self._game(request.param("game")))

    def new(self, request: Request) -> dict[str, Any]:
        body = request.body
        game = self._new_game(body, request.client)
        replaces = body.get("replaces")
        if replaces is not None and not isinstance(replaces, str):
            raise BoardPuzzlesError("replaces is the id of the game the page leaves, a string")
        left = self.games.get(replaces) if replaces else None
        if left is not None:
            left.leave()
        self.games.add(game)
        return with_value(game)

    def move(self, request: Request) -> dict[str, Any]:
        in_state = refusal_as_state(request.body)
        game, point, ply, history = self._move_fields(request.body)
        try:
            if len(point) > MAX_POINT_NAME:
                raise bk.IllegalMoveError(f"{point[:12]!r}... is not a point")
            game.move(point, ply, history)
        except GameMovedOn as err:
            return moved_on(game, err, in_state)
        except bk.IllegalMoveError as err:
            return refused(game, err, in_state)
        return with_value(game, search=False)  # answered at once: the reply's answer brings the value

    def reply(self, request: Request) -> dict[str, Any]:
        game = self._move_fields(request.body)[0]
        game.reply(self.computers)
        return with_value(game)

    def undo(self, request: Request) -> dict[str, Any]:
        return self._step_in_history(request, undo=True)

    def redo(self, request: Request) -> dict[str, Any]:
        return self._step_in_history(request, undo=False)

    def _step_in_history(self, request: Request, undo: bool) -> dict[str, Any]:
        """Undo or redo up to the player's turn, from the game the page shows (if it says so)."""
        in_state = refusal_as_state(request.body)
        game, _, ply, history = self._move_fields(request.body)
        try:
            if undo:
                game.undo(ply, history)
            else:
                game.redo(ply, history)
        except GameMovedOn as err:
            return moved_on(game, err, in_state)
        except bk.IllegalMoveError as err:
            return refused(game, err, in_state)
        return with_value(game)

    def aids(self, request: Request) -> dict[str, Any]:
        game = self._move_fields(request.body)[0]
        game.set_aids(aids_of(request.body))
        return with_value(game)

    def _move_fields(self, body: dict[str, Any]) -> tuple[WebGame, str, int | None, str | None]:
        game_id, point, ply = body.get("game", ""), body.get("point", ""), body.get("ply")
        if not isinstance(game_id, str) or not isinstance(point, str):
            raise BoardPuzzlesError("game and point are strings")
        if ply is not None and type(ply) is not int:
            raise BoardPuzzlesError("ply is the number of moves played, a whole number")
        return self._game(game_id), point, ply, history_of(body)

    def _new_game(self, body: dict[str, Any], client: str) -> WebGame:
        """A game from ``{"human": "black"|"white", "strength": 1-4, "size": N, "seed": S, "aids": B}``, each
        optional; the size is one the page offers, with the server's crosses (max d, orientations)."""
        human_name = body.get("human", "black")
        strength = body.get("strength", 2)
        human = {"black": bk.BLACK, "white": bk.WHITE}.get(human_name) if isinstance(human_name, str) else None
        # bool is an int: true is not a strength
        if human is None or type(strength) is not int or strength not in STRENGTHS:
            raise BoardPuzzlesError('human is "black" or "white"; strength one of ' + ", ".join(map(str, STRENGTHS)))
        size = body.get("size", self.rules.size)
        if type(size) is not int or size not in self.sizes:
            raise BoardPuzzlesError(f"size is one of {', '.join(map(str, self.sizes))}")
        seed = body.get("seed")  # a reproducible game (tests, bug reports)
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**32):
            raise BoardPuzzlesError("seed is a whole number from 0 to 2**32 - 1")
        aids = body.get("aids", False)
        if not isinstance(aids, bool):
            raise BoardPuzzlesError("aids is true or false")
        rules = self.rules_for(size, self.rules.max_d, self.rules.orientations)
        game = WebGame(rules, human, strength, seed, client=client)
        game.aids = aids
        return game

    def _game(self, game_id: str) -> WebGame:
        game = self.games.get(game_id)
        if game is None:
            raise RequestError(HTTPStatus.NOT_FOUND, f"no game {game_id[:40]!r}: start a new one")
        return game


class BaikagoServer(WebServer):
    """The server of ``baikago serve``: Baikago's client alone, its page at ``/``."""

    def __init__(self, address: tuple[str, int], rules: bk.Rules, store: GameStore, **options: Any) -> None:
        max_games = options.pop("max_games", MAX_GAMES)
        super().__init__(address, store, "boardpuzzles baikago serve", **options)
        try:
            self.baikago = BaikagoClient(self, rules, max_games)
            self.add_routes(*self.baikago.routes())
        except BaseException:
            self.server_close()
            raise

    @property
    def computers(self) -> ComputerPool:
        return self.baikago.computers

    @property
    def sizes(self) -> list[int]:
        return self.baikago.sizes


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
    host: str = "127.0.0.1",
) -> BaikagoServer:
    """The server of ``baikago serve`` bound to ``host`` (port 0: any free port) keeping its
    games in the SQLite file ``games`` (default: in memory, for this run only), its computer
    player compiled (unless ``warm`` is false); call ``serve_forever()``. A game file that cannot
    be used raises :class:`~boardpuzzles.web.store.StoreError`."""
    store = GameStore(games)
    try:
        server = BaikagoServer(
            (host, port),
            rules or bk.Rules(),
            store,
            request_timeout=request_timeout,
            max_connections=max_connections,
            max_games=max_games,
        )
    except BaseException:
        store.close()
        raise
    if warm:
        warm_up_for(server)
    return server


def warm_up_for(server: WebServer) -> None:
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
