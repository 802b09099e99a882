"""Reading a Baikago strategy out of a finished df-pn search (``baikago_solve``), compiled.

The walk (its plain-Python twin is in ``tests/test_baikago_proof_kernel.py``): a stack of
positions, each kept as its *canonical board* (of the 8 images, the one whose picture, ``.`` <
``O`` < ``X`` point by point, is smallest), and the set of positions already walked (their
canonical keys, an open-addressing table ``seen``). A position popped from the stack:

- ends the game (the kernel's ``node_status``): it must end as the claim says, and is dropped;
- the opponent is to move, the owner defends, and one of its 8 images has a pairing (each tried
  in turn, ``pair_budget`` nodes each): the pairing is recorded (a leaf);
- the owner is to move: the owner's move is recorded and its one child pushed. The move: of the
  children the table holds as won for the owner, the one that took the least search (ties: the
  lowest point); else, by the owner's proof number then point, one whose game ends for the owner
  at once; else, after a df-pn search of the position (in the same table, its own entry dropped
  first), the won child that took the least search; else the first that a df-pn search of its
  own shows won;
- the opponent is to move: every child is pushed (lowest point first; popped last).

Records (``rec_*``) are canonical boards with the move or the pairing (``rec_partner``) in that
board's points. The kernel returns when its buffer or ``seen`` fills, after ``steps`` new
positions, when the stop flag is set (read at every position, and before each pairing search),
or when a search of a child stops: the position it was on stays on the stack and nothing of it is recorded, so a
later call (or a resumed run, from the saved stack and ``seen``) goes on exactly where it was.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from boardpuzzles._kernels import jit
from boardpuzzles._kernels.baikago import place, remove
from boardpuzzles._kernels.baikago_solve import (
    canonical,
    child_key,
    dfpn,
    node_status,
    pairing_search,
    tt_find,
    tt_forget,
)

#: What ``extract`` returns.
DONE, STOPPED, CHUNK, FULL, GROW, LOST, NO_MOVE = 0, 1, 2, 3, 4, 5, 6
#: ``counts``: stack height, keys in ``seen``, records in the buffer, positions walked, records
#: made, pairings recorded, children searched again.
TOP, SEEN, RECORDS, WALKED, KEPT, PAIRINGS, SEARCHED = range(7)


class Extraction(NamedTuple):
    """One extraction's settings and state (``ex``): the ``owner``, whether it is the search's
    ``attacker``, the pairing budget of strategy positions (0: none), ``steps`` per call, the
    symmetries ``perms[s, p]`` and their inverses ``back``, the ``stack`` of canonical boards,
    ``seen`` keys, ``counts`` (see ``TOP``...) and the record buffer."""

    owner: int
    owner_attacks: bool
    pair_budget: int
    steps: int
    perms: np.ndarray
    back: np.ndarray
    stack: np.ndarray
    seen: np.ndarray
    counts: np.ndarray
    rec_board: np.ndarray
    rec_move: np.ndarray
    rec_partner: np.ndarray


@jit
def canonical_board(board, perms, out):
    """The smallest image of ``board`` (pictures compared point by point) into ``out``."""
    n = board.shape[0]
    img = np.empty(n, dtype=np.int8)
    for p in range(n):
        out[perms[0, p]] = board[p]
    for s in range(1, perms.shape[0]):
        for p in range(n):
            img[perms[s, p]] = board[p]
        for q in range(n):
            a = img[q]
            b = out[q]
            if a != b:
                # '.' (0) < 'O' (2) < 'X' (1)
                ra = 0 if a == 0 else (2 if a == 1 else 1)
                rb = 0 if b == 0 else (2 if b == 1 else 1)
                if ra < rb:
                    out[:] = img
                break


@jit
def board_state(board, cells, zsym, seed, cnt, keys):
    """The cross counts and the 8 keys of a board (as ``Search.state``)."""
    cnt[:] = 0
    for k in range(cells.shape[0]):
        for j in range(5):
            c = board[cells[k, j]]
            if c != 0:
                cnt[c, k] += 1
    for s in range(keys.shape[0]):
        h = seed
        for p in range(board.shape[0]):
            if board[p] != 0:
                h ^= zsym[s, board[p], p]
        keys[s] = h


@jit
def seen_slot(seen, key):
    """The slot of ``key`` in ``seen`` (0 marks a free slot; key 0 is kept as 1), found or free."""
    if key == 0:
        key = np.uint64(1)
    mask = np.uint64(seen.shape[0] - 1)
    i = np.int64((key ^ (key >> np.uint64(29))) & mask)
    while seen[i] != 0 and seen[i] != key:
        i = (i + 1) & (seen.shape[0] - 1)
    return i


@jit
def seen_add_all(seen, keys):
    """Put ``keys`` into an empty ``seen`` (a larger table, or one read back from a file)."""
    for i in range(keys.shape[0]):
        k = keys[i]
        seen[seen_slot(seen, k)] = np.uint64(1) if k == 0 else k


@jit
def _owner_move(t, tt, run, board, cnt, keys, me, moves, nmoves, owner_attacks, counts):
    """The owner's move (see the module's text); -1 a search of a child stopped, -2 none."""
    zsym = t.zsym
    best = -1
    best_work = np.int64(0)
    numbers = np.empty(nmoves, dtype=np.int64)
    points = np.empty(nmoves, dtype=np.int64)
    nu = 0
    for i in range(nmoves):
        p = moves[i]
        slot = tt_find(tt.key, child_key(keys, zsym, me, p))
        pn, dn, work = np.int64(1), np.int64(1), np.int64(0)
        if slot >= 0:
            pn, dn, work = tt.pn[slot], tt.dn[slot], tt.work[slot]
        number = pn if owner_attacks else dn
        if number == 0:
            if best < 0 or work < best_work:
                best = p
                best_work = work
        else:
            j = nu  # insertion by (number, point)
            while j > 0 and (numbers[j - 1] > number or (numbers[j - 1] == number and points[j - 1] > p)):
                numbers[j] = numbers[j - 1]
                points[j] = points[j - 1]
                j -= 1
            numbers[j] = number
            points[j] = p
            nu += 1
    if best >= 0:
        return best
    other = 3 - me
    blocks = np.empty(board.shape[0], dtype=np.int32)
    empty = 0
    for p in range(board.shape[0]):
        if board[p] == 0:
            empty += 1
    won = 1 if owner_attacks else -1
    for i in range(nu):
        p = points[i]
        place(board, cnt, t.through, t.tcount, p, me)
        code = node_status(board, cnt, t.cells, other, run.attacker, empty - 1, blocks)
        remove(board, cnt, t.through, t.tcount, p)
        if code == won:
            return p
    out = np.zeros(2, dtype=np.int64)
    # the position itself, searched in the same table: its won child is then there (a position
    # the search never met, such as an opponent's move it left out as lost at once). Its own
    # entry goes first: one that says won, its children's entries gone, would end that search
    # at once, and the children searched one by one in point order can each cost millions of
    # nodes where df-pn over all of them takes a few (9x9, 2^22 slots: 13 M nodes against 6)
    tt_forget(tt, canonical(keys))
    counts[SEARCHED] += 1
    run.stats[1] = 0
    dfpn(t, tt, run, board, cnt, keys, me, out)
    if run.stats[1]:
        return -1
    for i in range(nmoves):
        p = moves[i]
        slot = tt_find(tt.key, child_key(keys, zsym, me, p))
        if slot >= 0 and (tt.pn[slot] if owner_attacks else tt.dn[slot]) == 0:
            if best < 0 or tt.work[slot] < best_work:
                best = p
                best_work = tt.work[slot]
    if best >= 0:
        return best
    ckeys = np.empty(keys.shape[0], dtype=np.uint64)
    for i in range(nu):
        p = points[i]
        counts[SEARCHED] += 1
        place(board, cnt, t.through, t.tcount, p, me)
        for s in range(keys.shape[0]):
            ckeys[s] = keys[s] ^ zsym[s, me, p]
        run.stats[1] = 0
        dfpn(t, tt, run, board, cnt, ckeys, other, out)
        remove(board, cnt, t.through, t.tcount, p)
        if run.stats[1]:
            return -1
        if (out[0] if owner_attacks else out[1]) == 0:
            return p
    return -2


@jit
def _any_pairing(t, ex, attacker, board, partner, flag):
    """A pairing on one of the board's images, tried in symmetry order, into ``partner`` (in the
    board's points); whether one was found. Only a search that ran out of its budget goes on to
    the next image: one that ended without a pairing proved that there is none (on 7x7, most
    of the time the walk spent on pairings went into the 7 images after such a search). 1 found,
    0 not, -1 the stop flag was set (read before each image: 8 budget-bound searches of 7x7
    take about 0.1 s)."""
    n = board.shape[0]
    image = np.empty(n, dtype=np.int8)
    cnt = np.zeros((3, t.cells.shape[0]), dtype=np.int16)
    keys = np.empty(ex.perms.shape[0], dtype=np.uint64)
    found = np.empty(n, dtype=np.int32)
    for s in range(ex.perms.shape[0]):
        if flag[0] != 0:
            return -1
        for p in range(n):
            image[ex.perms[s, p]] = board[p]
        board_state(image, t.cells, t.zsym, np.uint64(0), cnt, keys)
        result = pairing_search(image, cnt, t.cells, t.through, t.tcount, attacker, found, ex.pair_budget)
        if result == 0:
            return 0  # the search was complete: no image has one either
        if result == 1:
            for p in range(n):
                partner[p] = -1
            for a in range(n):
                q = found[a]
                if q >= 0:
                    partner[ex.back[s, a]] = ex.back[s, q]
            return 1
    return 0


@jit
def _push(ex, board):
    top = ex.counts[TOP]
    canonical_board(board, ex.perms, ex.stack[top])
    ex.counts[TOP] = top + 1


@jit
def extract(t, tt, run, ex, seed):
    """Walk on from the stack (see the module's text); returns ``DONE``, ``STOPPED`` (the flag, or
    a child's search stopped), ``CHUNK`` (``steps`` new positions), ``FULL`` (the buffer),
    ``GROW`` (``seen`` half full), ``LOST`` (the position on top of the stack is lost for the
    owner) or ``NO_MOVE`` (the table does not hold the owner's move there)."""
    counts = ex.counts
    n = ex.stack.shape[1]
    board = np.empty(n, dtype=np.int8)
    cnt = np.zeros((3, t.cells.shape[0]), dtype=np.int16)
    keys = np.empty(t.zsym.shape[0], dtype=np.uint64)
    blocks = np.empty(n, dtype=np.int32)
    moves = np.empty(n, dtype=np.int64)
    partner = np.empty(n, dtype=np.int32)
    attacker = run.attacker
    owner = ex.owner
    steps = 0
    while counts[TOP] > 0:
        if steps >= ex.steps:
            return CHUNK
        if counts[RECORDS] >= ex.rec_move.shape[0]:
            return FULL
        if 2 * counts[SEEN] >= ex.seen.shape[0]:
            return GROW
        if counts[TOP] + n > ex.stack.shape[0]:
            return GROW
        top = counts[TOP] - 1
        board[:] = ex.stack[top]
        board_state(board, t.cells, t.zsym, seed, cnt, keys)
        key = canonical(keys)
        slot = seen_slot(ex.seen, key)
        if ex.seen[slot] != 0:
            counts[TOP] = top
            continue
        if run.flag[0] != 0:  # read at every position: one may take a tenth of a second
            return STOPPED
        empty = 0
        stones = 0
        for p in range(n):
            if board[p] == 0:
                empty += 1
            elif board[p] == 1:
                stones += 1
            else:
                stones -= 1
        me = 1 if stones == 0 else 2
        code = node_status(board, cnt, t.cells, me, attacker, empty, blocks)
        record = -2  # -2 nothing, -1 a pairing, else the owner's move
        nmoves = 0
        if code == 1 or code == -1:
            if (code == 1) != ex.owner_attacks:
                return LOST
        else:
            if me != owner and not ex.owner_attacks and code == 0 and ex.pair_budget > 0:
                found = _any_pairing(t, ex, attacker, board, partner, run.flag)
                if found < 0:
                    return STOPPED
                if found == 1:
                    record = -1
            if record == -2:
                if code == -3:
                    moves[0] = blocks[0]
                    nmoves = 1
                else:
                    for p in range(n):
                        if board[p] == 0:
                            moves[nmoves] = p
                            nmoves += 1
                if me == owner:
                    m = _owner_move(t, tt, run, board, cnt, keys, me, moves, nmoves, ex.owner_attacks, counts)
                    if m == -1:
                        return STOPPED
                    if m == -2:
                        return NO_MOVE
                    record = m
                    moves[0] = m
                    nmoves = 1
        # the position is done: into seen, off the stack, its record and children out
        ex.seen[slot] = np.uint64(1) if key == 0 else key
        counts[SEEN] += 1
        counts[WALKED] += 1
        steps += 1
        counts[TOP] = top
        if record != -2:
            r = counts[RECORDS]
            ex.rec_board[r] = board
            ex.rec_move[r] = record
            if record == -1:
                for p in range(n):
                    ex.rec_partner[r, p] = partner[p]
                counts[PAIRINGS] += 1
            counts[RECORDS] = r + 1
            counts[KEPT] += 1
        for i in range(nmoves):
            p = moves[i]
            board[p] = me
            _push(ex, board)
            board[p] = 0
    return DONE
