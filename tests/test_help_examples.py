"""Every example that a `--help` shows runs, each in a process of its own, as `test_readme.py` runs
the README's.

The examples are the lines under "Examples:", "Example:" and "Try:" in the help of every command
and group, found by walking the click tree from ``boardpuzzles.cli.cli``. Each line runs in bash
(pipes, redirections and ``# comments`` as a reader would type them) in a fresh folder that holds
the files the examples name (``board.txt``, ``game.txt`` and a copy of ``tests/data``), with
``boardpuzzles`` on the PATH and nothing on standard input. It must answer (exit 0, or 1 for a
negative answer) without a traceback: exit 2 means the example itself is wrong, 70 a bug.

Two lists keep the run short and unattended, each with its reason: ``NOT_RUN`` (examples that
cannot end by themselves or take minutes) and ``TIME_LIMITED`` (searches that may take tens of
seconds on a busy machine: they run with a short ``--time-limit`` and may also stop there,
exit 3). Both lists are checked against the help, so they cannot name examples that are gone.
The examples run side by side on a few threads, once for the whole run however many workers run
these tests. ``boardpuzzles`` on their PATH is tests/warm.py's launcher: each command runs in a
process forked from one that has started already (numba and numpy imported), with the line's own
streams, folder and exit status; otherwise the start would be most of their time.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import click
import pytest

from boardpuzzles.cli import cli
from tests.once import once_per_run
from tests.warm import launcher

ROOT = Path(__file__).resolve().parent.parent
HEADERS = ("Examples:", "Example:", "Try:")

NOT_RUN = {
    "boardpuzzles baikago serve --port 8015      # then open http://127.0.0.1:8015/": (
        "serves until Ctrl-C, on a fixed port that another run may hold (the server is tested in "
        "test_baikago_cli.py and test_web_baikago.py)"
    ),
    "boardpuzzles serve --port 8016      # then open http://127.0.0.1:8016/": (
        "serves until Ctrl-C, on a fixed port that another run may hold (the server is tested in "
        "test_play_web.py and test_play_browser.py)"
    ),
    "boardpuzzles goishi generate 15x15 --stones 40 --to url": (
        "10 to 30 s when it succeeds, and gives up only at its 60 s limit (generation is tested on "
        "smaller boards in test_goishi.py)"
    ),
}
#: Searches for one board that take seconds to tens of seconds: run with this time limit added.
TIME_LIMITED = {
    "boardpuzzles less-than-three find 23": "--time-limit 2",
    "boardpuzzles less-than-three find 24 --svg big.svg": "--time-limit 2",
    "boardpuzzles less-than-three find 20": "--time-limit 2",
    "boardpuzzles less-than-three find 17 --seed 3 --json": "--time-limit 2",
    "boardpuzzles goishi layouts 5": "--time-limit 1",  # seconds (8 CPU s); counted whole in test_goishi_generator.py
    # hours of work, kept in its checkpoint: the example shows how to go on with it
    "boardpuzzles goishi layouts 6 --checkpoint six.db --time-limit 3600": "--time-limit 1",
}

BAIKAGO_GAME = '[Game "Baikago"]\n[Size "9"]\n\n1. e5 a1 2. d5 a9\n'


def _walk(command: click.Command, path: list[str]):
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from _walk(sub, [*path, name])


def help_examples() -> list[tuple[str, str]]:
    """(command path, example line) for every example in every help, in order, once each."""
    found: dict[str, str] = {}
    for path, command in _walk(cli, ["boardpuzzles"]):
        text = command.get_help(click.Context(command, info_name=" ".join(path)))
        under = False
        for line in text.splitlines():
            stripped = line.strip()
            if stripped in HEADERS:
                under = True
            elif not stripped:
                under = False
            elif under:
                found.setdefault(stripped, " ".join(path))
    return [(where, example) for example, where in found.items()]


EXAMPLES = help_examples()
RUNNABLE = [example for _, example in EXAMPLES if example not in NOT_RUN]


def test_every_command_with_a_purpose_has_examples():
    assert len(EXAMPLES) >= 40
    places = {where for where, _ in EXAMPLES}
    for command in ("knights-tour find", "baikago play", "baikago judge", "goishi animate", "less-than-three find"):
        assert f"boardpuzzles {command}" in places


def test_the_lists_of_exceptions_name_real_examples():
    examples = {example for _, example in EXAMPLES}
    assert set(NOT_RUN) <= examples and set(TIME_LIMITED) <= examples


def test_the_files_goishi_examples_read_come_with_the_source():
    """A reader runs the examples in a clone of the repository (as the README says): a file an
    example reads is one that is there, not a name of the reader's own file."""
    for where, example in EXAMPLES:
        if where.startswith("boardpuzzles goishi"):
            words = example.split()
            read = [w for k, w in enumerate(words) if w.endswith(".txt") and words[k - 1] not in ("-o", "--output")]
            assert all((ROOT / w).is_file() for w in read), example


def test_each_example_is_on_a_line_of_its_own():
    """A help whose paragraphs run together would glue examples into one long line."""
    for where, example in EXAMPLES:
        assert example.count("boardpuzzles ") == 1, f"{where}: {example}"
        assert "Exit codes" not in example


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """Every runnable example, run once (side by side): example -> CompletedProcess."""
    folder = tmp_path_factory.mktemp("examples")
    shutil.copy(ROOT / "tests" / "data" / "baikago" / "seed_board.txt", folder / "board.txt")
    (folder / "game.txt").write_text(BAIKAGO_GAME)
    shutil.copytree(ROOT / "tests" / "data", folder / "tests" / "data")
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    launcher(bin_dir)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "COLUMNS": "100"}
    env.pop("BOARDPUZZLES_DEBUG", None)

    def run(example: str) -> subprocess.CompletedProcess:
        line = example
        if example in TIME_LIMITED:
            command, hash_, comment = example.partition(" #")
            line = f"{command} {TIME_LIMITED[example]}{hash_}{comment}"
        return subprocess.run(
            ["bash", "-c", line],
            cwd=folder,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=300,
        )

    def run_all() -> dict[str, subprocess.CompletedProcess]:
        with ThreadPoolExecutor(max_workers=4) as pool:
            return dict(zip(RUNNABLE, pool.map(run, RUNNABLE), strict=True))

    return once_per_run(tmp_path_factory, "help-examples", run_all)


@pytest.mark.parametrize("example", RUNNABLE)
def test_help_example_runs(results, example):
    done = results[example]
    allowed = {0, 1, 3} if example in TIME_LIMITED else {0, 1}
    shown = f"{example}\nexit {done.returncode}\n{done.stderr[-2000:]}"
    assert done.returncode in allowed, shown
    assert "Traceback" not in done.stdout + done.stderr, shown
    assert "error" not in done.stderr.lower() or done.returncode != 0, shown


def test_every_option_of_every_command_is_described():
    """Options listed bare (`less-than-three check` once showed -c and -k without a word) leave a
    reader guessing: each option of each command has a help text."""
    for path, command in _walk(cli, ["boardpuzzles"]):
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                assert param.help, f"{' '.join(path)} {param.opts[0]}"
    check = cli.commands["less-than-three"].commands["check"]
    text = check.get_help(click.Context(check, info_name="boardpuzzles less-than-three check"))
    assert "-c, --colours C" in text and "Number of colours" in text
    assert "-k, --max-in-line K" in text and "At most K stones of one colour on any line" in text
