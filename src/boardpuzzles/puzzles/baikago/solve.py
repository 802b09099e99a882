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
            the exact search (rules, start position, attackers, pairings, the Zobrist keys and
            the table format) and refused otherwise; a run with another table size moves the
            saved entries into its own table (:meth:`Search.place`).

Why a loaded table cannot make a wrong answer: a df-pn table is a cache. The kernel stores an
entry only when a node's expansion ends normally (a stopped search stores nothing on its way
up), so a saved table is one that the same uninterrupted search could have held (less, after a
proof's read-out, the entries it dropped to search their positions again, or those a smaller
table has no room for: a missing entry is only unexplored), and resuming is the same as df-pn's
own restart from the root with its table. Entries with pn and dn both above 0 are estimates: a
stale or wrong one changes only the order and the cost of the search, never a value, since a
node is proved or disproved only from its children's values. Only the entries with pn = 0 or dn
= 0 are trusted as results, exactly as within one run; what could make one wrong is (1) a 64-bit
key collision, as likely after a resume as in a run that never stopped (the file keeps the full
keys, and the Zobrist keys are bound into its identity so the same key means the same position),
(2) damage, which the file's SHA-256 checksum refuses, or (3) a deliberate edit with a
recomputed checksum (it is a checksum, not a signature). Against all three the proof stays the
judge: it is an explicit strategy, replayed move by move by the independent checker, and a
strategy built on a false entry fails it. The pairing-level flags (how many pairing tests failed
here) only save work: a wrong flag skips a pairing test, which costs search, never correctness.

Roads not taken: retrograde analysis (3^49 positions on 7x7); proving draws with the
Erdos-Selfridge potential (a theorem as a leaf, where a pairing is a strategy the checker can
see); saving the table periodically during a run (a kill -9 loses the work since the last
stop; Ctrl-C, a kill by SIGTERM and the limits save); a lock against two runs on one file (the later save wins).
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from boardpuzzles.compiling import search_seconds
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.baikago.dfpn import (
    DEFAULT_TT_BITS,
    PAIRING_BUDGET,
    POINT_LETTERS,
    ROOT_PAIRING_BUDGET,
    STRATEGY_PAIRING_BUDGET,
    NodeLimitReached,
    Search,
    Symmetries,
    find_pairing,
    pairing_exists,
    picture,
    turn,
    zobrist,
)
from boardpuzzles.puzzles.baikago.proof import FORMAT, Claim, Solution, extract_strategy, write_proof
from boardpuzzles.puzzles.baikago.rules import BLACK, COLOUR_NAMES, MAX_SOLVE_SIZE, WHITE, Colour, Rules, other
from boardpuzzles.puzzles.baikago.table_file import (
    ENTRY_BYTES,
    FILE_OVERHEAD_BYTES,
    TABLE_FILE_FORMAT,
    TABLE_MAGIC,
    SavedSearch,
    TableFile,
)

__all__ = [
    "DEFAULT_TT_BITS",
    "FORMAT",
    "MAX_SOLVE_SIZE",
    "PAIRING_BUDGET",
    "POINT_LETTERS",
    "ROOT_PAIRING_BUDGET",
    "STRATEGY_PAIRING_BUDGET",
    "TABLE_FILE_FORMAT",
    "TABLE_MAGIC",
    "Claim",
    "NodeLimitReached",
    "NoThreatWin",
    "SavedSearch",
    "Search",
    "Solution",
    "Solver",
    "Symmetries",
    "TableFile",
    "extract_strategy",
    "find_pairing",
    "pairing_exists",
    "picture",
    "solve",
    "turn",
    "write_proof",
    "zobrist",
]

#: Seconds a save waits for a stopped search to let go of its tables (see :meth:`Solver.save`).
SAVE_WAIT = 30.0
#: A proof's extraction reports its progress at most every so many seconds.
REPORT_SECONDS = 30.0


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
    threats_from: int | None = None,
    checkpoint_bytes: int | Literal["all"] | None = None,
) -> Solution:
    """The value of the empty board (or of ``start``: point colours, row-major, top row first)
    under ``rules``, with a proof of each claim: a pairing of the whole board when there is one
    (a draw), else two df-pn searches (black attacking, then white) and the strategies they
    found. ``pairings=False`` uses no pairing anywhere: the proofs are plain strategies;
    ``attackers=(WHITE,)`` searches one side only (the value is then ``unknown`` unless that
    side wins). ``checkpoint``: a file the searches' tables are saved to when the run stops or
    ends, and continued from when it holds them (see :class:`Solver`); ``node_limit``: stop
    (:class:`NodeLimitReached`) after that many search nodes in this run; ``threats_from``: a
    threat-space search; ``checkpoint_bytes``: the most the checkpoint may hold, ``"all"`` for
    every entry (see :class:`Solver`)."""
    solver = Solver(rules, tt_bits, start, pairings, attackers, checkpoint, threats_from, checkpoint_bytes)
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


class NoThreatWin(BoardPuzzlesError):
    """A threat-space search ended without a win: none of ``attackers`` has a win that plays
    only threats from ``threats_from`` stones on (``nodes``: their searches' nodes together).
    That does not say they cannot win."""

    def __init__(self, attackers: tuple[Colour, ...], threats_from: int, nodes: int) -> None:
        names = [COLOUR_NAMES[c] for c in attackers]
        who = f"{names[0]} has no" if len(names) == 1 else f"neither {names[0]} nor {names[1]} has a"
        super().__init__(
            f"{who} win that plays only threats from {threats_from} stones on"
            f" ({nodes:,} search nodes); that does not settle the board"
        )
        self.attackers = attackers
        self.threats_from = threats_from
        self.nodes = nodes


class Solver:
    """One solve of one position: its searches (one per attacker, made when first needed) and,
    with a ``checkpoint`` path, the file they are saved to and continued from.

    Making a solver reads the file (when there is one) and refuses, with
    :class:`~boardpuzzles.checkpoint.CheckpointError`, one that is not ours, damaged, or made for
    another search: nothing is searched and the file is left as it was. :meth:`run` searches (in
    any thread); :meth:`save` writes the file (atomically) once the searches are still, so a
    command line can save from its main thread after a worker stopped. With ``checkpoint_bytes``
    the file holds at most that many bytes: the entries that cost least to compute are left out
    (a table is a cache of values, so any part of it is sound), and a later run searches them
    again. That keeps a long search's file small enough to move or commit. The file remembers
    its bound: continued without one (None), it keeps it; ``"all"`` lifts it."""

    def __init__(
        self,
        rules: Rules,
        tt_bits: int = DEFAULT_TT_BITS,
        start: list[int] | None = None,
        pairings: bool = True,
        attackers: tuple[Colour, ...] = (BLACK, WHITE),
        checkpoint: str | None = None,
        threats_from: int | None = None,
        checkpoint_bytes: int | Literal["all"] | None = None,
    ) -> None:
        if rules.size > MAX_SOLVE_SIZE:
            raise BoardPuzzlesError(f"the solver takes boards up to {MAX_SOLVE_SIZE}x{MAX_SOLVE_SIZE}")
        if not 10 <= tt_bits <= 30:
            raise BoardPuzzlesError(f"tt_bits must be between 10 and 30, got {tt_bits}")
        if not attackers or len(set(attackers)) != len(attackers) or not set(attackers) <= {BLACK, WHITE}:
            raise BoardPuzzlesError("the attackers are black, white or both, each once")
        if threats_from is not None and threats_from < 0:
            raise BoardPuzzlesError(f"threats_from must be 0 or more, got {threats_from}")
        self.rules = rules
        self.tt_bits = tt_bits
        self.board = _start_board(rules, start)
        self.pairings = pairings
        self.attackers = tuple(attackers)
        #: From this many stones on the attacker plays only threats (None: the whole game).
        self.threats_from = threats_from
        self.searches: dict[Colour, Search] = {}
        self.loaded = False  #: whether the searches continue from a checkpoint
        #: Where a long run's progress lines go (a proof's extraction), or nowhere.
        self.report: Callable[[str], None] | None = None
        self._lock = threading.Lock()
        self.table_file = None if checkpoint is None else TableFile(checkpoint, self.identity())
        saved = None if self.table_file is None else self.table_file.read()
        saved_bound = None if self.table_file is None else self.table_file.bound
        #: Whether the bound is the one the file was saved with (none was given): a search held
        #: to a size stays held to it, so continuing it never writes a whole table over it.
        self.bound_from_file = checkpoint_bytes is None and saved_bound is not None
        bound = saved_bound if checkpoint_bytes is None else checkpoint_bytes
        #: The most bytes the checkpoint keeps (None: every entry), as saved in its header.
        self.checkpoint_bytes = None if bound == "all" else bound
        #: The entries each search keeps in the checkpoint (None: all): an equal share of
        #: ``checkpoint_bytes`` per attacker (``search`` gives each its share).
        self.checkpoint_entries: int | None = None
        if self.checkpoint_bytes is not None:
            share = max(0, self.checkpoint_bytes - FILE_OVERHEAD_BYTES) // ENTRY_BYTES
            self.checkpoint_entries = share // len(self.attackers)
        if saved is not None:
            for attacker, state in saved.items():
                state.apply(self.search(attacker))
            self.loaded = True

    def identity(self) -> dict[str, Any]:
        """What the searches are, as a checkpoint binds them: a file made for any other search
        (another board, rule, start, side or pairing option, other Zobrist keys, another table
        format) is refused; one of another table size (``tt_bits``) is taken in (see
        :meth:`TableFile.read`). A threat-space search is bound to its ``threats_from``:
        its disproofs hold for threats only, so its table must never serve another search (nor
        a whole game's table serve it: the key is absent from a whole game's identity, which
        keeps the files made before threat-space checkpoints loadable)."""
        from boardpuzzles._kernels import baikago_solve as kernels

        zsym = zobrist(self.rules, Symmetries.of(self.rules))
        identity = {
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
        if self.threats_from is not None:
            identity["threats_from"] = self.threats_from
        return identity

    def search(self, attacker: Colour) -> Search:
        """The search with this attacker (made empty the first time)."""
        if attacker not in self.searches:
            search = Search(self.rules, attacker, self.tt_bits, PAIRING_BUDGET if self.pairings else 0)
            if self.threats_from is not None:
                search.threats_from = self.threats_from
            search.checkpoint_entries = self.checkpoint_entries
            self.searches[attacker] = search
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
                if not wins and self.threats_from is not None:
                    continue  # no threat-space win settles nothing: the next attacker's turn
                owner = attacker if wins else other(attacker)
                # the strategy is written next to the checkpoint as it is found (resumable)
                kept = None if self.table_file is None else f"{self.table_file.path}.{COLOUR_NAMES[attacker]}-search"
                strategy = extract_strategy(search, owner, limits, board, self._extraction_report(owner), kept)
            finally:
                search.seconds += search_seconds(t0)
                if left is not None:
                    left -= search.nodes - nodes0
            claims.append(
                Claim(
                    attacker,
                    wins,
                    owner,
                    strategy=strategy,
                    nodes=search.nodes,
                    seconds=search.seconds,
                    threats_from=self.threats_from,
                )
            )
            if wins:
                break
        if self.threats_from is not None and not claims:
            nodes = sum(self.searches[c].nodes for c in self.attackers)
            raise NoThreatWin(self.attackers, self.threats_from, nodes)
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
        ``disproved``: it cannot, ``no threat-space win``: a threat-space search found none,
        which settles nothing, ``open``), ``nodes``, ``seconds`` and the root's ``pn`` and
        ``dn`` (of an open search, as the root's children in the table give them, see
        :meth:`Search.root_children`: of its
        ``root_children`` symmetry classes, ``root_children_in_table`` are held, and each
        of the others counts as unexplored, 1 and 1; both None once settled), and ``moves``:
        of an open search, each root child as ``{"move", "pn", "dn", "work"}`` (its point, one of
        its class; the nodes searched below it as the table keeps them, 0 where it holds none),
        costliest first, which says where the search spends itself; None once settled."""
        found = []
        for attacker, search in self.searches.items():
            children = held = moves = None
            if search.result is not None:
                pn, dn = search.result
                state = "proved" if pn == 0 else "disproved" if self.threats_from is None else "no threat-space win"
            else:
                pn, dn, children, held = search.root_children(self.board)
                state = "open"
                if children:
                    name = self.rules.grid.name
                    entries = sorted(search.child_entries(self.board), key=lambda c: (-c[3], c[0]))
                    moves = [{"move": name(p), "pn": cpn, "dn": cdn, "work": work} for p, cpn, cdn, work in entries]
            found.append(
                {
                    "attacker": COLOUR_NAMES[attacker],
                    "state": state,
                    "nodes": search.nodes,
                    "seconds": round(search.seconds, 2),
                    "pn": pn,
                    "dn": dn,
                    "root_children": children,
                    "root_children_in_table": held,
                    "moves": moves,
                }
            )
        return found

    def entries_kept(self) -> tuple[int, int]:
        """How many table entries the checkpoint keeps of the searches', and how many they hold."""
        kept = held = 0
        for search in self.searches.values():
            count = int(np.count_nonzero(search.tt.key))
            held += count
            kept += count if search.checkpoint_entries is None else min(count, search.checkpoint_entries)
        return kept, held

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
            self.table_file.write(self.searches, self.checkpoint_bytes)
        finally:
            self._lock.release()
        return True
