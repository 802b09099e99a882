"""Solving Baikago on small boards: depth-first proof-number search and pairing strategies.

State (built in ``puzzles/baikago/dfpn.py`` and passed in as bundles, ``t``, ``tt`` and ``run``;
no globals):
``board[p]``          0 empty, 1 black, 2 white;
``cnt[c, k]``         stones of colour c on cross k (row 0 unused);
``cells[k]``          the five points of cross k; ``through[p, :tcount[p]]`` the crosses through p;
``zsym[s, c, p]``     the Zobrist key of a stone of colour c on p seen through symmetry s of the
                      square (8 of them): a position's 8 keys are the keys of its 8 images, and
                      the smallest is its *canonical key*, the same for the whole symmetry class;
``keys[s]``           the current position's 8 keys, updated move by move;
the transposition table ``tt``: ``key``, ``pn``, ``dn``, ``work`` (nodes spent below the
entry: the cheapest of a bucket of ``BUCKET`` slots is replaced), ``flag`` (``PAIRING_TRIED``:
the pairing test failed here once, it is not run again).

Search: one colour is the *attacker* (does it win?), the other the defender. A node whose side
to move has a four wins; one whose opponent has two fours (with different fifth points) loses;
one fourfold threat forces the only reply. The attacker's nodes are OR nodes, the defender's AND
nodes (df-pn, Nagai 2002, with the 1 + epsilon threshold trick of Pawlewicz and Lew 2007).
A node is disproved (the attacker cannot win from it) when no cross is left that the defender has
not touched, when the board is full, or when the defender has a *pairing*: disjoint pairs of
empty points such that every cross still open to the attacker contains a pair (the defender
answers a stone on one point of a pair with the other, and the attacker never fills a cross).

The search runs over symmetry classes (the table is keyed by the canonical key) and merges
children that are images of each other. Values: ``pn == 0`` proved (the attacker wins),
``dn == 0`` disproved.

A node stores its entry only when its expansion ends normally; a search stopped by the flag or
the node budget returns at once and stores nothing on the way up, so the table never holds a
value that a stop cut short (what a checkpoint saves and a later run continues from: see
``puzzles/baikago/solve.py`` and ``puzzles/baikago/table_file.py``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from boardpuzzles._kernels import CHECK_MASK, jit
from boardpuzzles._kernels.baikago import four_points, has_four, place, remove

INF = 1 << 40
BUCKET = 4
PAIRING_TRIED = 1
#: What a table entry means (keys, pn/dn, INF, flags, buckets): a saved table is bound to it.
#: Bump it whenever a change here makes an old table mean something else.
TABLE_VERSION = 1


class SolveTables(NamedTuple):
    """The precomputed tables of one rule set that the df-pn kernels share (``t``), built once
    per search by ``Search`` in ``puzzles/baikago/dfpn.py``: the crosses (``cells``, ``through``,
    ``tcount``) and the symmetry Zobrist keys ``zsym``."""

    cells: np.ndarray
    through: np.ndarray
    tcount: np.ndarray
    zsym: np.ndarray


class DfpnTable(NamedTuple):
    """The transposition table (``tt``): five parallel arrays indexed by slot."""

    key: np.ndarray
    pn: np.ndarray
    dn: np.ndarray
    work: np.ndarray
    flag: np.ndarray


class DfpnRun(NamedTuple):
    """One search's settings and counters (``run``): the ``attacker``, the node ``budget``
    (``stats[0]`` stops past it), the ``pair_budget`` of each pairing test (0: none), ``stats``
    and the stop ``flag``."""

    attacker: int
    budget: int
    pair_budget: int
    stats: np.ndarray
    flag: np.ndarray


# -------------------------------------------------------------------- board state
# place, remove, has_four and four_points are the game kernel's own (one set of rules)


@jit
def canonical(keys):
    best = keys[0]
    for s in range(1, keys.shape[0]):
        if keys[s] < best:
            best = keys[s]
    return best


@jit
def child_key(keys, zsym, colour, point):
    """The canonical key after a stone of ``colour`` on ``point``."""
    best = keys[0] ^ zsym[0, colour, point]
    for s in range(1, keys.shape[0]):
        k = keys[s] ^ zsym[s, colour, point]
        if k < best:
            best = k
    return best


@jit
def open_crosses(cnt, attacker):
    """How many crosses the defender has not touched (the attacker may still fill them)."""
    defender = 3 - attacker
    n = 0
    for k in range(cnt.shape[1]):
        if cnt[defender, k] == 0:
            n += 1
    return n


# -------------------------------------------------------------------- pairings
@jit
def _pair_rec(cells, live, nlive, partner, nodes, budget):
    """Backtracking over the open cross with the fewest choices; 1 found, 0 none, -1 budget."""
    nodes[0] += 1
    if nodes[0] > budget:
        return -1
    best_k = -1
    best_free = 6
    for i in range(nlive):
        k = live[i]
        covered = False
        nfree = 0
        for j in range(5):
            q = partner[cells[k, j]]
            if q >= 0:
                for jj in range(5):
                    if cells[k, jj] == q:
                        covered = True
                        break
                if covered:
                    break
            elif q == -1:
                nfree += 1
        if covered:
            continue
        if nfree < 2:
            return 0
        if nfree < best_free:
            best_free = nfree
            best_k = k
    if best_k < 0:
        return 1
    for a in range(5):
        pa = cells[best_k, a]
        if partner[pa] != -1:
            continue
        for b in range(a + 1, 5):
            pb = cells[best_k, b]
            if partner[pb] != -1:
                continue
            partner[pa] = pb
            partner[pb] = pa
            r = _pair_rec(cells, live, nlive, partner, nodes, budget)
            if r != 0:
                return r
            partner[pa] = -1
            partner[pb] = -1
    return 0


@jit
def pairing(board, cnt, cells, attacker, partner, budget):
    """A pairing of empty points for the defender against ``attacker``, in ``partner`` (the
    other point of a pair, -1 unpaired, -2 taken). 1 found, 0 none exists, -1 the ``budget`` of
    search nodes ran out (unknown)."""
    defender = 3 - attacker
    live = np.empty(cells.shape[0], dtype=np.int32)
    nlive = 0
    for k in range(cells.shape[0]):
        if cnt[defender, k] == 0:
            live[nlive] = k
            nlive += 1
    for p in range(board.shape[0]):
        partner[p] = -1 if board[p] == 0 else -2
    nodes = np.zeros(1, dtype=np.int64)
    return _pair_rec(cells, live, nlive, partner, nodes, budget)


# -------------------------------------------------------------------- the transposition table
@jit
def tt_find(tt_key, key):
    """The slot holding ``key``, or -1."""
    base = key & np.uint64(tt_key.shape[0] - BUCKET)
    for i in range(BUCKET):
        slot = np.int64(base) + i
        if tt_key[slot] == key:
            return slot
    return -1


@jit
def tt_store(tt, key, pn, dn, work, flags):
    base = np.int64(key & np.uint64(tt.key.shape[0] - BUCKET))
    victim = np.int64(-1)
    for i in range(BUCKET):
        slot = base + i
        if tt.key[slot] == key:
            victim = slot
            flags |= tt.flag[slot]
            work += tt.work[slot]
            break
    if victim < 0:
        # an empty slot, else the open entry that cost least to compute, else (all proved or
        # disproved) the cheapest: a proof's extraction reads proved entries back, and
        # re-searching one it lost costs far more than re-searching an open node
        victim = base
        victim_rank = np.int64(-1)
        for i in range(BUCKET):
            slot = base + i
            if tt.key[slot] == 0:
                victim = slot
                break
            settled = tt.pn[slot] == 0 or tt.dn[slot] == 0
            rank = np.int64(1) if settled else np.int64(2)
            if rank > victim_rank or (rank == victim_rank and tt.work[slot] < tt.work[victim]):
                victim = slot
                victim_rank = rank
    tt.key[victim] = key
    tt.pn[victim] = pn
    tt.dn[victim] = dn
    tt.work[victim] = work
    tt.flag[victim] = flags


@jit
def tt_probe(tt, key, out):
    """``out = (pn, dn)`` of ``key`` (1, 1 when the table does not hold it); found or not."""
    slot = tt_find(tt.key, key)
    if slot < 0:
        out[0] = 1
        out[1] = 1
        return False
    out[0] = tt.pn[slot]
    out[1] = tt.dn[slot]
    return True


# -------------------------------------------------------------------- df-pn
@jit
def node_status(board, cnt, cells, me, attacker, empty, blocks):
    """Terminal values without search: 1 the attacker has won, -1 the attacker cannot win, 0
    open (``blocks[:n]`` then holds the defender's... see ``fours``: the opponent's fifth points,
    returned as ``-(2 + n)`` when n == 1, the single forced reply in ``blocks[0]``)."""
    other = 3 - me
    if has_four(cnt, me):
        return 1 if me == attacker else -1
    n = four_points(board, cnt, cells, other, blocks)
    if n >= 2:
        return -1 if me == attacker else 1
    if empty == 0:
        return -1
    if open_crosses(cnt, attacker) == 0:
        return -1
    if n == 1:
        return -3
    return 0


@jit
def _mid(t, tt, run, board, cnt, keys, me, empty, thpn, thdn):
    """Expand the node until its pn reaches ``thpn`` or its dn ``thdn``; returns (pn, dn).
    ``run.stats``: [0] nodes, [1] set when stopped (budget or flag), [2] pairing tests, [3]
    pairings found."""
    stats = run.stats
    stats[0] += 1
    if stats[0] > run.budget or ((stats[0] & CHECK_MASK) == 0 and run.flag[0] != 0):
        stats[1] = 1
        return 0, 0
    start = stats[0]
    key = canonical(keys)
    slot = tt_find(tt.key, key)
    flags = 0
    if slot >= 0:
        pn = tt.pn[slot]
        dn = tt.dn[slot]
        if pn >= thpn or dn >= thdn or pn == 0 or dn == 0:
            return pn, dn
        flags = tt.flag[slot]
    npoints = board.shape[0]
    blocks = np.empty(npoints, dtype=np.int32)
    attacker = run.attacker
    status = node_status(board, cnt, t.cells, me, attacker, empty, blocks)
    other = 3 - me
    if status == 1 or status == -1:
        pn, dn = (0, INF) if status == 1 else (INF, 0)
        tt_store(tt, key, pn, dn, 1, flags)
        return pn, dn
    is_or = me == attacker
    if is_or and status == 0 and run.pair_budget > 0 and (flags & PAIRING_TRIED) == 0:
        stats[2] += 1
        partner = np.empty(npoints, dtype=np.int32)
        if pairing(board, cnt, t.cells, attacker, partner, run.pair_budget) == 1:
            stats[3] += 1
            tt_store(tt, key, INF, 0, 1, flags)
            return INF, 0
        flags |= PAIRING_TRIED
    # the children, one per symmetry class
    zsym = t.zsym
    moves = np.empty(npoints, dtype=np.int32)
    ckeys = np.empty(npoints, dtype=np.uint64)
    nchild = 0
    if status == -3:
        moves[0] = blocks[0]
        ckeys[0] = child_key(keys, zsym, me, blocks[0])
        nchild = 1
    else:
        for p in range(npoints):
            if board[p] != 0:
                continue
            ck = child_key(keys, zsym, me, p)
            seen = False
            for i in range(nchild):
                if ckeys[i] == ck:
                    seen = True
                    break
            if not seen:
                moves[nchild] = p
                ckeys[nchild] = ck
                nchild += 1
    cpn = np.empty(nchild, dtype=np.int64)
    cdn = np.empty(nchild, dtype=np.int64)
    probe = np.empty(2, dtype=np.int64)
    nkeys = keys.shape[0]
    ckeys8 = np.empty(nkeys, dtype=np.uint64)
    for i in range(nchild):
        tt_probe(tt, ckeys[i], probe)
        cpn[i] = probe[0]
        cdn[i] = probe[1]
    pn = 0
    dn = 0
    while True:
        best = 0
        second = INF
        if is_or:
            pn = INF
            dn = 0
            for i in range(nchild):
                dn = min(INF, dn + cdn[i])
                if cpn[i] < pn:
                    second = pn
                    pn = cpn[i]
                    best = i
                elif cpn[i] < second:
                    second = cpn[i]
        else:
            pn = 0
            dn = INF
            for i in range(nchild):
                pn = min(INF, pn + cpn[i])
                if cdn[i] < dn:
                    second = dn
                    dn = cdn[i]
                    best = i
                elif cdn[i] < second:
                    second = cdn[i]
        if pn >= thpn or dn >= thdn or pn == 0 or dn == 0:
            break
        if is_or:
            c_thpn = min(thpn, second + second // 4 + 1)
            c_thdn = min(INF, thdn - dn + cdn[best])
        else:
            c_thdn = min(thdn, second + second // 4 + 1)
            c_thpn = min(INF, thpn - pn + cpn[best])
        m = moves[best]
        place(board, cnt, t.through, t.tcount, m, me)
        for s in range(nkeys):
            ckeys8[s] = keys[s] ^ zsym[s, me, m]
        rpn, rdn = _mid(t, tt, run, board, cnt, ckeys8, other, empty - 1, c_thpn, c_thdn)
        remove(board, cnt, t.through, t.tcount, m)
        if stats[1]:
            return 0, 0
        # The child's numbers are the ones it returned, the others' are read again (a
        # transposition below may have changed them), except where the table no longer holds
        # them: a child whose entry was replaced keeps its last numbers. Reading (1, 1) for it
        # instead (an unexplored node) let two children that replace each other in a full
        # bucket be chosen in turn for ever, each expansion throwing the other's away.
        cpn[best] = rpn
        cdn[best] = rdn
        for i in range(nchild):
            if i != best and tt_probe(tt, ckeys[i], probe):
                cpn[i] = probe[0]
                cdn[i] = probe[1]
    tt_store(tt, key, pn, dn, stats[0] - start + 1, flags)
    return pn, dn


@jit
def dfpn(t, tt, run, board, cnt, keys, me, out):
    """Search the position (``me`` to move) until it is proved or disproved, or ``run.stats[1]``
    is set (the node ``run.budget`` ran out or the stop flag was raised). ``out = (pn, dn)``;
    the table keeps what was learnt (a later call goes on from it)."""
    empty = np.int64(0)
    for p in range(board.shape[0]):
        if board[p] == 0:
            empty += 1
    inf = np.int64(INF)
    while True:
        pn, dn = _mid(t, tt, run, board, cnt, keys, me, empty, inf, inf)
        out[0] = pn
        out[1] = dn
        if run.stats[1] or pn == 0 or dn == 0:
            return
