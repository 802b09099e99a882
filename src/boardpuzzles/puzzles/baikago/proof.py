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
import hashlib
import json
import os
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NoReturn

import numpy as np

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.files import replace_file_with
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.baikago.dfpn import _LETTER_CODES as LETTER_CODES
from boardpuzzles.puzzles.baikago.dfpn import _SEED_KEY as SEED_KEY
from boardpuzzles.puzzles.baikago.dfpn import STRATEGY_PAIRING_BUDGET, NodeLimitReached, Search, picture
from boardpuzzles.puzzles.baikago.rules import BLACK, COLOUR_NAMES, EMPTY_POINT, WHITE, Colour, Rules

FORMAT = "baikago-proof/1"
#: The first line of a strategy stream names this layout (see :class:`StrategyFile`).
STRATEGY_FILE_FORMAT = "baikago-strategy/1"
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
    #: Found by a threat-space search: the attacker held to threats from this many stones on.
    threats_from: int | None = None

    def statement(self) -> str:
        name = COLOUR_NAMES[self.colour]
        return f"{name} wins" if self.wins else f"{name} cannot win"

    def method(self) -> str:
        if self.pairing is not None:
            return "pairing"
        pairings = sum(1 for v in self.strategy.values() if not isinstance(v, str))
        found = "" if self.threats_from is None else f", found with threats from {self.threats_from} stones on"
        return f"strategy of {len(self.strategy):,} positions ({pairings:,} ending in a pairing){found}"

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
        return f"{self.rules.describe()}{self.where()}: {value}"

    def where(self) -> str:
        """The start position in words (", with black on d4 and white on c3"), or "" for the empty board."""
        return "" if self.start is None else start_in_words(self.rules, self.start)

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
    path: str | None = None,
) -> dict[str, Any]:
    """The owner's strategy from ``start`` (the empty board by default), read from a finished
    search by the compiled walk of ``boardpuzzles._kernels.baikago_proof``: the attacker's when
    it proved a win, the defender's when it disproved one. A position whose answer the table
    lost is searched again (in the same table). ``report(walked, kept)`` is called every
    ``REPORT_EVERY`` positions walked.

    ``path``: the strategy is also written there as it is found (:class:`StrategyFile`), and
    the walk's state next to it when it stops (the run's limits, Ctrl-C, the node limit) or
    ends; a later call with the same path, rules, start, side and the same table (as the
    search's checkpoint saves it at the same moments) goes on from there, and one after the
    end reads the strategy back."""
    walk = _Walk(search, owner, start)
    strategy: dict[str, Any] = {}
    sink = None if path is None else StrategyFile(path, walk.identity(search), search)
    if sink is not None:
        if sink.resume(walk, strategy, walk.entry):
            return strategy
        if sink.start():
            sink.save(walk, complete=False)  # a walk killed before its first stop starts again from here
    try:
        while True:
            if limits.stopped:
                walk.stopped(search, limits, sink)
            code = walk.step(search, limits)
            for picture_, entry, line in walk.records():
                strategy[picture_] = entry
                if sink is not None:
                    sink.add(line)
            if code == walk.k.DONE:
                if sink is not None:
                    sink.save(walk, complete=True)
                return strategy
            if code == walk.k.CHUNK and report is not None:
                report(int(walk.counts[walk.k.WALKED]), int(walk.counts[walk.k.KEPT]))
            elif code == walk.k.GROW:
                walk.grow()
            elif code == walk.k.STOPPED:
                walk.stopped(search, limits, sink)
            elif code == walk.k.LOST:
                raise BoardPuzzlesError(f"the strategy reached a lost position: {walk.top_picture()}")
            elif code == walk.k.NO_MOVE:
                raise BoardPuzzlesError(
                    f"the search's table does not hold the strategy at {walk.top_picture()} (hash collision?)"
                )
    finally:
        if sink is not None:
            sink.close()


#: Records the kernel holds before handing them over.
_BUFFER = 1 << 13


class _Walk:
    """The compiled walk's state (stack, seen keys, counts, record buffer) and its calls."""

    def __init__(self, search: Search, owner: Colour, start: np.ndarray | None) -> None:
        from boardpuzzles._kernels import baikago_proof as kernels

        self.k = kernels
        n = search.rules.size**2
        self.n = n
        self.owner = owner
        self.names = [search.rules.grid.name(p) for p in range(n)]
        # one tuple per pair, shared by every entry (a 7x7 strategy holds millions of pairings)
        self.pair_of: dict[tuple[int, int], tuple[str, str]] = {}
        self.perms = np.ascontiguousarray(search.symmetries.perms, dtype=np.int64)
        self.back = np.ascontiguousarray(np.argsort(self.perms, axis=1), dtype=np.int64)
        self.pair_budget = 0 if search.pairing_budget <= 0 else max(search.pairing_budget, STRATEGY_PAIRING_BUDGET)
        self.stack = np.zeros((n * (n + 2), n), dtype=np.int8)
        self.seen = np.zeros(1 << 12, dtype=np.uint64)
        self.counts = np.zeros(7, dtype=np.int64)
        self.rec_board = np.zeros((_BUFFER, n), dtype=np.int8)
        self.rec_move = np.zeros(_BUFFER, dtype=np.int64)
        self.rec_partner = np.zeros((_BUFFER, n), dtype=np.int8)
        first = np.zeros(n, dtype=np.int8) if start is None else np.asarray(start, dtype=np.int8)
        self.k.canonical_board(first, self.perms, self.stack[0])
        self.counts[self.k.TOP] = 1
        self.start = picture(first)

    def identity(self, search: Search) -> dict[str, Any]:
        """What the strategy is of: a stream or state made for anything else is refused."""
        return {
            "format": STRATEGY_FILE_FORMAT,
            "rules": search.rules.to_json(),
            "start": self.start,
            "owner": COLOUR_NAMES[self.owner],
            "attacker": COLOUR_NAMES[search.attacker],
            "pair_budget": self.pair_budget,
        }

    def step(self, search: Search, limits: Limits) -> int:
        k = self.k
        walked = int(self.counts[k.WALKED])
        ex = k.Extraction(
            self.owner,
            self.owner == search.attacker,
            self.pair_budget,
            REPORT_EVERY - walked % REPORT_EVERY,
            self.perms,
            self.back,
            self.stack,
            self.seen,
            self.counts,
            self.rec_board,
            self.rec_move,
            self.rec_partner,
        )
        search.stats[1] = 0
        run = search.settings(limits, extracting=True)
        return int(k.extract(search.tables, search.tt, run, ex, np.uint64(SEED_KEY)))

    def records(self) -> Iterator[tuple[str, Any, str]]:
        """The buffer's records as (picture, strategy entry, stream line); the buffer is emptied."""
        count = int(self.counts[self.k.RECORDS])
        self.counts[self.k.RECORDS] = 0
        if count == 0:
            return
        rows = LETTER_CODES[self.rec_board[:count]]
        for r in range(count):
            text = rows[r].tobytes().decode("ascii")
            move = int(self.rec_move[r])
            if move >= 0:
                yield text, self.names[move], f"{text} {self.names[move]}"
            else:
                partner = self.rec_partner[r]
                points = np.flatnonzero(partner > np.arange(self.n))
                entry = self.pairs([(int(a), int(partner[a])) for a in points])
                yield text, entry, f"{text} " + ",".join(f"{a}:{b}" for a, b in entry)

    def pairs(self, pairs: list[tuple[int, int]]) -> tuple[tuple[str, str], ...]:
        """A pairing as a strategy entry: each pair's names in order, the pairs in order."""
        names = self.names
        entry = []
        for a, b in pairs:
            a, b = sorted((a, b), key=names.__getitem__)
            entry.append(self.pair_of.setdefault((a, b), (names[a], names[b])))
        return tuple(sorted(entry))

    def entry(self, text: str) -> Any:
        """A stream line's strategy entry (a move's name, or a pairing)."""
        if ":" not in text:
            if text not in self.names:
                raise ValueError(f"no point {text[:8]!r}")
            return self.names[self.names.index(text)]
        index = {name: p for p, name in enumerate(self.names)}
        return self.pairs([(index[a], index[b]) for a, b in (pair.split(":") for pair in text.split(","))])

    def grow(self) -> None:
        """Twice the room in ``seen`` (the stack's room is fixed: it never fills)."""
        used = self.seen[self.seen != 0]
        self.seen = np.zeros(2 * self.seen.shape[0], dtype=np.uint64)
        self.k.seen_add_all(self.seen, used)

    def load(self, stack: np.ndarray, seen: np.ndarray, counts: np.ndarray) -> None:
        """Go on from a saved state."""
        size = 1 << 12
        while 2 * len(seen) >= size:
            size *= 2
        self.seen = np.zeros(size, dtype=np.uint64)
        self.k.seen_add_all(self.seen, seen)
        self.stack[: len(stack)] = stack
        self.counts[:] = counts
        self.counts[self.k.TOP] = len(stack)
        self.counts[self.k.SEEN] = len(seen)
        self.counts[self.k.RECORDS] = 0

    def state(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The stack, the seen keys and the counts, to save."""
        return self.stack[: self.counts[self.k.TOP]].copy(), self.seen[self.seen != 0], self.counts.copy()

    def top_picture(self) -> str:
        return picture(self.stack[self.counts[self.k.TOP] - 1])

    def stopped(self, search: Search, limits: Limits, sink: StrategyFile | None) -> NoReturn:
        """Save the state (with a path) and raise what stopped the walk."""
        if sink is not None:
            sink.save(self, complete=False)
        if search.nodes > search.budget_end and not limits.stopped:
            raise NodeLimitReached(search.budget_end)
        limits.raise_stop()


def table_digest(search: Search) -> str:
    """The SHA-256 of the search's whole transposition table (what a resumed walk must find)."""
    return _digest(search.tt)


def kept_digest(search: Search, most: int | None) -> str:
    """The SHA-256 of the entries of the table a checkpoint keeps (``Search.entries(most)``): what
    a walk saved beside a checkpoint held to a size must find, the table read back from it."""
    return _digest(search.entries(most))


def _digest(arrays: Iterable[np.ndarray]) -> str:
    checksum = hashlib.sha256()
    for array in arrays:
        checksum.update(np.ascontiguousarray(array).data)
    return checksum.hexdigest()


class StrategyFile:
    """A strategy written as it is found, and the state of the walk that finds it.

    The stream (``path``): a first line of JSON (the walk's identity), then one line per
    position: its canonical picture, a space, and the owner's move (``c4``) or a pairing
    (``a1:b2,c3:d4``). The state (``path + ".state"``, NumPy ``.npz``, replaced atomically):
    ``header`` (JSON: the identity, the table's digest, the stream's length in bytes, whether
    the walk ended), ``stack``, ``seen`` and ``counts``. A resumed walk cuts the stream back to
    that length (what was written after the save is written again) and goes on."""

    def __init__(self, path: str, identity: dict[str, Any], search: Search) -> None:
        self.path = path
        self.state_path = path + ".state"
        self.identity = identity
        self.search = search
        self.handle: Any = None

    def resume(self, walk: _Walk, strategy: dict[str, Any], entry: Callable[[str], Any]) -> bool:
        """Read a saved walk back (its entries into ``strategy``): True when it had ended; False
        when there is none (nothing on disk) or it goes on. Refuses one made for another walk."""
        from boardpuzzles.checkpoint import CheckpointError

        if not os.path.exists(self.state_path):
            if os.path.exists(self.path) and os.path.getsize(self.path) > 0:
                raise CheckpointError(f"{self.path} has no state file next to it; delete it to extract afresh")
            return False
        damaged = f"{self.state_path} is damaged; delete it and {self.path} to extract afresh"
        try:
            with np.load(self.state_path, allow_pickle=False) as saved:
                header = json.loads(saved["header"].tobytes().decode("ascii"))
                stack, seen, counts = saved["stack"], saved["seen"], saved["counts"]
        except (OSError, ValueError, KeyError, UnicodeError, zipfile.BadZipFile):
            raise CheckpointError(damaged) from None
        if header.get("identity") != self.identity:
            raise CheckpointError(
                f"{self.state_path} was made for another strategy; delete it and {self.path} to extract afresh"
            )
        # A finished walk's strategy no longer depends on the table; an unfinished one must find
        # the table it was saved with: whole (the same solver goes on), or as its checkpoint kept
        # it (read back from the file, the table holds just those entries).
        if not (
            header.get("complete")
            or header.get("table") == table_digest(self.search)
            or ("kept" in header and header["kept"] == kept_digest(self.search, None))
        ):
            raise CheckpointError(self._other_table(header.get("tt_bits")))
        n = walk.n
        if stack.ndim != 2 or stack.shape[1] != n or len(stack) > walk.stack.shape[0] or counts.shape != (7,):
            raise CheckpointError(damaged)
        length = int(header["length"])
        try:
            with open(self.path, "rb") as handle:
                data = handle.read(length)
            lines = data.decode("ascii").split("\n")
            if len(data) != length or lines[-1] != "" or json.loads(lines[0]) != self.identity:
                raise ValueError("stream")
            for line in lines[1:-1]:
                text, move = line.split(" ")
                if len(text) != n:
                    raise ValueError("picture")
                strategy[text] = entry(move)
        except (OSError, ValueError, UnicodeError, KeyError):
            raise CheckpointError(f"{self.path} does not match its state; delete both to extract afresh") from None
        if header.get("complete"):
            return True
        with open(self.path, "r+b") as handle:
            handle.truncate(length)
        walk.load(stack, seen, counts)
        self.handle = open(self.path, "a", encoding="ascii")  # noqa: SIM115 (closed by close())
        return False

    def start(self) -> bool:
        """A new stream, when :meth:`resume` found none (whether it did)."""
        if self.handle is not None:
            return False
        self.handle = open(self.path, "w", encoding="ascii")  # noqa: SIM115 (closed by close())
        self.handle.write(json.dumps(self.identity, sort_keys=True, separators=(",", ":")) + "\n")
        return True

    def add(self, line: str) -> None:
        self.handle.write(line + "\n")

    def _other_table(self, bits: object) -> str:
        """Why a walk saved from another table cannot go on (it needs the table it was saved with)."""
        if isinstance(bits, int) and bits != self.search.tt_bits:
            return (
                f"{self.state_path} is a strategy read out part way from a table of --tt-bits {bits}: continue "
                f"with --tt-bits {bits}, or delete it and {self.path} to extract afresh"
            )
        return (
            f"{self.state_path} was made from another state of the search's table (its checkpoint was not saved "
            f"with it); delete it and {self.path} to extract afresh"
        )

    def save(self, walk: _Walk, complete: bool) -> None:
        """The walk's state, bound to the stream's length now (flushed to the disk first)."""
        self.handle.flush()
        os.fsync(self.handle.fileno())
        stack, seen, counts = walk.state()
        header = {
            "identity": self.identity,
            "table": table_digest(self.search),
            "length": self.handle.tell(),
            "complete": complete,
            "tt_bits": self.search.tt_bits,
        }
        if self.search.checkpoint_entries is not None:  # the table as the checkpoint keeps it
            header["kept"] = kept_digest(self.search, self.search.checkpoint_entries)
        data = np.frombuffer(json.dumps(header, sort_keys=True).encode("ascii"), dtype=np.uint8)
        replace_file_with(
            self.state_path,
            lambda handle: np.savez(handle, header=data, stack=stack, seen=seen, counts=counts),
            sync=True,
        )

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()
            self.handle = None


def write_proof(solution: Solution, path: str) -> bytes:
    """The proof file's bytes (gzip when ``path`` ends in ``.gz``)."""
    return solution.proof_bytes(path.endswith(".gz"))


def start_in_words(rules: Rules, start: Iterable[int]) -> str:
    """A start position in words (", with black on d4 and white on c3"), or "" when it is empty."""
    points = list(start)
    name = rules.grid.name
    stones = [
        f"{COLOUR_NAMES[colour]} on " + " ".join(name(p) for p, c in enumerate(points) if c == colour)
        for colour in (BLACK, WHITE)
        if colour in points
    ]
    return ", with " + " and ".join(stones) if stones else ""
