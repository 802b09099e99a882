"""Baikago: can the attacker win by threats alone? (not part of the test run, nor of `make bench`)

    python benchmarks/baikago_threat_space.py                          # 7x7 and 8x8, black
    python benchmarks/baikago_threat_space.py --sizes 8 --free 8 --node-limit 50000000

A *threat-space* search is the df-pn search of ``baikago solve`` with the attacker held to
threats once ``F`` stones are on the board: from then on, where it is not forced, it plays only
moves that make a four or a double-four point (``threat_move``), and the defender, as in the
whole search, only moves that do not lose at once. Its tree is far narrower than the whole
game's. A win it finds is a win of the whole game (the defender's every reply is followed); a
position it cannot win says only that no such win exists. Printed per board and F: the outcome
(``win``, ``no threat-space win``, or ``open`` at the node limit), the search nodes and the CPU
seconds of the search (the first line includes compiling the kernels).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.baikago.dfpn import NodeLimitReached, Search
from boardpuzzles.puzzles.baikago.rules import BLACK, COLOUR_NAMES, WHITE, Rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="7,8", help="board sizes, comma-separated (default 7,8)")
    parser.add_argument("--free", default="2,4,6", help="values of F, comma-separated (default 2,4,6)")
    parser.add_argument("--side", choices=["black", "white"], default="black")
    parser.add_argument("--tt-bits", type=int, default=24)
    parser.add_argument("--node-limit", type=int, default=20_000_000)
    args = parser.parse_args()
    attacker = BLACK if args.side == "black" else WHITE
    print(f"{'board':>6} {'F':>3}  {'outcome':<22} {'nodes':>13} {'CPU s':>8}")
    for size in (int(s) for s in args.sizes.split(",")):
        for free in (int(f) for f in args.free.split(",")):
            search = Search(Rules(size), attacker, args.tt_bits, pairing_budget=0)
            search.threats_from = free
            search.budget_end = args.node_limit
            started = time.process_time()
            try:
                pn, _ = search.solve(np.zeros(size * size, dtype=np.int8), Limits())
                outcome = f"{COLOUR_NAMES[attacker]} wins" if pn == 0 else "no threat-space win"
            except NodeLimitReached:
                outcome = "open"
            seconds = time.process_time() - started
            print(f"{size}x{size:<4} {free:>3}  {outcome:<22} {search.nodes:>13,} {seconds:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
