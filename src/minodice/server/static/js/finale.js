// The end of a game worth reaching (podium.js draws the standings' steps): who won, in a
// banner; the moment of the game; and the rematch, which waits until each person at the table
// has said ready (or left): docs/server-protocol.md, "rematch".
//
// The moment of the game is the game's biggest hand score: who, which hand, the bid made and
// the bonuses that came with it (the server's reasons). It is read from the `hand_scored` and
// `trick_won` events every page already holds, so it costs nothing. The review of every decision
// (GET /api/tables/{code}/analysis, "Review this game") would name the decision that mattered most,
// but takes 10 to 20 seconds of a core for each game; the podium links to it instead.
import * as api from "./api.js";
import { listNodes, nameNode, tn } from "./bidi.js";
import { $, el } from "./dom.js";
import { digest } from "./eventlog.js";
import { t } from "./i18n.js";
import { enterTable } from "./net.js";
import { S, getCookie, hostToken, saveToken, setCookie, showError } from "./state.js";

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

/** The banner, the moment of the game and the rematch's state, under the standings. */
export function renderFinale(order, places, totals) {
  renderBanner(order, places, totals);
  renderMoment();
  renderRematch();
}

// A node with the given id, made once and put where `place` says (index.html is the layout's).
function node(id, make, place) {
  let n = $(id);
  if (!n) {
    n = make();
    place(n);
  }
  return n;
}

function renderBanner(order, places, totals) {
  const podium = $("podium");
  if (!podium) return;
  const banner = node("podium-winner", () => el("p", { id: "podium-winner", class: "podium-winner" }), (n) => podium.before(n));
  const winners = order.filter((i) => places[i] === 1);
  if (!winners.length) {
    banner.hidden = true;
    return;
  }
  banner.replaceChildren(tn("podium.winner_banner", {
    names: listNodes(winners.map((i) => nameNode(i))), n: winners.length, points: t("game.points", { n: totals[winners[0]] }),
  }));
  banner.hidden = false;
}

/** The game's biggest hand score: {hand, seat, score, bid, won, made, bonus, why: [reason]}; null before a hand is scored. */
export function momentOfTheGame() {
  let best = null;
  for (const row of digest().rows) {
    row.scores.forEach((score, seat) => {
      const bonus = row.bonus_counted?.[seat] || 0;
      if (!best || score > best.score || (score === best.score && bonus > best.bonus)) {
        best = { hand: row.hand, seat, score, bid: row.bids[seat], won: row.won[seat], made: row.made?.[seat] ?? null, bonus, why: [] };
      }
    });
  }
  if (!best) return null;
  // Why its bonuses came: the hand's tricks that seat won, with the server's reasons.
  let hand = 0;
  for (const ev of S.events) {
    if (ev.type === "drawn") hand = ev.hand;
    else if (ev.type === "trick_won" && hand === best.hand && ev.seat === best.seat && ev.bonus_why) best.why.push(ev.bonus_why);
  }
  return best;
}

function renderMoment() {
  const podium = $("podium");
  if (!podium) return;
  const box = node(
    "podium-moment",
    () => el("section", { id: "podium-moment", class: "card podium-moment", "aria-labelledby": "podium-moment-h" }),
    (n) => podium.after(n),
  );
  const m = momentOfTheGame();
  if (!m) {
    box.hidden = true;
    return;
  }
  const p = { hand: m.hand, name: nameNode(m.seat), bid: m.bid, won: m.won, points: signed(m.score) };
  const line = el("p", { class: "moment-line" }, tn(m.made ? "podium.moment_made" : "podium.moment_plain", p));
  const why = m.why.map((r) => t(`summary.why.${r.code}`, { ...r.params, n: r.params?.griffins ?? 1 }));
  const parts = [el("h3", { id: "podium-moment-h", text: t("podium.moment") }), line];
  if (m.bonus > 0) parts.push(el("p", { class: "moment-bonus", text: t("podium.moment_bonus", { n: m.bonus, why: why.join(", ") }) }));
  box.replaceChildren(...parts);
  box.hidden = false;
}

// --- the rematch ---------------------------------------------------------------------------------

let asked = null; // the table this page asked a rematch of (its TABLE may not say so yet)

function renderRematch() {
  const tb = S.table;
  const btn = $("rematch-btn");
  const status = $("rematch-status");
  if (!tb || !btn || !status) return;
  if (tb.rematch && tb.rematchStarted) {
    btn.hidden = false;
    btn.disabled = false;
    btn.textContent = t("podium.rematch_go");
    status.textContent = t("podium.rematch_started", { code: tb.rematch });
    return;
  }
  btn.hidden = S.seat === null;
  const seats = tb.seats || [];
  const ready = seats.map((s, i) => (s.ready ? i : null)).filter((i) => i !== null);
  const mine = S.seat !== null && (seats[S.seat]?.ready || asked === tb.code);
  // The people the rematch waits for: those at the podium who have not said ready.
  const waiting = seats.map((s, i) => (s.person && !s.ready && s.connected !== false && i !== S.seat ? i : null)).filter((i) => i !== null);
  if (mine) {
    btn.disabled = true;
    btn.textContent = t("podium.im_ready");
    status.replaceChildren(waiting.length
      ? tn("podium.rematch_waiting", { names: listNodes(waiting.map((i) => nameNode(i))), n: waiting.length })
      : t("podium.rematch_starting"));
  } else {
    btn.disabled = false;
    btn.textContent = t("podium.rematch");
    const others = ready.filter((i) => i !== S.seat);
    status.replaceChildren(others.length
      ? tn("podium.rematch_asked_you", { names: listNodes(others.map((i) => nameNode(i))), n: others.length })
      : "");
  }
}

/** "Rematch": this seat is ready. The rematch starts when each person is (or has left): then the
 * server sends `rematch` and this page goes (onRematchStarted). */
export async function onRematch() {
  const tb = S.table;
  if (tb?.rematch && tb.rematchStarted) return followRematch(tb.rematch);
  const from = S.code;
  try {
    $("rematch-btn").disabled = true;
    asked = from;
    const res = await api.rematch(from, S.token || hostToken());
    if (S.code !== from) return; // it started meanwhile, and this page went
    if (res.table.status !== "lobby") return followRematch(res.code);
    S.table = { ...S.table, rematch: res.code };
    renderRematch();
  } catch (err) {
    asked = null;
    $("rematch-btn").disabled = false;
    showError(err);
  }
}

/** The server says the rematch has started: the people who said ready go; the others are offered it. */
export function onRematchStarted(code) {
  const tb = S.table;
  const mine = S.seat !== null && (tb?.seats?.[S.seat]?.ready || asked === S.code);
  if (mine) followRematch(code);
}

// A rematch table keeps the same seats and tokens: copy the cookies and go there.
export async function followRematch(code) {
  if (!code || code === S.code) return;
  const host = getCookie(`mdh_${S.code}`);
  if (host) setCookie(`mdh_${code}`, host);
  const token = S.token;
  saveToken(code, token, S.seat);
  history.pushState({}, "", api.invitePath(code));
  await enterTable(code, token);
}

