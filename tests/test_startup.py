"""Start-up: help texts load neither numpy nor numba, and small problems are answered without
numba, with the same answers as the kernels give."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import textwrap
from typing import Any

import pytest

#: Runs every help text of the command line in one process (top level, every puzzle, every
#: command of every puzzle), then says which heavy modules that loaded.
HELP_EVERYWHERE = textwrap.dedent(
    """
    import contextlib, io, json, sys
    from boardpuzzles.cli import _run, cli
    seen = []
    def ask(argv):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = _run(argv)
        assert code == 0 and "Usage:" in out.getvalue(), (argv, code, out.getvalue()[:300])
        seen.append(" ".join(argv))
    ask(["--help"])
    for name, group in cli.commands.items():
        ask([name, "--help"])
        for sub in getattr(group, "commands", {}):
            ask([name, sub, "--help"])
    print(json.dumps({"asked": seen, "loaded": [m for m in ("numpy", "numba", "llvmlite") if m in sys.modules]}))
    """
)


def test_no_help_text_loads_numpy_or_numba() -> None:
    done = subprocess.run([sys.executable, "-c", HELP_EVERYWHERE], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    asked = report["asked"]
    assert "--help" in asked and "queens --help" in asked and "queens count --help" in asked
    assert "goishi solve --help" in asked and len(asked) > 20
    assert report["loaded"] == []


@pytest.mark.parametrize("argv", [["--help"], ["queens", "--help"], ["hyperqueen", "solve", "--help"]])
def test_the_entry_point_loads_no_numpy_for_help(argv: list[str]) -> None:
    """The installed command's own way in (``python -m boardpuzzles``), as a user runs it."""
    probe = (
        "import runpy, sys\n"
        f"sys.argv = ['boardpuzzles', *{argv!r}]\n"
        "try:\n    runpy.run_module('boardpuzzles', run_name='__main__')\n"
        "except SystemExit as end:\n    assert end.code in (0, None), end.code\n"
        "sys.stderr.write(repr(sorted(m for m in ('numpy', 'numba') if m in sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Usage:" in done.stdout
    assert done.stderr.strip().splitlines()[-1] == "[]"


# ---------------------------------------------------------------- what `--help` loads
#: Runs the command line's entry point as `python -m boardpuzzles ARGS` does, and prints the modules
#: it loaded beyond the interpreter's own and click's.
MODULES_LOADED = """
import contextlib, io, json, runpy, sys
import click
before = set(sys.modules)
sys.argv = ["boardpuzzles", *sys.argv[1:]]
with contextlib.redirect_stdout(io.StringIO()):
    try:
        runpy.run_module("boardpuzzles", run_name="__main__")
    except SystemExit:
        pass
print(json.dumps(sorted(set(sys.modules) - before)))
"""

#: Every module of boardpuzzles that `boardpuzzles --help` loads: the command line's own and the
#: registry's light catalogue; no puzzle, no protocol, no drawing. A new one here is start-up time
#: that every command pays (the list of puzzles once imported them all: 0.34 s instead of 0.1).
HELP_MODULES = {
    "boardpuzzles",
    "boardpuzzles._ctrl_c",
    "boardpuzzles._lazy",
    "boardpuzzles.cli",
    "boardpuzzles.cli.common",
    "boardpuzzles.cli.demo",
    "boardpuzzles.cli.serve",
    "boardpuzzles.compiling",
    "boardpuzzles.errors",
    "boardpuzzles.files",
    "boardpuzzles.inputs",
    "boardpuzzles.limits",
    "boardpuzzles.puzzles",
}
#: ... and the most modules in all beyond click's (33 on Python 3.11 with click 8.1: the rest are
#: the standard library's, most of them click's own help formatting); a little room for other
#: versions of Python.
HELP_MODULES_AT_MOST = 36


def modules_loaded(*argv: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", MODULES_LOADED, *argv], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded: list[str] = json.loads(done.stdout)
    return loaded


def test_help_loads_no_puzzle_and_no_more_modules_than_it_did():
    loaded = modules_loaded("--help")
    assert {m for m in loaded if m.startswith("boardpuzzles")} == HELP_MODULES
    assert len(loaded) <= HELP_MODULES_AT_MOST, loaded


@pytest.mark.parametrize(("name", "puzzles"), [("queens", {"queens"}), ("hyperqueen", {"hyperqueen", "queens"})])
def test_a_puzzles_help_loads_that_puzzle_alone(name, puzzles):
    loaded = modules_loaded(name, "--help")
    assert {m.split(".")[2] for m in loaded if m.startswith("boardpuzzles.puzzles.")} == puzzles
    assert "numpy" not in loaded and "importlib.metadata" not in loaded


# ---------------------------------------------------------------- compile time apart from search time
def test_compiling_is_kept_apart_from_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardpuzzles import compiling

    clock = [100.0]
    monkeypatch.setattr(compiling.time, "perf_counter", lambda: clock[0])
    monkeypatch.setattr(compiling, "_stretches", [])
    started = 100.0
    clock[0] = 101.0
    compiling.began()  # a kernel compiles from 101 to 105; a nested one (another thread) inside it
    clock[0] = 102.0
    compiling.began()
    clock[0] = 103.0
    compiling.ended()
    assert compiling.compile_seconds(started) == 2.0  # still compiling: counted up to now
    clock[0] = 105.0
    compiling.ended()
    clock[0] = 106.5
    assert compiling.compile_seconds(started) == 4.0
    assert compiling.search_seconds(started) == 2.5
    assert compiling.compile_seconds(104.0) == 1.0 and compiling.search_seconds(104.0) == 1.5
    assert compiling.compile_seconds(105.5) == 0.0 and compiling.search_seconds(105.5) == 1.0
    compiling.ended()  # an end without a start changes nothing
    assert compiling.compile_seconds(started) == 4.0


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"), reason="kernels run as plain Python")
def test_a_kernel_compiling_is_timed_as_compiling(tmp_path: Any) -> None:
    probe = textwrap.dedent(
        """
        import time
        from boardpuzzles import compiling
        from boardpuzzles._kernels import jit
        def add_one(x):
            return x + 1
        kernel = jit(add_one)
        started = time.perf_counter()
        assert kernel(41) == 42
        print(compiling.compile_seconds(started) > 0, compiling.search_seconds(started) < time.perf_counter() - started)
        """
    )
    script = tmp_path / "probe.py"
    script.write_text(probe)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]


# ---------------------------------------------------------------- small problems: plain Python, same answers
SMALL_COMMANDS = [
    (["queens", "count", "6"], "4"),  # OEIS A000170
    (["hyperqueen", "solve", "7", "--limit", "1"], "Q"),
    (["goishi", "solve", "goishi/6/7/vsten1tvo"], "order: e3 d3 d4 d5 b5 b4 b3 c3 c6 d6 d2"),  # pzprjs's test file
]


@pytest.mark.parametrize(("argv", "expected"), SMALL_COMMANDS)
def test_small_problems_are_answered_without_numba(argv: list[str], expected: str) -> None:
    probe = (
        "import runpy, sys\n"
        f"sys.argv = ['boardpuzzles', *{argv!r}]\n"
        "try:\n    runpy.run_module('boardpuzzles', run_name='__main__')\n"
        "except SystemExit as end:\n    assert end.code in (0, None), end.code\n"
        "sys.stderr.write('\\n' + repr('numba' in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout
    assert done.stderr.strip().splitlines()[-1] == "False"


@pytest.mark.parametrize("torus", [False, True])
def test_small_queens_path_gives_the_kernels_answers(torus: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from boardpuzzles.puzzles import queens

    sizes = range(1, queens.PLAIN_MAX_N + 1)
    plain = {n: list(queens.placements(queens.Problem(n, torus))) for n in sizes}
    counts = {n: queens.count(queens.Problem(n, torus)) for n in sizes}
    monkeypatch.setattr(queens, "PLAIN_MAX_N", 0)  # every size through the kernels
    for n in sizes:
        assert plain[n] == list(queens.placements(queens.Problem(n, torus))), n
        assert counts[n] == queens.count(queens.Problem(n, torus)) == len(plain[n]), n
    # OEIS A000170 and A051906 (the torus) for n = 1..11
    known = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680] if not torus else [1, 0, 0, 0, 10, 0, 28, 0, 0, 0, 88]
    assert [counts[n] for n in sizes] == known


def test_small_goishi_path_gives_the_kernels_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    import random
    import re
    from pathlib import Path

    from boardpuzzles.formats import goishi as formats
    from boardpuzzles.puzzles import goishi as gh
    from boardpuzzles.puzzles.goishi import search

    rng = random.Random(27)
    puzzles = []
    for _ in range(150):
        rows, cols = rng.randint(1, 6), rng.randint(1, 6)
        stones = rng.sample(range(rows * cols), rng.randint(1, min(rows * cols, 14)))
        puzzles.append(gh.Puzzle(rows, cols, tuple(stones)))
    published = Path(__file__).parent / "data" / "goishi" / "published_instances.md"
    for url in re.findall(r"URL: `(goishi/[^`]+)`", published.read_text()):
        puzzle = formats.read(url).puzzle
        if puzzle.size <= search.PLAIN_MAX_STONES:
            puzzles.append(puzzle)
    plain = [list(gh.solutions(p)) for p in puzzles]
    assert sum(1 for found in plain if found) > 20  # the comparison covers puzzles with answers
    monkeypatch.setattr(search, "PLAIN_MAX_STONES", 0)  # every puzzle through the kernel
    for puzzle, found in zip(puzzles, plain, strict=True):
        assert found == list(gh.solutions(puzzle)), puzzle
        assert all(gh.check(puzzle, order) for order in found)


# ---------------------------------------------------------------- warmup on every core
def test_warmup_compiles_every_puzzle_in_worker_processes() -> None:
    """Two workers share the parts of every puzzle's warmup; without a terminal, one line per
    puzzle says it is compiled (the kernels come from the cache the other tests filled)."""
    from boardpuzzles.puzzles import registry

    command = [sys.executable, "-c", "from boardpuzzles.cli import main; main()", "warmup", "--jobs", "2"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    for name, entry in registry().items():
        if entry.warm_parts():
            assert sum(line.startswith(f"compiled {name} (") for line in lines) == 1, (name, done.stderr)
    assert lines[-1].startswith("kernels ready (") or "compiled the kernels in" in lines[-1]


def test_a_warmup_tuple_is_parts_that_run_apart() -> None:
    from boardpuzzles.puzzles import registry

    calls: list[str] = []
    lt3 = registry()["less-than-three"]
    assert len(lt3.warm_parts()) > 1  # its parts compile side by side
    puzzle = dataclasses.replace(lt3, warmup=(lambda: calls.append("a"), lambda: calls.append("b")))
    assert len(puzzle.warm_parts()) == 2
    puzzle.warm()
    assert calls == ["a", "b"]
    single = dataclasses.replace(lt3, warmup=lambda: calls.append("c"))
    assert len(single.warm_parts()) == 1


def test_a_command_reports_only_its_own_compiling(capsys):
    """The compile line counts the compiling since the command began: a command run in a process
    that compiled kernels earlier (a test run, a script) reported all of it ("compiled the kernels
    in 152.2 s" after a one-line refusal)."""
    import time

    from boardpuzzles import compiling
    from boardpuzzles.cli import main

    compiling.began()  # an earlier compilation in this process
    time.sleep(0.05)
    compiling.ended()
    with pytest.raises(SystemExit) as stop:
        main(["queens", "count", "4"])
    assert stop.value.code == 0
    out, err = capsys.readouterr()
    assert out == "2\n"  # OEIS A000170
    assert "compiled the kernels" not in err


def test_a_command_run_in_process_leaves_the_callers_ctrl_c_to_it(capsys):
    """``main`` goes deaf to Ctrl-C once its outcome is decided; the suite's conftest puts Python's
    handler back after each test, so that the commands later tests start are not born deaf (an
    ignored signal is inherited)."""
    import signal

    from boardpuzzles.cli import main

    with pytest.raises(SystemExit):
        main(["queens", "count", "4"])
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # what the conftest undoes


def test_the_caller_got_its_ctrl_c_back():
    import signal

    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
