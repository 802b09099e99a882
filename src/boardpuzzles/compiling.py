"""Compile time, kept apart from search time.

The first run of a kernel compiles it (seconds to a minute, once: numba caches it on disk). A
figure that says how long a search took must not count that, or a first 8x8 knight's tour
"takes" five seconds that a second run does in a hundredth. The kernels package tells this
module when a compilation starts and ends (numba's ``numba:compile`` event, which fires on a
cache miss only); it keeps the stretches of wall time during which any kernel was compiling, in
any thread, so that

- :func:`search_seconds` ``(started)`` is the wall time since ``started`` less the compiling in it
  (what reports call ``seconds``), and
- :func:`compile_seconds` ``(started)`` is the compiling in it (``compile_seconds``).

``started`` is a ``time.perf_counter()`` reading. This module loads neither numba nor numpy.
"""

from __future__ import annotations

import threading
import time

_lock = threading.Lock()
#: Compilations under way (nested ones and other threads' included).
_running = 0
#: When the current stretch of compiling began (while ``_running > 0``).
_stretch_began = 0.0
#: Finished stretches of compiling, as (began, ended) perf_counter readings, oldest first.
_stretches: list[tuple[float, float]] = []


def began() -> None:
    """A kernel started compiling (called by the kernels package)."""
    global _running, _stretch_began
    with _lock:
        if _running == 0:
            _stretch_began = time.perf_counter()
        _running += 1


def ended() -> None:
    """A kernel finished compiling (called by the kernels package)."""
    global _running
    with _lock:
        if _running == 0:
            return
        _running -= 1
        if _running == 0:
            _stretches.append((_stretch_began, time.perf_counter()))


def running() -> bool:
    """Whether some kernel is compiling now."""
    with _lock:
        return _running > 0


def compile_seconds(started: float = 0.0, until: float | None = None) -> float:
    """Seconds of wall time between ``started`` and ``until`` (default: now) during which some
    kernel was compiling; ``compile_seconds()`` is all of this process's compiling."""
    end = time.perf_counter() if until is None else until
    with _lock:
        stretches = list(_stretches)
        if _running:
            stretches.append((_stretch_began, end))
    return sum((max(0.0, min(b, end) - max(a, started)) for a, b in stretches), 0.0)


def search_seconds(started: float, until: float | None = None) -> float:
    """Seconds of wall time between ``started`` and ``until`` (default: now), less the compiling."""
    end = time.perf_counter() if until is None else until
    return max(0.0, end - started - compile_seconds(started, end))
