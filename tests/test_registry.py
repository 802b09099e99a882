"""The registry and its light catalogue: `boardpuzzles --help` lists the puzzles from
declarations that import none of them, so the declarations must say what the records say, every
record must be declared, one puzzle loads alone, and a puzzle of another package (an entry point)
is listed and runs like a built-in one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from boardpuzzles.puzzles import BUILT_IN, catalogue, get, registry


def test_the_catalogue_declares_every_record_with_its_own_name_and_title():
    records = registry()  # every module of the package that defines PUZZLE or GAME
    listed = catalogue()
    undeclared = sorted(set(records) - set(listed))
    assert not undeclared, f"declare {undeclared} in boardpuzzles.puzzles.BUILT_IN (name, title, module)"
    assert list(listed) == list(records)
    for name, listing in listed.items():
        assert listing.load() is records[name], name
        assert (listing.name, listing.title) == (records[name].name, records[name].title), name


def test_each_built_in_puzzle_is_declared_once():
    names = [listing.name for listing in BUILT_IN]
    assert len(names) == len(set(names))


PROBE = """
import json, sys
from boardpuzzles.puzzles import get
get(sys.argv[1])
print(json.dumps(sorted({m.split(".")[2] for m in sys.modules if m.startswith("boardpuzzles.puzzles.")})))
"""


@pytest.mark.parametrize(("name", "loaded"), [("kings", ["kings"]), ("hyperqueen", ["hyperqueen", "queens"])])
def test_one_puzzle_loads_alone(name, loaded):
    done = subprocess.run([sys.executable, "-c", PROBE, name], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == loaded  # the hyperqueen reuses the queens' search


def test_an_unknown_name_is_refused_with_the_known_ones():
    from boardpuzzles.errors import BoardPuzzlesError

    with pytest.raises(BoardPuzzlesError, match="no puzzle named 'nonesuch'; known: baikago, dominoes"):
        get("nonesuch")


# ---------------------------------------------------------------- a puzzle of another package
PLUGIN = '''
"""A package of its own that registers a puzzle: the kings under another name."""
import dataclasses

from boardpuzzles.puzzles import kings

PUZZLE = dataclasses.replace(kings.PUZZLE, name="plugged-kings", title="kings from another package")
'''


@pytest.fixture
def plugged_in(tmp_path: Path) -> dict[str, str]:
    """The environment of a Python that has a package declaring a puzzle by entry point."""
    (tmp_path / "plugged_kings.py").write_text(PLUGIN)
    info = tmp_path / "plugged_kings-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: plugged-kings\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[boardpuzzles.puzzles]\nplugged-kings = plugged_kings:PUZZLE\n")
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path}


def boardpuzzles(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boardpuzzles", *args], capture_output=True, text=True, timeout=300, env=env
    )


def test_a_puzzle_of_another_package_is_listed_and_runs(plugged_in):
    listing = boardpuzzles("--help", env=plugged_in)
    assert listing.returncode == 0, listing.stderr
    assert (
        "plugged-kings" in listing.stdout and "Kings from another package." in listing.stdout
    )  # its title, as a sentence
    counted = boardpuzzles("plugged-kings", "count", "2", env=plugged_in)
    assert counted.returncode == 0, counted.stderr
    assert counted.stdout == "4\n"  # one king on 2x2: any of the 4 squares


def test_entry_points_are_read_only_where_a_package_declares_one(plugged_in):
    """importlib.metadata costs as much as the rest of `boardpuzzles --help`: without a package
    that declares a puzzle it is not even imported."""
    probe = textwrap.dedent(
        """
        import sys
        from boardpuzzles.puzzles import catalogue
        print("plugged-kings" in catalogue(), "importlib.metadata" in sys.modules)
        """
    )
    alone = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert alone.stdout.split() == ["False", "False"], alone.stderr
    plugged = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, env=plugged_in)
    assert plugged.stdout.split() == ["True", "True"], plugged.stderr
