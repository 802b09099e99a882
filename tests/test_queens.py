"""Queens on the classic board and on the torus (HyperQueen).

Known answers come from tests/data/known_counts.md and OEIS:
A000170 (classic n-queens), A002562 (classic, up to the 8 symmetries of the square),
A051906 (torus), A071607 (torus with a queen on a fixed cell = A051906 / n),
A053994 (torus classes under rotation, reflection and shift), A062166 (also multipliers);
n = 23 from Rivin, Vardi, Zimmermann, Amer. Math. Monthly 101 (1994), as the OEIS entries quote it.
Every placement a test sees passes the independent checker.
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardpuzzles.errors import SizeError
from boardpuzzles.faults import messages
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import hyperqueen, queens
from boardpuzzles.puzzles.queens import Problem
from tests import reference


def check(n, placement, torus=False):
    return not queens.placement_violations(Problem(n, torus), placement)


def placements(n, torus=False, group=None):
    return list(queens.placements(Problem(n, torus, group)))


def count(n, torus=False, group=None, **limits):
    return queens.count(Problem(n, torus, group), Limits(**limits))


A000170 = {
    1: 1,
    2: 0,
    3: 0,
    4: 2,
    5: 10,
    6: 4,
    7: 40,
    8: 92,
    9: 352,
    10: 724,
    11: 2680,
    12: 14200,
    13: 73712,
    14: 365596,
    15: 2279184,
}
A002562 = {1: 1, 2: 0, 3: 0, 4: 1, 5: 2, 6: 1, 7: 6, 8: 12, 9: 46, 10: 92, 11: 341, 12: 1787, 13: 9233, 14: 45752}
A051906 = {1: 1, 5: 10, 7: 28, 11: 88, 13: 4524, 17: 140692, 19: 820496}
A053994 = {1: 1, 5: 1, 7: 1, 11: 2, 13: 11, 17: 97, 19: 354}
A062166 = {1: 1, 5: 1, 7: 1, 11: 2, 13: 7, 17: 26, 19: 46}
# n = 23: A051906, A053994, A062166, and the classes under the full group (1,533: ours, first
# found by the least-image method of `placements`, see docs/records.md).
TORUS_23 = (128850048, 31381, 2861, 1533)


# ---------------------------------------------------------------- the independent checker
def test_checker_accepts_a_known_solution_and_names_each_conflict():
    assert check(8, (0, 4, 7, 5, 2, 6, 1, 3))
    (problem,) = queens.placement_violations(Problem(4), (0, 1, 2, 3))
    assert problem.message == "a4, b3, c2 and d1 share a diagonal"
    assert problem.cells == (0, 5, 10, 15) and problem.lines == ((0, 5), (5, 10), (10, 15))
    assert messages(queens.placement_violations(Problem(3), (0, 0))) == ["2 rows given for the 3x3 board"]
    assert queens.placement_violations(Problem(3), (0, 5, 1))[0].message.startswith("row 1: column 5")
    # On the torus the diagonals wrap: a classic solution can fail there.
    assert check(6, (1, 3, 5, 0, 2, 4)) and not check(6, (1, 3, 5, 0, 2, 4), torus=True)


@given(st.integers(1, 7).flatmap(lambda n: st.tuples(st.just(n), st.permutations(range(n)))), st.booleans())
def test_checker_agrees_with_pairwise_attacks(case, torus):
    n, perm = case
    clash = any(
        reference.attacks(n, (r1, perm[r1]), (r2, perm[r2]), torus) for r1, r2 in itertools.combinations(range(n), 2)
    )
    assert check(n, perm, torus) == (not clash)


@pytest.mark.nojit
# ---------------------------------------------------------------- kernels against their twins
@pytest.mark.parametrize("torus", [False, True])
@pytest.mark.parametrize("n", range(1, 10))
def test_solutions_equal_the_reference_backtracker_in_order(n, torus):
    found = placements(n, torus)
    assert found == list(reference.queens_solutions(n, torus))
    assert all(check(n, p, torus) for p in found)
    assert count(n, torus) == len(found)
    boards = list(queens.solutions(Problem(n, torus)))
    assert [tuple(b.rows()[r].index("Q") for r in range(n)) for b in boards] == found


def test_solutions_survive_chunking_when_there_are_many():
    # 14200 placements do not fit one chunk: the generator splits by rows and keeps the order.
    found = placements(12)
    assert len(found) == A000170[12] and found == sorted(found)
    assert len(set(found)) == len(found)
    assert all(check(12, p) for p in found[::97])


@pytest.mark.nojit
@pytest.mark.parametrize(
    "n,torus,group",
    [(n, False, "dihedral") for n in range(1, 9)]
    + [(n, True, g) for n in (5, 7, 11) for g in ("torus", "multipliers", "full")],
)
def test_class_counts_equal_the_canonical_form_reference(n, torus, group):
    assert count(n, torus, group) == reference.class_count(n, torus, group)
    representatives = placements(n, torus, group)
    assert len(representatives) == reference.class_count(n, torus, group)
    assert all(check(n, p, torus) for p in representatives)


@pytest.mark.nojit
@pytest.mark.parametrize("n", [4, 6, 8, 9, 10, 12])
def test_the_torus_kernel_itself_finds_nothing_when_gcd_n_6_exceeds_1(n):
    # Polya's theorem, checked by search rather than assumed (hyperqueen skips the search).
    subtasks, unit = queens.count_subtasks(n, True)
    assert sum(s.weight * queens._count_work(s.spec, Limits()) for s in subtasks) == 0
    assert count(n, torus=True) == 0 and hyperqueen.polya_reason(n)
    assert placements(n, torus=True) == []


# ---------------------------------------------------------------- known answers
@pytest.mark.parametrize("n,expected", A000170.items())
def test_classic_counts_oeis_a000170(n, expected):
    assert count(n) == expected


@pytest.mark.parametrize("n,expected", A002562.items())
def test_classic_classes_oeis_a002562(n, expected):
    assert count(n, group="dihedral") == expected


@pytest.mark.parametrize("n,expected", A051906.items())
def test_torus_counts_oeis_a051906(n, expected):
    assert count(n, torus=True) == expected


@pytest.mark.parametrize("n,expected", A053994.items())
def test_torus_classes_oeis_a053994(n, expected):
    assert count(n, True, "torus") == expected


@pytest.mark.parametrize("n,expected", A062166.items())
def test_torus_classes_with_multipliers_oeis_a062166(n, expected):
    assert count(n, True, "multipliers") == expected


def test_full_group_classes_are_fewer_and_consistent():
    # Unpublished: the 45-degree map joins classes, so there can only be as many or fewer.
    for n in (5, 7, 11, 13):
        full = count(n, True, "full")
        assert 1 <= full <= A062166[n]


def test_thirteen_solutions_all_pass_the_checker():
    found = placements(13, torus=True)
    assert len(found) == A051906[13]
    assert all(check(13, p, torus=True) for p in found)
    # A071607: placements with a queen on a fixed cell = T(n) / n.
    assert sum(1 for p in found if p[0] == 0) == A051906[13] // 13


# ---------------------------------------------------------------- jobs, subtasks and sizes
@pytest.mark.parametrize("torus,n", [(False, 11), (True, 17)])
def test_the_answer_does_not_depend_on_jobs(torus, n):
    counts = {count(n, torus, jobs=j) for j in (1, 2, 3)}
    assert len(counts) == 1


def test_progress_reports_every_subtask_and_the_final_answer():
    seen = []
    total = count(13, torus=True, progress=lambda done, of, partial: seen.append((done, of, partial)))
    assert [d for d, _, _ in seen] == list(range(1, len(seen) + 1))
    assert seen[-1][0] == seen[-1][1] and seen[-1][2] == total


@pytest.mark.nojit
@pytest.mark.parametrize("torus", [False, True])
@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 8, 11])
def test_subtask_weights_add_up_to_the_whole(n, torus):
    # Symmetry stands in for work through weights; the weighted sum must be exact.
    subtasks, unit = queens.count_subtasks(n, torus)
    weighted = sum(s.weight * queens._count_work(s.spec, Limits()) for s in subtasks)
    assert weighted == unit * len(list(reference.queens_solutions(n, torus)))


def plain_border_starts(n):
    """The border starts one by one: every (t, b, l, r) whose queens agree, grouped with its
    images under the 8 symmetries (quarter turn: (n-1-l, n-1-r, b, t); mirror: (n-1-t, n-1-b, r, l))."""
    m = n - 1
    seen, starts, consistent = set(), [], 0
    for start in itertools.product(range(n), repeat=4):
        t, b, left, right = start
        cells = {(0, t), (m, b), (left, 0), (right, m)}
        corners_agree = (t == 0) == (left == 0) and (t == m) == (right == 0) and (b == 0) == (left == m)
        if not corners_agree or (b == m) != (right == m):
            continue
        if any(reference.attacks(n, p, q, False) for p, q in itertools.combinations(sorted(cells), 2)):
            continue
        consistent += 1
        if start in seen:
            continue
        images = set()
        for image in (start, (m - t, m - b, right, left)):
            for _ in range(4):
                images.add(image)
                image = (m - image[2], m - image[3], image[1], image[0])
        seen |= images
        starts.append((*min(images, key=lambda s: (plain_branching(n, s), s)), len(images)))
    return sorted(starts), consistent


def plain_branching(n, start):
    """The product of the open cells in the first n // 2 rows that the search fills (rows 1 to
    n-2 but the side queens'), given the four border queens alone."""
    m = n - 1
    t, b, left, right = start
    queens_ = [(0, t), (m, b), (left, 0), (right, m)]
    rows = [row for row in range(1, m) if row not in (left, right)][: n // 2]
    product = 1
    for row in rows:
        product *= sum(1 for c in range(n) if not any(reference.attacks(n, q, (row, c), False) for q in queens_))
    return product


@pytest.mark.parametrize("n", range(1, 12))
def test_border_starts_equal_the_one_by_one_construction(n):
    starts, consistent = plain_border_starts(n)
    assert queens.border_starts(n) == starts
    # The classes' weights add up to every start whose queens agree, each counted once.
    assert sum(w for *_, w in starts) == consistent


def test_the_border_search_limit_is_the_kernels():
    assert queens.BORDER_MAX_N == queens._kernels().BORDER_MAX_N


@pytest.mark.parametrize("bad", [0, -3, 63, 1000, 2.5, "7", True])
def test_impossible_sizes_are_refused(bad):
    with pytest.raises(SizeError):
        Problem(bad)
    with pytest.raises(SizeError):
        hyperqueen.problem(bad)


def test_polya_reason_says_why():
    assert "divisible by 3" in hyperqueen.polya_reason(9)
    assert "2 and 3" in hyperqueen.polya_reason(12)
    assert all(hyperqueen.polya_reason(n) is None for n in (1, 5, 7, 11, 13, 25))
    assert all((hyperqueen.polya_reason(n) is None) == (math.gcd(n, 6) == 1) for n in range(2, 40))


# ---------------------------------------------------------------- the torus: one search per orbit
def orbit_totals(n):
    """The orbit search's four sums over every least-image start: placements, and the classes
    under the torus, multipliers and full groups (one search gives all four)."""
    totals = [0, 0, 0, 0]
    for subtask in queens.torus_orbit_subtasks(n):
        _, _, _, a, c2, c3, last = subtask.spec
        out, steps = queens.torus_orbit_run(n, [(0, 0), (1, a), (2, c2), (3, c3), (n - 1, last)], Limits().flag)
        assert steps >= 0
        totals = [t + int(x) for t, x in zip(totals, out[:-1], strict=True)]  # out[-1]: the orbits
    return totals


def stabiliser_search(n):
    """The method before the orbit search (a queen on (0, 0), the 8 symmetries that keep it
    there, each placement weighted 8/N): an independent count, and its node count."""
    from boardpuzzles._kernels import queens_torus as kernels

    attack = queens.torus_attack_table(n)
    total = steps = 0
    for a in range(2, n // 2 + 1):
        found, nodes = kernels.torus_search(n, np.array([0, a], dtype=np.int64), attack, True, Limits().flag)
        total += n * int(found)
        steps += int(nodes)
    assert total % kernels.STABILISER_UNIT == 0
    return total // kernels.STABILISER_UNIT, steps


@pytest.mark.parametrize("n", [13, 17, 19])
def test_orbit_search_gives_every_published_count_at_once(n):
    placements_, torus_classes, multiplier_classes, full_classes = orbit_totals(n)
    assert (placements_, torus_classes, multiplier_classes) == (A051906[n], A053994[n], A062166[n])
    assert 1 <= full_classes <= multiplier_classes


@pytest.mark.parametrize("n", [5, 7, 11, 13, 17, 19])
def test_orbit_search_agrees_with_the_stabiliser_search(n):
    assert orbit_totals(n)[0] == stabiliser_search(n)[0]


def test_orbit_search_visits_fewer_nodes_than_the_stabiliser_search():
    # The point of the larger group: n = 19 has 8 * 19 * 19 * 18 symmetries, not 8 * 19.
    nodes = 0
    for subtask in queens.torus_orbit_subtasks(19):
        _, _, _, a, c2, c3, last = subtask.spec
        nodes += queens.torus_orbit_run(19, [(0, 0), (1, a), (2, c2), (3, c3), (18, last)], Limits().flag)[1]
    assert 0 < 3 * nodes < stabiliser_search(19)[1]


@pytest.mark.parametrize("n", [13, 17])
def test_full_group_classes_equal_the_least_image_listing(n):
    # Two methods: the orbit search's weights, and `placements`, which lists every placement in
    # row order and keeps those that are the least of their images under the whole group.
    assert count(n, True, "full") == sum(1 for _ in queens.placements(Problem(n, True, "full")))


@pytest.mark.slow
def test_orbit_search_n23_published_counts_and_our_full_group_classes():
    assert tuple(orbit_totals(23)) == TORUS_23


@pytest.mark.nojit
@pytest.mark.parametrize("n", [5, 7, 11])
def test_orbit_search_twin_equals_the_brute_force(n):
    # The kernel run as plain Python against the canonical-form reference.
    expected = [len(list(reference.queens_solutions(n, True)))]
    expected += [reference.class_count(n, True, g) for g in queens.TORUS_GROUPS]
    assert orbit_totals(n) == expected


# ---------------------------------------------------------------- the torus: the classes in order
def classes_in_order(n, group):
    """``hyperqueen solve --unique``'s placements (from the orbit search), in order."""
    return [
        tuple(cell % n for cell in sorted(board.occupied())) for board in hyperqueen.solutions(Problem(n, True, group))
    ]


@pytest.mark.parametrize("n", [5, 7, 11, 13])
@pytest.mark.parametrize("group", queens.TORUS_GROUPS)
def test_the_classes_in_order_are_the_least_images_of_every_placement(n, group):
    # Two methods: the orbit search's least images spread over each orbit's classes, and
    # `placements`, which lists every placement in row order and keeps the least of its images.
    assert classes_in_order(n, group) == placements(n, True, group)


@pytest.mark.slow
def test_the_classes_in_order_for_17_are_the_least_images_of_every_placement():
    assert classes_in_order(17, "torus") == placements(17, True, "torus")


@pytest.mark.parametrize("n,published", [(17, (97, 26)), (19, (354, 46))])
def test_the_classes_in_order_are_as_many_as_published_and_all_different(n, published):
    # OEIS A053994 (torus group) and A062166 (multipliers); full: as many as the count finds.
    for group, expected in zip(queens.TORUS_GROUPS, (*published, count(n, True, "full")), strict=True):
        found = classes_in_order(n, group)
        assert len(found) == len(set(found)) == expected
        assert found == sorted(found) and all(check(n, p, torus=True) for p in found)


@pytest.mark.nojit
def test_the_least_image_kernel_equals_the_grids_canonical_form():
    """The kernel's least image of every placement of 13 (and of 7) is the least of the grid's
    images of it under the group (the reference's canonical form: cells, not columns)."""
    from boardpuzzles._kernels.queens_torus import torus_least_image

    for n in (7, 13):
        grid = queens.Problem(n, True).grid
        for group in queens.TORUS_GROUPS:
            maps = grid.group(group).matrices()
            for perm in itertools.islice(reference.queens_solutions(n, True), 40):
                least, image = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
                torus_least_image(np.array(perm, dtype=np.int64), maps, image, least)
                # one queen a row: the sorted cells compare as the columns row by row
                cells = grid.canonical([r * n + c for r, c in enumerate(perm)], group)
                assert tuple(int(c) for c in least) == tuple(cell % n for cell in cells)


def test_the_first_class_comes_before_the_orbit_search_ends(monkeypatch):
    """Lazy: the first least image of 23 is given out once the starts below the next prefix of
    rows 0..3 are searched, not after all of them."""
    from boardpuzzles.puzzles.queens import torus

    runs = []
    search = torus.torus_orbit_run
    monkeypatch.setattr(torus, "torus_orbit_run", lambda *args: runs.append(1) or search(*args))
    first = next(hyperqueen.solutions(Problem(23, True, "torus")))
    assert first.occupied() and 0 < len(runs) < len(queens.torus_orbit_subtasks(23)) / 10


def test_a_stopped_listing_raises_at_once():
    from boardpuzzles.limits import Interrupted

    limits = Limits()
    limits.stop()
    with pytest.raises(Interrupted):
        next(hyperqueen.solutions(Problem(19, True, "torus"), limits))


@pytest.mark.slow
def test_the_classes_in_order_for_23_are_as_many_as_published():
    found = classes_in_order(23, "torus")
    assert len(found) == len(set(found)) == TORUS_23[1] and found == sorted(found)


@pytest.mark.parametrize("torus", [False, True])
def test_counts_are_checkpointed_under_the_protocols_identity(torus):
    # queens.count binds its checkpoint without reaching up to hyperqueen; the identities must agree.
    from boardpuzzles.puzzles.hyperqueen import PUZZLE as HYPERQUEEN

    problem = queens.Problem(7, torus)
    owner = HYPERQUEEN if torus else queens.PUZZLE
    assert queens.problem_identity(problem) == owner.problem_identity(problem)
    assert queens.problem_identity(problem) != owner.problem_identity(queens.Problem(5, torus))


def test_the_recorded_t29_checkpoint_gives_the_published_count(tmp_path, capsys):
    """records/hq29.db is bound to the plan of subtasks of T(29) (their specs, weights and the
    work function's module and name) and holds every one of them: a copy resumed prints the
    published value at once (OEIS A051906, Engelhardt: 605,917,055,356). Nothing is counted
    again here: tests/test_records_sample.py counts a sample of the subtasks afresh."""
    import json
    import shutil
    from pathlib import Path

    from boardpuzzles.cli import _run

    copy = tmp_path / "hq29.db"
    shutil.copyfile(Path(__file__).resolve().parent.parent / "records" / "hq29.db", copy)
    argv = ["hyperqueen", "count", "29", "--jobs", "1", "--checkpoint", str(copy), "--time-limit", "30", "--json"]
    assert _run(argv) == 0  # 3 would mean a subtask was missing, 2 that the file was refused
    document = json.loads(capsys.readouterr().out)
    assert document["count"] == 605_917_055_356 and document["complete"]


def test_the_recorded_q20_checkpoint_gives_the_published_count(tmp_path, capsys):
    """records/q20.db holds every subtask of the classic Q(20) count: a copy resumed prints the
    published value at once (OEIS A000170: 39,029,188,884), so the record can be printed again.
    Nothing is counted again here: tests/test_records_sample.py counts a sample afresh."""
    import json
    import shutil
    from pathlib import Path

    from boardpuzzles.cli import _run

    copy = tmp_path / "q20.db"
    shutil.copyfile(Path(__file__).resolve().parent.parent / "records" / "q20.db", copy)
    argv = ["queens", "count", "20", "--jobs", "1", "--checkpoint", str(copy), "--time-limit", "30", "--json"]
    assert _run(argv) == 0  # 3 would mean a subtask was missing, 2 that the file was refused
    document = json.loads(capsys.readouterr().out)
    assert document["count"] == 39_029_188_884 and document["complete"]
