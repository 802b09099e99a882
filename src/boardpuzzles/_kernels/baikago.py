"""The Baikago computer player: per-cross stone counts, threat search and alpha-beta.

State (built in ``puzzles/baikago/ai.py`` and passed in; no globals):
``board[p]``        0 empty, 1 black, 2 white;
``cnt[c, k]``       stones of colour c on cross k (row 0 unused);
``cells[k]``        the five points of cross k; ``through[p, :tcount[p]]`` the crosses through p;
``zob[c, p]``       Zobrist keys (c = 1, 2); ``zob[0, 0]`` is the side-to-move key, in the hash
                    when white is to move (``position_key`` in ``ai.py``).
The searches take three bundles: ``t`` (:class:`Tables`: the crosses, keys and weights of one
rule set, built once by ``ai.search_tables``), ``tt`` (:class:`TTable`: the transposition
table, five parallel arrays) and ``run`` (:class:`Run`: width, node budget, counters, stop flag).

A cross is *live* for a colour when the other colour has no stone on it. A live cross with four
stones is a *four*: its empty fifth point wins next move, so the opponent must take it. Two
fours with different fifth points cannot both be stopped.

``_vcf`` looks for a win by continuous fours (each move makes a four, the reply is forced),
ending in a double four. ``_negamax`` is alpha-beta with a transposition table over the K most
promising points (scored from the counts), extended through forced blocks. The plain-Python
twins are in ``tests/reference.py``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from boardpuzzles._kernels import CHECK_MASK, jit

WIN = 1_000_000
MATE_ZONE = WIN - 1_000  # values beyond this are wins or losses at a known distance
MAX_PLY = 200
EXACT, LOWER, UPPER = 0, 1, 2


class Tables(NamedTuple):
    """The precomputed tables of one rule set that the search kernels share (``t``), built once
    per player by ``ai.search_tables``: the crosses (``cells``, ``through``, ``tcount``), the
    Zobrist keys ``zob`` and the weights ``attack``, ``defend`` and ``value`` (``ai.VALUE``...)."""

    cells: np.ndarray
    through: np.ndarray
    tcount: np.ndarray
    zob: np.ndarray
    attack: np.ndarray
    defend: np.ndarray
    value: np.ndarray


class TTable(NamedTuple):
    """The alpha-beta transposition table (``tt``): five parallel arrays indexed by slot."""

    key: np.ndarray
    val: np.ndarray
    depth: np.ndarray
    flag: np.ndarray
    move: np.ndarray


class Run(NamedTuple):
    """One search call's settings and counters (``run``): ``width`` points per node, a
    ``budget`` of nodes, ``stats`` ([0] nodes, [1] set when stopped) and the stop ``flag``."""

    width: int
    budget: int
    stats: np.ndarray
    flag: np.ndarray


@jit
def place(board, cnt, through, tcount, point, colour):
    board[point] = colour
    for i in range(tcount[point]):
        cnt[colour, through[point, i]] += 1


@jit
def remove(board, cnt, through, tcount, point):
    colour = board[point]
    for i in range(tcount[point]):
        cnt[colour, through[point, i]] -= 1
    board[point] = 0


@jit
def fifth_point(board, cells, k):
    """The empty point of a cross (the first, if several)."""
    for j in range(5):
        if board[cells[k, j]] == 0:
            return cells[k, j]
    return -1


@jit
def four_points(board, cnt, cells, colour, out):
    """The distinct fifth points of ``colour``'s fours, into ``out``; how many."""
    other = 3 - colour
    n = 0
    for k in range(cells.shape[0]):
        if cnt[colour, k] == 4 and cnt[other, k] == 0:
            q = fifth_point(board, cells, k)
            seen = False
            for i in range(n):
                if out[i] == q:
                    seen = True
                    break
            if not seen:
                out[n] = q
                n += 1
    return n


@jit
def has_four(cnt, colour):
    other = 3 - colour
    for k in range(cnt.shape[1]):
        if cnt[colour, k] == 4 and cnt[other, k] == 0:
            return True
    return False


@jit
def move_scores(board, cnt, through, tcount, me, attack, defend, out):
    """``out[p]``: how promising an empty point is for ``me`` (-1 for taken points): for each
    cross through it, ``attack[mine]`` if it is live for me, plus ``defend[theirs]`` if it is
    live for the opponent."""
    other = 3 - me
    for p in range(board.shape[0]):
        if board[p] != 0:
            out[p] = -1
            continue
        s = 0
        for i in range(tcount[p]):
            k = through[p, i]
            a = cnt[me, k]
            b = cnt[other, k]
            if b == 0:
                s += attack[a]
            if a == 0:
                s += defend[b]
        out[p] = s


@jit
def top_moves(scores, k, out):
    """The ``k`` best points by score (ties: lower point first), into ``out``; how many."""
    n = 0
    for p in range(scores.shape[0]):
        s = scores[p]
        if s < 0:
            continue
        # insertion into the sorted prefix out[:n]
        if n < k:
            j = n
            n += 1
        elif s > scores[out[n - 1]]:
            j = n - 1
        else:
            continue
        while j > 0 and scores[out[j - 1]] < s:
            out[j] = out[j - 1]
            j -= 1
        out[j] = p
    return n


@jit
def evaluate(cnt, me, value):
    """Static value for the side to move: each live cross is worth ``value[stones]`` to its
    owner; crosses holding both colours (or none) are worth nothing."""
    other = 3 - me
    total = 0
    for k in range(cnt.shape[1]):
        a = cnt[me, k]
        b = cnt[other, k]
        if b == 0:
            total += value[a]
        elif a == 0:
            total -= value[b]
    return total


@jit
def _vcf(t, board, cnt, me, depth, budget, stats, flag):
    """A first move of a win by continuous fours within ``depth`` of my moves, or -1.
    Precondition: neither side has a four. ``stats[0]`` counts nodes; past ``budget``, or when
    the stop flag is set, it gives up (``stats[1]`` = 1)."""
    if depth <= 0:
        return -1
    stats[0] += 1
    if stats[0] > budget or ((stats[0] & CHECK_MASK) == 0 and flag[0] != 0):
        stats[1] = 1
        return -1
    cells, through, tcount = t.cells, t.through, t.tcount
    other = 3 - me
    npoints = board.shape[0]
    seen = np.zeros(npoints, dtype=np.bool_)
    cand = np.empty(npoints, dtype=np.int32)
    ncand = 0
    for k in range(cells.shape[0]):
        if cnt[me, k] == 3 and cnt[other, k] == 0:
            for j in range(5):
                q = cells[k, j]
                if board[q] == 0 and not seen[q]:
                    seen[q] = True
                    cand[ncand] = q
                    ncand += 1
    for ci in range(ncand):
        p = cand[ci]
        place(board, cnt, through, tcount, p, me)
        reply = -1
        double = False
        for i in range(tcount[p]):
            k = through[p, i]
            if cnt[me, k] == 4 and cnt[other, k] == 0:
                q = fifth_point(board, cells, k)
                if reply == -1:
                    reply = q
                elif q != reply:
                    double = True
                    break
        if double:
            remove(board, cnt, through, tcount, p)
            return p
        found = False
        if reply >= 0:
            place(board, cnt, through, tcount, reply, other)
            counter = False  # the forced reply made a four of its own: this line fails
            for i in range(tcount[reply]):
                k = through[reply, i]
                if cnt[other, k] == 4 and cnt[me, k] == 0:
                    counter = True
                    break
            if not counter:
                found = _vcf(t, board, cnt, me, depth - 1, budget, stats, flag) >= 0
            remove(board, cnt, through, tcount, reply)
        remove(board, cnt, through, tcount, p)
        if found:
            return p
        if stats[1]:
            return -1
    return -1


@jit
def vcf(t, board, cnt, me, depth, budget, stats, flag):
    return _vcf(t, board, cnt, me, depth, budget, stats, flag)


@jit
def _to_tt(v, ply):
    if v > MATE_ZONE:
        return v + ply
    if v < -MATE_ZONE:
        return v - ply
    return v


@jit
def _from_tt(v, ply):
    if v > MATE_ZONE:
        return v - ply
    if v < -MATE_ZONE:
        return v + ply
    return v


@jit
def _negamax(t, tt, run, board, cnt, me, depth, alpha, beta, ply, key):
    """The value of the position for ``me`` (to move), searching ``depth`` plies over the
    ``run.width`` best points, forced blocks searched without using up depth. Past
    ``run.budget`` nodes, or when the stop flag is set, it gives up (``run.stats[1]`` = 1)."""
    stats = run.stats
    stats[0] += 1
    if stats[0] > run.budget or ((stats[0] & CHECK_MASK) == 0 and run.flag[0] != 0):
        stats[1] = 1
        return 0
    other = 3 - me
    if has_four(cnt, me):
        return WIN - ply
    npoints = board.shape[0]
    blocks = np.empty(npoints, dtype=np.int32)
    nblock = four_points(board, cnt, t.cells, other, blocks)
    if nblock >= 2:
        return -(WIN - ply - 1)
    if ply >= MAX_PLY:
        return evaluate(cnt, me, t.value)
    if nblock == 0 and depth <= 0:
        return evaluate(cnt, me, t.value)

    slot = key & (tt.key.shape[0] - 1)
    tt_best = -1
    if tt.key[slot] == key:
        tt_best = tt.move[slot]
        # Only an entry of the same depth answers: a deeper one would give a different (better)
        # value than this search, and tests hold the search to its exact minimax value.
        if tt.depth[slot] == depth:
            v = _from_tt(tt.val[slot], ply)
            f = tt.flag[slot]
            if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                return v

    width = run.width
    moves = np.empty(max(width, 1), dtype=np.int32)
    if nblock == 1:
        moves[0] = blocks[0]
        nmoves = 1
        next_depth = depth  # a forced block costs no depth
    else:
        scores = np.empty(npoints, dtype=np.int64)
        move_scores(board, cnt, t.through, t.tcount, me, t.attack, t.defend, scores)
        nmoves = top_moves(scores, width, moves)
        if nmoves == 0:
            return 0  # the board is full: a draw
        next_depth = depth - 1
        if tt_best >= 0:
            # the table's best move first (it is among these: the same position gives the same list)
            for i in range(nmoves):
                if moves[i] == tt_best:
                    for j in range(i, 0, -1):
                        moves[j] = moves[j - 1]
                    moves[0] = tt_best
                    break

    alpha0 = alpha
    best = -WIN - 1
    best_move = moves[0]
    zob = t.zob
    for i in range(nmoves):
        m = moves[i]
        place(board, cnt, t.through, t.tcount, m, me)
        child = key ^ zob[me, m] ^ zob[0, 0]
        v = -_negamax(t, tt, run, board, cnt, other, next_depth, -beta, -alpha, ply + 1, child)
        remove(board, cnt, t.through, t.tcount, m)
        if stats[1]:
            return 0
        if v > best:
            best = v
            best_move = m
        if v > alpha:
            alpha = v
        if alpha >= beta:
            break
    tt.key[slot] = key
    tt.val[slot] = _to_tt(best, ply)
    tt.depth[slot] = depth
    tt.move[slot] = best_move
    tt.flag[slot] = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
    return best


@jit
def search_root(t, tt, run, board, cnt, me, depth, key, order, values, ply):
    """Search every move of ``order[:n]`` (the caller's candidate order, best guess first) to
    ``depth`` with a full window each, so every root move gets its exact value in ``values``.
    Returns n, or -1 when the node budget ran out. ``ply`` is 0; it comes in as an argument
    because numba's on-disk cache crashes on a recursive function compiled for two argument
    types (a literal 0 and int64: numba/numba#6061 and #6713 on GitHub)."""
    other = 3 - me
    zob = t.zob
    n = 0
    while n < order.shape[0] and order[n] >= 0:
        n += 1
    for i in range(n):
        m = order[i]
        place(board, cnt, t.through, t.tcount, m, me)
        child = key ^ zob[me, m] ^ zob[0, 0]
        values[i] = -_negamax(t, tt, run, board, cnt, other, depth - 1, -WIN - 1, WIN + 1, ply + 1, child)
        remove(board, cnt, t.through, t.tcount, m)
        if run.stats[1]:
            return -1
    return n


@jit
def negamax(t, tt, run, board, cnt, me, depth, key, ply):
    """The full-window value of the position for the side to move (tests compare it with a
    plain minimax). ``ply`` is 0 (see ``search_root``)."""
    return _negamax(t, tt, run, board, cnt, me, depth, -WIN - 1, WIN + 1, ply, key)
