"""Timed assertions that hold on a busy machine.

A test that asks "is this quick?" measures the CPU time the work itself used (this process and
the children it waited for), which other jobs on the machine do not change. A test that asks "does
this answer promptly?" (a stop, a time limit) has to measure wall time: it allows the promise plus
``LOADED``, the scheduling delay a fully loaded machine may add, which stays far below the
failures it guards against (work that ran on for many seconds, or for ever).
"""

from __future__ import annotations

import os
import resource
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

#: Seconds of wall time a loaded machine may add to a prompt answer (a new process's start-up,
#: a thread that waits for a core).
LOADED = 5.0


def cpu_seconds() -> float:
    """CPU seconds used so far by this process (all its threads) and its waited-for children."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@dataclass
class Used:
    cpu: float = 0.0
    wall: float = 0.0


@contextmanager
def measured() -> Iterator[Used]:
    """``with measured() as used: work()``, then ``used.cpu`` and ``used.wall`` in seconds."""
    used = Used()
    cpu, wall = cpu_seconds(), time.monotonic()
    try:
        yield used
    finally:
        used.cpu, used.wall = cpu_seconds() - cpu, time.monotonic() - wall


def process_cpu_seconds(pid: int) -> float:
    """CPU seconds a running process (all its threads, and its waited-for children) used so far,
    read from /proc (Linux); 0.0 where it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    utime, stime, cutime, cstime = (int(f) for f in fields[11:15])  # fields 14 to 17 of proc(5)
    return (utime + stime + cutime + cstime) / os.sysconf("SC_CLK_TCK")


def wait_measured(process: subprocess.Popen, timeout: float) -> float:
    """Wait for a child process (as ``process.wait(timeout)`` does, setting its returncode) and
    return the CPU seconds it used, its own threads and its waited-for children."""
    deadline = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            process.returncode = os.waitstatus_to_exitcode(status)
            return usage.ru_utime + usage.ru_stime
        if time.monotonic() > deadline:
            raise subprocess.TimeoutExpired(process.args, timeout)
        time.sleep(0.01)
