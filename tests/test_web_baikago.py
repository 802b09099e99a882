"""``baikago serve`` from the outside, over real sockets: every malformed or hostile request gets a
4xx JSON error (never silence, never a traceback), stalled clients are dropped, clients that go
away leave stderr quiet, and other web pages cannot drive it."""

import contextlib
import json
import os
import shutil
import socket
import struct
import threading
import time
from pathlib import Path

import pytest

from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles.baikago.ai import ComputerPlayer
from boardpuzzles.web import baikago as web
from tests.test_play_browser import console_errors
from tests.threads import serve_in_background
from tests.timing import LOADED

#: How long the test server lets a connection stall (the real one: web.REQUEST_TIMEOUT).
STALL = 0.5


#: The largest body the server reads (web.MAX_BODY).
MAX_BODY = 64 * 1024


@pytest.fixture(scope="module")
def web_server():
    srv = web.make_server(0, bk.Rules(7))
    srv.request_timeout = STALL
    serve_in_background(srv)
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def port(web_server):
    return web_server.server_address[1]


def exchange(port, data: bytes, timeout=5.0, shut_write=False) -> bytes:
    """Send raw bytes, read until the server closes; a server that never closes fails the test."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        if shut_write:
            sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def parse(response: bytes):
    head, _, body = response.partition(b"\r\n\r\n")
    lines = head.decode("iso-8859-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return status, headers, body


def request(port, method, path, body=None, headers=None, raw_body=None):
    """One HTTP/1.1 request with a JSON body (or ``raw_body`` as is); (status, headers, document)."""
    payload = raw_body if raw_body is not None else (b"" if body is None else json.dumps(body).encode())
    fields = {"Host": f"127.0.0.1:{port}", "Connection": "close"}
    if method == "POST":
        fields |= {"Content-Type": "application/json", "Content-Length": str(len(payload))}
    fields |= headers or {}
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields.items() if v is not None)
    status, got, data = parse(exchange(port, head.encode() + b"\r\n" + payload))
    return status, got, (json.loads(data) if data and "json" in got.get("content-type", "") else data)


def new_game(port, **settings):
    status, _, state = request(port, "POST", "/api/new", {"human": "black", "strength": 1, **settings})
    assert status == 200, state
    return state


def assert_json_error(status, headers, document, expected):
    assert status == expected, document
    assert headers["content-type"] == "application/json"
    assert isinstance(document, dict) and isinstance(document["error"], str) and document["error"]


# -------------------------------------------------------------------- the reproducers of the issue
def test_deeply_nested_json_is_a_400_not_a_dropped_connection(port):
    for body in (b"[" * 60_000, b'{"a":' * 10_000 + b"1" + b"}" * 10_000):
        assert_json_error(*request(port, "POST", "/api/new", raw_body=body), 400)


def test_a_huge_content_length_is_413_without_reading_the_body(port):
    head = (
        f"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {10**15}\r\n\r\n"
    )
    status, headers, body = parse(exchange(port, head.encode() + b"{"))
    assert_json_error(status, headers, json.loads(body), 413)
    # Just over the limit is refused too; just under is read (and is bad JSON here).
    over = b"[" * (MAX_BODY + 1)
    assert_json_error(*request(port, "POST", "/api/new", raw_body=over), 413)
    under = b" " * (MAX_BODY - 2) + b"{}"
    assert request(port, "POST", "/api/new", raw_body=under)[0] == 200


@pytest.mark.parametrize(
    "path,body,expected",
    [
        ("/api/new", b"{", 400),
        ("/api/new", b"not json", 400),
        ("/api/new", b"\xff\xfe{}", 400),
        ("/api/new", b"[]", 400),
        ("/api/new", b'"black"', 400),
        ("/api/new", b"null", 400),
        ("/api/new", b'{"human": "red"}', 400),
        ("/api/new", b'{"strength": "2"}', 400),
        ("/api/new", b'{"strength": NaN}', 400),
        ("/api/move", b"{}", 404),  # no game named
        ("/api/move", b'{"game": "nope", "point": "a1"}', 404),
        ("/api/move", b'{"game": 5, "point": "a1"}', 400),
        ("/api/undo", b'{"game": null}', 400),
        ("/api/nothing", b"{}", 404),
        ("/", b"{}", 405),
        ("/api/state", b"{}", 405),
    ],
)
def test_malformed_posts_get_a_4xx_json_error(port, path, body, expected):
    assert_json_error(*request(port, "POST", path, raw_body=body), expected)


def test_a_move_with_missing_or_bad_fields_is_400(port):
    game = new_game(port)["game"]
    for body in (
        {"game": game},
        {"game": game, "point": ""},
        {"game": game, "point": "z99"},
        {"game": game, "point": 3},
    ):
        assert_json_error(*request(port, "POST", "/api/move", body), 400)


@pytest.mark.parametrize(
    "content_length,expected",
    [("-1", 400), ("abc", 400), ("1e3", 400), ("", 400), ("٣", 400), ("5, 5", 400)],
)
def test_bad_content_lengths_are_400(port, content_length, expected):
    status, headers, document = request(
        port, "POST", "/api/new", raw_body=b"{}", headers={"Content-Length": content_length}
    )
    assert_json_error(status, headers, document, expected)


def test_two_content_lengths_and_chunked_bodies_are_refused(port):
    head = "POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    status, headers, body = parse(exchange(port, (head + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}").encode()))
    assert_json_error(status, headers, json.loads(body), 400)
    status, headers, body = parse(
        exchange(port, (head + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n").encode())
    )
    assert_json_error(status, headers, json.loads(body), 411)


def test_a_body_cut_short_is_400(port):
    head = "POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n"
    status, headers, body = parse(exchange(port, head.encode() + b"{}", shut_write=True))
    assert_json_error(status, headers, json.loads(body), 400)


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "FOO"])
def test_other_methods_are_405(port, method):
    status, headers, document = request(port, method, "/")
    assert_json_error(status, headers, document, 405)
    assert "GET" in headers["allow"]


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_unknown_paths_and_wrong_methods_for_a_path(port, method):
    status, headers, _ = request(port, method, "/nothing/here")
    assert status == 404 and headers["content-type"] == "application/json"
    status, headers, _ = request(port, method, "/api/new")
    assert status == 405 and headers["allow"] == "POST"


@pytest.mark.parametrize(
    "raw,expected",
    [
        (b"HELLO\r\n\r\n", 400),
        (b"GET / HTTP/x.y\r\n\r\n", 400),
        (b"GET / HTTP/1.1 extra\r\n\r\n", 400),
        (b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n", 414),
        (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + b"a" * 70_000 + b"\r\n\r\n", 431),
        (b"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + b"a" * 70_000 + b"\r\n\r\n", 431),
        (b"POST /api/new HTTP/1.1\r\n" + b"X: a\r\n" * 200 + b"\r\n", 431),
    ],
)
def test_garbled_requests_get_json_errors(port, raw, expected):
    status, headers, body = parse(exchange(port, raw))
    assert_json_error(status, headers, json.loads(body), expected)


def test_the_state_of_an_unknown_game_is_404(port):
    for query in ("", "?game=nope", "?game=" + "x" * 5000, "?game=%ff%00"):
        assert_json_error(*request(port, "GET", "/api/state" + query), 404)


# -------------------------------------------------------------------- stalled and vanishing clients
@pytest.mark.parametrize(
    "sent",
    [
        b"",  # connects and says nothing
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n",  # headers never finished
        b"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n",
    ],
)
def test_a_stalled_client_is_dropped_after_the_timeout(port, sent):
    started = time.monotonic()
    # a server that never closes raises TimeoutError here; a busy machine may add some seconds
    answer = exchange(port, sent, timeout=STALL * 8 + LOADED)
    assert STALL * 0.8 <= time.monotonic() - started < STALL * 6 + LOADED
    if answer:
        status, _, body = parse(answer)
        assert status == 408 and "error" in json.loads(body)


def test_clients_that_go_away_leave_stderr_quiet(port, capfd):
    new_game(port)
    capfd.readouterr()
    requests = [
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n",
        b"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 90\r\n\r\n{",
    ]
    for i in range(120):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(requests[i % len(requests)])
        # A reset, not a polite close: the server's next read or write on it fails.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    time.sleep(STALL * 3)  # let every handler thread finish or time out
    new_game(port)  # the server still answers
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_successful_requests_are_not_logged(port, capfd):
    game = new_game(port)["game"]
    request(port, "POST", "/api/move", {"game": game, "point": "d4"})
    request(port, "GET", f"/api/state?game={game}")
    request(port, "GET", "/nothing")
    assert capfd.readouterr() == ("", "")


# -------------------------------------------------------------------- other pages
@pytest.mark.parametrize(
    "origin,allowed",
    [
        (None, True),  # a local client (curl, a test) sends none
        ("http://127.0.0.1:{port}", True),
        ("http://localhost:{port}", True),
        ("http://LOCALHOST:{port}", True),
        ("http://127.0.0.1:{other}", False),
        ("http://evil.example", False),
        ("https://127.0.0.1:{port}", False),
        ("null", False),
        ("", False),
    ],
)
def test_posts_from_other_origins_are_refused(port, origin, allowed):
    if origin is not None:
        origin = origin.format(port=port, other=port + 1)
    status, headers, document = request(
        port, "POST", "/api/new", {"strength": 1}, headers={"Origin": origin} if origin is not None else None
    )
    if allowed:
        assert status == 200, document
    else:
        assert_json_error(status, headers, document, 403)


@pytest.mark.parametrize(
    "content_type", [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
)
def test_a_post_must_say_it_is_json(port, content_type):
    # A form on another site can POST these content types without asking first.
    status, headers, document = request(
        port, "POST", "/api/new", {"strength": 1}, headers={"Content-Type": content_type}
    )
    assert_json_error(status, headers, document, 415)
    status, _, _ = request(
        port, "POST", "/api/new", {"strength": 1}, headers={"Content-Type": "application/json; charset=utf-8"}
    )
    assert status == 200


def test_the_host_check_still_applies_to_every_method(port):
    for method in ("GET", "HEAD", "POST"):
        status, _, _ = request(port, method, "/", headers={"Host": "evil.example"})
        assert status == 403


def test_head_answers_like_get_without_a_body(port):
    status, headers, body = request(port, "HEAD", "/")
    assert status == 200 and headers["content-type"].startswith("text/html") and body == b""
    _, get_headers, page = request(port, "GET", "/")
    assert int(headers["content-length"]) == len(page) == int(get_headers["content-length"])
    assert b"all puzzles" not in page  # baikago serve is the game alone: no front page to go back to
    game = new_game(port)["game"]
    status, headers, body = request(port, "HEAD", f"/api/state?game={game}")
    assert status == 200 and headers["content-type"] == "application/json" and body == b""


# -------------------------------------------------------------------- the game API
def winning_line(size: int, human: int, seeds=range(20)) -> tuple[int, list[str]]:
    """A seed and a whole game on an empty board that the human wins against the server's
    computer at strength 1 with that seed: the computer's moves are the ones the server's seeded
    player makes (strength 1 searches one ply, no clock involved; each move a fresh player whose
    random ties come from the seed and the ply); the human's come from a stronger player here."""
    for seed in seeds:
        rules = bk.Rules(size)
        position = bk.Position(rules)
        stronger = ComputerPlayer(rules, 3, seed=0)
        while not position.is_game_over():
            if position.turn == human:
                position.make(stronger.choose_for(position).move)
            else:
                computer = ComputerPlayer(rules, 1, tt_bits=web.WEB_TT_BITS)
                computer.random = web.move_random(seed, len(position.move_stack))
                position.make(computer.choose(list(position.board), position.turn).move)
        if position.outcome().winner == human:
            return seed, [position.grid.name(m) for m in position.move_stack]
    raise AssertionError(f"no winning line found on {size}x{size}")


def test_a_move_is_answered_at_once_and_the_reply_is_asked_for_separately(port):
    game = new_game(port, size=9)
    status, _, state = request(port, "POST", "/api/move", {"game": game["game"], "point": "e5", "ply": 0})
    assert status == 200 and state["moves"] == ["e5"] and state["turn"] == "white" and not state["over"]
    status, _, state = request(port, "POST", "/api/reply", {"game": game["game"]})
    assert status == 200 and len(state["moves"]) == 2 and state["turn"] == "black"
    # Asked again (a reloaded page, a second tab), the computer does not move twice.
    assert request(port, "POST", "/api/reply", {"game": game["game"]})[2]["moves"] == state["moves"]
    # A move for a position the page no longer shows, or on the computer's turn: 409.
    status, _, answer = request(port, "POST", "/api/move", {"game": game["game"], "point": "a1", "ply": 0})
    assert status == 409 and "2 moves" in answer["error"]
    request(port, "POST", "/api/move", {"game": game["game"], "point": "a1"})
    status, _, answer = request(port, "POST", "/api/move", {"game": game["game"], "point": "a2"})
    assert status == 409 and "computer's turn" in answer["error"]
    for ply in ("3", 2.0, True):
        assert request(port, "POST", "/api/move", {"game": game["game"], "point": "a2", "ply": ply})[0] == 400


def test_new_game_settings_are_checked(port, web_server):
    assert new_game(port, size=9)["size"] == 9
    assert new_game(port)["size"] == 7  # the server's own size
    for bad in ({"size": 8}, {"size": 99}, {"size": "9"}, {"size": True}, {"seed": -1}, {"seed": "1"}, {"seed": 2**32}):
        status, _, answer = request(port, "POST", "/api/new", {"strength": 1, **bad})
        assert status == 400 and ("size" in answer["error"] or "seed" in answer["error"])
    assert web_server.sizes == sorted(set(web.WEB_SIZES) | {7})


def test_a_seeded_game_is_reproducible(port):
    moves = []
    for _ in range(2):
        game = new_game(port, size=9, seed=7)["game"]
        for point in ("e5", "d4", "f6"):
            request(port, "POST", "/api/move", {"game": game, "point": point})
            state = request(port, "POST", "/api/reply", {"game": game})[2]
        moves.append(state["moves"])
    assert moves[0] == moves[1]


def test_the_human_can_win_and_the_state_says_so(port):
    seed, line = winning_line(9, bk.BLACK)
    game = new_game(port, size=9, seed=seed)["game"]
    for ply in range(0, len(line), 2):
        state = request(port, "POST", "/api/move", {"game": game, "point": line[ply], "ply": ply})[2]
        if not state["over"]:
            state = request(port, "POST", "/api/reply", {"game": game})[2]
            assert state["moves"] == line[: ply + 2], "the server's computer played otherwise than its seeded twin"
    assert state["over"] and state["outcome"] == "human" and state["winner"] == "black"
    (cross,) = state["crosses"]
    assert cross["points"][0] == cross["centre"] and set(cross["points"]) == set(state["cross"])
    assert request(port, "POST", "/api/reply", {"game": game})[2]["moves"] == line  # nothing more to play
    status, _, answer = request(port, "POST", "/api/move", {"game": game, "point": "a1"})
    assert status == 400 and "over" in answer["error"]
    # Undo after the end takes back the winning move.
    assert request(port, "POST", "/api/undo", {"game": game})[2]["moves"] == line[:-1]


def test_undo_leaves_the_computers_opening_alone(port):
    game = new_game(port, human="white")["game"]
    state = request(port, "POST", "/api/reply", {"game": game})[2]
    assert state["moves"] == ["d4"]
    assert request(port, "POST", "/api/undo", {"game": game})[2]["moves"] == ["d4"]
    request(port, "POST", "/api/move", {"game": game, "point": "a1"})
    assert request(port, "POST", "/api/undo", {"game": game})[2]["moves"] == ["d4"]


def test_the_state_can_be_read_while_the_computer_thinks_and_undo_drops_a_stale_reply(web_server, port, monkeypatch):
    game = new_game(port)
    searching, release = threading.Event(), threading.Event()
    choose = web_server.computers.choose

    def slow_choose(*args):
        searching.set()
        release.wait(10)
        return choose(*args)

    monkeypatch.setattr(web_server.computers, "choose", slow_choose)
    request(port, "POST", "/api/move", {"game": game["game"], "point": "d4"})
    replies = []
    thread = threading.Thread(
        target=lambda: replies.append(request(port, "POST", "/api/reply", {"game": game["game"]}))
    )
    thread.start()
    assert searching.wait(10)
    status, _, state = request(port, "GET", f"/api/state?game={game['game']}")  # not blocked by the search
    assert status == 200 and state["thinking"] and state["turn"] == "white"
    assert request(port, "POST", "/api/undo", {"game": game["game"]})[2]["moves"] == []
    release.set()
    thread.join(10)
    assert replies[0][0] == 200 and replies[0][2]["moves"] == []  # the reply for d4 was dropped
    assert not replies[0][2]["thinking"]


@pytest.mark.parametrize("point", ["a" + "1" * 5000, "x" * 9, "a1" * 5])
def test_absurd_point_names_are_400(port, point):
    game = new_game(port)["game"]
    assert_json_error(*request(port, "POST", "/api/move", {"game": game, "point": point}), 400)


def test_the_server_compiles_the_computer_before_it_answers(monkeypatch):
    calls = []
    monkeypatch.setattr(web, "warm_up", lambda: calls.append(1))
    web.make_server(0, bk.Rules(7)).server_close()
    assert calls == [1]
    web.make_server(0, bk.Rules(7), warm=False).server_close()
    assert calls == [1]


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing is compiled without the JIT")
def test_warm_up_compiles_every_kernel_the_computer_calls():
    from boardpuzzles._kernels import baikago as kernels

    web.warm_up()
    used = ["four_points", "vcf", "move_scores", "top_moves", "search_root", "place", "remove"]
    assert all(getattr(kernels, name).signatures for name in used)


# -------------------------------------------------------------------- the page in a real browser
CHROMIUM = next((path for path in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if path), None)
#: The system Chromium, headless, quiet: it must not reach for the network or an update.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("needs Chromium: `make browser` (or apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright: pip install -e '.[test]'")
    with sync_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def site():
    """A server with the default 15x15 board (the page's opening) that also offers 9x9 games."""
    srv = web.make_server(0, bk.Rules())
    serve_in_background(srv)
    yield srv, f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory):
    """save(page, name): a PNG under pytest's temporary folder, and into $BOARDPUZZLES_SCREENSHOTS
    when that is set (to look at what a person sees)."""
    folders = [tmp_path_factory.mktemp("screenshots")]
    if os.environ.get("BOARDPUZZLES_SCREENSHOTS"):
        folders.append(Path(os.environ["BOARDPUZZLES_SCREENSHOTS"]))
        folders[-1].mkdir(parents=True, exist_ok=True)

    def save(page, name: str) -> None:
        picture = page.screenshot(full_page=True)
        for folder in folders:
            (folder / f"{name}.png").write_bytes(picture)

    return save


@pytest.fixture
def open_page(browser):
    """open_page(url, viewport) -> a page whose JavaScript errors fail the test."""
    pages, errors = [], []

    def opener(url, viewport=DESKTOP):
        page = browser.new_page(viewport=viewport)
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(url)
        ready(page)
        pages.append(page)
        return page

    yield opener
    for page in pages:
        page.close()
    assert errors == []


@contextlib.contextmanager
def game_page(site, browser, game_id: str):
    """A desktop page open on ``game_id``, ready, and the list its console's errors go to;
    closed afterwards."""
    page = browser.new_page(viewport=DESKTOP)
    try:
        errors = console_errors(page)
        page.goto(f"{site[1]}/#game={game_id}")
        ready(page)
        yield page, errors
    finally:
        page.close()


def ready(page, timeout=15_000):
    """Wait until the page has a game and nothing on its way."""
    page.wait_for_selector("body[data-busy='0'][data-game] .pt", timeout=timeout)


def stones(page) -> dict:
    return page.eval_on_selector_all(
        ".pt.taken", "bs => Object.fromEntries(bs.map(b => [b.dataset.point, b.classList.contains('X') ? 'X' : 'O']))"
    )


def status(page) -> str:
    return page.inner_text("#status-text")


def seeded_game(site, **settings) -> str:
    srv, url = site
    port = srv.server_address[1]
    status_code, _, state = request(port, "POST", "/api/new", {"strength": 1, **settings})
    assert status_code == 200, state
    return state["game"]


def test_the_page_opens_ready_and_fits_a_phone(site, open_page, screenshots):
    _, url = site
    page = open_page(url + "/")
    assert page.locator(".pt").count() == 15 * 15
    assert "Your move (black)" in status(page) and page.get_attribute("#status", "aria-live") == "polite"
    assert page.inner_text("h1").startswith("Baikago")  # the Latin name shows, CJK font or not
    assert page.get_attribute(".pt[data-point=h8]", "aria-label") == "h8, empty"
    labels = page.eval_on_selector_all("#board text", "ts => ts.map(t => t.textContent)")
    assert labels[:2] == ["15", "14"] and labels[15:17] == ["a", "b"]  # coordinates on both axes
    screenshots(page, "opening-1200x900")
    phone = open_page(url + "/", PHONE)
    assert phone.get_attribute("meta[name=viewport]", "content").startswith("width=device-width")
    sizes = phone.eval_on_selector_all(
        ".pt", "bs => bs.map(b => b.getBoundingClientRect()).map(r => Math.min(r.width, r.height))"
    )
    # The largest board whose points a finger hits (32 px) is the phone's default: 11x11 at 390 px.
    assert len(sizes) == 11 * 11 and min(sizes) >= 32, min(sizes)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scrolling
    assert "Tap a point" in status(phone) and "arrow" not in status(phone)
    screenshots(phone, "opening-390x844")


def test_a_whole_game_by_clicks_then_a_reload(site, open_page, screenshots):
    seed, line = winning_line(9, bk.BLACK)
    _, url = site
    page = open_page(f"{url}/#game={seeded_game(site, size=9, seed=seed)}")
    assert page.locator(".pt").count() == 81
    # The first reply is held back: the stone and the thinking line must show before it comes.
    held = []
    page.route("**/api/reply", lambda route: held.append(route))
    page.click(f".pt[data-point={line[0]}]")
    page.wait_for_function("() => document.querySelector('.pt.taken') !== null", timeout=5_000)
    assert stones(page) == {line[0]: "X"} and "thinking" in status(page)
    assert page.evaluate("document.body.classList.contains('thinking')")
    screenshots(page, "thinking-1200x900")
    page.wait_for_timeout(50)
    assert held, "the page did not ask for the computer's reply"
    held[0].continue_()
    page.unroute("**/api/reply")
    ready(page)
    for ply in range(2, len(line), 2):
        assert stones(page) == {name: "XO"[i % 2] for i, name in enumerate(line[:ply])}
        assert f"The computer played {line[ply - 1]}" in status(page)
        if ply == 6:
            screenshots(page, "midgame-1200x900")
        page.click(f".pt[data-point={line[ply]}]")
        ready(page)
    assert page.inner_text("#result-line") == "You won" and page.is_visible("#again")
    assert "Black wins" in page.inner_text("#result-detail")
    assert not page.is_visible("#value")  # 9x9 is solved, but a game over has no value to tell
    assert page.locator(".pt.win").count() == 5 and page.locator("#board .win-ring").count() == 5
    assert page.locator("#board line.win-figure").count() >= 4  # two strokes (halo, red) per arm pair
    assert page.eval_on_selector_all("#moves li", "ls => ls.length") == len(line)
    assert "winning cross" in page.get_attribute(f".pt[data-point={line[-1]}]", "aria-label")
    screenshots(page, "won-1200x900")
    # A click after the end plays nothing and says why; a reload brings the same game back.
    page.click(".pt:not(.taken)", force=True)
    assert len(stones(page)) == len(line)
    assert page.inner_text("#result-detail") == "Not allowed: the game is over: start a new one."
    page.reload()
    ready(page)
    assert stones(page) == {name: "XO"[i % 2] for i, name in enumerate(line)}
    assert page.inner_text("#result-line") == "You won" and not page.is_visible("#value")
    assert page.input_value("#strength") == "1" and page.input_value("#size") == "9"  # the game's settings
    # The result's New game keeps the settings and hands the focus to the board.
    won = page.get_attribute("body", "data-game")
    page.click("#again")
    ready(page)
    assert page.get_attribute("body", "data-game") != won and stones(page) == {} and not page.is_visible("#result")
    assert page.locator(".pt").count() == 81 and page.evaluate("document.activeElement.classList.contains('pt')")


def test_a_whole_game_by_keyboard_on_a_phone(site, open_page, screenshots):
    seed, line = winning_line(9, bk.WHITE)
    _, url = site
    page = open_page(f"{url}/#game={seeded_game(site, size=9, seed=seed, human='white')}", PHONE)
    assert stones(page) == {line[0]: "X"}  # the computer opened
    page.focus(".pt[tabindex='0']")
    for ply in range(1, len(line), 2):
        target = page.eval_on_selector(f".pt[data-point={line[ply]}]", "b => Number(b.dataset.index)")
        here = page.evaluate("Number(document.activeElement.dataset.index)")
        (dr, dc) = (target // 9 - here // 9, target % 9 - here % 9)
        for key, count in (("ArrowDown", dr), ("ArrowUp", -dr), ("ArrowRight", dc), ("ArrowLeft", -dc)):
            for _ in range(max(0, count)):
                page.keyboard.press(key)
        assert page.evaluate("document.activeElement.dataset.point") == line[ply]
        page.keyboard.press("Enter" if ply % 4 == 1 else " ")
        ready(page)
        assert page.evaluate("document.activeElement.classList.contains('pt')"), "the focus left the board"
        if ply == 7:
            screenshots(page, "midgame-390x844")
    assert page.inner_text("#result-line") == "You won"
    assert stones(page) == {name: "XO"[i % 2] for i, name in enumerate(line)}
    screenshots(page, "won-390x844")


def test_settings_belong_to_the_game(site, open_page):
    _, url = site
    page = open_page(f"{url}/#game={seeded_game(site, size=9)}")
    first = page.get_attribute("body", "data-game")
    # No move of the human's yet: a change starts the new game at once, and says so.
    page.select_option("#strength", "3")
    ready(page)
    second = page.get_attribute("body", "data-game")
    assert second != first and "New game" in status(page) and "strength 3" in page.inner_text("#game-info")
    page.click(".pt[data-point=e5]")
    ready(page)
    # Now a change is offered, and nothing happens until it is taken.
    page.select_option("#human", "white")
    assert page.is_visible("#offer") and page.get_attribute("body", "data-game") == second
    page.click("#offer-no")
    assert page.input_value("#human") == "black" and not page.is_visible("#offer")
    page.select_option("#size", "15")
    page.click("#offer-yes")
    ready(page)
    assert page.get_attribute("body", "data-game") != second and page.locator(".pt").count() == 225


def test_a_solved_board_shows_the_value_of_the_position(site, open_page):
    """The value is an aid, as on the play pages: off (unsaid) until the switch turns it on; it
    stays with the game through a reload and is carried into the next game the page starts."""
    _, url = site
    page = open_page(f"{url}/#game={seeded_game(site, size=7)}")
    assert not page.is_visible("#value") and not page.is_checked("#aids")
    assert "7\u00d77" in page.inner_text("#aids-note") and "19\u00d719" not in page.inner_text("#aids-note")
    page.check("#aids")
    page.wait_for_selector("#value:not([hidden])")
    assert page.inner_text("#value") == "With perfect play from here: a draw."
    page.reload()
    ready(page)
    assert page.is_checked("#aids") and page.inner_text("#value") == "With perfect play from here: a draw."
    page.select_option("#size", "9")
    ready(page)
    assert page.locator(".pt").count() == 81  # 9x9 is a win for black (records/baikago-9.json.gz)
    assert page.inner_text("#value") == "With perfect play from here: black wins."
    page.select_option("#size", "15")
    ready(page)
    assert page.locator(".pt").count() == 225  # the seed's board, a win for black (records/baikago-15.json.gz)
    assert page.inner_text("#value") == "With perfect play from here: black wins."
    page.select_option("#size", "19")
    ready(page)
    assert page.locator(".pt").count() == 361 and not page.is_visible("#value")  # 19x19 is not solved
    held = []  # the switch's answer held back: a new game started meanwhile takes the switch as set
    page.route("**/api/aids", lambda route: held.append(route))
    page.uncheck("#aids")
    page.wait_for_function("!document.getElementById('aids').checked")
    page.select_option("#size", "9")
    ready(page)
    assert held and not page.is_checked("#aids") and not page.is_visible("#value")
    for route in held:
        route.continue_()
    page.unroute("**/api/aids")
    page.wait_for_timeout(300)  # the late answer is about the game left behind: it changes nothing
    assert not page.is_checked("#aids") and not page.is_visible("#value")


def test_undo_and_redo_by_buttons_and_keys_and_a_refusal_leaves_the_console_free_of_errors(site, browser):
    """Undo and Redo as on the play pages: buttons enabled as the state says, Ctrl+Z (Cmd+Z) and
    Ctrl+Y, Ctrl+Shift+Z (Cmd+Shift+Z), not while a menu has the focus; nothing to redo is
    refused as data ("refusal": "state"), said on the status line, with no error in the console."""
    with game_page(site, browser, seeded_game(site, size=9, seed=1)) as (page, errors):
        assert page.is_disabled("#undo") and page.is_disabled("#redo")
        page.keyboard.press("Control+y")
        page.wait_for_function("document.getElementById('status-text').textContent.startsWith('Not allowed')")
        assert status(page).startswith("Not allowed: nothing to redo. Your move (black).")
        page.keyboard.press("Control+z")
        assert status(page).startswith("Not allowed: nothing to undo. Your move (black).")
        page.click(".pt[data-point=e5]")
        ready(page)
        line = stones(page)
        assert len(line) == 2 and page.is_enabled("#undo") and page.is_disabled("#redo")
        assert not status(page).startswith("Not allowed")  # said until the next move
        for undo, redo in (("Control+z", "Control+Shift+z"), ("Meta+z", "Meta+Shift+z"), ("Control+z", "Control+y")):
            page.keyboard.press(undo)
            ready(page)
            assert stones(page) == {} and page.is_disabled("#undo") and page.is_enabled("#redo")
            page.keyboard.press(redo)  # the human's stone and the computer's reply
            ready(page)
            assert stones(page) == line and page.is_enabled("#undo") and page.is_disabled("#redo")
        page.click("#undo")
        ready(page)
        page.click("#redo")
        ready(page)
        assert stones(page) == line
        page.focus("#strength")  # a menu's keys are its own
        page.keyboard.press("Control+z")
        assert page.get_attribute("body", "data-busy") == "0" and stones(page) == line
        assert errors == []


def test_a_server_that_cannot_be_reached_is_shown(site, open_page):
    _, url = site
    page = open_page(f"{url}/#game={seeded_game(site, size=9)}")
    page.route("**/api/move", lambda route: route.abort())
    page.click(".pt[data-point=e5]")
    page.wait_for_selector("#error:not([hidden])")
    assert "Cannot reach the server" in page.inner_text("#error") and stones(page) == {}
    page.unroute("**/api/move")
    page.click("#retry")
    ready(page)
    assert not page.is_visible("#error")
    page.click(".pt[data-point=e5]")
    ready(page)
    assert len(stones(page)) == 2


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_board_never_moves_and_every_move_stays_listed(site, open_page, viewport):
    """The board keeps its place through a move, the computer's thinking, an error and the
    result; a long game's moves are all in the list, in view when scrolled to."""
    seed, line = winning_line(9, bk.BLACK)
    _, url = site
    page = open_page(f"{url}/#game={seeded_game(site, size=9, seed=seed)}", viewport)
    board = page.locator("#board-wrap").bounding_box()
    page.route("**/api/move", lambda route: route.abort())
    page.click(f".pt[data-point={line[0]}]")
    page.wait_for_selector("#error:not([hidden])")
    assert page.locator("#board-wrap").bounding_box() == board
    page.unroute("**/api/move")
    page.click("#retry")
    ready(page)
    for ply in range(0, len(line), 2):
        page.click(f".pt[data-point={line[ply]}]")
        ready(page)
        assert page.locator("#board-wrap").bounding_box() == board
    assert page.is_visible("#result") and page.locator("#board-wrap").bounding_box() == board
    # A long game (its state as the server would send it): every move is listed and in view when
    # scrolled to, inside the list's frame (not clipped into a column out of sight).
    srv = site[0]
    game = seeded_game(site, size=15)
    _, _, long_game = request(srv.server_address[1], "GET", f"/api/state?game={game}")
    long_game["moves"] = long_game["names"][:61]
    page.route("**/api/state*", lambda route: route.fulfill(json=long_game))
    page.goto(f"{url}/#game={game}")
    page.reload()
    ready(page)
    assert page.locator("#moves li").count() == 61
    for index in (34, 35, 60):
        move = page.locator("#moves li").nth(index)
        move.scroll_into_view_if_needed()
        box, frame = move.bounding_box(), page.locator("#moves").bounding_box()
        assert frame["x"] <= box["x"] and box["x"] + box["width"] <= frame["x"] + frame["width"] + 1
        assert frame["y"] <= box["y"] and box["y"] + box["height"] <= frame["y"] + frame["height"] + 1
        assert page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).closest('li') !== null",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )


def test_a_game_the_server_no_longer_has_is_replaced_with_a_note(site, open_page):
    _, url = site
    page = open_page(f"{url}/#game=0123456789abcdef")
    assert "no longer on the server" in status(page) and page.locator(".pt").count() == 225
    assert page.get_attribute("body", "data-game") != "0123456789abcdef"
    assert page.evaluate("location.hash") == "#game=" + page.get_attribute("body", "data-game")


def test_a_draw_says_draw():
    game = web.WebGame(bk.Rules(3), bk.BLACK, 1)
    for name in ("b2", "a2", "c1", "a3"):  # each of the two crosses ends up holding both colours
        game.position.make_named(name)
    state = game.state()
    assert state["over"] and state["outcome"] == "draw" and state["winner"] is None
    assert state["result"].startswith("draw") and state["crosses"] == []


def test_the_cli_server_prints_its_address_and_nothing_else(tmp_path):
    import subprocess
    import sys

    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from boardpuzzles.cli import main; main()",
            "baikago",
            "serve",
            "--port",
            "0",
            "-n",
            "7",
            "--games",
            str(tmp_path / "games.sqlite"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        watchdog = threading.Timer(120, server.kill)
        watchdog.start()
        line = server.stderr.readline()
        while line.startswith("preparing"):  # said only when compiling takes a while
            line = server.stderr.readline()
        assert line.startswith("Baikago on http://127.0.0.1:"), line
        port = int(line.split(":")[2].split("/")[0])
        assert new_game(port)["size"] == 7
        for raw in (b"[" * 60_000, b"{", b""):
            request(port, "POST", "/api/new", raw_body=raw)
        for _ in range(20):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
        assert new_game(port)["size"] == 7
    finally:
        server.terminate()
        out, err = server.communicate(timeout=30)
        watchdog.cancel()
    assert out == "" and err == ""
    assert server.returncode == 0  # a kill (SIGTERM) stops a server quietly, as a service
