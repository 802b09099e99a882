"""The df-pn search's own kernels against plain-Python twins: the pairing search (does a pairing
exist?) and the moves it leaves out because they lose at once to a double four, or to a line of
fours (the twin of ``tests/reference.py`` finds the line again after each of them)."""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardpuzzles._kernels import baikago_solve as kernels
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.baikago.dfpn import Search
from boardpuzzles.puzzles.baikago.proof import Claim, Solution, extract_strategy
from boardpuzzles.puzzles.baikago.rules import Rules
from boardpuzzles.puzzles.baikago.solve import NoThreatWin, Solver
from tests import reference
from tests.test_baikago_solve import (
    BLACK,
    EMPTY,
    POSITIONS_5,
    WHITE,
    all_crosses,
    board_of,
    check_pairing,
    check_proof,
    solve,
)


def counts(board: list[int], rules: Rules) -> np.ndarray:
    table = rules.table
    cnt = np.zeros((3, len(table)), dtype=np.int16)
    stones = np.asarray(board, dtype=np.int8)[table.cells]
    cnt[BLACK] = (stones == BLACK).sum(axis=1)
    cnt[WHITE] = (stones == WHITE).sum(axis=1)
    return cnt


@st.composite
def positions(draw: Any, n: int, most: int) -> list[int]:
    """A board of n x n with up to ``most`` stones, as alternate play leaves them."""
    points = draw(st.permutations(range(n * n)))
    stones = draw(st.integers(0, most))
    board = [EMPTY] * (n * n)
    for i, p in enumerate(points[:stones]):
        board[p] = BLACK if i % 2 == 0 else WHITE
    return board


# -------------------------------------------------------------------- pairings
def pairing_exists(board: list[int], n: int, defender: int) -> bool:
    """Exhaustively: is there a set of disjoint pairs of empty points with a pair inside every
    cross that holds no stone of the defender? (Only pairs inside such a cross can help, so the
    search tries every pair of the uncovered cross with the fewest pairs left.)"""
    crosses = [c for c in all_crosses(n, None, "+x") if not any(board[p] == defender for p in c)]

    @functools.lru_cache(maxsize=None)
    def solve(used: frozenset[int], left: tuple[int, ...]) -> bool:
        if not left:
            return True
        options = [
            [(a, b) for a, b in itertools.combinations(sorted(crosses[i]), 2) if {a, b}.isdisjoint(used)] for i in left
        ]
        options = [[(a, b) for a, b in pairs if board[a] == EMPTY and board[b] == EMPTY] for pairs in options]
        for a, b in min(options, key=len):
            rest = tuple(i for i in left if not {a, b} <= crosses[i])
            if solve(used | {a, b}, rest):
                return True
        return False

    return solve(frozenset(), tuple(range(len(crosses))))


@pytest.mark.nojit
@settings(max_examples=40)
@given(positions(4, 8), st.sampled_from([BLACK, WHITE]))
def test_the_pairing_search_finds_a_pairing_exactly_when_one_exists(board: list[int], attacker: int) -> None:
    rules = Rules(4)
    table = rules.table
    partner = np.empty(16, dtype=np.int32)
    found = kernels.pairing_search(
        np.asarray(board, dtype=np.int8),
        counts(board, rules),
        table.cells,
        table.through,
        table.through_count,
        attacker,
        partner,
        1_000_000,
    )
    defender = BLACK + WHITE - attacker
    assert found == (1 if pairing_exists(board, 4, defender) else 0)
    if found == 1:
        pairs = [(p, int(q)) for p, q in enumerate(partner) if q > p]
        check_pairing(board, pairs, defender, all_crosses(4, None, "+x"))


@st.composite
def pairing_positions(draw: Any) -> tuple[int, list[int]]:
    """A board of 5x5, 6x6 or 7x7 as alternate play leaves it, with enough stones that the
    exhaustive search stays quick (7x7: at least 12)."""
    n = draw(st.sampled_from([5, 6, 7]))
    points = draw(st.permutations(range(n * n)))
    stones = draw(st.integers({5: 0, 6: 4, 7: 12}[n], {5: 12, 6: 18, 7: 26}[n]))
    board = [EMPTY] * (n * n)
    for i, p in enumerate(points[:stones]):
        board[p] = BLACK if i % 2 == 0 else WHITE
    return n, board


@pytest.mark.nojit
@settings(max_examples=60, deadline=None)
@given(pairing_positions(), st.sampled_from([BLACK, WHITE]))
def test_the_pairing_search_is_complete_and_its_pairings_hold_on_larger_boards(
    case: tuple[int, list[int]], attacker: int
) -> None:
    """With a budget it does not reach, the search answers 1 exactly where the exhaustive
    search finds a pairing (and its pairing holds: disjoint pairs of empty points, one inside
    every cross without a defender's stone) and 0 elsewhere; with small budgets it gives the
    same answer or -1 (out of budget), and a pairing it finds holds."""
    n, board = case
    rules = Rules(n)
    table = rules.table
    partner = np.empty(n * n, dtype=np.int32)
    array, cnt = np.asarray(board, dtype=np.int8), counts(board, rules)
    args = (array, cnt, table.cells, table.through, table.through_count, attacker, partner)
    found = kernels.pairing_search(*args, 1_000_000)
    defender = BLACK + WHITE - attacker
    assert found == (1 if pairing_exists(board, n, defender) else 0)
    if found == 1:
        assert all(partner[p] == -2 for p in range(n * n) if board[p] != EMPTY)
        assert all(partner[partner[p]] == p for p in range(n * n) if partner[p] >= 0)
        pairs = [(p, int(q)) for p, q in enumerate(partner) if q > p]
        check_pairing(board, pairs, defender, all_crosses(n, None, "+x"))
    for budget in (1, 7, 40):
        small = kernels.pairing_search(*args, budget)
        assert small in (found, -1)
        if small == 1:
            pairs = [(p, int(q)) for p, q in enumerate(partner) if q > p]
            check_pairing(board, pairs, defender, all_crosses(n, None, "+x"))


# -------------------------------------------------------------------- double fours
def fours(board: list[int], colour: int, crosses: Any) -> set[int]:
    """The fifth points of ``colour``'s fours."""
    found = set()
    for cross in crosses:
        stones = [board[p] for p in cross]
        if stones.count(colour) == 4 and stones.count(EMPTY) == 1:
            found.add(next(p for p in cross if board[p] == EMPTY))
    return found


def loses_at_once(board: list[int], me: int, move: int, crosses: Any) -> bool:
    """After my ``move`` (with no four of mine), some stone of the opponent makes two fours."""
    them = BLACK + WHITE - me
    board = list(board)
    board[move] = me
    if fours(board, me, crosses):
        return False
    for x in (p for p in range(len(board)) if board[p] == EMPTY):
        board[x] = them
        double = len(fours(board, them, crosses)) >= 2
        board[x] = EMPTY
        if double:
            return True
    return False


@settings(max_examples=60)
@given(positions(6, 16), st.sampled_from([BLACK, WHITE]))
def test_only_moves_that_lose_to_a_double_four_are_left_out(board: list[int], me: int) -> None:
    rules = Rules(6)
    crosses = all_crosses(6, None, "+x")
    them = BLACK + WHITE - me
    if fours(board, me, crosses) or fours(board, them, crosses):
        return  # the search answers fours before it asks
    allowed = np.ones(36, dtype=np.bool_)
    left = kernels.must_answer(np.asarray(board, dtype=np.int8), counts(board, rules), _tables(rules), me, allowed)
    empty = [p for p in range(36) if board[p] == EMPTY]
    if left < 0:
        # no double-four point: no move of mine loses to one at once
        assert not any(_double_four_point(board, them, crosses))
        return
    assert left == sum(bool(allowed[p]) for p in empty)
    for p in empty:
        if not allowed[p]:
            assert loses_at_once(board, me, p, crosses), p


def _double_four_point(board: list[int], colour: int, crosses: Any) -> list[int]:
    board = list(board)
    found = []
    for x in (p for p in range(len(board)) if board[p] == EMPTY):
        board[x] = colour
        if len(fours(board, colour, crosses)) >= 2:
            found.append(x)
        board[x] = EMPTY
    return found


def _tables(rules: Rules) -> Any:

    return Search(rules, BLACK, tt_bits=10).tables


def test_the_double_four_test_sees_positions_with_threats() -> None:
    """The property above meets positions where moves are left out (else it tests nothing)."""
    rules = Rules(6)
    board = [EMPTY] * 36
    # black: three stones on each of the + crosses centred on the empty c4 with d = 1 and d = 2,
    # whose fifth points differ (c3, c2): black on c4 makes two fours
    for name in ("b4", "d4", "c5", "a4", "e4", "c6"):
        board[rules.grid.cell_named(name)] = BLACK
    for name in ("a1", "f6", "a6", "f1", "f2", "e6"):
        board[rules.grid.cell_named(name)] = WHITE
    allowed = np.ones(36, dtype=np.bool_)
    crosses = all_crosses(6, None, "+x")
    assert _double_four_point(board, BLACK, crosses)
    left = kernels.must_answer(np.asarray(board, dtype=np.int8), counts(board, rules), _tables(rules), WHITE, allowed)
    # white's moves on either cross (c4, c3, c2) are left; every other one loses at once
    assert left == 3 and {rules.grid.name(p) for p in range(36) if allowed[p] and board[p] == EMPTY} == {
        "c4",
        "c3",
        "c2",
    }
    assert all(loses_at_once(board, WHITE, p, crosses) for p in range(36) if board[p] == EMPTY and not allowed[p])


# -------------------------------------------------------------------- lines of fours
@st.composite
def crowded(draw: Any, n: int) -> tuple[list[int], int]:
    """A board where the opponent of ``me`` has many stones (lines of fours are common)."""
    me = draw(st.sampled_from([BLACK, WHITE]))
    points = draw(st.permutations(range(n * n)))
    theirs, mine = draw(st.integers(6, 12)), draw(st.integers(2, 8))
    board = [EMPTY] * (n * n)
    for p in points[:theirs]:
        board[p] = BLACK + WHITE - me
    for p in points[theirs : theirs + mine]:
        board[p] = me
    return board, me


def check_line(board: list[int], line: list[int], attacker: int, crosses: Any) -> None:
    """The attacker's moves each make one four whose fifth point is the next reply (which makes no
    four of the defender's); the last makes two fours with different fifth points."""
    board = list(board)
    defender = BLACK + WHITE - attacker
    for i, p in enumerate(line):
        assert board[p] == EMPTY
        board[p] = attacker if i % 2 == 0 else defender
        if i % 2 == 1:
            assert not fours(board, defender, crosses)
        elif i == len(line) - 1:
            assert len(fours(board, attacker, crosses)) >= 2
        else:
            assert fours(board, attacker, crosses) == {line[i + 1]}


@settings(max_examples=80)
@given(crowded(6))
def test_moves_left_out_for_a_line_of_fours_lose_to_one(case: tuple[list[int], int]) -> None:
    board, me = case
    rules = Rules(6)
    crosses = all_crosses(6, None, "+x")
    them = BLACK + WHITE - me
    if fours(board, me, crosses) or fours(board, them, crosses) or _double_four_point(board, them, crosses):
        return  # answered before: fours, and double-four points (must_answer)
    array, cnt, tables = np.asarray(board, dtype=np.int8), counts(board, rules), _tables(rules)
    line = np.empty(38, dtype=np.int64)
    length = kernels._vcf_line(tables, array, cnt, them, 100_000, line)
    assert list(array) == board and (cnt == counts(board, rules)).all()  # left as it was
    if length < 0:
        assert not reference.baikago_vcf(list(board), crosses, them, 18)
        return
    check_line(board, [int(p) for p in line[:length]], them, crosses)
    allowed = np.ones(36, dtype=np.bool_)
    left = kernels.vcf_answers(array, cnt, tables, me, allowed, 100_000)
    assert left == sum(1 for p in range(36) if board[p] == EMPTY and allowed[p])
    for p in (p for p in range(36) if board[p] == EMPTY and not allowed[p]):
        after = list(board)
        after[p] = me
        assert not fours(after, me, crosses) and reference.baikago_vcf(after, crosses, them, 18), p


# -------------------------------------------------------------------- the pairing test's gate
def promise(board: list[int], n: int, attacker: int) -> int:
    """``pairing_promise`` by its definition, in percent (rounded down)."""
    defender = BLACK + WHITE - attacker
    live = [c for c in all_crosses(n, None, "+x") if not any(board[p] == defender for p in c)]
    if not live:
        return 1000
    total = 0
    for p in (p for p in range(n * n) if board[p] == EMPTY):
        shared = [sum(1 for c in live if p in c and q in c) for q in range(n * n) if q != p and board[q] == EMPTY]
        total += max(shared, default=0)
    return 50 * total // len(live)


@settings(max_examples=30)
@given(positions(7, 20), st.sampled_from([BLACK, WHITE]))
def test_the_pairing_promise_is_its_definition(board: list[int], attacker: int) -> None:
    rules = Rules(7)
    array = np.asarray(board, dtype=np.int8)
    assert kernels.pairing_promise(array, counts(board, rules), _tables(rules), attacker) == promise(board, 7, attacker)


def test_most_positions_with_a_pairing_pass_the_gate() -> None:
    """The gate skips the pairing test where its promise is low: it is a guess, not a proof, but
    of the pairing leaves of the 7x7 proof (a sample of 1,000; its walk tests pairings without
    the gate) at least 95% pass it, while the empty 8x8 board (no pairing) does not."""
    import gzip
    import json
    import random

    from tests.test_baikago_solve import RECORDED_SEVEN, board_of

    document = json.loads(gzip.decompress(RECORDED_SEVEN.read_bytes()))
    leaves = [k for k, v in document["proofs"][0]["strategy"].items() if not isinstance(v, str)]
    rules, tables = Rules(7), _tables(Rules(7))
    passed = 0
    for picture in random.Random(1).sample(leaves, min(1000, len(leaves))):
        board = board_of(picture)
        array = np.asarray(board, dtype=np.int8)
        passed += kernels.pairing_promise(array, counts(board, rules), tables, BLACK) >= kernels.PAIR_PROMISE
    assert passed >= 0.95 * min(1000, len(leaves))
    eight = [EMPTY] * 64
    assert kernels.pairing_promise(np.zeros(64, dtype=np.int8), counts(eight, Rules(8)), _tables(Rules(8)), BLACK) < (
        kernels.PAIR_PROMISE
    )


# -------------------------------------------------------------------- threats
def is_threat(board: list[int], me: int, move: int, crosses: Any) -> bool:
    """By the definition: after my ``move`` I have a four, or an empty point where my next stone
    makes two fours with different fifth points."""
    after = list(board)
    after[move] = me
    return bool(fours(after, me, crosses)) or bool(_double_four_point(after, me, crosses))


@settings(max_examples=60)
@given(crowded(6))
def test_threat_moves_are_the_threats_by_their_definition(case: tuple[list[int], int]) -> None:
    board, them = case  # the crowded side moves: it has the stones that make threats
    me = BLACK + WHITE - them
    rules = Rules(6)
    crosses = all_crosses(6, None, "+x")
    if fours(board, me, crosses) or fours(board, BLACK + WHITE - me, crosses) or _double_four_point(board, me, crosses):
        return  # the search plays or answers those before it asks for threats
    array, cnt, tables = np.asarray(board, dtype=np.int8), counts(board, rules), _tables(rules)
    found = [p for p in range(36) if board[p] == EMPTY and kernels.threat_move(tables, array, cnt, me, p)]
    assert list(array) == board and (cnt == counts(board, rules)).all()  # left as it was
    assert found == [p for p in range(36) if board[p] == EMPTY and is_threat(board, me, p, crosses)]


@pytest.mark.parametrize("picture", POSITIONS_5)
def test_a_threat_space_search_proves_only_real_wins(picture: str) -> None:
    """With the attacker held to threats, a win found is a win of the whole game: its strategy
    passes the checker, and the whole game's search gives the same winner."""

    rules = Rules(5)
    start = board_of(picture)
    winner = solve(rules, start=start, tt_bits=16).value
    for attacker in (BLACK, WHITE):
        search = Search(rules, attacker, tt_bits=16, pairing_budget=0)
        search.threats_from = 0
        board = np.asarray(start, dtype=np.int8)
        if search.solve(board, Limits())[0] != 0:
            continue  # no win by threats alone: says nothing about the whole game
        strategy = extract_strategy(search, attacker, Limits(), board)
        claim = Claim(attacker, True, attacker, strategy=strategy, nodes=search.nodes)
        document = Solution(rules, [claim], 0.0, start).to_json()
        assert check_proof(document) == winner == ("black" if attacker == BLACK else "white")


@pytest.mark.parametrize("picture", POSITIONS_5)
def test_solve_with_threats_proves_a_win_or_says_it_found_none(picture: str) -> None:
    """``solve(threats_from=F)``: a win comes with the attacker's strategy, which the checker
    replays, and the claim says how it was found; no win is NoThreatWin, never "cannot win"."""
    rules = Rules(5)
    start = board_of(picture)
    winner = solve(rules, start=start, tt_bits=16).value
    attacker = BLACK if picture.count("X") == picture.count("O") else WHITE  # the side to move
    try:
        found = solve(rules, start=start, tt_bits=16, pairings=False, attackers=(attacker,), threats_from=0)
    except NoThreatWin as none:
        assert (none.attackers, none.threats_from) == ((attacker,), 0) and none.nodes > 0
        return
    claim = found.claims[0]
    assert claim.wins and claim.threats_from == 0 and "found with threats from 0 stones on" in claim.method()
    assert check_proof(found.to_json()) == winner == found.value


def test_solve_with_threats_on_a_drawn_board_settles_nothing() -> None:
    with pytest.raises(NoThreatWin, match="no win that plays only threats from 4 stones on"):
        solve(Rules(6), pairings=False, attackers=(BLACK,), tt_bits=14, threats_from=4)
    solver = Solver(Rules(6), 14, None, False, (BLACK,), None, threats_from=4)
    with pytest.raises(NoThreatWin):
        solver.run(Limits())
    assert [s["state"] for s in solver.standing()] == ["no threat-space win"]  # never "disproved"


def test_threat_space_searches_find_wins_and_miss_some() -> None:
    """The test above sees wins found by threats alone, and the empty 6x6 board (a draw) has no
    threat-space win for black: held to threats from its third stone on, the search ends within
    10,000 nodes (about 800), where the whole game's, without pairings, runs past 3,000,000; held
    to threats from the first move on, no search of the empty board even starts."""

    found = 0
    for picture in POSITIONS_5:
        search = Search(Rules(5), BLACK if picture.count("X") == picture.count("O") else WHITE, 16, 0)
        search.threats_from = 0
        found += search.solve(np.asarray(board_of(picture), dtype=np.int8), Limits())[0] == 0
    assert found >= 2
    empty = np.zeros(36, dtype=np.int8)
    for threats_from, most in ((0, 1), (4, 10_000)):
        search = Search(Rules(6), BLACK, tt_bits=14, pairing_budget=0)
        search.threats_from = threats_from
        assert search.solve(empty, Limits())[1] == 0 and search.nodes <= most
