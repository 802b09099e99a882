"""Work kept outside the count checkpoints' SQLite files: Baikago's df-pn table file when two runs
share it.

A second run that shares a checkpoint file must not replace the first run's saved search and then
claim its own was kept (found by an audit: both runs said "kept", one run's work was lost).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boardpuzzles.checkpoint import CheckpointError
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.baikago import solve as bs
from boardpuzzles.puzzles.baikago.rules import Rules


def test_a_run_does_not_write_over_a_search_another_run_saved_meanwhile(tmp_path: Path) -> None:
    path = tmp_path / "four.dfpn"
    first = bs.Solver(Rules(4), 12, None, False, checkpoint=str(path))
    second = bs.Solver(Rules(4), 12, None, False, checkpoint=str(path))
    with pytest.raises(bs.NodeLimitReached):
        second.run(Limits(), node_limit=200)
    assert second.save() is True
    kept = path.read_bytes()
    with pytest.raises(bs.NodeLimitReached):
        first.run(Limits(), node_limit=100)
    with pytest.raises(CheckpointError, match="written by another run"):
        first.save()
    assert path.read_bytes() == kept
    # The run that saved goes on saving; a new run resumes from what it kept.
    assert second.save() is True
    assert bs.Solver(Rules(4), 12, None, False, checkpoint=str(path)).loaded
