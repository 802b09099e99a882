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


def test_an_editors_lock_file_beside_the_kernels_is_no_source(tmp_path: Path) -> None:
    """Emacs leaves ``.#name.py``, a link to nowhere, beside a file being edited."""
    package = Path(boardpuzzles.__file__).parent
    copy = tmp_path / "boardpuzzles"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "_kernels" / ".#baikago.py").symlink_to("user@host.1234:1700000000")
    (copy / "_kernels" / "notes.py~").write_text("a backup")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = str(tmp_path)
    code = "from boardpuzzles import _kernels; print(_kernels.sources_digest())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    from boardpuzzles import _kernels

    assert done.returncode == 0 and done.stdout.strip() == _kernels.sources_digest(), done.stderr


def test_caches_of_other_kernel_sources_go_once_unused_for_a_week(tmp_path: Path) -> None:
    from boardpuzzles import _kernels

    week = _kernels.STALE_CACHE_SECONDS
    now = time.time()
    for name, age in (("kernels-old", week + 60), ("kernels-recent", week - 60), ("kernels-current", week + 60)):
        (tmp_path / name / "_kernels_x").mkdir(parents=True)
        (tmp_path / name / "_kernels_x" / "f.nbi").write_text("")
        os.utime(tmp_path / name, (now - age, now - age))
    (tmp_path / "other").mkdir()
    os.utime(tmp_path / "other", (now - 2 * week, now - 2 * week))
    _kernels._forget_stale(str(tmp_path), "kernels-current")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kernels-current", "kernels-recent", "other"]


def test_a_process_marks_its_cache_directory_used() -> None:
    from boardpuzzles import _kernels

    long_ago = time.time() - 2 * _kernels.STALE_CACHE_SECONDS
    os.utime(_kernels.CACHE_DIR, (long_ago, long_ago))
    subprocess.run([sys.executable, "-c", "import boardpuzzles._kernels"], check=True, timeout=120)
    assert os.stat(_kernels.CACHE_DIR).st_mtime > long_ago + _kernels.STALE_CACHE_SECONDS
