"""Writing the answer is part of the command. A standard output that cannot take it (closed with
`>&-`, a full disk as `/dev/full` stands for) is exit 2 with one line on stderr, never exit 0 with
the answer lost nor exit 70; a standard error that takes nothing loses the notes, not the answer;
a reader that leaves on purpose (`head`) is a quiet exit 0. Output paths that name a folder are refused
before any work."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FULL = "/dev/full"
needs_dev_full = pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full on this system")

#: The audit's reproducers: a count, a listing, a conversion, a built answer, and help.
COMMANDS = [
    ["queens", "count", "8"],
    ["queens", "solve", "6"],
    ["goishi", "convert", "goishi/6/7/vsten1tvo", "--to", "rows"],
    ["knights-tour", "find", "6"],
    ["--help"],
]


def run(args: list[str], redirect: str, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    """``boardpuzzles ARGS`` in a fresh process with a shell redirection (``>&-``, ``>/dev/full``,
    ``2>&-``...); stdout and stderr otherwise captured."""
    script = f'exec "$@" {redirect}'
    argv = ["sh", "-c", script, "sh", sys.executable, "-m", "boardpuzzles", *args]
    return subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=timeout)


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_a_closed_stdout_is_an_error_not_a_lost_answer(args):
    done = run(args, ">&-")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "boardpuzzles: error: cannot write to standard output: it is closed"
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr


@needs_dev_full
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_a_full_stdout_is_bad_output_not_an_internal_error(args):
    done = run(args, f">{FULL}")
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last == "boardpuzzles: error: cannot write to standard output: No space left on device"
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr


@needs_dev_full
@pytest.mark.parametrize("redirect", [f"2>{FULL}", "2>&-"])
@pytest.mark.parametrize(
    ("args", "answer"),
    [
        (["queens", "count", "8"], "92\n"),  # OEIS A000170; the count writes a note on stderr first
        (["queens", "count", "8", "--json"], '"count": 92'),
        (["queens", "solve", "4", "--limit", "1"], ". Q . ."),
    ],
    ids=["count", "count --json", "solve"],
)
def test_an_unusable_stderr_does_not_stop_the_answer(redirect, args, answer):
    """Notes on stderr are not the answer: a standard error that takes nothing (closed, a full
    disk) loses them, and the answer still reaches stdout with the answer's exit code."""
    done = run(args, redirect)
    assert done.returncode == 0
    assert answer in done.stdout


@needs_dev_full
@pytest.mark.parametrize("redirect", [f">{FULL} 2>{FULL}", ">&- 2>&-"])
def test_unusable_stdout_and_stderr_are_exit_2_quietly(redirect):
    done = run(["queens", "count", "8"], redirect)
    assert done.returncode == 2
    assert done.stdout == done.stderr == ""  # both redirected: nowhere was left to say why


@needs_dev_full
def test_a_large_listing_to_a_full_disk_stops_at_the_first_write():
    done = run(["queens", "solve", "14", "--json"], f">{FULL}")  # 365,596 answers (OEIS A000170)
    assert done.returncode == 2 and "No space left on device" in done.stderr


def test_answers_still_reach_a_working_stdout():
    done = run(["queens", "count", "8"], "")
    assert done.returncode == 0 and done.stdout == "92\n"  # OEIS A000170


def test_a_reader_that_leaves_early_is_a_quiet_success():
    script = f'"{sys.executable}" -m boardpuzzles queens solve 10 | head -c 1; exit "${{PIPESTATUS:-0}}"'
    done = subprocess.run(["bash", "-c", "set -o pipefail; " + script], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout == "Q" and done.stderr == ""


# ---------------------------------------------------------------- paths that name a folder
@pytest.mark.parametrize("path", ["outdir/", "outdir/.", "missing/outdir/", ".", "..", "/"])
def test_names_a_folder(path):
    from boardpuzzles.files import names_a_folder

    assert names_a_folder(path)


@pytest.mark.parametrize("path", ["out.svg", "outdir/out.svg", "./out.svg", "/dev/null", ".hidden"])
def test_names_a_file(path):
    from boardpuzzles.files import names_a_folder

    assert not names_a_folder(path)


def test_the_library_write_refuses_a_folder_path(tmp_path):
    from boardpuzzles.files import replace_file

    with pytest.raises(IsADirectoryError):
        replace_file(str(tmp_path / "outdir") + "/", [b"x"])
    assert not (tmp_path / "outdir").exists()


OPTIONS = [
    ["queens", "solve", "6", "--limit", "1", "--svg"],
    ["queens", "solve", "6", "--limit", "1", "--png"],
    ["less-than-three", "count", "4", "--checkpoint"],
    ["goishi", "convert", "goishi/6/7/vsten1tvo", "--to", "rows", "-o"],
    ["goishi", "animate", "goishi/6/7/vsten1tvo", "--gif"],
    ["baikago", "solve", "3", "--proof"],
]


@pytest.mark.parametrize("words", OPTIONS, ids=lambda w: w[-1])
@pytest.mark.parametrize("ending", ["/", "/."])
def test_an_output_path_that_names_a_folder_is_refused_before_any_work(words, ending, tmp_path, capsys, monkeypatch):
    from boardpuzzles.cli import _run

    monkeypatch.chdir(tmp_path)
    code = _run([*words, "outdir" + ending])
    out, err = capsys.readouterr()
    assert code == 2, err
    assert err.startswith(f"boardpuzzles: error: cannot write outdir{ending}: it names a folder") and out == ""
    assert "\n" not in err.strip() and not (tmp_path / "outdir").exists()


def test_an_existing_folder_is_refused(tmp_path, capsys):
    from boardpuzzles.cli import _run

    assert _run(["queens", "solve", "6", "--limit", "1", "--svg", str(tmp_path)]) == 2
    assert "it is a folder" in capsys.readouterr().err


# ---------------------------------------------------------------- the true reason a file cannot be written
@pytest.mark.parametrize(
    ("code", "says"),
    [
        (errno.ENOENT, "takes no new files"),  # /proc answers so about a folder that is there
        (errno.EROFS, "is on a read-only file system"),
        (errno.EACCES, "is not writable"),
        (errno.ENOSPC, "No space left on device"),
    ],
)
def test_a_folder_that_takes_no_new_file_is_named_for_what_it_is(monkeypatch, tmp_path, code, says):
    import tempfile

    import click

    from boardpuzzles.cli.common import check_writable, write_file_atomically

    def refuse(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(tempfile, "mkstemp", refuse)  # the probe before any work, and the write itself
    for attempt in (
        lambda: check_writable(str(tmp_path / "out.svg")),
        lambda: write_file_atomically(str(tmp_path / "out.svg"), "x"),
    ):
        with pytest.raises(click.UsageError) as refused:
            attempt()
        message = refused.value.message
        assert message.startswith(f"cannot write {tmp_path / 'out.svg'}: ") and says in message, message
        if code != errno.ENOENT:
            continue
        assert "No such file or directory" not in message  # the audit's misleading reason


@pytest.mark.skipif(not os.path.isfile("/proc/version"), reason="no /proc on this system")
def test_an_svg_into_a_system_file_says_its_folder_takes_no_new_files():
    done = run(["queens", "solve", "4", "--limit", "1", "--svg", "/proc/version"], "")
    assert done.returncode == 2 and done.stdout == ""
    reason = done.stderr.strip().splitlines()[-1]
    assert reason in (
        "boardpuzzles: error: cannot write /proc/version: folder /proc takes no new files",
        "boardpuzzles: error: cannot write /proc/version: folder /proc is not writable",  # not run as root
    )


@pytest.mark.parametrize("numba_first", [False, True], ids=["kernels first", "numba first"])
def test_compiling_never_replaces_the_standard_streams(numba_first):
    # Where colorama is installed (the docs' extra brings it), numba marked up its compiler's
    # messages inside colorama's init() and deinit(), which replace sys.stdout and sys.stderr for
    # the whole process and put back what they found: a kernel compiling on a worker thread put
    # stale streams back under the main thread, and a command's output went to the wrong stream
    # (seen in the in-process fuzz tests: 'boardpuzzles: error: ...' lost, 1 run in 4). Here a
    # compile that fails typing (numba marks up its message) must not touch colorama at all.
    pytest.importorskip("colorama")
    script = f"""
import colorama, colorama.initialise
calls = []
real = colorama.init
colorama.init = colorama.initialise.init = lambda *a, **k: calls.append(1) or real(*a, **k)
if {numba_first}:
    import numba
import boardpuzzles._kernels
import numba
try:
    numba.njit(lambda x: x.no_such_attribute)(1)
except numba.core.errors.TypingError:
    pass
print(len(calls))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"
