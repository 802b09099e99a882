"""Baikago: the pairing test of the df-pn search on a fixed corpus of 8x8 positions (not part of
the test run, nor of `make bench`).

    python benchmarks/baikago_pairings.py                      # both corpora, budgets 2,000 and 20,000
    python benchmarks/baikago_pairings.py --corpus search --budgets 2000

``pairing_search`` is what the df-pn search (``baikago solve``) runs at the attacker's nodes: 1 a
pairing found (the node is disproved), 0 none exists, -1 its budget of search nodes ran out. Two
corpora of positions with black (the attacker) to move, where the search would test them (not
terminal, ``pairing_promise`` at least ``PAIR_PROMISE``):

``search``    positions the real 8x8 search tested: every 7th pairing test of 120 s of
              ``baikago solve 8 --side black --threats-from 18 --tt-bits 25`` continued from its
              checkpoint at 40,644,608 nodes, captured with an instrumented copy of the kernel;
              4,000 of them, at random (``data/baikago_pairing_positions.npy``: one row a
              position, its 64 points then the level of the test there and its result);
``playouts``  positions of games on 8x8 from a fixed seed, each move the best-scored point (the
              search's own move scores) or, one time in three, a random one; positions of 14 to
              30 stones kept, at most 3 a game.

Printed per corpus and budget: how many tests found a pairing, proved that none exists or ran
out of budget, and the CPU microseconds a test (mean over the corpus, compiling excluded).
"""

from __future__ import annotations

import argparse
import pathlib
import random
import time

import numpy as np

from boardpuzzles.puzzles.baikago.dfpn import Search
from boardpuzzles.puzzles.baikago.rules import BLACK, WHITE, Rules

CAPTURED = pathlib.Path(__file__).parent / "data" / "baikago_pairing_positions.npy"


def counts(board: np.ndarray, rules: Rules) -> np.ndarray:
    stones = board[rules.table.cells]
    cnt = np.zeros((3, len(rules.table)), dtype=np.int16)
    cnt[BLACK] = (stones == BLACK).sum(axis=1)
    cnt[WHITE] = (stones == WHITE).sum(axis=1)
    return cnt


def testable(search: Search, board: np.ndarray, cnt: np.ndarray) -> bool:
    """Would the df-pn search test this position (black to move) for a pairing?"""
    k, t = search.k, search.tables
    blocks = np.empty(board.shape[0], dtype=np.int32)
    empty = int((board == 0).sum())
    if k.node_status(board, cnt, t.cells, BLACK, BLACK, empty, blocks) != 0:
        return False
    return bool(k.pairing_promise(board, cnt, t, BLACK) >= k.PAIR_PROMISE)


def playouts(search: Search, count: int, seed: int) -> list[np.ndarray]:
    rules, k, t = search.rules, search.k, search.tables
    rng = random.Random(seed)
    found: list[np.ndarray] = []
    while len(found) < count:
        board = np.zeros(rules.size**2, dtype=np.int8)
        cnt = counts(board, rules)
        kept = 0
        for stones in range(31):
            me = BLACK if stones % 2 == 0 else WHITE
            if me == BLACK and 14 <= stones and kept < 3 and testable(search, board, cnt):
                found.append(board.copy())
                kept += 1
            empty = [p for p in range(board.shape[0]) if board[p] == 0]
            if rng.random() < 1 / 3:
                move = rng.choice(empty)
            else:
                scores = [int(k.point_score(t, cnt, me, p)) for p in empty]
                best = max(scores)
                move = rng.choice([p for p, s in zip(empty, scores, strict=True) if s == best])
            board[move] = me
            cnt = counts(board, rules)
            if cnt[me].max() == 5:
                break
    return found[:count]


def measure(search: Search, boards: list[np.ndarray], budget: int) -> tuple[list[int], float]:
    t = search.tables
    cells, through, tcount = t.cells, t.through, t.tcount
    prepared = [(board, counts(board, search.rules)) for board in boards]
    partner = np.empty(boards[0].shape[0], dtype=np.int32)
    results = []
    started = time.process_time()
    for board, cnt in prepared:
        results.append(int(search.k.pairing_search(board, cnt, cells, through, tcount, BLACK, partner, budget)))
    return results, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=["search", "playouts", "both"], default="both")
    parser.add_argument("--budgets", default="2000,20000", help="comma-separated (default 2000,20000)")
    parser.add_argument("--playouts", type=int, default=3000, help="positions of the playout corpus")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    search = Search(Rules(8), BLACK, tt_bits=10)
    corpora: list[tuple[str, list[np.ndarray]]] = []
    if args.corpus in ("search", "both"):
        corpora.append(("search", [row[:64].copy() for row in np.load(CAPTURED)]))
    if args.corpus in ("playouts", "both"):
        corpora.append(("playouts", playouts(search, args.playouts, args.seed)))
    measure(search, corpora[0][1][:5], 100)  # compile
    print(f"{'corpus':<9} {'positions':>9} {'budget':>7} {'found':>6} {'none':>6} {'budget out':>10} {'us a test':>10}")
    for name, boards in corpora:
        for budget in (int(b) for b in args.budgets.split(",")):
            results, seconds = measure(search, boards, budget)
            print(
                f"{name:<9} {len(boards):>9} {budget:>7} {results.count(1):>6} {results.count(0):>6} "
                f"{results.count(-1):>10} {1e6 * seconds / len(boards):>10.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
