"""The compiled kernels' disk cache follows every kernel source, not only the kernel's own file.

numba keys a cached kernel by its own file's time stamp: a kernel that calls a kernel of another
file kept the old callee's code after that file changed. ``boardpuzzles._kernels`` caches them
in a directory per state of all the kernel sources (``sources_digest``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import boardpuzzles

CALLER = """
from boardpuzzles._kernels import jit
from boardpuzzles._kernels.zz_callee import value


@jit
def doubled():
    return 2 * value()
"""


def _run(root: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in {"NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT"}}
    env["PYTHONPATH"] = str(root)
    done = subprocess.run(
        [sys.executable, "-c", "from boardpuzzles._kernels.zz_caller import doubled; print(doubled())"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
    )
    return done.stdout.strip()


def test_a_changed_callee_in_another_file_is_compiled_again(tmp_path: Path) -> None:
    package = Path(boardpuzzles.__file__).parent
    copy = tmp_path / "boardpuzzles"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    kernels = copy / "_kernels"
    (kernels / "zz_caller.py").write_text(CALLER)
    callee = kernels / "zz_callee.py"
    callee.write_text("from boardpuzzles._kernels import jit\n\n\n@jit\ndef value():\n    return 1\n")
    assert _run(tmp_path) == "2"
    assert _run(tmp_path) == "2"  # from the cache
    cached = list((kernels / "__pycache__").glob("kernels-*/**/zz_caller.doubled-*.nbi"))
    assert len(cached) == 1, cached
    time.sleep(0.01)
    callee.write_text("from boardpuzzles._kernels import jit\n\n\n@jit\ndef value():\n    return 21\n")
    assert _run(tmp_path) == "42"  # numba's own cache would still say 2
    assert len(list((kernels / "__pycache__").glob("kernels-*"))) == 2


def test_the_cache_directory_is_named_by_every_kernel_source() -> None:
    from boardpuzzles import _kernels

    assert os.path.basename(_kernels.CACHE_DIR) == f"kernels-{_kernels.sources_digest()}"
