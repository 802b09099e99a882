"""Baikago: do the opening books of 10x10 to 15x15 win? (not part of the test run, nor of `make bench`)

    python benchmarks/baikago_opening_books.py                  # every board, every position
    python benchmarks/baikago_opening_books.py --sizes 11 --every 20

On a board that black wins by threats, the computer at strength 4 plays black's first three
moves from the board's opening book (the first moves of the record's strategy) and every later
move from a threat-space search of the position. This plays the book against every reply of
white (one position per symmetry class): the book must have black's move while at most four
stones are on the board, and after each of white's replies to black's third stone (the book's
edge) a threat-space search of at most ``THREAT_NODES`` nodes must find black's win. Printed
per board: the book's positions, the edge positions and how many were searched, the most nodes
one took, the positions where the book or the search failed (0 for a book that wins) and the
CPU seconds. With ``--games K``, the computer at strength 4 then plays black on each board against
a random player and strengths 2 and 3, K games each (seeds 0 to K-1), and the games won and the
most nodes one of its searches took are printed.
"""

from __future__ import annotations

import argparse
import sys
import time

from boardpuzzles.puzzles.baikago.perfect import OPENING_BOOKS, check_opening
from boardpuzzles.puzzles.baikago.rules import Rules


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sizes = ",".join(str(rules.size) for rules in OPENING_BOOKS)
    parser.add_argument("--sizes", default=sizes, help=f"board sizes, comma-separated (default {sizes})")
    parser.add_argument("--every", type=int, default=1, help="search one edge position in this many (default 1: all)")
    parser.add_argument("--games", type=int, default=0, help="games per opponent and board, after the check")
    args = parser.parse_args()
    known = {rules.size for rules in OPENING_BOOKS}
    if not all(s.strip().isdigit() and int(s) in known for s in args.sizes.split(",")):
        parser.error(f"--sizes takes sizes of boards with an opening book ({sizes}), not {args.sizes!r}")
    if args.every < 1 or args.games < 0:
        parser.error("--every takes 1 or more, --games 0 or more")
    print(f"{'board':>6} {'book':>7} {'edge':>10} {'searched':>10} {'most nodes':>11} {'failed':>7} {'CPU s':>8}")
    failed = 0
    for size in (int(s) for s in args.sizes.split(",")):
        start = time.process_time()
        found = check_opening(Rules(size), args.every)
        searched = (found.edge_positions + args.every - 1) // args.every
        failed += len(found.missing)
        print(
            f"{size}x{size:<3} {found.book_positions:>7,} {found.edge_positions:>10,} {searched:>10,}"
            f" {found.most_nodes:>11,} {len(found.missing):>7} {time.process_time() - start:>8.1f}",
            flush=True,
        )
        for picture in found.missing:
            print(f"  failed: {picture}")
    if args.games:
        failed += play_games(args.sizes, args.games)
    return 1 if failed else 0


def play_games(sizes: str, games: int) -> int:
    """Strength 4 as black against each opponent, ``games`` seeds each: the games it did not win."""
    from boardpuzzles.puzzles.baikago.ai import ComputerPlayer, RandomPlayer
    from boardpuzzles.puzzles.baikago.game import Position
    from boardpuzzles.puzzles.baikago.perfect import perfect_move
    from boardpuzzles.puzzles.baikago.rules import BLACK

    print(f"\n{'board':>6} {'games':>6} {'won':>5} {'most nodes':>11}")
    lost = 0
    for size in (int(s) for s in sizes.split(",")):
        rules, won, most = Rules(size), 0, 0
        for seed in range(games):
            for opponent in (RandomPlayer(seed), *(ComputerPlayer(rules, strength=s, seed=seed) for s in (2, 3))):
                position = Position(rules)
                while not position.is_game_over():
                    if position.turn == BLACK:
                        found = perfect_move(rules, list(position.board))
                        if found is None:  # no perfect move: the game is not counted as won
                            break
                        most = max(most, found.nodes)
                        position.make(found.point)
                    else:
                        position.make(opponent.choose_for(position).move)
                outcome = position.outcome()
                won += outcome is not None and outcome.winner == BLACK
        lost += 3 * games - won
        print(f"{size}x{size:<3} {3 * games:>6} {won:>5} {most:>11,}", flush=True)
    return lost


if __name__ == "__main__":
    sys.exit(main())
