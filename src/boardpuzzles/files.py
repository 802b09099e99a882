"""Writing a file whole or not at all: the one way boardpuzzles replaces a user's file.

The bytes go to a temporary file in the same folder, which is then renamed over the target, so
an interrupted or failed write (a kill, Ctrl-C, a full disk) never leaves a half-written file
where the old one was. A symlink is written through (its target is replaced, the link stays),
and an existing file keeps its permissions; a new one gets the usual ``0o666 & ~umask``.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable


def replace_file(path: str, chunks: Iterable[bytes | memoryview], *, sync: bool = False) -> None:
    """Write ``chunks`` to ``path`` atomically; ``sync`` also flushes them to the disk before the
    rename (for a file whose loss would cost hours: a search checkpoint). Raises ``OSError`` and
    leaves no temporary file behind when it fails (or is interrupted)."""
    real = os.path.realpath(path)
    if os.path.exists(real):
        mode = stat.S_IMODE(os.stat(real).st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    folder, name = os.path.split(real)
    fd, tmp = tempfile.mkstemp(dir=folder or ".", prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            for chunk in chunks:
                handle.write(chunk)
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
