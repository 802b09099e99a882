"""MkDocs hook: the home page (for its picture), the pages of wide tables (the records) and of wide
help texts (the command-line reference, which has its own table of commands) give up the table of
contents on the right, so that they have the page's width."""

from __future__ import annotations

from typing import Any

WIDE = {"index.md", "records.md", "reference/cli.md"}


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    if page.file.src_uri in WIDE:
        hide = page.meta.setdefault("hide", [])
        if "toc" not in hide:
            hide.append("toc")
    return markdown
