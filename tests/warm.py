"""A warm ``boardpuzzles`` for the tests that run many short commands (the ``--help`` examples, the
README's and the documentation's console examples).

A command that runs a kernel spends about a second starting: importing numba and numpy and
setting up numba's compiler tables, before it loads its own kernels from the cache. These tests
run hundreds of such commands, so the start would be most of their time. Here one server process
does that start once; each command then runs in a process forked from it:

- ``launcher(folder)`` writes ``folder/boardpuzzles``, a small program that hands its arguments,
  working folder, environment and standard streams (the file descriptors themselves) to the
  server and exits with the command's exit status. It can stand on ``PATH`` for bash lines with
  pipes and redirections.
- The server forks a fresh process for each command: it takes the streams as its own 0, 1 and
  2, the folder and the environment, runs ``boardpuzzles.cli.main`` and ends as a command does,
  through the interpreter's normal exit. The launcher ends as the command ended (its exit code,
  or the signal that killed it).
- Signals sent to the launcher (Ctrl-C, a kill) are passed on to the command; they wait, blocked,
  while the command is being made, so none is lost. A launcher killed outright (a timeout's
  SIGKILL, which nothing can pass on) takes its command along: the server kills it.
- What a command would read as it starts (``PYTHON*``, ``NUMBA_*``, the locale) comes from the
  server's start. A request whose values differ runs in a fresh interpreter instead (exec).

So each example still runs in a process of its own, with real streams and exit status; what it
does not repeat is the interpreter's start, which the start-up tests (``test_startup.py``,
``test_cli.py``, ``test_wheel.py``) and the tests that stop commands with Ctrl-C run for real.

This file runs in three roles: imported by the tests (``launcher``), as the server
(``python tests/warm.py serve SOCKET``) and as the launcher (``python -S -E tests/warm.py launch
SOCKET ARGS...``, which imports nothing beyond the standard library's core).
"""

from __future__ import annotations

import gc
import json
import os
import select
import signal
import socket
import struct
import sys

_STATUS = struct.Struct("!qq")  # (pid of the command, then its wait status)
#: The signals the launcher passes on to its command.
FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
#: What the commands get from the server's start rather than their own environment: where a
#: request's values differ, its command runs in a fresh interpreter instead (exec).
STARTUP_PREFIXES = ("PYTHON", "NUMBA_", "LC_")
STARTUP_NAMES = ("LANG", "LANGUAGE")
SET_BY_THE_KERNELS = "NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING"  # the kernels package sets it
ORIGINAL_PYTHONPATH = "BOARDPUZZLES_WARM_PYTHONPATH"  # the test process's, while the server starts


def _send(connection: socket.socket, pid: int, status: int) -> None:
    connection.sendall(_STATUS.pack(pid, status))


def _receive(connection: socket.socket) -> tuple[int, int] | None:
    data = b""
    while len(data) < _STATUS.size:
        chunk = connection.recv(_STATUS.size - len(data))
        if not chunk:
            return None
        data += chunk
    return _STATUS.unpack(data)  # type: ignore[return-value]


def launch(path: str, args: list[str]) -> int:
    """The launcher: the command ``boardpuzzles ARGS`` run by the server; its exit status."""
    # Signals wait (blocked) until the command's pid is known, then go on to it.
    ignored = [int(number) for number in FORWARDED if signal.getsignal(number) == signal.SIG_IGN]
    signal.pthread_sigmask(signal.SIG_BLOCK, FORWARDED)
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(path)
    request = {"argv": args, "cwd": os.getcwd(), "env": dict(os.environ), "ignored": ignored}
    body = json.dumps(request).encode()
    socket.send_fds(connection, [struct.pack("!q", len(body)) + body], [0, 1, 2])
    started = _receive(connection)
    if started is None:
        print("boardpuzzles (warm): the server went away", file=sys.stderr)
        return 70
    pid = started[0]

    def forward(number: int, _frame: object) -> None:
        try:
            os.kill(pid, number)
        except ProcessLookupError:
            pass

    for number in FORWARDED:
        if number not in ignored:
            signal.signal(number, forward)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, FORWARDED)
    finished = _receive(connection)
    if finished is None:
        print("boardpuzzles (warm): the server went away", file=sys.stderr)
        return 70
    status = finished[1]
    if os.WIFSIGNALED(status):  # end as the command ended: by the same signal
        number = os.WTERMSIG(status)
        if number not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
        return 128 + number
    return os.waitstatus_to_exitcode(status)


def _read_request(connection: socket.socket) -> tuple[dict, list[int]]:
    message, fds, _flags, _address = socket.recv_fds(connection, 1 << 20, 3)
    if len(fds) != 3 or len(message) < 8:
        raise ConnectionError("not a launcher's request")
    (size,) = struct.unpack("!q", message[:8])
    body = message[8:]
    while len(body) < size:
        chunk = connection.recv(size - len(body))
        if not chunk:
            raise ConnectionError("the launcher went away")
        body += chunk
    return json.loads(body), fds


def _startup_settings(environment: dict[str, str]) -> dict[str, str]:
    return {
        name: value
        for name, value in environment.items()
        if (name.startswith(STARTUP_PREFIXES) or name in STARTUP_NAMES) and name != SET_BY_THE_KERNELS
    }


def _run_command(request: dict, fds: list[int], server_settings: dict[str, str]) -> None:
    """In the command's own process: become the command, run it, and exit as it exits."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    for fd in fds:
        if fd > 2:
            os.close(fd)
    # The signals as a fresh interpreter has them (or as the launcher's caller set them).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGCHLD):
        signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    for number in request["ignored"]:
        signal.signal(number, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, FORWARDED)  # a signal sent meanwhile arrives now
    os.chdir(request["cwd"])
    environment = request["env"]
    argv = request["argv"]
    if _startup_settings(environment) != server_settings:  # settings read at start: start afresh
        program = "from boardpuzzles.cli import main; main()"
        os.execve(sys.executable, [sys.executable, "-c", program, *argv], environment)
    os.environ.clear()
    os.environ.update(environment)
    sys.argv = ["boardpuzzles", *argv]
    from boardpuzzles.cli import main

    main(argv)  # ends in sys.exit: the interpreter's normal exit ends the process


def _handle(connection: socket.socket) -> tuple[dict, list[int]]:
    """In a forked handler: fork the command, tell the launcher its pid, wait for it, tell its
    status. Returns (the request and its streams) only in the command's own process; the handler
    itself ends here, whatever happens."""
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # this process waits for its command
        request, fds = _read_request(connection)
        # Blocked across the fork: a signal sent to the command before it has set its handlers
        # waits instead of being lost.
        signal.pthread_sigmask(signal.SIG_BLOCK, FORWARDED)
        pid = os.fork()
        if pid == 0:
            connection.close()
            return request, fds
        for fd in fds:
            os.close(fd)
        try:
            _send(connection, pid, 0)
            ended = os.pidfd_open(pid)
            while True:  # the launcher sends nothing more: readable means it is gone
                ready, _, _ = select.select([connection, ended], [], [])
                if ended in ready:
                    break
                if not connection.recv(1):
                    os.kill(pid, signal.SIGKILL)  # no one waits for it: it must not run on
                    break
        except OSError:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        _send(connection, pid, status)
    except BaseException:  # the handler reports nothing: its launcher says the server went away
        pass
    os._exit(0)


def serve(path: str) -> None:
    """The server: start once, then fork a handler for each launcher that connects, until the
    test process that started it closes its standard input (or ends)."""
    original = os.environ.pop(ORIGINAL_PYTHONPATH, None)
    if original is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = original
    settings = _startup_settings(dict(os.environ))
    import importlib

    for module in ("boardpuzzles.cli", "boardpuzzles._kernels", "numba"):  # a command's order
        importlib.import_module(module)
    sys.modules["numba"].njit(lambda x: x + 1)(1)  # numba's compiler tables, set up once for every command
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # handlers are reaped as they end
    gc.freeze()  # the start's objects stay out of the commands' collections (and unshared pages)
    print("ready", flush=True)
    sys.stderr.flush()
    while True:
        ready, _, _ = select.select([listener, sys.stdin], [], [])
        if sys.stdin in ready:  # the test process closed its end, or ended
            return
        connection, _ = listener.accept()
        if os.fork() == 0:
            listener.close()
            request, fds = _handle(connection)  # returns in the command's process only
            _run_command(request, fds, settings)
        connection.close()


_server: dict[str, str] = {}  # this test process's server: its socket and its folder


def launcher(folder: os.PathLike[str] | str | None = None) -> str:
    """Write ``boardpuzzles``, a launcher for this test process's warm server (started on first
    use, stopped when the tests end), into ``folder`` (default: the server's own folder); return
    its path."""
    import atexit
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    if not _server:
        home = tempfile.mkdtemp(prefix="boardpuzzles-warm-")
        socket_path = os.path.join(home, "socket")
        root = Path(__file__).resolve().parent.parent
        server = subprocess.Popen(
            [sys.executable, __file__, "serve", socket_path],
            stdout=subprocess.PIPE,
            stdin=subprocess.PIPE,  # the server ends when this test process does
            cwd=root,
            env={
                **os.environ,
                "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
                **({ORIGINAL_PYTHONPATH: os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}),
            },
            text=True,
        )
        assert server.stdout is not None
        if server.stdout.readline().strip() != "ready":
            raise RuntimeError("the warm boardpuzzles server did not start")

        def stop() -> None:
            server.kill()
            server.wait()
            shutil.rmtree(home, ignore_errors=True)

        atexit.register(stop)
        _server.update(socket=socket_path, home=home)
    program = Path(_server["home"] if folder is None else folder) / "boardpuzzles"
    if folder is not None or not program.exists():  # a folder given may hold another server's
        program.write_text(
            f'#!/bin/sh\nexec "{sys.executable}" -S -E "{Path(__file__).resolve()}" launch "{_server["socket"]}" "$@"\n'
        )
        program.chmod(0o755)
    return str(program)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    elif sys.argv[1] == "launch":
        sys.exit(launch(sys.argv[2], sys.argv[3:]))
