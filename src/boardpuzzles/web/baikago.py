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

import io
import json
import os
import random
import re
import secrets
import socket
import sys
import threading
import time
from collections import OrderedDict
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import STOP_TIME, Limits
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles.baikago import ai
from boardpuzzles.puzzles.baikago.ai import MIN_SECONDS, SAFETY_SHARE, STRENGTHS, Choice, ComputerPlayer
from boardpuzzles.web.baikago_page import render_page
from boardpuzzles.web.store import MEMORY, GameStore, Record

#: Games kept by default (``--max-games``); past them a new game is refused (503).
MAX_GAMES = 1000
#: A game untouched this many days may make room for a new one.
IDLE_DAYS = 7
#: Connections served at once (each has a thread); one more takes the place of the one sending
#: its request longest, or when all have sent theirs, is answered 503 and closed.
MAX_CONNECTIONS = 400
#: Transposition-table size (bits) of a web game's computer: 2^14 entries, about 256 KiB.
WEB_TT_BITS = 14
#: The host names a request may carry (a page elsewhere that rebinds its DNS name to 127.0.0.1
#: still sends its own name).
LOCAL_HOSTS = ("127.0.0.1", "localhost")
#: The largest request body read (a move is a few dozen bytes); a larger one gets 413 unread.
MAX_BODY = 64 * 1024
#: Connections refused with a 503 at once, and how long each may take to send its request first.
MAX_REFUSING = 16
REFUSE_SECONDS = 0.5
#: Seconds a request may take to arrive whole, from the moment its connection is taken up; a
#: write that stalls this long is dropped too.
REQUEST_TIMEOUT = 10.0
#: The share of its strength's time a reply may spend waiting and thinking.
PROMISE_SHARE = 0.75
#: Board sizes the page offers (besides the server's own): big enough to play, small enough to see.
WEB_SIZES = (7, 9, 11, 13, 15, 19)


class GameMovedOn(BoardPuzzlesError):
    """A request for a position the game has left (another tab played, a double click): 409."""


def move_random(seed: int | None, ply: int) -> random.Random:
    """The random choices (ties between equal moves) of the computer's move at ``ply`` of a game
    with ``seed``: the same whenever that move is asked for, after a restart too (no seed: fresh)."""
    return random.Random(f"{seed}:{ply}") if seed is not None else random.Random()


class ComputerPool:
    """The computer's replies of every game, sharing the cores: at most ``workers`` searches at
    once (the kernels release the GIL, so one per core keeps them all busy), the rest wait their
    turn in order. Each reply gets what is left of its strength's time since it was asked for,
    shrunk to its share (workers over the replies wanted at once); when more replies are asked
    for, the searches already running are cut to their new share too. So a reply comes within
    about its strength's time: under load the computer thinks less, it does not answer later."""

    def __init__(self, workers: int | None = None) -> None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        self.workers = workers or cores or 1
        self.slots = threading.Semaphore(self.workers)
        self.lock = threading.Lock()
        self.wanted = 0  # replies asked for and not yet answered
        self.running: set[Limits] = set()  # the limits of the searches under way

    def _share(self, seconds: float) -> float:
        """``seconds`` cut to one reply's share of the workers (call with ``lock`` held)."""
        return seconds * self.workers / max(self.workers, self.wanted)

    def _start(self, strength: int, asked: float) -> Limits:
        """The limits of a reply asked for at ``asked`` (``time.monotonic()``) that starts now,
        counted as running: what is left of ``PROMISE_SHARE`` of the strength's time (the rest
        is kept for the move's last safety check, the request and the answer), shared with the
        replies waiting behind it, whose time runs out no sooner."""
        left = PROMISE_SHARE * STRENGTHS[strength].seconds - (time.monotonic() - asked)
        with self.lock:
            limits = Limits(max(MIN_SECONDS, self._share(left) / (1 + SAFETY_SHARE)), force=False)
            self.running.add(limits)
        return limits

    def _cut_running(self) -> None:
        """One more reply is wanted: each running search stops at its new share (lock held)."""
        now = time.monotonic()
        for limits in self.running:
            end = limits.started + self._share(limits.time_limit or 0.0)
            if limits.deadline is not None and end < limits.deadline:
                if end <= now:
                    limits.stop(STOP_TIME)
                else:
                    timer = threading.Timer(end - now, limits.stop, (STOP_TIME,))
                    timer.daemon = True
                    timer.start()

    def choose(self, rules: bk.Rules, strength: int, seed: int | None, board: list[int], turn: bk.Colour) -> Choice:
        asked = time.monotonic()
        with self.lock:
            self.wanted += 1
            self._cut_running()
        try:
            with self.slots:
                limits = self._start(strength, asked)
                try:
                    player = ComputerPlayer(rules, strength, limits.time_limit, tt_bits=WEB_TT_BITS)
                    player.random = move_random(seed, sum(1 for p in board if p))
                    return player.choose(board, turn, limits)
                finally:
                    with self.lock:
                        self.running.discard(limits)
                    limits.close()
        finally:
            with self.lock:
                self.wanted -= 1


class WebGame:
    """One game: the position, the human's colour, the computer's strength and seed.

    The human's move and the computer's reply are separate requests, so the page shows the
    human's stone at once and the computer's when it comes. ``lock`` guards the position and is
    held only to read or change it (and to store the change); ``thinking`` is held while the
    computer searches, outside ``lock``, so the game's state can be read meanwhile. ``version``
    counts changes: a reply searched for a position that an undo has since left is dropped.
    ``save`` is called with the game's record after every change (the server's store).
    """

    def __init__(
        self,
        rules: bk.Rules,
        human: bk.Colour,
        strength: int,
        seed: int | None = None,
        game_id: str | None = None,
    ) -> None:
        self.id = game_id or secrets.token_hex(8)
        self.position = bk.Position(rules)
        self.human = human
        self.strength = strength
        self.seed = seed
        self.lock = threading.Lock()
        self.thinking = threading.Lock()
        self.version = 0
        self.touched = time.time()
        self.left = False  # the page that played it started another game
        self.save: Any = lambda record: None

    @classmethod
    def from_record(cls, record: Record, rules: bk.Rules) -> WebGame:
        game = cls(rules, record.human, record.strength, record.seed, record.id)
        for name in record.moves:
            game.position.make_named(name)
        game.touched, game.left = record.touched, record.left
        return game

    def record(self) -> Record:
        """The game as stored (call with ``lock`` held, or before the game is shared)."""
        p = self.position
        return Record(
            self.id,
            p.rules.size,
            p.rules.max_d,
            p.rules.orientations,
            self.human,
            self.strength,
            self.seed,
            [p.grid.name(m) for m in p.move_stack],
            self.touched,
            p.is_game_over(),
            self.left,
        )

    def _changed(self) -> None:
        self.version += 1
        self.touched = time.time()
        self.save(self.record())

    @property
    def can_go(self) -> bool:
        """Whether the game may make room for a new one: over, left, or untouched for IDLE_DAYS."""
        return self.left or self.position.is_game_over() or time.time() - self.touched > IDLE_DAYS * 86400

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
            self._changed()

    def reply(self, computers: ComputerPool) -> None:
        """The computer's move, if it is the computer's turn (asked twice, it moves once)."""
        with self.thinking:
            with self.lock:
                p = self.position
                if p.is_game_over() or p.turn == self.human:
                    return
                board, turn, version = list(p.board), p.turn, self.version
            choice = computers.choose(p.rules, self.strength, self.seed, board, turn)
            with self.lock:
                if self.version == version:
                    p.make(choice.move)
                    self._changed()

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
            self._changed()

    def leave(self) -> None:
        """The page started another game: this one may make room first (it stays readable)."""
        with self.lock:
            if not self.left:
                self.left = True
                self.save(self.record())

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


class TooManyGames(RequestError):
    def __init__(self, limit: int) -> None:
        super().__init__(
            HTTPStatus.SERVICE_UNAVAILABLE,
            f"too many games: the server keeps {limit} and none of them has finished or been left; "
            "finish one, or try again later",
            {"Retry-After": "60"},
        )


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
        self.store = store or GameStore(MEMORY)
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
        return connection.recv_into(buffer)


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

    def _post(self, path: str, body: dict) -> None:
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
        return WebGame(self.server.rules_for(size, rules.max_d, rules.orientations), human, strength, seed)

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
