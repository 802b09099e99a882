"""Every registered puzzle passes the same checks, through the same command line.

The registry is the only list: a new puzzle module with a ``PUZZLE`` is picked up here with no
change to this file (pgx's ``api_test``, Simon Tatham's one interface). For each puzzle:

- the protocol: a glossary, lazy solutions, the small problem's published number of solutions,
  every answer passing the puzzle's own checker, JSON and text round trips;
- the command line: one JSON shape for solve / count / check, the count alone on the last line,
  exit codes (0 answered, 1 negative, 2 bad input, 3 stopped at a time limit, 130 Ctrl-C), a
  checkpoint round trip (resumed, tampered, borrowed by another count), a time limit that
  answers within a second, Ctrl-C that ends the run within a second, and a table of bad input.

Each puzzle's small problem and its count name their published source in the puzzle's module.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardpuzzles.cli import _run
from boardpuzzles.faults import Fault
from boardpuzzles.limits import Limits
from boardpuzzles.protocol import Game, Puzzle
from boardpuzzles.puzzles import registry
from tests.timing import LOADED, process_cpu_seconds, wait_measured

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = {name: entry for name, entry in registry().items() if isinstance(entry, Puzzle)}
NAMES = sorted(PUZZLES)
#: How long after the time limit (or after Ctrl-C) a command may take to answer.
PROMPT = 1.0


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = _run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def small_words(puzzle: Puzzle) -> list[str]:
    import shlex

    return shlex.split(puzzle.small)


def small_answers(puzzle: Puzzle) -> tuple[object, list[object]]:
    problem = puzzle.parse(puzzle.small)
    return problem, list(puzzle.solutions(problem, Limits()))


def check_values(puzzle: Puzzle) -> dict[str, object]:
    """The values of ``check``'s parameters for the small problem."""
    values = puzzle.parse_values(puzzle.small)
    return {name: values[name] for name in puzzle.check_params if name in values}


# ---------------------------------------------------------------- the registry
def test_the_registry_lists_every_puzzle_module_and_the_game():
    assert {"queens", "hyperqueen", "less-than-three", "knights-tour", "goishi", "kings"} <= set(PUZZLES)
    assert isinstance(registry()["baikago"], Game)


def test_every_cli_group_comes_from_the_registry():
    from boardpuzzles.cli import cli

    assert set(registry()) <= set(cli.commands)
    assert set(cli.commands) - set(registry()) == {"demo", "warmup", "serve"}


# ---------------------------------------------------------------- the protocol
@pytest.mark.parametrize("name", NAMES)
def test_the_protocol_on_the_small_problem(name):
    puzzle = PUZZLES[name]
    where = puzzle.solutions.__module__.split(".")
    # The puzzle's own module, or the package it lives in (``puzzles/goishi/``): it opens with a glossary.
    module = sys.modules[".".join(where[:3]) if where[:2] == ["boardpuzzles", "puzzles"] else ".".join(where)]
    assert "Glossary" in (module.__doc__ or ""), f"{name}: the module opens with a glossary"
    assert puzzle.small_source, f"{name}: the small count names its source"
    problem = puzzle.parse(puzzle.small)
    assert isinstance(puzzle.solutions(problem, Limits()), Iterator)  # lazy, not a list
    _, answers = small_answers(puzzle)
    assert len(answers) == puzzle.count_of(problem) == puzzle.small_count
    assert puzzle.count_up_to(problem, 2) == min(2, puzzle.small_count)
    for answer in answers:
        assert puzzle.violations(problem, answer) == []
        document = json.loads(json.dumps(puzzle.answer_to_json(problem, answer)))
        assert puzzle.answer_from_json(problem, document) == answer
        again, read = puzzle.read_answer(check_values(puzzle), puzzle.text_of(problem, answer))
        assert read == answer and puzzle.violations(again, read) == []
    identity = puzzle.problem_identity(problem)
    assert json.loads(json.dumps(identity)) == identity and identity["puzzle"] == name


@pytest.mark.parametrize("name", NAMES)
def test_a_wrong_answer_is_named_by_the_checker(name):
    puzzle = PUZZLES[name]
    problem, answers = small_answers(puzzle)
    first, second = answers[0], answers[-1]
    # Half of one answer and half of another (or a truncated one) is no solution.
    if isinstance(first, tuple):
        broken = first[: len(first) // 2]
    else:
        broken = type(first)(first.grid)  # an empty board
    faults = puzzle.violations(problem, broken)
    assert faults and all(isinstance(fault, Fault) for fault in faults)
    assert all(fault.kind in ("wrong", "unfinished") for fault in faults)  # a checker finds no aids
    grid = getattr(problem, "grid", None) or getattr(broken, "grid", None)
    for fault in faults:  # the squares and the lines' ends are the board's
        assert all(0 <= cell < grid.size for cell in (*fault.cells, *(end for line in fault.lines for end in line)))
    assert second is not None


# ---------------------------------------------------------------- the command line
@pytest.mark.parametrize("name", NAMES)
def test_solve_json_shape_and_text(capsys, name):
    puzzle = PUZZLES[name]
    words = small_words(puzzle)
    code, out, _ = run(capsys, name, "solve", *words, "--json", "--limit", "100000")
    assert code == 0
    document = json.loads(out)
    assert set(document) == {"puzzle", "problem", "solutions", "count", "complete"}
    assert document["puzzle"] == name and document["complete"] is True
    assert document["count"] == len(document["solutions"]) == puzzle.small_count
    problem = puzzle.parse(puzzle.small)
    assert document["problem"] == puzzle.problem_identity(problem)["problem"]
    for item in document["solutions"]:
        assert set(item) == {"answer", "board"}
        answer = puzzle.answer_from_json(problem, item["answer"])
        assert puzzle.violations(problem, answer) == []
        assert item["board"] == puzzle.text_of(problem, answer).split("\n")
    code, out, _ = run(capsys, name, "solve", *words, "--limit", "1")
    assert code == 0 and out.rstrip("\n") == puzzle.text_of(problem, next(puzzle.solutions(problem, Limits())))


@pytest.mark.parametrize("name", NAMES)
def test_count_prints_the_number_alone_and_json(capsys, name):
    puzzle = PUZZLES[name]
    words = small_words(puzzle)
    code, out, _ = run(capsys, name, "count", *words, "--jobs", "2")
    assert code == 0 and out.splitlines()[-1] == str(puzzle.small_count)
    code, out, _ = run(capsys, name, "count", *words, "--json", "--quiet")
    document = json.loads(out)
    assert code == 0
    assert set(document) == {"puzzle", "problem", "count", "complete", "at_least", "jobs", "seconds", "compile_seconds"}
    assert (document["puzzle"], document["count"], document["complete"]) == (name, puzzle.small_count, True)
    code, out, _ = run(capsys, name, "count", *words, "--max", "1", "--json")
    assert code == 0 and json.loads(out)["count"] == 1 and json.loads(out)["at_least"] is True


@pytest.mark.parametrize("name", NAMES)
def test_check_reads_back_what_solve_prints(capsys, tmp_path, name):
    puzzle = PUZZLES[name]
    problem, answers = small_answers(puzzle)
    answer_file = tmp_path / "answer.txt"
    answer_file.write_text(puzzle.text_of(problem, answers[0]) + "\n")
    args = [name, "check", *_check_words(puzzle), str(answer_file)]
    code, out, _ = run(capsys, *args)
    assert code == 0 and out.startswith("a solution")
    code, out, _ = run(capsys, *args, "--json")
    document = json.loads(out)
    assert set(document) == {"puzzle", "problem", "valid", "faults", "violations"}
    assert document["valid"] is True and document["violations"] == [] and document["faults"] == []
    answer_file.write_text("\n")
    assert run(capsys, *args)[0] in (1, 2)  # an empty answer: unreadable or wrong, never 0


def _check_words(puzzle: Puzzle) -> list[str]:
    """The small problem's words that ``check`` takes (its check_params, as typed)."""
    import shlex

    words = shlex.split(puzzle.small)
    positional = [p for p in puzzle.params if p.positional]
    kept = []
    i = 0
    while i < len(words):
        word = words[i]
        option = next((p for p in puzzle.params if not p.positional and word in (p.option, p.short)), None)
        if option is None:
            param = positional.pop(0)
            if param.name in puzzle.check_params:
                kept.append(word)
        else:
            takes_value = option.kind != "flag"
            if option.name in puzzle.check_params:
                kept += words[i : i + 1 + takes_value]
            i += takes_value
        i += 1
    return kept


@pytest.mark.parametrize("name", NAMES)
def test_a_checkpoint_round_trip(capsys, tmp_path, name):
    puzzle = PUZZLES[name]
    words = small_words(puzzle)
    db = str(tmp_path / "count.db")
    for _ in range(2):  # made, then resumed with every subtask done
        code, out, _ = run(capsys, name, "count", *words, "--checkpoint", db, "-q")
        assert (code, out.splitlines()[-1]) == (0, str(puzzle.small_count))
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT subtask, value FROM done").fetchall()
        assert rows, "the subtasks are recorded"
        key, value = rows[0]
        connection.execute("UPDATE done SET value = ? WHERE subtask = ?", (str(int(value) + 1), key))
    code, out, err = run(capsys, name, "count", *words, "--checkpoint", db)
    assert code == 2 and "does not verify" in err and out == ""
    other = str(tmp_path / "other.db")
    run(capsys, name, "count", *words, "--checkpoint", other, "-q")
    slow = puzzle.slow.split()
    code, _, err = run(capsys, name, "count", *slow, "--checkpoint", other, "--time-limit", "20")
    assert code == 2 and "belongs to another count" in err


def _command(*args: str) -> list[str]:
    return [sys.executable, "-c", "from boardpuzzles.cli import main; main()", *args]


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_a_time_limit_answers_within_a_second(name):
    puzzle = PUZZLES[name]
    limit = 1.0
    started = time.monotonic()
    done = subprocess.run(
        _command(name, "count", *puzzle.slow.split(), "--time-limit", str(limit), "--json", "--jobs", "2"),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    wall = time.monotonic() - started
    assert done.returncode == 3, done.stderr
    document = json.loads(done.stdout)
    # The limit is a wall-clock promise, which a loaded machine may stretch by a few seconds; work
    # that ignored it ran for minutes (each puzzle's `slow` problem).
    assert document["complete"] is False and document["seconds"] < limit + PROMPT + LOADED
    assert "Traceback" not in done.stderr and wall < 30


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_ctrl_c_ends_a_count_within_a_second(name):
    puzzle = PUZZLES[name]
    process = subprocess.Popen(
        _command(name, "count", *puzzle.slow.split(), "--jobs", "2"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stderr is not None
        process.stderr.readline()  # "counting ...": the count has begun
        time.sleep(1.0)
        assert process.poll() is None, "the slow count ended by itself"
        before = process_cpu_seconds(process.pid)
        process.send_signal(signal.SIGINT)
        started = time.monotonic()
        after = wait_measured(process, timeout=10) - before
        assert after < PROMPT, f"{after:.2f} s of CPU after the signal"  # what a busy machine does not stretch
        assert time.monotonic() - started < PROMPT + LOADED
        assert process.returncode == 130
        assert "Traceback" not in process.stderr.read()
    finally:
        process.kill()


BAD_SIZES = ["0", "-1", "abc", "1" * 5000, "2\u00b2", "nan", ""]


@pytest.mark.parametrize("name", NAMES)
def test_bad_input_is_one_line_and_exit_2(capsys, name):
    puzzle = PUZZLES[name]
    first = next(p for p in puzzle.params if p.positional)
    bad_words = BAD_SIZES if first.kind in ("size", "side") else ["/no/such/file.txt", "1" * 5000]
    for command in ("solve", "count"):
        for bad in bad_words:
            code, out, err = run(capsys, name, command, bad)
            assert code == 2, (command, bad[:20], err)
            assert err.startswith("boardpuzzles: error:") and err.count("\n") == 1 and len(err) < 400
        code, _, err = run(capsys, name, command, *small_words(puzzle), "--no-such-option")
        assert code == 2 and "no such option" in err
    code, _, err = run(capsys, name, "count", *small_words(puzzle), "--time-limit", "nan")
    assert code == 2 and err.count("\n") == 1
    code, _, err = run(capsys, name, "count", *small_words(puzzle), "--jobs", "0")
    assert code == 2 and err.count("\n") == 1


@pytest.mark.parametrize("name", sorted(registry()))
def test_every_help_lists_every_exit_code(capsys, name):
    from boardpuzzles.cli import cli

    group = cli.commands[name]
    for command in group.commands:
        code, out, _ = run(capsys, name, command, "--help")
        assert code == 0 and "Exit codes" in out and "70" in out, f"{name} {command} --help"
