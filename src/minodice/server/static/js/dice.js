// Dice drawn as SVG: a rounded die seen slightly from above (its top face in the die's
// colour, a darker front side, a soft shadow), showing the rolled face as a big number or
// a symbol (minotaur, griffin, mermaid, flag). Number dice are told apart by colour, by a
// pattern and by a letter (from the translation files), never by colour alone. What each
// die is — its faces, whether it is special — comes from the server's dice table
// (GET /api/options, given to setDiceTable at start): this file only draws and names.
// Its look and motion (rolling, winning, sweep) are in css/dice.css.
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

/** True unless the player asked for less motion (the OS setting, or class reduce-motion on <html>). */
export function motionAllowed() {
  if (document.documentElement.classList.contains("reduce-motion")) return false;
  return !window.matchMedia?.("(prefers-reduced-motion: reduce)")?.matches;
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

// A pattern per die over its top face (tile 20×20), so that no die is told by colour alone.
const PATTERN = {
  red: `<path d="M-5 5 L5 -5 M0 20 L20 0 M15 25 L25 15" stroke="#000" stroke-opacity=".2" stroke-width="3.5"/>`, // stripes
  yellow: `<circle cx="5" cy="5" r="2.6" fill="#000" fill-opacity=".17"/><circle cx="15" cy="15" r="2.6" fill="#000" fill-opacity=".17"/>`, // dots
  purple: `<path d="M0 10 H20 M10 0 V20" stroke="#fff" stroke-opacity=".2" stroke-width="2.5"/>`, // grid
  gray: `<path d="M0 5 H20 M0 15 H20" stroke="#000" stroke-opacity=".16" stroke-width="3"/>`, // lines
  minotaur: `<path d="M0 14 L10 6 L20 14" stroke="#fff" stroke-opacity=".18" stroke-width="2.5" fill="none"/>`, // chevrons
  griffin: `<path d="M0 10 L5 5 L10 10 L15 5 L20 10" stroke="#fff" stroke-opacity=".2" stroke-width="2" fill="none"/>`, // zigzag
  mermaid: `<path d="M0 12 Q5 6 10 12 T20 12" stroke="#fff" stroke-opacity=".22" stroke-width="2.2" fill="none"/>`, // waves
};

// The symbols, each drawn in a 100×100 box and filled with the die's ink (class "ink"); the
// "hole" parts are painted in the die's colour.
const SYMBOL = {
  // A bull's head, front view: wide horns, ears, a long face, nostrils.
  minotaur: `<path class="ink" d="M50 30 C58 30 63 32 67 36 C74 31 83 26 87 10 C92 28 84 40 71 44 L85 45
      C87 51 80 55 70 55 C68 64 66 70 66 76 C71 80 71 93 58 93 L42 93 C29 93 29 80 34 76 C34 70 32 64 30 55
      C20 55 13 51 15 45 L29 44 C16 40 8 28 13 10 C17 26 26 31 33 36 C37 32 42 30 50 30 Z"/>
    <circle class="hole" cx="41" cy="57" r="4.5"/><circle class="hole" cx="59" cy="57" r="4.5"/>
    <ellipse class="hole" cx="44" cy="84" rx="3.2" ry="4"/><ellipse class="hole" cx="56" cy="84" rx="3.2" ry="4"/>`,
  // An eagle's head in profile: an ear tuft, a hooked beak, a fierce brow, a feathered neck.
  griffin: `<path class="ink" d="M62 27 L86 12 L77 36 Z"/>
    <path class="ink" d="M36 32 C26 34 16 42 12 58 C17 54 24 53 30 56 C33 58 37 59 42 58 C40 68 44 80 38 94
      L82 94 L72 84 L88 80 L74 72 L92 64 L76 58 L94 48 L77 45 C76 29 62 20 47 24 C42 26 39 28 36 32 Z"/>
    <path class="hole-line" d="M37 33 C35 43 38 52 42 58"/>
    <circle class="hole" cx="52" cy="42" r="5.5"/><circle class="ink" cx="53.5" cy="42" r="2.4"/>
    <path class="hole-line" d="M42 35 L62 39"/>`,
  // A mermaid: flowing hair, a raised arm, a tail curling to one side into a wide fin.
  mermaid: `<path class="ink" d="M51 9 C41 9 36 17 37 27 C38 36 33 43 27 49 C37 50 45 45 47 36 Z"/>
    <path class="ink" d="M61 33 C67 30 71 25 73 17 C74 14 78 15 78 18 C77 27 72 35 64 40 Z"/>
    <path class="ink" d="M47 28 L57 28 C62 30 64 34 63 40 C62 46 59 50 59 56 C62 64 63 72 59 78
      C63 82 68 81 72 79 L90 65 C87 73 85 78 84 82 C87 86 90 91 92 97 L71 87 C64 90 52 93 46 86
      C40 79 42 67 43 58 C43 50 40 46 39 40 C38 34 42 30 47 28 Z"/>
    <circle class="ink" cx="52" cy="19" r="9.5"/>
    <path class="hole-line" d="M44 58 Q51 61 58 58 M46 68 Q51 71 56 68 M49 78 Q53 80 57 77"/>`,
  // A flag: a swallow-tailed pennant on a pole.
  flag: `<circle class="ink" cx="28" cy="10" r="6"/>
    <rect class="ink" x="24.5" y="12" width="7" height="82" rx="3.5"/>
    <path class="ink" d="M31 18 C46 13 58 25 82 20 L66 36 L84 52 C60 57 48 44 31 50 Z"/>`,
};

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A die's name in the page's language ("Red"). */
export function dieName(die) {
  return t(`die.${die}`);
}

/** A face's name in the page's language ("7", "flag"). */
export function faceName(face) {
  return t(`face.${face}`);
}

let uid = 0;

// The middle of the top face: the rolled number or symbol, or (in hand) the die's range.
function faceArt(die, face) {
  const symbol = (name) => `<g class="sym" transform="translate(19 12) scale(.62)">${SYMBOL[name] || ""}</g>`;
  if (face === null) {
    return dieInfo(die)?.special
      ? symbol(die)
      : `<text x="50" y="53" class="range" text-anchor="middle">${esc(rangeLabel(die))}</text>`;
  }
  if (face in SYMBOL) return symbol(face);
  return `<text x="51.5" y="65" class="num-shade" text-anchor="middle" aria-hidden="true">${esc(face)}</text>
  <text x="50" y="63" class="num" text-anchor="middle">${esc(face)}</text>`;
}

/** An SVG die (markup): face, a face name to show it rolled, or null to show it in hand (its faces);
 * label overrides its accessible name (by default the die, and the face it shows). */
export function dieSVG(die, face = null, { label = null } = {}) {
  const id = `d${++uid}`;
  const letter = t(`die.${die}.letter`);
  const title = label ?? (face === null ? dieName(die) : t("die_shows", { die: dieName(die), face: faceName(face) }));
  const top = `x="5" y="3" width="90" height="82" rx="17"`;
  return `<svg class="die die-${esc(die)}${face ? ` face-${esc(face)}` : ""}" viewBox="0 0 100 100" role="img" aria-label="${esc(title)}">
  <title>${esc(title)}</title>
  <defs>
    <pattern id="${id}p" width="20" height="20" patternUnits="userSpaceOnUse">${PATTERN[die] || ""}</pattern>
    <linearGradient id="${id}g" x1="0" y1="0" x2=".7" y2="1">
      <stop offset="0" stop-color="#fff" stop-opacity=".42"/><stop offset=".45" stop-color="#fff" stop-opacity="0"/>
      <stop offset="1" stop-color="#000" stop-opacity=".2"/>
    </linearGradient>
    <radialGradient id="${id}s"><stop offset=".55" stop-color="#000" stop-opacity=".4"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>
  </defs>
  <ellipse class="shadow" cx="52" cy="93" rx="48" ry="7" fill="url(#${id}s)"/>
  <rect class="side" x="5" y="9" width="90" height="85" rx="17"/>
  <rect class="body" ${top}/>
  <rect class="pattern" ${top} fill="url(#${id}p)"/>
  <rect class="light" ${top} fill="url(#${id}g)"/>
  <rect class="bevel" x="7" y="5" width="86" height="78" rx="15"/>
  ${faceArt(die, face)}
  <circle class="badge" cx="19.5" cy="17.5" r="10"/>
  <text x="19.5" y="22.5" class="letter" text-anchor="middle">${esc(letter)}</text>
</svg>`;
}

/** A die not rolled yet in this trick: an empty dashed place, named by label. */
export function blankDieSVG(label) {
  return `<svg class="die die-blank" viewBox="0 0 100 100" role="img" aria-label="${esc(label)}">
  <title>${esc(label)}</title>
  <rect x="6" y="4" width="88" height="88" rx="17" fill="none" stroke="currentColor" stroke-width="4" stroke-dasharray="10 8"/>
  <text x="50" y="64" class="num" text-anchor="middle">?</text>
</svg>`;
}
