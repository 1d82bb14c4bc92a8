// Client-side mirrors of minodice/rules.py used only to explain things to the
// player (the server is the authority on what is legal and who won).
import { SPECIAL } from "./dice.js";

const NUMBER = (f) => (f === "flag" ? 0 : /^\d$/.test(f) ? Number(f) : -1);
const isSpecialFace = (f) => f === "minotaur" || f === "griffin" || f === "mermaid";
export const BEATS = { minotaur: "griffin", griffin: "mermaid", mermaid: "minotaur" };

export function leadColour(rolls) {
  for (const r of rolls) if (!SPECIAL.has(r.die)) return r.die;
  return null;
}

export function winningFace(faces, rules) {
  const m = faces.includes("minotaur");
  const g = faces.includes("griffin");
  const r = faces.includes("mermaid");
  if (m || g || r) {
    if (m && g && r) return rules.all_specials || "mermaid";
    if (m) return r ? "mermaid" : "minotaur";
    return g ? "griffin" : "mermaid";
  }
  let best = faces[0];
  for (const f of faces) if (NUMBER(f) > NUMBER(best)) best = f;
  return best;
}

export function trickWinner(faces, rules) {
  if (!faces.length) return -1;
  const best = winningFace(faces, rules);
  if (best === "flag" && (rules.all_flags || "first") === "first") return 0;
  return faces.lastIndexOf(best);
}

// Why the winning roll wins: {key, params} for the translation table.
export function explainTrick(faces, rules) {
  const w = trickWinner(faces, rules);
  const best = faces[w];
  const specials = [...new Set(faces.filter(isSpecialFace))];
  const tie = faces.filter((f) => f === best).length > 1;
  let out;
  if (specials.length === 3) out = { key: "why.all_specials", params: { face: best } };
  else if (specials.length === 2) {
    out = { key: "why.beats", params: { face: best, other: specials.find((f) => f !== best) } };
  } else if (specials.length === 1) out = { key: "why.special", params: { face: best } };
  else if (best === "flag") {
    return { key: (rules.all_flags || "first") === "first" ? "why.flags_first" : "why.flags_last", params: {}, tie: false };
  } else out = { key: "why.highest", params: { face: best } };
  out.tie = tie;
  return out;
}

// Why a die in hand may not be rolled now: a translation key, or null if it may.
export function whyNot(die, held, lead) {
  if (lead && !SPECIAL.has(die) && die !== lead && held.includes(lead)) return "must_follow";
  return null;
}
