"""Reading what people give: files, standard input, or the text itself.

Every input is read with a cap (``MAX_INPUT_BYTES``), incrementally, so a huge file or an
endless pipe costs at most the cap; a UTF-8 byte-order mark is dropped; and whether an argument
is a path or the text itself (a puzz.link URL, a pick-up order) is decided without touching the
file system for text that cannot be a path.
"""

from __future__ import annotations

import os
import sys

from boardpuzzles.errors import BoardPuzzlesError, shorten

#: The largest input read: a 1000 x 1000 knight's tour as square names is about 5 MB.
MAX_INPUT_BYTES = 16 * 1024 * 1024
#: Longer arguments are never file names (Linux allows 4096 bytes in a path, 255 in a name).
MAX_PATH_CHARS = 4096
BOM = "\ufeff"


def read_text(path: str, limit: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of a file, or of standard input for ``-``; one-line errors."""
    if path == "-":
        data = sys.stdin.buffer.read(limit + 1)
        where = "standard input"
    else:
        if not could_be_path(path):
            raise BoardPuzzlesError(f"no such file: {shorten(path)}")
        try:
            with open(path, "rb") as handle:
                data = handle.read(limit + 1)
        except FileNotFoundError:
            raise BoardPuzzlesError(f"no such file: {shorten(path)}") from None
        except IsADirectoryError:
            raise BoardPuzzlesError(f"{shorten(path)} is a folder, not a file") from None
        except OSError as err:
            raise BoardPuzzlesError(f"cannot read {shorten(path)}: {err.strerror}") from None
        where = shorten(path)
    if len(data) > limit:
        raise BoardPuzzlesError(f"{where} is larger than {limit // (1024 * 1024)} MiB, the most boardpuzzles reads")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BoardPuzzlesError(f"{where} is not UTF-8 text") from None
    return strip_bom(text)


def strip_bom(text: str) -> str:
    return text[1:] if text.startswith(BOM) else text


def could_be_path(text: str) -> bool:
    """False for text that no file name can be (too long, a NUL byte, a line break); decided
    without touching the file system."""
    return 0 < len(text) <= MAX_PATH_CHARS and "\x00" not in text and "\n" not in text


def is_existing_file(text: str) -> bool:
    """True when ``text`` names an existing file (never raises: odd text is simply no file)."""
    if not could_be_path(text):
        return False
    try:
        return os.path.isfile(text)
    except (OSError, ValueError):
        return False
