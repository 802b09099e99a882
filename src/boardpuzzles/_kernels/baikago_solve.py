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
entry: the cheapest of a bucket of ``BUCKET`` slots is replaced), ``flag`` (how many pairing
tests failed here, see ``PAIR_LEVELS``).

Search: one colour is the *attacker* (does it win?), the other the defender. A node whose side
to move has a four wins; one whose opponent has two fours (with different fifth points) loses;
one fourfold threat forces the only reply. The attacker's nodes are OR nodes, the defender's AND
nodes (df-pn, Nagai 2002, with the 1 + epsilon threshold trick of Pawlewicz and Lew 2007).
A node is disproved (the attacker cannot win from it) when no cross is left that the defender has
not touched, when the board is full, or when the defender has a *pairing*: disjoint pairs of
empty points such that every cross still open to the attacker contains a pair (the defender
answers a stone on one point of a pair with the other, and the attacker never fills a cross).

The search runs over symmetry classes (the table is keyed by the canonical key) and merges
children that are images of each other. The children are tried best first (a score per move from
the crosses through it), and an unexplored child's number is guessed from its rank (the later, the
larger); moves that lose at once to a double four of the opponent (``must_answer``), or to its
line of continuous fours (``vcf_answers``, with ``run.prune`` > 1), are not searched. The pairing
test runs only where a quick count promises one (``pairing_promise``), and a node that it failed
gets a tenfold larger test once it has cost enough search (``PAIR_RATIO``). Values: ``pn == 0``
proved (the attacker wins), ``dn == 0`` disproved.

A node stores its entry only when its expansion ends normally; a search stopped by the flag or
the node budget returns at once and stores nothing on the way up, so the table never holds a
value that a stop cut short (what a checkpoint saves and a later run continues from: see
``puzzles/baikago/solve.py`` and ``puzzles/baikago/table_file.py``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from boardpuzzles._kernels import jit
from boardpuzzles._kernels.baikago import four_points, has_four, place, remove
from boardpuzzles._kernels.baikago_pairing import _insert_by_score, pairing_promise, pairing_search
from boardpuzzles._kernels.baikago_threats import _vcf_line, must_answer, threat_move, vcf_answers

__all__ = [  # the pairing and threat kernels are reached through this module too
    "BUCKET",
    "INF",
    "PAIR_PROMISE",
    "TABLE_VERSION",
    "DfpnRun",
    "DfpnTable",
    "SolveTables",
    "_vcf_line",
    "canonical",
    "child_key",
    "dfpn",
    "must_answer",
    "node_status",
    "pairing_promise",
    "pairing_search",
    "threat_move",
    "tt_find",
    "tt_forget",
    "tt_probe",
    "tt_store",
    "vcf_answers",
]

INF = 1 << 40
BUCKET = 4
#: Nodes between two looks at the stop flag, less one (a mask): a node costs up to a
#: millisecond (its pairing test), so the kernels' common 2^14 would let a stop wait seconds.
NODE_CHECK_MASK = (1 << 8) - 1
#: ``flag`` holds how many pairing tests failed at the entry (their budgets growing tenfold);
#: ``PAIR_LEVELS`` means none is tried again (the last failed, or one was complete).
#: With the weighted pairing search a test rarely runs out of its first budget: 1 or 2 levels
#: instead of 4 change nothing on 7x7 (black attacking).
PAIR_LEVEL_MASK = 7
PAIR_LEVELS = 4
#: A position is tested for a pairing only when its ``pairing_promise`` reaches this (percent):
#: on 8x8, the tests that found nothing took nine tenths of the search's time before. Measured
#: again with the weighted pairing search (docs/methods/baikago.md): a lower gate saves search
#: nodes and costs more time (7x7 black attacking, 130: 14% fewer nodes, half as much time again;
#: 8x8 white attacking, 130: 3% fewer nodes, 47% more time), a higher one the other way round
#: (138: 25% more nodes on 7x7 and 19% less time; 140: twice the nodes).
PAIR_PROMISE = 135
#: A node gets a larger pairing test once it has cost budget / PAIR_RATIO search nodes
#: (10 and 1,000 search the same nodes on 7x7 and 8x8: few tests run out of budget).
PAIR_RATIO = 100
#: While searching, a full bucket gives up the entry that cost least to compute, a settled
#: (proved or disproved) one counted at this many times its work (``DfpnRun.settled_weight``).
SETTLED_WEIGHT = 4
#: The weight of a proof's extraction: every open entry goes before any settled one. The
#: extraction reads settled entries back, and one it lost is searched again, while the open
#: entries of its own searches are of no use once they end.
KEEP_SETTLED = 0
#: Added to a settled entry's work under KEEP_SETTLED: above any work a search can reach.
_SETTLED_LAST = np.int64(1) << np.int64(61)
#: What a table entry means (keys, pn/dn, INF, flags, buckets): a saved table is bound to it.
#: Bump it whenever a change here makes an old table mean something else.
TABLE_VERSION = 2


class SolveTables(NamedTuple):
    """The precomputed tables of one rule set that the df-pn kernels share (``t``), built once
    per search by ``Search`` in ``puzzles/baikago/dfpn.py``: the crosses (``cells``, ``through``,
    ``tcount``) and the symmetry Zobrist keys ``zsym``."""

    cells: np.ndarray
    through: np.ndarray
    tcount: np.ndarray
    zsym: np.ndarray
    attack: np.ndarray
    defend: np.ndarray


class DfpnTable(NamedTuple):
    """The transposition table (``tt``): five parallel arrays indexed by slot."""

    key: np.ndarray
    pn: np.ndarray
    dn: np.ndarray
    work: np.ndarray
    flag: np.ndarray


class DfpnRun(NamedTuple):
    """One search's settings and counters (``run``): the ``attacker``, the node ``budget``
    (``stats[0]`` stops past it), the ``pair_budget`` of each pairing test (0: none), ``stats``,
    the stop ``flag``, how children are ``order``-ed (0 by point, 1 by score, 2 by score with
    guessed numbers) and what is ``prune``-d (0 nothing, 1 moves that lose to a double four,
    more: also those that lose to a line of fours found within that many positions). From
    ``threats_from`` stones on the board on, the attacker plays only threats (``threat_move``)
    where it is not forced: a *threat-space* search, whose proofs are wins of the real game
    but whose disproofs say only that no such win exists (a number past the board's points:
    the whole game). ``settled_weight``: what a settled entry's work counts for when a full
    bucket gives one up (``SETTLED_WEIGHT`` while searching, ``KEEP_SETTLED`` while extracting)."""

    attacker: int
    budget: int
    pair_budget: int
    stats: np.ndarray
    flag: np.ndarray
    order: int
    prune: int
    threats_from: int
    settled_weight: int


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
def tt_store(tt, key, pn, dn, work, flags, settled_weight):
    base = np.int64(key & np.uint64(tt.key.shape[0] - BUCKET))
    victim = np.int64(-1)
    for i in range(BUCKET):
        slot = base + i
        if tt.key[slot] == key:
            victim = slot
            if tt.flag[slot] > flags:  # the pairing levels tried: the most
                flags = tt.flag[slot]
            work += tt.work[slot]
            break
    if victim < 0:
        # an empty slot, else the entry that cost least to compute, a settled one counted at
        # settled_weight times its work (KEEP_SETTLED: after every open one)
        victim = base
        victim_cost = np.int64(-1)
        for i in range(BUCKET):
            slot = base + i
            if tt.key[slot] == 0:
                victim = slot
                break
            cost = tt.work[slot]
            if tt.pn[slot] == 0 or tt.dn[slot] == 0:
                cost = cost * settled_weight if settled_weight > 0 else cost + _SETTLED_LAST
            if victim_cost < 0 or cost < victim_cost:
                victim = slot
                victim_cost = cost
    tt.key[victim] = key
    tt.pn[victim] = pn
    tt.dn[victim] = dn
    tt.work[victim] = work
    tt.flag[victim] = flags


@jit
def tt_forget(tt, key):
    """Drop the entry of ``key``, if the table holds one (a lookup reads the whole bucket, so a
    hole is harmless)."""
    slot = tt_find(tt.key, key)
    if slot >= 0:
        tt.key[slot] = 0
        tt.pn[slot] = 0
        tt.dn[slot] = 0
        tt.work[slot] = 0
        tt.flag[slot] = 0


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
def point_score(t, cnt, me, p):
    """How promising a move of ``me`` on the empty point ``p`` looks: per cross through it,
    ``attack[mine]`` if the opponent has no stone there, plus ``defend[theirs]`` if I have none."""
    other = 3 - me
    s = np.int64(0)
    for i in range(t.tcount[p]):
        k = t.through[p, i]
        a = cnt[me, k]
        b = cnt[other, k]
        if b == 0:
            s += t.attack[a]
        if a == 0:
            s += t.defend[b]
    return s


@jit
def _order_children(t, board, cnt, me, moves, ckeys, nchild):
    """The children sorted by their move's score, best first (ties: the lower point first), so
    that df-pn, which expands the first of the children with the smallest number, tries the
    promising ones first among equals."""
    scores = np.empty(nchild, dtype=np.int64)
    for i in range(nchild):
        scores[i] = point_score(t, cnt, me, moves[i])
    for i in range(1, nchild):
        _insert_by_score(scores, moves, ckeys, i, scores[i], moves[i], ckeys[i])


@jit
def _mid(t, tt, run, board, cnt, keys, me, empty, thpn, thdn):
    """Expand the node until its pn reaches ``thpn`` or its dn ``thdn``; returns (pn, dn).
    ``run.stats``: [0] nodes, [1] set when stopped (budget or flag), [2] pairing tests, [3]
    pairings found."""
    stats = run.stats
    stats[0] += 1
    if stats[0] > run.budget or ((stats[0] & NODE_CHECK_MASK) == 0 and run.flag[0] != 0):
        stats[1] = 1
        return 0, 0
    start = stats[0]
    key = canonical(keys)
    slot = tt_find(tt.key, key)
    flags = 0
    work_done = np.int64(0)
    if slot >= 0:
        pn = tt.pn[slot]
        dn = tt.dn[slot]
        if pn >= thpn or dn >= thdn or pn == 0 or dn == 0:
            return pn, dn
        flags = tt.flag[slot]
        work_done = tt.work[slot]
    npoints = board.shape[0]
    blocks = np.empty(npoints, dtype=np.int32)
    attacker = run.attacker
    status = node_status(board, cnt, t.cells, me, attacker, empty, blocks)
    other = 3 - me
    if status == 1 or status == -1:
        pn, dn = (0, INF) if status == 1 else (INF, 0)
        tt_store(tt, key, pn, dn, 1, flags, run.settled_weight)
        return pn, dn
    is_or = me == attacker
    if is_or and status == 0 and run.pair_budget > 0 and (flags & PAIR_LEVEL_MASK) == 0:
        if pairing_promise(board, cnt, t, attacker) < PAIR_PROMISE:
            flags |= PAIR_LEVELS  # too little promise: no test here, now or later
    if is_or and status == 0 and run.pair_budget > 0:
        # a pairing test of budget b = pair_budget * 10^level; a larger one only once the
        # node has cost about as much search as the test may cost (b / PAIR_RATIO nodes)
        level = flags & PAIR_LEVEL_MASK
        budget = run.pair_budget
        for _ in range(level):
            budget *= 10
        while level < PAIR_LEVELS and (level == 0 or work_done * PAIR_RATIO >= budget):
            stats[2] += 1
            partner = np.empty(npoints, dtype=np.int32)
            found = pairing_search(board, cnt, t.cells, t.through, t.tcount, attacker, partner, budget)
            if found == 1:
                stats[3] += 1
                tt_store(tt, key, INF, 0, 1, flags, run.settled_weight)
                return INF, 0
            level = PAIR_LEVELS if found == 0 else level + 1  # 0: the search was complete
            budget *= 10
        flags = (flags & ~PAIR_LEVEL_MASK) | level
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
        allowed = np.ones(npoints, dtype=np.bool_)
        left = -1
        if run.prune > 0:
            left = must_answer(board, cnt, t, me, allowed)
            if left < 0 and run.prune > 1:
                left = vcf_answers(board, cnt, t, me, allowed, run.prune)
        if left == 0:
            # every move loses to the opponent's double four, or its line of fours
            pn, dn = (INF, 0) if is_or else (0, INF)
            tt_store(tt, key, pn, dn, 1, flags, run.settled_weight)
            return pn, dn
        threats_only = is_or and npoints - empty >= run.threats_from
        for p in range(npoints):
            if board[p] != 0 or not allowed[p]:
                continue
            if threats_only and not threat_move(t, board, cnt, me, p):
                continue  # not a threat: left out (a node with no threat left is disproved)
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
    if run.order > 0 and nchild > 1:
        _order_children(t, board, cnt, me, moves, ckeys, nchild)
    cpn = np.empty(nchild, dtype=np.int64)
    cdn = np.empty(nchild, dtype=np.int64)
    probe = np.empty(2, dtype=np.int64)
    nkeys = keys.shape[0]
    ckeys8 = np.empty(nkeys, dtype=np.uint64)
    for i in range(nchild):
        if not tt_probe(tt, ckeys[i], probe) and run.order > 1:
            # an unexplored child: the later in the order, the costlier it is guessed to be
            # for the side that chooses it
            if is_or:
                probe[0] = 1 + (i >> (run.order - 2))
            else:
                probe[1] = 1 + (i >> (run.order - 2))
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
    tt_store(tt, key, pn, dn, stats[0] - start + 1, flags, run.settled_weight)
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
