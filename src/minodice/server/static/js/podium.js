// The game's log, the score sheet and the podium (with the rematch).
import * as api from "./api.js";
import { joinNodes, nameNode, tn } from "./bidi.js";
import { dieName, faceName } from "./dice.js";
import { $, el } from "./dom.js";
import { digest } from "./eventlog.js";
import { t } from "./i18n.js";
import { S } from "./state.js";
import { renderFinale } from "./finale.js";

// The rematch waits until each person says ready (finale.js).
export { onRematch, onRematchStarted } from "./finale.js";

// A line of the log (nodes: the names in it isolated, bidi.js).
function eventLine(ev) {
  switch (ev.type) {
    case "drawn":
      return tn("log.drawn", { hand: ev.hand, name: nameNode(ev.start) });
    case "bid_placed":
      return ev.seat === S.seat && ev.bid !== null ? tn("log.you_bid", { bid: ev.bid }) : tn("log.bid_placed", { name: nameNode(ev.seat) });
    case "bids_revealed":
      return tn("log.bids_revealed", { list: joinNodes(ev.bids.map((b, i) => tn("game.name_bid", { name: nameNode(i), bid: b })), " · ") });
    case "rolled":
      return tn("log.rolled", { name: nameNode(ev.seat), die: dieName(ev.die), face: faceName(ev.face) });
    case "trick_won":
      return tn("log.trick_won", { n: ev.trick, name: nameNode(ev.seat), face: faceName(ev.face) });
    case "hand_scored":
      return tn("log.hand_scored", { hand: ev.hand });
    case "game_over":
      return tn("log.game_over");
    default:
      return null;
  }
}

export function renderLog() {
  if (!S.logOpen) return;
  const ol = $("log");
  ol.textContent = "";
  // The last 80 lines, each with its number in the whole game (drawn by us, not by the list
  // marker, so numbers of any length stay inside the box).
  const lines = S.events.map(eventLine).filter(Boolean);
  const first = Math.max(0, lines.length - 80);
  lines.slice(first).forEach((line, k) => {
    ol.append(el("li", {}, el("span", { class: "n", "aria-hidden": "true", text: String(first + k + 1) }), el("span", {}, line)));
  });
  ol.scrollTop = ol.scrollHeight;
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

// One hand's row: each seat's score, bid and tricks won, and the bonus its score includes
// (the server's `bonus_counted`: the sheet does not work out when a bonus counts).
function sheetRow(row, n) {
  const tr = el("tr", {}, el("th", { scope: "row", text: String(row.hand) }));
  for (let i = 0; i < n; i++) {
    const bonus = row.bonus_counted?.[i] || 0;
    tr.append(
      el(
        "td",
        { class: row.scores[i] < 0 ? "neg" : "" },
        el("strong", { text: signed(row.scores[i]) }),
        el("span", { class: "bw", text: t("sheet.bid_won", { bid: row.bids[i], won: row.won[i] }) }),
        bonus > 0 ? el("span", { class: "bonus", text: t("sheet.bonus", { n: bonus }) }) : null,
      ),
    );
  }
  return tr;
}

export function renderSheet() {
  const d = digest();
  const n = S.view?.seats || S.table?.seats?.length || 0;
  const tbl = $("sheet-table");
  tbl.textContent = "";
  const head = el("tr", {}, el("th", { scope: "col", text: t("sheet.hand") }));
  for (let i = 0; i < n; i++) head.append(el("th", { scope: "col" }, nameNode(i)));
  tbl.append(el("thead", {}, head));
  const body = el("tbody");
  for (const row of d.rows) body.append(sheetRow(row, n));
  if (!d.rows.length) body.append(el("tr", {}, el("td", { colspan: n + 1, text: t("sheet.empty") })));
  tbl.append(body);
  const last = d.rows[d.rows.length - 1];
  const totals = last ? last.totals : S.view?.totals || [];
  const foot = el("tr", {}, el("th", { scope: "row", text: t("sheet.total") }));
  for (let i = 0; i < n; i++) foot.append(el("td", { text: String(totals[i] ?? 0) }));
  tbl.append(el("tfoot", {}, foot));
}

export function renderPodium() {
  const over = digest().over;
  const totals = over?.totals || S.view?.totals || [];
  const places = over?.places || []; // the server's places (equal totals share one)
  const order = totals.map((_, i) => i).sort((a, b) => (places[a] ?? 99) - (places[b] ?? 99) || a - b);
  const ol = $("podium");
  ol.textContent = "";
  // Classic podium order on wide screens: 2nd, 1st, 3rd, then the rest.
  const shown = order.length >= 3 ? [order[1], order[0], order[2], ...order.slice(3)] : order;
  for (const i of shown) {
    const p = places[i];
    ol.append(
      el(
        "li",
        { class: `${p <= 3 ? `p${p}` : "rest"}${i === S.seat ? " me" : ""}`, "data-seat": i },
        el("div", { class: "place", text: p ? t("podium.place", { n: p }) : "" }),
        el("div", { class: "pname" }, nameNode(i)),
        el("div", { class: "pts", text: t("game.points", { n: totals[i] }) }),
      ),
    );
  }
  const rec = api.recordUrl(S.code, S.token);
  $("record-link-final").href = rec;
  $("record-link-final").setAttribute("download", `minodice-${S.code}.json`);
  // "Review this game": the replay page (replay.html) of this table.
  $("review-link").href = `/replay.html#table=${encodeURIComponent(S.code)}`;
  // Who won, the moment of the game and the rematch (finale.js).
  renderFinale(order, places, totals);
}
