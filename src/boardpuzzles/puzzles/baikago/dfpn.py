"""The df-pn search driver: one search (one attacker) of a Baikago position, with its
transposition table, over the kernels of ``boardpuzzles._kernels.baikago_solve``; pairings;
symmetry classes and the canonical pictures of positions.

Glossary (see :mod:`boardpuzzles.puzzles.baikago.solve` for the whole solver)
--------
attacker    the side whose win a search tries to prove; the other is the *defender*.
pairing     disjoint pairs of empty points such that every cross the defender has not touched
            contains a pair: the defender answers a stone on one point of a pair with the other.
canonical   of the 8 images of a board under the symmetries of the square, the one whose string
picture     of row-major points (``.`` empty, ``X`` black, ``O`` white) is smallest.
table       the search's transposition table (``DfpnTable``), keyed by a position's canonical
            Zobrist key; the tables the kernels share (crosses, keys) travel as one bundle
            (``SolveTables``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.puzzles.baikago.rules import BLACK, EMPTY_POINT, WHITE, Colour, Rules

#: Search nodes of the pairing test of the empty board (6x6 needs a few thousand; 7x7 is
#: settled, with no pairing, in about as many) and of the test inside the search (on 7x7 with
#: black attacking, 200, 500 and 20,000 all search more nodes than 2,000, in no less time).
ROOT_PAIRING_BUDGET = 2_000_000
PAIRING_BUDGET = 2_000
#: The pairing search's budget (nodes) where a strategy is extracted (see Search.pairing_of_any_image).
STRATEGY_PAIRING_BUDGET = 20_000
#: Transposition table entries (a power of two): 2^22 entries take 132 MiB (33 bytes each).
DEFAULT_TT_BITS = 22
_SEED_KEY = 0x9E3779B97F4A7C15  # the key of the empty board: never 0, the table's empty mark
#: How children are tried: 0 by point, 1 by move score (best first), 2 by score and an
#: unexplored child's number guessed as 1 + its rank (the kernel's ``run.order``; 0 and 1 are
#: kept for comparisons: on 7x7 with black attacking, 2 needs about a third fewer nodes than 1).
ORDER = 2
#: Moves that lose at once are not searched: 0 none left out, 1 those that lose to a double
#: four, larger values also those that lose to a line of fours (found within that many
#: positions). On 7x7 with black attacking, 500 needs a fifth fewer nodes than 1.
PRUNE = 500
#: Move scores: a point on a cross with s of my stones (and none of the opponent's) is worth
#: ``ATTACK[s]``, on one with s of the opponent's (and none of mine) ``DEFEND[s]``.
ATTACK = np.array([1, 4, 20, 150, 100_000, 0], dtype=np.int64)
DEFEND = np.array([0, 3, 15, 100, 50_000, 0], dtype=np.int64)
#: ``Search.threats_from`` of a search of the whole game (no board has this many points).
WHOLE_GAME = 1 << 30
POINT_LETTERS = {EMPTY_POINT: ".", BLACK: "X", WHITE: "O"}
#: The same letters as ASCII codes, indexed by point colour (to make pictures with numpy).
_LETTER_CODES = np.frombuffer("".join(POINT_LETTERS[c] for c in (EMPTY_POINT, BLACK, WHITE)).encode(), dtype=np.uint8)


# -------------------------------------------------------------------- symmetry classes
@dataclass(frozen=True)
class Symmetries:
    """The 8 symmetries of the square board as permutations: ``perms[s, p]`` is the image of
    point p under symmetry s (identity first)."""

    rules: Rules
    perms: np.ndarray

    @classmethod
    def of(cls, rules: Rules) -> Symmetries:
        return _symmetries(rules)

    def canonical(self, board: np.ndarray) -> tuple[str, int]:
        """The canonical picture of ``board`` and a symmetry that maps the board onto it."""
        images = np.empty(self.perms.shape, dtype=np.int8)
        rows = np.arange(self.perms.shape[0])[:, None]
        images[rows, self.perms] = board[None, :]
        texts = [row.tobytes() for row in _LETTER_CODES[images]]
        best = min(range(len(texts)), key=texts.__getitem__)
        return texts[best].decode("ascii"), best


@functools.lru_cache(maxsize=32)
def _symmetries(rules: Rules) -> Symmetries:
    """The symmetries of a rule set's board, made once per process (nothing writes to them)."""
    perms = np.asarray(rules.grid.group("dihedral").permutations(), dtype=np.int64)
    return Symmetries(rules, perms)


# -------------------------------------------------------------------- the search
class NodeLimitReached(TimeLimitReached):
    """The run's budget of search nodes (``node_limit``) ran out: a partial stop like the time
    limit (what was learnt stays in the table, and in a checkpoint when there is one)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.args = (f"stopped after the node limit of {limit:,} search nodes",)
        self.limit = limit


def zobrist(rules: Rules, symmetries: Symmetries) -> np.ndarray:
    """``zsym[s, c, p]``: the key of a stone of colour c on point p seen through symmetry s
    (fixed by the board size: the same in every run, which a saved table relies on; made once
    per process: nothing writes to it)."""
    if symmetries is _symmetries(rules):
        return _zobrist(rules)
    return _make_zobrist(rules, symmetries)


@functools.lru_cache(maxsize=32)
def _zobrist(rules: Rules) -> np.ndarray:
    return _make_zobrist(rules, _symmetries(rules))


def _make_zobrist(rules: Rules, symmetries: Symmetries) -> np.ndarray:
    n = rules.size**2
    rng = np.random.default_rng(20240501 + rules.size)
    zob = rng.integers(1, 2**63 - 1, size=(3, n), dtype=np.int64).astype(np.uint64)
    perms = symmetries.perms
    zsym = np.zeros((perms.shape[0], 3, n), dtype=np.uint64)
    for s in range(perms.shape[0]):
        for colour in (BLACK, WHITE):
            zsym[s, colour] = zob[colour, perms[s]]
    return zsym


class Search:
    """One df-pn search (one attacker) on one rule set, with its transposition table.

    ``stats``: [0] search nodes (over every run of a checkpointed search), [1] set while the
    kernel is stopped, [2] pairing tests, [3] pairings found; ``result`` the root's (pn, dn)
    once proved or disproved; ``seconds`` the time spent (earlier runs included); the kernel
    stops once ``stats[0]`` passes ``budget_end``."""

    def __init__(
        self, rules: Rules, attacker: Colour, tt_bits: int = DEFAULT_TT_BITS, pairing_budget: int = PAIRING_BUDGET
    ) -> None:
        from boardpuzzles._kernels import baikago_solve as kernels

        if not 10 <= tt_bits <= 30:
            raise BoardPuzzlesError(f"tt_bits must be between 10 and 30, got {tt_bits}")
        self.k = kernels
        self.rules = rules
        self.table = rules.table
        self.attacker = attacker
        self.pairing_budget = pairing_budget  # 0: no pairing tests (pure strategies)
        self.symmetries = Symmetries.of(rules)
        self.zsym = zobrist(rules, self.symmetries)
        self.tables = kernels.SolveTables(
            self.table.cells, self.table.through, self.table.through_count, self.zsym, ATTACK, DEFEND
        )
        self.tt_bits = tt_bits
        size = 1 << tt_bits
        self.tt = kernels.DfpnTable(
            np.zeros(size, np.uint64),
            np.zeros(size, np.int64),
            np.zeros(size, np.int64),
            np.zeros(size, np.int64),
            np.zeros(size, np.int8),
        )
        self.stats = np.zeros(4, dtype=np.int64)
        self.result: tuple[int, int] | None = None
        self.seconds = 0.0
        self.budget_end = 2**62
        self.order = ORDER
        self.prune = PRUNE
        #: From this many stones on, the attacker plays only threats (a threat-space search:
        #: see ``DfpnRun``); the default, past any board's points, searches the whole game.
        self.threats_from = WHOLE_GAME
        #: The most entries a checkpoint keeps of this search (None: all; see ``entries``).
        self.checkpoint_entries: int | None = None

    @property
    def nodes(self) -> int:
        return int(self.stats[0])

    def entries(self, most: int | None = None) -> tuple[np.ndarray, ...]:
        """The table's occupied slots (uint32) and, at those slots, its five arrays; with
        ``most``, only the ``most`` entries the table itself would give up last (the costliest
        to compute, a settled one counted at ``SETTLED_WEIGHT`` times its work), in slot order."""
        slots = np.flatnonzero(self.tt[0])
        if most is not None and len(slots) > most:
            work = self.tt.work[slots]
            settled = (self.tt.pn[slots] == 0) | (self.tt.dn[slots] == 0)
            cost = np.where(settled, work * self.k.SETTLED_WEIGHT, work)
            slots = np.sort(slots[np.argpartition(-cost, most - 1)[:most]]) if most > 0 else slots[:0]
        slots = slots.astype(np.uint32)
        return (slots, *(array[slots] for array in self.tt))

    def restore(self, slots: np.ndarray, arrays: tuple[np.ndarray, ...]) -> None:
        """Put saved entries back into their slots (into an empty table)."""
        for table, values in zip(self.tt, arrays, strict=True):
            table[slots] = values

    def place(self, arrays: tuple[np.ndarray, ...]) -> None:
        """Put entries saved from a table of another size into this (empty) one, each into its
        bucket here: a larger table takes them all (the entries of one of its buckets all come
        from one old bucket, so there are at most ``BUCKET``), a smaller one keeps the
        costliest of those that meet in a bucket."""
        keys, pn, dn, work = arrays[:4]
        bucket = self.k.BUCKET
        cost = np.where((pn == 0) | (dn == 0), work * self.k.SETTLED_WEIGHT, work)
        base = (keys & np.uint64(len(self.tt[0]) - bucket)).astype(np.int64)
        order = np.lexsort((-cost, base))  # by bucket, the costliest first within one
        del cost
        base = base[order]
        rank = np.arange(len(base)) - np.searchsorted(base, base, side="left")
        kept = rank < bucket
        order = order[kept]
        self.restore(base[kept] + rank[kept], tuple(array[order] for array in arrays))

    def root_children(self, board: np.ndarray) -> tuple[int, int, int, int]:
        """(pn, dn) of ``board`` as its children's table entries give them (a search that
        stopped stores nothing at the root: this is where it stands), then how many children
        (symmetry classes) the root has and how many of them the table holds. A child the table
        does not hold counts as unexplored (1, 1): a full table gives up entries, and numbers
        read from a root whose children are gone are guesses, not what the search learnt. A
        terminal position: its value, and no children."""
        inf = int(self.k.INF)
        code, _ = self.status(board)
        if code in (1, -1):
            return ((0, inf) if code == 1 else (inf, 0)) + (0, 0)
        children = self.child_entries(board)
        pns = [pn for _, pn, _, _ in children]
        dns = [dn for _, _, dn, _ in children]
        held = sum(work > 0 for _, _, _, work in children)  # every stored entry has cost at least its own node
        if turn(board) == self.attacker:
            return min(pns), min(inf, sum(dns)), len(children), held
        return min(inf, sum(pns)), min(dns), len(children), held

    def child_entries(self, board: np.ndarray) -> list[tuple[int, int, int, int]]:
        """The children of a position that is not over, one per symmetry class (the lowest
        point of each): ``(point, pn, dn, work)`` as the table holds them; a child it does not
        hold is ``(point, 1, 1, 0)``."""
        code, forced = self.status(board)
        me = turn(board)
        moves = [forced] if code == -3 else [int(p) for p in np.flatnonzero(board == EMPTY_POINT)]
        seen: set[int] = set()
        children = []
        _, keys = self.state(board)
        for p in moves:
            key = self.child_key(keys, me, p)
            if key not in seen:
                seen.add(key)
                children.append((p, *self.entry(key)))
        return children

    def state(self, board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The cross counts and the 8 keys of a board."""
        cnt = np.zeros((3, len(self.table)), dtype=np.int16)
        stones = board[self.table.cells]
        cnt[BLACK] = (stones == BLACK).sum(axis=1)
        cnt[WHITE] = (stones == WHITE).sum(axis=1)
        keys = np.full(self.zsym.shape[0], _SEED_KEY, dtype=np.uint64)
        for colour in (BLACK, WHITE):
            keys ^= np.bitwise_xor.reduce(self.zsym[:, colour, np.flatnonzero(board == colour)], axis=1)
        return cnt, keys

    def solve(self, board: np.ndarray, limits: Limits, extracting: bool = False) -> tuple[int, int]:
        """(pn, dn) of the position once proved (pn 0) or disproved (dn 0); stops with the
        run's limits (the table keeps what was learnt). ``extracting``: a search made while a
        strategy is read out, which keeps settled entries first (``KEEP_SETTLED``)."""
        board = board.copy()
        cnt, keys = self.state(board)
        out = np.zeros(2, dtype=np.int64)
        self.stats[1] = 0
        run = self.settings(limits, extracting)
        self.k.dfpn(self.tables, self.tt, run, board, cnt, keys, turn(board), out)
        if self.stats[1]:
            if self.nodes > self.budget_end and not limits.stopped:
                raise NodeLimitReached(self.budget_end)
            limits.raise_stop()
        return int(out[0]), int(out[1])

    def settings(self, limits: Limits, extracting: bool = False) -> Any:
        """The kernel's ``DfpnRun`` for a run under ``limits``: a full bucket weighs settled
        entries by ``SETTLED_WEIGHT`` while searching, and keeps them first (``KEEP_SETTLED``)
        while a strategy is read out."""
        return self.k.DfpnRun(
            self.attacker,
            self.budget_end,
            self.pairing_budget,
            self.stats,
            limits.flag,
            self.order,
            self.prune,
            self.threats_from,
            self.k.KEEP_SETTLED if extracting else self.k.SETTLED_WEIGHT,
        )

    def forget(self, board: np.ndarray) -> None:
        """Drop the table's entry of ``board``, if it holds one."""
        _, keys = self.state(board)
        self.k.tt_forget(self.tt, self.k.canonical(keys))

    def probe(self, board: np.ndarray) -> tuple[int, int]:
        """(pn, dn) from the table; (1, 1) for a position it does not hold."""
        _, keys = self.state(board)
        pn, dn, _ = self.entry(self.k.canonical(keys))
        return pn, dn

    def entry(self, key: int) -> tuple[int, int, int]:
        """(pn, dn, work) of a table key: the numbers, and the search that settled them
        (roughly the size of its subtree); (1, 1, 0) when the table does not hold the key."""
        # as np.uint64: a Python int above 2**63 misses numba's typed fast path, and each such
        # call went through its compiler's dispatch (80% of an extraction's time)
        slot = int(self.k.tt_find(self.tt[0], np.uint64(key)))
        if slot < 0:
            return 1, 1, 0
        return int(self.tt[1][slot]), int(self.tt[2][slot]), int(self.tt[3][slot])

    def child_key(self, keys: np.ndarray, colour: Colour, point: int) -> int:
        """The table key of the position ``keys`` (its 8 keys) with a ``colour`` stone added at ``point``."""
        return int(self.k.canonical(keys ^ self.zsym[:, colour, point]))

    def status(self, board: np.ndarray) -> tuple[int, int]:
        """The kernel's terminal test: (1 attacker has won / -1 cannot win / -3 forced / 0 open,
        the forced point)."""
        cnt, _ = self.state(board)
        blocks = np.empty(board.shape[0], dtype=np.int32)
        empty = int((board == EMPTY_POINT).sum())
        code = self.k.node_status(board, cnt, self.table.cells, turn(board), self.attacker, empty, blocks)
        return int(code), int(blocks[0]) if code == -3 else -1

    def pairing_of_any_image(self, board: np.ndarray) -> list[tuple[int, int]] | None:
        """A pairing found on the board or on one of its 7 other images (in this board's points).
        The search tests whichever image it reached, within a budget, and a budget-bound search
        can succeed on one image and fail on another: a strategy that tried one image only went
        on below positions that the search had settled by a pairing (and had never searched),
        and searched them again (7x7, white attacking: 6,434 times, 3.2 M nodes). Its budget is
        larger than the search's: every pairing found here ends a branch of the strategy (on 7x7
        positions with black attacking, up to 58,000 times fewer positions with 20,000 than with
        200)."""
        if self.pairing_budget <= 0:
            return None
        perms = self.symmetries.perms
        for s in range(perms.shape[0]):
            image = np.empty_like(board)
            image[perms[s]] = board
            pairs = find_pairing(self.rules, image, self.attacker, max(self.pairing_budget, STRATEGY_PAIRING_BUDGET))
            if pairs is not None:
                back = np.argsort(perms[s])  # image point -> board point
                return [(int(back[a]), int(back[b])) for a, b in pairs]
        return None


def picture(points: list[int] | np.ndarray) -> str:
    """Point colours as a string (row-major, top row first): ``.`` empty, ``X`` black, ``O`` white."""
    return "".join(POINT_LETTERS[int(v)] for v in points)


def turn(board: np.ndarray) -> Colour:
    """Whose move it is: black when both have as many stones."""
    return BLACK if int((board == BLACK).sum()) == int((board == WHITE).sum()) else WHITE


def find_pairing(
    rules: Rules, board: np.ndarray | None = None, attacker: Colour = BLACK, budget: int = ROOT_PAIRING_BUDGET
) -> list[tuple[int, int]] | None:
    """Pairs of empty points such that every cross without a stone of the defender (the other
    colour than ``attacker``) contains a pair; None when there is none (or none was found
    within ``budget`` search nodes: see :func:`pairing_exists`)."""
    found, pairs = _pairing(rules, board, attacker, budget)
    return pairs if found == 1 else None


def pairing_exists(rules: Rules, budget: int = ROOT_PAIRING_BUDGET) -> bool | None:
    """Whether the empty board has a pairing: True, False (the search was complete), or None
    (the budget ran out first)."""
    found, _ = _pairing(rules, None, BLACK, budget)
    return None if found < 0 else found == 1


def _pairing(
    rules: Rules, board: np.ndarray | None, attacker: Colour, budget: int
) -> tuple[int, list[tuple[int, int]]]:
    from boardpuzzles._kernels import baikago_solve as kernels

    table = rules.table
    n = rules.size**2
    board = np.zeros(n, dtype=np.int8) if board is None else np.asarray(board, dtype=np.int8)
    cnt = np.zeros((3, len(table)), dtype=np.int16)
    stones = board[table.cells]
    cnt[BLACK] = (stones == BLACK).sum(axis=1)
    cnt[WHITE] = (stones == WHITE).sum(axis=1)
    partner = np.empty(n, dtype=np.int32)
    found = int(
        kernels.pairing_search(board, cnt, table.cells, table.through, table.through_count, attacker, partner, budget)
    )
    pairs = [(p, int(q)) for p, q in enumerate(partner.tolist()) if q > p] if found == 1 else []
    return found, pairs
