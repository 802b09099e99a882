"""The web server's request handler: the routes, the JSON answers and refusals, a request's deadline."""

from __future__ import annotations

import io
import json
import re
import sys
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import parse_qs, urlparse

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles.baikago.ai import STRENGTHS
from boardpuzzles.web.game import GameMovedOn, WebGame

if TYPE_CHECKING:
    from boardpuzzles.web.computer import ComputerPool

#: The host names a request may carry (a page elsewhere that rebinds its DNS name to 127.0.0.1
#: still sends its own name).
LOCAL_HOSTS = ("127.0.0.1", "localhost")
#: The largest request body read (a move is a few dozen bytes); a larger one gets 413 unread.
MAX_BODY = 64 * 1024


class RequestError(Exception):
    """A request this server refuses: the HTTP status and a one-line reason for ``{"error": ...}``."""

    def __init__(self, status: HTTPStatus, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


class TooManyGames(RequestError):
    def __init__(self, limit: int) -> None:
        super().__init__(
            HTTPStatus.SERVICE_UNAVAILABLE,
            f"too many games: the server keeps {limit} and none of them has finished or been left; "
            "finish one, or try again later",
            {"Retry-After": "60"},
        )


class _DeadlineReader(io.RawIOBase):
    """The socket as a handler reads it: each read waits at most until the handler's
    ``deadline``, so a request must arrive whole in time however slowly its bytes trickle."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.handler.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request was not sent in time")
        connection = self.handler.connection
        connection.settimeout(left)
        received: int = connection.recv_into(buffer)
        return received


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


class GameServer(Protocol):
    """What a :class:`Handler` asks of its server (:class:`~boardpuzzles.web.server.BaikagoServer`):
    its bounds, its page, its origins, and its games."""

    request_timeout: float
    page: bytes
    rules: bk.Rules
    sizes: list[int]
    computers: ComputerPool

    @property
    def origins(self) -> set[str]: ...

    def request_read(self, request: Any) -> None: ...

    def rules_for(self, size: int, max_d: int | None, orientations: str) -> bk.Rules: ...

    def add_game(self, game: WebGame) -> None: ...

    def get_game(self, game_id: str) -> WebGame | None: ...


class Handler(BaseHTTPRequestHandler):
    server: GameServer  # type: ignore[assignment]  # socketserver's own type is its base class

    def version_string(self) -> str:  # no Python version in the Server header
        return "boardpuzzles"

    def setup(self) -> None:
        # A client that sends part of a request and then nothing (or a byte now and then) must
        # not hold a thread for ever: the request must come whole by its deadline, and a write
        # gives up after the same time.
        self.timeout = self.server.request_timeout  # type: ignore[misc]  # per connection, as socketserver reads it
        self.body_read = False
        self.deadline = time.monotonic() + self.server.request_timeout
        super().setup()
        self.rfile = io.BufferedReader(_DeadlineReader(self))

    def handle_one_request(self) -> None:
        self.deadline = time.monotonic() + self.server.request_timeout
        self.body_read = False
        super().handle_one_request()

    def send_response(self, code: int, message: str | None = None) -> None:
        self.server.request_read(self.connection)
        self.connection.settimeout(self.server.request_timeout)  # writing: the whole time again
        super().send_response(code, message)

    def finish(self) -> None:
        # A socket closed with bytes still unread is reset by the kernel, and the client may lose
        # the answer it was about to read: take in (and drop) the body of a refused POST first.
        # A connection closed before its request line came has no ``command`` at all.
        if getattr(self, "command", None) == "POST" and not self.body_read:
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
        if self.command != "POST":  # a POST is read whole with its body (``_body``)
            self.server.request_read(self.connection)
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

    def _body(self) -> dict[str, Any]:
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
        self.server.request_read(self.connection)
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

    def _post(self, path: str, body: dict[str, Any]) -> None:
        if path == "/api/new":
            game = self._new_game(body)
            replaces = body.get("replaces")
            if replaces is not None and not isinstance(replaces, str):
                raise BoardPuzzlesError("replaces is the id of the game the page leaves, a string")
            left = self.server.get_game(replaces) if replaces else None
            if left is not None:
                left.leave()
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
            game.reply(self.server.computers)
        else:
            game.undo()
        self._json(HTTPStatus.OK, game.state())

    def _new_game(self, body: dict[str, Any]) -> WebGame:
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
        return WebGame(self.server.rules_for(size, rules.max_d, rules.orientations), human, strength, seed)

    def _game(self, game_id: str) -> WebGame:
        game = self.server.get_game(game_id)
        if game is None:
            raise RequestError(HTTPStatus.NOT_FOUND, f"no game {game_id[:40]!r}: start a new one")
        return game

    def _json(self, status: HTTPStatus, document: dict[str, Any], headers: dict[str, str] | None = None) -> None:
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
