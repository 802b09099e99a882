"""Baikago on small boards: the solver's proofs, replayed by a checker that shares no code with it.

The checker (``check_proof``) reads a proof file and knows the game only through its own plain
geometry (``all_crosses``, compared with the judge's below): it replays each strategy from the
start position, follows *every* reply of the opponent, asks the strategy for the owner's move
(found through its own symmetry code), and checks that every line ends as the claim says. A
pairing is checked by its definition: disjoint pairs of empty points, and a pair inside every
cross that the pairing's player has not touched. The value of the small boards is also computed
by a plain minimax (``minimax_value``), the kernel's twin.

No published source gives these values (issue 16: "Nothing published says who wins Baikago on
any board"); the known answers here are the twin's and the checker's.
"""

from __future__ import annotations

import functools
import gzip
import json
import operator
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardpuzzles.cli import _run
from boardpuzzles.limits import Interrupted, Limits, TimeLimitReached
from boardpuzzles.puzzles.baikago.judge import crosses_of
from boardpuzzles.puzzles.baikago.rules import Rules
from boardpuzzles.puzzles.baikago.solve import Search, find_pairing, solve

EMPTY, BLACK, WHITE = 0, 1, 2
LETTER = {EMPTY: ".", BLACK: "X", WHITE: "O"}
NAME_OF = {"black": BLACK, "white": WHITE}


# -------------------------------------------------------------------- the checker's own game
@functools.lru_cache(maxsize=None)
def all_crosses(n: int, max_d: int | None, orientations: str) -> tuple[frozenset[int], ...]:
    """Every cross of the rules as a set of five points: a centre and four arms d away, along
    the lines (``+``) or the diagonals (``x``)."""
    steps = {"+": [(0, 1), (0, -1), (1, 0), (-1, 0)], "x": [(1, 1), (1, -1), (-1, 1), (-1, -1)]}
    found = []
    for r in range(n):
        for c in range(n):
            d = 1
            while r - d >= 0 and r + d < n and c - d >= 0 and c + d < n and (max_d is None or d <= max_d):
                for o in orientations:
                    found.append(frozenset([r * n + c] + [(r + a * d) * n + (c + b * d) for a, b in steps[o]]))
                d += 1
    return tuple(found)


@functools.lru_cache(maxsize=None)
def transforms(n: int) -> list[list[int]]:
    """The 8 symmetries of the square, each as ``image[p]``: where point p goes."""
    maps = []
    for flip in (False, True):
        for turns in range(4):
            image = []
            for p in range(n * n):
                r, c = divmod(p, n)
                if flip:
                    c = n - 1 - c
                for _ in range(turns):
                    r, c = c, n - 1 - r
                image.append(r * n + c)
            maps.append(image)
    return maps


_PICTURE_BYTES = bytes.maketrans(
    bytes([EMPTY, BLACK, WHITE]), "".join(LETTER[v] for v in (EMPTY, BLACK, WHITE)).encode()
)


@functools.lru_cache(maxsize=None)
def _gathers(n: int) -> list[tuple[Any, list[int]]]:
    """Per symmetry: a getter that reads the image's points off the board (the image's point q
    holds the board's point p where ``image[p] == q``), and the map itself."""
    found = []
    for image in transforms(n):
        source = [0] * (n * n)
        for p, q in enumerate(image):
            source[q] = p
        found.append((operator.itemgetter(*source), image))
    return found


def canonical(board: list[int], n: int) -> tuple[str, list[int]]:
    """The smallest of the 8 pictures of the board, and the map that gives it."""
    best: tuple[bytes, list[int]] | None = None
    for gather, image in _gathers(n):
        text = bytes(gather(board)).translate(_PICTURE_BYTES)
        if best is None or text < best[0]:
            best = (text, image)
    assert best is not None
    return best[0].decode("ascii"), best[1]


def point_named(name: str, n: int) -> int:
    """``b3``: column b (from the left), row 3 counted from the bottom."""
    col = ord(name[0]) - ord("a")
    row = n - int(name[1:])
    assert 0 <= col < n and 0 <= row < n, name
    return row * n + col


def winner(board: list[int], crosses: tuple[frozenset[int], ...]) -> int:
    for cross in crosses:
        colours = {board[p] for p in cross}
        if len(colours) == 1 and EMPTY not in colours:
            return colours.pop()
    return EMPTY


def check_pairing(board: list[int], pairs: list[tuple[int, int]], player: int, crosses: Any) -> None:
    points = [p for pair in pairs for p in pair]
    assert len(points) == len(set(points)), "pairs overlap"
    assert all(board[p] == EMPTY for p in points), "a pair on a stone"
    pair_sets = [set(pair) for pair in pairs]
    for cross in crosses:
        if any(board[p] == player for p in cross):
            continue
        assert any(pair <= cross for pair in pair_sets), f"cross {sorted(cross)} holds no pair"


def owner_fills_a_four(board: list[int], owner: int, cross_points: list[Any]) -> bool:
    """A cross with four of the owner's stones and its fifth point empty (the owner, to move,
    fills it: the line ends, and the strategy has no entry there)."""
    return any(
        stones.count(owner) == 4 and stones.count(EMPTY) == 1 for stones in (points(board) for points in cross_points)
    )


def check_strategy(proof: dict, start: list[int], n: int, crosses: Any, wins: bool) -> int:
    """Replay ``proof["strategy"]`` from ``start`` against every reply; the positions visited."""
    owner = NAME_OF[proof["player"]]
    opponent = BLACK + WHITE - owner
    strategy = proof["strategy"]
    done: set[str] = set()
    # each cross's five points read off a board at once (a proof of 7x7 has millions of positions)
    cross_points = [operator.itemgetter(*sorted(cross)) for cross in crosses]

    def visit(board: list[int]) -> None:
        for points in cross_points:
            stones = points(board)
            if stones[0] != EMPTY and stones.count(stones[0]) == 5:
                assert stones[0] == owner, f"{LETTER[stones[0]]} fills a cross in {''.join(LETTER[v] for v in board)}"
                return
        if EMPTY not in board:
            assert not wins, "the board filled up without the owner's win"
            return
        if not wins and all(owner in points(board) for points in cross_points):
            return  # the opponent can fill no cross any more
        to_move = BLACK if board.count(BLACK) == board.count(WHITE) else WHITE
        if to_move == owner and owner_fills_a_four(board, owner, cross_points):
            return  # before the look-up: most of a win's positions end so, and are not kept
        picture, image = canonical(board, n)
        if picture in done:
            return
        entry = strategy.get(picture)
        if isinstance(entry, (list, tuple)):  # a document as read from JSON, or as made
            assert not wins, "a pairing cannot prove a win"
            back = {image[p]: p for p in range(n * n)}
            pairs = [(back[point_named(a, n)], back[point_named(b, n)]) for a, b in entry]
            check_pairing(board, pairs, owner, crosses)
        elif to_move == owner:
            assert isinstance(entry, str), f"no move for {picture}"
            move = image.index(point_named(entry, n))
            assert board[move] == EMPTY, f"the strategy plays on a stone in {picture}"
            board[move] = owner
            visit(board)
            board[move] = EMPTY
        else:
            for p in range(n * n):
                if board[p] == EMPTY:
                    board[p] = opponent
                    visit(board)
                    board[p] = EMPTY
        done.add(picture)

    visit(list(start))
    return len(done)


def check_proof(document: dict) -> str:
    """Check every claim of a proof document; the value it establishes."""
    assert document["format"] == "baikago-proof/1" and document["game"] == "baikago"
    rules = document["rules"]
    n = rules["size"]
    crosses = all_crosses(n, rules["max_d"], rules["orientations"])
    start = [{".": EMPTY, "X": BLACK, "O": WHITE}[ch] for ch in document["start"]]
    assert len(start) == n * n and winner(start, crosses) == EMPTY
    established: dict[int, bool] = {}
    for proof in document["proofs"]:
        words = proof["claim"].split()
        colour, wins = NAME_OF[words[0]], words[1] == "wins"
        owner = NAME_OF[proof["player"]]
        assert owner == (colour if wins else BLACK + WHITE - colour)
        if "pairing" in proof:
            assert not wins
            pairs = [(point_named(a, n), point_named(b, n)) for a, b in proof["pairing"]]
            check_pairing(start, pairs, owner, crosses)
        else:
            check_strategy(proof, start, n, crosses, wins)
        established[colour] = wins
    value = document["value"]
    if value == "unknown":  # one side searched, no win found
        assert list(established.values()) == [False]
    elif value == "draw":
        assert established == {BLACK: False, WHITE: False}
    else:
        assert established.get(NAME_OF[value]) is True
    return value


#: ``boardpuzzles baikago solve 7 --proof FILE`` as it wrote it (both searches). A test replays it
#: with ``baikago verify`` (``tests/test_baikago_verify.py``); this module's checker replays it with
#: ``python -m tests.test_baikago_proof_kernel --jobs 2 records/baikago-7.json.gz``.
RECORDED_SEVEN = Path(__file__).resolve().parent.parent / "records" / "baikago-7.json.gz"


# -------------------------------------------------------------------- the twin: plain minimax
def minimax_value(n: int, start: list[int] | None = None, max_d: int | None = None, orientations: str = "+x") -> str:
    """The game's value by exhaustive search over symmetry classes (small boards only): black
    wins if black can force a cross, else white if white can, else a draw."""
    crosses = all_crosses(n, max_d, orientations)
    through = [[c for c in crosses if p in c] for p in range(n * n)]

    def can_win(attacker: int) -> bool:
        memo: dict[str, bool] = {}

        def wins(board: list[int], to_move: int) -> bool:
            if all(any(board[q] not in (EMPTY, attacker) for q in c) for c in crosses):
                return False  # every cross holds a stone of the other colour
            picture = canonical(board, n)[0]
            if picture not in memo:
                results = []
                for p in range(n * n):
                    if board[p] != EMPTY:
                        continue
                    board[p] = to_move
                    if any(all(board[q] == to_move for q in c) for c in through[p]):
                        result = to_move == attacker
                    else:
                        result = wins(board, BLACK + WHITE - to_move)
                    board[p] = EMPTY
                    results.append(result)
                    if result == (to_move == attacker):
                        break  # the side to move has what it wants
                memo[picture] = (any if to_move == attacker else all)(results) if results else False
            return memo[picture]

        board = list(start) if start is not None else [EMPTY] * (n * n)
        return wins(board, BLACK if board.count(BLACK) == board.count(WHITE) else WHITE)

    for colour, name in ((BLACK, "black"), (WHITE, "white")):
        if can_win(colour):
            return name
    return "draw"


# -------------------------------------------------------------------- the checker's own checks
@pytest.mark.parametrize("n,max_d,orientations", [(3, None, "+x"), (5, None, "+x"), (6, 1, "+"), (7, 2, "x")])
def test_checker_crosses_match_the_judge(n: int, max_d: int | None, orientations: str) -> None:
    rules = Rules(n, max_d, orientations)
    full = crosses_of([BLACK] * (n * n), n, BLACK, rules)
    assert sorted(sorted(c.points) for c in full) == sorted(sorted(c) for c in all_crosses(n, max_d, orientations))


def test_checker_refuses_a_broken_pairing() -> None:
    document = solve(Rules(4)).to_json()
    proof = document["proofs"][0]
    assert "pairing" in proof
    first = all_crosses(4, None, "+x")[0]
    kept = [pair for pair in proof["pairing"] if not {point_named(p, 4) for p in pair} <= first]
    assert len(kept) < len(proof["pairing"])
    proof["pairing"] = kept
    with pytest.raises(AssertionError):
        check_proof(document)


def test_checker_refuses_a_broken_strategy() -> None:
    document = solve(Rules(3), pairings=False).to_json()
    proof = document["proofs"][0]
    assert proof["claim"] == "black cannot win" and proof["player"] == "white"
    check_proof(document)
    # White's answer to black's centre stone (the smallest picture of that class) is lost:
    # the checker must notice the hole in the strategy.
    del proof["strategy"]["....X...."]
    with pytest.raises(AssertionError, match="no move"):
        check_proof(document)


def test_checker_refuses_a_wrong_value() -> None:
    document = solve(Rules(3)).to_json()
    document["value"] = "black"
    with pytest.raises(AssertionError):
        check_proof(document)


# -------------------------------------------------------------------- the small boards
@pytest.mark.parametrize("n", [3, 4, 5])
def test_small_boards_are_draws_by_pairing(n: int) -> None:
    solution = solve(Rules(n))
    document = json.loads(solution.proof_bytes(compress=False))
    assert check_proof(document) == "draw"
    assert all("pairing" in proof for proof in document["proofs"])


@pytest.mark.parametrize("n", [3, 4])
def test_search_proves_the_draw_without_pairings(n: int) -> None:
    solution = solve(Rules(n), pairings=False)
    document = json.loads(gzip.decompress(solution.proof_bytes(compress=True)))
    assert check_proof(document) == "draw"
    assert all("strategy" in proof for proof in document["proofs"])
    assert all(claim.nodes > 0 for claim in solution.claims)


@pytest.mark.nojit
@pytest.mark.parametrize("n", [3, 4])
def test_twin_agrees_on_the_empty_board(n: int) -> None:
    assert minimax_value(n) == solve(Rules(n), pairings=False).value == "draw"


def board_of(picture: str) -> list[int]:
    return [{".": EMPTY, "X": BLACK, "O": WHITE}[ch] for ch in picture]


#: Positions part-way through games (found by sampling random positions): wins for either side,
#: a four to answer, and draws.
POSITIONS_4 = [
    "XX..OX..X.XOO.OO",
    "X..OXX.XXO.O..O.",
    "OXOOX.X...X....O",
    ".XOO..X..X..XO.O",
    "OX..O.XO..XX.O..",
    "X...O...........",
    ".X..O......O.X..",
]
POSITIONS_5 = [
    ".O...O.O.XX.......O.X.X.X",
    "..O..O.O....XOXO..X.XXX.O",
    "....XO..X.....O.X.XO..XOO",
    "XO.X..O.XX.X.XO...O.O.O..",
    "O.O.O.XX....XX.....O.XO..",
]


@pytest.mark.nojit
@pytest.mark.parametrize("picture", POSITIONS_4)
@pytest.mark.parametrize("pairings", [True, False])
def test_twin_agrees_from_positions(picture: str, pairings: bool) -> None:
    """From 4x4 positions the kernel's value (with its proof replayed) is the twin's."""
    start = board_of(picture)
    solution = solve(Rules(4), start=start, tt_bits=14, pairings=pairings)
    assert check_proof(solution.to_json()) == solution.value == minimax_value(4, start)


@pytest.mark.parametrize("picture", POSITIONS_5)
def test_wins_on_5x5_positions_are_checked(picture: str) -> None:
    solution = solve(Rules(5), start=board_of(picture), tt_bits=16)
    assert solution.value != "draw"
    assert check_proof(solution.to_json()) == solution.value


#: A 5x5 position whose searches (pairings off) need thousands of entries: a table of 2^11 or
#: 2^12 forces replacement all through them.
CROWDED_5 = "............O.XO....X...."


@pytest.mark.parametrize("attacker", [BLACK, WHITE])
def test_a_small_table_still_ends_the_search(attacker: int) -> None:
    """Replacement in a full bucket once let two children of a node throw each other's entry
    away for ever (each read back as unexplored): the search never ended (3,000,000 nodes and
    on, where 2^11 slots now need at most about 110,000)."""
    search = Search(Rules(5), attacker, tt_bits=11, pairing_budget=0)
    search.budget_end = 2_000_000
    pn, dn = search.solve(np.array(board_of(CROWDED_5), dtype=np.int8), Limits())
    assert (pn, dn) == (search.k.INF, 0)  # neither side wins: see the checked proof below


def test_a_full_bucket_gives_up_its_cheapest_entry() -> None:
    """While searching, a full bucket gives up the entry that cost least to compute, a settled
    one counted at SETTLED_WEIGHT times its work. Open entries used to go first whatever their
    cost: on 8x8, with the table full and seven in ten entries settled, the entries of the root's
    children (millions of nodes of work each) were thrown away for the entries of cheap new
    nodes. A proof's extraction (KEEP_SETTLED) reads settled entries back, so there every open
    entry goes first."""
    k = Search(Rules(4), BLACK, tt_bits=10).k
    inf = k.INF

    def bucket(entries: list[tuple[int, int, int]], settled_weight: int) -> set[int]:
        tt = Search(Rules(4), BLACK, tt_bits=10).tt
        for i, (pn, dn, work) in enumerate(entries):  # keys 1024, 2048, ...: all in bucket 0
            k.tt_store(tt, np.uint64(1024 * (i + 1)), pn, dn, work, 0, settled_weight)
        k.tt_store(tt, np.uint64(1024 * 9), 5, 5, 1, 0, settled_weight)
        return {int(key) // 1024 for key in tt.key[: k.BUCKET]}

    searching = k.SETTLED_WEIGHT
    assert searching == 4
    # an open entry that took a million nodes stays; the settled one that took 10 goes
    assert bucket([(7, 9, 1_000_000), (0, inf, 10), (inf, 0, 20), (0, inf, 30)], searching) == {1, 3, 4, 9}
    # an open entry that took 30 nodes goes before a settled one that took 10 (40 by its weight)
    assert bucket([(7, 9, 30), (0, inf, 10), (inf, 0, 20), (0, inf, 1_000)], searching) == {2, 3, 4, 9}
    # extracting: the open entry goes, however much it cost
    assert bucket([(7, 9, 1_000_000), (0, inf, 10), (inf, 0, 20), (0, inf, 30)], k.KEEP_SETTLED) == {2, 3, 4, 9}
    # with no open entry, the cheapest settled one
    assert bucket([(0, inf, 40), (0, inf, 10), (inf, 0, 20), (0, inf, 30)], k.KEEP_SETTLED) == {1, 3, 4, 9}


def test_a_small_table_gives_a_checked_proof() -> None:
    """With entries replaced, a position's own entry may say it is won while the entry of the
    child that won it is gone: the strategy is still found (by the children's own searches)
    and passes the checker."""
    solution = solve(Rules(5), start=board_of(CROWDED_5), tt_bits=12, pairings=False, node_limit=2_000_000)
    assert check_proof(solution.to_json()) == solution.value == "draw"


def test_values_of_the_positions_differ() -> None:
    """The position tests see both winners and draws (else they would test less than they say)."""
    values = {minimax_value(4, board_of(p)) for p in POSITIONS_4}
    assert values == {"black", "white", "draw"}, values


@pytest.mark.nojit
def test_kernel_pairing_is_a_pairing() -> None:
    for n in (3, 4, 5, 6):
        pairs = find_pairing(Rules(n))
        assert pairs is not None
        check_pairing([EMPTY] * (n * n), pairs, WHITE, all_crosses(n, None, "+x"))
    assert find_pairing(Rules(7)) is None  # the complete search finds none (see docs/records.md)


def test_stop_flag_interrupts_the_search() -> None:
    """Ctrl-C sets the run's stop flag (``Limits.stop``): the kernel returns, the wrapper raises."""
    search = Search(Rules(7), BLACK, tt_bits=16)
    limits = Limits()
    timer = threading.Timer(0.3, limits.stop)
    timer.start()
    with pytest.raises(Interrupted):
        search.solve(np.zeros(49, dtype=np.int8), limits)
    timer.join()
    assert search.nodes > 0


def test_time_limit_stops_the_search() -> None:
    search = Search(Rules(7), BLACK, tt_bits=16)
    limits = Limits(0.3)
    with pytest.raises(TimeLimitReached):
        search.solve(np.zeros(49, dtype=np.int8), limits)
    assert search.nodes > 0


def test_cli_solve_writes_a_checked_proof(tmp_path: Any, capsys: Any) -> None:
    path = tmp_path / "four.json.gz"
    code = _run(["baikago", "solve", "4", "--proof", str(path), "--no-pairings"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith("4x4, + and x crosses, any d: a draw")
    assert check_proof(json.loads(gzip.decompress(path.read_bytes()))) == "draw"
    assert _run(["baikago", "solve", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == "draw"


def test_cli_solve_one_side(tmp_path: Any, capsys: Any) -> None:
    path = tmp_path / "four-white.json"
    assert _run(["baikago", "solve", "4", "--side", "white", "--no-pairings", "--proof", str(path)]) == 0
    out = capsys.readouterr().out
    assert "white cannot win (the other side was not searched)" in out
    document = json.loads(path.read_text())
    assert [p["claim"] for p in document["proofs"]] == ["white cannot win"]
    assert check_proof(document) == "unknown"


def test_a_strategy_stops_where_any_image_of_the_position_has_a_pairing() -> None:
    # The search tests a pairing (within a budget) on whichever image of a position it reached;
    # the extraction tried the board's own image only, went on below positions the search had
    # settled by a pairing, and searched them again: on 7x7 with white attacking, 3.2 M extra
    # nodes and a strategy of 329,332 positions instead of a few hundred.
    from boardpuzzles.puzzles.baikago.rules import BLACK, WHITE
    from boardpuzzles.puzzles.baikago.solve import Claim, Solution, extract_strategy

    rules = Rules(7)
    search = Search(rules, WHITE)
    board = np.zeros(49, dtype=np.int8)
    limits = Limits(120)
    try:
        assert search.solve(board, limits)[1] == 0  # white cannot win
        nodes = search.nodes
        strategy = extract_strategy(search, BLACK, limits, board)
    finally:
        limits.close()
    # the walk searches only the positions the search never met (white's moves it left out as
    # lost at once to a double four or a line of fours): a few hundred nodes, not millions
    assert search.nodes - nodes < nodes
    assert len(strategy) < 2_000
    claim = Claim(WHITE, False, BLACK, strategy=strategy, nodes=nodes)
    assert check_proof(json.loads(Solution(rules, [claim], 0.0).proof_bytes(compress=False))) == "unknown"


def test_cli_solve_reports_the_extraction(capsys: Any, monkeypatch: Any) -> None:
    # A long proof's extraction (7x7: hours) said nothing until it ended.
    from boardpuzzles.puzzles.baikago import proof
    from boardpuzzles.puzzles.baikago import solve as bs

    monkeypatch.setattr(proof, "REPORT_EVERY", 5)
    monkeypatch.setattr(bs, "REPORT_SECONDS", 0.0)
    assert _run(["baikago", "solve", "4", "--side", "black", "--no-pairings"]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("extracting")]
    assert lines and lines[0] == "extracting white's strategy: 5 positions visited, 2 kept", lines
    visited = [int(line.split()[3]) for line in lines]
    assert visited == sorted(visited) and len(set(visited)) == len(visited)


def test_cli_solve_bad_input_and_time_limit(capsys: Any) -> None:
    assert _run(["baikago", "solve", "16"]) == 2
    assert _run(["baikago", "solve", "7", "--orientations", "y"]) == 2
    assert _run(["baikago", "solve", "7", "--time-limit", "0.5"]) == 3
    err = capsys.readouterr().err
    assert "Traceback" not in err
    refused_size, refused_orientations, *standing, stopped = err.splitlines()
    assert refused_size.startswith("boardpuzzles: error: N must be") and "--orientations" in refused_orientations
    assert stopped == "stopped at the time limit (0.5 s); add --checkpoint FILE to keep the search for a later run"
    # how far it got: black's attack, the first search (none yet if the limit came before it)
    assert all(line.startswith("  black attacking: ") for line in standing), standing
