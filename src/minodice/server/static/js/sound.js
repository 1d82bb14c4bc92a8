// The table's sounds, synthesised with the Web Audio API (no audio files): a dice clatter,
// a cue when it becomes your turn, a chime at the end of a hand and a podium arpeggio; and
// a title cue for a hidden tab. Sound is off until the player turns it on with the header
// button (#sound-btn); the choice is remembered (localStorage "minodice.sound"). Browsers
// allow audio only after a user gesture, so the AudioContext is made on the first one
// with sound on. Every play function is a silent no-op when sound is off, when Web Audio
// is missing, or before the browser lets it play.
import { onLanguage, t } from "./i18n.js";

const STORE = "minodice.sound";
const VOLUME = 0.16; // the master gain: quiet, a table is not a casino

let enabled = false;
let ctx = null; // the AudioContext, made lazily
let master = null;
let noise = null; // one second of white noise, shared by every clatter
const wired = new WeakSet();
let button = null;

function remembered() {
  try {
    return localStorage.getItem(STORE) === "on";
  } catch {
    return false; // storage refused (private mode): sound stays off
  }
}

function remember(on) {
  try {
    localStorage.setItem(STORE, on ? "on" : "off");
  } catch {
    /* storage refused: the choice lasts this page only */
  }
}

// The AudioContext, made (or resumed) now: call from a user gesture. Null without Web Audio.
function unlock() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    try {
      ctx = new Ctx();
      master = ctx.createGain();
      master.gain.value = VOLUME;
      master.connect(ctx.destination);
    } catch {
      ctx = null;
      return null;
    }
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// The context to play on now, or null: sound off, no Web Audio, or not allowed yet.
function live() {
  if (!enabled || !ctx) return null;
  if (ctx.state !== "running") {
    ctx.resume().catch(() => {});
    return null;
  }
  return ctx;
}

// With sound remembered as on, the first click or key press of the page unlocks audio.
function unlockOnGesture() {
  const once = () => {
    document.removeEventListener("pointerdown", once, true);
    document.removeEventListener("keydown", once, true);
    if (enabled) unlock();
  };
  document.addEventListener("pointerdown", once, true);
  document.addEventListener("keydown", once, true);
}

const SPEAKER = `<path d="M3 9 H7 L12 5 V19 L7 15 H3 Z" fill="currentColor"/>`;
const ICON_ON = `${SPEAKER}<path d="M15.5 8.5 Q18 12 15.5 15.5 M18 6 Q22.5 12 18 18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>`;
const ICON_OFF = `${SPEAKER}<path d="M16 9 L22 15 M22 9 L16 15" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>`;

// The button shows a speaker (with waves, or crossed out); its name is "Sound" (sound.toggle,
// from the markup) and aria-pressed says on or off; the tooltip says the state in words.
function render() {
  if (!button) return;
  button.setAttribute("aria-pressed", String(enabled));
  button.setAttribute("aria-label", t("sound.toggle"));
  button.title = t(enabled ? "sound.on" : "sound.off");
  button.innerHTML = `<span class="sound-icon" aria-hidden="true"><svg viewBox="0 0 24 24" focusable="false">${
    enabled ? ICON_ON : ICON_OFF
  }</svg></span>`;
}

/** Turn sound on or off (remembered); turning it on from a click also unlocks audio. */
export function setSound(on) {
  enabled = Boolean(on);
  remember(enabled);
  if (enabled) unlock();
  render();
}

/** Whether sound is on, and the audio context's state (null until it is made): for tests and tools. */
export function soundState() {
  return { on: enabled, context: ctx ? ctx.state : null };
}

/** Wire the header's sound button: start from the remembered choice, toggle on click. Safe to call twice. */
export function initSound(btn) {
  if (!btn) return;
  button = btn;
  enabled = remembered();
  render();
  if (wired.has(btn)) return;
  wired.add(btn);
  btn.addEventListener("click", () => setSound(!enabled));
  onLanguage(render);
  if (enabled) unlockOnGesture();
}

// --- the instruments ----------------------------------------------------------------------------

// A tone with a quick attack and an exponential decay.
function tone(c, { freq, at, dur, type = "sine", gain = 0.4, attack = 0.01 }) {
  const osc = c.createOscillator();
  const env = c.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(gain, at + attack);
  env.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  osc.connect(env).connect(master);
  osc.start(at);
  osc.stop(at + dur + 0.05);
}

// A click of a die on the table: a short burst of band-passed noise and a woody knock.
function knock(c, at, loud) {
  if (!noise) {
    noise = c.createBuffer(1, c.sampleRate, c.sampleRate);
    const data = noise.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  }
  const src = c.createBufferSource();
  src.buffer = noise;
  const band = c.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = 1800 + Math.random() * 2600;
  band.Q.value = 1.4;
  const env = c.createGain();
  const dur = 0.03 + Math.random() * 0.035;
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(0.9 * loud, at + 0.003);
  env.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  src.connect(band).connect(env).connect(master);
  src.start(at, Math.random() * 0.8, dur + 0.02);
  tone(c, { freq: 260 + Math.random() * 220, at, dur: 0.05, type: "triangle", gain: 0.25 * loud, attack: 0.002 });
}

/** A short clatter of a die landing: a few knocks, closer together and softer as it settles. */
export function roll() {
  const c = live();
  if (!c) return;
  let at = c.currentTime + 0.01;
  let gap = 0.085;
  let loud = 1;
  const hits = 4 + Math.floor(Math.random() * 2);
  for (let i = 0; i < hits; i++) {
    knock(c, at, loud);
    at += gap * (0.8 + Math.random() * 0.4);
    gap *= 0.72;
    loud *= 0.7;
  }
}

/** A soft rising two-note cue: it is your turn. */
export function turn() {
  const c = live();
  if (!c) return;
  const at = c.currentTime + 0.01;
  tone(c, { freq: 659.25, at, dur: 0.28, gain: 0.3, attack: 0.02 }); // E5
  tone(c, { freq: 987.77, at: at + 0.14, dur: 0.4, gain: 0.28, attack: 0.02 }); // B5
}

// A bell: a fundamental and two quieter, faster-fading partials.
function bell(c, freq, at, gain) {
  tone(c, { freq, at, dur: 1.4, gain, attack: 0.005 });
  tone(c, { freq: freq * 2.76, at, dur: 0.5, gain: gain * 0.25, attack: 0.005 });
  tone(c, { freq: freq * 5.4, at, dur: 0.2, gain: gain * 0.1, attack: 0.005 });
}

/** A gentle two-bell chime: the hand is over. */
export function handEnd() {
  const c = live();
  if (!c) return;
  const at = c.currentTime + 0.01;
  bell(c, 1046.5, at, 0.22); // C6
  bell(c, 783.99, at + 0.2, 0.2); // G5
}

/** A short major arpeggio ending on a held chord: the game is over. */
export function podium() {
  const c = live();
  if (!c) return;
  const at = c.currentTime + 0.01;
  const notes = [523.25, 659.25, 783.99, 1046.5]; // C5 E5 G5 C6
  notes.forEach((freq, i) => tone(c, { freq, at: at + i * 0.12, dur: 0.35, type: "triangle", gain: 0.22 }));
  for (const freq of notes.slice(1)) {
    tone(c, { freq, at: at + 0.5, dur: 1.3, type: "sine", gain: 0.12, attack: 0.04 });
  }
}

// --- the title cue ------------------------------------------------------------------------------

let cue = null; // the text to show while the tab is hidden, or null
let shown = null; // the title we set, to know it is still ours
let before = ""; // the title it replaced

function showCue() {
  if (cue && document.hidden) {
    if (shown === null || document.title !== shown) before = document.title;
    shown = `● ${cue} — ${before}`;
    document.title = shown;
  } else if (shown !== null) {
    if (document.title === shown) document.title = before; // unless someone retitled the page meanwhile
    shown = null;
  }
}

/** While `on` and the tab is hidden, prefix the page's title with "● text"; restored when
 * the tab is seen again or when called with `on` false. */
export function titleCue(on, text = "") {
  cue = on && text ? String(text) : null;
  showCue();
}

document.addEventListener("visibilitychange", showCue);
