"""The Baikago page's style sheet (:mod:`boardpuzzles.web.baikago_page`): the board as large as
the window allows, a message slot of fixed height above it (the status, the result or an error,
so the board never moves), the panels beside it on a desktop and under it on a phone."""

# ruff: noqa: E501 - CSS, wrapped as it reads best

STYLE = r"""
:root { --ink: #2b2118; --muted: #6b5d4d; --paper: #f6f1e6; --accent: #1e6fd0; --win: #c62828;
        --wood: #dcb35c; --line: #5a4010; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--paper); color: var(--ink);
       font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
.page { max-width: 1180px; margin: 0 auto; padding: 10px 16px 24px; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1em; margin-bottom: 6px; }
h1 { margin: 0; font-size: 1.6rem; }
.kanji { font-weight: normal; margin-left: .25em;
         font-family: "Noto Sans CJK JP", "Noto Sans JP", "Source Han Sans JP", "Hiragino Kaku Gothic ProN",
                      "Hiragino Sans", "Yu Gothic", "Meiryo", "MS Gothic", "Noto Sans CJK SC", "WenQuanYi Micro Hei", "WenQuanYi Zen Hei",
                      "Droid Sans Fallback", sans-serif; }
.rule { margin: 0; color: var(--muted); }
.layout { display: grid; grid-template-columns: max-content minmax(250px, 330px); gap: 8px 24px;
          align-items: start; }
/* The board's side: as large as the window allows beside the panel, the message slot above it in
   view. The slot keeps one height whatever it holds (the status, the result, an error), so the
   board never moves. */
:root { --slot: 4.4rem; --board: max(300px, min(calc(100vw - 410px), calc(100vh - 96px - var(--slot)), 820px)); }
main { width: var(--board); }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }

#slot { position: relative; height: var(--slot); margin: 2px 0 6px; }
#slot > * { position: absolute; inset: 0; margin: 0; overflow: hidden; }
#status { font-size: 1.05rem; display: flex; align-items: center; gap: .5em; }
#status-text { display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
.spinner { display: none; width: 1em; height: 1em; border-radius: 50%; border: 3px solid #c9b68f;
           border-top-color: var(--ink); animation: spin .8s linear infinite; flex: none; }
body.thinking .spinner { display: inline-block; }
@keyframes spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .spinner { animation-duration: 3s; } }

#result { display: grid; grid-template-columns: 1fr auto; align-items: center; gap: 0 12px; padding: 4px 12px;
          border-radius: 8px; background: #fff; border: 2px solid var(--ink); }
#result[hidden] { display: none; }
#result-line { font-size: 1.4rem; font-weight: 700; line-height: 1.2; }
#result-detail { grid-column: 1; font-size: .92rem; line-height: 1.3; color: var(--muted);
                 display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
#again { grid-column: 2; grid-row: 1 / span 2; }
#result-detail.refused { color: var(--win); }
#result.human { border-color: #2e7d32; } #result.human #result-line { color: #2e7d32; }
#result.computer { border-color: var(--win); } #result.computer #result-line { color: var(--win); }

#error { padding: 6px 12px; border-radius: 8px; background: #fdecea; border: 1px solid #e57373;
         display: flex; gap: 6px 12px; align-items: center; }
#error-text { flex: 1; line-height: 1.3; display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; }
#error[hidden] { display: none; }

.board-wrap { position: relative; width: var(--board); height: var(--board); touch-action: manipulation; }
.board-wrap svg { position: absolute; inset: 0; width: 100%; height: 100%; display: block; }
.value { margin: 8px 0 0; }
#points { position: absolute; display: grid; }
.pt { display: block; width: 100%; height: 100%; margin: 0; padding: 0; border: 0; border-radius: 50%;
      background: none; cursor: pointer; position: relative; -webkit-tap-highlight-color: transparent; }
.pt:focus { outline: none; }
.pt:focus-visible { box-shadow: inset 0 0 0 3px var(--accent), inset 0 0 0 5px #fff; }
body:not(.yours) .pt, .pt.taken { cursor: default; }
@media (hover: hover) { body.yours .pt:not(.taken):hover::after { content: ""; position: absolute; inset: 4%; border-radius: 50%;
      background: var(--ghost); opacity: .45; } }
body.human-black { --ghost: #111; } body.human-white { --ghost: #fff; }

aside { display: flex; flex-direction: column; gap: 12px; }
.panel { background: #fffaf0; border: 1px solid #e2d6bd; border-radius: 8px; padding: 10px 12px; }
.panel h2 { margin: 0 0 6px; font-size: 1rem; }
.game-info { margin: 0 0 8px; }
.switch { display: flex; align-items: center; gap: 8px; cursor: pointer; }
.switch input { width: 1.2em; height: 1.2em; margin: 0; accent-color: var(--accent); }
#aids-note { margin-top: 6px; }
.buttons { display: flex; flex-wrap: wrap; gap: 8px; }
button.action, select { font: inherit; padding: 6px 12px; border-radius: 6px; border: 1px solid #a08a66;
                        background: #fff; color: var(--ink); min-height: 38px; }
button.action { cursor: pointer; }
button.action.primary { background: var(--ink); color: #fff; border-color: var(--ink); }
button.action:disabled { opacity: .45; cursor: default; }
button.action:focus-visible, select:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.settings { display: grid; grid-template-columns: auto 1fr; gap: 6px 10px; align-items: center; }
#offer { margin-top: 8px; padding: 8px; border-radius: 6px; background: #fff3cd; border: 1px solid #e0c36a; }
#offer[hidden] { display: none; }
#offer p { margin: 0 0 6px; }
/* Two columns, black's moves and white's, row by row (a move pair per row): a long game scrolls. */
#moves { margin: 0; padding: 0; list-style: none; display: grid; grid-template-columns: 1fr 1fr; gap: 0 1em;
         max-height: min(46vh, 420px); overflow-y: auto; font-variant-numeric: tabular-nums; }
#moves li.last { font-weight: 700; }
#moves .n { display: inline-block; min-width: 2.4em; text-align: right; margin-right: .4em; color: var(--muted); }
.dot { display: inline-block; width: .8em; height: .8em; border-radius: 50%; vertical-align: -.05em;
       margin-right: .35em; border: 1px solid #333; }
.dot.black { background: #111; } .dot.white { background: #fff; }
.empty-list { color: var(--muted); margin: 0; }
.help { color: var(--muted); font-size: .9rem; margin: 0; }
.panel .help { margin-top: 6px; }
a { color: var(--accent); }
#clock { margin-left: auto; font-variant-numeric: tabular-nums; color: var(--muted); flex: none; }
#result-time { margin-left: .6em; font-size: 1rem; font-weight: normal; color: var(--muted); font-variant-numeric: tabular-nums; }
.keys { color: var(--muted); font-size: .85rem; margin: 0; }
.keys summary { cursor: pointer; }
.keys p { margin: 4px 0 0; }
kbd { font: .8em ui-monospace, monospace; border: 1px solid #c9ccd1; border-radius: 3px; padding: 0 3px; background: #fafafa; color: var(--ink); }

@media (max-width: 760px) {
  .page { padding: 8px 3px 20px; }
  header, aside { margin-left: 5px; margin-right: 5px; }
  h1 { font-size: 1.35rem; }
  .rule { font-size: .9rem; }
  :root { --board: calc(100vw - 6px); --slot: 4.9rem; }
  .layout { grid-template-columns: 1fr; }
  #slot { margin-left: 5px; margin-right: 5px; }
  .value { margin: 8px 5px 0; }
  #result-line { font-size: 1.2rem; }
  #moves { max-height: none; }
  .keys { display: none; }  /* no keyboard on a phone */
}
"""
