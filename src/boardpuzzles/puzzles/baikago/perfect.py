"""Perfect play on solved boards, and the solved value of a position.

A board is *solved* here when its value with perfect play is proved and its proof can guide play
(``SOLVED``: 3x3 to 7x7 with the default rules are draws, 9x9 to 15x15 wins for black). On such
a board the value of any position, and a move that keeps the best value for the side to move,
come from two places:

book        the proof of the board, shipped with the package (``books/``: for 7x7 the strategies of
            ``records/baikago-7.json.gz``, for 9x9 black's winning strategy of
            ``records/baikago-9.json.gz``, for 10x10 to 15x15 the opening of black's winning
            strategy, its first three moves): a position where a strategy's owner is to move and
            that the strategy holds has the owner's move, which keeps the opponent from winning
            (and wins, in a winning strategy);
search      df-pn searches of the position itself (``Search``, one per attacker), bounded by a
            node budget and the run's limits: a proved win gives the winning move, a disproved
            one a move after which the opponent still cannot win. Past an opening book, black's
            win comes from a threat-space search (black plays only threats), which finds it in a
            few nodes; searches of the whole game are not made on those boards.

Glossary
--------
value       ``black`` or ``white`` (that side can force a win from here), ``draw`` (neither can),
            for the position with its side to move; a finished game has its result as value.
perfect     a move that keeps the value: a winning side's move keeps its win, and a side that
move        cannot lose (the opponent cannot win) plays a move after which it still cannot.
"""

from __future__ import annotations

import functools
import gzip
import json
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.puzzles.baikago.rules import BLACK, COLOUR_NAMES, EMPTY_POINT, WHITE, Colour, Rules, other

#: Boards that black wins by threats (10x10 to 15x15): their records hold black to threats from
#: its fourth stone on, and their whole proofs (millions of positions) are too large to ship.
#: Their books are the records' openings: black's strategy while at most ``OPENING_STONES``
#: stones are on the board (1,890 to 17,269 positions). From black's fourth stone on, a
#: threat-space search of the position finds black's win: ``check_opening`` searches every
#: position at the book's edge.
OPENING_BOOKS = {Rules(n): f"baikago-{n}-opening.json.gz" for n in range(10, 16)}
#: The stones on the board of the book's last positions (black's third stone is its last move).
OPENING_STONES = 4
#: Search nodes of a threat-space search for black's win past an opening book (the positions at
#: the books' edges took 241 at most).
THREAT_NODES = 20_000
#: The boards whose value is proved (default rules: + and x crosses, any d), and that value.
#: 8x8 is open (white cannot win; black's attack is not settled).
SOLVED = {Rules(n): "draw" for n in range(3, 8)} | {Rules(n): "black" for n in range(9, 16)}
#: Proof files shipped as books (package data), by board: the same bytes as the record.
BOOKS = {Rules(7): "baikago-7.json.gz", Rules(9): "baikago-9.json.gz"}
#: Search nodes a value or a move may take per search, unless told otherwise.
DEFAULT_NODES = 400_000
#: Search nodes for a win where the book already has a move that keeps the draw (a win that an
#: opponent's mistake allows is usually short; a longer one is left for the next moves).
WIN_PROBE_NODES = 5_000
#: Table size of those searches: 2^(10 + size) slots, at most 2^18 (8 MiB).
TT_BITS = 18
#: Table size of a threat-space search past an opening book: 2^14 slots (it takes a few nodes).
THREAT_TT_BITS = 14


@dataclass(frozen=True)
class SolvedValue:
    """The value of a position and how it was found: ``proof`` (the board's proof alone),
    ``search`` (df-pn from the position, with the proof where it holds; ``nodes`` it took) or
    ``over`` (the game has ended)."""

    value: str
    source: str
    nodes: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "source": self.source, "nodes": self.nodes}


@dataclass(frozen=True)
class PerfectMove:
    """A move that keeps the value for the side to move: ``keeps`` is ``win`` (it wins) or
    ``draw`` (the opponent still cannot win); ``source`` as in :class:`SolvedValue`."""

    point: int
    keeps: str
    source: str
    nodes: int = 0


def is_solved(rules: Rules) -> bool:
    return rules in SOLVED


# -------------------------------------------------------------------- the books
class Book:
    """A solved board's proof, for play: per owner colour, its strategy (canonical picture ->
    move name) and its pairing leaves (positions, each with a pairing from which the owner answers
    pair by pair), and the colours whose strategy wins (``winners``; the others' keep the
    opponent from winning). A board settled by a pairing of the empty board has that one leaf."""

    def __init__(self, rules: Rules) -> None:
        from boardpuzzles.puzzles.baikago.dfpn import Symmetries

        self.rules = rules
        self.symmetries = Symmetries.of(rules)
        self.back = np.argsort(self.symmetries.perms, axis=1)  # image point -> board point
        self.point_of = {rules.grid.name(p): p for p in range(rules.size**2)}
        self.moves: dict[Colour, dict[str, str]] = {BLACK: {}, WHITE: {}}
        self.leaves: dict[Colour, np.ndarray] = {}  # (L, n) boards
        self.partners: dict[Colour, np.ndarray] = {}  # (L, n) the other point of each pair, -1 none
        self.winners: set[Colour] = set()
        #: An opening book (``baikago-opening/1``): the most stones on the board of its
        #: positions, past which the winner's moves are searched for (None: a whole proof).
        self.opening_stones: int | None = None

    @classmethod
    def of_document(cls, rules: Rules, document: dict[str, Any]) -> Book:
        """The book of a proof document's claims: "cannot win" (the player defends) and
        "wins" (the player attacks)."""
        made = cls(rules)
        made.opening_stones = document.get("stones")
        letters = {".": EMPTY_POINT, "X": BLACK, "O": WHITE}
        for proof in document["proofs"]:
            owner = BLACK if proof["player"] == "black" else WHITE
            if proof["claim"].endswith(" wins"):
                made.winners.add(owner)
            elif not proof["claim"].endswith("cannot win"):
                continue
            leaves = []
            if "pairing" in proof:
                leaves.append((document["start"], proof["pairing"]))
            for picture, entry in proof.get("strategy", {}).items():
                if isinstance(entry, str):
                    made.moves[owner][picture] = entry
                else:
                    leaves.append((picture, entry))
            made.add_leaves(owner, [([letters[c] for c in picture], pairs) for picture, pairs in leaves])
        return made

    def add_leaves(self, owner: Colour, leaves: list[tuple[list[int], list[list[str]]]]) -> None:
        n = self.rules.size**2
        boards = np.zeros((len(leaves), n), dtype=np.int8)
        partners = np.full((len(leaves), n), -1, dtype=np.int8)
        for i, (board, pairs) in enumerate(leaves):
            boards[i] = board
            for a, b in pairs:
                p, q = self.point_of[a], self.point_of[b]
                partners[i, p], partners[i, q] = q, p
        self.leaves[owner], self.partners[owner] = boards, partners

    def move(self, board: np.ndarray, owner: Colour) -> int | None:
        """A move of the owner (to move at ``board``) that keeps the opponent from winning: the
        strategy's, or an answer that keeps a pairing of a leaf the position grew from (checked
        here: after it, every cross without an owner stone holds a pair of empty points); None
        when the book has neither."""
        text, s = self.symmetries.canonical(board)
        entry = self.moves[owner].get(text)
        if entry is not None:
            return int(self.back[s, self.point_of[entry]])
        return self.pairing_answer(board, owner)

    def holds(
        self, board: np.ndarray, owner: Colour, answer: Callable[[np.ndarray, Colour], int | None] | None = None
    ) -> bool:
        """Whether the book shows that the owner's opponent cannot win from ``board`` (and that
        the owner wins, when ``owner`` is among the ``winners``): the owner to move has a move
        here, or the opponent to move has no move the owner has no answer to (nor one that fills
        a cross). ``answer`` gives the owner's moves instead of :meth:`move` (one that searches
        where the book ends)."""
        answer = answer or self.move
        me = BLACK if int((board == BLACK).sum()) == int((board == WHITE).sum()) else WHITE
        if me == owner:
            return answer(board, owner) is not None
        for p in np.flatnonzero(board == EMPTY_POINT):
            board[p] = me
            try:
                if _ended(self.rules, board) is not None or answer(board, owner) is None:
                    return False
            finally:
                board[p] = EMPTY_POINT
        return True

    def pairing_answer(self, board: np.ndarray, owner: Colour) -> int | None:
        leaves = self.leaves.get(owner)
        if leaves is None or not len(leaves):
            return None
        perms = self.symmetries.perms
        for s in range(perms.shape[0]):
            image = np.empty_like(board)
            image[perms[s]] = board
            grown = ((leaves == EMPTY_POINT) | (leaves == image)).all(axis=1)
            for i in np.flatnonzero(grown):
                answer = _keep_pairing(self.rules, image, self.partners[owner][i], owner)
                if answer is not None:
                    return int(self.back[s, answer])
        return None


def _keep_pairing(rules: Rules, board: np.ndarray, partner: np.ndarray, owner: Colour) -> int | None:
    """The owner's move that keeps ``partner``'s pairs a pairing: the partner of a pair the
    opponent has just taken one point of, else a point of no pair (else of a pair); None when
    the position after it is not covered (every cross without an owner stone must hold a pair
    whose two points are empty)."""
    them = other(owner)
    empty = board == EMPTY_POINT
    paired = partner >= 0
    taken = np.flatnonzero(paired & (board == them))
    answers = [int(partner[p]) for p in taken if empty[partner[p]]]
    if len(answers) > 1:
        return None
    if answers:
        move = answers[0]
    else:
        free = np.flatnonzero(empty & ~paired)
        move = int(free[0]) if len(free) else int(np.flatnonzero(empty)[0])
    after = board.copy()
    after[move] = owner
    live = ~(after[rules.table.cells] == owner).any(axis=1)
    whole = paired & (after == EMPTY_POINT)
    whole &= np.where(paired, whole[np.maximum(partner, 0)], False)
    cells = rules.table.cells[live]
    mates = np.where(whole[cells], partner[cells], -1)
    covered = (mates[:, :, None] == cells[:, None, :]).any(axis=(1, 2))
    return move if covered.all() else None


@functools.lru_cache(maxsize=8)
def book(rules: Rules) -> Book | None:
    """The book of a solved board: its shipped proof, or the pairing of its empty board; None
    for a board that is not solved."""
    if not is_solved(rules):
        return None
    name = BOOKS.get(rules) or OPENING_BOOKS.get(rules)
    if name is not None:
        data = (resources.files("boardpuzzles.puzzles.baikago") / "books" / name).read_bytes()
        return Book.of_document(rules, json.loads(gzip.decompress(data)))
    from boardpuzzles.puzzles.baikago.dfpn import find_pairing

    made = Book(rules)
    pairs = find_pairing(rules)
    if pairs is not None:
        names = [[rules.grid.name(a), rules.grid.name(b)] for a, b in pairs]
        for owner in (BLACK, WHITE):
            made.add_leaves(owner, [([EMPTY_POINT] * rules.size**2, names)])
    return made


def opening(document: dict[str, Any], stones: int = OPENING_STONES) -> dict[str, Any]:
    """The opening book of a proof document of a win (one strategy): the same document with the
    strategy's positions of at most ``stones`` stones, marked as an opening
    (``baikago-opening/1``, with ``stones``)."""
    (proof,) = document["proofs"]
    strategy = {
        picture: move for picture, move in proof["strategy"].items() if len(picture) - picture.count(".") <= stones
    }
    return document | {
        "format": "baikago-opening/1",
        "stones": stones,
        "proofs": [proof | {"strategy": strategy}],
    }


class _Answers:
    """The winner's moves on a board with an opening book: the book's, then a threat-space
    search's past the book's last stones (``THREAT_NODES`` each, ``budget`` in all, within the
    limits); ``nodes`` counts the searches' nodes. None where neither has a move."""

    def __init__(self, known: Book, limits: Limits | None, budget: int) -> None:
        self.known = known
        self.limits = limits
        self.budget = budget
        self.nodes = 0

    def __call__(self, board: np.ndarray, owner: Colour) -> int | None:
        move = self.known.move(board, owner)
        return move if move is not None else self.past_book(board, owner)

    def past_book(self, board: np.ndarray, owner: Colour) -> int | None:
        """The winner's move where the book has none: its four filled, or a search's."""
        stones = self.known.opening_stones
        if owner not in self.known.winners or stones is None or int((board != EMPTY_POINT).sum()) <= stones:
            return None  # the book holds every position of the strategy this early
        fifth = _four_point(self.known.rules, board, owner)
        if fifth is not None:
            return fifth
        try:  # many short searches (one per reply, in Book.holds): each looks at the limits first
            if self.limits is not None:
                self.limits.check()
        except TimeLimitReached:  # Ctrl-C goes on up
            return None
        if self.nodes >= self.budget:
            return None
        found = threat_win(self.known.rules, board, owner, self.limits, min(THREAT_NODES, self.budget - self.nodes))
        if found is None:
            return None
        move, nodes = found
        self.nodes += nodes
        return move


def threat_win(
    rules: Rules, board: np.ndarray, attacker: Colour, limits: Limits | None, nodes: int
) -> tuple[int, int] | None:
    """A winning move of ``attacker`` (to move at ``board``) from a threat-space df-pn search of
    the position (the attacker plays only threats, the defender every move: a win found is a win
    of the game), and the nodes it took; None when it finds none within ``nodes``."""
    search = _threat_search(rules, board, attacker, limits, nodes)
    if search is None:
        return None
    move = _settled_child(search, board, attacker, limits, nodes)
    return None if move is None else (move, search.nodes)


def _threat_search(rules: Rules, board: np.ndarray, attacker: Colour, limits: Limits | None, nodes: int) -> Any:
    """The threat-space search that proved ``attacker``'s win (see :func:`threat_win`), or None."""
    result = _attack(rules, board, attacker, limits, nodes, threats=True)
    return None if result is None or not result[0] else result[2]


@dataclass(frozen=True)
class OpeningCheck:
    """What :func:`check_opening` found: the book's positions met (black to move), the positions
    at its edge searched, and the most nodes one of them took; ``missing`` the pictures of
    positions where the book has no move or the search finds no win (none, for a sound book)."""

    book_positions: int
    edge_positions: int
    most_nodes: int
    missing: tuple[str, ...]


def check_opening(rules: Rules, every: int = 1, limits: Limits | None = None) -> OpeningCheck:
    """Play the opening book of ``rules`` against every reply of white (one position per symmetry
    class): the book must have black's move while at most ``OPENING_STONES`` stones are on the
    board, and after each of white's replies to its last move, a threat-space search of
    ``THREAT_NODES`` nodes must find black's win. ``every``: search one edge position in
    ``every`` (in the order met), for a quicker check."""
    known = book(rules)
    if known is None or known.opening_stones is None:
        raise ValueError(f"{rules.size}x{rules.size} has no opening book")
    stones = known.opening_stones
    run = limits if limits is not None else Limits()
    seen: set[str] = set()
    edge = 0
    most = 0
    missing: list[str] = []
    book_positions = 0

    def visit(board: np.ndarray) -> None:
        nonlocal edge, most, book_positions
        text, _ = known.symmetries.canonical(board)
        if text in seen:
            return
        seen.add(text)
        if int((board != EMPTY_POINT).sum()) > stones:
            edge += 1
            if (edge - 1) % every:
                return
            search = _threat_search(rules, board, BLACK, run, THREAT_NODES)
            if search is None:
                missing.append(text)
            else:
                most = max(most, search.nodes)
            return
        move = known.move(board, BLACK)
        if move is None:
            missing.append(text)
            return
        book_positions += 1
        board[move] = BLACK
        for reply in np.flatnonzero(board == EMPTY_POINT):
            board[reply] = WHITE
            visit(board)
            board[reply] = EMPTY_POINT
        board[move] = EMPTY_POINT

    try:
        visit(np.zeros(rules.size**2, dtype=np.int8))
    finally:
        if limits is None:
            run.close()
    return OpeningCheck(book_positions, edge, most, tuple(missing))


# -------------------------------------------------------------------- values and moves
def solved_value(
    rules: Rules, points: list[int] | np.ndarray, limits: Limits | None = None, nodes: int = DEFAULT_NODES
) -> SolvedValue | None:
    """The value of the position ``points`` (0 empty, 1 black, 2 white; row-major, top row
    first; the side to move follows from the stone counts) on a solved board: ``black``,
    ``white`` or ``draw``. None when the board is not solved, or when the searches stop (their
    node budget, the run's limits) before the value is known."""
    if not is_solved(rules):
        return None
    board = _board(rules, points)
    ended = _ended(rules, board)
    if ended is not None:
        return SolvedValue(ended, "over")
    known = book(rules)
    if known is not None:
        answers = None if known.opening_stones is None else _Answers(known, limits, nodes)
        for winner in known.winners:
            if known.holds(board, winner, answers):
                searched = 0 if answers is None else answers.nodes
                return SolvedValue(COLOUR_NAMES[winner], "search" if searched else "proof", searched)
        if answers is not None:
            return None  # searches of the whole game from here end too late on these boards
    spent = 0
    settled = []
    for attacker in (BLACK, WHITE):
        if known is not None and known.holds(board, other(attacker)):
            settled.append(attacker)
            continue
        result = _attack(rules, board, attacker, limits, nodes)
        if result is None:
            return None
        wins, used, _ = result
        spent += used
        if wins:
            return SolvedValue(COLOUR_NAMES[attacker], "search", spent)
    return SolvedValue("draw", "proof" if len(settled) == 2 else "search", spent)


def perfect_move(
    rules: Rules, points: list[int] | np.ndarray, limits: Limits | None = None, nodes: int = DEFAULT_NODES
) -> PerfectMove | None:
    """A move for the side to move that keeps its value on a solved board: a win when it can
    win, else a move after which the opponent still cannot win. None when the board is not
    solved, the game is over, the side to move loses whatever it plays, or the searches stop
    first.

    In order: a four of its own is filled; a winning strategy's move; None where the opponent's
    winning strategy holds; a win is searched for (with ``WIN_PROBE_NODES`` where the book has a
    move); the book's move; a search that the opponent cannot win, and a move that keeps it so."""
    if not is_solved(rules):
        return None
    board = _board(rules, points)
    if _ended(rules, board) is not None:
        return None
    me = BLACK if int((board == BLACK).sum()) == int((board == WHITE).sum()) else WHITE
    fifth = _four_point(rules, board, me)
    if fifth is not None:
        return PerfectMove(fifth, "win", "over")
    known = book(rules)
    from_book = None if known is None else known.move(board, me)
    if known is not None:
        if from_book is not None and me in known.winners:
            return PerfectMove(from_book, "win", "proof")
        if known.opening_stones is not None:
            if me not in known.winners:
                # whether black's win holds or not, white gets no move here: the searches of the
                # whole game that could show a draw or a win for white end too late on these boards
                return None
            answers = _Answers(known, limits, nodes)
            move = answers.past_book(board, me)  # the book itself had none (from_book)
            return None if move is None else PerfectMove(move, "win", "search", answers.nodes)
        if other(me) in known.winners and known.holds(board, other(me)):
            return None  # the book's winner wins whatever is played: no search can change that
    spent = 0
    for attacker in (me, other(me)):
        if attacker == other(me) and from_book is not None:
            return PerfectMove(from_book, "draw", "proof", spent)
        budget = WIN_PROBE_NODES if attacker == me and from_book is not None else nodes
        result = _attack(rules, board, attacker, limits, budget)
        if result is None:
            if attacker == me:
                continue  # no win found within the budget: the book, or the defence, decides
            return None
        wins, used, search = result
        spent += used
        if wins == (attacker == me):
            move = _settled_child(search, board, me, limits, nodes)
            keeps = "win" if attacker == me else "draw"
            return None if move is None else PerfectMove(move, keeps, "search", spent + search.nodes - used)
    return None  # the opponent wins whatever the side to move plays


def _four_point(rules: Rules, board: np.ndarray, colour: Colour) -> int | None:
    """The fifth point of one of ``colour``'s fours, or None."""
    stones = board[rules.table.cells]
    fours = ((stones == colour).sum(axis=1) == 4) & ((stones == EMPTY_POINT).sum(axis=1) == 1)
    for k in np.flatnonzero(fours):
        cells = rules.table.cells[k]
        return int(cells[stones[k] == EMPTY_POINT][0])
    return None


def _board(rules: Rules, points: list[int] | np.ndarray) -> np.ndarray:
    from boardpuzzles.errors import BoardPuzzlesError

    board = np.asarray(points, dtype=np.int8).copy()
    if board.shape != (rules.size**2,) or not np.isin(board, (EMPTY_POINT, BLACK, WHITE)).all():
        raise BoardPuzzlesError(f"a position of {rules.size}x{rules.size} needs {rules.size**2} points of 0, 1 or 2")
    return board


def _ended(rules: Rules, board: np.ndarray) -> str | None:
    """The result of a finished game (``black``, ``white``, ``draw``), or None."""
    stones = board[rules.table.cells]
    for colour in (BLACK, WHITE):
        if (stones == colour).all(axis=1).any():
            return COLOUR_NAMES[colour]
    return "draw" if not (board == EMPTY_POINT).any() else None


def _attack(
    rules: Rules, board: np.ndarray, attacker: Colour, limits: Limits | None, nodes: int, threats: bool = False
) -> tuple[bool, int, Any] | None:
    """Whether ``attacker`` can force a win from ``board`` (and the nodes, and the search), or
    None when the budget or the limits stop the search first. ``threats``: the attacker plays
    only threats (a threat-space search, in ``THREAT_TT_BITS``): False then says only that no
    such win was found."""
    from boardpuzzles.puzzles.baikago.dfpn import Search

    search = Search(rules, attacker, THREAT_TT_BITS if threats else min(TT_BITS, 10 + rules.size))
    if threats:
        search.threats_from = 0
    search.budget_end = nodes
    own = limits is None
    run = limits if limits is not None else Limits()
    try:
        pn, _ = search.solve(board, run)
    except TimeLimitReached:  # the node budget or the time limit (Ctrl-C goes on up)
        return None
    finally:
        if own:
            run.close()
    return pn == 0, search.nodes, search


def _settled_child(search: Any, board: np.ndarray, me: Colour, limits: Limits | None, nodes: int) -> int | None:
    """A child of the settled root that keeps its value for ``me``: proved for the attacker when
    ``me`` attacks, disproved when ``me`` defends; read from the table, else searched."""
    code, forced = search.status(board)
    moves = [forced] if code == -3 else [int(p) for p in np.flatnonzero(board == EMPTY_POINT)]
    attacking = me == search.attacker
    _, keys = search.state(board)

    def held() -> int | None:
        for p in moves:
            pn, dn, _ = search.entry(search.child_key(keys, me, p))
            if (pn if attacking else dn) == 0:
                return p
        return None

    if (move := held()) is not None:
        return move
    search.budget_end = search.nodes + nodes
    own = limits is None
    run = limits if limits is not None else Limits()
    try:
        # the root searched again, its own entry dropped (one that says settled would end the
        # search at once): df-pn over all the children finds a kept child far sooner than
        # searching them one by one in point order
        search.forget(board)
        search.solve(board, run, extracting=True)
        if (move := held()) is not None:
            return move
        for p in moves:
            board[p] = me
            try:
                pn, dn = search.solve(board, run, extracting=True)
            finally:
                board[p] = EMPTY_POINT
            if (pn if attacking else dn) == 0:
                return p
    except TimeLimitReached:  # NodeLimitReached too
        return None
    finally:
        if own:
            run.close()
    return None
