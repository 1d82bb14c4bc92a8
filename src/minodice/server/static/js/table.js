// The game screen: players, the trick on the table, this seat's bid pad and dice.
// Everything rule-shaped — whose roll it is, the lead colour, which roll leads and why,
// which dice may be rolled and why not, bonuses — is read from the server's view and
// events (docs/server-protocol.md) and put into words from its codes.
import * as api from "./api.js";
import { reasonText } from "./codes.js";
import { blankDieSVG, dieName, dieSVG, faceName } from "./dice.js";
import { $, el } from "./dom.js";
import { nameList, t } from "./i18n.js";
import { giveToBot } from "./lobby.js";
import { digest } from "./net.js";
import { renderLog, renderSheet } from "./podium.js";
import { S, amHost, botLabel, isBot, plainName, seatName, showError } from "./state.js";

export function renderGame() {
  const v = S.view;
  if (!v) return;
  const d = digest();
  const bidding = v.bid_placed.some((b) => !b);
  const cur = v.tricks.length && v.tricks[v.tricks.length - 1].winner === null ? v.tricks[v.tricks.length - 1] : null;
  const trickNo = cur ? v.tricks.length : Math.min(v.tricks.length + 1, v.hand);
  const toRoll = bidding ? null : (S.toAct?.[0] ?? null); // the server says whose roll it is
  const myTurnRoll = !bidding && Array.isArray(v.legal) && v.legal.length && typeof v.legal[0] === "string";
  const myTurnBid = bidding && Array.isArray(v.legal);

  $("hand-info").textContent = bidding
    ? t("game.hand_bidding", { hand: v.hand, hands: v.hands })
    : t("game.hand_trick", { hand: v.hand, hands: v.hands, trick: trickNo, n: v.hand });
  let turn = "";
  if (myTurnBid) turn = t("game.your_bid");
  else if (bidding) turn = t("game.waiting_bids", { names: nameList(waitingBidders()) });
  else if (myTurnRoll) turn = t("game.your_roll");
  else if (toRoll !== null) turn = t(isBot(toRoll) ? "game.bot_rolling" : "game.their_roll", { name: plainName(toRoll) });
  $("turn-info").textContent = turn;
  renderTimer();

  renderPlayers(v, d, bidding, toRoll, cur);
  renderTrick(v, d, cur, toRoll);
  renderBidPad(v, d, bidding, myTurnBid);
  renderDice(v, myTurnRoll);
  renderLog();
  if (S.sheetOpen) renderSheet();
  const rec = api.recordUrl(S.code, S.token);
  $("record-link").href = rec;
  $("record-link").setAttribute("download", `minodice-${S.code}.json`);
}

// The turn timer: a live countdown, once a second, to the bot that stands in for an
// absent player the game waits for (TABLE.players[i].autoplay_in, see api.normalizeTable).
// Its own element (role=timer, not a live region) so screen readers are not flooded.
let timerTick = null;

export function renderTimer() {
  clearTimeout(timerTick);
  timerTick = null;
  const box = $("turn-timer");
  const seats = S.screen === "game" && S.table?.status === "playing" ? S.table.seats || [] : [];
  const now = performance.now();
  const groups = new Map(); // whole seconds left → seats
  let next = Infinity; // ms until the next shown second changes
  seats.forEach((s, i) => {
    if (typeof s.autoplayAt !== "number" || s.bot || s.standin) return;
    const ms = Math.max(0, s.autoplayAt - now);
    const n = Math.ceil(ms / 1000);
    if (!groups.has(n)) groups.set(n, []);
    groups.get(n).push(i);
    if (ms > 0) next = Math.min(next, ms % 1000 || 1000);
  });
  const text = [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([n, list]) => t("game.deadline", { names: nameList(list.map(plainName)), n }))
    .join(" ");
  if (box.textContent !== text) box.textContent = text;
  box.hidden = !text;
  if (next < Infinity) timerTick = setTimeout(renderTimer, Math.min(next, 1000) + 20);
}

function waitingBidders() {
  const v = S.view;
  return v.bid_placed.map((b, i) => (b ? null : i)).filter((i) => i !== null).map((i) => (i === S.seat ? t("you") : plainName(i)));
}

function bidLine(v, d, bidding, i) {
  const bid = v.bids[i] ?? (i === S.seat ? d.myBid : null);
  if (bidding) {
    const text = i === S.seat && d.myBid !== null ? t("game.you_bid_hidden", { bid: d.myBid }) : v.bid_placed[i] ? t("game.has_bid") : t("game.bidding_now");
    return el("span", { class: "pbid", text });
  }
  const pbid = el("span", { class: "pbid", text: t("game.won_of_bid", { won: v.won[i], bid }) });
  if (bid !== null) {
    if (v.won[i] === bid) pbid.append(" ", el("span", { class: "made", text: t("game.on_target") }));
    else if (v.won[i] > bid) pbid.append(" ", el("span", { class: "over", text: t("game.over_bid") }));
  }
  return pbid;
}

function seatBadges(i) {
  const seatInfo = S.table?.seats?.[i];
  const badges = el("span", { class: "pbadges" });
  if (seatInfo?.bot) badges.append(el("span", { class: "badge", text: t("lobby.bot", { bot: botLabel(seatInfo.bot) }) }));
  else if (seatInfo?.standin) badges.append(el("span", { class: "badge off", text: t("lobby.standin") }));
  else if (seatInfo && seatInfo.connected === false) {
    badges.append(el("span", { class: "badge off", text: t("lobby.away") }));
    if (amHost()) {
      badges.append(el("button", { type: "button", class: "small", text: t("game.give_to_bot"), onclick: () => giveToBot(i, "greedy") }));
    }
  }
  return badges.childNodes.length ? badges : null;
}

function renderPlayers(v, d, bidding, toRoll, cur) {
  const ol = $("players");
  ol.textContent = "";
  const leading = cur ? v.trick?.leading : null;
  const winning = leading !== null && leading !== undefined ? cur.rolls[leading]?.seat : null;
  for (let i = 0; i < v.seats; i++) {
    const cls = ["player", i === S.seat ? "me" : "", i === toRoll ? "turn" : "", i === winning ? "leading" : ""].join(" ");
    const li = el(
      "li",
      { class: cls, "data-seat": i },
      el("span", { class: "pname", text: seatName(i) }),
      el("span", { class: "ptotal", title: t("game.total"), text: t("game.points", { n: v.totals[i] }) }),
      bidLine(v, d, bidding, i),
      seatBadges(i),
    );
    if (i === winning) li.append(el("span", { class: "pbid", text: t("game.winning_now") }));
    ol.append(li);
  }
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

function renderTrick(v, d, cur, toRoll) {
  const ol = $("trick");
  ol.textContent = "";
  const shown = shownTrick(v, d, cur);
  $("trick-h").textContent = shown ? shown.title : t("game.no_trick_yet");
  if (!shown) {
    $("lead-info").textContent = "";
    $("trick-result").textContent = "";
    return;
  }
  const best = shown.winner !== null ? shown.rolls.findIndex((r) => r.seat === shown.winner) : shown.leading;
  $("lead-info").textContent = shown.lead ? t("game.lead", { colour: dieName(shown.lead) }) : t("game.no_lead");
  shown.rolls.forEach((r, idx) => {
    const key = `${shown.hand}:${shown.no}:${r.seat}`;
    const fresh = S.fresh.has(key);
    S.fresh.delete(key);
    ol.append(
      el(
        "li",
        { class: `${idx === best ? "winning" : ""} ${fresh ? "rolling" : ""}`, "data-seat": r.seat },
        el("span", { html: dieSVG(r.die, r.face) }),
        el("span", { class: "who", text: seatName(r.seat) }),
        el("span", { class: "what", text: t("die_shows", { die: dieName(r.die), face: faceName(r.face) }) }),
      ),
    );
  });
  for (const seat of cur ? shown.order.slice(shown.rolls.length) : []) {
    ol.append(
      el(
        "li",
        { class: "pending", "data-seat": seat },
        el("span", { html: blankDieSVG(t("game.to_roll")) }),
        el("span", { class: "who", text: seatName(seat) }),
        el("span", { class: "what", text: seat === toRoll ? t("game.rolling_now") : t("game.to_roll") }),
      ),
    );
  }
  $("trick-result").textContent = trickResult(shown, best);
}

// Who won (or leads) the trick and why, and the bonus and why: the server's reasons in words.
function trickResult(shown, best) {
  if (best === null || best < 0) return "";
  const why = reasonText(shown.reason);
  let text = shown.winner !== null
    ? t("game.trick_won_by", { name: seatName(shown.winner), why })
    : t("game.winning_so_far", { name: seatName(shown.rolls[best].seat), why });
  if (shown.bonusWhy) text += ` ${t("game.bonus_line", { why: reasonText(shown.bonusWhy) })}`;
  return text;
}

function renderBidPad(v, d, bidding, myTurnBid) {
  const spectator = S.seat === null || v.seat === null || v.seat === undefined;
  $("spectator").hidden = !spectator;
  $("me-h").hidden = spectator;
  $("bid-pad").hidden = !myTurnBid;
  $("hint-button").hidden = !myTurnBid || !S.table?.hints;
  if (!myTurnBid || $("hint-box").dataset.hand !== String(v.hand)) $("hint-box").hidden = true;
  if (myTurnBid) {
    $("bid-prompt").textContent = t("game.bid_prompt", { n: v.hand });
    const box = $("bid-buttons");
    const wanted = v.legal.map(String).join(",");
    if (box.dataset.bids !== wanted) {
      box.textContent = "";
      box.dataset.bids = wanted;
      for (const b of v.legal) {
        const attrs = { type: "button", class: "bid", "data-bid": b, "aria-keyshortcuts": b <= 9 ? String(b) : null };
        box.append(el("button", { ...attrs, "aria-label": t("game.bid_n", { n: b }), text: String(b), onclick: () => sendBid(b) }));
      }
    }
  }
  const waiting = $("bid-waiting");
  if (bidding && !myTurnBid && !spectator && d.myBid !== null) {
    waiting.textContent = t("game.bid_sent_waiting", { bid: d.myBid, names: nameList(waitingBidders()) });
  } else if (!bidding && d.revealed) {
    waiting.textContent = t("game.bids_revealed", {
      list: d.revealed.map((b, i) => t("game.name_bid", { name: seatName(i), bid: b })).join(" · "),
      sum: d.revealed.reduce((a, b) => a + b, 0),
      n: v.hand,
    });
  } else {
    waiting.textContent = "";
  }
}

// This seat's dice: the ones the server lists as legal are buttons; each other one says
// why not (the server's refusal, in words).
function renderDice(v, myTurnRoll) {
  const spectator = S.seat === null || v.seat === null || v.seat === undefined;
  const held = v.dice || [];
  const legal = new Set(myTurnRoll ? v.legal : []);
  const refusals = myTurnRoll ? v.refusals || {} : {};
  const lead = v.trick?.lead;
  $("roll-prompt").textContent = !myTurnRoll ? "" : Object.keys(refusals).length && lead ? t("game.roll_follow", { colour: dieName(lead) }) : t("game.roll_any");
  const ul = $("my-dice");
  const focusedDie = document.activeElement?.dataset?.index;
  ul.textContent = "";
  held.forEach((die, i) => {
    const ok = legal.has(die);
    const why = reasonText(refusals[die]);
    let label = `${dieName(die)} (${facesText(die)})`;
    if (ok) label = t("game.roll_die_label", { die: dieName(die), faces: facesText(die) });
    else if (why) label = t("game.cannot_roll_label", { die: dieName(die), why });
    const btn = el(
      "button",
      {
        type: "button",
        class: `die-btn ${ok ? "legal" : ""} ${myTurnRoll ? "" : "held"}`,
        "data-die": die,
        "data-index": i,
        disabled: !ok,
        "aria-keyshortcuts": ok && i < 9 ? String(i + 1) : null,
        "aria-label": label,
        onclick: () => sendRoll(die),
      },
      el("span", { html: dieSVG(die) }),
      el("span", { class: "dname", text: dieName(die) }),
      why ? el("span", { class: "why", text: why }) : null,
      ok && i < 9 ? el("span", { class: "key", text: t("game.key_hint", { key: i + 1 }) }) : null,
    );
    ul.append(el("li", {}, btn));
  });
  if (!held.length && !spectator) ul.append(el("li", { class: "status", text: t("game.no_dice") }));
  if (focusedDie !== undefined) ul.querySelector(`[data-index="${focusedDie}"]`)?.focus();
  else if (myTurnRoll && !document.activeElement?.closest?.(".me-area")) ul.querySelector("button:not(:disabled)")?.focus({ preventScroll: true });
}

function facesText(die) {
  return t(`die.${die}.faces`);
}

// The bid advisor for this seat's dice (GET /api/tables/{code}/hint), shown under the bid pad.
export async function showHint(hand) {
  const box = $("hint-box");
  const button = $("hint-button");
  button.disabled = true;
  try {
    const a = await api.hint(S.code, S.token);
    const table = el("table", { class: "hint-table" });
    table.append(el("tr", {}, [
      el("th", { text: t("hint.bid") }), el("th", { text: t("hint.expected") }), el("th", { text: t("hint.made") }),
    ]));
    for (const b of a.bids) {
      const row = el("tr", { class: b.bid === a.best_bid ? "best" : null }, [
        el("td", { text: String(b.bid) }),
        el("td", { text: `${b.expected_score >= 0 ? "+" : ""}${b.expected_score.toFixed(1)} ± ${b.ci95.toFixed(1)}` }),
        el("td", { text: `${Math.round(b.made * 100)} %` }),
      ]);
      table.append(row);
    }
    box.textContent = "";
    box.append(el("p", { class: "hint-best", text: t("hint.best", { bid: a.best_bid }) }), table,
      el("p", { class: "hint-note", text: t("hint.note", { deals: a.deals }) }));
    box.dataset.hand = String(hand);
    box.hidden = false;
  } catch (err) {
    showError(err);
  } finally {
    button.disabled = false;
  }
}

async function sendBid(b) {
  try {
    for (const btn of $("bid-buttons").querySelectorAll("button")) btn.disabled = true;
    $("bid-buttons").dataset.bids = "";
    await S.conn.send({ type: "bid", bid: b });
  } catch (err) {
    showError(err);
  }
}

async function sendRoll(die) {
  try {
    for (const btn of $("my-dice").querySelectorAll("button")) btn.disabled = true;
    await S.conn.send({ type: "roll", die });
  } catch (err) {
    showError(err);
  }
}
