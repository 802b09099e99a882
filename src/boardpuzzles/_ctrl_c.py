"""Ctrl-C delivered only where Python can take it safely.

Python raises ``KeyboardInterrupt`` at whatever instruction the main thread is running when
Ctrl-C arrives. In two places of Python's own that does lasting harm, whatever the program does
with the exception afterwards:

- inside the import machinery, between ``_imp.acquire_lock()`` and the ``try`` that releases it
  (in ``importlib._bootstrap._get_module_lock``, or the weak-reference callback that drops a
  module's lock). The global import lock stays held by the main thread, and the next import in
  any other thread waits forever: a count stopped by Ctrl-C at that moment hung with its worker
  waiting to import a kernel. And in that callback before it takes the lock, Python prints the
  exception as "ignored" and drops it: the Ctrl-C was lost, and the command ran on to its end.
  So a Ctrl-C that finds the main thread in the import machinery's own code (not a module's code
  that it runs) waits until it has left it.
- inside code that ``exec`` or ``eval`` runs from text (``dataclasses`` and ``namedtuple`` make
  their methods so). Python then marks the Ctrl-C as unhandled, and ``python -m boardpuzzles``
  ends by SIGINT (-2) instead of its own exit code 130, even after the command handled it.

:func:`install` puts a handler in place that raises ``KeyboardInterrupt`` as Python's does, except
in those places: there it asks again a few milliseconds later, from a thread of its own, until the
main thread is out of them.

A kill (SIGTERM) is taken the same way: a long run in the background, where the shell has made
it deaf to Ctrl-C, or under a batch system that stops jobs with SIGTERM, saves its checkpoint and
ends with its one line, as after Ctrl-C, instead of losing the work since its last save.
"""

from __future__ import annotations

import _imp
import signal
import threading
import time
from types import FrameType

#: How long that thread waits before it asks again.
RETRY_SECONDS = 0.005
#: The import machinery's own code (see the module docstring).
IMPORT_MACHINERY = "<frozen importlib._bootstrap>"
#: How long a Ctrl-C waits for the main thread to leave the import machinery's code: it leaves
#: within microseconds, unless it waits there for a module that another thread is loading, and
#: a Ctrl-C must end that wait too.
IMPORT_WAIT_SECONDS = 1.0

# When the Ctrl-C now waiting for the main thread to leave the import machinery first came.
_waiting_since: float | None = None


def install() -> None:
    """Handle Ctrl-C so (see the module docstring) in this process, unless something else already
    handles it (or ignores it, as a background job of a script does); and SIGTERM the same way,
    unless it is handled or ignored already."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) in (signal.default_int_handler, on_ctrl_c):
        signal.signal(signal.SIGINT, on_ctrl_c)
    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, on_ctrl_c):
        signal.signal(signal.SIGTERM, on_ctrl_c)


def deafen() -> None:
    """The command's outcome is decided (``boardpuzzles.cli.main``): Ctrl-C is ignored from now
    on. Python gives SIGINT back its default action while it tears down, and a Ctrl-C there
    would end a finished command by the signal instead of its exit code; ``main`` owns its
    process and ends in ``sys.exit`` (a caller that goes on after it, as the tests do, restores
    its own handler). SIGTERM, where this module handles it, gets its default action back: a
    kill during teardown ends the process, and one that goes on after ``main`` is not left deaf
    to kills."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if signal.getsignal(signal.SIGTERM) is on_ctrl_c:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def on_ctrl_c(signum: int, frame: FrameType | None) -> None:
    """Python's own handler (raise ``KeyboardInterrupt``), unless the main thread is where the
    exception would do lasting harm: then the same Ctrl-C comes again a moment later."""
    global _waiting_since
    # Within this handler (asked again while the one that put it off still starts its thread, on
    # a loaded machine), raising would leave that handler in the very place it was put off from.
    if _in_this_handler(frame) or _imp.lock_held() or _in_text_run_by_exec(frame) or _in_import_machinery(frame):
        threading.Thread(target=_again, args=(signum,), name="ctrl-c-again", daemon=True).start()
        return
    _waiting_since = None
    raise KeyboardInterrupt


def _in_this_handler(frame: FrameType | None) -> bool:
    """Whether ``frame`` runs inside :func:`on_ctrl_c` (a signal handled while it runs)."""
    while frame is not None:
        if frame.f_code is on_ctrl_c.__code__:
            return True
        frame = frame.f_back
    return False


def _in_import_machinery(frame: FrameType | None) -> bool:
    """Whether ``frame`` is the import machinery's own code, and has been for less than
    :data:`IMPORT_WAIT_SECONDS` since the first Ctrl-C that found it there."""
    global _waiting_since
    if frame is None or frame.f_code.co_filename != IMPORT_MACHINERY:
        return False
    now = time.monotonic()
    if _waiting_since is None:
        _waiting_since = now
    return now - _waiting_since < IMPORT_WAIT_SECONDS


def _in_text_run_by_exec(frame: FrameType | None) -> bool:
    """Whether ``frame`` runs (or is called from) the top level of text given to ``exec`` or
    ``eval``; the outermost frame (``python -c``'s own text) does not count."""
    while frame is not None and frame.f_back is not None:
        code = frame.f_code
        if code.co_name == "<module>" and code.co_filename == "<string>":
            return True
        frame = frame.f_back
    return False


def _again(signum: int) -> None:
    """Deliver the signal (Ctrl-C, or SIGTERM) to the main thread again, once the import lock is
    free (a real signal, so that it also cuts short a sleep or a wait there)."""
    while _imp.lock_held():
        time.sleep(RETRY_SECONDS)
    time.sleep(RETRY_SECONDS)
    if signal.getsignal(signum) is not on_ctrl_c:
        return  # the command is over (deaf to it), or another handler took over
    try:
        signal.pthread_kill(threading.main_thread().ident or 0, signum)
    except (AttributeError, OSError, ValueError):  # no pthread_kill (Windows), or the thread is gone
        import _thread

        _thread.interrupt_main(signal.Signals(signum))
