"""The records' checkpoints, counted again in part.

``records/hq29.db`` (T(29) = 605,917,055,356, OEIS A051906, Engelhardt) and ``records/q20.db``
(Q(20) = 39,029,188,884, OEIS A000170) hold every subtask of their counts, so a resumed copy only
adds up stored values (``tests/test_queens.py``). Here a sample of their subtasks is counted
afresh by the work function the count runs and compared with the value stored for it. The
sample is random with a fixed seed (the same subtasks every run) among the cheaper subtasks, so
that each takes seconds, not the minutes of the dearest:

- T(29): subtasks whose least-image start puts the row-2 queen in column 8 or further, or the
  row-1 queen beyond column 2 (18 of the 668 that hold orbits, 8,238 of the 9,058 that hold
  none; under a second each); 8 that hold orbits and 4 that hold none.
- Q(20): 2 of the 25 subtasks with the fewest placements (a few seconds each: the search's work
  grows with the placements it finds).
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from boardpuzzles.checkpoint import Checkpoint
from boardpuzzles.limits import Limits
from boardpuzzles.parallel import plan_digest, subtask_key
from boardpuzzles.puzzles import hyperqueen, queens
from boardpuzzles.puzzles.queens import Problem

RECORDS = Path(__file__).resolve().parent.parent / "records"
SEED = 2026

pytestmark = pytest.mark.slow


def stored_subtasks(tmp_path: Path, name: str, problem: Problem, owner: Any) -> dict[str, int]:
    """The subtasks stored in a copy of ``records/name``, read through the checkpoint, which
    refuses the file unless it belongs to this count and to the plan the count makes today, and
    every row's checksum holds; every subtask of the plan is there."""
    copy = tmp_path / name
    shutil.copyfile(RECORDS / name, copy)
    subtasks, unit = queens.count_subtasks(problem.n, problem.torus)
    keys = [subtask_key(s.spec) for s in subtasks]
    plan = plan_digest(queens._count_work, subtasks, keys, unit)
    with Checkpoint(str(copy), owner.problem_identity(problem), plan) as checkpoint:
        stored = checkpoint.finished()
    assert set(stored) == set(keys)
    return stored


def counted_afresh(key: str) -> int:
    return queens._count_work(tuple(json.loads(key)), Limits())


def test_a_sample_of_t29s_subtasks_counts_as_stored(tmp_path):
    stored = stored_subtasks(tmp_path, "hq29.db", Problem(29, True), hyperqueen.PUZZLE)
    specs = {key: json.loads(key) for key in stored}  # ["torus", 29, "placements", a, c2, c3, last]
    cheap = sorted(key for key, spec in specs.items() if spec[4] >= 8 or spec[3] > 2)
    with_orbits = [key for key in cheap if stored[key] > 0]
    assert len(with_orbits) >= 8  # the file's values decide this, not the search
    rng = random.Random(SEED)
    sample = rng.sample(with_orbits, 8) + rng.sample([key for key in cheap if stored[key] == 0], 4)
    assert {key: counted_afresh(key) for key in sample} == {key: stored[key] for key in sample}


def test_a_sample_of_q20s_subtasks_counts_as_stored(tmp_path):
    stored = stored_subtasks(tmp_path, "q20.db", Problem(20), queens.PUZZLE)
    cheapest = sorted(stored, key=lambda key: (stored[key], key))[:25]
    sample = random.Random(SEED).sample(cheapest, 2)
    assert {key: counted_afresh(key) for key in sample} == {key: stored[key] for key in sample}
