"""Moves that lose at once, left out of the Baikago df-pn search (``baikago_solve``): those
that leave the opponent a double four (``must_answer``) and those that lose to its line of
continuous fours (``vcf_answers``). Only moves that lose are left out, so values do not change.
The state is that of ``baikago_solve`` (``board``, ``cnt``, the tables ``t``)."""

from __future__ import annotations

import numpy as np

from boardpuzzles._kernels import jit
from boardpuzzles._kernels.baikago import fifth_point, place, remove


@jit
def _double_four_point(t, board, cnt, me, x):
    """Whether ``me``'s stone on the empty point ``x`` would make two fours with different fifth
    points (two live crosses through ``x`` with three of my stones whose other empty points
    differ)."""
    other = 3 - me
    first = -1
    for i in range(t.tcount[x]):
        k = t.through[x, i]
        if cnt[me, k] == 3 and cnt[other, k] == 0:
            for j in range(5):
                e = t.cells[k, j]
                if e != x and board[e] == 0:
                    if first < 0:
                        first = e
                    elif e != first:
                        return True
                    break
    return False


@jit
def must_answer(board, cnt, t, me, allowed):
    """The moves of ``me`` that do not lose to a double four at once (neither side has a four).

    A *double-four point* of the opponent is an empty point where its stone would make two fours
    with different fifth points (on crosses holding three of its stones and none of mine). If I
    play off every cross that makes one such point a double four, and make no four of my own, the
    opponent plays it and wins: those moves lose. ``allowed[p]`` is cleared for them; returns -1
    when the opponent has no double-four point (nothing cleared), else how many moves are left:
    the points on a making cross of every double-four point, and the points that make a four of
    mine."""
    other = 3 - me
    n = board.shape[0]
    hits = np.zeros(n, dtype=np.int32)
    mark = np.zeros(n, dtype=np.int32)
    threats = 0
    for x in range(n):
        if board[x] != 0:
            continue
        if not _double_four_point(t, board, cnt, other, x):
            continue
        threats += 1
        for i in range(t.tcount[x]):
            k = t.through[x, i]
            if cnt[other, k] == 3 and cnt[me, k] == 0:
                for j in range(5):
                    q = t.cells[k, j]
                    if board[q] == 0 and mark[q] != threats:
                        mark[q] = threats
                        hits[q] += 1
    if threats == 0:
        return -1
    left = 0
    for p in range(n):
        ok = board[p] == 0 and hits[p] == threats
        if board[p] == 0 and not ok:
            for i in range(t.tcount[p]):
                k = t.through[p, i]
                if cnt[me, k] == 3 and cnt[other, k] == 0:
                    ok = True
                    break
        allowed[p] = ok
        if ok:
            left += 1
    return left


@jit
def _makes_four(t, cnt, colour, p):
    """Whether ``colour``'s stone on ``p`` (already placed) completes a four of its own."""
    other = 3 - colour
    for i in range(t.tcount[p]):
        k = t.through[p, i]
        if cnt[colour, k] == 4 and cnt[other, k] == 0:
            return True
    return False


@jit
def _three_points(t, board, cnt, me, out):
    """The empty points of ``me``'s live crosses with three stones (each once), into ``out``."""
    other = 3 - me
    count = 0
    for k in range(t.cells.shape[0]):
        if cnt[me, k] != 3 or cnt[other, k] != 0:
            continue
        for j in range(5):
            p = t.cells[k, j]
            if board[p] != 0:
                continue
            seen = False
            for i in range(count):
                if out[i] == p:
                    seen = True
                    break
            if not seen:
                out[count] = p
                count += 1
    return count


@jit
def _vcf_line(t, board, cnt, me, budget, line):
    """A win of ``me`` (to move; neither side has a four) by continuous fours: every move of
    mine a four, every reply forced, until a move makes two fours with different fifth points.
    Its moves go into ``line`` (mine, the reply, mine, ..., the last one mine); returns the
    line's length, or -1 (none found within ``budget`` positions). Depth first with a stack of
    its own (level d: the candidates ``cand[d]``, the next one ``at[d]``; its move and reply are
    ``line[2d]`` and ``line[2d + 1]``); the board is left as it was."""
    other = 3 - me
    n = board.shape[0]
    levels = n // 2 + 1
    cand = np.empty((levels, n), dtype=np.int32)
    ncand = np.zeros(levels, dtype=np.int32)
    at = np.zeros(levels, dtype=np.int32)
    ncand[0] = _three_points(t, board, cnt, me, cand[0])
    nodes = 1
    d = 0
    while d >= 0:
        if at[d] >= ncand[d] or nodes > budget:
            d -= 1  # back to the level above: take its move and reply back
            if d >= 0:
                remove(board, cnt, t.through, t.tcount, line[2 * d + 1])
                remove(board, cnt, t.through, t.tcount, line[2 * d])
                if nodes > budget:
                    at[d] = ncand[d]  # unwind without trying more
            continue
        p = cand[d, at[d]]
        at[d] += 1
        place(board, cnt, t.through, t.tcount, p, me)
        reply = -1
        double = False
        for i in range(t.tcount[p]):
            k = t.through[p, i]
            if cnt[me, k] == 4 and cnt[other, k] == 0:
                q = fifth_point(board, t.cells, k)
                if reply < 0:
                    reply = q
                elif q != reply:
                    double = True
        if double:
            line[2 * d] = p
            remove(board, cnt, t.through, t.tcount, p)
            length = 2 * d + 1
            for i in range(d - 1, -1, -1):
                remove(board, cnt, t.through, t.tcount, line[2 * i + 1])
                remove(board, cnt, t.through, t.tcount, line[2 * i])
            return length
        if reply < 0:
            remove(board, cnt, t.through, t.tcount, p)
            continue
        place(board, cnt, t.through, t.tcount, reply, other)
        if _makes_four(t, cnt, other, reply):
            remove(board, cnt, t.through, t.tcount, reply)
            remove(board, cnt, t.through, t.tcount, p)
            continue
        line[2 * d] = p
        line[2 * d + 1] = reply
        d += 1
        nodes += 1
        ncand[d] = _three_points(t, board, cnt, me, cand[d])
        at[d] = 0
    return -1


@jit
def _line_holds(t, board, cnt, me, line, end, p):
    """Whether the opponent's line of fours (``line[:end]``, found without my stone on ``p``)
    still wins with it there: no forced reply of mine (nor ``p``) makes a four of mine. ``p``
    touches none of the line's crosses, so each of its moves still makes the same four."""
    other = 3 - me
    place(board, cnt, t.through, t.tcount, p, me)
    holds = not _makes_four(t, cnt, me, p)
    placed = 0
    while holds and placed < end:
        q = line[placed]
        place(board, cnt, t.through, t.tcount, q, other if placed % 2 == 0 else me)
        placed += 1
        if placed % 2 == 0 and _makes_four(t, cnt, me, q):
            holds = False
    for i in range(placed - 1, -1, -1):
        remove(board, cnt, t.through, t.tcount, line[i])
    remove(board, cnt, t.through, t.tcount, p)
    return holds


@jit
def vcf_answers(board, cnt, t, me, allowed, budget):
    """The moves of ``me`` that do not lose to a win by continuous fours of the opponent (neither
    side has a four, and the opponent has no double-four point: see ``must_answer``). When the
    opponent has such a line (found within ``budget`` nodes), a move that touches none of its
    crosses, makes no four of mine, and after which no forced reply of mine makes one, lets the
    same line win: ``allowed[p]`` is cleared for it. Returns -1 when no line was found (nothing
    cleared), else how many moves are left."""
    other = 3 - me
    n = board.shape[0]
    line = np.empty(n + 2, dtype=np.int64)
    end = _vcf_line(t, board, cnt, other, budget, line)
    if end < 0:
        return -1
    zone = np.zeros(n, dtype=np.bool_)
    for i in range(end):  # the points of every cross the line makes a four
        q = line[i]
        place(board, cnt, t.through, t.tcount, q, other if i % 2 == 0 else me)
        if i % 2 == 0:
            for j in range(t.tcount[q]):
                k = t.through[q, j]
                if cnt[other, k] == 4 and cnt[me, k] == 0:
                    for jj in range(5):
                        zone[t.cells[k, jj]] = True
    for i in range(end - 1, -1, -1):
        remove(board, cnt, t.through, t.tcount, line[i])
    left = 0
    for p in range(n):
        if board[p] != 0 or not allowed[p]:
            continue
        if not zone[p] and _line_holds(t, board, cnt, me, line, end, p):
            allowed[p] = False
        else:
            left += 1
    return left


@jit
def threat_move(t, board, cnt, me, p):
    """Whether ``me``'s stone on the empty point ``p`` is a *threat*: it makes a four (the
    opponent must take its fifth point), or a double-four point (an empty point where my next
    stone would make two fours with different fifth points: the opponent must play on one of
    those crosses, or make a four). A new double-four point lies on a cross that ``p`` brought
    to three stones, so only the empty points of those crosses are looked at (a double-four
    point that was there before is a threat of its own: a stone there makes fours). The board
    is left as it was."""
    other = 3 - me
    place(board, cnt, t.through, t.tcount, p, me)
    found = False
    for i in range(t.tcount[p]):
        k = t.through[p, i]
        if cnt[other, k] != 0:
            continue
        if cnt[me, k] == 4:
            found = True
            break
        if cnt[me, k] == 3:
            for j in range(5):
                x = t.cells[k, j]
                if board[x] == 0 and _double_four_point(t, board, cnt, me, x):
                    found = True
                    break
            if found:
                break
    remove(board, cnt, t.through, t.tcount, p)
    return found
