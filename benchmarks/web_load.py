"""Baikago's web server under many players at once (not part of the test run; loopback only).

    python benchmarks/web_load.py                          # 200 players for 60 s
    python benchmarks/web_load.py --players 20 --seconds 10
    python benchmarks/web_load.py --players 10 --strength 4 --think 0 --seconds 30

Starts ``boardpuzzles baikago serve`` on a free port of 127.0.0.1 with its games in a temporary
SQLite file, then lets each player (a thread) play as the page does: start a game, and until the
time is up, think (``--think`` seconds on average, uniformly from none to twice that), place a
stone on a random free point (``/api/move``), ask for the computer's reply (``/api/reply``),
and start a new game (``replaces`` the old one) when a game ends. Each request has a connection
of its own, as the server closes one after each answer.

Reported: requests, moves and games; lost games (404: a game the server no longer has, while it
was being played, or a game still open at the end that cannot be read back then), server errors
(5xx, 503 refusals included), other answers and failed connections; and per request kind the
median, 99th percentile and worst latency. The players run in this process, on the same cores
as the server: on a small machine they take part of the CPU time the figures measure.

It stops by itself: each player stops starting requests at the end of ``--seconds`` and the run
gives up waiting on any ``--grace`` seconds after that. Bounds: at most 2,000 players and
1,800 s.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

MAX_PLAYERS = 2000
MAX_SECONDS = 1800


class Tally:
    """What the players saw, shared (under a lock) by all of them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.status: Counter[int] = Counter()
        self.lost_while_playing = 0
        self.failed: Counter[str] = Counter()
        self.games: list[str] = []
        self.finished = 0
        self.moves = 0
        self.open_at_end: list[str] = []  # each player's game, unfinished when the time was up
        self.lost_at_end = 0
        self.kept_at_end = 0
        self.still_running = 0
        self.server_lines: list[str] = []
        self.server_cpu: float | None = None  # seconds the server used while the players played

    def note(self, kind: str, seconds: float, status: int) -> None:
        with self.lock:
            self.latency[kind].append(seconds)
            self.status[status] += 1
            if status == 404:
                self.lost_while_playing += 1


def call(port: int, method: str, path: str, body: dict | None, tally: Tally, kind: str) -> tuple[int, dict | None]:
    """One request on a connection of its own: (status, JSON answer); status 0 when it failed."""
    payload = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if payload is not None else {}
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(method, path, payload, headers)
        response = connection.getresponse()
        data = response.read()
        status = response.status
    except (OSError, http.client.HTTPException) as err:
        with tally.lock:
            tally.failed[type(err).__name__] += 1
        return 0, None
    finally:
        connection.close()
    tally.note(kind, time.monotonic() - started, status)
    try:
        return status, json.loads(data)
    except ValueError:
        return status, None


def player(port: int, index: int, args: argparse.Namespace, stop_at: float, tally: Tally) -> None:
    """Play games as the page does until ``stop_at``."""
    rng = random.Random(args.seed * 100_003 + index)
    settings = {"human": "black", "strength": args.strength, "size": args.size}
    game: dict | None = None
    time.sleep(rng.uniform(0, min(2 * args.think, 2.0)))  # the players do not all come at once
    while time.monotonic() < stop_at:
        if game is None or game.get("over"):
            body = dict(settings, replaces=game["game"]) if game else settings
            status, answer = call(port, "POST", "/api/new", body, tally, "new")
            if status != 200 or answer is None:
                time.sleep(0.5)
                continue
            game = answer
            with tally.lock:
                tally.games.append(game["game"])
            continue
        time.sleep(rng.uniform(0, 2 * args.think))
        if time.monotonic() >= stop_at:
            break
        free = [name for name in game["names"] if name not in set(game["moves"])]
        body = {"game": game["game"], "point": rng.choice(free), "ply": len(game["moves"])}
        status, answer = call(port, "POST", "/api/move", body, tally, "move")
        if status != 200 or answer is None:
            game = None if status == 404 else game
            continue
        game = answer
        with tally.lock:
            tally.moves += 1
        if not game["over"]:
            status, answer = call(port, "POST", "/api/reply", {"game": game["game"]}, tally, "reply")
            if status != 200 or answer is None:
                game = None if status == 404 else game
                continue
            game = answer
        if game["over"]:
            with tally.lock:
                tally.finished += 1
    if game is not None and not game.get("over"):
        with tally.lock:
            tally.open_at_end.append(game["game"])


def start_server(command: list[str], said: list[str]) -> tuple[subprocess.Popen, int]:
    """The server, and the port it says it listens on; what it says after that goes to ``said``."""
    server = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert server.stderr is not None
    line = server.stderr.readline()
    while line.startswith(("preparing", "compiling")):  # said while the kernels compile, once
        line = server.stderr.readline()
    if "http://127.0.0.1:" not in line:
        server.kill()
        raise SystemExit(f"the server did not start: {line.strip()}")
    stderr = server.stderr
    threading.Thread(target=lambda: said.extend(stderr), daemon=True).start()
    return server, int(line.split("http://127.0.0.1:")[1].split("/")[0])


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(args: argparse.Namespace, command: list[str]) -> Tally:
    tally = Tally()
    server, port = start_server(command, tally.server_lines)
    try:
        stop_at = time.monotonic() + args.seconds
        threads = [
            threading.Thread(target=player, args=(port, i, args, stop_at, tally), daemon=True)
            for i in range(args.players)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(max(0.0, stop_at + args.grace - time.monotonic()))
        reads = Tally()
        kept = {
            game
            for game in list(tally.games)
            if call(port, "GET", f"/api/state?game={game}", None, reads, "read")[0] == 200
        }
        tally.lost_at_end = sum(1 for game in tally.open_at_end if game not in kept)
        tally.kept_at_end = len(kept)
        tally.latency["read back"] = reads.latency["read"]
        tally.still_running = sum(thread.is_alive() for thread in threads)
    finally:
        server.terminate()
        try:
            server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    return tally


def report(args: argparse.Namespace, tally: Tally) -> None:
    errors = sum(n for status, n in tally.status.items() if status >= 500)
    others = sum(n for status, n in tally.status.items() if status not in (200, 404) and status < 500)
    print(
        f"{args.players} players, {args.seconds:g} s, strength {args.strength}, {args.size}x{args.size}, "
        f"think {args.think:g} s on average"
    )
    print(
        f"requests {sum(tally.status.values()):,}, moves {tally.moves:,}, games started {len(tally.games):,}, "
        f"finished {tally.finished:,}"
    )
    print(
        f"lost games: {tally.lost_while_playing} answers 404 while playing; {tally.lost_at_end} of "
        f"{len(tally.open_at_end)} games still open at the end not readable "
        f"(all games readable at the end: {tally.kept_at_end:,} of {len(tally.games):,}; "
        "finished and left ones make room for new ones past the server's --max-games)"
    )
    print(
        f"server errors (5xx): {errors}; other non-200 answers: {others}; "
        f"failed connections: {sum(tally.failed.values())} {dict(tally.failed) or ''}".rstrip()
    )
    if tally.server_lines:
        print(f"the server wrote {len(tally.server_lines)} lines on stderr, the first: {tally.server_lines[0].strip()}")
    if tally.still_running:
        print(f"{tally.still_running} players were still waiting for an answer at the end")
    print(f"{'request':<10} {'count':>8} {'p50 s':>8} {'p99 s':>8} {'max s':>8}")
    for kind in ("new", "move", "reply", "read back"):
        values = tally.latency.get(kind)
        if values:
            print(
                f"{kind:<10} {len(values):>8,} {statistics.median(values):>8.3f} "
                f"{percentile(values, 0.99):>8.3f} {max(values):>8.3f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200, help="players at once (default 200)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long they play (default 60)")
    parser.add_argument("--think", type=float, default=1.0, help="a player's mean pause before a move (default 1)")
    parser.add_argument("--strength", type=int, default=2, choices=(1, 2, 3, 4), help="the computer's (default 2)")
    parser.add_argument("--size", type=int, default=15, help="board side (default 15)")
    parser.add_argument("--grace", type=float, default=30.0, help="seconds to wait for late answers (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 1 <= args.players <= MAX_PLAYERS or not 0 < args.seconds <= MAX_SECONDS:
        parser.error(f"--players from 1 to {MAX_PLAYERS}, --seconds more than 0 and at most {MAX_SECONDS}")
    if args.think < 0 or not 0 <= args.grace <= 600:
        parser.error("--think at least 0, --grace from 0 to 600")
    with tempfile.TemporaryDirectory() as folder:
        games = Path(folder) / "games.sqlite"
        command = [sys.executable, "-m", "boardpuzzles", "baikago", "serve", "--port", "0", "--size", str(args.size)]
        report(args, run(args, [*command, "--games", str(games)]))


if __name__ == "__main__":
    main()
