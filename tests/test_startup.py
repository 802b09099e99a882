"""Start-up: help texts load neither numpy nor numba, and small problems are answered without
numba, with the same answers as the kernels give."""

from __future__ import annotations

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
