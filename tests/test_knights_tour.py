"""Knight's tours: known counts (sources cited), kernels against the plain backtracking of
``reference.py``, the finder on every small board, the checker, and the command line."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardpuzzles.cli import _run
from boardpuzzles.errors import BoardPuzzlesError, ParseError, SizeError
from boardpuzzles.faults import messages
from boardpuzzles.grid import parse_size
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import knights_tour as kt
from boardpuzzles.puzzles.knights_tour import parse_tour
from tests.reference import knight_cycles, knight_tours


def count(rows, cols=None, start=None, closed=False, undirected=False, **limits):
    problem = kt.Problem(rows, rows if cols is None else cols, start, closed, undirected)
    return kt.count(problem, Limits(**limits))


def solutions(rows, cols=None, start=None, closed=False):
    return kt.solutions(kt.Problem(rows, rows if cols is None else cols, start, closed))


# ------------------------------------------------------------------ published counts
# tests/data/known_counts.md: directed open tours from every start (OEIS A165134), from a
# corner (304 is the seed article's own count), closed tours as cycles (OEIS A001230).


@pytest.mark.nojit
def test_the_seed_count_5x5_from_a_corner():
    assert count(5, start=0) == 304  # seed 002: "5x5 should give 304"
    assert count(5, start=24) == 304


def test_all_starts_match_oeis_a165134():
    assert count(5) == 1728
    assert count(6) == 6_637_920


# Per-start counts of 6x6 (directed), rows top to bottom: tests/data/known_counts.md.
SIX_BY_SIX_STARTS = [
    [524486, 289050, 115837, 115837, 289050, 524486],
    [289050, 173402, 49578, 49578, 173402, 289050],
    [115837, 49578, 52662, 52662, 49578, 115837],
]


@pytest.mark.parametrize("row", range(3))
def test_six_by_six_from_each_start(row):
    for col in range(row, 3):  # the rest follow by symmetry, which the all-starts count covers
        assert count(6, start=row * 6 + col) == SIX_BY_SIX_STARTS[row][col]


@pytest.mark.parametrize(
    ("rows", "cols", "directed"),
    [
        (3, 4, 16),
        (3, 7, 104),
        (3, 8, 792),
        (3, 9, 1120),
        (3, 10, 6096),  # OEIS A118067
    ],
)
def test_three_by_n_open_tours_a118067(rows, cols, directed):
    assert count(rows, cols) == directed
    assert count(cols, rows) == directed  # the same board turned


@pytest.mark.parametrize(("cols", "undirected"), [(5, 82), (6, 744), (7, 6378)])  # OEIS A079137
def test_four_by_n_undirected_a079137(cols, undirected):
    assert count(4, cols, undirected=True) == undirected


@pytest.mark.parametrize(("cols", "undirected"), [(6, 18784), (7, 622868)])  # OEIS A083386
def test_five_by_n_undirected_a083386(cols, undirected):
    assert count(5, cols, undirected=True) == undirected


@pytest.mark.parametrize(
    ("rows", "cols", "cycles"),
    [
        (6, 6, 9862),  # OEIS A001230
        (3, 10, 16),
        (3, 12, 176),  # OEIS A070030
        (5, 6, 8),
        (5, 8, 44202),  # OEIS A175855
    ],
)
def test_closed_tours_by_the_frontier_dp(rows, cols, cycles):
    assert kt.count_closed(rows, cols) == cycles
    assert kt.count_closed(cols, rows) == cycles


def test_closed_count_conventions():
    cycles = 9862
    assert count(6, closed=True, undirected=True) == cycles
    assert count(6, start=0, closed=True) == 2 * cycles  # both directions from one start
    assert count(6, closed=True) == 2 * 36 * cycles


@pytest.mark.parametrize(("rows", "cols"), [(3, 10), (5, 6), (6, 6), (5, 8), (3, 12)])
def test_dp_agrees_with_backtracking(rows, cols):
    # Two unrelated algorithms: the sweep over frontier states, and the listing of closed tours
    # from square 0 by the path search (each cycle seen in both directions).
    assert sum(1 for _ in solutions(rows, cols, start=0, closed=True)) == 2 * kt.count_closed(rows, cols)


@pytest.mark.nojit
def test_dp_agrees_with_plain_backtracking_on_3x10():
    assert kt.count_closed(3, 10) == knight_cycles(3, 10) == 16


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (3, 3), (4, 4), (4, 6), (5, 5), (7, 7), (3, 8), (2, 9)])
def test_no_closed_tours_where_theory_says_so(rows, cols):
    assert kt.no_tour_reason(rows, cols, closed=True)
    assert kt.count_closed(rows, cols) == 0


def test_the_answer_does_not_depend_on_jobs():
    assert count(6, jobs=1) == count(6, jobs=2) == 6_637_920
    seen = []
    count(5, 6, jobs=2, progress=lambda done, total, partial: seen.append((done, total, partial)))
    assert seen[-1][0] == seen[-1][1] and seen[-1][2] == count(5, 6)


@pytest.mark.nojit
# ------------------------------------------------------------------ kernels against the reference
@pytest.mark.parametrize(("rows", "cols", "starts"), [(3, 4, 12), (4, 3, 12), (3, 7, 21), (4, 5, 20), (4, 6, 3)])
def test_every_tour_matches_the_plain_backtracking(rows, cols, starts):
    for start in range(starts):
        ours = list(solutions(rows, cols, start=start))
        assert len(set(ours)) == len(ours)
        assert sorted(ours) == knight_tours(rows, cols, start)
        assert all(kt.check(rows, cols, t) for t in ours)
        assert len(ours) == count(rows, cols, start=start)


def test_small_batches_keep_the_listing_and_its_order():
    whole = list(kt._listed(5, 5, (0,), -1, Limits(), batch=4096))
    assert list(kt._listed(5, 5, (0,), -1, Limits(), batch=7)) == whole
    assert len(whole) == 304 and all(kt.check(5, 5, t) for t in whole)


def test_closed_listing_is_closed_and_complete():
    tours = list(solutions(6, start=0, closed=True))
    assert len(tours) == 2 * 9862
    assert len(set(tours)) == len(tours)
    assert all(kt.check(6, 6, t, closed=True) for t in tours[:500])


def test_solutions_is_lazy():
    first = next(solutions(6, start=0))
    assert kt.check(6, 6, first)


# ------------------------------------------------------------------ finding
@pytest.mark.parametrize("closed", [False, True])
def test_find_decides_every_small_board(closed):
    for rows in range(1, 11):
        for cols in range(1, 11):
            result = kt.find(rows, cols, closed=closed)
            assert result.complete
            exists = kt.no_tour_reason(rows, cols, closed) is None
            assert (result.tour is not None) == exists, (rows, cols, result)
            if result.tour is not None:
                assert kt.check(rows, cols, result.tour, closed)
            else:
                assert result.reason


def test_find_from_every_start_of_5x5_and_3x4():
    for rows, cols in ((5, 5), (3, 4)):
        for start in range(rows * cols):
            result = kt.find(rows, cols, start=start)
            has_tour = count(rows, cols, start=start) > 0
            assert (result.tour is not None) == has_tour
            if result.tour:
                assert result.tour[0] == start and kt.check(rows, cols, result.tour)


@settings(max_examples=25, deadline=None)
@given(rows=st.integers(5, 60), cols=st.integers(5, 60), closed=st.booleans(), data=st.data())
def test_find_on_random_boards(rows, cols, closed, data):
    start = data.draw(st.integers(0, rows * cols - 1))
    result = kt.find(rows, cols, closed=closed, start=start)
    if kt.no_tour_reason(rows, cols, closed, start):
        assert result.tour is None
    else:
        assert result.tour is not None and result.tour[0] == start
        assert kt.check(rows, cols, result.tour, closed)


def test_find_from_the_start_that_defeated_every_walk():
    # Found by test_find_on_random_boards: from b3 of 5x44 (the middle row, next to a short
    # edge) the two corners beside the start both claim the tour's last square, and all 20
    # walks from it failed; a closed tour cut open at the start is a tour from there.
    result = kt.find(5, 44, start=130)
    assert result.tour is not None and result.tour[0] == 130 and kt.check(5, 44, result.tour)
    assert "opened at the start" in result.method


def _thin_board_starts(rows, cols, closed):
    """Every start of an open tour; for closed tours (any start gives the same cycles, only the
    first walk begins there) the squares within three columns of a short edge, where walks
    fail, and every fifth square elsewhere."""
    for start in range(rows * cols):
        col = start % cols
        if closed and 3 <= col < cols - 3 and start % 5:
            continue
        if kt.no_tour_reason(rows, cols, closed, start) is None:
            yield start


@pytest.mark.parametrize("rows", [5, 6, 7, 8])
def test_find_from_every_start_of_thin_boards(rows):
    # Every board of 5 to 8 rows and 5 to 60 columns, open and closed, wherever the theorems
    # leave a tour (on these boards there is one from each such start: Conrad et al. 1994 for
    # open tours, Schwenk 1991 for closed ones).
    failed = []
    for cols in range(5, 61):
        for closed in (False, True):
            for start in _thin_board_starts(rows, cols, closed):
                tour = kt.find(rows, cols, closed=closed, start=start).tour
                if tour is None or tour[0] != start or not kt.check(rows, cols, tour, closed):
                    failed.append((rows, cols, closed, start))
    assert failed == []


def test_find_closes_a_tour_on_a_big_board():
    result = kt.find(200, 200, closed=True)
    assert result.tour is not None and kt.check(200, 200, result.tour, closed=True)


# ------------------------------------------------------------------ the checker
def test_violations_name_each_kind_of_problem():
    tour = list(kt.find(5, 5).tour)
    assert kt.tour_violations(5, 5, tour) == []
    jump = kt.tour_violations(5, 5, tour[:1] + tour[2:] + tour[1:2])[0]
    assert "not a knight's move" in jump.message and jump.cells == (tour[0], tour[2]) and jump.lines == (jump.cells,)
    twice = messages(kt.tour_violations(5, 5, tour[:-1] + tour[:1]))
    assert any("visited twice" in p for p in twice) and any("never visited" in p for p in twice)
    assert "not a square" in kt.tour_violations(5, 5, tour[:-1] + [25])[0].message
    assert any("not closed" in p for p in messages(kt.tour_violations(5, 5, tour, closed=True)))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_swapping_two_neighbouring_steps_breaks_a_tour(data):
    # Swapping steps i and i+1 puts step i+1 next to step i-1 (or i+2), two knight's moves from
    # it, so on the same colour: never a knight's move. (Swapping far-apart steps can give
    # another tour, so that is no property.) Repeating a square breaks a tour too.
    tour = list(kt.find(6, 6, start=data.draw(st.integers(0, 35))).tour)
    i = data.draw(st.integers(0, 34))
    swapped = tour[:i] + [tour[i + 1], tour[i]] + tour[i + 2 :]
    assert not kt.check(6, 6, swapped)
    j = data.draw(st.integers(0, 35).filter(lambda k: k != i))
    assert not kt.check(6, 6, tour[:j] + [tour[i]] + tour[j + 1 :])


def test_independent_checker_agrees_on_known_tour():
    # The seed article's tour of 5x5 (its picture, numbers 1..25, row by row).
    picture = """1 18 5 10 3
    6 11 2 19 14
    17 22 13 4 9
    12 7 24 15 20
    23 16 21 8 25"""
    assert kt.check(5, 5, kt.parse_tour(picture, 5, 5))


# ------------------------------------------------------------------ sizes and input
def test_parse_size():
    assert parse_size("6") == (6, 6)
    assert parse_size("3x8") == (3, 8)
    assert parse_size(" 4X5 ") == (4, 5)
    for bad in ("", "x", "3x", "-3", "3x8x2", "ax4"):
        with pytest.raises(ParseError):
            parse_size(bad)
    with pytest.raises(SizeError):
        parse_size("0x5")


def test_limits_are_refused_before_any_work():
    with pytest.raises(SizeError, match="64 squares"):
        count(9)
    with pytest.raises(SizeError, match="side of at most 8"):
        count(10, closed=True)
    with pytest.raises(BoardPuzzlesError, match="direction"):
        count(5, start=0, undirected=True)
    with pytest.raises(BoardPuzzlesError, match="off"):
        count(5, start=25)


def test_the_tables_list_knight_moves():
    moves, n_moves = kt.knight_moves(3, 4)
    reach = kt.reach_masks(3, 4)
    for v in range(12):
        listed = set(moves[v, : n_moves[v]].tolist())
        assert listed == {x for x in range(12) if (int(reach[v]) >> x) & 1}
        r, c = divmod(v, 4)
        assert listed == {x for x in range(12) if sorted((abs(x // 4 - r), abs(x % 4 - c))) == [1, 2]}
    assert kt.reach_masks(8, 8).dtype == np.int64


# ------------------------------------------------------------------ checkpoints of earlier versions
# Plan digests of checkpoint files written by boardpuzzles before Knight's Tour became a package
# (boardpuzzles knights-tour count ARGS --checkpoint FILE): files of earlier counts stay valid.
EARLIER_PLANS = [
    ((5, 5, 0, False, False), 304, "f72a9169ec22f334ee2f32f18c69031fc3a4268b703eaf6eaf08e0194a1812d6"),
    # Open counts from every start on narrow boards with many squares are swept now (another plan:
    # their earlier files are refused); below that they keep the search and its plan.
    ((5, 5, None, False, True), 864, "b40afa7ef8e13e93ed015515ae63240537c004644a3ee58d279c5f9362a7254a"),
    ((5, 6, None, True, False), 480, "a9a1bb9ae37aa2a0ed28d158bf780456875803b581cd1a9407645fd4e6992c23"),
]


@pytest.mark.parametrize(("args", "answer", "digest"), EARLIER_PLANS)
def test_checkpoints_of_earlier_versions_keep_their_plan(tmp_path, args, answer, digest):
    import sqlite3

    rows, cols, start, closed, undirected = args
    db = str(tmp_path / "c.db")
    kt._SWEEPS.clear()
    assert count(rows, cols, start, closed, undirected, checkpoint=db) == answer
    with sqlite3.connect(db) as connection:
        stored = connection.execute("SELECT value FROM meta WHERE key = 'plan_digest'").fetchone()[0]
    assert stored == digest
    assert kt._open_work.__module__ == kt._closed_piece.__module__ == "boardpuzzles.puzzles.knights_tour"


# ------------------------------------------------------------------ command line
def run(capsys, *args):
    code = _run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_solve_prints_numbered_boards(capsys):
    code, out, _ = run(capsys, "knights-tour", "solve", "5", "--start", "a1", "--limit", "2")
    assert code == 0
    boards = out.strip().split("\n\n")
    assert len(boards) == 2
    for b in boards:
        assert kt.check(5, 5, kt.parse_tour(b, 5, 5))
        assert b.splitlines()[-1].split()[0] == "1"  # a1 is bottom left


def test_cli_solve_json_lists_moves(capsys):
    code, out, _ = run(capsys, "knights-tour", "solve", "6", "--closed", "--limit", "2", "--json")
    document = json.loads(out)
    assert code == 0 and document["count"] == 2
    for item in document["solutions"]:
        assert kt.check(6, 6, parse_tour(" ".join(item["answer"]), 6, 6), closed=True)


def test_cli_count_and_its_conventions(capsys):
    assert run(capsys, "knights-tour", "count", "5", "--start", "a1")[1].strip() == "304"
    code, out, _ = run(capsys, "knights-tour", "count", "6", "--closed", "--undirected", "--json", "-q")
    assert code == 0 and json.loads(out)["count"] == 9862
    assert json.loads(out)["problem"] == {"rows": 6, "cols": 6, "start": None, "closed": True, "undirected": True}
    code, out, err = run(capsys, "knights-tour", "count", "6", "--closed", "--undirected")
    assert "each cycle once" in err
    code, out, err = run(capsys, "knights-tour", "count", "5", "--start", "b5")
    assert code == 0 and out.strip() == "0" and "colour" in err


def test_cli_find_and_svg(capsys, tmp_path):
    path = tmp_path / "tour.svg"
    code, out, err = run(capsys, "knights-tour", "find", "8", "--closed", "--svg", str(path))
    assert code == 0 and kt.check(8, 8, kt.parse_tour(out, 8, 8), closed=True)
    assert "closed tour of 8x8" in err
    assert "<polyline" in path.read_text()
    code, _, err = run(capsys, "knights-tour", "find", "4x9", "--closed")
    assert code == 1 and "Schwenk" in err


def test_cli_check(capsys, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text(kt.picture(5, 5, kt.find(5, 5).tour))
    assert run(capsys, "knights-tour", "check", "5", str(path))[0] == 0
    path.write_text("a1 b3 c5")
    code, out, _ = run(capsys, "knights-tour", "check", "5", str(path))
    assert code == 1 and "never visited" in out


@pytest.mark.parametrize(
    "args",
    [
        ["count", "6x"],
        ["count", "5", "--start", "z9"],
        ["count", "9"],
        ["count", "5", "--start", ""],
        ["solve", "abc"],
        ["find", "0"],
        ["count", "5", "--start", "a1", "--undirected"],
        ["find", "5000x5000"],
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(capsys, args):
    code, out, err = run(capsys, "knights-tour", *args)
    assert code == 2
    assert err.startswith("boardpuzzles: error:") and err.count("\n") == 1
