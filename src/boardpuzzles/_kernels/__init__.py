"""All numba code of the project, one module per puzzle; only ``puzzles/`` imports these.

``jit`` is the one place that sets numba options: compiled lazily on first call, cached on disk
(``cache=True``, files never committed, in a directory per state of the kernel sources: see
``_cache_dir``), no GIL held. Kernels read no module globals: every table
comes in as an argument. Set ``NUMBA_DISABLE_JIT=1`` to run them as plain Python (the test suite
can run that way, slowly).

Stopping: every long kernel takes the run's stop flag (``limits.flag``, a one-element int64
array, see :mod:`boardpuzzles.limits`), reads it every ``CHECK_EVERY`` steps (a few
milliseconds of work), and returns at once when it is set, reporting ``STOPPED`` (or a status
of its own) instead of an answer. Its Python wrapper then raises the matching exception.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import shutil
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

# Where colorama is installed, numba marks up its compiler's messages inside colorama's init() and
# deinit(), which replace sys.stdout and sys.stderr for the whole process and then put back the
# streams they found. A kernel compiling on a worker thread thus put stale streams back under the
# main thread, whose output went to the wrong stream or was lost. Plain messages need neither.
os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")

import numba  # noqa: E402 (after the setting above)
from numba.core import errors as numba_errors  # noqa: E402
from numba.core import event  # noqa: E402

from boardpuzzles import compiling  # noqa: E402

#: numba's settings (typed loosely: they are set from the environment at run time).
numba_config: Any = numba.config

#: Cache directories of other kernel sources left alone this long, then removed.
STALE_CACHE_SECONDS = 7 * 24 * 3600


def sources_digest() -> str:
    """A digest of every kernel module's source: what the compiled kernels were made from (an
    editor's lock or backup file beside them, or one that cannot be read, is no module)."""
    here = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.sha256()
    for name in sorted(os.listdir(here)):
        path = os.path.join(here, name)
        if not (name.endswith(".py") and name[:-3].isidentifier() and os.path.isfile(path)):
            continue
        try:
            with open(path, "rb") as handle:
                digest.update(name.encode() + b"\0" + handle.read() + b"\0")
        except OSError:
            continue
    return digest.hexdigest()[:16]


def _cache_dir() -> str:
    """Where the compiled kernels are cached: a directory of their own per state of the kernel
    sources. numba invalidates a kernel's cache when the kernel's own file changes, not when a
    kernel it calls from another file does (the caller would go on running the old callee); a
    directory keyed by every kernel source leaves no stale kernel to load.
    Beside the sources when they are writable (as numba's default), else in the user's cache;
    under ``NUMBA_CACHE_DIR`` when that is set."""
    here = os.path.dirname(os.path.abspath(__file__))
    if numba_config.CACHE_DIR:
        base = os.path.join(numba_config.CACHE_DIR, "boardpuzzles")
    elif os.access(here, os.W_OK):
        base = os.path.join(here, "__pycache__")
    else:
        user = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(user, "boardpuzzles")
    current = f"kernels-{sources_digest()}"
    _forget_stale(base, current)
    path = os.path.join(base, current)
    try:  # marks it used (numba writes into a directory below it, which leaves its time alone)
        os.makedirs(path, exist_ok=True)
        os.utime(path)
    except OSError:
        pass  # numba then finds a place of its own, or compiles without a cache
    return path


def _forget_stale(base: str, current: str) -> None:
    """Remove the cache directories of other kernel sources that no process has used for a week
    (each marks its own when it starts: a run of an older checkout may still read its own)."""
    try:
        names = os.listdir(base)
    except OSError:
        return
    now = time.time()
    for name in names:
        path = os.path.join(base, name)
        try:
            if name.startswith("kernels-") and name != current and now - os.stat(path).st_mtime > STALE_CACHE_SECONDS:
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            continue


#: numba picks a kernel's cache directory as the kernel is made (``_njit``), from its setting
#: that NUMBA_CACHE_DIR gives; the setting is put back after, for other numba code in the process.
CACHE_DIR = _cache_dir()


def _njit(function: Callable[..., Any], **options: Any) -> Any:
    """``numba.njit`` with the kernels' cache directory."""
    given = numba_config.CACHE_DIR
    numba_config.CACHE_DIR = CACHE_DIR
    try:
        return numba.njit(cache=True, nogil=True, **options)(function)
    finally:
        numba_config.CACHE_DIR = given


class _NoColorShell:
    """numba's ColorShell without colorama: for a numba imported (with colorama) before this module."""

    def __init__(self) -> None:
        pass

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc_detail: Any) -> None:
        return None


if hasattr(numba_errors, "ColorShell"):
    numba_errors.ColorShell = _NoColorShell

F = TypeVar("F", bound=Callable[..., Any])


def jit(function: F) -> F:
    """Compile a kernel with the project's numba options; to type checkers the kernel keeps its
    own Python signature (numba's dispatcher would hide it)."""
    return cast(F, _njit(function))


def jit_inline(function: F) -> F:
    """``jit`` for a small kernel that numba copies into each caller (``inline="always"``): one
    that takes a table bundle, so that taking the arrays out of the bundle costs nothing per call."""
    return cast(F, _njit(function, inline="always"))


#: Steps between two looks at the stop flag (a power of two, so the test is a mask:
#: ``steps & CHECK_MASK == 0``).
CHECK_EVERY = 1 << 14
CHECK_MASK = CHECK_EVERY - 1
#: What a counting kernel returns in place of a count when it was stopped.
STOPPED = -1


@functools.cache
def moduli(count: int) -> tuple[int, ...]:
    """``count`` pairwise coprime numbers below 2^62, the largest first (greedily: the Chinese
    remainder theorem needs coprime moduli, not primes). A kernel that counts modulo one of them
    adds two counts in an int64; its caller joins several by the Chinese remainder theorem."""
    found = [(1 << 62) - 1]
    while len(found) < count:
        found.append(next(n for n in range(found[-1] - 1, 0, -1) if math.gcd(n, math.prod(found)) == 1))
    return tuple(found[:count])


class _CompileWatch(event.Listener):
    """Keeps the time spent compiling (:mod:`boardpuzzles.compiling`) and tells
    ``limits.on_first_compile`` (once) that a kernel is being compiled."""

    def __init__(self) -> None:
        self._told = threading.Event()

    def on_start(self, ev: Any) -> None:
        compiling.began()
        from boardpuzzles import limits

        if limits.on_first_compile is not None and not self._told.is_set():
            self._told.set()
            limits.on_first_compile()

    def on_end(self, ev: Any) -> None:
        compiling.ended()


event.register("numba:compile", _CompileWatch())
