"""The web server: games kept and stored, connections bounded (:class:`BaikagoServer`)."""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections import OrderedDict
from http.server import ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles.baikago.ai import STRENGTHS
from boardpuzzles.web.baikago_page import render_page
from boardpuzzles.web.computer import ComputerPool
from boardpuzzles.web.game import WebGame
from boardpuzzles.web.handler import LOCAL_HOSTS, GameServer, Handler, TooManyGames
from boardpuzzles.web.store import MEMORY, GameStore

#: Games kept by default (``--max-games``); past them a new game is refused (503).
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
#: Board sizes the page offers (besides the server's own): big enough to play, small enough to see.
WEB_SIZES = (7, 9, 11, 13, 15, 19)


class BaikagoServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the default 5 drops connections a page opens in a burst: they wait a second to retry

    def __init__(
        self,
        address: tuple[str, int],
        rules: bk.Rules,
        request_timeout: float = REQUEST_TIMEOUT,
        store: GameStore | None = None,
        max_games: int = MAX_GAMES,
        max_connections: int = MAX_CONNECTIONS,
        computers: ComputerPool | None = None,
    ) -> None:
        # Before binding: a port that cannot be used closes the server (server_close) at once.
        self.store = store or GameStore(MEMORY)
        super().__init__(address, Handler)
        self.rules = rules
        self.request_timeout = request_timeout
        self.max_games = max_games
        self.max_connections = max_connections
        self.connections = 0
        self.connections_lock = threading.Lock()
        self.refusing = 0  # threads answering 503
        #: The connections still sending their request, and since when.
        self.reading: dict[socket.socket, float] = {}
        self.computers = computers or ComputerPool()
        #: Board sizes a new game may have: the page's choices and the size the server was started with.
        self.sizes = sorted(set(WEB_SIZES) | {rules.size})
        self._rules: dict[tuple[int, int | None, str], bk.Rules] = {}
        self.games: OrderedDict[str, WebGame] = OrderedDict()  # least recently used first
        self.games_lock = threading.Lock()
        self.page = render_page(
            {"size": rules.size, "sizes": self.sizes, "strengths": sorted(STRENGTHS), "rules": rules.describe()}
        ).encode("utf-8")
        self._load()

    def _load(self) -> None:
        """The stored games, back in play (one that no longer replays is dropped, with a line)."""
        for record in self.store.load():
            try:
                game = WebGame.from_record(record, self.rules_for(record.size, record.max_d, record.orientations))
            except BoardPuzzlesError as err:
                sys.stderr.write(f"baikago serve: stored game {record.id[:20]} dropped: {err}\n")
                self.store.delete(record.id)
                continue
            game.save = self.store.save
            self.games[game.id] = game

    def rules_for(self, size: int, max_d: int | None, orientations: str) -> bk.Rules:
        """One rules object (and cross table) per rule set, shared by its games."""
        key = (size, max_d, orientations)
        with self.games_lock:
            if key not in self._rules:
                self._rules[key] = bk.Rules(size, max_d, orientations)
            return self._rules[key]

    @property
    def origins(self) -> set[str]:
        """The origins this server's own page has (a browser sends one of them with a POST)."""
        port = self.server_address[1]
        return {f"http://{host}:{port}" for host in LOCAL_HOSTS}

    def add_game(self, game: WebGame) -> None:
        """Keep a new game (and store it): a finished, left or long idle game makes room for it
        when the server is full, else :class:`TooManyGames`."""
        with self.games_lock:
            while len(self.games) >= self.max_games:
                victim = next((g for g in self.games.values() if g.can_go), None)
                if victim is None:
                    raise TooManyGames(self.max_games)
                del self.games[victim.id]
                victim.save = lambda record: None  # a request still holding it must not store it again
                self.store.delete(victim.id)
            game.save = self.store.save
            self.store.save(game.record())
            self.games[game.id] = game

    def get_game(self, game_id: str) -> WebGame | None:
        with self.games_lock:
            game = self.games.get(game_id)
            if game is not None:
                self.games.move_to_end(game_id)
            return game

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
        sys.stderr.write(f"baikago serve: {type(error).__name__}: {error}\n")


if TYPE_CHECKING:  # mypy checks that this server is what its handler asks for

    def _serves_its_handler(server: BaikagoServer) -> GameServer:
        return server  # an error here: the server lacks what GameServer names
