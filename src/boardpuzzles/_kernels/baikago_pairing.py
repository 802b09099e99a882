"""Pairings for the Baikago df-pn search (``baikago_solve``): disjoint pairs of empty points with
a pair inside every cross still open to the attacker, which prove that the attacker cannot win
(the defender answers a stone on one point of a pair with the other). ``pairing_search``
backtracks over the uncovered cross with the fewest free points; ``pairing_promise`` is the quick
count that says whether a search can succeed. The state is that of ``baikago_solve`` (``board``,
``cnt``, the crosses ``cells``, ``through``, ``tcount``)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from boardpuzzles._kernels import jit


class PairState(NamedTuple):
    """A pairing search's state: ``partner[p]`` (the other point of p's pair, -1 unpaired, -2 a
    stone), per cross ``live`` (no defender stone), ``free`` (its unpaired empty points) and
    ``covered`` (pairs inside it), the ``live_list`` and the node count ``nodes[0]``."""

    cells: np.ndarray
    through: np.ndarray
    tcount: np.ndarray
    partner: np.ndarray
    live: np.ndarray
    free: np.ndarray
    covered: np.ndarray
    live_list: np.ndarray
    nodes: np.ndarray


@jit
def _in_cross(cells, k, q):
    for j in range(5):
        if cells[k, j] == q:
            return True
    return False


@jit
def _pair(s, a, b, step):
    """Pair a with b (``step`` 1) or undo it (-1): the free and covered counts follow."""
    for i in range(s.tcount[a]):
        k = s.through[a, i]
        if s.live[k]:
            s.free[k] -= step
            if _in_cross(s.cells, k, b):
                s.covered[k] += step
    for i in range(s.tcount[b]):
        k = s.through[b, i]
        if s.live[k]:
            s.free[k] -= step
    if step > 0:
        s.partner[a] = b
        s.partner[b] = a
    else:
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
def _pair_rec(s, budget):
    """Backtracking over the uncovered live cross with the fewest free points, its pairs tried
    by how many uncovered crosses they cover; 1 found, 0 none, -1 budget."""
    s.nodes[0] += 1
    if s.nodes[0] > budget:
        return -1
    best_k = -1
    best_free = 6
    for i in range(s.live_list.shape[0]):
        k = s.live_list[i]
        if s.covered[k] > 0:
            continue
        f = s.free[k]
        if f < 2:
            return 0
        if f < best_free:
            best_free = f
            best_k = k
    if best_k < 0:
        return 1
    pa = np.empty(10, dtype=np.int64)
    pb = np.empty(10, dtype=np.int64)
    gains = np.empty(10, dtype=np.int64)
    npairs = 0
    for x in range(5):
        a = s.cells[best_k, x]
        if s.partner[a] != -1:
            continue
        for y in range(x + 1, 5):
            b = s.cells[best_k, y]
            if s.partner[b] != -1:
                continue
            _insert_by_score(gains, pa, pb, npairs, _pair_gain(s, a, b), a, b)
            npairs += 1
    for i in range(npairs):
        _pair(s, pa[i], pb[i], 1)
        r = _pair_rec(s, budget)
        if r != 0:
            return r
        _pair(s, pa[i], pb[i], -1)
    return 0


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
    nlive = 0
    for k in range(ncross):
        if cnt[defender, k] == 0:
            live[k] = True
            free[k] = 5 - cnt[attacker, k]
            nlive += 1
    live_list = np.empty(nlive, dtype=np.int32)
    nlive = 0
    for k in range(ncross):
        if live[k]:
            live_list[nlive] = k
            nlive += 1
    for p in range(board.shape[0]):
        partner[p] = -1 if board[p] == 0 else -2
    s = PairState(
        cells,
        through,
        tcount,
        partner,
        live,
        free,
        np.zeros(ncross, dtype=np.int32),
        live_list,
        np.zeros(1, dtype=np.int64),
    )
    return _pair_rec(s, budget)
