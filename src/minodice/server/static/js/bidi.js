// Names and messages in any script. Every string a person typed (a seat's name, a chat message) is
// put in its own <bdi>, so a right-to-left name keeps its own direction and never pulls the digits,
// punctuation and words around it into it ("#1 ليلى حسن: 320 pts", not "#1 320 :ليلى حسن pts").
// tn() builds a translated sentence as nodes with such names in it; the text it reads is the same.
import { currentLanguage, t } from "./i18n.js";
import { S, plainName } from "./state.js";

/** A <bdi> holding `text` (its direction is its own: dir=auto). */
export function bdi(text, cls = null) {
  const b = document.createElement("bdi");
  if (cls) b.className = cls;
  b.textContent = String(text ?? "");
  return b;
}

const MARK = /\u0001(\d+)\u0002/g;

/** t(key, params) as a DocumentFragment: params that are Nodes (a bdi name) are put in as they are. */
export function tn(key, params = {}) {
  const nodes = [];
  const flat = {};
  for (const [k, v] of Object.entries(params)) {
    if (v instanceof Node) {
      flat[k] = `\u0001${nodes.length}\u0002`;
      nodes.push(v);
    } else {
      flat[k] = v;
    }
  }
  return splice(t(key, flat), nodes);
}

function splice(text, nodes) {
  const out = document.createDocumentFragment();
  let at = 0;
  for (const m of text.matchAll(MARK)) {
    if (m.index > at) out.append(text.slice(at, m.index));
    const node = nodes[Number(m[1])];
    if (node) out.append(node.nodeType === Node.DOCUMENT_FRAGMENT_NODE || !node.parentNode ? node : node.cloneNode(true));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.append(text.slice(at));
  return out;
}

/** Items (strings or nodes) joined by `sep`, as a fragment. */
export function joinNodes(items, sep) {
  const out = document.createDocumentFragment();
  items.forEach((item, i) => {
    if (i) out.append(sep);
    out.append(item);
  });
  return out;
}

/** A list of names (nodes or strings) the language's way ("Ana, Bo and Cy"), as a fragment. */
export function listNodes(items) {
  let parts;
  try {
    const marks = items.map((_, i) => `\u0001${i}\u0002`);
    parts = new Intl.ListFormat(currentLanguage(), { style: "long", type: "conjunction" }).format(marks);
  } catch {
    parts = items.map((_, i) => `\u0001${i}\u0002`).join(", ");
  }
  return splice(parts, items.map((x) => (x instanceof Node ? x : document.createTextNode(String(x)))));
}

/** A seat's name isolated; this page's own seat as "Ana (you)" with only the name isolated. */
export function nameNode(seat) {
  const name = bdi(plainName(seat), "name");
  return seat === S.seat ? tn("you_name", { name }) : name;
}

/** `text` as a fragment with every occurrence of one of `names` (people's names it was built from)
 * in a <bdi>; for sentences made as strings elsewhere (the replay page, the score-sheet page). */
export function isolateIn(text, names) {
  const wanted = [...new Set(names.map((n) => String(n ?? "")).filter((n) => n.trim()))].sort((a, b) => b.length - a.length);
  const out = document.createDocumentFragment();
  let rest = String(text ?? "");
  while (rest) {
    let best = null;
    for (const name of wanted) {
      const at = rest.indexOf(name);
      if (at >= 0 && (best === null || at < best.at)) best = { at, name };
    }
    if (!best) break;
    if (best.at) out.append(rest.slice(0, best.at));
    out.append(bdi(best.name, "name"));
    rest = rest.slice(best.at + best.name.length);
  }
  if (rest) out.append(rest);
  return out;
}
