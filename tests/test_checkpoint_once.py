"""A count opens its checkpoint file once per run: one inspection (under the lock), one SQLite
connection, whether the file is new or resumed, and a file of another count is refused before
anything is counted."""

from __future__ import annotations

import contextlib
import io
import itertools
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from boardpuzzles import checkpoint as checkpoint_module
from boardpuzzles.cli import _run

KINGS = ["kings", "count", "5", "--kings", "3"]


def _brute_force(n: int, kings: int) -> int:
    """Sets of ``kings`` cells of the n x n board, no two touching (plain enumeration)."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    apart = [
        chosen
        for chosen in itertools.combinations(cells, kings)
        if all(max(abs(a[0] - b[0]), abs(a[1] - b[1])) > 1 for a, b in itertools.combinations(chosen, 2))
    ]
    return len(apart)


EXPECTED = f"{_brute_force(5, 3)}\n"


def _count(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = _run(argv)
    return code, out.getvalue(), err.getvalue()


def _watch(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    seen = {"inspected": 0, "connected": 0}
    inspect, connect = checkpoint_module.inspect_path, sqlite3.connect

    def counted_inspect(path: str) -> bool:
        seen["inspected"] += 1
        return inspect(path)

    def counted_connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        seen["connected"] += 1
        return connect(*args, **kwargs)

    monkeypatch.setattr(checkpoint_module, "inspect_path", counted_inspect)
    monkeypatch.setattr(checkpoint_module.sqlite3, "connect", counted_connect)
    return seen


@pytest.mark.parametrize("resumed", [False, True], ids=["new file", "resumed file"])
def test_a_count_opens_its_checkpoint_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, resumed: bool) -> None:
    path = str(tmp_path / "kings.db")
    if resumed:
        assert _count([*KINGS, "--checkpoint", path, "--quiet"])[:2] == (0, EXPECTED)
    seen = _watch(monkeypatch)
    code, out, _ = _count([*KINGS, "--checkpoint", path, "--quiet"])
    assert (code, out) == (0, EXPECTED)
    assert seen == {"inspected": 1, "connected": 1}


def test_a_file_of_another_count_is_refused_before_counting(tmp_path: Path) -> None:
    path = str(tmp_path / "kings.db")
    assert _count([*KINGS, "--checkpoint", path, "--quiet"])[0] == 0
    code, out, err = _count(["kings", "count", "5", "--kings", "4", "--checkpoint", path])
    assert code == 2 and out == ""
    assert "belongs to another count" in err and "counting" not in err
