// What the game page shares between its screens: the state of the table it shows,
// the server's options, names of seats, the error box, and the tokens kept in cookies.
import * as api from "./api.js";
import { errorText } from "./codes.js";
import { $, flashError } from "./dom.js";
import { t } from "./i18n.js";

export const S = {
  screen: null,
  code: null,
  token: null,
  seat: null,
  table: null, // {code, seats: [{name, bot, human, taken, connected}], status, host, rematch}
  view: null, // the seat's VIEW as the server sends it (with trick, refusals and reasons)
  toAct: [],
  events: [],
  fresh: new Set(), // rolls to animate: "hand:trick:seat"
  sweep: null, // the trick just won, whose dice fly to the winner: "hand:trick"
  swept: new Set(), // tricks whose dice have flown
  online: false, // the table's socket is open
  conn: null,
  queue: [],
  busy: false,
  sheetOpen: false,
  logOpen: false,
  // GET /api/options: {rules: {name: {values, default}}, bots: [{name}], levels: [{name}], dice: [...]}
  options: { rules: {}, bots: [], levels: [], dice: [] },
};

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export function show(screen) {
  S.screen = screen;
  for (const s of ["home", "lobby", "game", "podium"]) $(`screen-${s}`).hidden = s !== screen;
  $("loading").hidden = true;
  $("sheet").hidden = !(screen === "podium" || (screen === "game" && S.sheetOpen));
}

export function showError(err) {
  flashError(errorText(err));
}

/** Say `text` to screen readers at once (the assertive live region of the game screen). */
let said = [];
export function announce(text) {
  if (!text) return;
  said.push(text);
  if (said.length > 1) return;
  // Gathered for a moment, then put in the cleared region (announced even when it repeats).
  setTimeout(() => {
    const box = $("announce");
    if (box) {
      box.textContent = "";
      box.textContent = said.slice(-4).join(" ");
    }
    said = [];
  }, 60);
}

export function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  setTimeout(() => (box.hidden = true), 2500);
}

/** A bot's seat under the name the server gave it ("Greedy 3"), in the reader's language ("Codicioso 3"). */
export function botSeatName(bot, seat) {
  return t("bot.seat_name", { bot: botShort(bot), n: seat + 1 });
}

export function plainName(seat) {
  const info = S.table?.seats?.[seat];
  // A bot under the name the server gave it ("Greedy 3"): said in the reader's language.
  if (info?.autoName && info.bot) return botSeatName(info.bot, seat);
  const names = S.view?.names || S.table?.seats?.map((s) => s.name) || [];
  return names[seat] || t("lobby.seat_n", { n: seat + 1 });
}

/** A bot's short name in the reader's language ("Greedy"), else its own name capitalised. */
export function botShort(name) {
  const key = `bot.${name}.short`;
  const text = t(key);
  return text === key ? name.charAt(0).toUpperCase() + name.slice(1) : text;
}

/** Whether the host handed this page's seat to a bot (it plays for the person until they take it back). */
export function handedOver() {
  return S.seat !== null && !!S.table?.seats?.[S.seat]?.bot;
}

export function seatName(seat) {
  const name = plainName(seat);
  return seat === S.seat ? t("you_name", { name }) : name;
}

export function isBot(seat) {
  const s = S.table?.seats?.[seat];
  return !!(s && (s.bot || s.standin));
}

export function botLabel(name) {
  const key = `bot.${name}`;
  const text = t(key);
  return text === key ? name : text;
}

// --- tokens -------------------------------------------------------------------------------
// Invite link: /#table=CODE. Personal link: /#table=CODE&token=TOKEN (the fragment
// never reaches a server). The seat token lives in the cookie md_CODE, the host
// token in mdh_CODE (docs/server-protocol.md).

export function readRoute() {
  const frag = new URLSearchParams(location.hash.replace(/^#/, ""));
  const q = new URLSearchParams(location.search);
  const code = frag.get("table") || q.get("table");
  return { code: code ? code.toUpperCase() : null, token: frag.get("token") };
}

export function setCookie(name, value) {
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${60 * 60 * 24 * 30}; SameSite=Strict`;
}

export function getCookie(name) {
  const m = document.cookie.match(new RegExp(`(?:^|; )${name}=([^;]*)`));
  return m ? decodeURIComponent(m[1]) : null;
}

export function saveToken(code, token, seat) {
  if (!token) return;
  setCookie(`md_${code}`, token);
  const mine = JSON.parse(localStorage.getItem("minodice.tables") || "{}");
  mine[code] = { seat, at: Date.now() };
  localStorage.setItem("minodice.tables", JSON.stringify(mine));
}

export function loadToken(code) {
  return getCookie(`md_${code}`);
}

export function inviteLink(code) {
  return new URL(api.invitePath(code), location.origin).href;
}

export function personalLink(code, token) {
  return new URL(api.personalPath(code, token), location.origin).href;
}

// Show the invite link in the address bar (safe to share); the token stays in the cookie.
export function showInviteUrl(code) {
  history.replaceState({}, "", api.invitePath(code));
}

export function amHost() {
  const tb = S.table;
  return !!tb && (!!getCookie(`mdh_${tb.code}`) || (S.seat !== null && S.seat === tb.host));
}

/** The token for host calls: the host cookie, else the seat token. */
export function hostToken() {
  return getCookie(`mdh_${S.code}`) || S.token;
}
