"""MkDocs hook: an option in a table cell's command is never cut in two. Browsers break a line
after a hyphen, which split ``--jobs`` into ``-`` and ``-jobs``; each option word of a code span
in a table cell is kept whole (the text, and what a reader copies, is unchanged). Other words,
such as long file names, may still break at their hyphens."""

from __future__ import annotations

import re
from typing import Any

CELL_CODE = re.compile(r"(<td[^>]*>)(.*?)(</td>)", re.S)
CODE = re.compile(r"<code>(.*?)</code>", re.S)


def _keep_words(match: re.Match[str]) -> str:
    words = match.group(1).split(" ")
    kept = (f'<span class="word">{word}</span>' if word.startswith("-") else word for word in words)
    return "<code>" + " ".join(kept) + "</code>"


def on_page_content(html: str, **kwargs: Any) -> str:
    return CELL_CODE.sub(lambda cell: cell.group(1) + CODE.sub(_keep_words, cell.group(2)) + cell.group(3), html)
