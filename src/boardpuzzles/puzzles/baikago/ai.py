"""The computer player (and the simple opponents it is measured against).

How it picks a move, in order:

1. a win now (a four of its own: the fifth point);
2. a forced block (the opponent has a four);
3. at the strongest level, on a board whose value is proved (3x3 to 7x7, 9x9 to 15x15), a perfect
   move: one that keeps a win, or keeps the opponent from winning (from the board's proof or
   opening book, or a df-pn search of the position: :mod:`boardpuzzles.puzzles.baikago.perfect`);
4. a win by continuous fours (VCF): every move a four, every reply forced, ending in two fours
   at once;
5. alpha-beta with a transposition table over the most promising points, deepened one ply at a
   time until the time is up; every root move gets an exact value;
6. of the best moves, the first after which the opponent has no VCF of their own.

All evaluation comes from per-cross stone counts (gomoku's line patterns do not transfer): a
cross only one colour holds is worth more the more stones it has. The kernels are in
``boardpuzzles._kernels.baikago``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import STOP_INTERRUPT, STOP_NONE, STOP_TIME, Limits
from boardpuzzles.puzzles.baikago.game import Move, Position
from boardpuzzles.puzzles.baikago.perfect import is_solved
from boardpuzzles.puzzles.baikago.rules import BLACK, EMPTY_POINT, WHITE, Colour, Rules, cross_table, other

if TYPE_CHECKING:
    from boardpuzzles._kernels.baikago import Tables

#: Search weights: ``VALUE[s]`` a live cross with s stones (static evaluation); ``ATTACK[s]`` and
#: ``DEFEND[s]`` how much a point on a cross with s of my / the opponent's stones is worth
#: looking at (a fourth stone makes a threat, a fifth wins; blocking follows the same scale).
VALUE = np.array([0, 2, 12, 70, 400, 0], dtype=np.int64)
ATTACK = np.array([1, 4, 20, 150, 100_000, 0], dtype=np.int64)
DEFEND = np.array([0, 3, 15, 100, 50_000, 0], dtype=np.int64)


@dataclass(frozen=True)
class Strength:
    """``depth`` plies at most, ``width`` points per node, ``vcf`` own moves of continuous
    fours, ``seconds`` a move at most (the search stops a little sooner, see
    :meth:`ComputerPlayer.limits_for_move`, and starts no new depth after a third of it)."""

    depth: int
    width: int
    vcf: int
    seconds: float
    nodes: int  # hard budget per search call


STRENGTHS: dict[int, Strength] = {
    1: Strength(depth=1, width=8, vcf=0, seconds=0.05, nodes=20_000),
    2: Strength(depth=2, width=8, vcf=4, seconds=0.2, nodes=50_000),
    3: Strength(depth=6, width=10, vcf=8, seconds=0.6, nodes=120_000),
    4: Strength(depth=10, width=12, vcf=12, seconds=3.0, nodes=1_000_000),
}
DEFAULT_STRENGTH = 3
#: The shortest thinking time a move is given (seconds): a win, a block or the best-scored point.
MIN_SECONDS = 0.001
#: Past its time, the check that the chosen move leaves no win by continuous fours gets at most
#: this share of the move's time more.
SAFETY_SHARE = 0.25


@functools.lru_cache(maxsize=32)
def zobrist(size: int) -> np.ndarray:
    """Random keys per colour and point, fixed per board size (seeded: reproducible). Row 0
    (empty points) has no keys but ``[0, 0]``: the side-to-move key, in the hash when white is
    to move, so one board with either side to move has two entries in the table."""
    rng = np.random.default_rng(20190103 + size)
    keys = rng.integers(1, 2**63 - 1, size=(3, size * size), dtype=np.int64).astype(np.uint64)
    keys[0, 1:] = 0
    keys.setflags(write=False)
    return keys


def position_key(zob: np.ndarray, board: Sequence[int] | np.ndarray, me: Colour) -> np.uint64:
    """The Zobrist hash of ``board`` with ``me`` to move (the kernels update it move by move)."""
    points = np.asarray(board)
    key = zob[0, 0] if me == WHITE else np.uint64(0)
    for colour in (BLACK, WHITE):
        for p in np.flatnonzero(points == colour):
            key ^= zob[colour, p]
    return np.uint64(key)


def search_tables(rules: Rules) -> Tables:
    """The tables the search kernels share for one rule set, as one bundle
    (``boardpuzzles._kernels.baikago.Tables``): the crosses, the Zobrist keys and the weights."""
    from boardpuzzles._kernels import baikago as kernels

    table = cross_table(rules)
    return kernels.Tables(table.cells, table.through, table.through_count, zobrist(rules.size), ATTACK, DEFEND, VALUE)


@dataclass
class Choice:
    """A chosen move and why: ``win``, ``block``, ``perfect``, ``vcf``, ``search`` or ``opening``; the search
    depth reached, its value for the mover and the nodes visited."""

    move: Move
    reason: str
    depth: int = 0
    value: int = 0
    nodes: int = 0


def _state(points: Sequence[int], rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    table = rules.table
    board = np.asarray(points, dtype=np.int8).copy()
    if board.shape != (rules.size**2,):
        raise BoardPuzzlesError(f"{board.shape[0]} points for a {rules.size}x{rules.size} board")
    cnt = np.zeros((3, len(table)), dtype=np.int16)
    stones = board[table.cells]
    cnt[BLACK] = (stones == BLACK).sum(axis=1)
    cnt[WHITE] = (stones == WHITE).sum(axis=1)
    return board, cnt


class ComputerPlayer:
    """The engine for one rule set; keeps its transposition table between moves."""

    def __init__(
        self,
        rules: Rules | None = None,
        strength: int = DEFAULT_STRENGTH,
        seconds: float | None = None,
        seed: int | None = None,
        tt_bits: int = 18,
    ) -> None:
        from boardpuzzles._kernels import baikago as kernels

        if strength not in STRENGTHS:
            raise BoardPuzzlesError(f"strength must be one of {sorted(STRENGTHS)}, got {strength!r}")
        self.k = kernels
        self.rules = rules or Rules()
        self.table = cross_table(self.rules)
        self.strength = STRENGTHS[strength]
        #: The strongest plays perfectly on solved boards (see :mod:`boardpuzzles.puzzles.baikago.perfect`).
        self.perfect = strength == max(STRENGTHS)
        self.seconds = self.strength.seconds if seconds is None else seconds
        self.random = random.Random(seed)
        self.zob = zobrist(self.rules.size)
        self.tables = search_tables(self.rules)
        size = 1 << tt_bits
        self.tt = kernels.TTable(
            np.zeros(size, np.uint64),
            np.zeros(size, np.int32),
            np.full(size, -1, np.int8),
            np.zeros(size, np.int8),
            np.zeros(size, np.int16),
        )

    def choose_for(self, position: Position, limits: Limits | None = None) -> Choice:
        if position.is_game_over():
            raise BoardPuzzlesError("the game is over")
        return self.choose(position.board, position.turn, limits)

    def limits_for_move(self) -> Limits:
        """The limits of one move, whose whole thinking time is this player's ``seconds``: the
        search stops at ``seconds / (1 + SAFETY_SHARE)`` and answers with its last complete
        depth, and the last safety check has the rest (the first move also loads the kernels)."""
        return Limits(max(MIN_SECONDS, self.seconds / (1 + SAFETY_SHARE)), force=False)

    def choose(self, points: Sequence[int], me: Colour, limits: Limits | None = None) -> Choice:
        """A move for ``me`` on this board (``points``: 0 empty, 1 black, 2 white, row-major).

        ``limits`` bound the thinking (default: this player's ``seconds`` a move): no new depth
        starts after a third of the time, the search in progress stops at the time limit (the
        last complete depth answers), and Ctrl-C raises :class:`Interrupted`."""
        own = limits is None
        limits = limits if limits is not None else self.limits_for_move()
        try:
            choice = self._choose(points, me, limits)
        finally:
            if own:
                limits.close()
        if limits.reason not in (STOP_NONE, STOP_TIME):
            limits.raise_stop()
        return choice

    def _choose(self, points: Sequence[int], me: Colour, limits: Limits) -> Choice:
        k, tab, s = self.k, self.table, self.strength
        board, cnt = _state(points, self.rules)
        them = other(me)
        if not (board == EMPTY_POINT).any():
            raise BoardPuzzlesError("the board is full")
        buffer = np.empty(board.shape[0], dtype=np.int32)
        if k.four_points(board, cnt, tab.cells, me, buffer):
            return Choice(int(buffer[0]), "win")
        n = k.four_points(board, cnt, tab.cells, them, buffer)
        if n:
            return Choice(int(buffer[0]), "block", value=-k.WIN if n > 1 else 0)
        if self.perfect and is_solved(self.rules) and me == _to_move(board):
            from boardpuzzles.puzzles.baikago.perfect import perfect_move

            found = perfect_move(self.rules, board, limits)
            if found is not None:
                return Choice(found.point, "perfect", value=k.WIN if found.keeps == "win" else 0, nodes=found.nodes)
        if not (board != EMPTY_POINT).any():
            centre = (self.rules.size // 2) * (self.rules.size + 1)
            return Choice(centre, "opening")
        nodes = 0
        if s.vcf:
            move, nodes = self._vcf(board, cnt, me, s.nodes, limits.flag)
            if move >= 0:
                return Choice(move, "vcf", value=k.WIN, nodes=nodes)
        return self._search(board, cnt, me, nodes, limits)

    def _vcf(self, board: np.ndarray, cnt: np.ndarray, me: Colour, budget: int, flag: np.ndarray) -> tuple[int, int]:
        """The first move of ``me``'s win by continuous fours (-1: none found), and the nodes
        searched."""
        stats = np.zeros(2, dtype=np.int64)
        move = self.k.vcf(self.tables, board, cnt, me, self.strength.vcf, budget, stats, flag)
        return int(move), int(stats[0])

    def _search(self, board: np.ndarray, cnt: np.ndarray, me: Colour, nodes: int, limits: Limits) -> Choice:
        k, tab, s = self.k, self.table, self.strength
        scores = np.empty(board.shape[0], dtype=np.int64)
        k.move_scores(board, cnt, tab.through, tab.through_count, me, ATTACK, DEFEND, scores)
        order = np.full(s.width + 4, -1, dtype=np.int32)
        n = k.top_moves(scores, s.width + 4, order)  # a wider root: every root move is searched exactly
        order = order[:n]
        key = position_key(self.zob, board, me)
        values = np.zeros(n, dtype=np.int64)
        best_values, depth_done = None, 0
        for depth in range(1, s.depth + 1):
            run = k.Run(s.width, s.nodes, np.zeros(2, dtype=np.int64), limits.flag)
            got = k.search_root(self.tables, self.tt, run, board, cnt, me, depth, key, order, values, 0)
            nodes += int(run.stats[0])
            if got < 0:
                break  # out of nodes: keep the last complete depth
            ranking = sorted(range(n), key=lambda i: -values[i])  # stable: earlier guesses first on ties
            order, best_values, depth_done = order[ranking].copy(), values[ranking].copy(), depth
            values = np.zeros(n, dtype=np.int64)
            if abs(int(best_values[0])) > k.MATE_ZONE or _past_a_third(limits):
                break
        if best_values is None:
            return Choice(int(order[0]), "search", 0, 0, nodes)
        # The safety check below is short (a quarter of the node budget). Past the time limit it
        # gets a last SAFETY_SHARE of the move's time of its own, so a move never runs long past
        # its time (a tournament manager forfeits a brain that does); Ctrl-C stops it too.
        if limits.reason != STOP_TIME:
            return self._safe_pick(board, cnt, me, order, best_values, depth_done, nodes, limits.flag)
        extra = Limits(max(MIN_SECONDS, SAFETY_SHARE * (limits.time_limit or self.seconds)))
        try:
            if limits.reason == STOP_INTERRUPT:
                extra.stop()
            return self._safe_pick(board, cnt, me, order, best_values, depth_done, nodes, extra.flag)
        finally:
            extra.close()

    def _safe_pick(
        self,
        board: np.ndarray,
        cnt: np.ndarray,
        me: Colour,
        order: np.ndarray,
        values: np.ndarray,
        depth: int,
        nodes: int,
        flag: np.ndarray,
    ) -> Choice:
        """The best move after which the opponent has no win by continuous fours; ties at random."""
        k, tab, s = self.k, self.table, self.strength
        top = int(values[0])
        candidates = [int(m) for m, v in zip(order, values, strict=True) if v == top]
        self.random.shuffle(candidates)
        rest = [int(m) for m, v in zip(order, values, strict=True) if v != top]
        if top > k.MATE_ZONE or not s.vcf:
            return Choice(candidates[0], "search", depth, top, nodes)
        value_of = dict(zip((int(m) for m in order), (int(v) for v in values), strict=True))
        for m in (candidates + rest)[:6]:
            if value_of[m] < -k.MATE_ZONE:
                break
            k.place(board, cnt, tab.through, tab.through_count, m, me)
            threat, spent = self._vcf(board, cnt, other(me), s.nodes // 4, flag)
            k.remove(board, cnt, tab.through, tab.through_count, m)
            nodes += spent
            if threat < 0:
                return Choice(m, "search", depth, value_of[m], nodes)
        return Choice(candidates[0], "search", depth, top, nodes)


def _to_move(board: np.ndarray) -> Colour:
    return BLACK if int((board == BLACK).sum()) == int((board == WHITE).sum()) else WHITE


def _past_a_third(limits: Limits) -> bool:
    """No new depth starts after a third of the time: the next one usually takes longer than
    all the earlier ones together."""
    if limits.time_limit is None:
        return limits.stopped
    return limits.elapsed() > limits.time_limit / 3


def warm_up() -> None:
    """Load (or, on a fresh install, compile) every kernel the computer player calls: numba does
    it on first use, which would otherwise fall on the first move's clock (a fraction of a second
    from the disk cache, about half a minute to compile). A small game reaches every kernel:
    strength 2 runs the threat search (VCF) as well as alpha-beta, and a df-pn search of a won
    position loads the kernels of perfect play (strength 4 on a solved board). Once per process."""
    global _warm
    if _warm:
        return
    from boardpuzzles.puzzles.baikago.perfect import threat_win

    rules = Rules(7)
    position = Position(rules)
    for name in ("d4", "c3", "e4", "c5"):
        position.make_named(name)
    ComputerPlayer(rules, strength=2, seed=0, tt_bits=10).choose_for(position)
    for name in ("e5", "a1", "f6", "a7"):  # black's d4 e5 f6: a threat next, and a win by threats
        position.make_named(name)
    threat_win(rules, np.array(position.board, dtype=np.int8), BLACK, None, 1_000)
    _warm = True


_warm = False


# -------------------------------------------------------------------- the benchmark's opponents
class RandomPlayer:
    """Any empty point, uniformly."""

    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)

    def choose_for(self, position: Position) -> Choice:
        return Choice(self.random.choice(list(position.legal_moves())), "random")


class GreedyPlayer:
    """Wins when it can, blocks an immediate loss, and otherwise plays where its own live crosses
    gain most (each cross through the point counts its stones after the move, squared; ties at
    random). Plain Python: it needs no search."""

    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)

    def choose_for(self, position: Position) -> Choice:
        me, them = position.turn, other(position.turn)
        mine, theirs = position.counts[me], position.counts[them]
        through = position.table.through_lists
        moves = list(position.legal_moves())
        for counts_a, counts_b, reason in ((mine, theirs, "win"), (theirs, mine, "block")):
            for m in moves:
                if any(counts_a[k] == 4 and counts_b[k] == 0 for k in through[m]):
                    return Choice(m, reason)
        best, best_moves = -1, []
        for m in moves:
            gain = sum((mine[k] + 1) ** 2 for k in through[m] if theirs[k] == 0)
            if gain > best:
                best, best_moves = gain, [m]
            elif gain == best:
                best_moves.append(m)
        return Choice(self.random.choice(best_moves), "greedy")
