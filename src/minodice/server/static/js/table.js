// The game screen: the seats around the felt (seats.js), the trick rolled into the middle,
// this seat's bid pad and rack of dice. Everything rule-shaped — whose roll it is, the lead
// colour, which roll leads and why, which dice may be rolled and why not, bonuses — is read
// from the server's view and events (docs/server-protocol.md) and put into words from its codes.
// A move (a bid, a roll) is sent once: the pad and rack lock until the server answers it (its ack
// or its refusal, by the frame's id); a refusal is said next to them (#move-note), never at the top
// of the page. Names people typed are isolated (bidi.js), whatever their script.
import * as api from "./api.js";
import { bdi, listNodes, nameNode, tn } from "./bidi.js";
import { errorText, reasonText } from "./codes.js";
import { blankDieSVG, dieName, dieSVG } from "./dice.js";
import { $, el } from "./dom.js";
import { digest } from "./eventlog.js";
import { formatNumber, t } from "./i18n.js";
import { renderLog, renderSheet } from "./podium.js";
import { renderSeats, seatPlace } from "./seats.js";
import {
  S, botLabel, handedOver, isBot, plainName, seatName, showError,
} from "./state.js";

export { renderTimer } from "./seats.js";

// Whether some seat has still to bid in this hand (as `View.bidding`).
const isBidding = (v) => v.bid_placed.some((b) => !b);

export function renderGame() {
  const v = S.view;
  if (!v) return;
  const d = digest();
  const bidding = isBidding(v);
  const cur = v.tricks.length && v.tricks[v.tricks.length - 1].winner === null ? v.tricks[v.tricks.length - 1] : null;
  const trickNo = cur ? v.tricks.length : Math.min(v.tricks.length + 1, v.hand);
  const toRoll = bidding ? null : (S.toAct?.[0] ?? null); // the server says whose roll it is
  const handed = handedOver(); // a bot plays this page's seat: no moves here
  const myTurnRoll = !handed && !bidding && Array.isArray(v.legal) && v.legal.length && typeof v.legal[0] === "string";
  const myTurnBid = !handed && bidding && Array.isArray(v.legal);

  $("hand-info").textContent = bidding
    ? t("game.hand_bidding", { hand: v.hand, hands: v.hands })
    : t("game.hand_trick", { hand: v.hand, hands: v.hands, trick: trickNo, n: v.hand });
  let turn = "";
  if (myTurnBid) turn = t("game.your_bid");
  else if (bidding) turn = tn("game.waiting_bids", { names: listNodes(waitingBidders()) });
  else if (myTurnRoll) turn = t("game.your_roll");
  else if (toRoll !== null) turn = tn(isBot(toRoll) ? "game.bot_rolling" : "game.their_roll", { name: bdi(plainName(toRoll)) });
  setNodes($("turn-info"), turn);
  renderHandedOver(handed);

  const leading = cur ? v.trick?.leading : null;
  const winning = leading !== null && leading !== undefined ? cur.rolls[leading]?.seat : null;
  const toAct = bidding ? v.bid_placed.map((b, i) => (b ? null : i)).filter((i) => i !== null) : toRoll === null ? [] : [toRoll];
  renderSeats(v, d, bidding, toAct, winning);
  renderTrick(v, d, cur, toRoll);
  renderBidPad(v, d, bidding, myTurnBid);
  renderDice(v, myTurnRoll);
  renderHint(v, myTurnBid || myTurnRoll);
  renderLog();
  if (S.sheetOpen) renderSheet();
  const rec = api.recordUrl(S.code, S.token);
  $("record-link").href = rec;
  $("record-link").setAttribute("download", `minodice-${S.code}.json`);
}

// The host handed this seat to a bot while its person was away: say so (the bot's moves are
// not "yours") and offer to take the seat back.
function renderHandedOver(handed) {
  $("handed-over").hidden = !handed;
  if (handed) $("handed-over-text").textContent = t("game.handed_over", { bot: botLabel(S.table.seats[S.seat].bot) });
}

export async function reclaimSeat() {
  const button = $("reclaim-btn");
  button.disabled = true;
  try {
    S.table = await api.reclaimSeat(S.code, S.seat, S.token);
    renderGame();
  } catch (err) {
    showError(err);
  } finally {
    button.disabled = false;
  }
}

// The seats still to bid, as nodes ("you" for this page's own seat).
function waitingBidders() {
  const v = S.view;
  return v.bid_placed.map((b, i) => (b ? null : i)).filter((i) => i !== null).map((i) => (i === S.seat ? t("you") : bdi(plainName(i))));
}

// Text or nodes into an element, rewritten only when what it says changes (a live region is not
// read out again for nothing).
function setNodes(node, content) {
  const text = typeof content === "string" ? content : content.textContent;
  if (node.dataset.said === text && node.textContent === text) return;
  node.dataset.said = text;
  node.replaceChildren(content);
}

// The trick to show: the one in play (with the server's trick state), else the last one
// finished, this hand or the last (with what the server said when it was won).
function shownTrick(v, d, cur) {
  if (cur) {
    const state = v.trick || {};
    const title = t("game.trick_n", { n: v.tricks.length, of: v.hand });
    return { title, hand: v.hand, no: v.tricks.length, rolls: cur.rolls, winner: null, ...pick(state), order: state.order || [] };
  }
  const last = d.tricks[d.tricks.length - 1];
  if (last && last.winner !== null) return { ...last, hand: v.hand, title: t("game.last_trick", { n: last.no }) };
  if (d.lastHandTrick) {
    const prev = d.lastHandTrick;
    return { ...prev, title: t("game.last_trick_prev", { n: prev.no, hand: prev.hand }) };
  }
  return null;
}

function pick(state) {
  return { lead: state.lead ?? null, leading: state.leading ?? null, reason: state.reason ?? null, bonusWhy: state.bonus_why ?? null };
}

// The trick in the middle of the felt: each die lands in front of the seat that rolled it
// (the same places as the seats), the roll winning so far marked, the seats still to roll
// shown as empty places. Rebuilt only when what it shows changes, so animations run through.
function renderTrick(v, d, cur, toRoll) {
  const ol = $("trick");
  const shown = shownTrick(v, d, cur);
  const best = !shown ? -1 : shown.winner !== null ? shown.rolls.findIndex((r) => r.seat === shown.winner) : shown.leading;
  const key = shown ? `${shown.hand}:${shown.no}` : "";
  const sig = JSON.stringify([key, shown?.rolls, shown?.order, best, toRoll, S.seat, document.documentElement.lang]);
  if (ol.dataset.sig === sig) return;
  ol.dataset.sig = sig;
  ol.textContent = "";
  $("trick-h").textContent = shown ? shown.title : t("game.no_trick_yet");
  if (!shown) {
    $("lead-info").textContent = "";
    $("lead-info").removeAttribute("title");
    $("trick-result").textContent = "";
    return;
  }
  // The lead colour in two words; the rule in full for screen readers and on hover.
  const leadRule = shown.lead ? t("game.lead", { colour: dieName(shown.lead) }) : t("game.no_lead");
  const leadShort = shown.lead ? t("game.lead_short", { colour: dieName(shown.lead) }) : t("game.no_lead_short");
  $("lead-info").title = leadRule;
  $("lead-info").replaceChildren(el("span", { "aria-hidden": "true", text: leadShort }), el("span", { class: "sr-only", text: leadRule }));
  const finished = shown.winner !== null;
  shown.rolls.forEach((r, idx) => {
    const fresh = S.fresh.delete(`${shown.hand}:${shown.no}:${r.seat}`);
    const cls = [idx === best ? "winning" : "", fresh ? "rolling" : ""];
    ol.append(
      el(
        "li",
        { class: cls.join(" ").trim(), "data-seat": r.seat, "data-place": seatPlace(r.seat, v.seats) },
        el("span", { class: "die-wrap", html: dieSVG(r.die, r.face) }),
        el("span", { class: "who" }, nameNode(r.seat)),
        idx === best ? el("span", { class: "lead-mark", text: finished ? "★" : `★ ${t("game.leads_mark")}` }) : null,
      ),
    );
  });
  // The seats still to roll, in rolling order (the server's).
  const rolled = new Set(shown.rolls.map((r) => r.seat));
  for (const seat of shown.order || []) {
    if (rolled.has(seat)) continue;
    const label = seat === toRoll ? t("game.rolling_now") : t("game.to_roll");
    ol.append(
      el(
        "li",
        { class: `pending ${seat === toRoll ? "next" : ""}`.trim(), "data-seat": seat, "data-place": seatPlace(seat, v.seats) },
        el("span", { class: "die-wrap", html: blankDieSVG(`${seatName(seat)}: ${label}`) }),
        el("span", { class: "who" }, nameNode(seat)),
      ),
    );
  }
  setNodes($("trick-result"), trickResult(shown, best));
  if (finished && S.sweep === key) took(shown.winner);
}

// The end of a trick: its dice stay where they landed, in full, until the next trick's first
// roll (its result is read there, also through a long wait); the winner's seat lights up.
function took(seat) {
  S.sweep = null;
  document.querySelector(`#players [data-seat="${seat}"]`)?.classList.add("took");
}

// Who won (or leads) the trick and why, and the bonus and why: the server's reasons in words.
function trickResult(shown, best) {
  if (best === null || best < 0) return "";
  const why = reasonText(shown.reason);
  const text = shown.winner !== null
    ? tn("game.trick_won_by", { name: nameNode(shown.winner), why })
    : tn("game.winning_so_far", { name: nameNode(shown.rolls[best].seat), why });
  if (shown.bonusWhy) text.append(` ${t("game.bonus_line", { why: reasonText(shown.bonusWhy) })}`);
  return text;
}

function renderBidPad(v, d, bidding, myTurnBid) {
  const spectator = S.seat === null || v.seat === null || v.seat === undefined;
  $("spectator").hidden = !spectator;
  $("me-h").hidden = spectator;
  $("bid-pad").hidden = !myTurnBid;
  // The bid's rule in full; on a phone its first words ("Bid 0 to 6.").
  $("bid-prompt").replaceChildren(...(myTurnBid
    ? [el("span", { class: "wide-only", text: t("game.bid_prompt", { n: v.hand }) }), el("span", { class: "phone-only", text: t("game.bid_prompt_short", { n: v.hand }) })]
    : []));
  if (myTurnBid) {
    const box = $("bid-buttons");
    const wanted = v.legal.map(String).join(",");
    if (box.dataset.bids !== wanted) {
      box.textContent = "";
      box.dataset.bids = wanted;
      for (const b of v.legal) {
        const attrs = { type: "button", class: "bid", "data-bid": b, "aria-keyshortcuts": b <= 9 ? String(b) : null };
        box.append(el("button", { ...attrs, "aria-label": t("game.bid_n", { n: b }), text: String(b), onclick: () => sendBid(b) }));
      }
      if (!document.activeElement?.closest?.(".me-area")) box.querySelector("button")?.focus({ preventScroll: true });
    }
    // While a bid is on its way the pad is locked (every button says so; the one sent is marked).
    const sent = pending?.kind === "bid" ? pending.value : null;
    box.classList.toggle("locked", !!pending);
    box.setAttribute("aria-busy", String(!!pending));
    for (const button of box.querySelectorAll("button")) {
      button.classList.toggle("chosen", sent !== null && Number(button.dataset.bid) === sent);
      if (pending) button.setAttribute("aria-disabled", "true");
      else button.removeAttribute("aria-disabled");
    }
  }
  const waiting = $("bid-waiting");
  if (bidding && !myTurnBid && !spectator && d.myBid !== null && !handedOver()) {
    setNodes(waiting, tn("game.bid_sent_waiting", { bid: d.myBid, names: listNodes(waitingBidders()) }));
  } else if (!bidding && d.revealed) {
    // The bids' sum against the tricks to win (each seat's card says its own bid; the log lists them).
    setNodes(waiting, t("game.bids_total", { sum: d.revealed.reduce((a, b) => a + b, 0), n: v.hand }));
  } else {
    setNodes(waiting, "");
  }
}

// This seat's rack: the dice the server lists as legal are live buttons; the others are
// dimmed but stay focusable, their reason (the server's refusal, in words) shown on hover
// and focus and said by screen readers.
function renderDice(v, myTurnRoll) {
  const spectator = S.seat === null || v.seat === null || v.seat === undefined;
  const held = v.dice || [];
  const legal = new Set(myTurnRoll ? v.legal : []);
  const refusals = myTurnRoll ? v.refusals || {} : {};
  const lead = v.trick?.lead;
  $("roll-prompt").textContent = !myTurnRoll ? "" : Object.keys(refusals).length && lead ? t("game.roll_follow", { colour: dieName(lead) }) : t("game.roll_any");
  const ul = $("my-dice");
  const focusedDie = document.activeElement?.closest?.("#my-dice") ? document.activeElement.dataset.index : undefined;
  const sent = pending?.kind === "roll" ? pending.value : null;
  ul.textContent = "";
  ul.classList.toggle("locked", !!pending);
  ul.setAttribute("aria-busy", String(!!pending));
  held.forEach((die, i) => {
    const ok = legal.has(die) && !pending;
    const why = reasonText(refusals[die]);
    // The button's name starts with what it shows ("Yellow … key 1"); the reason it may not be
    // rolled is its description (shown on hover and focus).
    const whyId = why ? `why-${i}` : null;
    const btn = el(
      "button",
      {
        type: "button",
        class: `die-btn ${ok ? "legal" : ""} ${myTurnRoll ? "" : "held"} ${why ? "refused" : ""} ${sent === i ? "chosen" : ""}`,
        "data-die": die,
        "data-index": i,
        "aria-disabled": ok ? null : "true",
        "aria-keyshortcuts": ok && i < 9 ? String(i + 1) : null,
        "aria-describedby": whyId,
        onclick: () => (ok ? sendRoll(die, i) : why && !pending ? moveNote(t("game.cannot_roll_now", { why })) : null),
      },
      el("span", { class: "die-wrap", "aria-hidden": "true", html: dieSVG(die) }),
      el("span", { class: "dname", text: dieName(die) }),
      el("span", { class: "sr-only", text: ` (${facesText(die)})${ok ? `: ${t("game.roll_it")}` : why ? `: ${t("game.not_now")}` : ""}` }),
      why ? el("span", { class: "why", id: whyId, "aria-hidden": "true", text: why }) : null,
      // "key 1", the digit shown in the tile's corner (the words stay in the button's name).
      ok && i < 9 ? el("span", { class: "key key-hint" }, tn("game.key_hint", { key: el("kbd", { text: String(i + 1) }) })) : null,
    );
    ul.append(el("li", {}, btn));
  });
  if (!held.length && !spectator) ul.append(el("li", { class: "status", text: t("game.no_dice") }));
  if (focusedDie !== undefined) ul.querySelector(`[data-index="${focusedDie}"]`)?.focus({ preventScroll: true });
  else if (myTurnRoll && !pending && !document.activeElement?.closest?.(".me-area")) ul.querySelector("button.legal")?.focus({ preventScroll: true });
}

function facesText(die) {
  return t(`die.${die}.faces`);
}

// Where this seat's decision stands: a hint answers one position (the bid of a hand, or one roll of it).
function hintAt(v) {
  return `${v.hand}:${isBidding(v) ? "bid" : v.tricks.reduce((n, tr) => n + tr.rolls.length, 0)}`;
}

// The Hint button while this seat has a decision to make (and the table allows hints); the box of
// an earlier position goes away.
function renderHint(v, myDecision) {
  $("hint-button").hidden = !myDecision || !S.table?.hints;
  if (!myDecision || $("hint-box").dataset.at !== hintAt(v)) $("hint-box").hidden = true;
}

const estimate = (x, ci95) => `${formatNumber(x, 1, true)} ± ${formatNumber(ci95)}`;

// The hint for this seat's decision (GET /api/tables/{code}/hint), shown under its dice: while it
// bids, the bid advisor's expected score of every bid; on its turn to roll, the expected score of the
// hand for each die it may roll. While it is computed (about two seconds the first time after
// installing) the box says so.
export async function showHint() {
  const box = $("hint-box");
  const button = $("hint-button");
  if (!S.view) return;
  const at = hintAt(S.view);
  button.disabled = true;
  box.textContent = "";
  box.append(el("p", { class: "hint-working", text: t("hint.working") }));
  box.dataset.at = at;
  box.setAttribute("aria-busy", "true");
  box.hidden = false;
  try {
    const a = await api.hint(S.code, S.token);
    if (!S.view || hintAt(S.view) !== at) {
      box.hidden = true; // the position it was asked for is past
      return;
    }
    box.textContent = "";
    box.append(el("button", { type: "button", class: "hint-close", "aria-label": t("close"), title: t("close"), onclick: closeHint }));
    if (a.kind === "roll") box.append(...rollHint(a));
    else box.append(...bidHint(a));
  } catch (err) {
    box.hidden = true;
    showError(err);
  } finally {
    box.removeAttribute("aria-busy");
    button.disabled = false;
  }
}

function bidHint(a) {
  const table = el("table", { class: "hint-table" });
  table.append(el("tr", {}, [
    el("th", { text: t("hint.bid") }), el("th", { text: t("hint.expected") }), el("th", { text: t("hint.made") }),
  ]));
  for (const b of a.bids) {
    table.append(el("tr", { class: b.bid === a.best_bid ? "best" : null }, [
      el("td", { text: String(b.bid) }),
      el("td", { text: estimate(b.expected_score, b.ci95) }),
      el("td", { text: `${Math.round(b.made * 100)} %` }),
    ]));
  }
  return [el("p", { class: "hint-best", text: t("hint.best", { bid: a.best_bid }) }), table,
    el("p", { class: "hint-note", text: t("hint.note", { deals: a.deals }) })];
}

function rollHint(a) {
  if (a.choices.length === 1 && a.choices[0].samples === 0) {
    return [el("p", { class: "hint-best", text: t("hint.forced", { die: dieName(a.chosen) }) })];
  }
  const table = el("table", { class: "hint-table" });
  table.append(el("tr", {}, [el("th", { text: t("hint.die") }), el("th", { text: t("hint.expected") })]));
  for (const c of a.choices) {
    table.append(el("tr", { class: c.choice === a.chosen ? "best" : null }, [
      el("td", { text: dieName(c.choice) }),
      el("td", { text: c.samples ? estimate(c.expected_score, c.ci95) : "—" }),
    ]));
  }
  return [el("p", { class: "hint-best", text: t("hint.best_die", { die: dieName(a.chosen) }) }), table,
    el("p", { class: "hint-note", text: t("hint.roll_note", { bot: botLabel(a.bot) }) })];
}

function closeHint() {
  $("hint-box").hidden = true;
  $("hint-button").focus({ preventScroll: true });
}

// --- moves: sent once, locked until the server answers ------------------------------------------

// The move on its way: {kind: "bid"|"roll", value, id} (id: the frame's, which the answer carries as ref).
let pending = null;
let pendingTimer = null;
const ANSWER_MS = 8000; // no answer by then (a lost frame): the controls come back

function lock(kind, value, send) {
  if (pending) return false; // a second press while the first is on its way: nothing is sent
  moveNote("");
  pending = { kind, value, id: null };
  renderGame();
  try {
    pending.id = send();
  } catch (err) {
    pending = null;
    renderGame();
    moveNote(errorText(err));
    return false;
  }
  clearTimeout(pendingTimer);
  pendingTimer = setTimeout(giveUp, ANSWER_MS);
  return true;
}

// No answer in time: the controls come back, unless frames are still waiting their turn to be
// shown (the answer may be among them, behind a trick's result).
function giveUp() {
  if (S.queue.length || S.busy) pendingTimer = setTimeout(giveUp, 1000);
  else unlock();
}

function unlock() {
  clearTimeout(pendingTimer);
  if (!pending) return;
  pending = null;
  if (S.screen === "game") renderGame();
}

/** A frame from the server, in its turn (net.js): true when it was the answer to the move on its
 * way and nothing else is to be done with it. An ack: the move was carried out (its state came
 * before it). An error with its ref: refused, said next to the rack or pad. A welcome: a new
 * connection, where the old frame's answer will never come. */
export function moveAnswer(msg) {
  if (msg?.type === "welcome") {
    unlock();
    return false;
  }
  if (msg?.type === "ack") {
    if (pending && msg.ref === pending.id) unlock();
    return true; // acks of other frames (chat) have nothing to show
  }
  if (msg?.type === "error" && pending && msg.ref !== undefined && msg.ref === pending.id) {
    unlock();
    moveNote(errorText({ code: msg.code, message: msg.message, params: msg.params || {} }));
    return true;
  }
  return false;
}

/** Say something about the move where it was made (over the rack's edge), for a few seconds; "" clears it. */
let noteTimer = null;
export function moveNote(text) {
  const box = $("move-note");
  clearTimeout(noteTimer);
  box.textContent = "";
  if (!text) return;
  box.textContent = text;
  noteTimer = setTimeout(() => (box.textContent = ""), 5000);
}

function sendBid(b) {
  lock("bid", b, () => S.conn.send({ type: "bid", bid: b }));
}

function sendRoll(die, index) {
  lock("roll", index, () => S.conn.send({ type: "roll", die }));
}

// --- the page around the table -------------------------------------------------------------------

// Key hints show where a keyboard is used: the last input says which (css: html.kbd, html.touch).
function lastInput(kind) {
  const root = document.documentElement.classList;
  root.toggle("kbd", kind === "kbd");
  root.toggle("touch", kind === "touch");
}
document.addEventListener("keydown", (ev) => {
  if (!["Shift", "Control", "Alt", "Meta"].includes(ev.key)) lastInput("kbd");
}, true);
document.addEventListener("pointerdown", (ev) => lastInput(ev.pointerType === "mouse" ? "mouse" : "touch"), true);

// A panel's close button (help, sheet, log) presses the button that opened it; Escape closes the
// last one open over the game.
document.addEventListener("click", (ev) => {
  const close = ev.target.closest?.("[data-close]");
  if (!close) return;
  const opener = $(close.dataset.close);
  opener?.click();
  opener?.focus({ preventScroll: true });
});
document.addEventListener("keydown", (ev) => {
  if (ev.key !== "Escape" || S.screen !== "game") return;
  if (!$("hint-box").hidden) return closeHint();
  const open = [...document.querySelectorAll("#side .drawer:not([hidden]) [data-close]")].pop();
  if (open) {
    ev.preventDefault();
    open.click();
  }
});
