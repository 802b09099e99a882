"""The result of a solve and its proof: claims (who wins, who cannot), the strategies read
from finished df-pn searches, and the proof document (``Solution.to_json``), which the
independent checker in ``tests/test_baikago_solve.py`` replays.

Glossary (see :mod:`boardpuzzles.puzzles.baikago.solve` for the whole solver)
--------
claim       ``colour`` wins, or cannot win; its *owner* is the side whose strategy proves it.
strategy    a map from canonical pictures of positions where the owner is to move to the owner's
            move there, and from positions where the opponent is to move to a pairing (a leaf).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.baikago.dfpn import Search, picture, turn
from boardpuzzles.puzzles.baikago.rules import BLACK, COLOUR_NAMES, EMPTY_POINT, WHITE, Colour, Rules

FORMAT = "baikago-proof/1"
#: A proof's extraction reports its progress every this many positions.
REPORT_EVERY = 2_000


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


def write_proof(solution: Solution, path: str) -> bytes:
    """The proof file's bytes (gzip when ``path`` ends in ``.gz``)."""
    return solution.proof_bytes(path.endswith(".gz"))
