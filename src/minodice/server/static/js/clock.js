// The move clocks (the server's clocks.py). A table's host chooses one when creating it: off,
// relaxed, normal or fast. Each decision of a person then has some seconds free, then their
// seat's bank runs (it lasts the whole game); when both are gone the table's level bot makes
// that one decision and the person plays on. Every TABLE the server sends carries each
// person's bank and the seconds before that bot decides (api.normalizeTable: bank, clockAt);
// this page shows them, counting down between frames: a badge on the seat whose clock runs,
// this page's own clock in the head of the game, and the table's clock in its lobby. Nothing
// here decides when a clock runs out: the server does, and says so (out_of_time).
import { $, afterChildren, el } from "./dom.js";
import { t } from "./i18n.js";
import { S, announce } from "./state.js";

/** Seconds as a clock shows them: "0:07", "1:30". */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

const levelName = (level) => (level ? t(`level.${level}`) : "");

/** A clock speed in words for the create form: "Normal: 0:30 a move + 1:30 bank" ("Off" for none). */
export function clockLabel(c) {
  if (!c || c.speed === "off" || c.move === null || c.move === undefined) return t("clock.off");
  return t("clock.option", { speed: t(`clock.${c.speed}`), move: clockText(c.move), bank: clockText(c.bank) });
}

/** The move clocks offered on the create form (GET /api/options `clocks`); "normal" at first. */
export function renderClockChoice() {
  const sel = $("create-clock");
  if (!sel) return;
  const clocks = S.options.clocks || [];
  const old = sel.value;
  sel.textContent = "";
  for (const c of clocks) sel.append(el("option", { value: c.speed, text: clockLabel(c) }));
  const speeds = clocks.map((c) => c.speed);
  sel.value = speeds.includes(old) ? old : speeds.includes("normal") ? "normal" : speeds[0] || "";
  const field = $("create-clock-field");
  if (field) field.hidden = clocks.length === 0;
}

// Where a seat's clock stands now: the free seconds of its decision left, and its bank.
function standing(seat, clock, now) {
  if (typeof seat.clockAt !== "number") return null;
  const left = Math.max(0, (seat.clockAt - now) / 1000);
  const bank = Math.min(typeof seat.bank === "number" ? seat.bank : clock.bank, left);
  return { left, free: Math.min(clock.move, Math.max(0, left - bank)), bank };
}

// What this seat's decision is, to say "10 seconds left" once per decision.
function decisionKey() {
  const v = S.view;
  if (!v || S.seat === null) return null;
  const rolls = v.tricks?.reduce((n, tr) => n + tr.rolls.filter((r) => r.seat === S.seat).length, 0) ?? 0;
  return `${v.hand}:${v.bid_placed?.[S.seat] ? "r" : "b"}:${rolls}`;
}

let tick = null;
let warned = null;

/** Show the clocks of the table on the page; counts down by itself while a clock runs. */
export function renderClocks() {
  clearTimeout(tick);
  tick = null;
  const tb = S.table;
  const clock = tb?.clock || null;
  renderLobbyClock(tb, clock);
  const playing = !!clock && S.screen === "game" && tb.status === "playing";
  const mine = ownClock();
  let running = false;
  const now = performance.now();
  (tb?.seats || []).forEach((seat, i) => {
    const card = document.querySelector(`#players [data-seat="${i}"]`);
    const st = playing ? standing(seat, clock, now) : null;
    let badge = card?.querySelector(".pclock");
    if (!card || (!st && !(playing && seat.outOfTime))) {
      badge?.remove();
      return;
    }
    if (!badge) card.append((badge = el("span", { class: "pclock", role: "timer" })));
    if (seat.outOfTime || !st || st.left <= 0) {
      badge.textContent = clockText(0);
      badge.className = "pclock out";
    } else {
      badge.textContent = st.free > 0 ? `${clockText(st.free)} + ${clockText(st.bank)}` : clockText(st.bank);
      badge.className = `pclock${st.free > 0 ? "" : " bank"}${st.left <= 10 ? " low" : ""}`;
      running = true;
    }
  });
  // This page's own clock, in words, in the head of the game.
  const me = playing && S.seat !== null ? tb.seats[S.seat] : null;
  const st = me ? standing(me, clock, now) : null;
  if (me && me.outOfTime) {
    setText(mine, t("clock.out_of_time", { level: levelName(tb.level) }), "move-clock out");
  } else if (st && st.left > 0) {
    const text = st.free > 0
      ? t("clock.mine", { move: clockText(st.free), bank: clockText(st.bank) })
      : t("clock.mine_bank", { bank: clockText(st.bank) });
    setText(mine, text, `move-clock${st.free > 0 ? "" : " bank"}${st.left <= 10 ? " low" : ""}`);
    const key = decisionKey();
    if (st.left <= 10 && key !== warned) {
      warned = key;
      announce(t("clock.seconds_left", { n: Math.ceil(st.left) }));
    }
  } else {
    setText(mine, "", "move-clock");
  }
  mine.title = clock ? tableClock(tb, clock) : "";
  if (running) tick = setTimeout(renderClocks, 250);
}

function setText(node, text, cls) {
  if (node.textContent !== text) node.textContent = text;
  node.className = cls;
  node.hidden = !text;
}

// The game head's line for this page's own clock (made once: index.html is the layout's).
function ownClock() {
  let node = $("move-clock");
  if (!node) {
    node = el("p", { id: "move-clock", class: "move-clock", role: "timer", hidden: true });
    const head = document.querySelector("#screen-game .game-head");
    if (head) head.append(node);
  }
  return node;
}

function tableClock(tb, clock) {
  return t("clock.table", {
    speed: t(`clock.${clock.speed}`), move: clockText(clock.move), bank: clockText(clock.bank), level: levelName(tb.level),
  });
}

// The lobby says which clock the table plays with (and which bot plays a move out of time).
function renderLobbyClock(tb, clock) {
  const status = $("lobby-status");
  if (!status) return;
  let line = $("lobby-clock");
  if (!clock || S.screen !== "lobby") {
    if (line) line.hidden = true;
    return;
  }
  if (!line) {
    line = el("p", { id: "lobby-clock", class: "status lobby-clock" });
    status.after(line);
  }
  line.textContent = tableClock(tb, clock);
  line.hidden = false;
}

// The seats are drawn afresh on every change (seats.js): their badges come back at once.
const seats = $("players");
if (seats) {
  afterChildren(seats, renderClocks);
}
