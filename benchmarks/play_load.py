"""``boardpuzzles serve`` under many players at once (not part of the test run; loopback only).

    python benchmarks/play_load.py                          # 200 players for 60 s
    python benchmarks/play_load.py --players 20 --seconds 10

Starts ``boardpuzzles serve`` on a free port of 127.0.0.1 with its games in a temporary SQLite
file, then lets each player (a thread) play as the page does: start a puzzle (the players take
the playable puzzles in turn, each at its default size and difficulty), and until the time is
up think (``--think`` seconds on average, uniformly from none to twice that) and click a random
cell with a random tool (``/click``; a click the rules refuse is answered 422, as a person's
would be), now and then undo (one move in ten) or ask for a hint (one in fifty); a solved
puzzle, or one played ``--moves`` times, is left for a new one (``replaces``). Each request has
a connection of its own.

Before the clock starts, one puzzle of each kind is made (its kernels loaded), so the figures
are those of a server in use, not of its first minute.

Reported as ``web_load.py`` reports Baikago: requests, clicks and games; lost games (404 while
playing, or an open game not readable at the end); server errors (5xx, 503 refusals
included), refusals (422), other answers and failed connections; per request kind the median,
99th percentile and worst latency; the moves (clicks and undos, hints counted apart) against
the goal, a 99th percentile of at most 1 s; the server's CPU time per request; and the load
average at the start (other work on the machine slows every figure). The players run in this
process, on the same cores as the server. It stops by itself (``--seconds``, then at most
``--grace``); at most 2,000 players and 1,800 s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from web_load import MAX_PLAYERS, MAX_SECONDS, Tally, call, percentile, start_server

PUZZLES = ("dominoes", "goishi", "hyperqueen", "kings", "knights-tour", "less-than-three", "queens")
KINDS = ("new", "click", "undo", "hint", "read back")
#: The goal: a move (a click or an undo) answered within this many seconds, 99 times in 100.
GOAL_P99 = 1.0


def cpu_seconds(pid: int) -> float | None:
    """The CPU time a process has used (Linux), or None where it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def player(port: int, index: int, args: argparse.Namespace, stop_at: float, tally: Tally) -> None:
    """Play puzzles as the page does until ``stop_at``."""
    rng = random.Random(args.seed * 100_003 + index)
    name = args.puzzles[index % len(args.puzzles)]
    game: dict | None = None
    played = 0
    time.sleep(rng.uniform(0, min(2 * args.think, 2.0)))  # the players do not all come at once
    while time.monotonic() < stop_at:
        if game is None or game["solved"] or played >= args.moves:
            body = {"replaces": game["game"]} if game else {}
            status, answer = call(port, "POST", f"/api/{name}/new", body, tally, "new")
            if status != 200 or answer is None:
                time.sleep(0.5)
                continue
            game, played = answer, 0
            with tally.lock:
                tally.games.append(game["game"])
            continue
        time.sleep(rng.uniform(0, 2 * args.think))
        if time.monotonic() >= stop_at:
            break
        draw = rng.random()
        if draw < 0.1 and game["can_undo"]:
            kind, body = "undo", {}
        elif 0.1 <= draw < 0.1 + args.hints:
            kind, body = "hint", {}
        else:
            cells = game["geometry"]["rows"] * game["geometry"]["cols"]
            kind, body = "click", {"cell": rng.randrange(cells), "tool": rng.choice(game["tools"])}
        status, answer = call(port, "POST", f"/api/games/{game['game']}/{kind}", body, tally, kind)
        if status == 404:
            game = None
            continue
        if status != 200 or answer is None:
            continue
        game = answer
        played += 1
        with tally.lock:
            tally.moves += 1
            tally.finished += bool(game["solved"])
    if game is not None and not game["solved"]:
        with tally.lock:
            tally.open_at_end.append(game["game"])


def run(args: argparse.Namespace, command: list[str]) -> Tally:
    tally = Tally()
    server, port = start_server(command, tally.server_lines)
    try:
        warm = Tally()
        for name in args.puzzles:  # each kind's kernels loaded before the clock starts
            call(port, "POST", f"/api/{name}/new", {}, warm, "warm-up")
        cpu_before = cpu_seconds(server.pid)
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
            game for game in list(tally.games) if call(port, "GET", f"/api/games/{game}", None, reads, "read")[0] == 200
        }
        tally.lost_at_end = sum(1 for game in tally.open_at_end if game not in kept)
        tally.kept_at_end = len(kept)
        tally.latency["read back"] = reads.latency["read"]
        tally.still_running = sum(thread.is_alive() for thread in threads)
        cpu_after = cpu_seconds(server.pid)
        if cpu_before is not None and cpu_after is not None:
            tally.server_cpu = cpu_after - cpu_before
    finally:
        server.terminate()
        try:
            server.communicate(timeout=30)
        except Exception:  # noqa: BLE001 - a server that will not stop is killed
            server.kill()
    return tally


def report(args: argparse.Namespace, tally: Tally) -> None:
    errors = sum(n for status, n in tally.status.items() if status >= 500)
    refused = tally.status.get(422, 0)
    others = sum(n for status, n in tally.status.items() if status not in (200, 404, 422) and status < 500)
    puzzles = ", ".join(args.puzzles)
    print(
        f"{args.players} players, {args.seconds:g} s, think {args.think:g} s on average, hints "
        f"{args.hints:.0%} of moves, puzzles {puzzles}"
    )
    print(f"load average at the start: {args.load}")
    print(
        f"requests {sum(tally.status.values()):,}, moves answered {tally.moves:,}, games started "
        f"{len(tally.games):,}, solved {tally.finished:,}"
    )
    print(
        f"lost games: {tally.lost_while_playing} answers 404 while playing; {tally.lost_at_end} of "
        f"{len(tally.open_at_end)} games still open at the end not readable "
        f"(all games readable at the end: {tally.kept_at_end:,} of {len(tally.games):,}; "
        "solved and left ones make room for new ones past the server's --max-games)"
    )
    print(
        f"server errors (5xx): {errors}; clicks refused by the rules (422): {refused}; other non-200 "
        f"answers: {others}; failed connections: {sum(tally.failed.values())} {dict(tally.failed) or ''}".rstrip()
    )
    if tally.server_lines:
        print(f"the server wrote {len(tally.server_lines)} lines on stderr, the first: {tally.server_lines[0].strip()}")
    if tally.still_running:
        print(f"{tally.still_running} players were still waiting for an answer at the end")
    requests = sum(tally.status.values())
    if tally.server_cpu is not None and requests:
        print(f"server CPU: {tally.server_cpu:.1f} s, {1000 * tally.server_cpu / requests:.1f} ms a request")
    moves = tally.latency.get("click", []) + tally.latency.get("undo", [])
    if moves:
        p99 = percentile(moves, 0.99)
        verdict = "met" if p99 <= GOAL_P99 else "NOT met"
        print(
            f"moves (clicks and undos, hints apart): {len(moves):,}, p50 {statistics.median(moves):.3f} s, "
            f"p99 {p99:.3f} s: goal p99 <= {GOAL_P99:g} s {verdict}"
        )
    print(f"{'request':<10} {'count':>8} {'p50 s':>8} {'p99 s':>8} {'max s':>8}")
    for kind in KINDS:
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
    parser.add_argument("--moves", type=int, default=40, help="moves before a player leaves a puzzle (default 40)")
    parser.add_argument("--puzzles", default=",".join(PUZZLES), help="the puzzles played, by name, comma-separated")
    parser.add_argument(
        "--hints", type=float, default=0.02, help="the share of moves that ask for a hint (default 0.02)"
    )
    parser.add_argument("--grace", type=float, default=30.0, help="seconds to wait for late answers (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.puzzles = [name for name in args.puzzles.split(",") if name]
    if not 1 <= args.players <= MAX_PLAYERS or not 0 < args.seconds <= MAX_SECONDS:
        parser.error(f"--players from 1 to {MAX_PLAYERS}, --seconds more than 0 and at most {MAX_SECONDS}")
    if args.think < 0 or not 0 <= args.grace <= 600 or args.moves < 1 or not args.puzzles or not 0 <= args.hints <= 0.9:
        parser.error(
            "--think at least 0, --grace from 0 to 600, --moves at least 1, --puzzles not empty, --hints 0 to 0.9"
        )
    args.load = ", ".join(f"{load:.1f}" for load in os.getloadavg())
    with tempfile.TemporaryDirectory() as folder:
        games = Path(folder) / "games.sqlite"
        command = [sys.executable, "-m", "boardpuzzles", "serve", "--port", "0", "--games", str(games)]
        report(args, run(args, command))


if __name__ == "__main__":
    main()
