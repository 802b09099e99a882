"""Knight's tours counted with the frontier sweep in shards on disk (``puzzles.knights_tour.sharded``):
the same counts as the sweep in memory, on threads and on a Dask cluster; a stopped count goes
on from its last finished task; a part of another count, or an edited one, is refused."""

import json
import os

import numpy as np
import pytest

from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import knights_tour as kt
from boardpuzzles.puzzles.knights_tour import closed, counting, frontier, sharded
from boardpuzzles.puzzles.knights_tour.open_sweep import count_paths
from boardpuzzles.puzzles.knights_tour.shards import ShardError, Store

#: Little enough memory that the counts below go to shards at their first rows.
LITTLE = 1 << 20


@pytest.fixture
def shards_used(monkeypatch):
    """Eight shards for every count (a layer of a few thousand states would get one or two), and
    the plans of the stores the counts made, to show that they went to shards."""
    monkeypatch.setattr(sharded, "shard_bits", lambda states, memory, jobs: 3)
    plans = []
    real = sharded.store_of

    def spy(*args, **kwargs):
        found = real(*args, **kwargs)
        plans.append(found[1])
        return found

    monkeypatch.setattr(sharded, "store_of", spy)
    return plans


def count_by(rows, cols, how, memory, limits):
    """Closed tours (cycles), open tours by halves (paths) or by the whole sweep (paths)."""
    kt._SWEEPS.clear()
    if how == "closed":
        return kt.count(kt.Problem(rows, cols, closed=True, undirected=True, memory=memory), limits)
    if how == "halves":
        problem = kt.Problem(rows, cols, undirected=True, memory=memory)
        return counting._by_halves(problem, "open tours by halves", 1, limits)
    return count_paths(rows, cols, limits, memory=memory)


# Closed: A001230, A175881; open (undirected paths): A079137, A083386, A118067 / 2, A165134 / 2.
# Each with a memory bound under what its sweep needs in memory (KiB).
BOARDS = [
    (6, 6, "closed", 512, 9_862),
    (5, 6, "halves", 2048, 18_784),
    (4, 8, "halves", 512, 31_088),
    (4, 12, "board", 512, 36_486_328),
]
LARGER = [
    (6, 8, "closed", 4096, 55_488_142),
    (3, 16, "board", 32, 17_273_760 // 2),
    (6, 7, "closed", 4096, 1_067_638),
    (5, 7, "halves", 4096, 622_868),
]
#: Boards whose count in shards takes from a quarter of a minute to half an hour on two cores: run
#: with BOARDPUZZLES_LONG_TESTS=1 (the suite stays within its ten minutes).
LONGEST = [
    (6, 6, "halves", 4096, 3_318_960),
    (5, 8, "board", 4096, 18_061_054),
]
long_test = pytest.mark.skipif(
    os.environ.get("BOARDPUZZLES_LONG_TESTS", "0") in ("", "0"), reason="a long count: set BOARDPUZZLES_LONG_TESTS=1"
)


@pytest.mark.parametrize(("rows", "cols", "how", "kib", "published"), BOARDS)
def test_shards_count_as_the_sweep_in_memory(shards_used, rows, cols, how, kib, published):
    assert count_by(rows, cols, how, kib << 10, Limits(jobs=2)) == published
    assert shards_used and shards_used[-1].shards == 8
    assert count_by(rows, cols, how, None, Limits(jobs=2)) == published
    assert len(shards_used) == 1  # in memory: no store


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rows", "cols", "how", "kib", "published"), LARGER + [pytest.param(*b, marks=long_test) for b in LONGEST]
)
def test_shards_count_as_the_sweep_in_memory_on_larger_boards(shards_used, rows, cols, how, kib, published):
    assert count_by(rows, cols, how, kib << 10, Limits(jobs=2)) == published
    assert count_by(rows, cols, how, None, Limits(jobs=2)) == published
    assert len(shards_used) == 1


@long_test
@pytest.mark.timeout(3 * 3600)
def test_seven_wide_by_halves_in_shards():
    # 7x7 by halves (A165134: 165,575,218,320 directed), its layers in shards under 512 MiB.
    kt._SWEEPS.clear()
    assert kt.count(kt.Problem(7, 7, memory=512 << 20), Limits(jobs=2)) == 165_575_218_320


@pytest.mark.slow
def test_many_shards_and_passes(monkeypatch):
    # 64 shards for a layer of a few hundred states, in 1 MiB: most shards are empty, tasks and
    # pieces make passes; the count is the same.
    monkeypatch.setattr(sharded, "shard_bits", lambda states, memory, jobs: 6)
    assert count_by(5, 6, "halves", LITTLE, Limits(jobs=2)) == 18_784


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as local:
        yield local.scheduler_address


@pytest.mark.slow
def test_shards_on_a_two_worker_dask_cluster(shards_used, cluster, tmp_path):
    for rows, cols, how, kib, published in BOARDS:
        limits = Limits(checkpoint=str(tmp_path / f"{rows}x{cols}.db"), scheduler=cluster)
        assert count_by(rows, cols, how, kib << 10, limits) == published
    assert len(shards_used) == len(BOARDS) and all(plan.shards == 8 for plan in shards_used)


def test_a_cluster_needs_a_checkpoint_beside_which_the_shards_live():
    from boardpuzzles.errors import BoardPuzzlesError

    with pytest.raises(BoardPuzzlesError, match="give one, in a folder that every worker sees"):
        count_by(6, 8, "closed", LITTLE, Limits(scheduler="tcp://127.0.0.1:9"))


# ------------------------------------------------------------------ stopping and resuming
def a_store(tmp_path, rows=6, cols=6, paths=False, kib=512):
    """A count that went to shards and stopped before its pieces were paired: its store (beside
    the checkpoint), with the layers and leaves of both halves."""
    tmp_path.mkdir(exist_ok=True)
    limits = Limits(checkpoint=str(tmp_path / "c.db"))
    pieces = 1 if rows * cols < 48 and not paths else counting.PIECES  # as the count cuts it
    kt._SWEEPS.clear()
    with pytest.raises(frontier.OverMemory) as stop:
        closed.halves(rows, cols, paths, pieces, limits, memory=kib << 10)
    sharded.halves_in_shards(rows, cols, paths, pieces, stop.value, limits, kib << 10)
    (folder,) = tmp_path.glob("c.db.*-halves-*.shards")
    return folder


def test_a_stopped_count_goes_on_from_its_last_finished_task(shards_used, tmp_path, monkeypatch):
    path = str(tmp_path / "c.db")
    real = Store.write_part
    written = []

    def killed_at_the_eleventh(store, stage, name, rows, *args, **kwargs):
        if len(written) == 10:  # killed after writing its states, before their record
            np.save(os.path.join(store.stage(stage), f"{name}.npy"), rows)
            raise KeyboardInterrupt
        written.append((stage, name))
        return real(store, stage, name, rows, *args, **kwargs)

    monkeypatch.setattr(Store, "write_part", killed_at_the_eleventh)
    with pytest.raises(KeyboardInterrupt):
        count_by(6, 8, "closed", 4 << 20, Limits(checkpoint=path))
    (folder,) = tmp_path.glob("c.db.closed-halves-*.shards")
    again = []

    def counted(store, stage, name, *args, **kwargs):
        again.append((stage, name))
        return real(store, stage, name, *args, **kwargs)

    monkeypatch.setattr(Store, "write_part", counted)
    assert count_by(6, 8, "closed", 4 << 20, Limits(checkpoint=path)) == 55_488_142
    assert again and not set(written) & set(again)  # no finished task was done again
    assert not folder.exists()  # the count is done: its store is gone


def test_a_resumed_store_gives_the_same_count(shards_used, tmp_path):
    folder = a_store(tmp_path)
    assert Store.exists(str(folder))
    assert count_by(6, 6, "closed", 512 << 10, Limits(checkpoint=str(tmp_path / "c.db"))) == 9_862


def test_an_edited_part_is_refused(shards_used, tmp_path):
    folder = a_store(tmp_path)
    data = max((folder / "top").glob("*.npy"), key=lambda p: p.stat().st_size)
    rows = np.load(data)
    rows[0, 1] += 1  # one more way for one leaf
    np.save(data, rows)
    with pytest.raises(ShardError, match="does not match its checksum"):
        count_by(6, 6, "closed", 512 << 10, Limits(checkpoint=str(tmp_path / "c.db")))


def test_an_edited_record_is_refused(shards_used, tmp_path):
    folder = a_store(tmp_path)
    record = sorted((folder / "bottom").glob("*.json"))[0]
    meta = json.loads(record.read_text())
    meta["completed"] = 7
    record.write_text(json.dumps(meta))
    with pytest.raises(ShardError, match="does not verify"):
        count_by(6, 6, "closed", 512 << 10, Limits(checkpoint=str(tmp_path / "c.db")))


def test_a_part_of_another_count_is_refused(shards_used, tmp_path):
    mine = a_store(tmp_path / "a")
    other = a_store(tmp_path / "b", 4, 8, True)
    for end in (".json", ".npy"):  # its first part in place of ours
        os.replace(other / "top" / f"t00000.0of1{end}", mine / "top" / f"t00000.0of1{end}")
    with pytest.raises(ShardError, match="a part of another count, or edited"):
        count_by(6, 6, "closed", 512 << 10, Limits(checkpoint=str(tmp_path / "a" / "c.db")))


def test_a_store_of_another_count_is_refused(shards_used, tmp_path):
    other = a_store(tmp_path, 6, 8, False, 4096)
    other.rename(tmp_path / "c.db.closed-halves-6x6.shards")
    with pytest.raises(ShardError, match="holds the shards of another count"):
        count_by(6, 6, "closed", 512 << 10, Limits(checkpoint=str(tmp_path / "c.db")))


def test_a_part_read_in_chunks_is_its_rows_checked_whole(tmp_path):
    # A task reads its input a chunk at a time (what it holds stays under its memory bound); the
    # checksum covers the whole shard's rows and a mismatch is raised after the last chunk.
    store = Store.open(str(tmp_path / "store"), {"board": "a test"})
    rows = np.arange(2000, dtype=np.int64).reshape(-1, 2)
    store.write_part("top", "t00000.0of1", rows, np.array([0, 400, 1000]))
    part = store.parts("top")["t00000.0of1"]
    for shard, (lo, hi) in enumerate([(0, 400), (400, 1000)]):
        chunks = list(store.read_in_chunks("top", part, shard, 128))
        assert max(len(c) for c in chunks) == 128 and np.array_equal(np.concatenate(chunks), rows[lo:hi])
        assert np.array_equal(store.read("top", part, shard), rows[lo:hi])
    edited = rows.copy()
    edited[999, 1] += 1  # the last row of shard 1
    np.save(part.path, edited)
    assert np.array_equal(store.read("top", part, 0), rows[:400])
    with pytest.raises(ShardError, match="does not match its checksum"):
        for _ in store.read_in_chunks("top", part, 1, 128):
            pass
