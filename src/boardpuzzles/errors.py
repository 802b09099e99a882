"""Exceptions the library raises on bad input; the CLI turns each into a one-line error, exit 2."""


class BoardPuzzlesError(ValueError):
    """Base class: the input (a size, a file, a name) cannot be used."""


class ParseError(BoardPuzzlesError):
    """A text picture or file could not be read; the message names the line or field."""


class SizeError(BoardPuzzlesError):
    """A board size outside what the puzzle or its kernel supports."""


def shorten(text: str, limit: int = 40) -> str:
    """Text a person typed, cut for an error message (a 1 MB token is not echoed whole)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."
