"""Time limits and checkpoints: one mechanism (``parallel.limits``) under every count."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from boardpuzzles.cli import _run
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.parallel import (
    Checkpoint,
    Subtask,
    TimeLimitReached,
    limits,
    run_subtasks,
    stop_if_out_of_time,
    subtask_key,
)


def slow_square(x: int) -> int:
    time.sleep(0.02)
    return x * x


TASKS = [Subtask((i,), weight=1 + i % 3) for i in range(40)]
WHOLE = sum(i * i * (1 + i % 3) for i in range(40))


def test_a_time_limit_stops_with_a_lower_bound():
    with pytest.raises(TimeLimitReached) as stop, limits(time_limit=0.1):
        run_subtasks(lambda spec: slow_square(spec[0]), TASKS, jobs=2)
    assert 0 < stop.value.done < len(TASKS) and stop.value.total == len(TASKS)
    assert 0 <= stop.value.partial < WHOLE


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_long_subtask_can_stop_part_way_at_the_time_limit(jobs):
    def sweep(spec):  # a subtask of many small steps that checks the limit between them
        if spec[1] == 0:
            return 1  # the first, run alone before the threads start, ends at once
        for _ in range(1000):
            stop_if_out_of_time()
            time.sleep(0.01)
        return 1

    started = time.monotonic()
    with limits(time_limit=0.1), pytest.raises(TimeLimitReached) as stopped:
        run_subtasks(sweep, [Subtask(("sweep", i)) for i in range(3)], jobs=jobs)
    assert time.monotonic() - started < 2  # each sweep takes 10 s, in worker threads too
    assert (stopped.value.partial, stopped.value.done, stopped.value.total) == (1, 1, 3)
    stop_if_out_of_time()  # outside a run with a limit it never stops anything


def test_a_checkpoint_resumes_without_redoing_finished_subtasks(tmp_path):
    path = str(tmp_path / "run.db")
    calls = []

    def work(spec):
        calls.append(spec)
        return slow_square(spec[0])

    with pytest.raises(TimeLimitReached) as stop, limits(0.15, Checkpoint(path, {"what": "squares"})):
        run_subtasks(work, TASKS, jobs=2)
    first_calls = len(calls)
    with limits(checkpoint=Checkpoint(path, {"what": "squares"})):
        assert run_subtasks(work, TASKS, jobs=1) == WHOLE
    assert len(calls) - first_calls == len(TASKS) - stop.value.done  # only the rest ran
    with limits(checkpoint=Checkpoint(path, {"what": "squares"})):
        assert run_subtasks(work, TASKS, jobs=3) == WHOLE  # all recorded: nothing runs
    assert len(calls) - first_calls == len(TASKS) - stop.value.done


def test_a_checkpoint_of_another_count_is_refused(tmp_path):
    path = str(tmp_path / "run.db")
    Checkpoint(path, {"n": 13}).close()
    with pytest.raises(BoardPuzzlesError, match="another count"):
        Checkpoint(path, {"n": 14})


def test_a_file_that_is_no_checkpoint_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my notes\n" * 100)
    with pytest.raises(BoardPuzzlesError, match="not a checkpoint"):
        Checkpoint(str(path), {})
    assert path.read_text() == "my notes\n" * 100


def test_subtask_keys_are_stable():
    assert subtask_key((3, 1, 4)) == "[3, 1, 4]"
    from boardpuzzles.puzzles.less_than_three import Rules

    assert subtask_key((Rules(7, 1), (2, 5))) == "[[7, 1, 2, null], [2, 5]]"


# Every counting command, small enough to run twice: once into a fresh checkpoint, once resuming
# from it with every subtask already done. Answers: OEIS A000170 (8 queens: 92), A051906 (7 on the
# torus: 28), A001230 (closed 6x6: 9862), A000755 (no three in line, n = 7: 132), the seed puzzle
# (42), A165134 (5x5: 1728),
# pzprjs's Goishi test puzzle (unique).
EVERY_COUNT = [
    (["queens", "count", "8"], 92),
    (["hyperqueen", "count", "7"], 28),
    (["hyperqueen", "count", "7", "--unique", "--group", "full"], 1),
    (["less-than-three", "count", "--colours", "1", "--size", "7"], 132),
    (["less-than-three", "count", "--unique"], 12),
    (["knights-tour", "count", "5"], 1728),
    (["knights-tour", "count", "6", "--closed", "--undirected"], 9862),
    (["goishi", "count", "tests/data/goishi/pzprjs_test.txt"], 1),
]


@pytest.mark.parametrize(
    ("arguments", "published"), EVERY_COUNT, ids=lambda a: " ".join(a) if isinstance(a, list) else ""
)
def test_every_count_resumes_from_its_checkpoint(arguments, published, capsys, tmp_path):
    path = str(tmp_path / "c.db")
    assert _run([*arguments, "--json", "--quiet", "--checkpoint", path]) == 0
    first = json.loads(capsys.readouterr().out)
    with sqlite3.connect(path) as db:
        recorded = db.execute("SELECT COUNT(*) FROM done").fetchone()[0]
    assert recorded > 0
    assert _run([*arguments, "--json", "--quiet", "--checkpoint", path]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["count"] == first["count"] == published
    # The resumed run read its answers from the file: altered there, they change the count.
    with sqlite3.connect(path) as db:
        db.execute("UPDATE done SET value = CAST(value AS INTEGER) * 2")
    assert _run([*arguments, "--json", "--quiet", "--checkpoint", path]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 2 * published


def test_cli_time_limit_exits_3_with_a_partial_json(capsys):
    code = _run(["queens", "count", "14", "--time-limit", "0.05", "--json", "-q", "--jobs", "1"])
    out, err = capsys.readouterr()
    document = json.loads(out)
    assert code == 3 and document["complete"] is False
    assert 0 <= document["partial_count"] < 365596  # OEIS A000170: 14 queens
    assert "time limit" in err


def test_a_closed_tour_sweep_stops_part_way_at_its_time_limit(capsys):
    """The closed count is one sweep (one subtask), and the limit is checked before a subtask
    starts: exit 3 shows the sweep itself stopped part way (it takes about 5 s)."""
    code = _run(["knights-tour", "count", "6x8", "--closed", "--time-limit", "0.2", "--json", "-q"])
    document = json.loads(capsys.readouterr().out)
    assert code == 3 and document["complete"] is False and document["subtasks_done"] == 0


def test_cli_refuses_a_checkpoint_of_other_parameters(capsys, tmp_path):
    path = str(tmp_path / "c.db")
    assert _run(["knights-tour", "count", "5", "--checkpoint", path]) == 0
    assert _run(["knights-tour", "count", "5", "--start", "a1", "--checkpoint", path]) == 2
    assert "another count" in capsys.readouterr().err


def test_a_run_killed_with_sigkill_resumes_from_its_checkpoint(tmp_path):
    path = tmp_path / "q16.db"
    command = [
        sys.executable,
        "-c",
        "from boardpuzzles.cli import main; main()",
        "queens",
        "count",
        "16",
        "--jobs",
        "1",
        "--quiet",
        "--checkpoint",
        str(path),
    ]
    victim = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # wait until some subtasks are recorded, then kill
        time.sleep(0.2)
        if path.exists():
            try:
                with sqlite3.connect(path) as db:
                    if db.execute("SELECT COUNT(*) FROM done").fetchone()[0] >= 5:
                        break
            except sqlite3.OperationalError:
                pass
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    with sqlite3.connect(path) as db:
        recorded = db.execute("SELECT COUNT(*) FROM done").fetchone()[0]
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert recorded >= 5
    finished = subprocess.run(command + ["--json"], capture_output=True, text=True, timeout=120, env={**os.environ})
    assert finished.returncode == 0, finished.stderr
    assert json.loads(finished.stdout)["count"] == 14_772_512  # OEIS A000170


# ------------------------------------------------------------------ a real Dask cluster
@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", processes=True, dashboard_address=None
    ) as local:
        yield local.scheduler_address


def test_counts_on_a_local_dask_cluster_equal_the_local_ones(cluster, tmp_path):
    from boardpuzzles.puzzles import hyperqueen, knights_tour, less_than_three, queens

    cases = [
        (lambda: queens.count(10), 724),  # OEIS A000170
        (lambda: hyperqueen.count_classes(13), 11),  # OEIS A053994
        (lambda: less_than_three.count(less_than_three.Rules(7, 1)), 132),  # OEIS A000755
        (lambda: knights_tour.count(5, start=0), 304),  # the seed article
        (lambda: knights_tour.count_closed(6), 9862),  # OEIS A001230: one sweep, one subtask
    ]
    for compute, published in cases:
        local = compute()
        with limits(scheduler=cluster):
            assert compute() == local == published
    path = str(tmp_path / "dask.db")
    with limits(checkpoint=Checkpoint(path, {"q": 9}), scheduler=cluster):
        assert queens.count(9) == 352
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM done").fetchone()[0] > 0


def test_cli_scheduler_flag(cluster, capsys):
    assert _run(["knights-tour", "count", "5", "--start", "a1", "--scheduler", cluster, "-q"]) == 0
    assert capsys.readouterr().out.strip() == "304"
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        assert _run(["queens", "count", "8", "--scheduler", "tcp://127.0.0.1:9", "-q"]) == 2
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err


def test_bad_checkpoint_paths_and_scheduler_addresses_are_one_line_errors(capsys):
    assert _run(["knights-tour", "count", "6", "--checkpoint", "/no/such/folder/x.db"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("boardpuzzles: error: cannot write") and err.count("\n") == 1
    assert _run(["hyperqueen", "count", "13", "--scheduler", "nonsense"]) == 2
    assert "not a Dask scheduler address" in capsys.readouterr().err
