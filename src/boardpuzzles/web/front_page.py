"""The front page of ``boardpuzzles serve``: a card per registered puzzle and game, each with its
picture (the first solution of the record's ``small`` example, drawn as ``--svg`` draws it, less
its title and legend, which would be too small to read on a card), one line of rules and a link
to its play page. Self-contained: the pictures are inline SVG.
"""

# ruff: noqa: E501 - the page is HTML and CSS in a string, wrapped as those read best

from __future__ import annotations

import dataclasses
import html
from typing import Any

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import Play
from boardpuzzles.protocol import Entry, Puzzle, display_name
from boardpuzzles.scene import Scene

#: Seconds the picture of one card may take (the small example is solved once, when the page is first asked for).
PICTURE_SECONDS = 5.0


def picture(entry: Entry, play: Play[Any, Any] | None = None) -> str:
    """The card's picture as inline SVG: the first solution of the ``small`` example, else the
    start of the play's default puzzle ("" when there is neither)."""
    try:
        if isinstance(entry, Puzzle):
            if not entry.small:
                if play is None:
                    return ""
                problem, state = play.new(play.default_size, play.difficulties[0] if play.difficulties else "", 0)
                return thumbnail(play.scene(problem, state))
            problem = entry.parse(entry.small)
            answer = next(entry.solutions(problem, Limits(PICTURE_SECONDS)), None)
            if answer is None:
                return ""
            return thumbnail(entry.to_scene(problem, answer))
        if entry.name == "baikago":
            from boardpuzzles.render.baikago import position_scene

            points = [0] * 49
            cross = (24, 17, 31, 23, 25)
            for p in cross:
                points[p] = 1
            for p in (16, 18, 30, 32):
                points[p] = 2
            return thumbnail(position_scene(points, 7, [cross], last=25))
    except (BoardPuzzlesError, TimeLimitReached):
        return ""
    return ""


def thumbnail(scene: Scene) -> str:
    """The board alone (no title, no legend), as the play page draws it."""
    from boardpuzzles.web.play_game import picture as board_picture

    return board_picture(dataclasses.replace(scene, title=""))[0]


def card(entry: Entry, rules: str, href: str | None, play: Play[Any, Any] | None = None) -> str:
    """One card: the picture, the title, the rules, and the link (or why there is none)."""
    title = html.escape(entry.title[:1].upper() + entry.title[1:])
    name = html.escape(entry.name)
    heading = html.escape(display_name(entry))
    art = picture(entry, play)
    link = (
        f'<a class="play" href="{html.escape(href)}" aria-label="Play {heading}">Play</a>'
        if href
        else '<span class="soon">not playable here yet</span>'
    )
    # The rules line when there is one (the title is written for the command line), else the title.
    line = f'<p class="rules">{html.escape(rules)}</p>' if rules else f'<p class="title">{title}</p>'
    head = f'<a href="{html.escape(href)}" tabindex="-1" aria-hidden="true">{art}</a>' if href and art else art
    return (
        f'<article class="card" data-puzzle="{name}"><div class="art">{head}</div>'
        f"<h2>{heading}</h2>{line}{link}</article>"
    )


def front_page(cards: list[tuple[Entry, str, str | None, Play[Any, Any] | None]]) -> str:
    """The page: ``cards`` holds each entry, its line of rules, its play page and its play (or None)."""
    body = "\n".join(card(entry, rules, href, play) for entry, rules, href, play in cards)
    return PAGE.replace("__CARDS__", body)


#: The start of every page of the site: its icon and base style (the page adds its title
#: and the rest of its style).
HEAD = r"""<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 4 4'%3E%3Crect width='4' height='4' fill='%23f0d9b5'/%3E%3Crect width='2' height='2' fill='%23b58863'/%3E%3Crect x='2' y='2' width='2' height='2' fill='%23b58863'/%3E%3C/svg%3E">
<style>
* { box-sizing: border-box; }
body { margin: 0; background: #f7f7f4; color: #1f2328;
       font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
"""


PAGE = (
    HEAD.replace("__TITLE__", "Board puzzles")
    + r""".page { max-width: 1180px; margin: 0 auto; padding: 14px 16px 28px; }
h1 { margin: 0 0 4px; font-size: 1.7rem; }
.lead { margin: 0 0 16px; color: #5b636d; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr)); gap: 16px; }
.card { background: #fff; border: 1px solid #dcdcd4; border-radius: 10px; padding: 12px; display: flex; flex-direction: column; }
.art { display: flex; justify-content: center; align-items: center; height: 210px; overflow: hidden; }
.art svg { max-width: 100%; max-height: 210px; width: auto; height: auto; }
h2 { margin: 8px 0 0; font-size: 1.15rem; }
.title { margin: 0; color: #5b636d; font-size: .95rem; }
.rules { margin: 6px 0 0; }
.card > a.play, .card > .soon { margin-top: auto; }
.card > p:last-of-type { margin-bottom: 12px; }
a.play { align-self: flex-start; background: #1e6fd0; color: #fff; text-decoration: none; padding: 6px 16px; border-radius: 6px;
         min-height: 36px; display: inline-flex; align-items: center; }
a.play:focus-visible { outline: 3px solid #0b3d91; outline-offset: 2px; }
.soon { color: #8a8f98; font-size: .9rem; }
</style>
</head>
<body>
<div class="page">
<h1>Board puzzles</h1>
<p class="lead">Pick a puzzle: mistakes are marked as you make them, a hint or a check is a click away, and undo never runs out.</p>
<main class="cards">
__CARDS__
</main>
</div>
</body></html>
"""
)
