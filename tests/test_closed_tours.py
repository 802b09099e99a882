"""Closed knight's tours by the row sweep that meets in the middle (``_kernels.tour_sweep`` and
``tour_join``): published counts, the earlier one-word frontier counter and plain backtracking as
cross-checks, the memory bound, the saved layers a run resumes from, and the figures by row."""

import numpy as np
import pytest

from boardpuzzles.cli import _run
from boardpuzzles.errors import BoardPuzzlesError, SizeError
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.puzzles import knights_tour as kt
from boardpuzzles.puzzles.knights_tour import sharded
from boardpuzzles.puzzles.knights_tour.closed import halves
from boardpuzzles.puzzles.knights_tour.frontier import frontier_layers, layer_digest
from boardpuzzles.puzzles.knights_tour.meeting import pair_piece
from tests.reference import knight_cycles


def cycles(rows, cols):
    kt._SWEEPS.clear()  # the sweep itself, not the halves an earlier test left
    return kt.count_closed(rows, cols)


def one_word_sweep(rows, cols):
    """The earlier closed-tour counter (4 bits a square in one word, no halves, no mirror)."""
    from boardpuzzles._kernels.knights_tour import count_cycles

    narrow, wide = sorted((rows, cols))
    moves, n_moves = kt.knight_moves(wide, narrow)
    current, total, status = count_cycles(
        moves, n_moves, narrow, 10**8, np.array([[0, 1]], np.int64), 0, rows * cols, 0, np.zeros(1, np.int64)
    )
    assert status == 0
    return int(total)


# ------------------------------------------------------------------ published counts
# Closed tours as cycles (undirected, no start). A001230: n x n. A175881: 6 x n. A193055: 8 x n.
# A070030: 3 x 2n. 5 x 2n: the 5-row boards of A175855 (also in Knuth's A383661, first 2n cells
# of a 5 x k board, at 2n = 5k). 4 x n: none (Schwenk 1991).
PUBLISHED = [
    (6, 6, 9862),  # A001230
    (6, 5, 8),  # A175881
    (6, 7, 1_067_638),  # A175881
    (6, 8, 55_488_142),  # A175881, A193055
    (8, 5, 44_202),  # A193055
    (5, 10, 13_311_268),  # 5 x 2n
    (3, 10, 16),  # A070030
    (3, 12, 176),  # A070030
    (3, 14, 1_536),  # A070030
    (3, 16, 15_424),  # A070030
    (4, 8, 0),
]


@pytest.mark.parametrize(("rows", "cols", "published"), PUBLISHED)
def test_published_counts(rows, cols, published):
    assert cycles(rows, cols) == published
    assert cycles(cols, rows) == published


@pytest.mark.slow
def test_published_counts_of_longer_boards():
    assert cycles(6, 9) == 3_374_967_940  # A175881
    assert cycles(3, 18) == 147_728  # A070030


@pytest.mark.slow
def test_8x7_published_a193055():
    assert cycles(8, 7) == 34_524_432_316  # A193055 (and 7 x 8 in A193054)


@pytest.mark.parametrize(("rows", "cols"), [(5, 6), (6, 6), (3, 10), (3, 12), (5, 8), (3, 14)])
def test_agrees_with_the_one_word_sweep(rows, cols):
    assert cycles(rows, cols) == one_word_sweep(rows, cols)


@pytest.mark.nojit
def test_agrees_with_plain_backtracking():
    # The kernels run as plain Python in the nojit run; the backtracking shares nothing with them
    # (3x10 takes it 20 s; 5x6 several minutes, so 5x6 is checked against the one-word sweep).
    assert cycles(3, 10) == knight_cycles(3, 10) == 16
    assert cycles(3, 12) == 176  # A070030


def test_halves_meet_the_same_way_wherever_the_cut_is():
    # The top half runs to row (length - 1) // 2; a longer board moves the cut and the answer
    # still matches the published sequence on both sides of it (6 x 7 and 6 x 8 above).
    assert kt.closed_plan(8, 8) == (8, 8, 3, 3)
    assert kt.closed_plan(7, 8) == (7, 8, 3, 3)
    assert kt.closed_plan(6, 7) == (6, 7, 3, 2)
    assert kt.closed_plan(10, 3) == (3, 10, 4, 4)


def test_conventions_and_subtasks():
    kt._SWEEPS.clear()
    problem = kt.Problem(6, 6, closed=True)
    assert kt.count(problem, Limits(jobs=2)) == 2 * 36 * 9862
    seen = []
    kt._SWEEPS.clear()
    kt.count(kt.Problem(6, 8, closed=True, undirected=True), Limits(progress=lambda *a: seen.append(a)))
    assert len(seen) == kt.CLOSED_PIECES and seen[-1][2] == 55_488_142


# ------------------------------------------------------------------ figures, memory, resuming
def test_figures_by_row():
    assert cycles(6, 8) == 55_488_142
    report = kt.closed_sweep_report(6, 8)
    assert [r.row for r in report] == [1, 2, 3]
    assert [r.states for r in report] == [153, 2416, 25145]
    assert all(r.peak >= r.states and r.table_bytes > 0 for r in report)


def test_past_the_memory_bound_the_count_goes_on_in_shards(capsys, monkeypatch):
    # 2 MiB does not hold the widest layers of 6x8 (25,145 states) as the sweep in memory holds
    # them: the halves and their leaves go to shards on disk, and the count is the same. (Under
    # 1 MiB the tasks also go in passes: 30 s here; tests/test_tour_shards.py has the passes.)
    stores = []
    real = sharded.store_of
    monkeypatch.setattr(sharded, "store_of", lambda *args, **kwargs: stores.append(1) or real(*args, **kwargs))
    kt._SWEEPS.clear()
    code = _run(["knights-tour", "count", "6x8", "--closed", "--undirected", "--memory", "2M", "-q"])
    out, err = capsys.readouterr()
    assert code == 0 and out.strip() == "55488142" and "Traceback" not in err
    assert stores, "the count did not go to shards"


def test_a_count_that_fits_no_memory_stops_cleanly(monkeypatch, capsys):
    monkeypatch.setattr(sharded, "MOST_PASS_BITS", 0)  # no passes: a shard must fit at once
    kt._SWEEPS.clear()
    code = _run(["knights-tour", "count", "6x8", "--closed", "--undirected", "--memory", "1M", "-j", "4"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and "Traceback" not in "".join(err)
    assert "does not fit in its memory" in err[-1]


def test_memory_takes_sizes():
    from boardpuzzles.errors import BoardPuzzlesError
    from boardpuzzles.puzzles.knights_tour.frontier import parse_memory

    assert parse_memory("8G") == 8 << 30 and parse_memory("512M") == 512 << 20 and parse_memory("1.5 GiB") == 3 << 29
    assert parse_memory("2000000") == 2_000_000
    for bad in ("lots", "8X", "-1G", "100K", "2048T", "9" * 5000):
        with pytest.raises(BoardPuzzlesError, match="--memory"):
            parse_memory(bad)


def test_layers_are_saved_and_resumed(tmp_path):
    path = str(tmp_path / "closed.db")
    top, bottom, report = frontier_layers(6, 8, 3, 3, Limits(checkpoint=path))
    assert len(report) == 3
    saved = tmp_path / "closed.db.closed-6x8.npz"
    assert saved.exists()
    # A run that finds the layer saved starts from it: with every count doubled there (and the
    # checksum made again, as an edit would not), so is what it hands on, and it sweeps no row again.
    with np.load(saved) as data:
        meta, layer, old_digest = data["meta"], data["layer"].copy(), data["digest"]
    layer[:, 1] *= 2
    np.savez(saved, meta=meta, layer=layer, digest=old_digest)
    with pytest.raises(BoardPuzzlesError, match="checksum does not match"):
        frontier_layers(6, 8, 3, 3, Limits(checkpoint=path))
    np.savez(saved, meta=meta, layer=layer, digest=np.frombuffer(layer_digest(meta, layer), np.uint8))
    again, _, report = frontier_layers(6, 8, 3, 3, Limits(checkpoint=path))
    assert report == []
    assert np.array_equal(again[:, 0], top[:, 0]) and np.array_equal(again[:, 1], 2 * top[:, 1])


def test_a_saved_layer_of_another_count_is_refused(tmp_path):
    path = str(tmp_path / "closed.db")
    frontier_layers(6, 8, 1, 1, Limits(checkpoint=path))
    (tmp_path / "closed.db.closed-6x8.npz").rename(tmp_path / "closed.db.closed-6x7.npz")
    with pytest.raises(BoardPuzzlesError, match="the layer of another count"):
        frontier_layers(6, 7, 3, 2, Limits(checkpoint=path))


def test_count_resumes_with_a_checkpoint(tmp_path):
    path = str(tmp_path / "closed.db")
    kt._SWEEPS.clear()
    problem = kt.Problem(6, 8, closed=True, undirected=True)
    assert kt.count(problem, Limits(checkpoint=path)) == 55_488_142
    kt._SWEEPS.clear()
    assert kt.count(problem, Limits(checkpoint=path)) == 55_488_142


def test_8x8_is_accepted_and_stops_at_its_time_limit():
    kt.validate_count(kt.Problem(8, 8, closed=True, undirected=True))
    with pytest.raises(SizeError, match="side of at most 8"):
        kt.validate_count(kt.Problem(9, 10, closed=True, undirected=True))
    kt._SWEEPS.clear()
    with pytest.raises(TimeLimitReached):
        kt.count(kt.Problem(8, 8, closed=True, undirected=True), Limits(time_limit=0.5))


def test_the_widest_state_on_a_small_board():
    # 5x8 swept along its short side, 8 squares a row: the 59-bit state, 3^16 degree vectors and
    # the 16 band squares of 8x8, on a board with a published count (A193055: 8 x 5).
    kt._SWEEPS.clear()
    meeting = halves(5, 8, False, 1, Limits(), across=8)
    assert meeting.band.tables.width == 8 and [r.states for r in meeting.rows] == [5356, 675023]
    assert pair_piece(meeting, 0, Limits(), "5x8") == 2 * 44_202
    kt._SWEEPS.clear()
