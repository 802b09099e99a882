"""`boardpuzzles baikago serve`: play Baikago in a browser against the computer.

A standard-library HTTP server on 127.0.0.1. ``GET /`` is one self-contained page
(``web/baikago_page.py``); it talks JSON to

- ``POST /api/new``    ``{"human", "strength", "size", "seed"}`` (each optional): a new game;
- ``POST /api/move``   ``{"game", "point", "ply"}``: the human's stone only, answered at once;
- ``POST /api/reply``  ``{"game"}``: the computer's move, if it is its turn (the slow part);
- ``POST /api/undo``   ``{"game"}``: back to the human's previous turn;
- ``GET /api/state?game=ID``: the game as it stands (a reloaded page finds its game here).

Every answer is the game's state (:meth:`WebGame.state`). Games live in memory, the most
recently used ``MAX_GAMES`` of them, so several tabs can play at once and a reload loses nothing.
The kernels are compiled before the server answers (:func:`warm_up`).

Only a browser on the same computer is served: a Host that is not 127.0.0.1 or localhost is refused
(DNS rebinding), and a POST must be JSON from this server's own origin (another site's form or
script cannot play here). Every request the server cannot use gets a 4xx ``{"error": ...}``;
bodies are capped at ``MAX_BODY``, stalled connections dropped after ``REQUEST_TIMEOUT``, and a
client that goes away is not worth a line on stderr.
"""

from __future__ import annotations

import json
import re
import secrets
import sys
import threading
from collections import OrderedDict
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles.baikago.ai import STRENGTHS, ComputerPlayer
from boardpuzzles.web.baikago_page import render_page

#: At most this many games are kept; starting one more drops the least recently used.
MAX_GAMES = 32
#: Transposition-table size (bits) of a web game's computer: 2^14 entries, about 256 KiB.
WEB_TT_BITS = 14
#: The host names a request may carry (a page elsewhere that rebinds its DNS name to 127.0.0.1
#: still sends its own name).
LOCAL_HOSTS = ("127.0.0.1", "localhost")
#: The largest request body read (a move is a few dozen bytes); a larger one gets 413 unread.
MAX_BODY = 64 * 1024
#: Seconds a connection may stall, sending or receiving, before it is dropped.
REQUEST_TIMEOUT = 10.0
#: Board sizes the page offers (besides the server's own): big enough to play, small enough to see.
WEB_SIZES = (7, 9, 11, 13, 15, 19)


class GameMovedOn(BoardPuzzlesError):
    """A request for a position the game has left (another tab played, a double click): 409."""


class WebGame:
    """One game: the position, the human's colour, the computer player and its settings.

    The human's move and the computer's reply are separate requests, so the page shows the
    human's stone at once and the computer's when it comes. ``lock`` guards the position and is
    held only to read or change it; ``thinking`` is held while the computer searches, outside
    ``lock``, so the game's state can be read meanwhile. ``version`` counts changes: a reply
    searched for a position that an undo has since left is dropped.
    """

    def __init__(self, rules: bk.Rules, human: bk.Colour, strength: int, seed: int | None = None) -> None:
        self.id = secrets.token_hex(8)
        self.position = bk.Position(rules)
        self.human = human
        self.strength = strength
        self.computer = ComputerPlayer(rules, strength, seed=seed, tt_bits=WEB_TT_BITS)
        self.lock = threading.Lock()
        self.thinking = threading.Lock()
        self.version = 0

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
            self.version += 1

    def reply(self) -> None:
        """The computer's move, if it is the computer's turn (asked twice, it moves once)."""
        with self.thinking:
            with self.lock:
                p = self.position
                if p.is_game_over() or p.turn == self.human:
                    return
                board, turn, version = list(p.board), p.turn, self.version
            choice = self.computer.choose(board, turn)
            with self.lock:
                if self.version == version:
                    p.make(choice.move)
                    self.version += 1

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
            self.version += 1

    def state(self) -> dict:
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


class RequestError(Exception):
    """A request this server refuses: the HTTP status and a one-line reason for ``{"error": ...}``."""

    def __init__(self, status: HTTPStatus, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


class BaikagoServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the default 5 drops connections a page opens in a burst: they wait a second to retry

    def __init__(self, address: tuple[str, int], rules: bk.Rules, request_timeout: float = REQUEST_TIMEOUT) -> None:
        super().__init__(address, Handler)
        self.rules = rules
        self.request_timeout = request_timeout
        #: Board sizes a new game may have: the page's choices and the size the server was started with.
        self.sizes = sorted(set(WEB_SIZES) | {rules.size})
        self.games: OrderedDict[str, WebGame] = OrderedDict()  # least recently used first
        self.games_lock = threading.Lock()
        self.page = render_page(
            {"size": rules.size, "sizes": self.sizes, "strengths": sorted(STRENGTHS), "rules": rules.describe()}
        ).encode("utf-8")

    @property
    def origins(self) -> set[str]:
        """The origins this server's own page has (a browser sends one of them with a POST)."""
        port = self.server_address[1]
        return {f"http://{host}:{port}" for host in LOCAL_HOSTS}

    def add_game(self, game: WebGame) -> None:
        with self.games_lock:
            self.games[game.id] = game
            while len(self.games) > MAX_GAMES:
                self.games.popitem(last=False)

    def get_game(self, game_id: str) -> WebGame | None:
        with self.games_lock:
            game = self.games.get(game_id)
            if game is not None:
                self.games.move_to_end(game_id)
            return game

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away (reset, broken pipe, timed out) is no news: say nothing. Anything
        else is a bug in this module: one line, never a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, OSError):
            return
        sys.stderr.write(f"baikago serve: {type(error).__name__}: {error}\n")


def local_host(host: str | None) -> bool:
    """Whether a Host header names the local computer: 127.0.0.1 or localhost, with or without a port."""
    if not host:
        return False
    name, colon, port = host.strip().rpartition(":")
    if not colon:
        name, port = port, ""
    elif not port.isdigit():
        return False
    return name.lower() in LOCAL_HOSTS


#: Paths and the methods each answers; any other method there is 405, any other path 404.
ROUTES = {
    "/": ("GET", "HEAD"),
    "/index.html": ("GET", "HEAD"),
    "/api/state": ("GET", "HEAD"),
    "/api/new": ("POST",),
    "/api/move": ("POST",),
    "/api/reply": ("POST",),
    "/api/undo": ("POST",),
}


class Handler(BaseHTTPRequestHandler):
    server: BaikagoServer

    def version_string(self) -> str:  # no Python version in the Server header
        return "boardpuzzles"

    def setup(self) -> None:
        # A client that sends part of a request and then nothing must not hold a thread for ever:
        # every read and write on the socket gives up after this many seconds.
        self.timeout = self.server.request_timeout  # type: ignore[misc]  # per connection, as socketserver reads it
        self.body_read = False
        super().setup()

    def finish(self) -> None:
        # A socket closed with bytes still unread is reset by the kernel, and the client may lose
        # the answer it was about to read: take in (and drop) the body of a refused POST first.
        if self.command == "POST" and not self.body_read:
            self._drop_body()
        super().finish()

    def _drop_body(self) -> None:
        headers = getattr(self, "headers", None)  # absent when the headers themselves were refused
        text = (headers.get("Content-Length") or "").strip() if headers else ""
        try:
            if text.isascii() and text.isdigit() and int(text) <= MAX_BODY:
                self.rfile.read(int(text))
            else:  # a length we will not read: what has already come, for a moment, and at most 1 MiB
                self.connection.settimeout(0.2)
                for _ in range(16):
                    if not self.connection.recv(65536):
                        break
        except OSError:
            pass

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the terminal shows only the address
        pass

    def do_GET(self) -> None:
        self._answer()

    def do_HEAD(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self._answer()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The base class's own refusals (a garbled request line, too many headers, a method it has
        no ``do_`` for) in the same JSON as ours; an unknown method is 405, not 501."""
        headers = {}
        if code == HTTPStatus.NOT_IMPLEMENTED:
            code, message = HTTPStatus.METHOD_NOT_ALLOWED, f"method {self.command} is not served here"
            headers["Allow"] = "GET, HEAD, POST"
        if self.request_version == "HTTP/0.9":  # a garbled request line: answer with a status line all the same
            self.request_version = "HTTP/1.0"
        self.close_connection = True
        self._json(HTTPStatus(code), {"error": message or HTTPStatus(code).phrase}, headers)

    # ---------------------------------------------------------------- dispatch
    def _answer(self) -> None:
        try:
            self._route()
        except RequestError as err:
            self._json(err.status, {"error": err.message}, err.headers)
        except GameMovedOn as err:
            self._json(HTTPStatus.CONFLICT, {"error": str(err)})
        except BoardPuzzlesError as err:
            self._json(HTTPStatus.BAD_REQUEST, {"error": str(err)})
        except TimeoutError:
            self.close_connection = True
            try:
                self._json(HTTPStatus.REQUEST_TIMEOUT, {"error": "the request was not sent in time"})
            except OSError:
                pass  # it has gone
        except OSError:
            raise  # the client went away: the server drops the connection quietly
        except Exception as err:  # a bug here must still answer, and say one line, not a traceback
            sys.stderr.write(f"baikago serve: {self.command} {self.path[:80]}: {type(err).__name__}: {err}\n")
            self._json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": f"internal error: {type(err).__name__}"})

    def _route(self) -> None:
        if not local_host(self.headers.get("Host")):
            # A page elsewhere that rebinds its DNS name to 127.0.0.1 still sends its own name.
            raise RequestError(HTTPStatus.FORBIDDEN, "this server answers only 127.0.0.1 and localhost")
        url = urlparse(self.path)
        methods = ROUTES.get(url.path)
        if methods is None:
            raise RequestError(HTTPStatus.NOT_FOUND, f"no page {url.path[:80]}")
        if self.command not in methods:
            raise RequestError(
                HTTPStatus.METHOD_NOT_ALLOWED,
                f"{url.path} answers {' and '.join(methods)}, not {self.command}",
                {"Allow": ", ".join(methods)},
            )
        if self.command == "POST":
            self._post(url.path, self._body())
        elif url.path == "/api/state":
            self._json(HTTPStatus.OK, self._game(parse_qs(url.query).get("game", [""])[0]).state())
        else:
            self._send(HTTPStatus.OK, self.server.page, "text/html; charset=utf-8")

    def _body(self) -> dict:
        """The JSON object a POST carries, read only from this server's own page or a local client."""
        origin = self.headers.get("Origin")
        # Another site's page can POST here (a form, or fetch without reading the answer); the
        # browser always names that page's origin, and a cross-site fetch cannot send JSON's
        # content type without a preflight, which this server never grants.
        if origin is not None and origin.lower() not in self.server.origins:
            raise RequestError(HTTPStatus.FORBIDDEN, "requests from other web pages are refused")
        if self.headers.get_content_type() != "application/json":
            raise RequestError(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send JSON, with Content-Type: application/json")
        if "Transfer-Encoding" in self.headers:
            self.close_connection = True
            raise RequestError(HTTPStatus.LENGTH_REQUIRED, "send the body with a Content-Length, not chunked")
        lengths = self.headers.get_all("Content-Length") or ["0"]
        if len(lengths) > 1 or not re.fullmatch(r"[0-9]{1,18}", lengths[0].strip()):
            self.close_connection = True
            raise RequestError(HTTPStatus.BAD_REQUEST, "Content-Length must be one whole number of bytes")
        length = int(lengths[0])
        if length > MAX_BODY:
            self.close_connection = True  # the body is never read: nothing else can follow on it
            raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"the body is over {MAX_BODY // 1024} KiB")
        raw = self.rfile.read(length)
        self.body_read = True
        if len(raw) < length:
            self.close_connection = True
            raise RequestError(HTTPStatus.BAD_REQUEST, "the body is shorter than its Content-Length")
        try:
            body = json.loads(raw) if raw.strip() else {}
        except (ValueError, RecursionError) as err:  # RecursionError: nesting too deep to parse
            raise RequestError(HTTPStatus.BAD_REQUEST, f"bad JSON: {str(err)[:100]}") from None
        if not isinstance(body, dict):
            raise RequestError(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
        return body

    def _post(self, path: str, body: dict) -> None:
        if path == "/api/new":
            game = self._new_game(body)
            self.server.add_game(game)
            self._json(HTTPStatus.OK, game.state())
            return
        game_id, point, ply = body.get("game", ""), body.get("point", ""), body.get("ply")
        if not isinstance(game_id, str) or not isinstance(point, str):
            raise BoardPuzzlesError("game and point are strings")
        if ply is not None and type(ply) is not int:
            raise BoardPuzzlesError("ply is the number of moves played, a whole number")
        game = self._game(game_id)
        if path == "/api/move":
            if len(point) > 8:  # no board has longer names; a long one is garbage, not a point
                raise bk.IllegalMoveError(f"{point[:12]!r}... is not a point")
            game.move(point, ply)
        elif path == "/api/reply":
            game.reply()
        else:
            game.undo()
        self._json(HTTPStatus.OK, game.state())

    def _new_game(self, body: dict) -> WebGame:
        """A game from ``{"human": "black"|"white", "strength": 1-4, "size": N, "seed": S}``, each
        optional; the size is one the page offers, with the server's crosses (max d, orientations)."""
        human_name = body.get("human", "black")
        strength = body.get("strength", 2)
        human = {"black": bk.BLACK, "white": bk.WHITE}.get(human_name) if isinstance(human_name, str) else None
        # bool is an int: true is not a strength
        if human is None or type(strength) is not int or strength not in STRENGTHS:
            raise BoardPuzzlesError('human is "black" or "white"; strength one of ' + ", ".join(map(str, STRENGTHS)))
        rules = self.server.rules
        size = body.get("size", rules.size)
        if type(size) is not int or size not in self.server.sizes:
            raise BoardPuzzlesError(f"size is one of {', '.join(map(str, self.server.sizes))}")
        seed = body.get("seed")  # a reproducible game (tests, bug reports)
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**32):
            raise BoardPuzzlesError("seed is a whole number from 0 to 2**32 - 1")
        return WebGame(bk.Rules(size, rules.max_d, rules.orientations), human, strength, seed)

    def _game(self, game_id: str) -> WebGame:
        game = self.server.get_game(game_id)
        if game is None:
            raise RequestError(HTTPStatus.NOT_FOUND, f"no game {game_id[:40]!r}: start a new one")
        return game

    def _json(self, status: HTTPStatus, document: dict, headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(document).encode("utf-8"), "application/json", headers)

    def _send(self, status: HTTPStatus, body: bytes, kind: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def warm_up() -> None:
    """Compile the computer player's kernels: numba compiles on first use (about half a minute on
    a fresh install, a fraction of a second from the disk cache after), which would otherwise
    fall on the human's first move. A small game reaches every kernel the player calls."""
    rules = bk.Rules(7)
    position = bk.Position(rules)
    for name in ("d4", "c3", "e4", "c5"):
        position.make_named(name)
    # Strength 2 runs the threat search (VCF) as well as alpha-beta; strength 1 skips it.
    ComputerPlayer(rules, strength=2, seed=0, tt_bits=10).choose_for(position)


def make_server(
    port: int, rules: bk.Rules | None = None, request_timeout: float = REQUEST_TIMEOUT, warm: bool = True
) -> BaikagoServer:
    """A server bound to 127.0.0.1 (port 0: any free port), its computer player compiled (unless
    ``warm`` is false); call ``serve_forever()``."""
    server = BaikagoServer(("127.0.0.1", port), rules or bk.Rules(), request_timeout)
    if warm:
        # Say why nothing happens yet only when compiling does take a while.
        note = threading.Timer(3.0, lambda: print("preparing the computer player...", file=sys.stderr, flush=True))
        note.start()
        try:
            warm_up()
        except BaseException:
            server.server_close()
            raise
        finally:
            note.cancel()
    return server
