"""The play page of every puzzle: one self-contained HTML document (nothing fetched but the
server's own JSON, no font or script from elsewhere, so it works offline), driven by the
puzzle's :class:`~boardpuzzles.play.Play` and the game's state (see ``web/app.py`` for the API).
Its style sheet is :mod:`boardpuzzles.web.play_style`, its script
:mod:`boardpuzzles.web.play_script`.

How the page plays, after the conventions of Simon Tatham's collection and puzz.link:

- the board is the SVG picture the server draws from the state's scene (mistakes in red, a hint
  in violet), under a grid of transparent buttons, one per cell, placed where the server says the
  cells lie; the buttons carry the clicks, the focus, the arrow-key cursor and the words screen
  readers hear ("c3, queen, wrong", from the state's ``contents``);
- a click plays the chosen tool; a right-click, a long press or Shift+click plays the second
  one (the first, when the second is chosen); on a play that draws paths or pairs (``drag``)
  a drag plays a click on each cell the pointer enters;
- a puzzle the player solves flashes its board twice (as Tatham's games do; framed in green
  instead where the system asks for reduced motion), and the status line says the time; a
  solution shown, or a solved game opened again, does not flash;
- Undo, Redo, Hint, Check (the state's ``check``: solved, the first mistake, or what is left),
  Restart (undo takes it back) and Show solution (asked first); keys for each; the status line
  answers the hint or check asked for last (the state's ``asked``) until the next move, and
  shows the first mistake otherwise;
- a link that names a size, a difficulty or a seed (or a URL) opens a new puzzle of them, a
  random seed where it names none, and leaves a way back to the game under way; a link with
  none reopens the game played last in this browser; a link's parameter the puzzle does not
  take (a size it lacks or its difficulty does not offer, a seed that is not a number) is left
  out, the others kept, and the status line says which and why: the page always opens a puzzle;
- mistakes are marked as they are made; aids that give the answer away (dead ends found by
  search, shading such as the squares a queen attacks) only once the assistance switch turns
  them on (the state's ``aids``), and the switch's note says which the puzzle has;
- *New* asks first when the puzzle is under way, and leaves a link back to it; while a puzzle
  is generated the board says so; the seed is shown and can be copied with the link, whose
  reach the state's ``share`` says ("this computer only"); where every seed makes the same
  puzzle (the state's ``seeded`` is false; the config's ``seedless`` names the difficulties) no
  seed is shown or asked for; the sizes a chosen difficulty does not offer (the config's
  ``sizes_by_difficulty``: a closed knight's tour needs an even side) are greyed, with a note
  that says which it offers, so that New never asks for a puzzle the server refuses;
- the mistakes and the hint are listed in the side column under the Moves panel, where a
  desktop window shows them beside the board (on a phone, under the board); a hint's detail
  (why, in more words) is a quieter line under the hint there; the status line keeps to the
  hint's message;
- the panel "This puzzle" keeps its layout: its line of words above its buttons, the buttons
  as wide whatever they say ("Copied"), whatever the seed's length;
- the status and caption lines above the board keep their heights, so the board does not move
  (a status longer than its two lines wraps whole, pushing the board down, rather than being
  cut off: a tooltip is no help on a phone);
  on a desktop the board is sized so that the page fits the window's height, on a phone it
  takes the screen's width (scrolling sideways when its cells would be under 32 px), and a
  new puzzle scrolls it into view;
- a server that stopped answering shows a box that says how to start it again;
- a button whose route the server lacks (a state without its field) is hidden.
"""

# ruff: noqa: E501 - the page is HTML in a string, wrapped as it reads best

from __future__ import annotations

import html
import json
from typing import Any

from boardpuzzles.web.play_script import SCRIPT
from boardpuzzles.web.play_style import STYLE


def render_play_page(config: dict[str, Any]) -> str:
    """The page of one puzzle: ``config`` has its name, title, rules, tools, sizes (ascending)
    and ``default_size``, difficulties, the sizes of those that offer only some
    (``sizes_by_difficulty``) and the ``seedless`` ones (every seed the same puzzle),
    whether it exports and imports URLs, shows its solution (``solves``) and takes drags
    (``drag``), and what its aids are (``aids_note``, for the Assistance panel)."""
    text = PAGE.replace("__STYLE__", STYLE).replace("__SCRIPT__", SCRIPT)
    text = text.replace("__TITLE__", html.escape(config["title"])).replace("__RULES__", html.escape(config["rules"]))
    text = text.replace("__AIDS__", html.escape(config.get("aids_note", AIDS_NOTE)))
    # "</" inside a script would end it early; JSON allows "<\/" for it.
    return text.replace("__CONFIG__", json.dumps(config).replace("</", "<\\/"))


#: The Assistance panel's note, in words true of every play's aids.
AIDS_NOTE = "Mistakes are always marked; aids can give the answer away."

PAGE = r"""<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 4 4'%3E%3Crect width='4' height='4' fill='%23f0d9b5'/%3E%3Crect width='2' height='2' fill='%23b58863'/%3E%3Crect x='2' y='2' width='2' height='2' fill='%23b58863'/%3E%3C/svg%3E">
<style>__STYLE__</style>
</head>
<body data-busy="1" data-solved="0">
<div class="page">
<header><h1>__TITLE__</h1><a href="/">all puzzles</a></header>
<p class="rule">__RULES__</p>
<div class="layout">
<main>
  <div id="status" role="status" aria-live="polite"><span class="spinner" aria-hidden="true"></span><span id="status-text">Loading&hellip;</span><span id="clock" aria-label="time taken">0:00</span></div>
  <p id="caption"></p>
  <div class="stage" id="stage">
    <div class="frame" id="frame">
      <div class="board" id="board-box">
        <div id="picture" aria-hidden="true"></div>
        <div id="cells" role="group" aria-label="Board" aria-describedby="board-help"></div>
      </div>
    </div>
    <div class="over" id="veil" hidden><span class="spinner" aria-hidden="true"></span><span id="veil-text">Generating a new puzzle&hellip;</span></div>
    <div class="over" id="gone" role="alert" hidden><div class="box">
      <h2>The puzzle server has stopped</h2>
      <p>Start it again with <code>boardpuzzles serve</code> and reload this page. Your game is kept on the server.</p>
      <div class="row"><button type="button" id="gone-retry" class="primary">Try again</button><button type="button" id="gone-reload">Reload</button></div>
    </div></div>
  </div>
  <p id="zoom-box" hidden><span id="zoom-text"></span><button type="button" id="zoom" aria-pressed="true"></button></p>
  <p id="board-help" class="sr"></p>
  <ul id="legend" aria-label="What the marks mean"></ul>
</main>
<aside>
  <fieldset><legend>Tool</legend><div class="row" id="tools" role="toolbar" aria-label="Tools"></div>
    <p class="note" id="second-note" hidden></p></fieldset>
  <fieldset><legend>Moves</legend><div class="row">
    <button id="undo" type="button" disabled title="Undo (Ctrl+Z)" aria-keyshortcuts="Control+Z">Undo</button>
    <button id="redo" type="button" disabled title="Redo (Ctrl+Y)" aria-keyshortcuts="Control+Y">Redo</button>
    <button id="hint" type="button" disabled title="Hint (?)" aria-keyshortcuts="?">Hint</button>
    <button id="check" type="button" disabled title="Check (!)" aria-keyshortcuts="!" hidden>Check</button>
    <button id="restart" type="button" disabled title="Back to the start (undo takes it back)" hidden>Restart</button>
    <button id="solve" type="button" disabled title="Show the solution (asks first)" hidden>Show solution</button>
  </div></fieldset>
  <ul id="faults" aria-label="Mistakes and hints"></ul>
  <fieldset id="aids-box" hidden><legend>Assistance</legend>
    <label class="switch"><input type="checkbox" id="aids" role="switch" aria-describedby="aids-note"> Show aids</label>
    <p class="note" id="aids-note">__AIDS__</p>
  </fieldset>
  <fieldset><legend>New puzzle</legend><div class="row">
    <label>Size <select id="size"></select></label>
    <label id="difficulty-box">Difficulty <select id="difficulty"></select></label>
    <label id="seed-box">Seed <input id="seed" type="text" inputmode="numeric" autocomplete="off" spellcheck="false" placeholder="random"
      title="The same size, difficulty and seed make the same puzzle; empty: a random one"></label>
    <button id="new" type="button" class="primary">New</button>
  </div>
  <p class="note" id="sizes-note" hidden></p>
  <p class="note" id="previous" hidden><a id="previous-link" href="#">Back to the previous puzzle</a></p>
  </fieldset>
  <fieldset><legend>This puzzle</legend>
    <p id="puzzle-info">&hellip;</p>
    <div class="row"><button type="button" id="copy-seed" class="copy">Copy seed</button><button type="button" id="copy-link" class="copy">Copy link</button></div>
    <p class="note">Its <a id="share-link" href="#">link</a> opens it afresh<span id="reach"></span>.</p>
    <p class="note" id="export-box" hidden>On its own site: <a id="export" href="#" rel="noopener noreferrer">&hellip;</a></p>
    <form class="row" id="import-form" hidden style="margin-top:6px">
      <input id="import-url" type="text" inputmode="url" spellcheck="false" placeholder="a puzzle's URL" aria-label="The URL of a puzzle to import">
      <button id="import" type="submit">Import</button>
    </form>
  </fieldset>
  <details class="keys"><summary>Keys</summary><p id="keys"></p></details>
</aside>
</div>
</div>
<dialog id="ask" aria-labelledby="ask-title" aria-describedby="ask-text"><form method="dialog">
  <h2 id="ask-title"></h2><p id="ask-text"></p>
  <div class="row"><button value="no" id="ask-no"></button><button value="yes" id="ask-yes" class="primary"></button></div>
</form></dialog>
<script>
"use strict";
const CONFIG = __CONFIG__;
__SCRIPT__
</script>
</body></html>
"""
