"""The page a browser gets for an address the server has no page at (status 404): what was not
found, in the site's look, with the way to the front page and to each page the server has. A
request that is not a browser's page (the API, a script, ``curl``) still gets ``{"error": ...}``
(see :mod:`boardpuzzles.web.handler`).
"""

# ruff: noqa: E501 - the page is HTML and CSS in a string, wrapped as those read best

from __future__ import annotations

import html
from collections.abc import Sequence

from boardpuzzles.web.front_page import HEAD


def not_found_page(reason: str, home: tuple[str, str], links: Sequence[tuple[str, str]] = ()) -> bytes:
    """The page: ``reason`` (one line: what was not found), ``home`` (the front page's address and
    the words of its link) and ``links`` (address, words) to the server's other pages."""
    listed = "".join(f'<li><a href="{html.escape(href)}">{html.escape(text)}</a></li>' for href, text in links)
    words = reason[:1].upper() + reason[1:]
    page = (
        PAGE.replace("__REASON__", html.escape(words if words.endswith(".") else words + "."))
        .replace("__HOME__", f'<a class="home" href="{html.escape(home[0])}">{html.escape(home[1])}</a>')
        .replace("__LINKS__", f'<ul class="links">{listed}</ul>' if listed else "")
    )
    return page.encode("utf-8")


PAGE = (
    HEAD.replace("__TITLE__", "Page not found")
    + r""".page { max-width: 720px; margin: 0 auto; padding: 14px 16px 28px; }
h1 { margin: 0 0 4px; font-size: 1.7rem; }
.lead { margin: 0 0 16px; color: #5b636d; overflow-wrap: anywhere; }
a { color: #1e6fd0; }
a.home { display: inline-flex; align-items: center; min-height: 36px; padding: 6px 16px; border-radius: 6px;
         background: #1e6fd0; color: #fff; text-decoration: none; }
a.home:focus-visible { outline: 3px solid #0b3d91; outline-offset: 2px; }
.links { margin: 16px 0 0; padding-left: 1.2em; }
.links li { margin: 2px 0; }
</style>
</head>
<body>
<div class="page">
<h1>Page not found</h1>
<p class="lead">__REASON__</p>
__HOME__
__LINKS__
</div>
</body></html>
"""
)
