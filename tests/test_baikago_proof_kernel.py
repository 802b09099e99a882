"""Baikago strategies read out of df-pn searches by the compiled walk
(``boardpuzzles._kernels.baikago_proof``), against its plain-Python twin here; resumed walks; and
the independent checker of ``tests/test_baikago_solve.py`` run over several processes: split by
the opponent's first moves (``check_proof_split``: the checker's own replay from each, but the
positions two replays share are checked by both, 1.25 to 1.9 times the work on 6x6 and 7x7
positions) or level by level (``check_proof_levels``: the replay's step, position by position,
each position once; also a command: ``python -m tests.test_baikago_proof_kernel --jobs 2
FILE...``).

The twin walks the same positions in the same order with the search's Python methods
(``Search.status``, ``Search.entry``, ``Search.solve``, ``find_pairing``) and the symmetry code
of ``dfpn.Symmetries``; where the table lost a position's answer, both search it again in the
same table in the same order, so the tables, and the strategies, stay the same.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import json.decoder
import json.scanner
import multiprocessing
import operator
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tests.test_baikago_solve as checker
from boardpuzzles.checkpoint import CheckpointError
from boardpuzzles.cli import _run
from boardpuzzles.limits import Interrupted, Limits
from boardpuzzles.puzzles.baikago import proof
from boardpuzzles.puzzles.baikago.dfpn import STRATEGY_PAIRING_BUDGET, Search, find_pairing, picture, turn
from boardpuzzles.puzzles.baikago.proof import Claim, Solution, extract_strategy
from boardpuzzles.puzzles.baikago.rules import BLACK, WHITE, Rules

EMPTY = 0


# -------------------------------------------------------------------- the twin
def twin_strategy(search: Search, owner: int, limits: Limits, start: Any = None) -> dict[str, Any]:
    """The compiled walk in plain Python (see the kernel module's text for the rules)."""
    rules = search.rules
    n = rules.size**2
    perms = search.symmetries.perms
    names = [rules.grid.name(p) for p in range(n)]
    owner_attacks = owner == search.attacker
    budget = 0 if search.pairing_budget <= 0 else max(search.pairing_budget, STRATEGY_PAIRING_BUDGET)

    def canonical(board: np.ndarray) -> np.ndarray:
        _, s = search.symmetries.canonical(board)
        image = np.empty_like(board)
        image[perms[s]] = board
        return image

    def any_pairing(board: np.ndarray) -> list[tuple[int, int]] | None:
        for s in range(perms.shape[0]):
            image = np.empty_like(board)
            image[perms[s]] = board
            pairs = find_pairing(rules, image, search.attacker, budget)
            if pairs is not None:
                back = np.argsort(perms[s])
                return [(int(back[a]), int(back[b])) for a, b in pairs]
        return None

    def owner_move(board: np.ndarray, moves: list[int]) -> int:
        me = turn(board)
        _, keys = search.state(board)
        won, unknown = [], []
        for p in moves:
            pn, dn, work = search.entry(search.child_key(keys, me, p))
            number = pn if owner_attacks else dn
            (won if number == 0 else unknown).append((work if number == 0 else number, p))
        if won:
            return min(won)[1]
        children = []
        for _, p in sorted(unknown):
            child = board.copy()
            child[p] = me
            children.append((p, child))
        for p, child in children:
            if search.status(child)[0] == (1 if owner_attacks else -1):
                return p
        search.forget(board)  # else an entry that says won, its children's gone, ends the search
        search.solve(board, limits, extracting=True)  # its won child is then in the table
        won = []
        for p in moves:
            pn, dn, work = search.entry(search.child_key(keys, me, p))
            if (pn if owner_attacks else dn) == 0:
                won.append((work, p))
        if won:
            return min(won)[1]
        for p, child in children:
            pn, dn = search.solve(child, limits, extracting=True)
            if (pn if owner_attacks else dn) == 0:
                return p
        raise AssertionError("no move")

    strategy: dict[str, Any] = {}
    seen: set[str] = set()
    first = np.zeros(n, dtype=np.int8) if start is None else np.asarray(start, dtype=np.int8)
    stack = [canonical(first)]
    while stack:
        board = stack.pop()
        text = picture(board)
        if text in seen:
            continue
        code, forced = search.status(board)
        me = turn(board)
        children: list[int] = []
        if code in (1, -1):
            assert (code == 1) == owner_attacks, "lost"
        else:
            pairs = None
            if me != owner and not owner_attacks and code == 0 and budget > 0:
                pairs = any_pairing(board)
            if pairs is not None:
                strategy[text] = tuple(sorted(tuple(sorted((names[a], names[b]))) for a, b in pairs))
            else:
                children = [forced] if code == -3 else [int(p) for p in np.flatnonzero(board == EMPTY)]
                if me == owner:
                    move = owner_move(board, children)
                    strategy[text] = names[move]
                    children = [move]
        seen.add(text)
        for p in children:
            child = board.copy()
            child[p] = me
            stack.append(canonical(child))
    return strategy


def searched(rules: Rules, attacker: int, start: Any = None, tt_bits: int = 16, pairings: bool = True) -> Search:
    search = Search(rules, attacker, tt_bits, 200 if pairings else 0)
    board = np.zeros(rules.size**2, dtype=np.int8) if start is None else np.asarray(start, dtype=np.int8)
    search.budget_end = 5_000_000
    search.result = search.solve(board, Limits())
    return search


def owner_of(search: Search) -> int:
    assert search.result is not None
    return search.attacker if search.result[0] == 0 else BLACK + WHITE - search.attacker


def document(search: Search, strategy: dict[str, Any], start: Any = None) -> dict[str, Any]:
    assert search.result is not None
    wins = search.result[0] == 0
    claim = Claim(search.attacker, wins, owner_of(search), strategy=strategy)
    start = None if start is None else [int(v) for v in start]
    return json.loads(Solution(search.rules, [claim], 0.0, start).proof_bytes(compress=False))


#: (rules, attacker, start, table bits, pairings): draws defended with pairings (7x7 with one
#: orientation of crosses has no pairing of the empty board), without them, wins from 5x5
#: positions, and a table so small that the walk searches lost answers again.
CASES = [
    ((4, None, "+x"), BLACK, None, 16, False),
    ((4, None, "+x"), WHITE, None, 16, False),
    ((7, None, "x"), BLACK, None, 16, True),
    ((7, None, "+"), WHITE, None, 16, True),
    ((5, None, "+x"), BLACK, checker.POSITIONS_5[0], 16, True),
    ((5, None, "+x"), BLACK, checker.POSITIONS_5[3], 16, True),
    ((5, None, "+x"), WHITE, "X......X.......X.O....O..", 11, False),
]


@pytest.mark.parametrize("case", CASES)
def test_kernel_and_twin_give_the_same_checked_strategy(case: Any) -> None:
    (size, max_d, orientations), attacker, start, bits, pairings = case
    start = None if start is None else checker.board_of(start)
    rules = Rules(size, max_d, orientations)
    first, second = searched(rules, attacker, start, bits, pairings), searched(rules, attacker, start, bits, pairings)
    nodes = first.nodes
    limits = Limits()
    made = extract_strategy(first, owner_of(first), limits, start)
    twin = twin_strategy(second, owner_of(second), limits, start)
    assert made == twin
    assert first.nodes == second.nodes  # the same searches again, where there were any
    if bits == 11:
        assert first.nodes > nodes  # this case does search lost answers again
    doc = document(first, made, start)
    assert checker.check_proof(doc) == check_proof_split(doc, jobs=2) == check_proof_levels(doc, jobs=2)


#: A 9x9 position (black to move) that df-pn proves won for black in 6 nodes: black's move at
#: point 42 starts a line of fours. Found where 9x9's extraction, in 2^22 slots, stalled.
WON_BY_A_FOUR_9 = "".join(
    [
        ".........",
        ".........",
        "......O..",
        "...O.....",
        "..X.X....",
        "...XOX...",
        "..O.X.O..",
        ".........",
        ".........",
    ]
)


def test_a_won_entry_whose_children_are_gone_is_searched_again_whole() -> None:
    """The table holds the position as won but not the won child (a full bucket gave it up).
    The walk searches the position again, its own entry dropped first: kept, that entry ends
    the search at once, and the children were then searched one by one in point order, millions
    of nodes each where df-pn over all of them takes a few."""
    start = checker.board_of(WON_BY_A_FOUR_9)
    search = searched(Rules(9), BLACK, start, tt_bits=14, pairings=False)
    assert search.result is not None and search.result[0] == 0
    board = np.asarray(start, dtype=np.int8)
    _, keys = search.state(board)
    for p in np.flatnonzero(board == 0):
        search.k.tt_forget(search.tt, search.child_key(keys, BLACK, int(p)))
    assert search.probe(board)[0] == 0  # still won, and no child to show it
    search.budget_end = search.nodes + 10_000
    strategy = extract_strategy(search, BLACK, Limits(), start)
    assert checker.check_proof(document(search, strategy, start)) == "black"


def test_a_corrupted_strategy_is_refused() -> None:
    search = searched(Rules(4), BLACK, pairings=False)
    strategy = extract_strategy(search, WHITE, Limits())
    doc = document(search, strategy)
    assert checker.check_proof(doc) == check_proof_split(doc, jobs=2) == "unknown"
    # the owner's move in one position replaced by another empty point, one that loses
    losing = []
    for text, move in strategy.items():
        for other in ("a1", "b2", "c3", "d4", "a4", "d1"):
            if other != move and text[checker.point_named(other, 4)] == ".":
                broken = document(search, {**strategy, text: other})
                try:
                    checker.check_proof(broken)
                except AssertionError:
                    losing.append(broken)
    assert losing
    with pytest.raises(AssertionError):
        check_proof_split(losing[0], jobs=2)
    for broken in losing[:: max(1, len(losing) // 4)]:  # a few, spread over the strategy (each starts processes)
        with pytest.raises(AssertionError):
            check_proof_levels(broken, jobs=2)
    # a position dropped
    dropped = dict(strategy)
    dropped.pop(next(iter(dropped)))
    with pytest.raises(AssertionError):
        check_proof_split(document(search, dropped), jobs=2)
    with pytest.raises(AssertionError):
        check_proof_levels(document(search, dropped), jobs=1)


def test_a_four_that_lets_the_opponent_fill_its_own_cross_is_refused() -> None:
    """Black, to move, makes a four while white has one: white fills its cross. The replies that
    leave black a four to fill end their lines without being kept (every checker skips them), and
    the one that fills white's cross must still be caught: by the checker, by its level-by-level
    split (where the reply is met as such a skipped child) and by `baikago verify`."""
    from boardpuzzles.puzzles.baikago.verify import ProofError, verify_document

    n = 5
    board = [EMPTY] * (n * n)
    for point in (6, 1, 11, 5):  # white: four of the + cross around b4, its fifth point c4 (7) empty
        board[point] = WHITE
    for point in (13, 18, 23, 4):  # black: three of the + cross around d2, and a stone out of the way
        board[point] = BLACK
    doc = {
        "format": "baikago-proof/1",
        "game": "baikago",
        "rules": {"size": n, "max_d": None, "orientations": "+x"},
        "start": "".join(checker.LETTER[v] for v in board),
        "value": "black",
        "proofs": [
            {
                "claim": "black wins",
                "player": "black",
                "nodes": 0,
                "seconds": 0.0,
                "strategy": _playing(board, 17),  # black's move d2, making a four
            }
        ],
    }
    with pytest.raises(AssertionError, match="fills a cross"):
        checker.check_proof(doc)
    with pytest.raises(AssertionError, match="fills a cross"):
        check_proof_levels(doc, jobs=1)
    with pytest.raises(ProofError, match="white fills a cross"):
        verify_document(doc)
    # the same strategy where white has only three: every reply but the block leaves black its four
    board[5] = EMPTY
    board[0] = WHITE
    doc["start"] = "".join(checker.LETTER[v] for v in board)
    doc["proofs"][0]["strategy"] = _playing(board, 17)
    with pytest.raises(AssertionError, match="no move"):  # white blocks at e2, and black has no move there
        check_proof_levels(doc, jobs=1)


def _playing(board: list[int], point: int) -> dict[str, str]:
    """A strategy of one entry: at ``board`` (by its canonical picture), play ``point`` (named in
    that picture's image)."""
    n = int(len(board) ** 0.5)
    picture, image = checker.canonical(board, n)
    row, column = divmod(image[point], n)
    return {picture: f"{chr(ord('a') + column)}{n - row}"}


def test_a_pairing_that_misses_a_cross_is_refused() -> None:
    search = searched(Rules(7, None, "x"), BLACK)
    strategy = extract_strategy(search, WHITE, Limits())
    text, pairs = next((t, e) for t, e in strategy.items() if isinstance(e, tuple))
    with pytest.raises(AssertionError):
        check_proof_split(document(search, {**strategy, text: pairs[1:]}), jobs=2)
    with pytest.raises(AssertionError):
        check_proof_levels(document(search, {**strategy, text: pairs[1:]}), jobs=2)


def test_a_stopped_walk_resumes_to_the_same_file(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(proof, "REPORT_EVERY", 7)
    rules, start = Rules(5), checker.board_of(checker.CROWDED_5)
    whole = searched(rules, WHITE, start, 12, False)
    once = tmp_path / "once"
    expected = extract_strategy(whole, owner_of(whole), Limits(), start, path=str(once))
    search = searched(rules, WHITE, start, 12, False)
    path = tmp_path / "pieces"
    stops = 0
    while True:
        limits = Limits()
        reports = 0

        def stop(walked: int, kept: int, limits: Limits = limits) -> None:
            nonlocal reports
            reports += 1
            if reports == 3:
                limits.stop()

        try:
            made = extract_strategy(search, owner_of(search), limits, start, stop, path=str(path))
            break
        except Interrupted:
            stops += 1
            assert (tmp_path / "pieces.state").exists()
            with path.open("a") as stream:  # lines written after the save (a run killed later) are dropped
                stream.write("X" * 25 + " a1\n")
    assert stops >= 3
    assert made == expected
    assert path.read_bytes() == once.read_bytes()
    # an ended walk is read back as it is, without walking
    assert extract_strategy(search, owner_of(search), Limits(), start, path=str(path)) == expected


def test_the_kernel_stops_at_the_flag_with_nothing_half_done(monkeypatch: Any) -> None:
    from boardpuzzles._kernels import baikago_proof as kernels

    monkeypatch.setattr(proof, "REPORT_EVERY", 50)
    search = searched(Rules(7, None, "x"), BLACK)
    walk = proof._Walk(search, WHITE, None)
    limits = Limits()
    assert walk.step(search, limits) == kernels.CHUNK
    stack, seen, counts = walk.state()
    limits.stop()
    assert walk.step(search, limits) == kernels.STOPPED
    after = walk.state()
    assert np.array_equal(stack, after[0]) and np.array_equal(seen, after[1]) and np.array_equal(counts, after[2])


def test_a_saved_walk_is_bound_to_its_strategy_and_table(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(proof, "REPORT_EVERY", 5)
    rules = Rules(4)
    search = searched(rules, BLACK, pairings=False)
    path = str(tmp_path / "walk")
    limits = Limits()
    with pytest.raises(Interrupted):
        extract_strategy(search, WHITE, limits, None, lambda walked, kept: limits.stop(), path=path)
    other_size = searched(rules, BLACK, pairings=False, tt_bits=14)
    with pytest.raises(CheckpointError, match=f"from a table of --tt-bits {search.tt_bits}: continue with"):
        extract_strategy(other_size, WHITE, Limits(), path=path)
    slot = int(np.flatnonzero(search.tt.key)[0])
    search.tt.work[slot] += 1  # the same size, another state
    with pytest.raises(CheckpointError, match="another state of the search's table"):
        extract_strategy(search, WHITE, Limits(), path=path)
    search.tt.work[slot] -= 1
    with pytest.raises(CheckpointError, match="another strategy"):
        extract_strategy(search, WHITE, Limits(), checker.board_of("X...O..........."), path=path)
    Path(path + ".state").write_bytes(b"not a state")
    with pytest.raises(CheckpointError, match="damaged"):
        extract_strategy(search, WHITE, Limits(), path=path)


def test_a_solve_stopped_in_the_walk_goes_on_from_its_checkpoint(tmp_path: Path, monkeypatch: Any) -> None:
    from boardpuzzles.puzzles.baikago import solve as bs

    monkeypatch.setattr(proof, "REPORT_EVERY", 3)
    monkeypatch.setattr(bs, "REPORT_SECONDS", 0.0)
    whole = bs.solve(Rules(4), pairings=False, attackers=(BLACK,), tt_bits=12)
    table = str(tmp_path / "four.dfpn")
    solver = bs.Solver(Rules(4), 12, None, False, (BLACK,), table)
    limits = Limits()
    solver.report = lambda line: limits.stop()
    with pytest.raises(Interrupted):
        solver.run(limits)
    assert solver.save()
    again = bs.Solver(Rules(4), 12, None, False, (BLACK,), table)  # the table as saved, and the walk's state
    assert again.loaded
    lines = []
    again.report = lines.append
    resumed = again.run(Limits())
    assert resumed.claims[0].strategy == whole.claims[0].strategy
    assert lines and int(lines[0].split()[3].replace(",", "")) > 3  # it went on, not from the start


def test_cli_keeps_the_strategy_next_to_the_checkpoint(tmp_path: Path, capsys: Any) -> None:
    table, proof_file = str(tmp_path / "four.dfpn"), str(tmp_path / "four.json")
    args = ["baikago", "solve", "4", "--side", "black", "--no-pairings", "--tt-bits", "14"]
    assert _run([*args, "--checkpoint", table, "--proof", proof_file]) == 0
    kept = table + ".black-search"  # white's strategy, from the search with black attacking
    assert Path(kept).exists() and Path(kept + ".state").exists()
    first = json.loads(Path(proof_file).read_text())
    assert _run([*args, "--checkpoint", table, "--proof", proof_file]) == 0  # read back
    again = json.loads(Path(proof_file).read_text())
    assert first["proofs"][0]["strategy"] == again["proofs"][0]["strategy"]
    assert check_proof_split(again, jobs=2) == "unknown"
    capsys.readouterr()


# -------------------------------------------------------------------- the checker, split
_SPLIT: list[tuple[dict[str, Any], int, Any, bool]] = []  # (proof, n, crosses, wins), read by forked workers


@contextmanager
def _collecting(tasks: list[tuple[int, list[int]]]) -> Iterator[None]:
    """While the checker's ``check_proof`` runs, its strategy replays are collected as tasks
    (one per first move of the opponent, up to symmetry) instead of run."""
    replay = checker.check_strategy

    def collect(proof_: dict[str, Any], start: list[int], n: int, crosses: Any, wins: bool) -> int:
        _SPLIT.append((proof_, n, crosses, wins))
        index = len(_SPLIT) - 1
        tasks.extend((index, board) for board in _first_moves(proof_, start, n, crosses, wins))
        return 0

    checker.check_strategy = collect
    try:
        yield
    finally:
        checker.check_strategy = replay


def _first_moves(proof_: dict[str, Any], start: list[int], n: int, crosses: Any, wins: bool) -> list[list[int]]:
    """Where the replay from ``start`` goes on: one position per opponent move up to symmetry,
    or ``start`` itself when the opponent is not to move there or the replay stops there."""
    owner = checker.NAME_OF[proof_["player"]]
    board = list(start)
    to_move = BLACK if board.count(BLACK) == board.count(WHITE) else WHITE
    ends = (
        checker.winner(board, crosses) != EMPTY
        or EMPTY not in board
        or (not wins and all(any(board[p] == owner for p in cross) for cross in crosses))
    )
    picture_, _ = checker.canonical(board, n)
    if ends or to_move == owner or not isinstance(proof_["strategy"].get(picture_, ""), str):
        return [board]
    found: dict[str, list[int]] = {}
    for p in range(n * n):
        if board[p] == EMPTY:
            board[p] = to_move
            found.setdefault(checker.canonical(board, n)[0], list(board))
            board[p] = EMPTY
    return list(found.values())


def _replay(task: tuple[int, list[int]]) -> int:
    index, board = task
    proof_, n, crosses, wins = _SPLIT[index]
    return checker.check_strategy(proof_, board, n, crosses, wins)


def check_proof_split(doc: dict[str, Any], jobs: int) -> str:
    """``check_proof`` with each strategy replayed from every first move of the opponent (up to
    symmetry, as the checker's own replay goes), the replays spread over ``jobs`` processes;
    the value it establishes. Each replay is the checker's own; only the positions two replays
    share are checked twice."""
    tasks: list[tuple[int, list[int]]] = []
    _SPLIT.clear()
    with _collecting(tasks):
        value = checker.check_proof(doc)
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            _replay(task)
    else:
        # Closed and joined, never terminated: Pool.terminate kills workers that may be putting
        # a result, and a worker killed holding the result queue's lock leaves terminate waiting
        # for it for ever (a refused proof, whose failed replay ends the loop early, hung so).
        pool = multiprocessing.get_context("fork").Pool(min(jobs, len(tasks)))
        try:
            # the largest first: a replay from the opponent's first move in the centre is the longest
            for _ in pool.imap_unordered(_replay, sorted(tasks, key=lambda t: -_centrality(t[1])), chunksize=1):
                pass
        finally:
            pool.close()
            pool.join()
    _SPLIT.clear()
    return value


# -------------------------------------------------------------------- the checker, by levels
def _step(index: int, text: str) -> list[str]:
    """One position of a replay (``check_strategy``'s ``visit``, step for step, on the canonical
    board): its checks, and the canonical pictures of the positions the replay goes on to."""
    proof_, n, crosses, wins = _SPLIT[index]
    owner = checker.NAME_OF[proof_["player"]]
    opponent = BLACK + WHITE - owner
    board = [_POINT[ch] for ch in text]
    cross_points = _cross_points(crosses)
    for points in cross_points:
        stones = points(board)
        if stones[0] != EMPTY and stones.count(stones[0]) == 5:
            assert stones[0] == owner, f"{checker.LETTER[stones[0]]} fills a cross in {text}"
            return []
    if EMPTY not in board:
        assert not wins, "the board filled up without the owner's win"
        return []
    if not wins and all(owner in points(board) for points in cross_points):
        return []
    picture_, image = text, list(range(n * n))  # the board is its canonical image
    to_move = BLACK if board.count(BLACK) == board.count(WHITE) else WHITE
    if to_move == owner and checker.owner_fills_a_four(board, owner, cross_points):
        return []
    entry = proof_["strategy"].get(picture_)
    moves: list[tuple[int, int]] = []
    if isinstance(entry, (list, tuple)):
        assert not wins, "a pairing cannot prove a win"
        back = {image[p]: p for p in range(n * n)}
        pairs = [(back[checker.point_named(a, n)], back[checker.point_named(b, n)]) for a, b in entry]
        checker.check_pairing(board, pairs, owner, crosses)
    elif to_move == owner:
        assert isinstance(entry, str), f"no move for {picture_}"
        move = image.index(checker.point_named(entry, n))
        assert board[move] == EMPTY, f"the strategy plays on a stone in {picture_}"
        moves = [(move, owner)]
    else:
        # The fifth points of the owner's fours: a reply elsewhere leaves the owner a four to fill
        # next, which ends the line; such a child gets its own steps here (the reply must not fill
        # a cross: one it filled goes through its point) and is not kept in the level.
        fifths = {
            cross[stones.index(EMPTY)]
            for cross, stones in zip(_sorted_crosses(crosses), (points(board) for points in cross_points), strict=True)
            if stones.count(owner) == 4 and stones.count(EMPTY) == 1
        }
        for p in range(n * n):
            if board[p] != EMPTY:
                continue
            if fifths - {p}:
                board[p] = opponent
                for points in _cross_points_through(crosses, p):
                    assert points(board).count(opponent) < 5, (
                        f"{checker.LETTER[opponent]} fills a cross in {''.join(checker.LETTER[v] for v in board)}"
                    )
                board[p] = EMPTY
            else:
                moves.append((p, opponent))
    children = set()
    for p, colour in moves:
        board[p] = colour
        children.add(checker.canonical(board, n)[0])
        board[p] = EMPTY
    return sorted(children)


_POINT = {".": EMPTY, "X": BLACK, "O": WHITE}


@functools.lru_cache(maxsize=None)
def _sorted_crosses(crosses: Any) -> list[tuple[int, ...]]:
    """Each cross's points in the order they are read off a board."""
    return [tuple(sorted(cross)) for cross in crosses]


@functools.lru_cache(maxsize=None)
def _cross_points(crosses: Any) -> list[Any]:
    """Each cross's five points read off a board at once (as the checker reads them)."""
    return [operator.itemgetter(*cross) for cross in _sorted_crosses(crosses)]


@functools.lru_cache(maxsize=None)
def _cross_points_through(crosses: Any, point: int) -> list[Any]:
    """The crosses through ``point``, read as ``_cross_points`` reads them."""
    return [operator.itemgetter(*cross) for cross in _sorted_crosses(crosses) if point in cross]


def _steps(task: tuple[int, list[str]]) -> set[str]:
    index, texts = task
    found: set[str] = set()
    for text in texts:
        found.update(_step(index, text))
    return found


def check_proof_levels(doc: dict[str, Any], jobs: int) -> str:
    """``check_proof`` with each strategy replayed level by level (a level: the positions with
    as many stones, each once up to symmetry, as the checker's own replay meets them once), each
    level's positions spread over ``jobs`` processes; the value it establishes. No position is
    checked twice (every move adds a stone, so a position is met in one level only)."""
    tasks: list[tuple[int, list[int]]] = []
    _SPLIT.clear()
    with _collecting(tasks):
        value = checker.check_proof(doc)
    starts: dict[int, set[str]] = {}
    for index, board in tasks:
        starts.setdefault(index, set()).add(checker.canonical(board, _SPLIT[index][1])[0])
    pool = multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else None
    try:
        for index, level in starts.items():
            while level:
                texts = sorted(level)
                size = max(1, min(20_000, len(texts) // (4 * jobs) + 1))
                chunks = [(index, texts[i : i + size]) for i in range(0, len(texts), size)]
                level = set()
                for found in pool.imap_unordered(_steps, chunks) if pool is not None else map(_steps, chunks):
                    level |= found
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    _SPLIT.clear()
    return value


def _centrality(board: list[int]) -> float:
    n = int(len(board) ** 0.5)
    stones = [p for p, v in enumerate(board) if v != EMPTY]
    return -sum(abs(p // n - (n - 1) / 2) + abs(p % n - (n - 1) / 2) for p in stones)


def read_lean(data: bytes) -> dict[str, Any]:
    """A proof document as ``json.loads`` reads it, except that arrays are tuples and equal
    arrays of strings (the pairs of the pairings, a few hundred kinds) one shared object: read
    with plain lists, a 7x7 pairing entry takes about 2 KB, and millions of them do not fit in
    memory. (Python's own JSON scanner, with its array parser wrapped; slower than the C one.)"""
    shared: dict[tuple[Any, ...], tuple[Any, ...]] = {}

    def parse_array(state: Any, scan_once: Any) -> tuple[tuple[Any, ...], int]:
        values, end = json.decoder.JSONArray(state, scan_once)
        array = tuple(values)
        if all(isinstance(v, str) for v in array):
            array = shared.setdefault(array, array)
        return array, end

    decoder = json.JSONDecoder()
    decoder.parse_array = parse_array  # type: ignore[assignment]
    decoder.scan_once = json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    text = (gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data).decode("ascii")
    return decoder.decode(text)  # type: ignore[no-any-return]


def test_the_lean_reader_reads_what_json_reads() -> None:
    search = searched(Rules(7, None, "x"), BLACK)
    doc = document(search, extract_strategy(search, WHITE, Limits()))
    data = gzip.compress(json.dumps(doc).encode())
    lean = read_lean(data)
    assert json.loads(json.dumps(lean)) == doc
    assert check_proof_levels(lean, jobs=1) == checker.check_proof(doc) == "unknown"
    pairings = [e for e in lean["proofs"][0]["strategy"].values() if isinstance(e, tuple)]
    assert pairings and pairings[0][0] is next(p for e in pairings[1:] for p in e if p == pairings[0][0])


def main() -> None:
    parser = argparse.ArgumentParser(description="Check Baikago proof files, split over processes.")
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    for path in args.files:
        started = time.perf_counter()
        doc = read_lean(Path(path).read_bytes())
        print(f"{path}: read in {time.perf_counter() - started:.1f} s", flush=True)
        started = time.perf_counter()
        value = check_proof_levels(doc, args.jobs)
        sizes = ", ".join(f"{len(p.get('strategy', p.get('pairing', []))):,}" for p in doc["proofs"])
        print(f"{path}: value {value} ({sizes} positions), checked in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
