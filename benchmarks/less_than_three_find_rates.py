"""How often attempts of ``less-than-three find``'s orbit search succeed, by restart schedule and noise.

    python benchmarks/less_than_three_find_rates.py --size 36 --schedules luby:1000 fixed:16000 --seconds 60
    python benchmarks/less_than_three_find_rates.py --size 36 --noises 0.25 0.5 1 --seconds 60

For each configuration, one core makes attempts (the shipped kernel, one seed per attempt) for
``--seconds`` and prints the attempts, the boards found, how many of them differ, and the seconds
per board. A schedule is ``luby:U`` (attempt i gets U times the i-th term of Luby's sequence,
capped as in ``find``; the shipped one is ``luby:1000``) or ``fixed:B`` (every attempt B steps).
Boards are rare events, so two configurations differ only when the counts differ by much more
than their square roots; run them side by side (one process per core) on a quiet machine.
Every board passes the checker and the symmetry test.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Iterator

import numpy as np

from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.less_than_three import orbit_find as large

#: One line of the table: n, schedule, noise, attempts, boards, distinct boards, seconds, s per board.
ROW = "{:>3} {:>14} {:>5} {:>9} {:>6} {:>8} {:>7} {:>9}"


def parse_schedule(schedule: str) -> tuple[str, int]:
    kind, _, amount = schedule.partition(":")
    if kind not in ("luby", "fixed") or not amount.isdigit() or int(amount) < 1:
        raise SystemExit(f"unknown schedule {schedule!r}: use luby:U or fixed:B (U, B positive step counts)")
    return kind, int(amount)


def budgets(schedule: str) -> Iterator[int]:
    """The step budget of attempt 1, 2, ... under the schedule."""
    kind, unit = parse_schedule(schedule)
    for attempt in itertools.count(1):
        yield unit if kind == "fixed" else min(unit * large._luby(attempt), large.MAX_BUDGET)


def rate(n: int, schedule: str, noise: float, seconds: float, seed: int) -> str:
    built = large.tables(n, Limits())
    kernels = large._kernels()
    flag = np.zeros(1, dtype=np.int64)
    halt = np.zeros(1, dtype=np.int64)
    built.attempt(1, 10, flag, halt, noise)  # compile outside the clock
    attempts = boards = 0
    distinct: set[bytes] = set()
    started = time.perf_counter()
    for budget in budgets(schedule):
        if time.perf_counter() - started >= seconds:
            break
        attempts += 1
        status, placed, _ = built.attempt((seed * 1_000_003 + attempts) % 2_147_483_646, budget, flag, halt, noise)
        if status == kernels.FOUND:
            large.check_found(large.board_of(n, built.orbits, placed), built.symmetry)
            boards += 1
            distinct.add(placed.tobytes())
        elif status == kernels.NONE:
            return f"{n:>3} {schedule:>14} {noise:>5} the class holds no board"
    elapsed = time.perf_counter() - started
    per_board = f"{elapsed / boards:.2f}" if boards else "-"
    return ROW.format(n, schedule, noise, f"{attempts:,}", boards, len(distinct), f"{elapsed:.1f}", per_board)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=36)
    parser.add_argument("--schedules", nargs="+", default=["luby:1000"])
    parser.add_argument("--noises", nargs="+", type=float, default=[large.NOISE])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.size < large.FIRST_SIZE:
        raise SystemExit(f"--size must be at least {large.FIRST_SIZE} (smaller sizes use the cell search)")
    for schedule in args.schedules:
        parse_schedule(schedule)
    print(ROW.format("n", "schedule", "noise", "attempts", "boards", "distinct", "seconds", "s/board"))
    for schedule, noise in itertools.product(args.schedules, args.noises):
        print(rate(args.size, schedule, noise, args.seconds, args.seed), flush=True)


if __name__ == "__main__":
    main()
