"""Baikago: the computer player's matches against a random and a greedy player (not part of the
test run).

    python benchmarks/baikago_speed.py                 # 15x15, about a minute
    python benchmarks/baikago_speed.py --games 40 --strength 2

The greedy player wins when it can, blocks an immediate loss, and otherwise plays where its own
live crosses gain most (ties at random). Each match is played with the computer as black and as
white; the figures are win rates and the computer's seconds per move (mean and worst), measured
after the kernels are compiled. The goals: 100% against random, at least 90% against greedy
with either colour, under 1 s per move on 15x15.
"""

from __future__ import annotations

import argparse
import statistics
import time

from boardpuzzles.puzzles.baikago import BLACK, WHITE, Position, Rules
from boardpuzzles.puzzles.baikago.ai import ComputerPlayer, GreedyPlayer, RandomPlayer


def play(rules: Rules, black, white, times: list[float], computer) -> int | None:
    """One game; the winner's colour (None for a draw). The computer's move times go to ``times``."""
    position = Position(rules)
    while not position.is_game_over():
        player = black if position.turn == BLACK else white
        started = time.perf_counter()
        choice = player.choose_for(position)
        if player is computer:
            times.append(time.perf_counter() - started)
        position.make(choice.move)
    return position.outcome().winner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--games", type=int, default=25, help="games per opponent and colour (default 25)")
    parser.add_argument("--strength", type=int, default=3)
    args = parser.parse_args()
    rules = Rules(args.size)
    # Compile the kernels outside the timings.
    ComputerPlayer(Rules(7), strength=args.strength).choose_for(Position(Rules(7)))
    warm = Position(Rules(7))
    warm.make(24)
    ComputerPlayer(Rules(7), strength=args.strength).choose_for(warm)

    print(f"{rules.describe()}, strength {args.strength}, {args.games} games per opponent and colour")
    print(
        f"{'opponent':<8} {'computer':<8} {'won':>5} {'lost':>5} {'drawn':>6} {'win rate':>9} "
        f"{'s/move':>7} {'worst':>6} {'moves/game':>10}"
    )
    all_times: list[float] = []
    for name, make_opponent in (("random", RandomPlayer), ("greedy", GreedyPlayer)):
        for colour in (BLACK, WHITE):
            won = lost = drawn = 0
            times: list[float] = []
            for game in range(args.games):
                computer = ComputerPlayer(rules, strength=args.strength, seed=game)
                opponent = make_opponent(seed=1000 + game)
                black, white = (computer, opponent) if colour == BLACK else (opponent, computer)
                winner = play(rules, black, white, times, computer)
                if winner is None:
                    drawn += 1
                elif winner == colour:
                    won += 1
                else:
                    lost += 1
            all_times += times
            print(
                f"{name:<8} {'black' if colour == BLACK else 'white':<8} {won:>5} {lost:>5} {drawn:>6} "
                f"{won / args.games:>8.0%} {statistics.mean(times):>7.3f} {max(times):>6.2f} "
                f"{len(times) / args.games:>10.1f}"
            )
    print(
        f"all computer moves: {len(all_times)}, mean {statistics.mean(all_times):.3f} s, worst {max(all_times):.2f} s"
    )


if __name__ == "__main__":
    main()
