// The seats around the table: where each sits (this seat at the bottom, the others
// clockwise in play order), an avatar of its own, the name in full, bid and tricks, score,
// the "to act" mark and the turn timer. Who is to act comes from the server.
import { bdi, listNodes, nameNode, tn } from "./bidi.js";
import { giveToBot } from "./lobby.js";
import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { S, amHost, botLabel, handedOver, plainName } from "./state.js";

// Places around the felt for each table size, starting with the seat at the bottom and going
// clockwise: a grid of 3 × 3 cells around the middle one (see .felt in css/app.css).
const LAYOUT = {
  3: ["bottom", "tl", "tr"],
  4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "tl", "tr", "right"],
  6: ["bottom", "left", "tl", "top", "tr", "right"],
};

/** Where seat `seat` sits at a table of `n`: this page's seat (or seat 0 when watching) at the bottom. */
export function seatPlace(seat, n) {
  const base = S.seat ?? 0;
  return (LAYOUT[n] || LAYOUT[6])[(((seat - base) % n) + n) % n];
}

// Up to two letters for the avatar: the first letter of the first two words, without
// combining marks (a name of stacked marks still gets a tidy circle).
export function initials(name) {
  const words = String(name).normalize("NFC").split(/\s+/).filter(Boolean);
  const seg = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  const first = (w) => ([...seg.segment(w)][0]?.segment || "").replace(/\p{M}+/gu, "");
  const letters = words.slice(0, 2).map(first).join("").toLocaleUpperCase();
  return letters || "?";
}

function bidLine(v, d, bidding, i) {
  const mine = i === S.seat && !handedOver();
  const bid = v.bids[i] ?? (i === S.seat ? d.myBid : null);
  if (bidding) {
    let text;
    if (i === S.seat && d.myBid !== null) {
      text = mine ? t("game.you_bid_hidden", { bid: d.myBid }) : t("game.bot_bid_for_you", { bot: botLabel(S.table.seats[i].bot), bid: d.myBid });
    } else {
      text = v.bid_placed[i] ? t("game.has_bid") : t("game.bidding_now");
    }
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
      badges.append(el("button", { type: "button", class: "small", text: t("game.give_to_bot"), onclick: () => giveToBot(i, S.table?.level || "medium") }));
    }
  }
  return badges.childNodes.length ? badges : null;
}

/** The seats around the felt. `toAct`: the seats the game waits for (the server's list). */
export function renderSeats(v, d, bidding, toAct, winning) {
  const ol = $("players");
  ol.textContent = "";
  $("felt").dataset.seats = String(v.seats);
  for (let i = 0; i < v.seats; i++) {
    const acting = toAct.includes(i);
    const cls = ["player", i === S.seat ? "me" : "", acting ? "turn" : "", i === winning ? "leading" : ""].join(" ").trim();
    ol.append(
      el(
        "li",
        { class: cls, "data-seat": i, "data-place": seatPlace(i, v.seats), "aria-current": acting ? "true" : null },
        el("span", { class: "avatar", "data-colour": i, "aria-hidden": "true", text: initials(plainName(i)) }),
        el(
          "span",
          { class: "phead" },
          el("span", { class: "pname" }, nameNode(i)),
          el("span", { class: "ptotal", title: t("game.total"), text: t("game.points", { n: v.totals[i] }) }),
        ),
        bidLine(v, d, bidding, i),
        acting ? el("span", { class: "act-mark", text: t("game.to_act") }) : null,
        i === winning ? el("span", { class: "pbid win-mark", text: t("game.winning_now") }) : null,
        el("span", { class: "ptimer", role: "timer", hidden: true }),
        seatBadges(i),
      ),
    );
  }
  renderTimer();
}

// The turn timer: a live countdown, once a second, to the bot that stands in for an
// absent player the game waits for (TABLE.players[i].autoplay_in, see api.normalizeTable),
// in the head of the screen and on the seat. Role timer, not a live region, so screen
// readers are not flooded.
let timerTick = null;

export function renderTimer() {
  clearTimeout(timerTick);
  timerTick = null;
  const box = $("turn-timer");
  const seats = S.screen === "game" && S.table?.status === "playing" ? S.table.seats || [] : [];
  const now = performance.now();
  const groups = new Map(); // whole seconds left → seats
  let next = Infinity; // ms until the next shown second changes
  for (const badge of document.querySelectorAll("#players .ptimer")) badge.hidden = true;
  seats.forEach((s, i) => {
    if (typeof s.autoplayAt !== "number" || s.bot || s.standin) return;
    const ms = Math.max(0, s.autoplayAt - now);
    const n = Math.ceil(ms / 1000);
    if (!groups.has(n)) groups.set(n, []);
    groups.get(n).push(i);
    if (ms > 0) next = Math.min(next, ms % 1000 || 1000);
    const badge = document.querySelector(`#players [data-seat="${i}"] .ptimer`);
    if (badge) {
      badge.textContent = `⏱ ${n} s`;
      badge.hidden = false;
    }
  });
  const lines = [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([n, list]) => tn("game.deadline", { names: listNodes(list.map((i) => bdi(plainName(i)))), n }));
  const text = lines.map((f) => f.textContent).join(" ");
  if (box.textContent !== text) box.replaceChildren(...lines.flatMap((f, k) => (k ? [" ", f] : [f])));
  box.hidden = !text;
  if (next < Infinity) timerTick = setTimeout(renderTimer, Math.min(next, 1000) + 20);
}

// A quick reaction (chat.js sends the event) pops up for a moment at the seat that sent it.
// Decorative: the chat log already says it to screen readers.
document.addEventListener("minodice:reaction", (ev) => {
  const { seat, reaction } = ev.detail || {};
  const card = document.querySelector(`#players [data-seat="${seat}"]`);
  if (!card || typeof reaction !== "string") return;
  const bubble = el("span", { class: "reaction-bubble", "aria-hidden": "true", text: reaction });
  card.append(bubble);
  setTimeout(() => bubble.remove(), 2600);
});
