"""The web server's request handler: a request read whole by its deadline, its Host and Origin
checked, its body capped, handed to the route a client registered (:mod:`boardpuzzles.web.routes`),
and every answer and refusal as JSON, but one: a browser that asks for a page the server does not
have (a GET for HTML, outside ``/api/``) gets the server's "not found" page. It names no game."""

from __future__ import annotations

import io
import json
import re
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlparse

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.web.routes import Page, Request, RequestError, refuse_methods
from boardpuzzles.web.store import StoreFailed

if TYPE_CHECKING:
    from boardpuzzles.web.server import WebServer

#: The largest request body read (a move is a few dozen bytes); a larger one gets 413 unread.
MAX_BODY = 64 * 1024


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


class Handler(BaseHTTPRequestHandler):
    server: WebServer
    #: An answer leaves in one write (headers and body together; the connection is flushed after
    #: each request), and at once: no small packet waits for the client's acknowledgement.
    wbufsize = 64 * 1024
    disable_nagle_algorithm = True

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
            if err.status == HTTPStatus.NOT_FOUND and self._wants_page():
                page = self.server.not_found_page(err.message)
                self._send(err.status, page, "text/html; charset=utf-8", err.headers)
            else:
                self._json(err.status, {"error": err.message}, err.headers)
        except StoreFailed as err:
            self.server.note_once(str(err))
            self._json(HTTPStatus.SERVICE_UNAVAILABLE, {"error": str(err)}, {"Retry-After": "10"})
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
            self.server.note(f"{self.command} {self.path[:80]}: {type(err).__name__}: {err}")
            self._json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": f"internal error: {type(err).__name__}"})

    def _wants_page(self) -> bool:
        """Whether the request is a browser's, for a page: a GET (or HEAD) outside the API that
        accepts HTML (a browser's address bar and links say so; ``fetch`` and ``curl`` do not)."""
        accept = self.headers.get("Accept") or ""
        return (
            self.command in ("GET", "HEAD")
            and not urlparse(self.path).path.startswith("/api/")
            and "text/html" in accept.lower()
        )

    def _route(self) -> None:
        host = self.headers.get("Host")
        if not self.server.accepts_host(host):
            # A page elsewhere that rebinds its DNS name to this server's address still sends its own name.
            raise RequestError(HTTPStatus.FORBIDDEN, f"this server answers only {self.server.host_names}")
        url = urlparse(self.path)
        found = self.server.routes.find(url.path)
        if found is None:
            raise RequestError(HTTPStatus.NOT_FOUND, f"no page {url.path[:80]}")
        route, groups = found
        if self.command not in route.methods:
            raise refuse_methods(url.path, route.methods, self.command)
        body = self._body() if self.command == "POST" else {}
        request = Request(
            self.command,
            url.path,
            parse_qs(url.query),
            groups,
            body,
            str(self.client_address[0]) if self.client_address else "",
            self.server.shared_at(host),
        )
        answer = route.action(request)
        if isinstance(answer, Page):
            self._send(HTTPStatus.OK, answer.body, answer.kind)
        else:
            self._json(HTTPStatus.OK, answer)

    def _body(self) -> dict[str, Any]:
        """The JSON object a POST carries, read only from this server's own pages or a local client."""
        origin = self.headers.get("Origin")
        # Another site's page can POST here (a form, or fetch without reading the answer); the
        # browser always names that page's origin, and a cross-site fetch cannot send JSON's
        # content type without a preflight, which this server never grants.
        if origin is not None and not self.server.accepts_origin(origin):
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
