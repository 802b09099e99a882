"""Who wins Baikago on a small board, with a proof that an independent checker can replay.

Glossary
--------
value       what perfect play gives from the empty board: ``black`` (black can force a win),
            ``white`` (white can), or ``draw`` (neither can; each side can keep the other from
            ever filling a cross); ``unknown`` when only one side was searched (``--side``) and
            it cannot win.
attacker    the side whose win a search tries to prove; the other is the *defender*. Each board
            is searched twice: black attacking, then white attacking.
pairing     disjoint pairs of empty points such that every cross the defender has not touched
            contains a pair. A player who answers a stone on one point of a pair with the other
            point (and plays anywhere otherwise) gets a stone on every such cross: the opponent
            never fills one. A pairing on the empty board proves a draw at once (either side can
            use it); later in the game it ends a branch of a search.
df-pn       depth-first proof-number search (``boardpuzzles._kernels.baikago_solve``): a
            position is *proved* (the attacker wins) or *disproved* (the attacker cannot win);
            forced moves (a four must be answered) are followed without branching, and the
            table is keyed by the position's symmetry class (the 8 symmetries of the square
            map crosses onto crosses).
strategy    a proof for one side, the *owner*: a map from positions where the owner is to move
            to the owner's move there, and from positions where the opponent is to move to a
            pairing (a leaf). Positions are stored once per symmetry class, under their
            *canonical picture*: of the 8 images of the board, the smallest string of row-major
            points (``.`` empty, ``X`` black, ``O`` white; top row first); moves and pairings are
            named on that canonical image. Starting from the empty board, every opponent move
            is followed; a claim that the owner wins holds when every line ends with the owner
            filling a cross, a claim that the opponent cannot win when no line ends with the
            opponent filling one.
proof file  JSON (gzip-compressed when the name ends in ``.gz``): the rules, the value, and one
            proof per claim (see :meth:`Solution.to_json`). The checker in
            ``tests/test_baikago_solve.py`` shares no code with this module.
checkpoint  a binary file of the searches' transposition tables (:class:`TableFile`): saved when
            a run stops (time limit, node limit, Ctrl-C) or ends, loaded by a later run with the
            same file, which continues the searches from them (:class:`Solver`). It is bound to
            the exact search (rules, start position, attackers, pairings, table size, the
            Zobrist keys and the table format) and refused otherwise.

Why a loaded table cannot make a wrong answer: a df-pn table is a cache. The kernel stores an
entry only when a node's expansion ends normally (a stopped search stores nothing on its way
up), so a saved table is one that the same uninterrupted search could have held, and resuming
is the same as df-pn's own restart from the root with its table. Entries with pn and dn both
above 0 are estimates: a stale or wrong one changes only the order and the cost of the search,
never a value, since a node is proved or disproved only from its children's values. Only the
entries with pn = 0 or dn = 0 are trusted as results, exactly as within one run; what could
make one wrong is (1) a 64-bit key collision, as likely after a resume as in a run that never
stopped (the file keeps the full keys, and the Zobrist keys are bound into its identity so the
same key means the same position), (2) damage, which the file's SHA-256 checksum refuses, or
(3) a deliberate edit with a recomputed checksum (it is a checksum, not a signature). Against
all three the proof stays the judge: it is an explicit strategy, replayed move by move by the
independent checker, and a strategy built on a false entry fails it. ``PAIRING_TRIED`` flags
(the pairing test failed here) only save work: a wrong flag skips a pairing test, which costs
search, never correctness.

Roads not taken: retrograde analysis (3^49 positions on 7x7); proving draws with the
Erdos-Selfridge potential (a theorem as a leaf, where a pairing is a strategy the checker can
see); saving the table periodically during a run (a kill -9 loses the work since the last
stop; Ctrl-C and the limits save); a lock against two runs on one file (the later save wins).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardpuzzles.checkpoint import CheckpointError, canonical, check_path, digest
from boardpuzzles.compiling import search_seconds
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.files import replace_file
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.puzzles.baikago.rules import BLACK, COLOUR_NAMES, EMPTY_POINT, WHITE, Colour, Rules, other

#: The largest board the solver accepts (7x7 black's search already takes tens of minutes of
#: 2 cores, docs/methods/baikago.md; a pairing may still settle a variant of 8x8 or 9x9 at once).
MAX_SOLVE_SIZE = 9
#: Search nodes of the pairing test of the empty board (6x6 needs a few thousand; 7x7 is
#: settled, with no pairing, in about as many) and of the test inside the search.
ROOT_PAIRING_BUDGET = 2_000_000
PAIRING_BUDGET = 200
#: The pairing search's budget (nodes) where a strategy is extracted (see Search.pairing_of_any_image).
STRATEGY_PAIRING_BUDGET = 20_000
#: Transposition table entries (a power of two): 2^22 entries take 132 MiB (33 bytes each).
DEFAULT_TT_BITS = 22
_SEED_KEY = 0x9E3779B97F4A7C15  # the key of the empty board: never 0, the table's empty mark
FORMAT = "baikago-proof/1"
#: The first bytes of a checkpoint file (:class:`TableFile`), and the layout it announces.
TABLE_MAGIC = b"BPdfpn\r\n\x1a\n"
TABLE_FILE_FORMAT = "baikago-dfpn-tables/1"
#: Seconds a save waits for a stopped search to let go of its tables (see :meth:`Solver.save`).
SAVE_WAIT = 30.0
#: A proof's extraction reports its progress every this many positions, at most every so many seconds.
REPORT_EVERY = 2_000
REPORT_SECONDS = 30.0
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
        perms = np.asarray(rules.grid.group("dihedral").permutations(), dtype=np.int64)
        return cls(rules, perms)

    def canonical(self, board: np.ndarray) -> tuple[str, int]:
        """The canonical picture of ``board`` and a symmetry that maps the board onto it."""
        images = np.empty(self.perms.shape, dtype=np.int8)
        rows = np.arange(self.perms.shape[0])[:, None]
        images[rows, self.perms] = board[None, :]
        texts = [row.tobytes() for row in _LETTER_CODES[images]]
        best = min(range(len(texts)), key=texts.__getitem__)
        return texts[best].decode("ascii"), best


# -------------------------------------------------------------------- the result
@dataclass
class Claim:
    """``colour`` can force a win (``wins``) or cannot; ``proof`` is the owner's strategy
    (or a pairing), ``nodes`` the search nodes it took."""

    colour: Colour
    wins: bool
    owner: Colour
    pairing: list[tuple[int, int]] | None = None
    strategy: dict[str, Any] = field(default_factory=dict)
    nodes: int = 0
    seconds: float = 0.0

    def statement(self) -> str:
        name = COLOUR_NAMES[self.colour]
        return f"{name} wins" if self.wins else f"{name} cannot win"

    def method(self) -> str:
        if self.pairing is not None:
            return "pairing"
        pairings = sum(1 for v in self.strategy.values() if not isinstance(v, str))
        return f"strategy of {len(self.strategy)} positions ({pairings} ending in a pairing)"

    def to_json(self, rules: Rules) -> dict[str, Any]:
        grid = rules.grid
        doc: dict[str, Any] = {
            "claim": self.statement(),
            "player": COLOUR_NAMES[self.owner],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 2),
        }
        if self.pairing is not None:
            doc["pairing"] = [[grid.name(a), grid.name(b)] for a, b in self.pairing]
        else:
            doc["strategy"] = self.strategy
        return doc


@dataclass
class Solution:
    """The value of a position (the empty board unless ``start`` is given: point colours,
    row-major, top row first) and the claims that establish it."""

    rules: Rules
    claims: list[Claim]
    seconds: float
    start: list[int] | None = None

    @property
    def value(self) -> str:
        """``black``, ``white``, ``draw``, or ``unknown`` (one side's search only, and it
        found no win)."""
        for claim in self.claims:
            if claim.wins:
                return COLOUR_NAMES[claim.colour]
        return "draw" if {claim.colour for claim in self.claims} == {BLACK, WHITE} else "unknown"

    def summary(self) -> str:
        value = {
            "black": "black (the first player) wins",
            "white": "white (the second player) wins",
            "draw": "a draw: neither side can force a win",
            "unknown": " and ".join(claim.statement() for claim in self.claims) + " (the other side was not searched)",
        }[self.value]
        where = "" if self.start is None else f", from {picture(self.start)}"
        return f"{self.rules.describe()}{where}: {value}"

    def details(self) -> Iterator[str]:
        for claim in self.claims:
            yield f"{claim.statement()}: {claim.method()}, {claim.nodes:,} search nodes, {claim.seconds:.1f} s"

    def to_json(self) -> dict[str, Any]:
        """The proof document: ``format``, ``rules``, ``value`` and ``proofs``, one per claim:
        ``start`` is the position's picture (row-major, top row first; ``.`` on the empty
        board), ``claim`` ("black wins", "black cannot win", ...), ``player`` (whose strategy it is),
        and either ``pairing`` (pairs of point names, used from the empty board) or
        ``strategy`` (canonical picture -> the player's move, or a list of pairs: a pairing
        that the player uses from there on)."""
        return {
            "format": FORMAT,
            "game": "baikago",
            "rules": self.rules.to_json(),
            "start": picture(self.start if self.start is not None else [EMPTY_POINT] * self.rules.size**2),
            "value": self.value,
            "seconds": round(self.seconds, 2),
            "proofs": [claim.to_json(self.rules) for claim in self.claims],
        }

    def proof_bytes(self, compress: bool) -> bytes:
        text = json.dumps(self.to_json(), separators=(",", ":"), sort_keys=False)
        data = text.encode("ascii")
        return gzip.compress(data, mtime=0) if compress else data


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
    (fixed by the board size: the same in every run, which a saved table relies on)."""
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
        self.tt_bits = tt_bits
        size = 1 << tt_bits
        self.tt: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] = (
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

    @property
    def nodes(self) -> int:
        return int(self.stats[0])

    def entries(self) -> tuple[np.ndarray, ...]:
        """The table's occupied slots (uint32) and, at those slots, its five arrays."""
        slots = np.flatnonzero(self.tt[0]).astype(np.uint32)
        return (slots, *(array[slots] for array in self.tt))

    def restore(self, slots: np.ndarray, arrays: tuple[np.ndarray, ...]) -> None:
        """Put saved entries back into their slots (into an empty table)."""
        for table, values in zip(self.tt, arrays, strict=True):
            table[slots] = values

    def root_numbers(self, board: np.ndarray) -> tuple[int, int]:
        """(pn, dn) of ``board`` as its children's table entries give them (a search that
        stopped stores nothing at the root: this is where it stands); (0, 0) for a terminal
        position."""
        inf = int(self.k.INF)
        code, forced = self.status(board)
        if code in (1, -1):
            return (0, inf) if code == 1 else (inf, 0)
        me = turn(board)
        moves = [forced] if code == -3 else [int(p) for p in np.flatnonzero(board == EMPTY_POINT)]
        seen: set[int] = set()
        pns: list[int] = []
        dns: list[int] = []
        _, keys = self.state(board)
        for p in moves:
            key = self.child_key(keys, me, p)
            if key in seen:
                continue
            seen.add(key)
            pn, dn, _ = self.entry(key)
            pns.append(pn)
            dns.append(dn)
        if me == self.attacker:
            return min(pns), min(inf, sum(dns))
        return min(inf, sum(pns)), min(dns)

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

    def solve(self, board: np.ndarray, limits: Limits) -> tuple[int, int]:
        """(pn, dn) of the position once proved (pn 0) or disproved (dn 0); stops with the
        run's limits (the table keeps what was learnt)."""
        board = board.copy()
        cnt, keys = self.state(board)
        out = np.zeros(2, dtype=np.int64)
        self.stats[1] = 0
        self.k.dfpn(
            board,
            cnt,
            self.table.cells,
            self.table.through,
            self.table.through_count,
            self.zsym,
            keys,
            turn(board),
            self.attacker,
            *self.tt,
            np.int64(self.budget_end),
            self.pairing_budget,
            self.stats,
            limits.flag,
            out,
        )
        if self.stats[1]:
            if self.nodes > self.budget_end and not limits.stopped:
                raise NodeLimitReached(self.budget_end)
            limits.raise_stop()
        return int(out[0]), int(out[1])

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
    found = int(kernels.pairing(board, cnt, table.cells, attacker, partner, budget))
    pairs = [(p, int(q)) for p, q in enumerate(partner.tolist()) if q > p] if found == 1 else []
    return found, pairs


# -------------------------------------------------------------------- strategies
def extract_strategy(
    search: Search,
    owner: Colour,
    limits: Limits,
    start: np.ndarray | None = None,
    report: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The owner's strategy from ``start`` (the empty board by default), read from a finished
    search: the attacker's when it proved a win, the defender's when it disproved one. A
    position whose answer the table lost is searched again. ``report(visited, kept)`` is called
    every few thousand positions (a long extraction's progress)."""
    symmetries = search.symmetries
    grid = search.rules.grid
    # One string per point name and one tuple per pair, shared by every entry: a 7x7 strategy
    # holds millions of positions, and a pairing of its own lists and strings took about 3 KB each.
    names = [grid.name(p) for p in range(search.rules.size**2)]
    pair_of: dict[tuple[int, int], tuple[str, str]] = {}
    owner_is_attacker = owner == search.attacker
    strategy: dict[str, Any] = {}
    seen: set[str] = set()
    first = np.zeros(search.rules.size**2, dtype=np.int8) if start is None else np.asarray(start, dtype=np.int8)
    stack = [first.copy()]
    while stack:
        board = stack.pop()
        picture, s = symmetries.canonical(board)
        if picture in seen:
            continue
        seen.add(picture)
        limits.check()
        if report is not None and len(seen) % REPORT_EVERY == 0:
            report(len(seen), len(strategy))
        code, forced = search.status(board)
        if code in (1, -1):
            if (code == 1) != owner_is_attacker:
                raise BoardPuzzlesError(f"the strategy reached a lost position: {picture}")
            continue
        me = turn(board)
        if me != owner and not owner_is_attacker and code == 0:
            pairs = search.pairing_of_any_image(board)
            if pairs is not None:
                perm = symmetries.perms[s]
                entry = []
                for a, b in pairs:
                    a, b = sorted((int(perm[a]), int(perm[b])), key=names.__getitem__)
                    entry.append(pair_of.setdefault((a, b), (names[a], names[b])))
                strategy[picture] = tuple(entry)
                continue
        moves = [forced] if code == -3 else [int(p) for p in np.flatnonzero(board == EMPTY_POINT)]
        if me == owner:
            move = _winning_move(search, board, moves, owner_is_attacker, limits)
            strategy[picture] = names[int(symmetries.perms[s][move])]
            moves = [move]
        for p in moves:
            child = board.copy()
            child[p] = me
            stack.append(child)
    return strategy


def _winning_move(search: Search, board: np.ndarray, moves: list[int], attacker: bool, limits: Limits) -> int:
    """The owner's move that keeps its claim: a child the table holds as won for the owner, else
    (the table replaced that child's entry: the position's own entry may still say it is won,
    so searching the position again would answer from that entry at once) a child that ends the
    game for the owner, else the first child that a search of its own shows won. Of the
    children the table holds as won, the one that took the least search: its strategy tends to
    be the smallest (5x5 black attacking without pairings: 40,121 positions, against 43,639)."""
    me = turn(board)
    _, keys = search.state(board)
    won: list[tuple[int, int]] = []  # (work, move)
    unknown: list[tuple[int, int]] = []  # (the owner's number, move)
    for p in moves:
        pn, dn, work = search.entry(search.child_key(keys, me, p))
        number = pn if attacker else dn
        if number == 0:
            won.append((work, p))
        else:
            unknown.append((number, p))
    if won:
        return min(won)[1]
    children = []
    for _, p in sorted(unknown):
        child = board.copy()
        child[p] = me
        children.append((p, child))
    for p, child in children:
        code, _ = search.status(child)
        if code == (1 if attacker else -1):
            return p
    for p, child in children:
        pn, dn = search.solve(child, limits)
        if (pn if attacker else dn) == 0:
            return p
    raise BoardPuzzlesError("the search's table does not hold the strategy (hash collision?)")


# -------------------------------------------------------------------- solving a board
def solve(
    rules: Rules,
    limits: Limits | None = None,
    tt_bits: int = DEFAULT_TT_BITS,
    start: list[int] | None = None,
    pairings: bool = True,
    attackers: tuple[Colour, ...] = (BLACK, WHITE),
    checkpoint: str | None = None,
    node_limit: int | None = None,
) -> Solution:
    """The value of the empty board (or of ``start``: point colours, row-major, top row first)
    under ``rules``, with a proof of each claim: a pairing of the whole board when there is one
    (a draw), else two df-pn searches (black attacking, then white) and the strategies they
    found. ``pairings=False`` uses no pairing anywhere: the proofs are plain strategies;
    ``attackers=(WHITE,)`` searches one side only (the value is then ``unknown`` unless that
    side wins). ``checkpoint``: a file the searches' tables are saved to when the run stops or
    ends, and continued from when it holds them (see :class:`Solver`); ``node_limit``: stop
    (:class:`NodeLimitReached`) after that many search nodes in this run."""
    solver = Solver(rules, tt_bits, start, pairings, attackers, checkpoint)
    own = limits is None
    limits = limits if limits is not None else Limits()
    try:
        return solver.run(limits, node_limit)
    finally:
        try:
            solver.save()
        finally:
            if own:
                limits.close()


def _start_board(rules: Rules, start: list[int] | None) -> np.ndarray:
    """The start position as an array, checked with the judge (a finished game is refused)."""
    from boardpuzzles.puzzles.baikago.judge import judge

    if start is None:
        return np.zeros(rules.size**2, dtype=np.int8)
    points = [int(v) for v in start]
    judgement = judge(points, rules)
    if judgement.verdict == "inconsistent":
        raise BoardPuzzlesError("inconsistent start position: " + "; ".join(judgement.problems))
    if judgement.verdict != "none":
        raise BoardPuzzlesError(f"the start position is already won by {judgement.verdict}")
    return np.asarray(points, dtype=np.int8)


class Solver:
    """One solve of one position: its searches (one per attacker, made when first needed) and,
    with a ``checkpoint`` path, the file they are saved to and continued from.

    Making a solver reads the file (when there is one) and refuses, with
    :class:`~boardpuzzles.checkpoint.CheckpointError`, one that is not ours, damaged, or made for
    another search: nothing is searched and the file is left as it was. :meth:`run` searches (in
    any thread); :meth:`save` writes the file (atomically) once the searches are still, so a
    command line can save from its main thread after a worker stopped."""

    def __init__(
        self,
        rules: Rules,
        tt_bits: int = DEFAULT_TT_BITS,
        start: list[int] | None = None,
        pairings: bool = True,
        attackers: tuple[Colour, ...] = (BLACK, WHITE),
        checkpoint: str | None = None,
    ) -> None:
        if rules.size > MAX_SOLVE_SIZE:
            raise BoardPuzzlesError(f"the solver takes boards up to {MAX_SOLVE_SIZE}x{MAX_SOLVE_SIZE}")
        if not 10 <= tt_bits <= 30:
            raise BoardPuzzlesError(f"tt_bits must be between 10 and 30, got {tt_bits}")
        if not attackers or len(set(attackers)) != len(attackers) or not set(attackers) <= {BLACK, WHITE}:
            raise BoardPuzzlesError("the attackers are black, white or both, each once")
        self.rules = rules
        self.tt_bits = tt_bits
        self.board = _start_board(rules, start)
        self.pairings = pairings
        self.attackers = tuple(attackers)
        self.searches: dict[Colour, Search] = {}
        self.loaded = False  #: whether the searches continue from a checkpoint
        #: Where a long run's progress lines go (a proof's extraction), or nowhere.
        self.report: Callable[[str], None] | None = None
        self._lock = threading.Lock()
        self.table_file = None if checkpoint is None else TableFile(checkpoint, self.identity())
        if self.table_file is not None:
            saved = self.table_file.read()
            if saved is not None:
                for attacker, state in saved.items():
                    state.apply(self.search(attacker))
                self.loaded = True

    def identity(self) -> dict[str, Any]:
        """What the searches are, as a checkpoint binds them: a file made for any other search
        (another board, rule, start, side, pairing option or table size, other Zobrist keys,
        another table format) is refused."""
        from boardpuzzles._kernels import baikago_solve as kernels

        zsym = zobrist(self.rules, Symmetries.of(self.rules))
        return {
            "puzzle": "baikago",
            "search": "df-pn",
            "file": TABLE_FILE_FORMAT,
            "table": kernels.TABLE_VERSION,
            "bucket": kernels.BUCKET,
            "rules": self.rules.to_json(),
            "start": picture(self.board),
            "attackers": [COLOUR_NAMES[c] for c in self.attackers],
            "pairing_budget": PAIRING_BUDGET if self.pairings else 0,
            "tt_bits": self.tt_bits,
            "zobrist": hashlib.sha256(zsym.tobytes()).hexdigest()[:16],
        }

    def search(self, attacker: Colour) -> Search:
        """The search with this attacker (made empty the first time)."""
        if attacker not in self.searches:
            self.searches[attacker] = Search(self.rules, attacker, self.tt_bits, PAIRING_BUDGET if self.pairings else 0)
        return self.searches[attacker]

    def run(self, limits: Limits, node_limit: int | None = None) -> Solution:
        """Solve (or go on solving) the position. Stops with the run's limits, or with
        :class:`NodeLimitReached` after ``node_limit`` search nodes in this run; every search
        keeps what it learnt (call :meth:`save` to keep it in the file)."""
        if node_limit is not None and node_limit < 1:
            raise BoardPuzzlesError(f"the node limit must be at least 1, got {node_limit}")
        with self._lock:
            try:
                return self._run(limits, node_limit)
            except NodeLimitReached:
                raise NodeLimitReached(node_limit or 0) from None

    def _run(self, limits: Limits, node_limit: int | None) -> Solution:
        started = time.perf_counter()
        rules, board = self.rules, self.board
        start = None if not board.any() else [int(v) for v in board]
        if self.pairings and start is None:
            pairs = find_pairing(rules)
            if pairs is not None:
                seconds = search_seconds(started)
                claims = [Claim(c, False, other(c), pairing=pairs, seconds=seconds) for c in self.attackers]
                return Solution(rules, claims, seconds, start)
        claims = []
        left = node_limit
        for attacker in self.attackers:
            search = self.search(attacker)
            t0 = time.perf_counter()
            nodes0 = search.nodes
            search.budget_end = 2**62 if left is None else search.nodes + left
            try:
                if search.result is None:
                    search.result = search.solve(board, limits)
                wins = search.result[0] == 0
                owner = attacker if wins else other(attacker)
                strategy = extract_strategy(search, owner, limits, board, self._extraction_report(owner))
            finally:
                search.seconds += search_seconds(t0)
                if left is not None:
                    left -= search.nodes - nodes0
            claims.append(Claim(attacker, wins, owner, strategy=strategy, nodes=search.nodes, seconds=search.seconds))
            if wins:
                break
        return Solution(rules, claims, search_seconds(started), start)

    def _extraction_report(self, owner: Colour) -> Callable[[int, int], None] | None:
        """A progress callback for ``extract_strategy`` that passes a line to :attr:`report`
        at most once every :data:`REPORT_SECONDS`."""
        report = self.report
        if report is None:
            return None
        last = time.monotonic()

        def extraction(visited: int, kept: int) -> None:
            nonlocal last
            if time.monotonic() - last >= REPORT_SECONDS:
                last = time.monotonic()
                report(f"extracting {COLOUR_NAMES[owner]}'s strategy: {visited:,} positions visited, {kept:,} kept")

        return extraction

    def standing(self) -> list[dict[str, Any]]:
        """Where each search stands: ``attacker``, ``state`` (``proved``: the attacker wins,
        ``disproved``: it cannot, ``open``), ``nodes``, ``seconds`` and the root's ``pn`` and
        ``dn`` (of an open search, as the root's children in the table give them)."""
        found = []
        for attacker, search in self.searches.items():
            if search.result is not None:
                pn, dn = search.result
                state = "proved" if pn == 0 else "disproved"
            else:
                pn, dn = search.root_numbers(self.board)
                state = "open"
            found.append(
                {
                    "attacker": COLOUR_NAMES[attacker],
                    "state": state,
                    "nodes": search.nodes,
                    "seconds": round(search.seconds, 2),
                    "pn": pn,
                    "dn": dn,
                }
            )
        return found

    def save(self, wait: float = SAVE_WAIT) -> bool:
        """Write the searches' tables to the checkpoint (atomically: a kill during the save
        leaves the previous file). Waits up to ``wait`` seconds for a stopped search to let go of
        its tables (a search abandoned by its supervisor may still be returning from its
        kernel): False, and nothing written, when there is no checkpoint or it does not."""
        if self.table_file is None:
            return False
        if not self._lock.acquire(timeout=wait):
            return False
        try:
            self.table_file.write(self)
        finally:
            self._lock.release()
        return True


# -------------------------------------------------------------------- checkpoints
@dataclass
class SavedSearch:
    """One search as a checkpoint holds it."""

    result: tuple[int, int] | None
    stats: list[int]
    seconds: float
    slots: np.ndarray
    arrays: tuple[np.ndarray, ...]

    def apply(self, search: Search) -> None:
        search.restore(self.slots, self.arrays)
        search.stats[:] = self.stats
        search.stats[1] = 0
        search.result = self.result
        search.seconds = self.seconds


#: The arrays of one saved search, in file order: slots, then tt_key, tt_pn, tt_dn, tt_work, tt_flag.
_ARRAY_TYPES = ("<u4", "<u8", "<i8", "<i8", "<i8", "i1")


class TableFile:
    """A checkpoint of df-pn searches: one binary file, written whole and atomically.

    Layout: ``TABLE_MAGIC``; the header's length (8 bytes, little-endian); the header (JSON:
    ``format``, the search's ``identity`` and its ``identity_digest``, who made it and when, and
    per search its attacker, result, node counts, seconds and number of entries); per search its
    occupied slots and, at those slots, its five table arrays (``_ARRAY_TYPES``); the SHA-256 of
    everything before it (32 bytes). A file is *ours* when it starts with ``TABLE_MAGIC``;
    anything else that is not empty is refused and never written over (an SQLite count
    checkpoint included). Ours but with a checksum that fails, another layout, or another
    identity: refused too, and left as it is."""

    def __init__(self, path: str, identity: dict[str, Any]) -> None:
        self.path = path
        self.identity = identity
        self.identity_digest = digest(identity)
        #: The file as this run found it or last wrote it: a write refuses to replace a file that
        #: another run has written since.
        self._seen = self._signature()

    def _signature(self) -> tuple[int, ...] | None:
        """Which file is at the path now (device, inode, size, time written); None: no file."""
        try:
            status = os.stat(os.path.realpath(self.path))
        except OSError:
            return None
        return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)

    def _ours(self, head: bytes) -> None:
        """Refuse a non-empty file that does not start as ours."""
        if head.startswith(TABLE_MAGIC):
            return
        if head.startswith(b"SQLite format 3"):
            kind = "an SQLite database (a count's checkpoint, or another program's)"
        else:
            kind = "not a boardpuzzles search checkpoint"
        raise CheckpointError(f"{self.path} is {kind}; refusing to touch it")

    def read(self) -> dict[Colour, SavedSearch] | None:
        """The saved searches; None when there is no file yet (or an empty one)."""
        path = self.path
        if not check_path(path):
            return None
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as err:
            raise CheckpointError(f"cannot read checkpoint {path}: {err.strerror}") from None
        if not data:
            return None
        self._ours(data[:32])
        if not os.access(path, os.W_OK):
            raise CheckpointError(f"cannot write checkpoint {path}: permission denied")
        damaged = f"checkpoint {path} is damaged"
        body, checksum = memoryview(data)[:-32], data[-32:]
        at = len(TABLE_MAGIC) + 8
        if len(data) < at + 32 or hashlib.sha256(body).digest() != checksum:
            raise CheckpointError(f"{damaged} (its checksum does not match); use a new file")
        length = int.from_bytes(body[len(TABLE_MAGIC) : at], "little")
        try:
            header = json.loads(bytes(body[at : at + length]).decode("ascii"))
        except (UnicodeError, ValueError, RecursionError):  # RecursionError: nested too deep to parse
            raise CheckpointError(f"{damaged} (unreadable header); use a new file") from None
        if not isinstance(header, dict):
            raise CheckpointError(f"{damaged} (unreadable header); use a new file")
        if header.get("format") != TABLE_FILE_FORMAT:
            raise CheckpointError(
                f"checkpoint {path} has another layout ({str(header.get('format'))[:40]}, this version reads "
                f"{TABLE_FILE_FORMAT}); use a new file"
            )
        if header.get("identity_digest") != self.identity_digest:
            raise CheckpointError(f"checkpoint {path} {self._difference(header.get('identity'))}; use a new file")
        try:
            return self._searches(header, body, at + length)
        except (KeyError, TypeError, ValueError) as err:
            raise CheckpointError(f"{damaged} ({str(err)[:60]}); use a new file") from None

    def _difference(self, stored: Any) -> str:
        """What the file was made for, where it first differs from this search."""
        names = {"rules": "rules", "start": "start position", "attackers": "--side"}
        names.update({"pairing_budget": "pairing budget", "tt_bits": "--tt-bits", "zobrist": "Zobrist keys"})
        if isinstance(stored, dict):
            for key, value in self.identity.items():
                if stored.get(key) != value:
                    name = names.get(key, "table format")
                    return (
                        f"was made for another search ({name} {canonical(stored.get(key))[:60]}, "
                        f"here {canonical(value)[:60]})"
                    )
        return "was made for another search"

    def _searches(self, header: dict[str, Any], body: memoryview, offset: int) -> dict[Colour, SavedSearch]:
        from boardpuzzles._kernels import baikago_solve as kernels

        size = 1 << int(self.identity["tt_bits"])
        names = {name: colour for colour, name in COLOUR_NAMES.items()}
        found: dict[Colour, SavedSearch] = {}
        for entry in header["searches"]:
            attacker = names[entry["attacker"]]
            if attacker in found or entry["attacker"] not in self.identity["attackers"]:
                raise ValueError(f"search of {entry['attacker']} out of place")
            count = int(entry["entries"])
            if not 0 <= count <= size:
                raise ValueError(f"{count} entries")
            arrays = []
            for dtype in _ARRAY_TYPES:
                array = np.frombuffer(body, dtype=dtype, count=count, offset=offset)
                offset += array.nbytes
                arrays.append(array)
            slots, keys = arrays[0].astype(np.int64), arrays[1]
            base = (keys & np.uint64(size - kernels.BUCKET)).astype(np.int64)
            if (
                np.any(slots >= size)
                or np.any(keys == 0)
                or np.any((slots < base) | (slots >= base + kernels.BUCKET))
                or len(np.unique(slots)) != count
            ):
                raise ValueError("entries out of place")
            result = entry["result"]
            stats = [int(v) for v in entry["stats"]]
            if len(stats) != 4 or min(stats) < 0 or (result is not None and (len(result) != 2 or 0 not in result)):
                raise ValueError("bad counts")
            found[attacker] = SavedSearch(
                None if result is None else (int(result[0]), int(result[1])),
                stats,
                float(entry["seconds"]),
                slots,
                tuple(arrays[1:]),
            )
        if offset != len(body):
            raise ValueError("length")
        return found

    def write(self, solver: Solver) -> None:
        """Save the solver's searches (temporary file in the same folder, then a rename)."""
        from boardpuzzles import __version__

        path = self.path
        real = os.path.realpath(path)
        if check_path(real):  # again: never write over a file that appeared and is not ours
            try:
                with open(real, "rb") as handle:
                    head = handle.read(32)
            except OSError as err:
                raise CheckpointError(f"cannot read checkpoint {path}: {err.strerror}") from None
            if head:
                self._ours(head)
        parts = []
        searches = []
        for attacker, search in solver.searches.items():
            arrays = search.entries()
            parts.append(arrays)
            searches.append(
                {
                    "attacker": COLOUR_NAMES[attacker],
                    "result": None if search.result is None else list(search.result),
                    "stats": [int(v) for v in search.stats],
                    "seconds": round(search.seconds, 3),
                    "entries": len(arrays[0]),
                }
            )
        header = canonical(
            {
                "format": TABLE_FILE_FORMAT,
                "identity": self.identity,
                "identity_digest": self.identity_digest,
                "made_by": f"boardpuzzles {__version__}",
                "saved": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "searches": searches,
            }
        ).encode("ascii")

        def chunks() -> Iterator[bytes | memoryview]:
            """The file's bytes, then their SHA-256."""
            checksum = hashlib.sha256()
            for chunk in (TABLE_MAGIC, len(header).to_bytes(8, "little"), header):
                checksum.update(chunk)
                yield chunk
            for part in parts:
                for array, dtype in zip(part, _ARRAY_TYPES, strict=True):
                    data = np.ascontiguousarray(array, dtype=dtype).data
                    checksum.update(data)
                    yield data
            yield checksum.digest()

        if self._signature() != self._seen:
            # Two runs on one file: the first to save keeps its search, and this one says so
            # instead of overwriting it and claiming its own was kept.
            raise CheckpointError(
                f"checkpoint {path} was written by another run while this one ran; this run's search is not "
                "kept (give each run its own file)"
            )
        try:
            replace_file(real, chunks(), sync=True)
        except OSError as err:  # a full disk: the previous file stays
            raise CheckpointError(f"cannot write checkpoint {path}: {err.strerror or err}") from None
        self._seen = self._signature()


def write_proof(solution: Solution, path: str) -> bytes:
    """The proof file's bytes (gzip when ``path`` ends in ``.gz``)."""
    return solution.proof_bytes(path.endswith(".gz"))
