"""JavaScript functions both page scripts include (:mod:`boardpuzzles.web.play_script`,
:mod:`boardpuzzles.web.baikago_script`): the clipboard and the clock's format. Function
declarations, so a script may call them above the place it includes them."""

# ruff: noqa: E501 - JavaScript in a string, wrapped as it reads best

SHARED_SCRIPT = r"""
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
