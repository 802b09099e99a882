"""Baikago: the strength ladder, matches between the computer's strengths (not part of the test
run, nor of `make bench`: a full ladder takes hours on a loaded machine).

    python benchmarks/baikago_ladder.py                          # 15x15, strengths 1-4, 50 games a pair
    python benchmarks/baikago_ladder.py --strengths 1,2,3 --games 50 --pair-seconds 600

Every pair of strengths plays ``--games`` games, colours alternating (the weaker strength has
black in the even games), each game with fresh players seeded by the game's number. A pair stops
early when its games have taken ``--pair-seconds``; the table then says how many were played.
The strengths think for a fixed time a move (``ai.STRENGTHS``), so on a loaded machine each
searches less deeply than on an idle one: quote the load with the figures.

Printed: for each pair the stronger side's wins, losses, draws, its score ((wins + draws / 2) /
games) with a 95% Wilson interval, its score with each colour, and the mean plies a game; then
the score table (row against column).
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import time

from boardpuzzles.puzzles.baikago import BLACK, Position, Rules
from boardpuzzles.puzzles.baikago.ai import STRENGTHS, ComputerPlayer


def play(rules: Rules, black: ComputerPlayer, white: ComputerPlayer) -> tuple[int | None, int]:
    """One game: the winner's colour (None for a draw) and its length in plies."""
    position = Position(rules)
    while not position.is_game_over():
        player = black if position.turn == BLACK else white
        position.make(player.choose_for(position).move)
    return position.outcome().winner, len(position.move_stack)


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--strengths", default=",".join(str(s) for s in sorted(STRENGTHS)))
    parser.add_argument("--games", type=int, default=50, help="games per pair (default 50)")
    parser.add_argument("--pair-seconds", type=float, default=None, help="stop a pair after this long")
    args = parser.parse_args()
    rules = Rules(args.size)
    strengths = [int(s) for s in args.strengths.split(",")]
    # Compile the kernels outside the matches.
    warm = Position(Rules(7))
    ComputerPlayer(Rules(7), strength=1).choose_for(warm)
    warm.make(24)
    ComputerPlayer(Rules(7), strength=2).choose_for(warm)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{rules.describe()}, {args.games} games per pair, load average {load:.1f} on {os.cpu_count()} cores")
    print(
        f"{'pair':<7} {'games':>5} {'won':>4} {'lost':>4} {'drawn':>5} {'score':>6} {'95% interval':>13} "
        f"{'as black':>8} {'as white':>8} {'plies':>6} {'s/game':>7}"
    )
    table: dict[tuple[int, int], float] = {}
    for weak, strong in itertools.combinations(strengths, 2):
        won = lost = drawn = 0
        by_colour = {"black": [0.0, 0], "white": [0.0, 0]}
        plies: list[int] = []
        started = time.perf_counter()
        for game in range(args.games):
            if args.pair_seconds is not None and time.perf_counter() - started > args.pair_seconds:
                break
            a = ComputerPlayer(rules, strength=weak, seed=2 * game)
            b = ComputerPlayer(rules, strength=strong, seed=2 * game + 1)
            strong_colour = "white" if game % 2 == 0 else "black"
            black, white = (a, b) if strong_colour == "white" else (b, a)
            winner, length = play(rules, black, white)
            plies.append(length)
            if winner is None:
                drawn += 1
                points = 0.5
            elif (winner == BLACK) == (strong_colour == "black"):
                won += 1
                points = 1.0
            else:
                lost += 1
                points = 0.0
            by_colour[strong_colour][0] += points
            by_colour[strong_colour][1] += 1
        games = len(plies)
        seconds = time.perf_counter() - started
        score = (won + drawn / 2) / games if games else float("nan")
        low, high = wilson(score, games)
        table[(strong, weak)] = score
        table[(weak, strong)] = 1 - score
        colour_scores = [f"{s / n:.0%}" if n else "-" for s, n in by_colour.values()]
        print(
            f"{strong} v {weak:<3} {games:>5} {won:>4} {lost:>4} {drawn:>5} {score:>6.0%} "
            f"{f'{low:.0%}-{high:.0%}':>13} {colour_scores[0]:>8} {colour_scores[1]:>8} "
            f"{sum(plies) / max(games, 1):>6.1f} {seconds / max(games, 1):>7.1f}",
            flush=True,
        )
    print()
    print("score of the row's strength against the column's")
    print("      " + "".join(f"{s:>6}" for s in strengths))
    for row in strengths:
        cells = "".join(f"{table[(row, col)]:>6.0%}" if row != col else f"{'-':>6}" for col in strengths)
        print(f"{row:>6}{cells}")


if __name__ == "__main__":
    main()
