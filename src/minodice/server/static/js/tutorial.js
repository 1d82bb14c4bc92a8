// The tutorial: a real game (POST /api/tutorial: you and three medium bots, the tutorial's public seed)
// and a coach (#coach) that walks through its first hands. The coach holds no rule: it says what the
// server sends — your dice, the bids, each trick's lead colour and the engine's reason for its winner
// (codes.js puts them into words), the refusals of dice you may not roll, the bonuses, the hand's
// scores — and the points of GET /api/rules. It waits for a "Next" where there is reading, and
// otherwise moves on with the game's events. Its progress is kept per tab (sessionStorage).
import * as api from "./api.js";
import { nameNode } from "./bidi.js";
import { reasonText } from "./codes.js";
import { dieName, faceName } from "./dice.js";
import { $, afterChildren, el } from "./dom.js";
import { onLanguage, t } from "./i18n.js";
import { onPlayNow } from "./lobby.js";
import { enterTable } from "./net.js";
import { rulesFacts, scoreParams } from "./rules.js";
import { S, saveToken, setCookie, showError } from "./state.js";

const STORE = "minodice.tutorial";
const SPECIAL_WIN = new Set(["special_beats_numbers", "special_beats_special", "three_specials"]);
const CYCLE_WIN = new Set(["special_beats_special", "three_specials"]);

let tut = null; // {code, hands, done: [step ids], shown: step id, refusal: the first {code, params} refusing a die}
let facts = null;

function load() {
  try {
    tut = JSON.parse(sessionStorage.getItem(STORE) || "null");
  } catch {
    tut = null;
  }
}

function save() {
  sessionStorage.setItem(STORE, JSON.stringify(tut));
}

/** Start the tutorial: a tutorial table under the name typed on the home page (else a default). */
export async function startTutorial() {
  const name = ($("create-name")?.value || "").trim() || t("play.default_name");
  for (const b of document.querySelectorAll("[data-tutorial]")) b.disabled = true;
  try {
    const res = await fetch("/api/tutorial", {
      method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify({ name }),
    });
    const body = await res.json();
    if (!res.ok) throw Object.assign(new Error("tutorial"), { status: res.status, ...(body?.detail || {}) });
    const code = body.table.code;
    saveToken(code, body.token, body.seat);
    setCookie(`mdh_${code}`, body.host_token);
    tut = { code, hands: body.hands, done: [], shown: null };
    save();
    history.pushState({}, "", api.invitePath(code));
    await enterTable(code, body.token);
  } catch (err) {
    showError(err);
  } finally {
    for (const b of document.querySelectorAll("[data-tutorial]")) b.disabled = false;
  }
}

// --- what the game says so far ------------------------------------------------------------------

// The events of the game, read as lessons: the hands scored, the finished tricks (with the engine's
// lead, reason and bonus reason), the bids revealed and my own bid of this hand.
function story() {
  const out = { hand: 0, myBid: null, revealed: null, tricks: [], scored: [], over: false };
  let rolls = [];
  for (const ev of S.events) {
    if (ev.type === "drawn") Object.assign(out, { hand: ev.hand, myBid: null, revealed: null });
    else if (ev.type === "bid_placed" && ev.seat === S.seat && ev.bid !== null) out.myBid = ev.bid;
    else if (ev.type === "bids_revealed") out.revealed = ev.bids;
    else if (ev.type === "rolled") rolls.push(ev);
    else if (ev.type === "trick_won") {
      out.tricks.push({ ...ev, hand: out.hand, rolls });
      rolls = [];
    } else if (ev.type === "hand_scored") out.scored.push(ev);
    else if (ev.type === "game_over") out.over = true;
  }
  return out;
}

const lastTrick = (s, pred) => [...s.tricks].reverse().find(pred) || null;
const myTurnToRoll = () => Array.isArray(S.view?.legal) && typeof S.view.legal[0] === "string";
const refusal = () => Object.values(S.view?.refusals || {})[0] || null;

// --- the steps -------------------------------------------------------------------------------------
// Each: `ready(s)` (it can be said now), `next` (the player reads, then presses Next) or `until(s)` (it
// goes by itself when the game moves on), `body(s)` (its words, as nodes), `extra` (an opportunistic
// lesson: said when the game shows it, or summed up at the end if it never does).

const frag = (...parts) => parts.map((p) => (typeof p === "string" ? el("p", { text: p }) : el("p", {}, p)));

const STEPS = [
  { id: "welcome", next: true, ready: () => true,
    body: () => frag(t("tutorial.welcome", { hands: tut.hands }), t("tutorial.welcome2")) },
  { id: "dice", next: true, ready: (s) => (S.view?.dice || []).length > 0 || s.tricks.length > 0,
    body: () => {
      const dice = S.view?.dice || [];
      const first = dice.length ? [t("tutorial.dice", { n: dice.length, dice: dice.map(dieName).join(", ") })] : [];
      return frag(...first, t("tutorial.dice2"));
    } },
  { id: "bid", ready: (s) => s.hand >= 1, until: (s) => s.myBid !== null || s.revealed !== null || s.scored.length > 0,
    body: (s) => frag(t("tutorial.bid", { max: s.hand }), t("tutorial.bid2")) },
  { id: "revealed", next: true, ready: (s) => s.revealed !== null || s.scored.length > 0,
    body: (s) => {
      const bids = s.revealed || s.scored[0].bids;
      const list = el("ul", {}, bids.map((b, i) => el("li", {}, nameNode(i), `: ${b}`)));
      return [...frag(t("tutorial.revealed")), list, ...frag(t("tutorial.revealed2"))];
    } },
  { id: "lead", next: true, ready: (s) => !!(S.view?.trick?.lead || lastTrick(s, (tr) => tr.lead)),
    body: (s) => {
      const lead = S.view?.trick?.lead || lastTrick(s, (tr) => tr.lead).lead;
      return frag(t("tutorial.lead", { colour: dieName(lead) }), t("tutorial.lead2"));
    } },
  { id: "trick", next: true, ready: (s) => s.tricks.length > 0,
    body: (s) => {
      const tr = s.tricks[s.tricks.length - 1];
      return frag(tnName("tutorial.trick", tr.seat, { why: reasonText(tr.reason) }), t("tutorial.trick2"));
    } },
  { id: "score", next: true, ready: (s) => s.scored.length > 0, body: (s) => scoreBody(s.scored[0]) },
  // Said at the refusal, or later if a lesson is being read then: its words fit both (no "were greyed out").
  { id: "follow", extra: true, next: true, ready: () => !!tut.refusal,
    body: () => frag(t("tutorial.follow", { why: reasonText(tut.refusal) }), t("tutorial.follow2")) },
  { id: "special", extra: true, next: true, ready: (s) => !!lastTrick(s, (tr) => SPECIAL_WIN.has(tr.reason?.code)),
    body: (s) => {
      const tr = lastTrick(s, (x) => SPECIAL_WIN.has(x.reason?.code));
      return frag(tnName("tutorial.special", tr.seat, { why: reasonText(tr.reason) }), t("tutorial.special2"));
    } },
  { id: "cycle", extra: true, next: true, ready: (s) => !!lastTrick(s, (tr) => CYCLE_WIN.has(tr.reason?.code)),
    body: (s) => {
      const tr = lastTrick(s, (x) => CYCLE_WIN.has(x.reason?.code));
      return [...frag(tnName("tutorial.cycle", tr.seat, { why: reasonText(tr.reason) })), cycleList()];
    } },
  { id: "bonus", extra: true, next: true, ready: (s) => !!lastTrick(s, (tr) => tr.bonus_why),
    body: (s) => {
      const tr = lastTrick(s, (x) => x.bonus_why);
      return frag(tnName("tutorial.bonus", tr.seat, { why: reasonText(tr.bonus_why) }), bonusText());
    } },
  { id: "end", ready: (s) => s.scored.length >= tut.hands || s.over, body: (s) => endBody(s) },
];

function tnName(key, seat, params) {
  // A sentence with a seat's name isolated (bidi.js): the name stands for {name}.
  const text = t(key, { ...params, name: "\u0001" });
  const [before, after = ""] = text.split("\u0001");
  return el("span", {}, before, nameNode(seat), after);
}

function cycleList() {
  if (!facts) return el("ul");
  return el("ul", {}, Object.entries(facts.beats).map(([f, b]) => el("li", { text: t("rules.beats", { face: faceName(f), beaten: faceName(b) }) })));
}

function bonusText() {
  return facts ? t("tutorial.bonus_rule", scoreParams(facts)) : "";
}

function scoreBody(hs) {
  const me = S.seat ?? 0;
  const made = Array.isArray(hs.made) ? hs.made[me] : null;
  const key = made === null ? "tutorial.score" : made ? "tutorial.score_made" : "tutorial.score_missed";
  const parts = frag(t(key, { hand: hs.hand, bid: hs.bids[me], won: hs.won[me], points: hs.scores[me] }));
  if (facts) parts.push(...frag(t("tutorial.score_rule", scoreParams(facts))));
  return parts;
}

function endBody() {
  const missed = STEPS.filter((st) => st.extra && !tut.done.includes(st.id)).map((st) => st.id);
  const parts = frag(t("tutorial.end"));
  if (missed.includes("special") || missed.includes("cycle")) parts.push(...frag(t("tutorial.special2")), cycleList());
  if (missed.includes("bonus")) parts.push(...frag(bonusText()));
  if (missed.includes("follow")) parts.push(...frag(t("tutorial.lead2")));
  const play = el("button", { type: "button", class: "primary", "data-coach": "play", text: t("play.now"), onclick: finishAndPlay });
  const stay = el("button", { type: "button", "data-coach": "stay", text: t("tutorial.keep_playing"), onclick: finish });
  const rules = el("a", { class: "button", href: "/rules.html", text: t("rules.link") });
  parts.push(el("div", { class: "actions" }, play, stay, rules));
  return parts;
}

// --- the coach ----------------------------------------------------------------------------------

// The step to say now: the first not done whose turn has come (an extra waits for the core lesson
// before it and for the game to show it); null while the game must go on first.
function current(s) {
  // A lesson on screen stays until its Next is pressed (another one made ready meanwhile waits).
  const shown = STEPS.find((st) => st.id === tut.shown && st.next && !tut.done.includes(st.id));
  if (shown && shown.ready(s)) return shown;
  for (const st of STEPS) {
    if (tut.done.includes(st.id)) continue;
    if (st.id === "end") return st.ready(s) ? st : null;
    if (st.extra) {
      if (st.ready(s)) return st;
      continue;
    }
    if (st.until && st.ready(s) && st.until(s)) {
      tut.done.push(st.id);
      save();
      continue;
    }
    return st.ready(s) ? st : null;
  }
  return null;
}

function active() {
  return !!tut && !!S.code && S.code === tut.code && (S.screen === "game" || S.screen === "podium");
}

// Where the coach sits. From 1000 px wide: at the top of the column beside the game (#side). Narrower:
// in the game's own column, between its head line (hand, turn) and the felt, which gives up its empty
// middle (css/tutorial.css), so the coach covers no seat, nor the trick, nor your dice or bid pad; on
// the podium, above it.
const NARROW = window.matchMedia("(max-width: 999.98px)");

function place(box) {
  let parent = $("side");
  let before = parent.firstElementChild;
  if (NARROW.matches && S.screen === "game") [parent, before] = [$("screen-game"), $("felt")];
  else if (NARROW.matches && S.screen === "podium") [parent, before] = [$("screen-podium"), $("screen-podium").firstElementChild];
  if (box.parentElement === parent && (box === before || box.nextElementSibling === before)) return;
  const focused = box.contains(document.activeElement) ? document.activeElement : null;
  parent.insertBefore(box, before);
  focused?.focus({ preventScroll: true }); // moving a node drops its focus: keep it
}

// In the game's column the coach has the room the game leaves, no more: the lesson's words scroll
// inside it (a tab stop then); with less than two lines of room (a full trick on a phone) it is one line
// — the lesson's number, "Show the lesson" and Next — its words still read out by a screen reader. "Show
// the lesson" gives it its whole height, the game moving down (the page scrolls; nothing is covered) until
// "Show the table" or the next lesson.
function fit() {
  const box = $("coach");
  const text = $("coach-text");
  const toggle = $("coach-toggle");
  const inGame = !box.hidden && box.parentElement === $("screen-game");
  if (!inGame) box.classList.remove("squeezed", "open");
  const open = box.classList.contains("open");
  if (inGame && !open) {
    const wasSqueezed = box.classList.contains("squeezed");
    box.classList.remove("squeezed");
    const line = parseFloat(getComputedStyle(text).fontSize) * 1.45;
    const squeeze = text.clientHeight < 2 * line;
    box.classList.toggle("squeezed", squeeze);
    if (wasSqueezed !== squeeze && box.contains(document.activeElement) && document.activeElement.offsetParent === null) $("coach-h").focus();
  }
  const squeezed = box.classList.contains("squeezed");
  const clipped = !squeezed && text.scrollHeight > text.clientHeight + 1;
  toggle.hidden = !inGame || !(open || squeezed || clipped);
  toggle.setAttribute("aria-expanded", String(open));
  toggle.textContent = t(open ? "tutorial.less" : "tutorial.more");
  if (clipped) text.tabIndex = 0;
  else text.removeAttribute("tabindex");
}

function toggleOpen() {
  $("coach").classList.toggle("open");
  fit();
}

let drawn = "";
function render(force = false) {
  const box = $("coach");
  if (!box) return;
  if (!active()) {
    box.hidden = true;
    drawn = "";
    return;
  }
  place(box);
  if (!tut.refusal && myTurnToRoll() && refusal()) {
    tut.refusal = refusal(); // the engine's first refusal of one of your dice: said when its turn comes
    save();
  }
  const s = story();
  const st = current(s);
  const id = st ? st.id : "wait";
  const key = `${id}:${S.events.length}:${myTurnToRoll()}`;
  if (!force && box.dataset.step === id && (st?.next || id === "wait" || id === "end" || drawn === key)) {
    fit();
    return;
  }
  drawn = key;
  const stepNo = st ? STEPS.indexOf(st) + 1 : null;
  const body = st ? st.body(s) : frag(t("tutorial.wait"));
  const actions = el("div", { class: "actions coach-actions" });
  if (st?.next) actions.append(el("button", { type: "button", class: "primary", "data-coach": "next", text: t("tutorial.next"), onclick: () => advance(st.id) }));
  actions.append(el("button", { type: "button", class: "ghost", "data-coach": "skip", text: t("tutorial.skip"), onclick: finish }));
  if (box.dataset.step !== id) box.classList.remove("open"); // a new lesson: in the room the game leaves
  box.dataset.step = id;
  box.hidden = false;
  $("coach-progress").textContent = stepNo ? t("tutorial.progress", { n: stepNo, total: STEPS.length }) : "";
  $("coach-text").replaceChildren(...body);
  $("coach-actions").replaceChildren(...(id === "end" ? [] : [actions]));
  tut.shown = id;
  save();
  fit();
}

let focusNext = false;
function advance(id) {
  if (!tut.done.includes(id)) tut.done.push(id);
  save();
  focusNext = true;
  render(true);
  // The player pressed Next: focus goes to what the coach says now (its first button, else its heading).
  if (focusNext) {
    focusNext = false;
    const target = $("coach").querySelector("[data-coach=next], [data-coach=play]") || $("coach-h");
    target?.focus();
  }
}

function finish() {
  tut = null;
  sessionStorage.removeItem(STORE);
  render(true);
}

function finishAndPlay() {
  finish();
  onPlayNow();
}

/** The coach's box in #side, its events, and the watch on the game (every quarter second). */
export function initTutorial() {
  load();
  const box = $("coach");
  if (!box) return;
  const head = el("div", { class: "panel-head" },
    el("h2", { id: "coach-h", tabindex: "-1", text: t("tutorial.title") }),
    el("p", { id: "coach-progress", class: "coach-progress" }),
    el("button", { type: "button", id: "coach-toggle", class: "small coach-toggle", "aria-controls": "coach-text", "aria-expanded": "false", hidden: true, onclick: toggleOpen }));
  const body = el("div", { id: "coach-body", class: "coach-body" },
    el("div", { id: "coach-text", class: "coach-text", "aria-live": "polite" }),
    el("div", { id: "coach-actions" }));
  box.replaceChildren(head, body);
  rulesFacts().then((f) => {
    facts = f;
    render(true);
  }).catch(() => {});
  onLanguage(() => {
    $("coach-h").textContent = t("tutorial.title");
    render(true);
  });
  for (const b of document.querySelectorAll("[data-tutorial]")) b.addEventListener("click", startTutorial);
  // Every change of your dice (table.js draws them anew for each view), and every quarter second.
  afterChildren($("my-dice"), () => render());
  NARROW.addEventListener("change", () => render(true));
  setInterval(() => render(), 250);
}
