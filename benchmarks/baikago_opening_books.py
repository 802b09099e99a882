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
CPU seconds.
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
    args = parser.parse_args()
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
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
