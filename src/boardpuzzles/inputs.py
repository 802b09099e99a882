"""Reading what people give: files, standard input, or the text itself.

Every input is read with a cap (``MAX_INPUT_BYTES``), incrementally, so a huge file or an
endless pipe costs at most the cap; a UTF-8 byte-order mark is dropped; and whether an argument
is a path or the text itself (a puzz.link URL, a pick-up order) is decided without touching the
file system for text that cannot be a path.
"""

from __future__ import annotations

import io
import os
import re
import sys
from typing import Any

from boardpuzzles.errors import BoardPuzzlesError, excerpt

#: The most a FILE (or standard input) may hold: a puzzle picture, a game record or a pick-up
#: order is a few kilobytes, and parsers keep their work proportional to this.
MAX_INPUT_BYTES = 1 << 20
#: The most an answer may hold: a knight's tour of the largest board `find` makes (4,000,000
#: squares) is about 32 MB as square names.
MAX_ANSWER_BYTES = 64 << 20
#: Longer arguments are never file names (Linux allows 4096 bytes in a path, 255 in a name).
MAX_PATH_CHARS = 4096
BOM = "\ufeff"
#: The most a size option takes (1 PiB).
MOST_BYTES = 1 << 50
_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]*)?)\s*([kKmMgGtT]?)(?:i?[bB])?\s*")


def read_text(path: str, limit: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of a file, or of standard input for ``-``: at most ``limit`` bytes, read in
    blocks and never more than ``limit + 1`` of them (``/dev/zero`` is refused, not read); newlines
    as ``\\n``; a leading byte-order mark dropped. Every failure is one line."""
    where = "standard input" if path == "-" else _shown(path)
    try:
        if path == "-":
            if sys.stdin is None:
                raise BoardPuzzlesError("there is no standard input to read")
            data = _read_at_most(sys.stdin, limit + 1)
        else:
            if not could_be_path(path):
                raise BoardPuzzlesError(f"no such file: {where}")
            with open(path, "rb") as handle:
                data = _read_at_most(handle, limit + 1)
    except FileNotFoundError:
        raise BoardPuzzlesError(f"no such file: {where}") from None
    except IsADirectoryError:
        raise BoardPuzzlesError(f"{where} is a folder, not a file") from None
    except OSError as err:
        raise BoardPuzzlesError(f"cannot read {where}: {err.strerror or err}") from None
    except ValueError:  # a NUL character in the name, or a closed stream
        raise BoardPuzzlesError(f"cannot read {where}: not a file name") from None
    if len(data) > limit:
        mib = f" ({limit >> 20} MiB)" if limit % (1 << 20) == 0 else ""
        raise BoardPuzzlesError(f"{where} is too large: the limit is {limit:,} bytes{mib}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BoardPuzzlesError(f"{where} is not UTF-8 text") from None
    return strip_bom(text).replace("\r\n", "\n").replace("\r", "\n")


def parse_bytes(
    text: str, option: str, least: int = 1 << 20, too_little: str = "too little", also: str | None = None
) -> int:
    """Bytes from ``8G``, ``512M``, ``1.5 GiB`` or a plain number of bytes (powers of 1024), as
    ``option`` takes them: at least ``least`` (else "... is less than 1 MiB: ``too_little``") and
    at most ``MOST_BYTES``; every refusal is one line that names the option (and ``also``, a word
    the option takes besides sizes, when it is not a size)."""
    found = _SIZE.fullmatch(text)
    if found is None:
        besides = "" if also is None else f", or {also}"
        raise BoardPuzzlesError(f"{option} takes a size like 8G or 512M{besides}, not {excerpt(text)}")
    value = float(found.group(1)) * 1024 ** " KMGT".index(found.group(2).upper() or " ")
    if value < least:
        shown = f"{least >> 20} MiB" if least % (1 << 20) == 0 else f"{least:,} bytes"
        raise BoardPuzzlesError(f"{option} {excerpt(text.strip())} is less than {shown}: {too_little}")
    if not value <= MOST_BYTES:  # also infinity, from a number too long for a float
        raise BoardPuzzlesError(f"{option} {excerpt(text.strip())} is more than 1 PiB: give what the computer has")
    return int(value)


def _read_at_most(stream: Any, most: int) -> bytes:
    """Up to ``most`` bytes of a binary stream, or of a text stream's bytes (its ``buffer``; a
    text stream without one, as tests use, is read as characters and encoded back), in blocks of
    64 KiB: a single ``read(most)`` would set aside ``most`` bytes before reading any."""
    binary = stream if isinstance(stream, io.RawIOBase | io.BufferedIOBase) else getattr(stream, "buffer", None)
    chunks: list[bytes] = []
    size = 0
    while size < most:
        if binary is not None:
            chunk = binary.read(min(1 << 16, most - size))
        else:
            chunk = stream.read(min(1 << 14, most - size)).encode("utf-8", "surrogateescape")
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _shown(path: str) -> str:
    """A path as a message shows it: as typed, unless it is long, empty or holds odd characters."""
    return path if path and len(path) <= 80 and path.isprintable() and path.strip() == path else excerpt(path, 60)


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
