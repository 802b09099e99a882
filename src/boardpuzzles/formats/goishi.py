"""Goishi Hiroi puzzles as text: read any of five formats (detected automatically), write any.

The codec is the puzzle's own (a Goishi problem is made from its file), so it lives beside the
puzzle in :mod:`boardpuzzles.puzzles.goishi.files`, and the puzzle imports nothing from here;
this module is its name among the file formats. See that module for the formats.
"""

from __future__ import annotations

from boardpuzzles.puzzles.goishi.files import (
    BASE32,
    CARRY_ORDER,
    FORMATS,
    ORDER_LINE,
    READ_ONLY,
    URL_PREFIX,
    Document,
    detect,
    encode_url_body,
    read,
    write,
)

__all__ = [
    "BASE32",
    "CARRY_ORDER",
    "FORMATS",
    "ORDER_LINE",
    "READ_ONLY",
    "URL_PREFIX",
    "Document",
    "detect",
    "encode_url_body",
    "read",
    "write",
]
