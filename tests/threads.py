"""Threads in tests: servers run in the background (:func:`serve_in_background`), and threads
that outlive the test that started them, for the messages of tests whose output could be taken
by such a thread (the in-process command harnesses): when one fails, its message names the
threads still running and where each is."""

from __future__ import annotations

import sys
import threading
import traceback
from typing import Any

#: How often a test's server looks for a shutdown: at the standard library's 0.5 s every stop
#: waited up to half a second.
SHUTDOWN_POLL = 0.05

#: (test id, thread names) for each test that left threads running, most recent last.
LEFT_RUNNING: list[tuple[str, list[str]]] = []


def note_left_running(test_id: str, before: set[threading.Thread]) -> None:
    left = [t.name for t in threading.enumerate() if t not in before and t.is_alive()]
    if left:
        LEFT_RUNNING.append((test_id, left))
        del LEFT_RUNNING[:-20]


def report() -> str:
    """The threads running now (besides this one) with their innermost frames, and the last tests
    that left threads running."""
    frames = sys._current_frames()
    lines = []
    for thread in threading.enumerate():
        if thread is threading.current_thread():
            continue
        stack = traceback.format_stack(frames[thread.ident], limit=3) if thread.ident in frames else []
        lines.append(f"thread {thread.name}: {''.join(stack).strip()}")
    lines += [f"left running by {test}: {names}" for test, names in LEFT_RUNNING]
    return "\n".join(lines) or "no other threads"


def serve_in_background(server: Any) -> threading.Thread:
    """``server.serve_forever()`` on a daemon thread (started), quick to stop with ``shutdown()``."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": SHUTDOWN_POLL}, daemon=True)
    thread.start()
    return thread
