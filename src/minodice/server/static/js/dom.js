// Small DOM helpers shared by the game (app.js) and the score sheet page (sheet.js).

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** An element with attributes (class, text, html, on*: listeners, others as attributes) and children. */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k === "html") e.innerHTML = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

/** Show a page-level error (network trouble, unexpected answers, a bad file) in `#error` for a while. */
let errorTimer = null;
export function flashError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => (box.hidden = true), 8000);
}

/** Call `fn` once (in a microtask) after each batch of changes to `node`'s children: for parts drawn
 * on top of a list another module draws afresh (a seat's clock badge, the tutorial's coach). */
export function afterChildren(node, fn) {
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      fn();
    });
  }).observe(node, { childList: true });
}
