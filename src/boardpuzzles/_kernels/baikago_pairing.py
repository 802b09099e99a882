"""Pairings for the Baikago df-pn search (``baikago_solve``): disjoint pairs of empty points with
a pair inside every cross still open to the attacker, which prove that the attacker cannot win
(the defender answers a stone on one point of a pair with the other). ``pairing_search``
backtracks over the uncovered crosses, a forced one (two free points) first, else the one with
the fewest free points for its weight (its degree, and how often it ended a line of the search:
"dom/wdeg" in constraint programming); ``pairing_promise`` is the quick count that says whether a
search can succeed. The state is that of ``baikago_solve`` (``board``,
``cnt``, the crosses ``cells``, ``through``, ``tcount``)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from boardpuzzles._kernels import jit

#: A live cross's first weight in the pairing search, before its degree is added (the weight
#: grows by 1 each time the cross ends a line): on positions of the 8x8 search, 40 left 21 of
#: 4,000 tests of 2,000 nodes without an answer, 1 left 28 and a weight of 1 without the
#: degree 75 (``benchmarks/baikago_pairings.py``).
WEIGHT_BASE = 40


class PairState(NamedTuple):
    """A pairing search's state: ``partner[p]`` (the other point of p's pair, -1 unpaired, -2 a
    stone), per cross ``live`` (no defender stone), ``free`` (its unpaired empty points),
    ``covered`` (pairs inside it) and ``weight`` (how often it ended a line of the search), the
    uncovered live crosses as a set ``uncovered[:left[0]]`` (``where`` a cross stands in it),
    per depth the pairs to try (``tries``), and the node count ``nodes[0]``."""

    cells: np.ndarray
    through: np.ndarray
    tcount: np.ndarray
    partner: np.ndarray
    live: np.ndarray
    free: np.ndarray
    covered: np.ndarray
    weight: np.ndarray
    uncovered: np.ndarray
    where: np.ndarray
    left: np.ndarray
    tries: np.ndarray
    nodes: np.ndarray


@jit
def _in_cross(cells, k, q):
    for j in range(5):
        if cells[k, j] == q:
            return True
    return False


@jit
def _pair(s, a, b):
    """Pair a with b: the free and covered counts follow, and a cross the pair covers leaves the
    set of uncovered ones (swapped to its end, which ``_unpair`` moves back over)."""
    for i in range(s.tcount[a]):
        k = s.through[a, i]
        if s.live[k]:
            s.free[k] -= 1
            if _in_cross(s.cells, k, b):
                s.covered[k] += 1
                if s.covered[k] == 1:
                    last = s.left[0] - 1
                    j = s.where[k]
                    other = s.uncovered[last]
                    s.uncovered[j] = other
                    s.where[other] = j
                    s.uncovered[last] = k
                    s.where[k] = last
                    s.left[0] = last
    for i in range(s.tcount[b]):
        k = s.through[b, i]
        if s.live[k]:
            s.free[k] -= 1
    s.partner[a] = b
    s.partner[b] = a


@jit
def _unpair(s, a, b):
    """Undo ``_pair(s, a, b)``, the last pairing not yet undone: the crosses it covered stand
    just past the end of the uncovered set, which grows back over them."""
    for i in range(s.tcount[a]):
        k = s.through[a, i]
        if s.live[k]:
            s.free[k] += 1
            if _in_cross(s.cells, k, b):
                s.covered[k] -= 1
                if s.covered[k] == 0:
                    s.left[0] += 1
    for i in range(s.tcount[b]):
        k = s.through[b, i]
        if s.live[k]:
            s.free[k] += 1
    s.partner[a] = -1
    s.partner[b] = -1


@jit
def _insert_by_score(scores, firsts, seconds, count, score, first, second):
    """Insert (score, first, second) into the parallel arrays, whose first ``count`` entries are
    sorted by score, largest first (ties: the earlier one first)."""
    j = count
    while j > 0 and scores[j - 1] < score:
        scores[j] = scores[j - 1]
        firsts[j] = firsts[j - 1]
        seconds[j] = seconds[j - 1]
        j -= 1
    scores[j] = score
    firsts[j] = first
    seconds[j] = second


@jit
def _pair_gain(s, a, b):
    """How many uncovered live crosses the pair (a, b) would cover."""
    gain = 0
    for i in range(s.tcount[a]):
        k = s.through[a, i]
        if s.live[k] and s.covered[k] == 0 and _in_cross(s.cells, k, b):
            gain += 1
    return gain


@jit
def _open_node(s, depth):
    """The node at ``depth``: 1 every live cross is covered, 0 an uncovered one has fewer than
    two free points left (its weight grows), else 2 with the pairs of the cross to branch on in
    ``tries[depth]``: a cross with two free points (forced) if any, else the one with the
    fewest free points for its weight (the most entangled crosses, and those that ended lines
    before, come first), its pairs by how many uncovered crosses they cover."""
    n = s.left[0]
    if n == 0:
        return 1
    best = -1
    best_free = 6
    for i in range(n):
        k = s.uncovered[i]
        f = s.free[k]
        if f < 2:
            s.weight[k] += 1
            return 0
        if best_free != 2 and (f == 2 or best < 0 or f * s.weight[best] < best_free * s.weight[k]):
            best_free = f
            best = k
    row = s.tries[depth]  # [0] the cross, [1] pairs, [2] the next to try, then (gain, a, b)
    row[0] = best
    npairs = 0
    for x in range(5):
        a = s.cells[best, x]
        if s.partner[a] != -1:
            continue
        for y in range(x + 1, 5):
            b = s.cells[best, y]
            if s.partner[b] != -1:
                continue
            gain = _pair_gain(s, a, b)
            j = npairs
            while j > 0 and row[3 + 3 * (j - 1)] < gain:
                row[3 + 3 * j] = row[3 + 3 * (j - 1)]
                row[4 + 3 * j] = row[4 + 3 * (j - 1)]
                row[5 + 3 * j] = row[5 + 3 * (j - 1)]
                j -= 1
            row[3 + 3 * j] = gain
            row[4 + 3 * j] = a
            row[5 + 3 * j] = b
            npairs += 1
    row[1] = npairs
    row[2] = 0
    return 2


@jit
def _pair_search(s, budget):
    """Depth-first over the uncovered cross ``_open_node`` chooses, with a stack of its own
    (``tries``, one row a depth) rather than recursion; 1 found, 0 none, -1 budget."""
    depth = 0
    s.nodes[0] += 1
    state = _open_node(s, 0)
    if state != 2:
        return state
    while True:
        row = s.tries[depth]
        if state == 0:  # the line below the last pair tried failed: undo it
            i = row[2] - 1
            _unpair(s, row[4 + 3 * i], row[5 + 3 * i])
        if row[2] == row[1]:  # every pair of the cross failed
            s.weight[row[0]] += 1
            if depth == 0:
                return 0
            depth -= 1
            state = 0
            continue
        i = row[2]
        row[2] = i + 1
        _pair(s, row[4 + 3 * i], row[5 + 3 * i])
        s.nodes[0] += 1
        if s.nodes[0] > budget:
            return -1
        state = _open_node(s, depth + 1)
        if state == 1:
            return 1
        if state == 2:
            depth += 1
            state = 3  # a new node: nothing to undo


@jit
def pairing_promise(board, cnt, t, attacker):
    """How well the live crosses (those without a defender stone) could be paired, in percent:
    with ``m[p]`` the most live crosses that the empty point p shares with one other empty
    point, a pairing covers at most ``sum(m) / 2`` crosses, and it must cover them all; the
    promise is ``sum(m) / 2`` against their number. A guess, not a bound: of the 14,248
    pairing leaves of a 7x7 proof found without this gate, 98% score ``PAIR_PROMISE`` (135%) or
    more (the least 116%),
    while the empty 8x8 board, with no pairing, scores 110%, and positions early in an 8x8
    search rarely reach 135%."""
    defender = 3 - attacker
    need = 0
    for k in range(t.cells.shape[0]):
        if cnt[defender, k] == 0:
            need += 1
    if need == 0:
        return 1000
    n = board.shape[0]
    shared = np.zeros(n, dtype=np.int32)
    total = 0
    for p in range(n):
        if board[p] != 0:
            continue
        best = 0
        for i in range(t.tcount[p]):
            k = t.through[p, i]
            if cnt[defender, k] != 0:
                continue
            for j in range(5):
                q = t.cells[k, j]
                if q != p and board[q] == 0:
                    shared[q] += 1
                    if shared[q] > best:
                        best = shared[q]
        for i in range(t.tcount[p]):  # clear what p counted
            k = t.through[p, i]
            for j in range(5):
                shared[t.cells[k, j]] = 0
        total += best
    return 50 * total // need


@jit
def pairing_search(board, cnt, cells, through, tcount, attacker, partner, budget):
    """A pairing of empty points for the defender against ``attacker``, in ``partner`` (the
    other point of a pair, -1 unpaired, -2 taken). 1 found, 0 none exists, -1 the ``budget`` of
    search nodes ran out (unknown)."""
    defender = 3 - attacker
    ncross = cells.shape[0]
    live = np.zeros(ncross, dtype=np.bool_)
    free = np.zeros(ncross, dtype=np.int32)
    uncovered = np.empty(ncross, dtype=np.int32)
    where = np.empty(ncross, dtype=np.int32)
    nlive = 0
    for k in range(ncross):
        if cnt[defender, k] == 0:
            live[k] = True
            free[k] = 5 - cnt[attacker, k]
            uncovered[nlive] = k
            where[k] = nlive
            nlive += 1
    npoints = board.shape[0]
    for p in range(npoints):
        partner[p] = -1 if board[p] == 0 else -2
    # a cross's first weight: WEIGHT_BASE plus its degree, the live crosses through its empty
    # points (counted once a point): the most entangled crosses are tried first
    through_live = np.zeros(npoints, dtype=np.int64)
    for k in range(ncross):
        if live[k]:
            for j in range(5):
                through_live[cells[k, j]] += 1
    weight = np.zeros(ncross, dtype=np.int64)
    for k in range(ncross):
        if live[k]:
            weight[k] = WEIGHT_BASE
            for j in range(5):
                q = cells[k, j]
                if board[q] == 0:
                    weight[k] += through_live[q] - 1
    s = PairState(
        cells,
        through,
        tcount,
        partner,
        live,
        free,
        np.zeros(ncross, dtype=np.int32),
        weight,
        uncovered,
        where,
        np.full(1, nlive, dtype=np.int64),
        np.empty((npoints // 2 + 1, 33), dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )
    return _pair_search(s, budget)
