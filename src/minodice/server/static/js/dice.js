// Dice drawn as SVG. Number dice are told apart by colour, by a pattern and by a
// letter (from the translation files), never by colour alone. What each die is — its
// faces, whether it is special — comes from the server's dice table (GET /api/options,
// given to setDiceTable at start): this file only draws and names.
import { t } from "./i18n.js";

let table = new Map(); // die name → {die, faces, special, bag}

/** Use the server's dice table: [{die, faces, special, bag}, ...] in table order. */
export function setDiceTable(dice) {
  table = new Map((dice || []).map((d) => [d.die, d]));
}

/** The served entry of a die: {die, faces, special, bag} (undefined before the table is loaded). */
export function dieInfo(die) {
  return table.get(die);
}

// What a die in the hand shows before it is rolled: its numbers as a range ("5–7") when
// they follow each other, else each face ("⚑·1·7"; a flag drawn as ⚑).
function rangeLabel(die) {
  const faces = [...new Set(dieInfo(die)?.faces || [])];
  const nums = faces.map(Number);
  const run = faces.length > 1 && nums.every((n, i) => Number.isInteger(n) && (i === 0 || n === nums[i - 1] + 1));
  if (run) return `${nums[0]}–${nums[nums.length - 1]}`;
  return faces.map((f) => (/^\d+$/.test(f) ? f : "⚑")).join("·");
}

const PATTERN = {
  // diagonal stripes
  red: `<path d="M-10 10 L10 -10 M0 40 L40 0 M30 50 L50 30" stroke="#000" stroke-opacity=".28" stroke-width="7"/>`,
  // dots
  yellow: `<circle cx="10" cy="10" r="5" fill="#000" fill-opacity=".22"/><circle cx="30" cy="30" r="5" fill="#000" fill-opacity=".22"/>`,
  // cross-hatch
  purple: `<path d="M0 20 H40 M20 0 V40" stroke="#fff" stroke-opacity=".35" stroke-width="5"/>`,
  // horizontal lines
  gray: `<path d="M0 8 H40 M0 28 H40" stroke="#000" stroke-opacity=".25" stroke-width="5"/>`,
  minotaur: `<path d="M0 40 L20 20 L40 40" stroke="#fff" stroke-opacity=".25" stroke-width="5" fill="none"/>`,
  griffin: `<path d="M0 20 Q10 5 20 20 T40 20" stroke="#fff" stroke-opacity=".3" stroke-width="4" fill="none"/>`,
  mermaid: `<path d="M0 30 Q10 15 20 30 T40 30" stroke="#fff" stroke-opacity=".3" stroke-width="4" fill="none"/>`,
};

const SYMBOL = {
  minotaur: `<path d="M26 38 Q18 20 32 14 Q28 28 40 36 L60 36 Q72 28 68 14 Q82 20 74 38 Q70 46 62 47 L62 66 Q50 80 38 66 L38 47 Q30 46 26 38 Z" fill="currentColor"/>
    <circle cx="44" cy="52" r="3" fill="#fff"/><circle cx="56" cy="52" r="3" fill="#fff"/>`,
  griffin: `<path d="M22 72 Q24 34 76 24 Q66 34 72 36 Q58 44 66 48 Q52 54 58 58 Q44 62 48 66 Q36 70 22 72 Z" fill="currentColor"/>`,
  mermaid: `<path d="M50 18 Q42 40 50 56 Q38 60 26 76 Q42 72 50 64 Q58 72 74 76 Q62 60 50 56 Q58 40 50 18 Z" fill="currentColor"/>`,
  flag: `<path d="M34 20 V82" stroke="currentColor" stroke-width="6" stroke-linecap="round"/>
    <path d="M37 22 L74 34 L37 48 Z" fill="currentColor"/>`,
};

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function dieName(die) {
  return t(`die.${die}`);
}

export function faceName(face) {
  return t(`face.${face}`);
}

let uid = 0;

// An SVG die. face: a face name to show it rolled, or null to show the die in hand.
export function dieSVG(die, face = null, { label = null } = {}) {
  const id = `p${++uid}`;
  const letter = t(`die.${die}.letter`);
  let middle;
  if (face === null) {
    middle = dieInfo(die)?.special
      ? `<g class="sym">${SYMBOL[die] || ""}</g>`
      : `<text x="50" y="60" class="range" text-anchor="middle">${esc(rangeLabel(die))}</text>`;
  } else if (face in SYMBOL) {
    middle = `<g class="sym">${SYMBOL[face]}</g>`;
  } else {
    middle = `<text x="50" y="70" class="num" text-anchor="middle">${esc(face)}</text>`;
  }
  const title = label ?? (face === null ? dieName(die) : t("die_shows", { die: dieName(die), face: faceName(face) }));
  return `<svg class="die die-${die}${face ? ` face-${face}` : ""}" viewBox="0 0 100 100" role="img" aria-label="${esc(title)}">
  <title>${esc(title)}</title>
  <defs><pattern id="${id}" width="40" height="40" patternUnits="userSpaceOnUse">${PATTERN[die]}</pattern></defs>
  <rect class="body" x="3" y="3" width="94" height="94" rx="18"/>
  <rect x="3" y="3" width="94" height="94" rx="18" fill="url(#${id})"/>
  <rect class="window" x="18" y="18" width="64" height="64" rx="12"/>
  ${middle}
  <text x="12" y="17" class="letter">${esc(letter)}</text>
</svg>`;
}

// A die not rolled yet in this trick: an empty dashed place.
export function blankDieSVG(label) {
  return `<svg class="die die-blank" viewBox="0 0 100 100" role="img" aria-label="${esc(label)}">
  <title>${esc(label)}</title>
  <rect x="5" y="5" width="90" height="90" rx="18" fill="none" stroke="currentColor" stroke-width="4" stroke-dasharray="10 8"/>
  <text x="50" y="66" class="num" text-anchor="middle">?</text>
</svg>`;
}
