"""Writing a file whole or not at all: the one way boardpuzzles replaces a user's file.

The bytes go to a temporary file in the same folder, which is then renamed over the target, so
an interrupted or failed write (a kill, Ctrl-C, a full disk) never leaves a half-written file
where the old one was. A symlink is written through (its target is replaced, the link stays),
and an existing file keeps its permissions; a new one gets the usual ``0o666 & ~umask``.

What is not a plain file (``/dev/null``, a terminal, a named pipe), and the file this process's
own standard output or error already writes to (``--svg /dev/stdout > out.txt``), is written in
place instead: renaming over it would turn a device into a plain file, or cut off what the
command printed before.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Callable, Iterable
from typing import Any, BinaryIO


def replace_file(path: str, chunks: Iterable[bytes | memoryview], *, sync: bool = False) -> None:
    """Write ``chunks`` to ``path`` atomically; ``sync`` also flushes them to the disk before the
    rename (for a file whose loss would cost hours: a search checkpoint). Raises ``OSError`` and
    leaves no temporary file behind when it fails (or is interrupted)."""

    def write(handle: BinaryIO) -> None:
        for chunk in chunks:
            handle.write(chunk)

    replace_file_with(path, write, sync=sync)


def replace_file_with(path: str, write: Callable[[BinaryIO], None], *, sync: bool = False) -> None:
    """:func:`replace_file` for a writer that wants a file handle (``numpy.savez``): ``write``
    gets the temporary file (or the device, pipe or own output written in place)."""
    if names_a_folder(path):
        raise IsADirectoryError(errno.EISDIR, "a path ending in a separator names a folder", path)
    status = written_in_place(path)
    if status is not None:
        _write_in_place(path, status, write)
        return
    real = os.path.realpath(path)
    if os.path.exists(real):
        mode = stat.S_IMODE(os.stat(real).st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    import tempfile

    folder, name = os.path.split(real)
    fd, tmp = tempfile.mkstemp(dir=folder or ".", prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def why_no_new_file(folder: str, error: OSError | None = None) -> str:
    """Why a new file cannot be made in the existing ``folder`` (``error``: what making one
    raised, if it was tried), in words that name the true cause. A system folder such as
    ``/proc`` answers "No such file or directory" about a folder that is there: the truth is
    that it takes no new files."""
    shown = folder if len(folder) <= 80 and folder.isprintable() else folder[:57] + "..."
    code = getattr(error, "errno", None)
    try:
        read_only = code == errno.EROFS or bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        read_only = False
    if read_only:
        return f"folder {shown} is on a read-only file system"
    if error is None or code in (errno.EACCES, errno.EPERM):
        return f"folder {shown} is not writable"
    if code in (errno.ENOENT, errno.ENOTDIR, errno.EINVAL, errno.EOPNOTSUPP):
        return f"folder {shown} takes no new files"
    return f"no new file can be made in folder {shown}: {error.strerror or error}"


def names_a_folder(path: str) -> bool:
    """Whether ``path`` can only name a folder: it ends in a separator (``outdir/``) or in ``.``
    or ``..``. ``os.path.realpath`` and ``pathlib`` drop such an ending, so a write would
    otherwise make a file that takes the folder's name."""
    return os.path.basename(os.fspath(path)) in ("", ".", "..")


def written_in_place(path: str) -> os.stat_result | None:
    """The status of what ``path`` leads to when it is written in place rather than replaced (a
    device, a pipe, our own output: see the module's docstring); None otherwise. The path is
    followed as ``open`` follows it: ``/dev/stdout`` on a pipe leads through a link that
    ``os.path.realpath`` cannot name."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return None
    return status if not stat.S_ISREG(status.st_mode) or _own_output_at(status) else None


def _own_outputs() -> list[tuple[Any, int]]:
    """(stream, descriptor) of this process's standard output and error, where they are files."""
    found = []
    for stream in (sys.stdout, sys.stderr):
        try:
            found.append((stream, stream.fileno()))
        except (AttributeError, OSError, ValueError):  # replaced by a test, or closed
            pass
    return found


def _own_output_at(status: os.stat_result) -> tuple[Any, int] | None:
    """(stream, descriptor) of this process's standard output or error when it is the file of
    ``status``; None when neither is."""
    for stream, fd in _own_outputs():
        try:
            own = os.fstat(fd)
        except OSError:
            continue
        if (own.st_dev, own.st_ino) == (status.st_dev, status.st_ino):
            return stream, fd
    return None


def _write_in_place(path: str, status: os.stat_result, write: Callable[[BinaryIO], None]) -> None:
    """Write through our own standard output or error when the target is the file behind it (a
    duplicate of its descriptor shares its position, so the bytes follow what was printed), else
    open the device or pipe and write into it."""
    own = _own_output_at(status)
    if own is not None:
        stream, fd = own
        getattr(stream, "flush", lambda: None)()
        with os.fdopen(os.dup(fd), "wb") as handle:
            write(handle)
        return
    with open(path, "wb") as handle:
        write(handle)
