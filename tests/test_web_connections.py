"""``baikago serve`` under slow and many clients: a request must arrive whole within the request
timeout in total (a client trickling a byte at a time is closed all the same), connections past
the bound get a 503 at once, normal requests are answered meanwhile, and an idle server sleeps."""

import os
import socket
import subprocess
import sys
import threading
import time

import pytest

from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.web import baikago as web
from tests.test_web_baikago import new_game, request

#: The test server's request timeout (the real one: web.REQUEST_TIMEOUT).
DEADLINE = 1.0


@pytest.fixture
def server():
    srv = web.make_server(0, bk.Rules(7), request_timeout=DEADLINE, warm=False, max_connections=12)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()
    thread.join(10)


def slow_loris(port: int, closed: list, stop: threading.Event) -> None:
    """Send a request's headers a byte every 50 ms for ever; note when the server closes."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        try:
            while not stop.is_set():
                sock.sendall(b"X")
                time.sleep(0.05)
                sock.setblocking(False)
                try:
                    if sock.recv(65536) == b"":
                        break
                except BlockingIOError:
                    pass
                finally:
                    sock.setblocking(True)
        except OSError:  # reset or broken pipe: closed too
            pass
        closed.append(time.monotonic() - started)


def test_slow_clients_are_closed_and_normal_requests_answered_meanwhile(server):
    port = server.server_address[1]
    closed: list[float] = []
    stop = threading.Event()
    lorises = [threading.Thread(target=slow_loris, args=(port, closed, stop), daemon=True) for _ in range(6)]
    for thread in lorises:
        thread.start()
    try:
        time.sleep(0.3)
        for _ in range(5):  # normal requests while the slow ones trickle
            status, _, page = request(port, "GET", "/")
            assert status == 200 and b"<html" in page.lower()
        for thread in lorises:
            thread.join(DEADLINE * 15)  # the per-read timeout of old never closed them
        assert len(closed) == 6, closed
        assert all(DEADLINE * 0.8 <= seconds < DEADLINE * 15 for seconds in closed), closed
    finally:
        stop.set()


def test_past_the_bound_a_new_connection_takes_the_place_of_a_silent_one(server, capfd):
    port = server.server_address[1]
    server.request_timeout = 30.0  # the silent ones would hold their places this long
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(server.max_connections)]
    try:
        time.sleep(0.3)  # every one of them has its thread
        started = time.monotonic()
        for _ in range(3):
            assert request(port, "GET", "/")[0] == 200
        assert time.monotonic() - started < 15  # answered, not kept waiting for a place
        time.sleep(0.3)
        closed = 0
        for sock in idle:
            sock.setblocking(False)
            try:
                closed += sock.recv(1) == b""
            except BlockingIOError:  # still open
                pass
        assert 1 <= closed <= 3  # the oldest gave way (one for each request that found no place)
    finally:
        for sock in idle:
            sock.close()
        server.request_timeout = DEADLINE
    time.sleep(0.5)  # the closed connections' handlers finish
    assert "Error" not in capfd.readouterr().err  # a connection closed before its request line is no bug


def test_past_the_bound_with_every_request_sent_a_new_connection_gets_a_503(server, monkeypatch):
    port = server.server_address[1]
    release = threading.Event()
    choose = server.computers.choose

    def held(*args):
        release.wait(30)
        return choose(*args)

    games = []
    for _ in range(server.max_connections):
        game = new_game(port)["game"]
        assert request(port, "POST", "/api/move", {"game": game, "point": "d4"})[0] == 200
        games.append(game)
    monkeypatch.setattr(server.computers, "choose", held)
    answers = []
    waiting = [
        threading.Thread(target=lambda g=g: answers.append(request(port, "POST", "/api/reply", {"game": g})[0]))
        for g in games
    ]
    for thread in waiting:
        thread.start()
    try:
        deadline = time.monotonic() + 30
        while (server.connections < server.max_connections or server.reading) and time.monotonic() < deadline:
            time.sleep(0.05)
        status, headers, answer = request(port, "GET", "/")
        assert status == 503 and headers["content-type"] == "application/json" and "busy" in answer["error"]
    finally:
        release.set()
        for thread in waiting:
            thread.join(60)
    assert answers == [200] * server.max_connections  # the waiting ones were answered, not dropped
    assert request(port, "GET", "/")[0] == 200


def process_cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads the CPU time from /proc")
def test_an_idle_server_uses_no_cpu(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardpuzzles", "baikago", "serve", "--port", "0", "-n", "7", "--games", ":memory:"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stderr.readline()
        while line.startswith("preparing"):
            line = proc.stderr.readline()
        assert line.startswith("Baikago on http://127.0.0.1:"), line
        port = int(line.split(":")[2].split("/")[0])
        # A few slow clients come and go first: the server must be idle after them.
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\n")
            assert request(port, "GET", "/")[0] == 200
        time.sleep(1)
        before = process_cpu_seconds(proc.pid)
        time.sleep(5)
        assert process_cpu_seconds(proc.pid) - before < 0.25  # 5% of a core: sleeping, not polling
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def test_the_computer_pool_shares_the_time_of_many_replies(monkeypatch):
    """Eight strength-4 replies at once on two workers: each thinks its share, and all come
    within the strength's time (3 s) with a wide margin, not one after another at 3 s each.
    Thinking is a wait here, so the figures do not depend on the machine's load."""
    from boardpuzzles.puzzles.baikago.ai import STRENGTHS, Choice, ComputerPlayer

    given, took = [], []

    def thinking(self, board, turn, limits=None):
        started = time.monotonic()
        while not limits.stopped:  # a search: until its time is up, or the pool cuts it short
            time.sleep(0.01)
        given.append(time.monotonic() - started)
        return Choice(0, "search")

    monkeypatch.setattr(ComputerPlayer, "choose", thinking)
    pool = web.ComputerPool(workers=2)
    rules = bk.Rules(7)

    def reply():
        started = time.monotonic()
        pool.choose(rules, 4, None, [0] * 49, bk.BLACK)
        took.append(time.monotonic() - started)

    threads = [threading.Thread(target=reply) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    promise = STRENGTHS[4].seconds
    assert len(took) == 8 and max(given) < promise / 2 and sum(given) <= promise * pool.workers
    assert max(took) < promise * 2, took  # one after another at full time would take 12 s
    assert pool.wanted == 0
