"""The play page's style sheet (:mod:`boardpuzzles.web.play_page`): the board beside the panels
on a desktop, sized to the window's height; on a phone the board takes the screen's width (a
board whose cells would be under a finger's width, 32 px, is drawn at that width in a frame
that scrolls sideways); lines of fixed height above the board, so it does not move (a status
longer than its two lines wraps whole rather than being cut off); buttons at least 32 px high
on a phone."""

# ruff: noqa: E501 - CSS, wrapped as it reads best

from boardpuzzles.render.shapes import GRADIENT

STYLE = r"""
:root { --ink: #1f2328; --muted: #5b636d; --paper: #f7f7f4; --accent: #1e6fd0; --bad: #c62828; --good: #2e7d32; --hint: #6a1b9a;
        --line: #d8d8d0; --board: max(280px, min(calc(100vw - 420px), calc(100vh - 160px), 760px)); }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; background: var(--paper); color: var(--ink);
       font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
.page { max-width: 1180px; margin: 0 auto; padding: 10px 16px 24px; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1em; margin-bottom: 4px; }
a { color: var(--accent); }
h1 { margin: 0; font-size: 1.5rem; }
.rule { margin: 0 0 4px; color: var(--muted); }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.layout { display: grid; grid-template-columns: max-content minmax(260px, 350px); gap: 8px 24px; align-items: start; }
main { width: var(--board); min-width: 0; }

/* Two lines kept for the status, so the board stays put; a longer one wraps whole and pushes it down. */
#status { min-height: 3em; margin: 2px 0 4px; display: flex; align-items: center; gap: .6em; }
#status-text { min-width: 0; overflow-wrap: anywhere; }
#status.fault #status-text, #status.refused #status-text { color: var(--bad); }
#status.solved #status-text { color: var(--good); font-weight: 600; font-size: 1.15rem; }
#status.checked #status-text, #status.note #status-text { color: #0d47a1; }
#status.hint #status-text { color: var(--hint); }
#status.revealed #status-text { color: var(--muted); font-weight: 600; }
#clock { margin-left: auto; font-variant-numeric: tabular-nums; color: var(--muted); flex: none; }
#caption { height: 1.5em; margin: 0 0 4px; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.spinner { display: none; width: 1em; height: 1em; border-radius: 50%; border: 3px solid #c9ccd1;
           border-top-color: var(--ink); animation: spin .8s linear infinite; flex: none; }
body.generating #status .spinner, #veil .spinner { display: inline-block; }
@keyframes spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .spinner { animation-duration: 3s; } }

/* The stage holds the board's frame and the boxes laid over it (generating, server gone). */
.stage { position: relative; }
.frame { overflow: hidden; }
.board { position: relative; width: 100%; }
.board svg { display: block; width: 100%; height: auto; }
#cells { position: absolute; display: grid; touch-action: manipulation; }
body.drag #cells { touch-action: none; }  /* a finger draws a path instead of scrolling the page */
#cells button { margin: 0; padding: 0; border: 0; background: transparent; cursor: pointer; min-width: 0; min-height: 0;
                -webkit-tap-highlight-color: transparent; -webkit-touch-callout: none; user-select: none; }
#cells button:focus { outline: none; }
#cells button:focus-visible { outline: 3px solid var(--accent); outline-offset: -3px; border-radius: 2px; }
body.solved #cells button { cursor: default; }
/* Solved by the player: the board flashes twice (framed in green, without motion, where less is asked for). */
#cells.flash { animation: solved-flash 1.1s ease-in-out; }
@keyframes solved-flash { 0%, 45%, 100% { background: transparent; } 20%, 70% { background: rgba(46, 125, 50, .38); } }
@media (prefers-reduced-motion: reduce) { #cells.flash { animation: none; outline: 4px solid var(--good); outline-offset: 2px; } }
.over { position: absolute; inset: 0; display: flex; flex-direction: column; align-items: center; justify-content: center;
        gap: 10px; padding: 16px; text-align: center; background: rgba(247, 247, 244, .82); }
#veil { font-size: 1.1rem; flex-direction: row; opacity: 0; animation: appear .2s .15s forwards; }
@keyframes appear { to { opacity: 1; } }
#gone { background: rgba(247, 247, 244, .9); }
#gone .box { max-width: 26em; background: #fdecea; border: 1px solid #e57373; border-radius: 10px; padding: 14px 16px; }
#gone h2 { margin: 0 0 6px; font-size: 1.1rem; }
#gone p { margin: 0 0 10px; }
code { font: .92em ui-monospace, monospace; background: #ececea; border-radius: 3px; padding: 0 3px; }
#zoom-box { margin: 4px 0 0; font-size: .9rem; color: var(--muted); display: flex; flex-wrap: wrap; align-items: center; gap: 4px 10px; }

aside { display: flex; flex-direction: column; gap: 8px; }
fieldset { border: 1px solid var(--line); border-radius: 8px; padding: 6px 10px 8px; margin: 0; min-width: 0; }
legend { padding: 0 4px; color: var(--muted); font-size: .9rem; }
.row { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
aside button, #gone button, dialog button, #zoom-box button { font: inherit; padding: 5px 12px; min-height: 34px; border-radius: 6px;
        border: 1px solid #b9bec6; background: #fff; color: var(--ink); cursor: pointer; }
button.primary { background: var(--accent); color: #fff; border-color: var(--accent); }
button.tool[aria-pressed="true"] { background: var(--accent); color: #fff; border-color: var(--accent); }
button.tool[aria-pressed="true"] kbd { color: var(--ink); }
button:disabled { opacity: .45; cursor: default; }
button:focus-visible, select:focus-visible, input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
kbd { font: .8em ui-monospace, monospace; border: 1px solid #c9ccd1; border-radius: 3px; padding: 0 3px; background: #fafafa; color: var(--ink); }
select, input { font: inherit; padding: 4px 6px; min-height: 34px; border: 1px solid #b9bec6; border-radius: 6px; background: #fff; }
.note { color: var(--muted); font-size: .85rem; margin: 6px 0 0; }
.switch { display: flex; align-items: center; gap: 8px; cursor: pointer; }
.switch input { width: 1.2em; height: 1.2em; min-height: 0; margin: 0; accent-color: var(--accent); }
#seed { width: 6.5em; }
#puzzle-info { margin: 0 0 6px; overflow-wrap: anywhere; }
button.copy { min-width: 7.5em; }  /* as wide whatever it says: Copy seed, Copy link, Copied, Not copied */
#seed-shown { font-variant-numeric: tabular-nums; font-weight: 600; }
#import-url { flex: 1 1 12em; min-width: 0; }
#reach:empty { display: none; }
/* The mistakes and the hint, in the side column (first under the board on a phone). */
#faults { margin: 0; padding: 6px 10px 8px 1.9em; border: 1px solid var(--line); border-radius: 8px; color: var(--bad); }
#faults li.unfinished, #faults li.more { color: var(--muted); }
#faults li.more { list-style: none; }
#faults li.hint { color: var(--hint); list-style: "\2192  "; }
#faults li.hint .detail { display: block; color: var(--muted); font-size: .9em; }
#faults:empty, #legend:empty { display: none; }
#legend { list-style: none; margin: 6px 0 0; padding: 0; display: flex; flex-wrap: wrap; gap: 2px 16px; color: var(--muted); font-size: .9rem; }
#legend li { display: flex; align-items: center; gap: 6px; }
.swatch { flex: none; display: inline-block; width: 14px; height: 14px; border: 2px solid transparent; }
.swatch.mark-square { border-color: rgba(0,0,0,.15); }
.swatch.mark-ring, .swatch.start { border-radius: 50%; }
.swatch.mark-ring, .swatch.start:not(.filled), .swatch.end:not(.filled) { background: transparent !important; }
.swatch.torus { width: 26px; height: 0; border: 0; border-top: 2px dashed #333 !important; }
.swatch.gradient { width: 26px; background: linear-gradient(90deg, __GRADIENT__) !important; }  /* the board's own scale */
.swatch.faded { border-radius: 50%; border: 1.5px dashed #999 !important; background: #eee !important; }
.keys { color: var(--muted); font-size: .85rem; margin: 0; }
.keys summary { cursor: pointer; }
.keys p { margin: 4px 0 0; }
dialog { border: 1px solid var(--line); border-radius: 10px; padding: 16px 18px; max-width: min(26em, calc(100vw - 24px)); }
dialog::backdrop { background: rgba(0, 0, 0, .35); }
dialog h2 { margin: 0 0 6px; font-size: 1.1rem; }
dialog p { margin: 0 0 12px; }
dialog .row { justify-content: flex-end; }

@media (max-width: 760px) {
  :root { --board: calc(100vw - 6px); }
  .page { padding: 8px 3px 20px; }
  header, .rule, #status, #caption, #zoom-box, #legend, aside { margin-left: 7px; margin-right: 7px; }
  #faults { order: -1; }  /* under the board and its legend, before the panels */
  .layout { grid-template-columns: minmax(0, 1fr); }
  h1 { font-size: 1.25rem; }
  .rule { font-size: .92rem; }
  #status { min-height: 2.9em; font-size: .95rem; }
  .keys, button.tool kbd { display: none; }  /* no keyboard on a phone */
  /* A board drawn wider than the screen (its cells a finger wide): the frame scrolls sideways. */
  body.zoomed .frame { overflow-x: auto; overscroll-behavior-x: contain; }
  body.zoomed #cells { touch-action: pan-x pan-y; }
  aside button, select, input, #gone button, dialog button { min-height: 40px; }
}
""".replace("__GRADIENT__", ", ".join(GRADIENT))
