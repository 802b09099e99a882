"""`boardpuzzles baikago serve`: play Baikago in a browser against the computer.

A standard-library HTTP server on 127.0.0.1. ``GET /`` is one self-contained page; the page
talks JSON to ``POST /api/new``, ``/api/move``, ``/api/undo`` and ``GET /api/state?game=ID``.
Games live in memory, one per id, so several tabs can play at once.

Only this machine's browser is served: a Host that is not 127.0.0.1 or localhost is refused
(DNS rebinding), and a POST must be JSON from this server's own origin (another site's form or
script cannot play here). Every request the server cannot use gets a 4xx ``{"error": ...}``;
bodies are capped at ``MAX_BODY``, stalled connections dropped after ``REQUEST_TIMEOUT``, and a
client that goes away is not worth a line on stderr.
"""

from __future__ import annotations

import json
import secrets
import sys
import threading
from collections import OrderedDict
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles.baikago.ai import STRENGTHS, ComputerPlayer

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


class WebGame:
    """One game: the position, the human's colour and the computer player."""

    def __init__(self, rules: bk.Rules, human: int, strength: int) -> None:
        self.id = secrets.token_hex(6)
        self.position = bk.Position(rules)
        self.human = human
        self.strength = strength
        self.computer = ComputerPlayer(rules, strength, tt_bits=WEB_TT_BITS)
        self.lock = threading.Lock()
        self.reply()

    def reply(self) -> None:
        """The computer moves while it is its turn and the game goes on."""
        if not self.position.is_game_over() and self.position.turn != self.human:
            self.position.make(self.computer.choose_for(self.position).move)

    def move(self, name: str) -> None:
        if self.position.turn != self.human:
            raise bk.IllegalMoveError("it is the computer's turn")
        self.position.make_named(name)
        self.reply()

    def undo(self) -> None:
        """Back to the human's previous turn (the computer's reply and the human's move)."""
        p = self.position
        if not p.move_stack:
            return
        p.unmake()
        while p.move_stack and p.turn != self.human:
            p.unmake()
        self.reply()  # if the computer opened, it plays its opening again

    def state(self) -> dict:
        p = self.position
        outcome = p.outcome()
        grid = p.grid
        return {
            "game": self.id,
            "size": p.rules.size,
            "rules": p.rules.to_json(),
            "rows": p.rows(),
            "human": bk.COLOUR_NAMES[self.human],
            "strength": self.strength,
            "turn": bk.COLOUR_NAMES[p.turn],
            "moves": [grid.name(m) for m in p.move_stack],
            "last": grid.name(p.last_move) if p.last_move is not None else None,
            "over": outcome is not None,
            "winner": bk.COLOUR_NAMES.get(outcome.winner) if outcome else None,
            "result": outcome.describe(grid) if outcome else None,
            "cross": sorted(grid.name(q) for c in (outcome.crosses if outcome else ()) for q in c.points),
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
        self.games: OrderedDict[str, WebGame] = OrderedDict()  # least recently used first
        self.games_lock = threading.Lock()

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

    def handle_error(self, request, client_address) -> None:
        """A client that went away (reset, broken pipe, timed out) is no news: say nothing. Anything
        else is a bug in this module: one line, never a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, OSError):
            return
        sys.stderr.write(f"baikago serve: {type(error).__name__}: {error}\n")


def local_host(host: str | None) -> bool:
    """Whether a Host header names this machine: 127.0.0.1 or localhost, with or without a port."""
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
    "/api/undo": ("POST",),
}


class Handler(BaseHTTPRequestHandler):
    server: BaikagoServer
    server_version = "boardpuzzles"
    sys_version = ""

    def setup(self) -> None:
        # A client that sends part of a request and then nothing must not hold a thread for ever:
        # every read and write on the socket gives up after this many seconds.
        self.timeout = self.server.request_timeout
        super().setup()

    def log_message(self, format: str, *args) -> None:  # quiet: the terminal shows only the address
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
            self._send(HTTPStatus.OK, PAGE.encode("utf-8"), "text/html; charset=utf-8")

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
        if len(lengths) > 1 or not lengths[0].strip().isascii() or not lengths[0].strip().isdigit():
            self.close_connection = True
            raise RequestError(HTTPStatus.BAD_REQUEST, "Content-Length must be one whole number of bytes")
        length = int(lengths[0])
        if length > MAX_BODY:
            self.close_connection = True  # the body is never read: nothing else can follow on it
            raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"the body is over {MAX_BODY // 1024} KiB")
        raw = self.rfile.read(length)
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
            human_name = body.get("human", "black")
            strength = body.get("strength", 2)
            human = {"black": bk.BLACK, "white": bk.WHITE}.get(human_name) if isinstance(human_name, str) else None
            # bool is an int: true is not a strength
            if human is None or type(strength) is not int or strength not in STRENGTHS:
                raise BoardPuzzlesError(
                    'human is "black" or "white"; strength one of ' + ", ".join(map(str, STRENGTHS))
                )
            game = WebGame(self.server.rules, human, strength)
            self.server.add_game(game)
            self._json(HTTPStatus.OK, game.state())
            return
        game_id, point = body.get("game", ""), body.get("point", "")
        if not isinstance(game_id, str) or not isinstance(point, str):
            raise BoardPuzzlesError("game and point are strings")
        game = self._game(game_id)
        with game.lock:
            if path == "/api/move":
                game.move(point)
            else:
                game.undo()
            self._json(HTTPStatus.OK, game.state())

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


def make_server(port: int, rules: bk.Rules | None = None, request_timeout: float = REQUEST_TIMEOUT) -> BaikagoServer:
    """A server bound to 127.0.0.1 (port 0: any free port); call ``serve_forever()``."""
    return BaikagoServer(("127.0.0.1", port), rules or bk.Rules(), request_timeout)


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Baikago</title>
<style>
 body { font-family: sans-serif; margin: 1.5em; background: #faf7f0; }
 #board { display: inline-grid; background: #dcb35c; padding: 10px; border: 2px solid #7a5a20; gap: 0; }
 .pt { width: 30px; height: 30px; border: 0; padding: 0; margin: 0; cursor: pointer;
       background: linear-gradient(#5a4010, #5a4010) center/1px 100% no-repeat,
                   linear-gradient(#5a4010, #5a4010) center/100% 1px no-repeat; }
 .pt span { display: block; width: 24px; height: 24px; margin: 3px; border-radius: 50%; }
 .X span { background: radial-gradient(circle at 35% 35%, #666, #000); }
 .O span { background: radial-gradient(circle at 35% 35%, #fff, #ccc); border: 1px solid #888; box-sizing: border-box; }
 .last span { outline: 2px solid #1e6fd0; }
 .win span { box-shadow: 0 0 0 3px #e0202a; }
 #status { margin: .8em 0; font-size: 1.1em; min-height: 1.4em; }
 .bar > * { margin-right: .6em; }
</style></head>
<body>
<h1>Baikago &#26757;&#33457;&#30849;</h1>
<p>Five stones of your colour in a cross win: a centre and four stones at the same distance,
left-right-up-down or on the diagonals.</p>
<div class="bar">
 <label>You play <select id="human"><option value="black">black (first)</option>
   <option value="white">white</option></select></label>
 <label>Computer <select id="strength"><option value="1">1 (weak)</option><option value="2" selected>2</option>
   <option value="3">3</option><option value="4">4 (strong)</option></select></label>
 <button id="new">New game</button> <button id="undo">Undo</button>
</div>
<div id="status">Loading...</div>
<div id="board"></div>
<script>
let state = null, busy = false;
const $ = (id) => document.getElementById(id);
async function call(path, body) {
  busy = true;
  try {
    const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                 body: JSON.stringify(body)});
    const data = await r.json();
    if (!r.ok) { $("status").textContent = data.error; return; }
    state = data; draw();
  } finally { busy = false; document.body.dataset.busy = "0"; }
}
function draw() {
  const n = state.size, board = $("board");
  board.style.gridTemplateColumns = `repeat(${n}, 30px)`;
  board.innerHTML = "";
  const cross = new Set(state.cross);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    const name = state.names[r * n + c], stone = state.rows[r][c];
    const b = document.createElement("button");
    b.className = "pt" + (stone !== "." ? " " + stone : "") + (name === state.last ? " last" : "")
                + (cross.has(name) ? " win" : "");
    b.dataset.point = name; b.title = name;
    b.appendChild(document.createElement("span"));
    b.onclick = () => play(name);
    board.appendChild(b);
  }
  $("status").textContent = state.over ? state.result
    : (state.turn === state.human ? `Your move (${state.human}).` : "The computer is thinking...");
  document.body.dataset.over = state.over ? "1" : "0";
}
function play(name) {
  if (busy || !state || state.over || state.turn !== state.human) return;
  document.body.dataset.busy = "1";
  call("/api/move", {game: state.game, point: name});
}
function newGame() {
  document.body.dataset.busy = "1";
  call("/api/new", {human: $("human").value, strength: Number($("strength").value)});
}
$("new").onclick = newGame;
$("undo").onclick = () => { if (state && !busy) call("/api/undo", {game: state.game}); };
newGame();
</script>
</body></html>
"""
