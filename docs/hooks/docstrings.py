"""Griffe extension: the docstrings' plain-text conventions as Markdown, for the API reference.

The docstrings are written to be read in a terminal (``help()``, an editor): a section title
underlined with dashes, a glossary of terms (a term on its own line with its definition indented
below it, or a term and its definition in two columns), and Sphinx-style roles such as
``:class:`Grid```. This turns them into what Markdown shows well: a bold title, a list of
**term**: definition, code spans, and doctests as Python blocks. The text itself is not changed.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):`(~?)([^`]+)`")
UNDERLINE = re.compile(r"^-{3,}$|^={3,}$")
COLUMNS = re.compile(r"^(\S.{0,40}?)\s{2,}(\S.*)$")


def _role(match: re.Match[str]) -> str:
    target = match.group(2)
    return f"`{target.rsplit('.', 1)[-1] if match.group(1) else target}`"


def _terms(block: list[str]) -> list[str] | None:
    """The block as a Markdown list of terms, or None when it is not a glossary."""
    items: list[list[str]] = []
    for i, line in enumerate(block):
        if line.startswith((" ", "\t")):
            if not items:
                return None
            items[-1].append(line.strip())
            continue
        columns = COLUMNS.match(line)
        if columns and not line.startswith(">>>"):
            items.append([f"**{columns.group(1).strip()}**:", columns.group(2)])
        elif len(line) <= 40 and i + 1 < len(block) and block[i + 1].startswith((" ", "\t")):
            items.append([f"**{line.strip()}**:"])
        else:
            return None
    if len(items) < 2 and not any(len(item) > 1 for item in items):
        return None
    return ["- " + " ".join(item) for item in items]


def markdown(text: str) -> str:
    text = ROLE.sub(_role, text)
    lines = text.split("\n")
    out: list[str] = []
    block: list[str] = []
    in_fence = False

    def flush() -> None:
        if block and block[0].lstrip().startswith(">>>"):  # a doctest: shown as Python
            indent = len(block[0]) - len(block[0].lstrip())
            out.extend(["```pycon", *(line[indent:] for line in block), "```"])
            block.clear()
        if block:
            converted = None if in_fence else _terms(block)
            out.extend(converted if converted is not None else block)
            block.clear()

    for line in lines:
        if line.strip().startswith("```"):
            flush()
            in_fence = not in_fence
            out.append(line)
        elif in_fence:
            out.append(line)
        elif not line.strip():
            flush()
            out.append(line)
        elif UNDERLINE.match(line.strip()) and len(block) == 1 and not block[0].startswith(" "):
            title = block.pop()
            out.extend([f"**{title.strip()}**", ""])
        else:
            block.append(line)
    flush()
    return "\n".join(out)


class PlainTextDocstrings(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
