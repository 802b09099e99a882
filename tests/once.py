"""Work that several test files' fixtures need, done once for the whole run.

Under pytest-xdist a module-scoped fixture runs once on every worker that runs a test of its
module, and the tests of one module are spread over the workers: a fixture that runs every
`--help` example ran them twice. ``once_per_run`` keeps the value in the run's common temporary
folder (pytest-xdist's recipe for session fixtures): the first worker computes it under a lock,
the others wait for it and read it back.
"""

from __future__ import annotations

import fcntl
import os
import pickle
from collections.abc import Callable
from typing import TypeVar

import pytest

T = TypeVar("T")


def once_per_run(tmp_path_factory: pytest.TempPathFactory, name: str, compute: Callable[[], T]) -> T:
    """``compute()`` once per test run (its value must pickle); a run without workers just calls it."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return compute()
    common = tmp_path_factory.getbasetemp().parent
    kept = common / f"{name}.pickle"
    with open(common / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if kept.exists():
            return pickle.loads(kept.read_bytes())
        value = compute()
        kept.write_bytes(pickle.dumps(value))
        return value
