"""The web server every page of this program runs on (:class:`WebServer`): connections bounded,
Host and Origin checked (:mod:`boardpuzzles.web.hosts`), bodies capped and every refusal a JSON
``{"error": ...}`` (:mod:`boardpuzzles.web.handler`), one game store. It names no game: each
client (a page and its API; :mod:`boardpuzzles.web.app` has two) registers its routes
(:mod:`boardpuzzles.web.routes`) and keeps its games in the store (:mod:`boardpuzzles.web.keeper`).

Lines for whoever runs the server (a stored game dropped, the game file written again, a bug)
go to stderr at once, each prefixed with the command that runs it (``boardpuzzles serve:``).
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from http.server import ThreadingHTTPServer
from typing import Any

from boardpuzzles.web.handler import Handler
from boardpuzzles.web.hosts import HostRules
from boardpuzzles.web.routes import Route, Routes
from boardpuzzles.web.store import GameStore

#: Games kept by default (``--max-games``), by each client of the server.
MAX_GAMES = 1000
#: Connections served at once (each has a thread); one more takes the place of the one sending
#: its request longest, or when all have sent theirs, is answered 503 and closed.
MAX_CONNECTIONS = 400
#: Connections refused with a 503 at once, and how long each may take to send its request first.
MAX_REFUSING = 16
REFUSE_SECONDS = 0.5
#: Seconds a request may take to arrive whole, from the moment its connection is taken up; a
#: write that stalls this long is dropped too.
REQUEST_TIMEOUT = 10.0
#: Seconds between two looks at the game file (deleted or replaced under the server?).
STORE_CHECK_SECONDS = 2.0


class WebServer(ThreadingHTTPServer):
    """The server (see the module docstring). ``name`` is the command that runs it, the prefix of
    its lines on stderr. The store is given before binding, so that a port that cannot be used
    closes it at once (``server_close``)."""

    daemon_threads = True
    request_queue_size = 128  # the default 5 drops connections a page opens in a burst: they wait a second to retry

    def __init__(
        self,
        address: tuple[str, int],
        store: GameStore,
        name: str = "boardpuzzles serve",
        request_timeout: float = REQUEST_TIMEOUT,
        max_connections: int = MAX_CONNECTIONS,
    ) -> None:
        self.store = store
        self.name = name
        store.note = self.note
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, Handler)
        self.hosts = HostRules(address[0], self.server_address[1])
        self.routes = Routes()
        self.request_timeout = request_timeout
        self.max_connections = max_connections
        self.connections = 0
        self.connections_lock = threading.Lock()
        self.refusing = 0  # threads answering 503
        #: The connections still sending their request, and since when.
        self.reading: dict[socket.socket, float] = {}
        self._noted: set[str] = set()
        self._store_checked = time.monotonic()

    def not_found_page(self, reason: str) -> bytes:
        """The page a browser gets for an address with no page (``reason``: what was not found)."""
        from boardpuzzles.web.not_found import not_found_page

        return not_found_page(reason, ("/", "Go to the front page"))

    def add_routes(self, *routes: Route) -> None:
        """A client's routes (a path claimed twice is a bug: ValueError)."""
        self.routes.add(*routes)

    # ---------------------------------------------------------------- hosts and lines
    @property
    def host_names(self) -> str:
        return self.hosts.described

    def accepts_host(self, host: str | None) -> bool:
        return self.hosts.accepts_host(host)

    def accepts_origin(self, origin: str) -> bool:
        return self.hosts.accepts_origin(origin)

    def shared_at(self, host: str | None) -> str | None:
        return self.hosts.shared_at(host)

    def note(self, line: str) -> None:
        """One line on stderr, at once (a server's stderr is often a file or a pipe)."""
        try:
            sys.stderr.write(f"{self.name}: {line}\n")
            sys.stderr.flush()
        except (OSError, ValueError):  # nowhere to say it: serving goes on
            pass

    def note_once(self, line: str) -> None:
        """:meth:`note`, once per distinct line (a full disk refuses every request alike)."""
        if line not in self._noted:
            self._noted.add(line)
            self.note(line)

    def service_actions(self) -> None:
        """Between requests, and twice a second when idle: a look at the game file now and then."""
        super().service_actions()
        now = time.monotonic()
        if now - self._store_checked >= STORE_CHECK_SECONDS:
            self._store_checked = now
            self.store.check()

    def server_close(self) -> None:
        super().server_close()
        self.store.close()

    # ---------------------------------------------------------------- connections
    def process_request(self, request: Any, client_address: Any) -> None:
        """A thread for the connection. When ``max_connections`` are served already, the one
        that has been sending its request longest is closed to make room (a client that sends
        slowly loses its place to one that sends at once); when every one has sent its request
        (the computer thinks for them), the new one gets a 503 at once and is closed."""
        with self.connections_lock:
            victim = None
            if self.connections >= self.max_connections and self.reading:
                victim = min(self.reading, key=self.reading.__getitem__)
                del self.reading[victim]
            full = victim is None and self.connections >= self.max_connections
            if not full:
                self.connections += 1
                self.reading[request] = time.monotonic()
        if victim is not None:
            try:
                victim.shutdown(socket.SHUT_RDWR)  # its thread's read ends, and the thread with it
            except OSError:
                pass
        if full:
            self._refuse(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            with self.connections_lock:
                self.connections -= 1
                self.reading.pop(request, None)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self.connections_lock:
                self.connections -= 1
                self.reading.pop(request, None)

    def request_read(self, request: Any) -> None:
        """The connection has sent its whole request: it no longer gives way to new ones."""
        with self.connections_lock:
            self.reading.pop(request, None)

    def _refuse(self, request: socket.socket) -> None:
        """503 and close, in a short thread of its own (at most ``MAX_REFUSING`` at once; past
        them the connection is just closed): the request is read first, for at most
        ``REFUSE_SECONDS``, as a close with bytes unread would reset the connection and lose
        the answer."""
        with self.connections_lock:
            spare = self.refusing < MAX_REFUSING
            self.refusing += spare
        if not spare:
            self.shutdown_request(request)
            return
        threading.Thread(target=self._refuse_now, args=(request,), daemon=True).start()

    def _refuse_now(self, request: socket.socket) -> None:
        body = json.dumps({"error": f"the server is busy ({self.max_connections} connections): try again"}).encode()
        head = (
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n"
        )
        try:
            end = time.monotonic() + REFUSE_SECONDS
            seen = b""
            while b"\r\n\r\n" not in seen and time.monotonic() < end:
                request.settimeout(max(0.01, end - time.monotonic()))
                chunk = request.recv(65536)
                if not chunk:
                    break
                seen = seen[-3:] + chunk
            request.sendall(head.encode("ascii") + body)
        except OSError:
            pass
        finally:
            self.shutdown_request(request)
            with self.connections_lock:
                self.refusing -= 1

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away (reset, broken pipe, timed out) is no news: say nothing. Anything
        else is a bug in this module: one line, never a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, OSError):
            return
        self.note(f"{type(error).__name__}: {error}")
