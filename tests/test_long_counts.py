"""Limits, checkpoints and clusters: the one mechanism under every long count.

The reproducers of the trust audit are here, each a test that failed on the old code: a Goishi
checkpoint keyed by the file name (a changed board got the old board's count), stored rows
trusted blindly (one changed digit changed the total), another program's SQLite database
written into, a damaged file ending in an internal error, and work that ignored the time limit.
"""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from boardpuzzles.checkpoint import APPLICATION_ID, Checkpoint, CheckpointError, digest
from boardpuzzles.cli import _run
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import GRACE, Interrupted, Limits, TimeLimitReached
from boardpuzzles.parallel import Subtask, run_subtasks, subtask_key
from tests.threads import report
from tests.timing import LOADED, measured


def slow_square(x: int) -> int:
    time.sleep(0.02)
    return x * x


TASKS = [Subtask((i,), weight=1 + i % 3) for i in range(40)]
WHOLE = sum(i * i * (1 + i % 3) for i in range(40))
IDENTITY = {"puzzle": "squares", "problem": {"n": 40}}


def square_work(spec, limits):
    return slow_square(spec[0])


# ------------------------------------------------------------------ the runner
def test_weights_units_and_jobs():
    tasks = [Subtask(3, 2), Subtask(5, 1), Subtask(1, 4)]
    assert run_subtasks(lambda x, limits: x, tasks) == 15
    assert run_subtasks(lambda x, limits: x, tasks, Limits(jobs=3)) == 15
    assert run_subtasks(lambda x, limits: 10 * x, tasks, unit=5) == 30
    with pytest.raises(ArithmeticError):
        run_subtasks(lambda x, limits: x, tasks, unit=4)
    assert run_subtasks(lambda x, limits: x, []) == 0


def test_an_error_in_a_worker_reaches_the_caller_and_stops_the_others():
    started = []

    def work(x, limits):
        started.append(x)
        if x == 2:
            raise ValueError("boom")
        time.sleep(0.05)
        return x

    with pytest.raises(ValueError, match="boom"):
        run_subtasks(work, [Subtask(i) for i in range(100)], Limits(jobs=2))
    assert len(started) < 20


def test_a_time_limit_stops_with_a_lower_bound():
    with pytest.raises(TimeLimitReached) as stop:
        run_subtasks(square_work, TASKS, Limits(0.1, jobs=2))
    assert 0 < stop.value.done < len(TASKS) and stop.value.total == len(TASKS)
    assert 0 <= stop.value.partial < WHOLE


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_long_subtask_that_checks_its_limits_stops_part_way(jobs):
    def sweep(spec, limits):
        if spec[1] == 0:
            return 1
        for _ in range(1000):
            limits.check()
            time.sleep(0.01)
        return 1

    started = time.monotonic()
    with pytest.raises(TimeLimitReached) as stopped:
        run_subtasks(sweep, [Subtask(("sweep", i)) for i in range(3)], Limits(0.1, jobs=jobs))
    assert time.monotonic() - started < 1 + LOADED  # each sweep takes 10 s, in worker threads too
    assert (stopped.value.partial, stopped.value.done, stopped.value.total) == (1, 1, 3)


def test_pure_python_work_that_ignores_its_limits_is_stopped_by_force():
    """The contract of pure-Python work (a newcomer's puzzle): if it never calls limits.check(),
    the runner still answers GRACE after the limit, and raises inside the stubborn thread."""
    ended = threading.Event()

    def stubborn(spec, limits):
        try:
            while True:
                sum(range(1000))  # Python bytecode: the forced exception lands here
        finally:
            ended.set()

    started = time.monotonic()
    with pytest.raises(TimeLimitReached):
        run_subtasks(stubborn, [Subtask(1)], Limits(0.2))
    assert time.monotonic() - started < 0.2 + 2 * GRACE + 0.5 + LOADED
    assert ended.wait(2 + LOADED)  # the thread itself was stopped, not only abandoned


def test_the_stop_flag_reaches_a_kernel_within_milliseconds():
    from boardpuzzles.puzzles import queens

    with pytest.raises(TimeLimitReached):  # the same kernels loaded (numba's cache) before the clock
        queens.count(queens.Problem(20), Limits(0.05, jobs=1))
    limits = Limits(jobs=1)
    threading.Timer(0.3, limits.stop).start()
    with pytest.raises(Interrupted), measured() as used:
        queens.count(queens.Problem(20), limits)  # hours of work
    assert used.cpu < 0.3 + 0.5 and used.wall < 0.3 + 0.5 + LOADED


def test_limits_refuse_nonsense():
    for bad in (float("nan"), float("inf"), -1, 0, 1e300, "5", True):
        with pytest.raises(BoardPuzzlesError):
            Limits(bad)
    with pytest.raises(BoardPuzzlesError):
        Limits(jobs=0)


def test_subtask_keys_are_stable():
    assert subtask_key((3, 1, 4)) == "[3, 1, 4]"
    from boardpuzzles.puzzles.less_than_three import Rules

    assert subtask_key((Rules(7, 1), (2, 5))) == "[[7, 1, 2, null], [2, 5]]"
    assert subtask_key((np.int64(3), np.array([1, 2]))) == "[3, [1, 2]]"


# ------------------------------------------------------------------ checkpoints
def test_a_checkpoint_resumes_without_redoing_finished_subtasks(tmp_path):
    path = str(tmp_path / "run.db")
    calls = []

    def work(spec, limits):
        calls.append(spec)
        return slow_square(spec[0])

    with pytest.raises(TimeLimitReached) as stop:
        run_subtasks(work, TASKS, Limits(0.15, checkpoint=path, jobs=2), identity=IDENTITY)
    first_calls = len(calls)
    assert run_subtasks(work, TASKS, Limits(checkpoint=path), identity=IDENTITY) == WHOLE
    assert len(calls) - first_calls <= len(TASKS) - stop.value.done  # only the rest ran
    assert run_subtasks(work, TASKS, Limits(checkpoint=path, jobs=3), identity=IDENTITY) == WHOLE
    assert len(calls) - first_calls <= len(TASKS) - stop.value.done  # all recorded: nothing ran


def test_a_checkpoint_needs_the_identity_of_its_count(tmp_path):
    with pytest.raises(ValueError, match="identity"):
        run_subtasks(square_work, TASKS, Limits(checkpoint=str(tmp_path / "x.db")))


def test_a_checkpoint_is_bound_to_its_count_and_its_plan(tmp_path):
    path = str(tmp_path / "run.db")
    Checkpoint(path, {"n": 13}, "plan").close()
    with pytest.raises(CheckpointError, match="another count"):
        Checkpoint(path, {"n": 14}, "plan")
    with pytest.raises(CheckpointError, match="splits this count differently"):
        Checkpoint(path, {"n": 13}, "another plan")
    Checkpoint(path, {"n": 13}, "plan").close()  # the right count opens it again


def test_our_files_carry_our_application_id(tmp_path):
    path = str(tmp_path / "run.db")
    Checkpoint(path, {"n": 1}, "plan").close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert not any(name.endswith(("-wal", "-shm", "-journal")) for name in os.listdir(tmp_path))


def test_a_file_that_is_no_checkpoint_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my notes\n" * 100)
    with pytest.raises(CheckpointError, match="not a boardpuzzles checkpoint"):
        Checkpoint(str(path), {}, "plan")
    assert path.read_text() == "my notes\n" * 100


def test_another_programs_database_is_refused_untouched(tmp_path, capsys):
    path = tmp_path / "app.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        db.execute("INSERT INTO meta VALUES ('owner', 'someone else')")
    db.close()
    before = path.read_bytes()
    assert _run(["queens", "count", "8", "--checkpoint", str(path)]) == 2
    assert "another program's SQLite database" in capsys.readouterr().err, report()
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["app.db"]  # no journal, no WAL files left beside it


def test_an_empty_database_becomes_a_checkpoint(tmp_path, capsys):
    path = tmp_path / "empty.db"
    sqlite3.connect(path).close()  # a file of 0 bytes
    assert _run(["queens", "count", "8", "--checkpoint", str(path), "-q"]) == 0
    assert capsys.readouterr().out.strip() == "92"


def test_a_changed_digit_in_a_row_is_refused_naming_the_subtask(tmp_path, capsys):
    """The audit changed one digit of a stored result and got 2281184 for queens 15."""
    path = tmp_path / "q.db"
    assert _run(["queens", "count", "10", "--checkpoint", str(path), "-q"]) == 0
    capsys.readouterr()
    with sqlite3.connect(path) as db:
        key, value = db.execute("SELECT subtask, value FROM done LIMIT 1").fetchone()
        db.execute("UPDATE done SET value = ? WHERE subtask = ?", (str(int(value) + 1000), key))
    db.close()
    assert _run(["queens", "count", "10", "--checkpoint", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "does not verify" in err and key[:20] in err and err.count("\n") == 1


def test_a_checkpoint_damaged_in_the_middle_is_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "q.db"
    assert _run(["queens", "count", "12", "--checkpoint", str(path), "-q"]) == 0
    capsys.readouterr()
    data = bytearray(path.read_bytes())
    for i in range(len(data) // 2, len(data) // 2 + 512):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))
    assert _run(["queens", "count", "12", "--checkpoint", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("boardpuzzles: error: checkpoint") and err.count("\n") == 1


def test_a_checkpoint_in_use_by_another_run_is_refused(tmp_path):
    path = str(tmp_path / "run.db")
    with Checkpoint(path, {"n": 1}, "plan"):
        with pytest.raises(CheckpointError, match="in use"):
            Checkpoint(path, {"n": 1}, "plan")


def test_a_goishi_checkpoint_is_bound_to_the_stones_not_the_file_name(tmp_path, capsys):
    """The audit: count P.txt with a checkpoint -> 1; one stone added to P.txt; the same command
    printed 2 (the true count is 95)."""
    puzzle = tmp_path / "P.txt"
    puzzle.write_text("OOO\n.O.\n")
    db = tmp_path / "p.db"
    assert _run(["goishi", "count", str(puzzle), "--jobs", "1", "--checkpoint", str(db), "-q"]) == 0
    first = capsys.readouterr().out.strip()
    puzzle.write_text("OOO\nOO.\n")  # one stone more: another problem
    assert _run(["goishi", "count", str(puzzle), "--jobs", "1", "--checkpoint", str(db), "-q"]) == 2
    assert "belongs to another count" in capsys.readouterr().err
    assert _run(["goishi", "count", str(puzzle), "--jobs", "1", "-q"]) == 0
    assert capsys.readouterr().out.strip() != first


def test_a_goishi_checkpoint_from_stdin_is_bound_to_the_stones(tmp_path):
    db = tmp_path / "s.db"
    command = [sys.executable, "-c", "from boardpuzzles.cli import main; main()", "goishi", "count", "-"]
    command += ["--checkpoint", str(db), "-q", "--jobs", "1"]
    first = subprocess.run(command, input="OOO\n.O.\n", capture_output=True, text=True, timeout=120)
    assert first.returncode == 0
    other = subprocess.run(command, input="OO.\n.OO\n", capture_output=True, text=True, timeout=120)
    assert other.returncode == 2 and "belongs to another count" in other.stderr
    again = subprocess.run(command, input="OOO\n.O.\n", capture_output=True, text=True, timeout=120)
    assert (again.returncode, again.stdout) == (0, first.stdout)


def test_two_spellings_of_one_problem_share_a_checkpoint(tmp_path, capsys):
    """The identity is canonical: --stones written out or left to its default is one problem."""
    db = str(tmp_path / "l.db")
    assert _run(["less-than-three", "count", "7", "--colours", "1", "--checkpoint", db, "-q"]) == 0
    assert _run(["less-than-three", "count", "7", "-c", "1", "--stones", "14", "--checkpoint", db, "-q"]) == 0
    assert capsys.readouterr().out.split() == ["132", "132"]  # OEIS A000755


def test_the_identity_digest_is_canonical():
    assert digest({"b": 1, "a": [1, 2]}) == digest({"a": [1, 2], "b": 1})
    assert digest({"a": 1}) != digest({"a": 2})


def test_cli_time_limit_exits_3_with_a_partial_json(capsys):
    # 17, not 14: on free cores the kernel counts all 365,596 placements of 14 in about 0.03 s
    code = _run(["queens", "count", "17", "--time-limit", "0.05", "--json", "-q", "--jobs", "1"])
    out, err = capsys.readouterr()
    document = json.loads(out)
    assert code == 3 and document["complete"] is False
    assert 0 <= document["partial_count"] < 95815104  # OEIS A000170: 17 queens
    assert "time limit" in err


def test_a_closed_tour_sweep_stops_part_way_at_its_time_limit(capsys):
    """The closed count sweeps rows before its subtasks: the kernel sees the flag within a row (8x8
    sweeps for about a minute; 6x8 now ends within the limit)."""
    started = time.monotonic()
    code = _run(["knights-tour", "count", "8", "--closed", "--time-limit", "0.2", "--json", "-q"])
    document = json.loads(capsys.readouterr().out)
    assert code == 3 and document["complete"] is False and document["subtasks_done"] == 0
    assert time.monotonic() - started < 1.5 + LOADED  # the whole sweep: about a minute


def test_a_dense_goishi_board_obeys_its_time_limit(capsys):
    """The audit: a 7x7 board full of stones ignored --time-limit 3 (still running at 40 s)."""
    for extra in ([], ["--max", "1000000000"]):
        started = time.monotonic()
        code = _run(["goishi", "count", "goishi/7/7/" + "0" * 10, "--time-limit", "1", "-q", *extra])
        assert code == 3 and time.monotonic() - started < 2.5 + LOADED  # it ran on past 40 s
    capsys.readouterr()


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
                with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
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


def test_ctrl_c_keeps_the_finished_subtasks(tmp_path):
    path = tmp_path / "q.db"
    command = [sys.executable, "-c", "from boardpuzzles.cli import main; main()", "queens", "count", "17"]
    process = subprocess.Popen(
        command + ["--checkpoint", str(path), "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    process.stderr.readline()  # "counting ...": the count has begun
    # Stopped once a subtask is committed (a fixed sleep found none on a loaded machine).
    deadline = time.monotonic() + 120
    kept = 0
    while kept == 0 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
                kept = db.execute("SELECT COUNT(*) FROM done").fetchone()[0]
        except sqlite3.OperationalError:
            pass  # not made yet
    assert kept > 0, "no subtask finished in 120 s"
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=60) == 130
    assert "the finished subtasks are kept" in process.stderr.read()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM done").fetchone()[0] >= kept


# ------------------------------------------------------------------ a real Dask cluster
@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", processes=True, dashboard_address=":0"
    ) as local:
        yield local.scheduler_address


def test_counts_on_a_local_dask_cluster_equal_the_local_ones(cluster, tmp_path):
    from boardpuzzles.puzzles import hyperqueen, knights_tour, less_than_three, queens

    cases = [
        (queens.PUZZLE, queens.Problem(10), 724),  # OEIS A000170
        (hyperqueen.PUZZLE, hyperqueen.problem(13, unique=True), 11),  # OEIS A053994
        (less_than_three.PUZZLE, less_than_three.Problem(less_than_three.Rules(7, 1)), 132),  # OEIS A000755
        (knights_tour.PUZZLE, knights_tour.Problem(5, 5, start=0), 304),  # the seed article
        (knights_tour.PUZZLE, knights_tour.Problem(6, 6, closed=True, undirected=True), 9862),  # OEIS A001230
    ]
    for puzzle, problem, published in cases:
        local = puzzle.count_of(problem)
        assert puzzle.count_of(problem, Limits(scheduler=cluster)) == local == published
    path = str(tmp_path / "dask.db")
    assert queens.count(queens.Problem(9), Limits(checkpoint=path, scheduler=cluster)) == 352
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
    assert err.startswith("boardpuzzles: error: cannot write") and err.count("\n") == 1 and out == ""
    for address in ("nonsense", "host:99999", "tcp://" + "x" * 5000 + ":1"):  # refused before the count begins
        assert _run(["hyperqueen", "count", "13", "--scheduler", address]) == 2
        out, err = capsys.readouterr()
        assert err.startswith("boardpuzzles: error: --scheduler must be a Dask scheduler's address like tcp://")
        assert err.count("\n") == 1 and len(err) < 200 and out == ""


def test_a_run_killed_mid_commit_is_recovered_not_refused(tmp_path, capsys):
    """A run killed during a commit leaves a hot journal that only a read-write open rolls
    back: the next run recovers the file (the review found it refused as damaged)."""
    path = tmp_path / "q.db"
    assert _run(["queens", "count", "11", "--checkpoint", str(path), "-q"]) == 0
    assert capsys.readouterr().out.strip() == "2680"  # OEIS A000170
    crash = (
        "import os, signal, sqlite3, sys\n"
        "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "db.execute('PRAGMA cache_size = 1')\n"  # spill changed pages into the file before the commit
        "db.execute('BEGIN')\n"
        "db.execute('DELETE FROM done')\n"
        'db.execute(\'INSERT INTO done VALUES ("x", "1", "y")\')\n'
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    subprocess.run([sys.executable, "-c", crash, str(path)], check=False)
    journal = tmp_path / "q.db-journal"
    assert journal.exists() and journal.stat().st_size > 0  # hot: the file is half changed
    assert _run(["queens", "count", "11", "--checkpoint", str(path), "-q"]) == 0
    assert capsys.readouterr().out.strip() == "2680"


def test_a_fifo_or_a_device_is_no_checkpoint(tmp_path, capsys):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert _run(["queens", "count", "9", "--checkpoint", str(fifo), "--time-limit", "1"]) == 2
    assert "not a regular file" in capsys.readouterr().err
    assert _run(["queens", "count", "9", "--checkpoint", "/dev/null"]) == 2


def test_recording_that_fails_stops_the_workers(tmp_path):
    """The review: when recording raised (a full disk), the worker threads went on alone."""
    from boardpuzzles import parallel

    class Broken(parallel._Run):
        def record(self, index, value, fresh=True):
            raise OSError("disk full")

    real = parallel._Run
    parallel._Run = Broken
    try:
        limits = Limits(jobs=2)
        with pytest.raises(OSError):
            run_subtasks(square_work, TASKS, limits)
    finally:
        parallel._Run = real
    assert limits.stopped
    time.sleep(0.1)
    assert not [t for t in threading.enumerate() if t.name.startswith("boardpuzzles-") and t.is_alive()]


def test_a_count_stopped_while_it_is_prepared_says_so(capsys):
    code = _run(["less-than-three", "count", "9", "--unique", "--time-limit", "0.01", "-q"])
    assert code == 3 and "one piece of work" not in capsys.readouterr().err


def test_a_soft_time_limit_waits_for_its_work():
    """The computer player's move time is a request (its first move also compiles kernels):
    force=False waits the work out, where the default stops it."""
    soft = Limits(0.1, force=False)
    assert soft.run(lambda: time.sleep(1.0) or "moved") == "moved"
    with pytest.raises(TimeLimitReached):
        Limits(0.1).run(lambda: time.sleep(3.0) or "moved")


def test_a_plan_version_belongs_to_its_work_function(monkeypatch):
    """A module may version each kind of subtask apart (``PLAN_VERSIONS``): the closed-tour plan
    moved to 2 while the files of a days-long open-tour count, made under 1, stay good."""
    from boardpuzzles import parallel
    from boardpuzzles.puzzles import knights_tour as kt

    subtasks, keys = [Subtask("a")], ["a"]
    open_before = parallel.plan_digest(kt._open_work, subtasks, keys, 1)
    closed_before = parallel.plan_digest(kt._closed_piece, subtasks, keys, 1)
    monkeypatch.setitem(kt.PLAN_VERSIONS, "_closed_piece", kt.CLOSED_PLAN_VERSION + 1)
    assert parallel.plan_digest(kt._closed_piece, subtasks, keys, 1) != closed_before
    assert parallel.plan_digest(kt._open_work, subtasks, keys, 1) == open_before
    monkeypatch.setattr(kt, "PLAN_VERSION", 7, raising=False)  # the module's version: the rest
    assert parallel.plan_digest(kt._open_work, subtasks, keys, 1) != open_before


def test_a_thread_given_up_on_may_end_with_any_error_and_it_is_the_stop():
    """A clean clone's first `find 44 --time-limit 0.5` ended in exit 70: the exception that
    ``wait_for`` raises in a thread still compiling landed in numba's compiler, which swallowed
    it and failed with an error of its own. Whatever ends a thread that was given up on is the
    stop, not a bug; an error in a thread that was not given up on still reaches the caller."""
    from boardpuzzles.limits import STOP_INTERRUPT, run_in_threads

    def stubborn(index: int) -> None:
        interrupted = False
        try:
            while True:  # ignores the flag, like a kernel being compiled
                time.sleep(0.001)
        except BaseException:
            interrupted = True
        if interrupted:  # outside the handler: no trace of the stop's exception in this error
            raise RuntimeError("lost in the compiler")

    limits = Limits(jobs=2)
    threading.Timer(0.1, limits.stop, args=(STOP_INTERRUPT,)).start()
    run_in_threads(stubborn, limits, lambda: None)  # no RuntimeError: the stop is the answer
    assert limits.forced_threads

    def broken(index: int) -> None:
        raise ValueError("a real bug")

    with pytest.raises(ValueError):
        run_in_threads(broken, Limits(jobs=2), lambda: None)


def test_a_forced_thread_that_fails_with_another_error_answers_the_stop():
    """The forced exception can land where C code swallows it (numba compiling a kernel, in an
    llvmlite callback), and the thread then fail with an unrelated error: the answer is still the
    stop (exit 3), never an internal error (exit 70). Seen once in a clean clone."""

    def stubborn():
        try:
            while True:
                sum(range(1000))
        except BaseException:
            raise RuntimeError("an unrelated failure after the swallowed stop") from None

    started = time.monotonic()
    with pytest.raises(TimeLimitReached):
        Limits(0.2).run(stubborn)
    assert time.monotonic() - started < 0.2 + 2 * GRACE + 1.5 + LOADED
    # Without a stop the same error is the caller's, as it is.
    with pytest.raises(RuntimeError):
        Limits().run(lambda: (_ for _ in ()).throw(RuntimeError("plain")))


def test_a_refused_checkpoint_says_where_the_counts_differ(tmp_path, capsys):
    """In the user's terms: the parameter that differs, its value in the file and here."""
    db = tmp_path / "q.db"
    assert _run(["queens", "count", "6", "--checkpoint", str(db), "-q"]) == 0
    capsys.readouterr()
    for args, said in (
        (["queens", "count", "7"], "(n 6, here 7)"),
        (["queens", "count", "6", "--unique"], "(group none, here dihedral)"),
        (["hyperqueen", "count", "6"], "(puzzle queens, here hyperqueen; torus no, here yes)"),
    ):
        assert _run([*args, "--checkpoint", str(db), "-q"]) == 2
        err = capsys.readouterr().err
        assert f"belongs to another count {said}; use a new file" in err, err


def test_identity_differences_read_as_values() -> None:
    from boardpuzzles.checkpoint import identity_difference

    here = {"puzzle": "x", "problem": {"n": 8, "torus": True, "cells": [1, 2]}}
    assert identity_difference(here, here) is None
    assert identity_difference({**here, "problem": {"n": 8, "torus": False, "cells": [1, 2]}}, here) == (
        "torus no, here yes"
    )
    assert (
        identity_difference({"puzzle": "x", "problem": {"n": 8}}, here) == "torus none, here yes; cells none, here 1, 2"
    )
    assert identity_difference({**here, "extra": None, "more": 1}, here) == "more 1, here none"
    assert identity_difference("not a mapping", here) is None
    assert identity_difference({"a": {"n": 1}, "n": 2}, {"a": {"n": 1}, "n": 3}) == "n 2, here 3"
    # every difference is named, the first four of them, then how many more
    assert identity_difference({"a": 1, "b": 2}, {"a": 0, "b": 0}) == "a 1, here 0; b 2, here 0"
    many = identity_difference({f"k{i}": i for i in range(6)}, {f"k{i}": -1 for i in range(6)})
    assert many == "k0 0, here -1; k1 1, here -1; k2 2, here -1; k3 3, here -1; and 2 more"
