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

Roads not taken: retrograde analysis (3^49 positions on 7x7); proving draws with the
Erdos-Selfridge potential (a theorem as a leaf, where a pairing is a strategy the checker can
see); a checkpointed, resumable search (a run that stops at its time limit starts afresh).
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.baikago.rules import BLACK, COLOUR_NAMES, EMPTY_POINT, WHITE, Colour, Rules, other

#: The largest board the solver accepts (7x7 already needs more than black's 20-minute search
#: in docs/records.md; a pairing may still settle a variant of 8x8 or 9x9 at once).
MAX_SOLVE_SIZE = 9
#: Search nodes of the pairing test of the empty board (6x6 needs a few thousand; 7x7 is
#: settled, with no pairing, in about as many) and of the test inside the search.
ROOT_PAIRING_BUDGET = 2_000_000
PAIRING_BUDGET = 200
#: Transposition table entries (a power of two): 2^22 entries take 112 MiB.
DEFAULT_TT_BITS = 22
_SEED_KEY = 0x9E3779B97F4A7C15  # the key of the empty board: never 0, the table's empty mark
FORMAT = "baikago-proof/1"
POINT_LETTERS = {EMPTY_POINT: ".", BLACK: "X", WHITE: "O"}


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
        texts = ["".join(POINT_LETTERS[int(v)] for v in image) for image in images]
        best = min(range(len(texts)), key=texts.__getitem__)
        return texts[best], best


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
        pairings = sum(1 for v in self.strategy.values() if isinstance(v, list))
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
class Search:
    """One df-pn search (one attacker) on one rule set, with its transposition table."""

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
        n = rules.size**2
        rng = np.random.default_rng(20240501 + rules.size)
        zob = rng.integers(1, 2**63 - 1, size=(3, n), dtype=np.int64).astype(np.uint64)
        perms = self.symmetries.perms
        self.zsym = np.zeros((perms.shape[0], 3, n), dtype=np.uint64)
        for s in range(perms.shape[0]):
            for colour in (BLACK, WHITE):
                self.zsym[s, colour] = zob[colour, perms[s]]
        size = 1 << tt_bits
        self.tt = (
            np.zeros(size, np.uint64),
            np.zeros(size, np.int64),
            np.zeros(size, np.int64),
            np.zeros(size, np.int64),
            np.zeros(size, np.int8),
        )
        self.stats = np.zeros(4, dtype=np.int64)

    @property
    def nodes(self) -> int:
        return int(self.stats[0])

    def state(self, board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The cross counts and the 8 keys of a board."""
        cnt = np.zeros((3, len(self.table)), dtype=np.int16)
        stones = board[self.table.cells]
        cnt[BLACK] = (stones == BLACK).sum(axis=1)
        cnt[WHITE] = (stones == WHITE).sum(axis=1)
        keys = np.full(self.zsym.shape[0], _SEED_KEY, dtype=np.uint64)
        for colour in (BLACK, WHITE):
            for p in np.flatnonzero(board == colour):
                keys ^= self.zsym[:, colour, p]
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
            np.int64(2**62),
            self.pairing_budget,
            self.stats,
            limits.flag,
            out,
        )
        if self.stats[1]:
            limits.raise_stop()
        return int(out[0]), int(out[1])

    def probe(self, board: np.ndarray) -> tuple[int, int]:
        """(pn, dn) from the table; (1, 1) for a position it does not hold."""
        _, keys = self.state(board)
        out = np.zeros(2, dtype=np.int64)
        self.k.tt_probe(self.tt[0], self.tt[1], self.tt[2], self.k.canonical(keys), out)
        return int(out[0]), int(out[1])

    def status(self, board: np.ndarray) -> tuple[int, int]:
        """The kernel's terminal test: (1 attacker has won / -1 cannot win / -3 forced / 0 open,
        the forced point)."""
        cnt, _ = self.state(board)
        blocks = np.empty(board.shape[0], dtype=np.int32)
        empty = int((board == EMPTY_POINT).sum())
        code = self.k.node_status(board, cnt, self.table.cells, turn(board), self.attacker, empty, blocks)
        return int(code), int(blocks[0]) if code == -3 else -1

    def pairing(self, board: np.ndarray) -> list[tuple[int, int]] | None:
        """A pairing for the defender on this board, or None (none, none found in the search's
        budget, or pairings are off)."""
        if self.pairing_budget <= 0:
            return None
        return find_pairing(self.rules, board, self.attacker, self.pairing_budget)


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
def extract_strategy(search: Search, owner: Colour, limits: Limits, start: np.ndarray | None = None) -> dict[str, Any]:
    """The owner's strategy from ``start`` (the empty board by default), read from a finished
    search: the attacker's when it proved a win, the defender's when it disproved one. A
    position whose answer the table lost is searched again."""
    symmetries = search.symmetries
    grid = search.rules.grid
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
        code, forced = search.status(board)
        if code in (1, -1):
            if (code == 1) != owner_is_attacker:
                raise BoardPuzzlesError(f"the strategy reached a lost position: {picture}")
            continue
        me = turn(board)
        if me != owner and not owner_is_attacker and code == 0:
            pairs = search.pairing(board)
            if pairs is not None:
                perm = symmetries.perms[s]
                strategy[picture] = [sorted((grid.name(int(perm[a])), grid.name(int(perm[b])))) for a, b in pairs]
                continue
        moves = [forced] if code == -3 else [int(p) for p in np.flatnonzero(board == EMPTY_POINT)]
        if me == owner:
            move = _winning_move(search, board, moves, owner_is_attacker, limits)
            strategy[picture] = grid.name(int(symmetries.perms[s][move]))
            moves = [move]
        for p in moves:
            child = board.copy()
            child[p] = me
            stack.append(child)
    return strategy


def _winning_move(search: Search, board: np.ndarray, moves: list[int], attacker: bool, limits: Limits) -> int:
    me = turn(board)
    for attempt in range(2):
        for p in moves:
            child = board.copy()
            child[p] = me
            pn, dn = search.probe(child)
            if (pn if attacker else dn) == 0:
                return p
        if attempt == 0:
            search.solve(board, limits)  # the table lost the answer: find it again
    raise BoardPuzzlesError("the search's table does not hold the strategy (hash collision?)")


# -------------------------------------------------------------------- solving a board
def solve(
    rules: Rules,
    limits: Limits | None = None,
    tt_bits: int = DEFAULT_TT_BITS,
    start: list[int] | None = None,
    pairings: bool = True,
    attackers: tuple[Colour, ...] = (BLACK, WHITE),
) -> Solution:
    """The value of the empty board (or of ``start``: point colours, row-major, top row first)
    under ``rules``, with a proof of each claim: a pairing of the whole board when there is one
    (a draw), else two df-pn searches (black attacking, then white) and the strategies they
    found. ``pairings=False`` uses no pairing anywhere: the proofs are plain strategies;
    ``attackers=(WHITE,)`` searches one side only (the value is then ``unknown`` unless that
    side wins)."""
    if rules.size > MAX_SOLVE_SIZE:
        raise BoardPuzzlesError(f"the solver takes boards up to {MAX_SOLVE_SIZE}x{MAX_SOLVE_SIZE}")
    board = _start_board(rules, start)
    own = limits is None
    limits = limits if limits is not None else Limits()
    try:
        return _solve(rules, limits, tt_bits, board, pairings, attackers)
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


def _solve(
    rules: Rules, limits: Limits, tt_bits: int, board: np.ndarray, pairings: bool, attackers: tuple[Colour, ...]
) -> Solution:
    started = time.perf_counter()
    start = None if not board.any() else [int(v) for v in board]
    if pairings and start is None:
        pairs = find_pairing(rules)
        if pairs is not None:
            seconds = time.perf_counter() - started
            claims = [Claim(c, False, other(c), pairing=pairs, seconds=seconds) for c in attackers]
            return Solution(rules, claims, seconds, start)
    claims = []
    for attacker in attackers:
        t0 = time.perf_counter()
        search = Search(rules, attacker, tt_bits, PAIRING_BUDGET if pairings else 0)
        pn, _ = search.solve(board, limits)
        wins = pn == 0
        owner = attacker if wins else other(attacker)
        strategy = extract_strategy(search, owner, limits, board)
        claims.append(
            Claim(attacker, wins, owner, strategy=strategy, nodes=search.nodes, seconds=time.perf_counter() - t0)
        )
        if wins:
            break
    return Solution(rules, claims, time.perf_counter() - started, start)


def write_proof(solution: Solution, path: str) -> bytes:
    """The proof file's bytes (gzip when ``path`` ends in ``.gz``)."""
    return solution.proof_bytes(path.endswith(".gz"))
