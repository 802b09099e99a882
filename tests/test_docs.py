"""The documentation site: every page's examples run, and the site builds in strict mode.

Console blocks (`$ boardpuzzles ...` and the lines it prints) and Python blocks (`pycon`
doctests) of every page under docs/ run exactly as the README's do (tests/test_readme.py). The
commands only shown (```sh blocks: they write files, serve, or take minutes) must name real
commands and options. The site is built with `mkdocs build --strict` into a temporary folder:
a broken link, a missing page or a reference that does not resolve fails the test.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

import pytest

from tests.test_readme import EXAMPLES as README_EXAMPLES
from tests.test_readme import ROOT, console_examples, python_blocks, run_console_example, run_python_blocks

DOCS = ROOT / "docs"
PAGES = sorted(p.relative_to(ROOT).as_posix() for p in DOCS.rglob("*.md"))
ALL_EXAMPLES = [
    (page, command, expected)
    for page in PAGES
    for command, expected in console_examples((ROOT / page).read_text(encoding="utf-8"))
]
# An example shown on several pages (or in the README, whose test runs it) runs once.
_seen = set(README_EXAMPLES)
EXAMPLES = []
for _page, _command, _expected in ALL_EXAMPLES:
    if (_command, _expected) not in _seen:
        _seen.add((_command, _expected))
        EXAMPLES.append((_page, _command, _expected))
PYTHON_PAGES = [page for page in PAGES if python_blocks((ROOT / page).read_text(encoding="utf-8"))]


def test_every_puzzle_has_a_page_with_examples():
    from boardpuzzles.puzzles import registry

    for name in registry():
        assert f"docs/puzzles/{name}.md" in PAGES
        assert any(page == f"docs/puzzles/{name}.md" for page, _, _ in ALL_EXAMPLES), f"no example for {name}"


@pytest.mark.parametrize("page,command,expected", EXAMPLES, ids=[f"{p}: {c}" for p, c, _ in EXAMPLES])
def test_console_example(page, command, expected):
    run_console_example(command, expected)


@pytest.mark.parametrize("page", PYTHON_PAGES)
def test_python_examples(monkeypatch, page):
    monkeypatch.chdir(ROOT)
    failures = run_python_blocks((ROOT / page).read_text(encoding="utf-8"), page)
    assert failures == 0, f"{failures} doctest failures in {page} (see output above)"


def test_the_gallery_shows_every_picture_it_has():
    gallery = (DOCS / "gallery.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"\(gallery/([^)]+\.png)\)", gallery))
    assert shown and shown == {p.name for p in (DOCS / "gallery").glob("*.png")}
    assert sum(p.stat().st_size for p in (DOCS / "gallery").glob("*.png")) < 750_000


def test_the_site_builds_in_strict_mode(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install '.[docs]')")
    pytest.importorskip("mkdocstrings")
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    cli = (tmp_path / "site" / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    # the generated CLI reference holds every command of every puzzle, with its exit codes
    from boardpuzzles.puzzles import registry

    for name in registry():
        assert f"boardpuzzles {name}" in cli
    assert "Exit codes" in cli or "exit codes" in cli
    # The site works offline: no page loads a font, a style sheet, a script or a picture from elsewhere.
    for page in (tmp_path / "site").rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r'<(?:script|link|img)\b[^>]*\b(?:src|href)="(?:https?:)?//', text), page
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text, page


def shell_commands(text: str) -> list[list[str]]:
    """The `boardpuzzles ...` commands of the ```sh blocks, as words, up to a pipe, redirection
    or comment (these are shown, not run: they write files, serve, or take minutes)."""
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M):
        for line in block.splitlines():
            line = line.split(" #")[0].strip()
            if "boardpuzzles " not in line:
                continue
            words = shlex.split(line[line.index("boardpuzzles ") :])
            end = next((i for i, w in enumerate(words) if w in {"|", ">", ">>"}), len(words))
            commands.append(words[:end])
    return commands


SHELL_COMMANDS = [
    (page, words)
    for page in ["README.md", *PAGES]
    for words in shell_commands((ROOT / page).read_text(encoding="utf-8"))
]


@pytest.mark.parametrize("page,words", SHELL_COMMANDS, ids=[f"{p}: {' '.join(w)}" for p, w in SHELL_COMMANDS])
def test_shown_commands_name_real_commands_and_options(page, words):
    import click

    from boardpuzzles.cli import cli

    command, ctx = cli, click.Context(cli, info_name="boardpuzzles")
    rest = words[1:]
    while isinstance(command, click.Group) and rest and not rest[0].startswith("-"):
        sub = command.get_command(ctx, rest[0])
        assert sub is not None, f"{page}: no command {rest[0]!r} in {' '.join(words)}"
        command, ctx, rest = sub, click.Context(sub, info_name=rest[0], parent=ctx), rest[1:]
    options = {opt for param in command.get_params(ctx) for opt in (*param.opts, *param.secondary_opts)}
    for word in rest:
        if word.startswith("--"):
            assert word.split("=")[0] in options, f"{page}: {' '.join(words)}: no option {word}"
