"""Exceptions the library raises on bad input; the CLI turns each into a one-line error, exit 2.

Also the few functions every parser shares when it turns user text into a message or a number:
:func:`excerpt` (a token as an error message may show it), :func:`whole_number` (ASCII digits,
bounded in length before ``int()`` sees them) and :func:`check_seed`.
"""

from __future__ import annotations

import numbers
import re


class BoardPuzzlesError(ValueError):
    """Base class: the input (a size, a file, a name) cannot be used."""


class ParseError(BoardPuzzlesError):
    """A text picture or file could not be read; the message names the line or field."""


class SizeError(BoardPuzzlesError):
    """A board size outside what the puzzle or its kernel supports."""


#: Characters of a token that an error message shows; the rest is cut (a 1 MB token helps nobody).
EXCERPT_LENGTH = 40
#: Significant digits a number read from text may have: anything longer is "too large" before
#: ``int()`` sees it (Python refuses more than 4300 digits, with a message about its own limits).
#: 18 digits always fit a signed 64-bit word.
MAX_DIGITS = 18
#: Seeds are 0 .. 2**63 - 1 unless a random generator takes fewer (see each ``seed`` parameter).
MAX_SEED = 2**63 - 1

_DECIMAL = re.compile(r"[0-9]+")


def excerpt(value: object, limit: int = EXCERPT_LENGTH) -> str:
    """``repr(value)`` for an error message, cut to ``limit`` characters with ``...`` and the full
    length. Integers too long to print (Python refuses over 4300 digits) are described instead."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value.bit_length() <= 3 * limit:  # 120 bits: at most 37 digits
            return str(value)
        return f"a {'negative ' if value < 0 else ''}number of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    text = value if isinstance(value, str) else str(value)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def is_decimal(text: str) -> bool:
    """ASCII digits only: ``str.isdigit()`` also accepts '²' (which ``int()`` refuses) and
    ``int()`` accepts Arabic-Indic digits, underscores and spaces."""
    return _DECIMAL.fullmatch(text) is not None


def whole_number(text: str, what: str, error: type[BoardPuzzlesError] = ParseError) -> int:
    """The number that ``text`` spells in ASCII digits (leading zeros allowed), or ``error``
    naming ``what`` (``"line 3: the number of rows"``). More than :data:`MAX_DIGITS`
    significant digits is too large for anything this library counts, and is refused as such
    (a :class:`SizeError`) without converting it. The caller checks the range it needs."""
    if not is_decimal(text):
        raise error(f"{what} is {excerpt(text)}, not a whole number")
    significant = len(text.lstrip("0"))
    if significant > MAX_DIGITS:
        raise SizeError(f"{what} is {excerpt(text)}: too large ({significant:,} digits)")
    return int(text.lstrip("0") or "0")  # int() counts leading zeros against its 4300 digits


def check_seed(seed: object, maximum: int = MAX_SEED) -> int:
    """``seed`` if it is a whole number in 0 .. ``maximum``; a :class:`BoardPuzzlesError` otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise BoardPuzzlesError(f"the seed must be a whole number, got {excerpt(seed)}")
    value = int(seed)
    if not 0 <= value <= maximum:
        raise BoardPuzzlesError(f"the seed must be between 0 and {maximum}, got {excerpt(value)}")
    return value


def shorten(text: str, limit: int = 40) -> str:
    """Text a person typed, cut for an error message (a 1 MB token is not echoed whole)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."
