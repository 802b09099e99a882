"""Open knight's tours from every start by the frontier sweep (``_kernels.tour_sweep``) and its
halves (``_kernels.tour_join``): published counts, the search of every path and plain
backtracking as cross-checks, the saved layers a run resumes from, and the memory bound."""

import numpy as np
import pytest

from boardpuzzles.cli import _run
from boardpuzzles.errors import BoardPuzzlesError, SizeError
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import knights_tour as kt
from boardpuzzles.puzzles.knights_tour import closed, frontier
from boardpuzzles.puzzles.knights_tour.meeting import pair_piece
from boardpuzzles.puzzles.knights_tour.open_sweep import _open_sweep, count_paths
from boardpuzzles.puzzles.knights_tour.rules import _start_classes
from tests.reference import knight_tours


def directed(rows, cols, limits=None):
    """The product's count (the sweep on narrow boards with many squares, else the path search)."""
    return kt.count(kt.Problem(rows, cols), limits)


def swept(rows, cols, across=None):
    """Directed tours by the sweep itself: a path and the end it starts from."""
    return 2 * count_paths(rows, cols, Limits(), across)


def by_every_path(rows, cols):
    """The same count by the search of every path from one square of each class of starts."""
    return sum(orbit * kt.count(kt.Problem(rows, cols, start=first)) for first, orbit in _start_classes(rows, cols))


# Directed open tours from every start. A118067: 3 x n (directed). A079137: 4 x n, A083386: 5 x n
# and A389755: the first n cells of a 5 x k board (undirected Hamiltonian paths: twice as many
# directed tours). A165134: n x n (directed).
PUBLISHED = [
    (3, 4, 16),  # A118067
    (3, 7, 104),  # A118067
    (3, 8, 792),  # A118067
    (3, 9, 1_120),  # A118067
    (3, 10, 6_096),  # A118067
    (3, 16, 17_273_760),  # A118067
    (3, 20, 2_645_699_504),  # A118067
    (4, 5, 2 * 82),  # A079137
    (4, 6, 2 * 744),  # A079137
    (4, 7, 2 * 6_378),  # A079137
    (4, 8, 2 * 31_088),  # A079137
    (4, 12, 2 * 36_486_328),  # A079137
    (5, 5, 1_728),  # A165134
    (5, 6, 2 * 18_784),  # A083386
    (5, 7, 2 * 622_868),  # A083386
    (5, 8, 2 * 18_061_054),  # A389755 (Knuth: a(5n) = A083386(n)), a(40)
    (5, 9, 2 * 264_895_640),  # A389755, a(45)
    (4, 4, 0),
    (3, 3, 0),
]


@pytest.mark.parametrize(("rows", "cols", "published"), PUBLISHED)
def test_published_counts(rows, cols, published):
    assert swept(rows, cols) == swept(cols, rows) == published
    if max(rows, cols) <= 6:  # swept along the long side too (wider states cost more)
        assert swept(rows, cols, across=max(rows, cols)) == published
    assert directed(rows, cols) == published
    assert kt.count(kt.Problem(rows, cols, undirected=True)) == published // 2


def test_6x6_published_a165134():
    # The whole sweep and the halves that meet in the middle (one sweep of 6x6 costs most of this).
    assert swept(6, 6) == 2 * by_halves(6, 6) == 6_637_920


@pytest.mark.parametrize(("rows", "cols"), [(5, 5), (4, 7), (3, 10), (5, 6)])
def test_agrees_with_the_search_of_every_path(rows, cols):
    assert swept(rows, cols) == by_every_path(rows, cols)


def test_the_sweep_takes_over_where_it_is_faster():
    assert kt._swept(kt.Problem(4, 12)) and kt._swept(kt.Problem(8, 5)) and kt._swept(kt.Problem(6, 8))
    assert not kt._swept(kt.Problem(6, 6)) and not kt._swept(kt.Problem(7, 7)) and not kt._swept(kt.Problem(5, 7))
    assert not kt._swept(kt.Problem(4, 12, start=0)) and not kt._swept(kt.Problem(4, 12, closed=True))


@pytest.mark.nojit
def test_agrees_with_plain_backtracking():
    # The kernel runs as plain Python in the nojit run; the backtracking shares nothing with it.
    for rows, cols in [(3, 4), (4, 5), (3, 7), (2, 5), (1, 3), (3, 3)]:
        plain = sum(len(knight_tours(rows, cols, start)) for start in range(rows * cols))
        assert swept(rows, cols) == plain, (rows, cols)


def test_the_widest_state_on_a_small_board():
    # 3x8 swept across its long side, 8 squares a row: the 63-bit code of 8x8 (17 slots), on a
    # board with a published count (A118067: 792 directed).
    from boardpuzzles._kernels import tour_sweep as ts

    assert ts.code_layout(17, True)[2] == 63
    assert count_paths(3, 8, Limits(), across=8) == 396
    assert count_paths(4, 7, Limits(), across=7) == 6_378  # A079137


def test_layers_are_saved_and_resumed(tmp_path):
    path = str(tmp_path / "open.db")
    assert _open_sweep(("open tours", 5, 6), Limits(checkpoint=path)) == 18_784
    saved = tmp_path / "open.db.open-5x6.npz"
    assert saved.exists()
    # The file after the last row holds the answer: a run that finds it sweeps nothing again.
    with np.load(saved) as data:
        meta, layer, old_digest = data["meta"], data["layer"].copy(), data["digest"]
    assert meta.tolist()[-2:] == [6, 18_784]
    # An edit without a new checksum is refused; with one (as a forger would make), it is read.
    meta = meta.copy()
    meta[-1] += 1
    np.savez(saved, meta=meta, layer=layer, digest=old_digest)
    with pytest.raises(BoardPuzzlesError, match="checksum does not match"):
        _open_sweep(("open tours", 5, 6), Limits(checkpoint=path))
    np.savez(saved, meta=meta, layer=layer, digest=np.frombuffer(frontier.layer_digest(meta, layer), np.uint8))
    assert _open_sweep(("open tours", 5, 6), Limits(checkpoint=path)) == 18_785


def test_a_run_resumes_from_a_middle_row(tmp_path, monkeypatch):
    path = str(tmp_path / "open.db")
    rows_done = []
    real = frontier.Sweeper.sweep_row

    def stop_after_three(self, layer, row):
        if len(rows_done) == 3:
            raise KeyboardInterrupt
        rows_done.append(row)
        return real(self, layer, row)

    monkeypatch.setattr(frontier.Sweeper, "sweep_row", stop_after_three)
    with pytest.raises(KeyboardInterrupt):
        _open_sweep(("open tours", 5, 7), Limits(checkpoint=path))
    monkeypatch.setattr(frontier.Sweeper, "sweep_row", real)
    assert rows_done == [0, 1, 2]
    assert _open_sweep(("open tours", 5, 7), Limits(checkpoint=path)) == 622_868


def test_a_saved_layer_of_another_board_is_refused(tmp_path):
    path = str(tmp_path / "open.db")
    _open_sweep(("open tours", 5, 6), Limits(checkpoint=path))
    (tmp_path / "open.db.open-5x6.npz").rename(tmp_path / "open.db.open-5x7.npz")
    with pytest.raises(BoardPuzzlesError, match="the layer of another count"):
        _open_sweep(("open tours", 5, 7), Limits(checkpoint=path))


def test_count_resumes_with_a_checkpoint(tmp_path):
    path = str(tmp_path / "open.db")
    assert directed(5, 8, Limits(checkpoint=path)) == 36_122_108
    assert directed(5, 8, Limits(checkpoint=path)) == 36_122_108


def test_past_the_memory_bound_the_sweep_goes_on_in_shards(capsys):
    # 1 MiB holds no layer of 4x12 past its first rows: the sweep of the whole board goes on in
    # shards on disk, with the tours it completed in memory kept.
    code = _run(["knights-tour", "count", "4x12", "--memory", "1M", "-q"])
    out, err = capsys.readouterr()
    assert code == 0 and out.strip() == str(2 * 36_486_328) and "Traceback" not in err  # A079137


def test_limits():
    kt.validate_count(kt.Problem(6, 20))  # from every start: swept, any length
    with pytest.raises(SizeError, match="64 squares, or from every start to boards with a side of at most 7"):
        kt.validate_count(kt.Problem(6, 20, start=0))
    with pytest.raises(SizeError, match="64 squares"):
        kt.validate_count(kt.Problem(8, 9))


def test_a_time_limit_says_whether_the_swept_rows_are_kept(tmp_path, capsys):
    """6x8 takes minutes; stopped after 3 s its first rows are usually saved. Whatever the load, the
    note must match the files: kept rows are announced only when a layer file is there."""
    path = str(tmp_path / "six.db")
    code = _run(["knights-tour", "count", "6x8", "--time-limit", "3", "--checkpoint", path])
    err = capsys.readouterr().err
    assert code == 3 and "Traceback" not in err
    if (tmp_path / "six.db.open-6x8.npz").exists():
        assert "the rows swept so far are kept; run the same command again to continue" in err
    else:
        assert "keeps nothing part way" in err


# ------------------------------------------------------------------ the halves that meet in the middle
def by_halves(rows, cols, pieces=4, across=None):
    """Paths by the top and bottom halves of the sweep and the band between them."""
    kt._SWEEPS.clear()
    meeting = closed.halves(rows, cols, True, pieces, Limits(), across)
    total = sum(pair_piece(meeting, k, Limits(), f"{rows}x{cols}") for k in range(pieces))
    kt._SWEEPS.clear()
    assert total % 2 == 0  # each tour once with a bottom leaf and once with its mirror image
    return total // 2


@pytest.mark.parametrize(
    ("rows", "cols"), [(5, 5), (4, 6), (5, 6), (5, 7), (4, 8), (3, 10), (3, 12), (5, 8), (4, 5), (4, 4)]
)
def test_halves_meet_as_the_whole_sweep_counts(rows, cols):
    assert by_halves(rows, cols) == count_paths(rows, cols, Limits())


def test_halves_of_the_widest_states():
    # 7 and 8 squares a row on boards with published counts (A079137: 4x7 and 4x8): the 7-wide
    # codes that 7 x n boards use, and the 8-wide ones. Fewer than 4 rows are refused (a tour
    # could end before the band).
    assert by_halves(4, 7, across=7) == 6_378
    assert by_halves(4, 8, across=8) == 31_088
    with pytest.raises(SizeError, match="needs 4 rows or more"):
        by_halves(3, 8, across=8)


def test_boards_seven_wide_are_counted_by_halves(tmp_path):
    assert kt._met(kt.Problem(7, 7)) and kt._met(kt.Problem(8, 7)) and not kt._met(kt.Problem(7, 7, start=0))
    kt.validate_count(kt.Problem(7, 12))  # past 64 squares: by halves
    path = str(tmp_path / "halves.db")
    # A stopped count resumes from its saved layer and pieces; a small board stands in for 7 x n.
    assert kt.count(kt.Problem(5, 6), Limits(checkpoint=path)) == 37_568  # the search (below the sweep)
    kt._SWEEPS.clear()
    meeting = closed.halves(5, 6, True, 4, Limits(checkpoint=path))
    kt._SWEEPS.clear()
    assert (tmp_path / "halves.db.open-halves-5x6.npz").exists()
    again = closed.halves(5, 6, True, 4, Limits(checkpoint=path))
    kt._SWEEPS.clear()
    assert np.array_equal(meeting.tops, again.tops) and np.array_equal(meeting.bottoms, again.bottoms)


@pytest.mark.nojit
def test_halves_agree_with_plain_backtracking():
    # The join runs as plain Python in the nojit run; the backtracking shares nothing with it.
    for rows, cols in [(4, 5), (4, 4)]:
        plain = sum(len(knight_tours(rows, cols, start)) for start in range(rows * cols))
        assert 2 * by_halves(rows, cols) == plain, (rows, cols)


def test_the_recorded_7x8_checkpoint_holds_every_piece_of_its_count(tmp_path, capsys):
    """records/kt7x8.db holds the 64 pieces of the count of all open tours of 7x8 by halves: a
    copy resumed prints the count at once (it adds up the stored pieces; nothing is counted again:
    the halves' side files are not kept). Every piece is even (a piece counts twice the paths in it:
    bottom leaves carry twice their ways), and the pieces add up to the record's answer."""
    import json
    import shutil
    import sqlite3
    from pathlib import Path

    from boardpuzzles.cli import _run

    copy = tmp_path / "kt7x8.db"
    shutil.copyfile(Path(__file__).resolve().parent.parent / "records" / "kt7x8.db", copy)
    with sqlite3.connect(f"file:{copy}?mode=ro", uri=True) as db:
        values = [int(value) for (value,) in db.execute("SELECT value FROM done")]
    db.close()
    assert len(values) == 64 and all(value % 2 == 0 for value in values)
    argv = ["knights-tour", "count", "7x8", "--checkpoint", str(copy), "--time-limit", "30", "--json"]
    assert _run(argv) == 0  # 3 would mean a piece was missing, 2 that the file was refused
    document = json.loads(capsys.readouterr().out)
    assert document["count"] == sum(values) == 41_332_850_120_656 and document["complete"]
