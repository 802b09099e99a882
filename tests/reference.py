"""Plain-Python twins of the compiled kernels: slow, short, obviously correct, and sharing no code
with them (sets and arithmetic instead of bitmasks; the grid's canonical form instead of the
kernels' least-image test)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from boardpuzzles.grid import Grid


def attacks(n: int, a: tuple[int, int], b: tuple[int, int], torus: bool) -> bool:
    (r1, c1), (r2, c2) = a, b
    if torus:
        return r1 == r2 or c1 == c2 or (r1 + c1 - r2 - c2) % n == 0 or (r1 - c1 - r2 + c2) % n == 0
    return r1 == r2 or c1 == c2 or r1 + c1 == r2 + c2 or r1 - c1 == r2 - c2


def queens_solutions(n: int, torus: bool) -> Iterator[tuple[int, ...]]:
    """Every placement in lexicographic order, by plain backtracking (the seed's algorithm)."""

    def extend(placed: list[int]) -> Iterator[tuple[int, ...]]:
        row = len(placed)
        if row == n:
            yield tuple(placed)
            return
        for col in range(n):
            if not any(attacks(n, (r, c), (row, col), torus) for r, c in enumerate(placed)):
                placed.append(col)
                yield from extend(placed)
                placed.pop()

    return extend([])


def class_count(n: int, torus: bool, group: str) -> int:
    """Classes of placements: the number of distinct canonical forms under the grid's group."""
    grid = Grid.square(n, torus)
    forms = {grid.canonical([r * n + c for r, c in enumerate(p)], group) for p in queens_solutions(n, torus)}
    return len(forms)


def too_many_in_line(stones: set[tuple[int, int]], new: tuple[int, int], k: int) -> bool:
    """Would adding ``new`` put k+1 of these stones on one straight line? (Cross products only.)"""
    others = list(stones)
    for a in others:
        on_line = [b for b in others if (a[0] - new[0]) * (b[1] - new[1]) == (a[1] - new[1]) * (b[0] - new[0])]
        if len(on_line) + 1 > k:
            return True
    return False


def less_than_three_solutions(n: int, colours: int, k: int, stones: int) -> list[tuple[int, ...]]:
    """Every board (cell colours, 0 = empty, row-major) by plain cell-by-cell backtracking."""
    found = []
    board = [0] * (n * n)
    placed: list[set[tuple[int, int]]] = [set() for _ in range(colours)]

    def extend(cell: int) -> None:
        if all(len(p) == stones for p in placed):
            found.append(tuple(board))
            return
        if cell == n * n:
            return
        if sum(stones - len(p) for p in placed) > n * n - cell:
            return
        extend(cell + 1)
        where = divmod(cell, n)
        for c in range(colours):
            if len(placed[c]) < stones and not too_many_in_line(placed[c], where, k):
                placed[c].add(where)
                board[cell] = c + 1
                extend(cell + 1)
                board[cell] = 0
                placed[c].discard(where)

    extend(0)
    return found


def less_than_three_classes(boards: list[tuple[int, ...]], n: int, colours: int, swap: bool) -> int:
    """Classes of boards (cell colours, row-major) under the 8 symmetries of the square, and with
    ``swap`` every relabelling of the colours: the number of distinct least images. Where each
    cell goes under each symmetry is worked out here from plain coordinates (not the library's
    permutation tables), once, and then applied to every board."""
    import itertools

    def destination(cell: int, t: int) -> int:
        r, c = divmod(cell, n)
        for _ in range(t % 4):
            r, c = c, n - 1 - r  # a quarter turn
        if t >= 4:
            c = n - 1 - c  # then a mirror
        return r * n + c

    # sources[t][k]: the cell whose colour lands on cell k under symmetry t
    sources = []
    for t in range(8):
        source = [0] * (n * n)
        for cell in range(n * n):
            source[destination(cell, t)] = cell
        sources.append(source)
    relabellings = list(itertools.permutations(range(1, colours + 1))) if swap else [tuple(range(1, colours + 1))]
    recolourings = [(0, *p) for p in relabellings]
    forms = set()
    for board in boards:
        images = [tuple(board[k] for k in source) for source in sources]
        if swap:
            images = [tuple(colour[x] for x in image) for image in images for colour in recolourings]
        forms.add(min(images))
    return len(forms)


def disjoint_selections(items: list[frozenset[int]], group: list[int], positions: list[int], first: range) -> int:
    """The twin of the kernel ``disjoint_selections``: every way to give each position an item of
    its group, pairwise disjoint, positions of one group in increasing item order, the first
    position's item taken from ``first``; by trying every combination."""
    import itertools

    found = 0
    for chosen in itertools.product(range(len(items)), repeat=len(positions)):
        if chosen and chosen[0] not in first:
            continue
        if any(group[i] != g for i, g in zip(chosen, positions, strict=True)):
            continue
        if any(positions[p] == positions[p + 1] and chosen[p] >= chosen[p + 1] for p in range(len(chosen) - 1)):
            continue
        cells = [c for i in chosen for c in items[i]]
        if len(cells) == len(set(cells)):
            found += 1
    return found


def symmetric_line_boards(n: int, k: int, orbits: list[list[int]]) -> list[frozenset[int]]:
    """Every one-colour board with k stones in each row and column and at most k on any line that
    is a union of ``orbits`` (cells row-major), by plain include-or-skip backtracking over the
    orbits in order: the twin of ``find_symmetric``."""
    found = []

    def extend(i: int, stones: set[tuple[int, int]]) -> None:
        rows = [sum(1 for r, _ in stones if r == j) for j in range(n)]
        cols = [sum(1 for _, c in stones if c == j) for j in range(n)]
        if max(rows + cols, default=0) > k:
            return
        if i == len(orbits):
            if all(count == k for count in rows + cols):
                found.append(frozenset(r * n + c for r, c in stones))
            return
        extend(i + 1, stones)
        added = set(stones)
        for cell in orbits[i]:
            if too_many_in_line(added, divmod(cell, n), k):
                return
            added.add(divmod(cell, n))
        extend(i + 1, added)

    extend(0, set())
    return found


# ---------------------------------------------------------------- Baikago
# Twins of src/boardpuzzles/_kernels/baikago.py: crosses from plain geometry, counts recomputed
# from the board at every step (no incremental state), plain minimax without pruning or table.


def baikago_crosses(n: int, max_d: int | None = None, orientations: str = "+x") -> list[tuple[int, ...]]:
    """Every cross as (centre, four arms), by trying every centre and distance."""
    found = []
    for r in range(n):
        for c in range(n):
            for d in range(1, n):
                if max_d is not None and d > max_d:
                    break
                shapes = {
                    "+": [(r, c - d), (r, c + d), (r - d, c), (r + d, c)],
                    "x": [(r - d, c - d), (r - d, c + d), (r + d, c - d), (r + d, c + d)],
                }
                for o in orientations:
                    arms = shapes[o]
                    if all(0 <= a < n and 0 <= b < n for a, b in arms):
                        found.append((r * n + c, *(a * n + b for a, b in arms)))
    return found


def _counts(board: list[int], cross: tuple[int, ...], colour: int) -> int:
    return sum(1 for p in cross if board[p] == colour)


def baikago_fours(board: list[int], crosses, colour: int) -> set[int]:
    """The empty fifth points of ``colour``'s fours."""
    points = set()
    for cross in crosses:
        if _counts(board, cross, colour) == 4 and _counts(board, cross, 3 - colour) == 0:
            points |= {p for p in cross if board[p] == 0}
    return points


def baikago_move_scores(board: list[int], crosses, me: int, attack, defend) -> list[int]:
    scores = []
    for p in range(len(board)):
        if board[p]:
            scores.append(-1)
            continue
        s = 0
        for cross in crosses:
            if p in cross:
                a, b = _counts(board, cross, me), _counts(board, cross, 3 - me)
                s += (attack[a] if b == 0 else 0) + (defend[b] if a == 0 else 0)
        scores.append(s)
    return scores


def baikago_evaluate(board: list[int], crosses, me: int, value) -> int:
    total = 0
    for cross in crosses:
        a, b = _counts(board, cross, me), _counts(board, cross, 3 - me)
        if b == 0:
            total += value[a]
        elif a == 0:
            total -= value[b]
    return total


def baikago_vcf(board: list[int], crosses, me: int, depth: int) -> bool:
    """Is there a win by continuous fours in ``depth`` of my moves (a defender's reply that makes
    a four of its own refutes the line)?"""
    if depth <= 0:
        return False
    threes = [x for x in crosses if _counts(board, x, me) == 3 and _counts(board, x, 3 - me) == 0]
    for p in sorted({q for x in threes for q in x if board[q] == 0}):
        board[p] = me
        replies = {
            q
            for x in crosses
            if p in x and _counts(board, x, me) == 4 and _counts(board, x, 3 - me) == 0
            for q in x
            if board[q] == 0
        }
        won = len(replies) >= 2
        if len(replies) == 1:
            (q,) = replies
            board[q] = 3 - me
            counter = any(q in x and _counts(board, x, 3 - me) == 4 and _counts(board, x, me) == 0 for x in crosses)
            won = not counter and baikago_vcf(board, crosses, me, depth - 1)
            board[q] = 0
        board[p] = 0
        if won:
            return True
    return False


def baikago_minimax(
    board: list[int],
    crosses,
    me: int,
    depth: int,
    width: int,
    attack,
    defend,
    value,
    ply: int = 0,
    win: int = 1_000_000,
) -> int:
    """The kernel's search rules, as plain minimax: a four of mine wins; two of the opponent's
    lose; one must be blocked (no depth used); else the ``width`` best points by move score."""
    if baikago_fours(board, crosses, me):
        return win - ply
    blocks = baikago_fours(board, crosses, 3 - me)
    if len(blocks) >= 2:
        return -(win - ply - 1)
    if not blocks and depth <= 0:
        return baikago_evaluate(board, crosses, me, value)
    if blocks:
        moves, next_depth = sorted(blocks), depth
    else:
        scores = baikago_move_scores(board, crosses, me, attack, defend)
        ranked = sorted((p for p in range(len(board)) if scores[p] >= 0), key=lambda p: (-scores[p], p))
        moves, next_depth = ranked[:width], depth - 1
        if not moves:
            return 0
    best = None
    for m in moves:
        board[m] = me
        v = -baikago_minimax(board, crosses, 3 - me, next_depth, width, attack, defend, value, ply + 1, win)
        board[m] = 0
        best = v if best is None else max(best, v)
    return best


# ---------------------------------------------------------------------- knight's tours
def knight_tours(rows: int, cols: int, start: int, closed: bool = False) -> list[tuple[int, ...]]:
    """Every directed tour from ``start`` by the seed's plain backtracking (no pruning), moves
    tried in the order of ``grid.KNIGHT_STEPS``; sorted, since the kernel's order differs."""
    from boardpuzzles.grid import KNIGHT_STEPS

    def jumps(cell: int) -> list[int]:
        r, c = divmod(cell, cols)
        return [(r + dr) * cols + c + dc for dr, dc in KNIGHT_STEPS if 0 <= r + dr < rows and 0 <= c + dc < cols]

    found = []
    path = [start]
    seen = {start}

    def extend() -> None:
        if len(path) == rows * cols:
            if not closed or start in jumps(path[-1]):
                found.append(tuple(path))
            return
        for nxt in jumps(path[-1]):
            if nxt not in seen:
                seen.add(nxt)
                path.append(nxt)
                extend()
                path.pop()
                seen.remove(nxt)

    extend()
    return sorted(found)


def knight_cycles(rows: int, cols: int) -> int:
    """Closed tours as cycles: the closed tours from square 0, each cycle met in two directions."""
    return len(knight_tours(rows, cols, 0, closed=True)) // 2 if rows * cols > 2 else 0


# ---------------------------------------------------------------- Goishi Hiroi
def _goishi_next(
    rows: int, cols: int, on_board: set[tuple[int, int]], at: tuple[int, int], step: tuple[int, int]
) -> tuple[int, int] | None:
    """Walk point by point from ``at`` in ``step`` to the first stone still on the board."""
    r, c = at[0] + step[0], at[1] + step[1]
    while 0 <= r < rows and 0 <= c < cols:
        if (r, c) in on_board:
            return (r, c)
        r, c = r + step[0], c + step[1]
    return None


def goishi_orders(rows: int, cols: int, stones: set[tuple[int, int]]) -> list[tuple[tuple[int, int], ...]]:
    """Every pick-up order, by plain depth-first search from every stone: no memo, no pruning,
    no bitmasks (coordinates and sets only)."""
    found = []

    def walk(order: list[tuple[int, int]], on_board: set[tuple[int, int]], came: tuple[int, int] | None) -> None:
        if not on_board:
            found.append(tuple(order))
            return
        for step in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            if came is not None and step == (-came[0], -came[1]):
                continue
            nxt = _goishi_next(rows, cols, on_board, order[-1], step)
            if nxt is not None:
                order.append(nxt)
                on_board.discard(nxt)
                walk(order, on_board, step)
                on_board.add(nxt)
                order.pop()

    for start in sorted(stones):
        walk([start], set(stones) - {start}, None)
    return found


def goishi_seed_first(
    rows: int, cols: int, stones: set[tuple[int, int]], give_up: float | None = None
) -> tuple[tuple[int, int], ...] | None:
    """The seed article's algorithm, ported plainly: a board with a sentinel border, every stone
    tried as the start, depth-first search that stops at the first complete order; no memo.
    Raises TimeoutError after ``give_up`` seconds."""
    import time

    width = cols + 2
    board = [False] * ((rows + 2) * width)  # the sentinel border is never a stone
    for r, c in stones:
        board[(r + 1) * width + c + 1] = True
    steps = (-width, 1, width, -1)
    deadline = None if give_up is None else time.perf_counter() + give_up
    nodes = [0]

    def inside(p: int) -> bool:
        return width < p < len(board) - width and 0 < p % width < width - 1

    def solve_inner(p: int, came: int, left: int, path: list[int]) -> bool:
        if left == 0:
            return True
        nodes[0] += 1
        if deadline is not None and nodes[0] % 4096 == 0 and time.perf_counter() > deadline:
            raise TimeoutError
        for d in steps:
            if d == -came:
                continue
            q = p + d
            while inside(q) and not board[q]:
                q += d
            if inside(q):
                board[q] = False
                path.append(q)
                if solve_inner(q, d, left - 1, path):
                    return True
                path.pop()
                board[q] = True
        return False

    for r, c in sorted(stones):
        p = (r + 1) * width + c + 1
        board[p] = False
        path = [p]
        if solve_inner(p, 0, len(stones) - 1, path):
            return tuple((q // width - 1, q % width - 1) for q in path)
        board[p] = True
    return None


def kings_apart(rows: int, cols: int, kings: int, cells: list[int]) -> bool:
    """``kings`` kings on a bounded board, no two a king's step apart (rows and columns compared)."""
    spots = [divmod(c, cols) for c in cells]
    if len(set(cells)) != kings or not all(0 <= r < rows and 0 <= c < cols for r, c in spots):
        return False
    return all(max(abs(a - c), abs(b - d)) > 1 for (a, b), (c, d) in itertools.combinations(spots, 2))


def dominoes_tile(rows: int, cols: int, pairs: list[tuple[int, int]]) -> bool:
    """Every square covered once, each domino on two squares side by side or one above the other."""
    covered = [c for pair in pairs for c in pair]
    if sorted(covered) != list(range(rows * cols)):
        return False
    beside = [(divmod(a, cols), divmod(b, cols)) for a, b in pairs]
    return all(abs(ra - rb) + abs(ca - cb) == 1 for (ra, ca), (rb, cb) in beside)


def dominoes_completion(rows: int, cols: int, pairs: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
    """A tiling that holds the dominoes ``pairs`` (itself and them, found by plain backtracking:
    the first free square in reading order takes a domino to its right or below), or None when
    there is none."""
    covered = [c for pair in pairs for c in pair]
    if len(set(covered)) != len(covered):
        return None
    taken = set(covered)

    def fill(chosen: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
        cell = next((c for c in range(rows * cols) if c not in taken), None)
        if cell is None:
            return list(chosen)
        for other in (cell + 1 if (cell + 1) % cols else -1, cell + cols if cell + cols < rows * cols else -1):
            if other >= 0 and other not in taken:
                taken.update((cell, other))
                found = fill([*chosen, (cell, other)])
                taken.difference_update((cell, other))
                if found is not None:
                    return found
        return None

    return fill(list(pairs))
