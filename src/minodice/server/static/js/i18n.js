// Translations: every user-visible string comes from static/i18n/<lang>.json.
// Markup carries keys only: data-i18n="key" (text), data-i18n-attr="attr:key;attr:key".

export const LANGUAGES = ["en", "es", "fr", "de"];
const STORE = "minodice.lang";

let lang = "en";
let table = {};
let fallback = {};
const listeners = new Set();

async function load(code) {
  const res = await fetch(new URL(`../i18n/${code}.json`, import.meta.url));
  if (!res.ok) throw new Error(`i18n ${code}: ${res.status}`);
  return res.json();
}

export function pickLanguage() {
  const url = new URLSearchParams(location.search).get("lang");
  if (url && LANGUAGES.includes(url)) return url;
  const saved = localStorage.getItem(STORE);
  if (saved && LANGUAGES.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export async function setLanguage(code, { remember = false } = {}) {
  if (!LANGUAGES.includes(code)) code = "en";
  if (!Object.keys(fallback).length) fallback = await load("en");
  table = code === "en" ? fallback : await load(code);
  lang = code;
  if (remember) localStorage.setItem(STORE, code);
  document.documentElement.lang = code;
  translateTree(document);
  for (const fn of listeners) fn(code);
}

export function currentLanguage() {
  return lang;
}

export function onLanguage(fn) {
  listeners.add(fn);
}

// A number as the page's language writes it (a decimal comma in German, French and Spanish), with
// `digits` decimals, with its sign when `signed` ("+7.4"); "—" for what is not a number.
export function formatNumber(x, digits = 1, signed = false) {
  if (typeof x !== "number" || !Number.isFinite(x)) return "—";
  try {
    return new Intl.NumberFormat(lang, {
      minimumFractionDigits: digits, maximumFractionDigits: digits, signDisplay: signed ? "exceptZero" : "auto",
    }).format(x);
  } catch {
    return `${signed && x > 0 ? "+" : ""}${x.toFixed(digits)}`;
  }
}

const plurals = {};
function pluralRule(n) {
  plurals[lang] ??= new Intl.PluralRules(lang);
  return plurals[lang].select(n);
}

// t(KEY, {name: "Ana"}); a key whose value is an object is a plural: {one, other}
// chosen by params.n.
export function t(key, params = {}) {
  let s = table[key] ?? fallback[key];
  if (s === undefined) return key;
  if (typeof s === "object") {
    s = s[pluralRule(Number(params.n ?? 0))] ?? s.other;
  }
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

export function has(key) {
  return key in table || key in fallback;
}

export function translateTree(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((x) => x.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}

// A list of names in the language's own way: "Ana, Bo and Cy".
export function nameList(names) {
  try {
    return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(names);
  } catch {
    return names.join(", ");
  }
}

/** A moment (ISO text) as the reader's language writes a date and time ("8 Dec 2026, 01:04"). */
export function formatDate(iso) {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return t("home.date_unknown");
  try {
    return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium", timeStyle: "short" }).format(d);
  } catch {
    return d.toLocaleString();
  }
}
