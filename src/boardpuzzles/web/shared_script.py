"""JavaScript functions both page scripts include (:mod:`boardpuzzles.web.play_script`,
:mod:`boardpuzzles.web.baikago_script`): the clipboard, the history keys, words in a list and the clock's format.
Function declarations, so a script may call them above the place it includes them."""

# ruff: noqa: E501 - JavaScript in a string, wrapped as it reads best

SHARED_SCRIPT = r"""
// What a page says of a change the server did not make because the game changed in another tab
// (notDone: what was not done, "Not played"; empty: the reason alone), short enough for the
// status line's two lines on a phone.
function changedElsewhere(notDone) {
  const why = "the game changed in another tab.";
  return notDone ? `${notDone}: ${why}` : why[0].toUpperCase() + why.slice(1);
}
// The history key a key press is: "undo" (Ctrl+Z, Cmd+Z), "redo" (Ctrl+Y, Ctrl+Shift+Z,
// Cmd+Shift+Z), else null.
function historyKey(e) {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  if (e.key === "z" || e.key === "Z") return e.shiftKey ? "redo" : "undo";
  return e.key === "y" || e.key === "Y" ? "redo" : null;
}

// Whether a key press belongs to a menu or a field (its own keys), not to the page.
function inField(target) {
  return Boolean(target) && (target.tagName === "SELECT" || target.tagName === "INPUT");
}

// Words in a list: "a", "a and b", "a, b and c".
function listed(words) {
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : words.join("");
}

// A time as the clocks show it: 0:07, 12:34, 1:02:03.
function fmt(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

// Copies text to the clipboard; true when it did. The clipboard API first, else (a page not
// served from this computer has none) the old way, through a field selected out of sight.
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (e) {
    const field = document.createElement("textarea");
    field.value = text; field.readOnly = true;
    Object.assign(field.style, {position: "fixed", top: "0", opacity: "0"});
    document.body.appendChild(field);
    field.select();
    let done = false;
    try { done = document.execCommand("copy"); } catch (e2) { done = false; }
    field.remove();
    return done;
  }
}
"""
