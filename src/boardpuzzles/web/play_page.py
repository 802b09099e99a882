"""The play page of every puzzle: one self-contained HTML document (nothing fetched but the
server's own JSON), driven by the puzzle's :class:`~boardpuzzles.play.Play`.

How the page plays (see ``web/app.py`` for the API):

- the board is the SVG picture the server draws from the state's scene (faults in red, a hint
  in blue), under a grid of transparent buttons, one per cell, placed where the server says the
  cells lie; the buttons carry the clicks, the focus, the arrow-key cursor and the labels screen
  readers read ("c3, K");
- a tool button (or its key) picks what a click does; Ctrl+Z / Ctrl+Y undo and redo, ``?`` asks
  for a hint; the status line and the caption line (the scene's title, "5 kings; the problem
  asks for 9") above the board have fixed heights, so the board never moves;
- on a desktop the board is sized so that the page fits the window's height (the picture's
  shape is known once the first state comes); on a phone it takes the screen's width;
- a play that exports URLs gets an "Export" link (the puzzle on its site), one that imports
  them an "Import" field (the page then opens ``?url=..``, the shareable link of that puzzle);
- the game id sits in the URL hash and in localStorage, so a reload finds the game the server
  keeps; the address (``?size=..&difficulty=..&seed=..``) is the shareable link of the puzzle.
"""

# ruff: noqa: E501 - the page is HTML, CSS and JavaScript in a string, wrapped as those read best

from __future__ import annotations

import html
import json
from typing import Any


def render_play_page(config: dict[str, Any]) -> str:
    """The page of one puzzle: ``config`` has its name, title, rules, tools, sizes and difficulties."""
    text = PAGE.replace("__TITLE__", html.escape(config["title"])).replace("__RULES__", html.escape(config["rules"]))
    # "</" inside a script would end it early; JSON allows "<\/" for it.
    return text.replace("__CONFIG__", json.dumps(config).replace("</", "<\\/"))


PAGE = r"""<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 4 4'%3E%3Crect width='4' height='4' fill='%23f0d9b5'/%3E%3Crect width='2' height='2' fill='%23b58863'/%3E%3Crect x='2' y='2' width='2' height='2' fill='%23b58863'/%3E%3C/svg%3E">
<style>
:root { --ink: #1f2328; --muted: #5b636d; --paper: #f7f7f4; --accent: #1e6fd0; --bad: #c62828; --good: #2e7d32; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--paper); color: var(--ink);
       font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
.page { max-width: 1180px; margin: 0 auto; padding: 10px 16px 24px; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1em; margin-bottom: 4px; }
header a { color: var(--accent); }
h1 { margin: 0; font-size: 1.5rem; }
.rule { margin: 0 0 4px; color: var(--muted); }
.layout { display: grid; grid-template-columns: max-content minmax(250px, 340px); gap: 8px 24px; align-items: start; }
:root { --board: max(280px, min(calc(100vw - 420px), calc(100vh - 150px), 760px)); }
main { width: var(--board); }
#status { height: 3em; margin: 2px 0 6px; display: flex; align-items: center; gap: .6em; overflow: hidden; }
#status-text { overflow: hidden; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; }
#status.fault #status-text, #status.refused #status-text { color: var(--bad); }
#status.solved #status-text { color: var(--good); font-weight: 600; font-size: 1.15rem; }
#caption { height: 1.5em; margin: 0 0 4px; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#clock { margin-left: auto; font-variant-numeric: tabular-nums; color: var(--muted); flex: none; }
.board { position: relative; width: 100%; }
.board svg { display: block; width: 100%; height: auto; }
#cells { position: absolute; display: grid; }
#cells button { margin: 0; padding: 0; border: 0; background: transparent; cursor: pointer; min-width: 0; min-height: 0; }
#cells button:focus { outline: none; }
#cells button:focus-visible, #cells button.cursor:focus { outline: 3px solid var(--accent); outline-offset: -3px; border-radius: 2px; }
body.solved #cells button { cursor: default; }
aside { display: flex; flex-direction: column; gap: 12px; }
fieldset { border: 1px solid #d8d8d0; border-radius: 8px; padding: 8px 10px 10px; margin: 0; }
legend { padding: 0 4px; color: var(--muted); font-size: .9rem; }
.row { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
button.tool, .actions button, #new, #import { font: inherit; padding: 6px 12px; border-radius: 6px; border: 1px solid #b9bec6; background: #fff; cursor: pointer; }
button.tool[aria-pressed="true"] { background: var(--accent); color: #fff; border-color: var(--accent); }
button.tool[aria-pressed="true"] kbd { color: var(--ink); }
button:disabled { opacity: .45; cursor: default; }
kbd { font: .8em ui-monospace, monospace; border: 1px solid #c9ccd1; border-radius: 3px; padding: 0 3px; background: #fafafa; }
select { font: inherit; padding: 4px; }
#faults { margin: 6px 0 0; padding-left: 1.2em; color: var(--bad); }
#faults:empty, #legend:empty { display: none; }
#legend { list-style: none; margin: 6px 0 0; padding: 0; display: flex; flex-wrap: wrap; gap: 2px 16px; color: var(--muted); font-size: .9rem; }
#legend li { display: flex; align-items: center; gap: 6px; }
.swatch { flex: none; display: inline-block; width: 14px; height: 14px; border: 2px solid transparent; }
.swatch.mark-square { border-color: rgba(0,0,0,.15); }
.swatch.mark-ring, .swatch.start { border-radius: 50%; background: transparent !important; }
.swatch.end { background: transparent !important; }
.swatch.torus { width: 26px; height: 0; border: 0; border-top: 2px dashed #333 !important; }
.swatch.gradient { width: 26px; background: linear-gradient(90deg, #2c7bb6, #abd9e9, #fdae61, #d7191c) !important; }
.swatch.faded { border-radius: 50%; border: 1.5px dashed #999 !important; background: #eee !important; }
#faults li.hint { color: #0d47a1; list-style: "\2192  "; }
.share { word-break: break-all; font-size: .9rem; margin: 0; }
#import-url { font: inherit; padding: 4px 6px; flex: 1 1 12em; min-width: 0; }
.keys { color: var(--muted); font-size: .85rem; margin: 0; }
@media (max-width: 760px) {
  :root { --board: min(calc(100vw - 24px), calc(100vh - 230px)); --board: max(240px, min(calc(100vw - 24px), 560px)); }
  .page { padding: 8px 12px 20px; }
  .layout { grid-template-columns: 1fr; }
  h1 { font-size: 1.25rem; }
  #status { height: 2.9em; font-size: .95rem; }
}
</style>
</head>
<body data-busy="1" data-solved="0">
<div class="page">
<header><h1>__TITLE__</h1><a href="/">all puzzles</a></header>
<p class="rule">__RULES__</p>
<div class="layout">
<main>
  <div id="status" role="status" aria-live="polite"><span id="status-text">Loading&hellip;</span><span id="clock" aria-label="time taken">0:00</span></div>
  <p id="caption"></p>
  <div class="board" id="board-box">
    <div id="picture" aria-hidden="true"></div>
    <div id="cells" role="group" aria-label="Board"></div>
  </div>
  <ul id="legend" aria-label="What the marks mean"></ul>
  <ul id="faults" aria-label="What is wrong"></ul>
</main>
<aside>
  <fieldset><legend>Tool</legend><div class="row" id="tools" role="toolbar" aria-label="Tools"></div></fieldset>
  <fieldset><legend>Moves</legend><div class="row actions">
    <button id="undo" type="button" title="Undo (Ctrl+Z)">Undo</button>
    <button id="redo" type="button" title="Redo (Ctrl+Y)">Redo</button>
    <button id="hint" type="button" title="Hint (?)">Hint</button>
  </div></fieldset>
  <fieldset><legend>New puzzle</legend><div class="row">
    <label>Size <select id="size"></select></label>
    <label id="difficulty-box">Difficulty <select id="difficulty"></select></label>
    <button id="new" type="button">New</button>
  </div></fieldset>
  <fieldset id="import-box" hidden><legend>Import</legend><form class="row" id="import-form">
    <input id="import-url" type="text" inputmode="url" spellcheck="false" placeholder="a puzzle's URL" aria-label="The URL of a puzzle to import">
    <button id="import" type="submit">Import</button>
  </form></fieldset>
  <p class="share">Link to this puzzle: <a id="link" href="#">&hellip;</a></p>
  <p class="share" id="export-box" hidden>Export: <a id="export" href="#" rel="noopener noreferrer">&hellip;</a></p>
  <p class="keys">Keys: arrows move, <kbd>Enter</kbd> or <kbd>Space</kbd> plays the tool, <span id="tool-keys"></span>, <kbd>Ctrl+Z</kbd> undo, <kbd>Ctrl+Y</kbd> redo, <kbd>?</kbd> hint.</p>
</aside>
</div>
</div>
<script>
"use strict";
const CONFIG = __CONFIG__;
const $ = (id) => document.getElementById(id);
const STORE = "boardpuzzles-play-" + CONFIG.name;
let state = null, tool = CONFIG.tools[0].name, cursor = 0, busy = 0, clockBase = 0, clockAt = 0, note = null;

function setBusy(delta) {
  busy += delta;
  document.body.dataset.busy = busy > 0 ? "1" : "0";
}

async function api(path, body) {
  setBusy(1);
  try {
    const response = await fetch(path, body === undefined ? {cache: "no-store"} : {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    let doc = null;
    try { doc = await response.json(); } catch (e) { doc = {error: "the server sent no JSON"}; }
    if (!response.ok) { const err = new Error(doc.error || response.statusText); err.status = response.status; throw err; }
    return doc;
  } finally { setBusy(-1); }
}

function fmt(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

function tick() {
  if (!state) return;
  const seconds = state.solved ? state.seconds : clockBase + (Date.now() - clockAt) / 1000;
  $("clock").textContent = fmt(seconds);
}

function say(text, kind) {
  $("status-text").textContent = text;
  $("status-text").title = text;
  $("status").className = kind || "";
}

function showStatus() {
  if (note) { say(note.text, note.kind); return; }
  if (state.solved) { say(`Solved in ${fmt(state.seconds)}!`, "solved"); return; }
  if (state.faults.length) {
    const more = state.faults.length > 1 ? ` (and ${state.faults.length - 1} more)` : "";
    say(state.faults[0].message + more, "fault");
    return;
  }
  if (state.hint) { say("Hint: " + state.hint.message, "hint"); return; }
  say(state.moves ? "No fault so far." : "Click a cell to play.", "");
}

// -------------------------------------------------------------- the board
function buildCells() {
  const g = state.geometry, box = $("cells"), n = g.rows * g.cols;
  const pct = (v, whole) => (100 * v / whole) + "%";
  Object.assign(box.style, {left: pct(g.left, g.width), top: pct(g.top, g.height),
    width: pct(g.cols * g.cell, g.width), height: pct(g.rows * g.cell, g.height),
    gridTemplateColumns: `repeat(${g.cols}, 1fr)`, gridTemplateRows: `repeat(${g.rows}, 1fr)`});
  if (box.childElementCount !== n || box.dataset.shape !== `${g.rows}x${g.cols}`) {
    box.textContent = "";
    box.dataset.shape = `${g.rows}x${g.cols}`;
    box.setAttribute("aria-label", `Board, ${g.rows} rows by ${g.cols} columns: arrows move, Enter plays`);
    for (let i = 0; i < n; i++) {
      const b = document.createElement("button");
      b.type = "button"; b.tabIndex = -1; b.dataset.cell = i;
      box.appendChild(b);
    }
    cursor = Math.min(cursor, n - 1);
  }
  const faulty = new Set(state.faults.flatMap((f) => f.cells));
  const hinted = new Set(state.hint ? state.hint.cells : []);
  const buttons = box.children;
  for (let i = 0; i < n; i++) {
    const b = buttons[i], name = state.names[i] || `cell ${i}`;
    const what = state.contents[i] || "";
    b.dataset.name = name;
    b.setAttribute("aria-label", `${name}, ${what}${faulty.has(i) ? ", wrong" : ""}${hinted.has(i) ? ", hint" : ""}`);
    b.tabIndex = i === cursor ? 0 : -1;
    b.classList.toggle("cursor", i === cursor);
  }
}

// On a desktop the board is as wide as the window's height lets the whole picture show, with
// the legend under it as a game starts and the page's margin; a phone keeps its width. The size
// is set once a game (and on resizing), so the board never moves while the game goes on.
const PHONE = matchMedia("(max-width: 760px)"), MARGIN_BELOW = 32;
let fitted = null;
function fit(again) {
  if (!state || (fitted === state.game && !again)) return;
  fitted = state.game;
  const main = document.querySelector("main");
  main.style.width = "";
  if (PHONE.matches) return;
  const g = state.geometry, widest = main.getBoundingClientRect().width;
  const top = $("board-box").getBoundingClientRect().top + window.scrollY;
  for (let pass = 0; pass < 2; pass++) {  // a narrower board may wrap the legend: measure again
    const room = window.innerHeight - top - $("legend").getBoundingClientRect().height - MARGIN_BELOW;
    main.style.width = Math.max(240, Math.min(widest, Math.floor(room * g.width / g.height))) + "px";
  }
}

function render(next) {
  const focused = document.activeElement && document.activeElement.parentElement === $("cells");
  state = next;
  clockBase = state.seconds; clockAt = Date.now();
  $("picture").innerHTML = state.svg;
  $("caption").textContent = state.caption || "";
  $("caption").title = state.caption || "";
  buildCells();
  document.body.dataset.game = state.game;
  document.body.dataset.moves = String(state.moves);
  document.body.dataset.solved = state.solved ? "1" : "0";
  document.body.classList.toggle("solved", state.solved);
  $("undo").disabled = !state.can_undo;
  $("redo").disabled = !state.can_redo;
  $("hint").disabled = state.solved;
  const legend = $("legend");
  legend.textContent = "";
  for (const entry of state.legend) {
    const li = document.createElement("li"), swatch = document.createElement("span");
    swatch.className = "swatch " + entry.kind;
    swatch.style.background = entry.colour; swatch.style.borderColor = entry.colour;
    li.appendChild(swatch);
    li.appendChild(document.createTextNode(entry.text.replace(/^(square|ring|disc): /, "")));
    legend.appendChild(li);
  }
  const ul = $("faults");
  ul.textContent = "";
  for (const f of state.faults.slice(0, 20)) { const li = document.createElement("li"); li.textContent = f.message; ul.appendChild(li); }
  if (state.hint) { const li = document.createElement("li"); li.className = "hint"; li.textContent = "Hint: " + state.hint.message; ul.appendChild(li); }
  fit();
  if (CONFIG.sizes.includes(state.size)) $("size").value = String(state.size);
  if (CONFIG.exports && state.url) {
    $("export").href = state.url;
    try { $("export").textContent = new URL(state.url).host || state.url; } catch (e) { $("export").textContent = state.url; }
  }
  $("export-box").hidden = !(CONFIG.exports && state.url);
  if (CONFIG.difficulties.length) $("difficulty").value = state.difficulty;
  const link = new URL(state.link, location.href).href;
  $("link").href = link; $("link").textContent = link;
  history.replaceState(null, "", state.link + "#game=" + state.game);
  try { localStorage.setItem(STORE, state.game); } catch (e) { /* private mode */ }
  showStatus(); tick();
  if (focused) focusCursor();
}

function focusCursor() {
  const b = $("cells").children[cursor];
  if (b) b.focus();
}

function moveCursor(dr, dc) {
  const g = state.geometry;
  let r = Math.floor(cursor / g.cols) + dr, c = cursor % g.cols + dc;
  r = (r + g.rows) % g.rows; c = (c + g.cols) % g.cols;
  const old = $("cells").children[cursor];
  if (old) { old.tabIndex = -1; old.classList.remove("cursor"); }
  cursor = r * g.cols + c;
  const b = $("cells").children[cursor];
  b.tabIndex = 0; b.classList.add("cursor"); b.focus();
}

// -------------------------------------------------------------- actions
async function act(path, body) {
  if (!state) return;
  try {
    const next = await api(`/api/games/${state.game}/${path}`, body || {});
    note = null;
    render(next);
  } catch (err) {
    note = {text: (err.status === 422 ? "Not allowed: " : "") + err.message, kind: "refused"};
    showStatus();
    note = null;
  }
}

function play(cell) {
  if (!state || state.solved) return;
  cursor = cell;
  act("click", {cell: cell, tool: tool});
}

function chooseTool(name) {
  tool = name;
  for (const b of $("tools").children) b.setAttribute("aria-pressed", b.dataset.tool === name ? "true" : "false");
}

async function newGame(settings, replaces) {
  const body = Object.assign({}, settings);
  if (replaces) body.replaces = replaces;
  try {
    note = null;
    render(await api(`/api/${CONFIG.name}/new`, body));
  } catch (err) {
    say(err.message, "refused");
  }
}

function chosenSettings() {
  const s = {size: Number($("size").value)};
  if (CONFIG.difficulties.length) s.difficulty = $("difficulty").value;
  return s;
}

function linkSettings() {
  const q = new URLSearchParams(location.search), s = {};
  if (q.has("size") && /^[0-9]{1,4}$/.test(q.get("size"))) s.size = Number(q.get("size"));
  if (q.has("difficulty")) s.difficulty = q.get("difficulty");
  if (q.has("seed") && /^[0-9]{1,10}$/.test(q.get("seed"))) s.seed = Number(q.get("seed"));
  if (CONFIG.imports && q.get("url")) s.url = q.get("url");
  return s;
}

async function boot() {
  for (const t of CONFIG.tools) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "tool"; b.dataset.tool = t.name;
    b.innerHTML = `${t.label} <kbd></kbd>`; b.querySelector("kbd").textContent = t.key;
    b.title = `${t.label} (${t.key})`;
    b.addEventListener("click", () => chooseTool(t.name));
    $("tools").appendChild(b);
  }
  $("tool-keys").textContent = CONFIG.tools.map((t) => `${t.key} ${t.label.toLowerCase()}`).join(", ");
  chooseTool(tool);
  for (const s of CONFIG.sizes) { const o = document.createElement("option"); o.value = o.textContent = String(s); $("size").appendChild(o); }
  if (CONFIG.difficulties.length) {
    for (const d of CONFIG.difficulties) { const o = document.createElement("option"); o.value = o.textContent = d; $("difficulty").appendChild(o); }
  } else { $("difficulty-box").hidden = true; }
  $("cells").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (b) play(Number(b.dataset.cell));
  });
  $("undo").addEventListener("click", () => act("undo"));
  $("redo").addEventListener("click", () => act("redo"));
  $("hint").addEventListener("click", () => act("hint"));
  $("new").addEventListener("click", () => newGame(chosenSettings(), state && state.game));
  if (CONFIG.imports) {
    $("import-box").hidden = false;
    $("import-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const url = $("import-url").value.trim();
      if (url) newGame({url: url}, state && state.game);
      else say("Paste a puzzle's URL to import it.", "refused");
    });
  }
  window.addEventListener("resize", () => fit(true));
  document.addEventListener("keydown", onKey);
  setInterval(tick, 1000);
  const m = /^#game=([0-9a-f]{1,64})$/.exec(location.hash);
  const link = linkSettings();
  let id = m ? m[1] : null;
  if (!id && link.seed === undefined && link.url === undefined) { try { id = localStorage.getItem(STORE); } catch (e) { id = null; } }
  if (id) {
    try {
      const found = await api(`/api/games/${id}`);
      if (found.puzzle === CONFIG.name) { render(found); return; }
    } catch (e) { /* gone: a new one */ }
  }
  await newGame(Object.assign({size: CONFIG.sizes[0]}, CONFIG.difficulties.length ? {difficulty: CONFIG.difficulties[0]} : {}, link));
}

function onKey(e) {
  const target = e.target;
  if (target && (target.tagName === "SELECT" || target.tagName === "INPUT")) return;
  const key = e.key;
  if ((e.ctrlKey || e.metaKey) && !e.altKey) {
    if (key === "z" || key === "Z") { e.preventDefault(); act(e.shiftKey ? "redo" : "undo"); }
    else if (key === "y" || key === "Y") { e.preventDefault(); act("redo"); }
    return;
  }
  if (e.altKey) return;
  const onBoard = target && target.parentElement === $("cells");
  const arrows = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
  if (key in arrows && state) {
    e.preventDefault();
    if (!onBoard) { focusCursor(); return; }
    moveCursor(...arrows[key]);
    return;
  }
  if (key === "?") { e.preventDefault(); act("hint"); return; }
  const t = CONFIG.tools.find((t) => t.key === key.toLowerCase());
  if (t) { e.preventDefault(); chooseTool(t.name); }
}

boot();
</script>
</body></html>
"""
